/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the outputs of `sfs_trace`: an aligned text table for people
 * and YAML (through common's libyaml writer) for programs, for both the
 * miss-ratio analysis and the statistics.  The YAML schema is documented in
 * docs/sfs_trace.md and is stable: keys are only ever added.  The caller
 * owns the stream and the YAML writer; nothing here decides exit codes.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/fields.h"
#include "common/alloc.h"
#include "analyze/az.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/num.h"
#include "common/yaml.h"

#define MAX_CACHE_SIZES 4096

/* ---- cache sizes -------------------------------------------------------- */

int az_cache_sizes(const char *list, uint64_t unique, uint64_t **sizes, size_t *n,
                   char *err, size_t errlen)
{
    uint64_t *v = cm_calloc(MAX_CACHE_SIZES, sizeof(*v));
    size_t k = 0;

    if (!v)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    if (list && *list) {
        char *copy = cm_strdup(list), *tok, *save = NULL;
        if (!copy) {
            free(v);
            return cm_errf(err, errlen, "out of memory"), -ENOMEM;
        }
        for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            uint64_t c;
            if (k == MAX_CACHE_SIZES ||
                cm_parse_size("--cache-sizes", tok, &c, err, errlen) < 0 || c == 0 ||
                (k > 0 && c <= v[k - 1])) {
                if (k == MAX_CACHE_SIZES)
                    cm_errf(err, errlen, "--cache-sizes: more than %d sizes",
                            MAX_CACHE_SIZES);
                else if (c == 0 || (k > 0 && c <= v[k - 1]))
                    cm_errf(err, errlen,
                            "--cache-sizes: '%s': sizes must be positive and "
                            "ascending",
                            tok);
                free(copy);
                free(v);
                return -EINVAL;
            }
            v[k++] = c;
        }
        free(copy);
        if (k == 0) {
            free(v);
            return cm_errf(err, errlen, "--cache-sizes: empty list");
        }
    } else {
        /* Powers of two up to the first one that holds the footprint. */
        uint64_t c = 1;
        for (;;) {
            v[k++] = c;
            if (c >= unique || c > UINT64_MAX / 2)
                break;
            c *= 2;
        }
    }
    *sizes = v;
    *n = k;
    return 0;
}

/* ---- the source --------------------------------------------------------- */

static const char *src_format(const struct az_source *src)
{
    return src->reader ? tr_reader_format(src->reader) : src->format;
}

static const char *src_unit_name(const struct az_source *src, uint32_t u, char *buf,
                                 size_t len)
{
    if (src->reader)
        return tr_reader_unit_name(src->reader, u, buf, len);
    return src->unit_name(src->data, u, buf, len);
}

/* ---- ratios ------------------------------------------------------------- */

/* Scale factor from the sample to the whole trace. */
static double scale(const struct az_mrc *m)
{
    return m->threshold ? 1.0 / m->opt.sample_rate : 1.0;
}

void az_mrc_ratios(const struct az_mrc *m, const struct az_mrc_run *r,
                   const struct az_hist *h, const uint64_t *sizes, size_t n,
                   double *ratio, uint64_t *hits)
{
    int sampled = m->threshold && r == &m->main;
    double denom = (double)h->references;
    size_t i;

    /* Sampled: the ratio over the references the sample kept.  (SHARDS_adj,
     * which moves the difference between R * N and the kept count to the
     * smallest distance, doubled the error on the skewed benchmark trace, where the
     * difference comes from hot blocks whose distances are not small.) */
    az_hist_hits_at(h, sizes, n, hits);
    for (i = 0; i < n; i++) {
        ratio[i] = denom > 0 ? (double)hits[i] / denom : 0;
        if (sampled) /* estimate for the whole trace (or unit) */
            hits[i] = (uint64_t)llround(
                ratio[i] * (h == &r->total ? (double)m->references
                                           : (double)h->references * scale(m)));
    }
}

/* The cliff risk at each size (mrc.c): the expected number of reuses whose
 * estimate lies on the wrong side of it, over the references. */
static void cliff_risk(const struct az_mrc *m, const uint64_t *sizes, size_t n,
                       double *out)
{
    double refs = (double)m->main.total.references;
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        while (k + 1 < m->bins.n && m->bins.bound[k + 1] <= sizes[i])
            k++;
        out[i] = 0;
        if (m->main.cross && refs > 0 && m->bins.bound[k] <= sizes[i])
            out[i] = m->main.cross[k] / refs;
    }
}

double az_mrc_expected_error(const struct az_mrc *m, const uint64_t *sizes, size_t n,
                             double *err_at)
{
    /* the first of the report's arrays (az_mrc_report_arrays) */
    double *ratio = m->report_d, sum = 0, fpc;
    double *cliff = ratio + n * AZ_SUBSAMPLES;
    uint64_t *hits = m->report_u;
    unsigned k, used = 0;
    size_t i;

    if (!m->threshold || n == 0 || n > m->report_n)
        return NAN;
    for (k = 0; k < AZ_SUBSAMPLES; k++)
        if (m->sub[k].total.references)
            az_mrc_ratios(m, &m->sub[k], &m->sub[k].total, sizes, n, ratio + used++ * n,
                          hits);
    cliff_risk(m, sizes, n, cliff);
    /* Var ~ (1 - rate) / rate (sampling blocks without replacement), so
     * sd(R) = sd(R/K) * sqrt((1 - R) / (K - R)): 1/sqrt(K) at small rates,
     * 0 at rate 1, where the sample is the trace. */
    fpc = sqrt((1 - m->opt.sample_rate) / (used - m->opt.sample_rate));
    for (i = 0; i < n; i++) {
        double mean = 0, var = 0, e;
        for (k = 0; k < used; k++)
            mean += ratio[k * n + i] / used;
        for (k = 0; k < used; k++)
            var += (ratio[k * n + i] - mean) * (ratio[k * n + i] - mean);
        /* too few sub-samples to tell: say so with the largest error */
        e = used > 1 ? sqrt(var / (used - 1)) * fpc * sqrt(2 / M_PI) : 1.0;
        /* The sub-samples share the distance estimates' error, which is not
         * random across them: where many reuses lie within it of this size
         * (a cliff of the curve), part of them is counted on the wrong side
         * in every sub-sample alike.  The cliff risk bounds that part. */
        e = sqrt(e * e + cliff[i] * cliff[i]);
        if (err_at)
            err_at[i] = e;
        sum += e;
    }
    return sum / (double)n;
}

double az_mrc_sample_error(const struct az_mrc *m, const uint64_t *sizes, size_t n)
{
    double *a, *b, sum = 0;
    uint64_t *h;
    size_t i;

    if (!m->opt.sample_check || n == 0 || az_mrc_report_arrays(m, n, &a, &b, &h) < 0)
        return NAN;
    az_mrc_ratios(m, &m->main, &m->main.total, sizes, n, a, h);
    az_mrc_ratios(m, &m->exact, &m->exact.total, sizes, n, b, h);
    for (i = 0; i < n; i++)
        sum += fabs(a[i] - b[i]);
    return sum / (double)n;
}

/* ---- text --------------------------------------------------------------- */

static void table_rows(FILE *out, const struct az_mrc *m, const struct az_hist *h,
                       const uint64_t *sizes, size_t n, const char *indent)
{
    double *ratio, *experr;
    uint64_t *hits;
    /* the sampled curve of the whole trace carries its expected error */
    int with_err = m->threshold && h == &m->main.total, room;
    size_t i;

    room = az_mrc_report_arrays(m, n, &ratio, &experr, &hits);
    assert(room == 0); /* az_mrc_init made room for every size a caller holds */
    if (room < 0)
        return;
    az_mrc_ratios(m, &m->main, h, sizes, n, ratio, hits);
    if (with_err)
        az_mrc_expected_error(m, sizes, n, experr);
    fprintf(out, "%s%14s %16s %14s %10s %10s%s\n", indent, "cache_blocks", "cache_bytes",
            "hits", "hit_ratio", "miss_ratio", with_err ? "  expected_error" : "");
    for (i = 0; i < n; i++) {
        double bytes = (double)sizes[i] * (double)m->opt.block_size;
        fprintf(out, "%s%14" PRIu64 " %16.0f %14" PRIu64 " %10.6f %10.6f", indent,
                sizes[i], bytes, hits[i], ratio[i], 1.0 - ratio[i]);
        if (with_err)
            fprintf(out, "  +-%.4f", experr[i]);
        fputc('\n', out);
    }
}

static void unit_table(FILE *out, const struct az_source *src, const struct az_mrc *m,
                       const struct az_hist *h, uint32_t u, const char *what,
                       const uint64_t *sizes, size_t n)
{
    char name[256];

    if (h->references == 0)
        return;
    fprintf(out, "\nunit %s (%s): references %" PRIu64 ", cold misses %" PRIu64 "\n",
            src_unit_name(src, u, name, sizeof(name)), what, h->references, h->cold);
    table_rows(out, m, h, sizes, n, "  ");
}

void az_mrc_table(FILE *out, const struct az_source *src, const struct az_mrc *m,
                  const uint64_t *sizes, size_t n)
{
    const struct az_hist *t = &m->main.total;
    uint64_t unique = az_sd_unique(m->main.sd);
    uint32_t u;

    fprintf(out, "trace %s (%s), block size %" PRIu64 " bytes\n", src->file,
            src_format(src), m->opt.block_size);
    fprintf(out, "distances: inclusive LRU stack depth (1 = most recent); a "
                 "cache of C blocks hits iff depth <= C\n");
    if (m->threshold)
        fprintf(
            out,
            "SHARDS sample: rate %g, %" PRIu64 " of %" PRIu64
            " references watched, %" PRIu64 " in the distance sample (rate %g), %" PRIu64
            " kept by the block sample; figures below are estimates, expected error of "
            "the hit ratio %.4f (mean over the sizes, from %d sub-samples and the cliff "
            "risk)\n",
            m->opt.sample_rate, m->main.sampled, m->references, m->main.dist_refs,
            az_mrc_distance_rate(m), m->main.kept,
            az_mrc_expected_error(m, sizes, n, NULL), AZ_SUBSAMPLES);
    if (m->oversize_skipped)
        fprintf(out, "records over --max-record-blocks skipped (lenient): %" PRIu64 "\n",
                m->oversize_skipped);
    fprintf(out,
            "records %" PRIu64 " (size 0: %" PRIu64 "), references %" PRIu64
            ", unique blocks %.0f, cold misses %.0f\n",
            m->records, m->zero_size, m->references, (double)unique * scale(m),
            (double)t->cold * scale(m));
    table_rows(out, m, t, sizes, n, "");
    if (m->opt.sample_check)
        fprintf(out, "sample error: mean absolute error of the hit ratio %.6f\n",
                az_mrc_sample_error(m, sizes, n));
    for (u = 0; m->opt.per_unit && u < m->main.nunits; u++)
        unit_table(out, src, m, &m->main.units[u], u, "shared cache", sizes, n);
    for (u = 0; m->opt.isolated && u < m->main.niso; u++)
        unit_table(out, src, m, &m->main.iso[u], u, "own cache", sizes, n);
}

/* ---- YAML --------------------------------------------------------------- */

/* The histogram in power-of-two bins (gt, le], whatever extra bounds the
 * counters have. */
static void yaml_histogram(struct cm_yaml *y, const struct az_hist *h)
{
    const struct az_bins *b = h->bins;
    uint64_t lo = 0;
    size_t k = 0;
    unsigned p;

    cm_yaml_key(y, "histogram");
    cm_yaml_seq_begin(y);
    for (p = 0; h->count && p < 64 && lo < h->max_depth; p++) {
        uint64_t hi = 1ull << p, c = 0;
        for (; k < b->n && b->bound[k] <= hi; k++)
            c += h->count[k];
        if (c) {
            cm_yaml_map_begin(y);
            cm_yaml_kv_uint(y, "gt", lo);
            cm_yaml_kv_uint(y, "le", hi);
            cm_yaml_kv_uint(y, "count", c);
            cm_yaml_map_end(y);
        }
        lo = hi;
    }
    cm_yaml_seq_end(y);
}

static void yaml_curve(struct cm_yaml *y, const struct az_mrc *m,
                       const struct az_mrc_run *r, const struct az_hist *h,
                       const uint64_t *sizes, size_t n)
{
    double *ratio, *experr;
    uint64_t *hits;
    int with_err = m->threshold && h == &m->main.total, room;
    size_t i;

    room = az_mrc_report_arrays(m, n, &ratio, &experr, &hits);
    assert(room == 0); /* az_mrc_init made room for every size a caller holds */
    if (room < 0)
        return;
    cm_yaml_key(y, "hit_ratio");
    cm_yaml_seq_begin(y);
    if (with_err)
        az_mrc_expected_error(m, sizes, n, experr);
    az_mrc_ratios(m, r, h, sizes, n, ratio, hits);
    for (i = 0; i < n; i++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "cache_blocks", sizes[i]);
        cm_yaml_kv_uint(y, "cache_bytes", sizes[i] * m->opt.block_size);
        cm_yaml_kv_uint(y, "hits", hits[i]);
        cm_yaml_kv_double(y, "hit_ratio", ratio[i], 9);
        cm_yaml_kv_double(y, "miss_ratio", 1.0 - ratio[i], 9);
        if (with_err)
            cm_yaml_kv_double(y, "expected_error", experr[i], 9);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
}

/* The figures shared by the whole trace and each unit. */
static void yaml_figures(struct cm_yaml *y, const struct az_mrc *m,
                         const struct az_mrc_run *r, const struct az_hist *h,
                         const uint64_t *sizes, size_t n)
{
    uint64_t reuses = h->references - h->cold;

    cm_yaml_kv_uint(y, "references",
                    r == &m->main && m->threshold
                        ? (uint64_t)llround((double)h->references * scale(m))
                        : h->references);
    cm_yaml_kv_uint(y, "cold_misses",
                    (uint64_t)llround((double)h->cold * (r == &m->main ? scale(m) : 1)));
    cm_yaml_kv_uint(y, "reuses",
                    (uint64_t)llround((double)reuses * (r == &m->main ? scale(m) : 1)));
    cm_yaml_key(y, "mean_distance");
    if (reuses)
        cm_yaml_double(y, (double)(az_hist_sum_depth(h) / reuses), 6);
    else
        cm_yaml_null(y);
    cm_yaml_key(y, "max_distance");
    if (reuses)
        cm_yaml_uint(y, h->max_depth);
    else
        cm_yaml_null(y);
    yaml_histogram(y, h);
    yaml_curve(y, m, r, h, sizes, n);
}

void az_options_yaml(struct cm_yaml *y, const struct cm_opt *opts, size_t nopts,
                     const void *cfg)
{
    char buf[4096];
    size_t i;

    if (!opts)
        return;
    cm_yaml_key(y, "options");
    cm_yaml_map_begin(y);
    for (i = 0; i < nopts; i++)
        if (opts[i].long_name)
            cm_yaml_kv_str(y, opts[i].long_name,
                           cm_opt_format(&opts[i], cfg, buf, sizeof(buf)));
    cm_yaml_map_end(y);
}

static void yaml_options(struct cm_yaml *y, const struct az_source *src)
{
    az_options_yaml(y, src->opts, src->nopts, src->cfg);
}

static void yaml_reader(struct cm_yaml *y, const struct tr_reader *r)
{
    unsigned i;

    cm_yaml_key(y, "reader");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "records", r->records);
    cm_yaml_kv_uint(y, "malformed_skipped", r->skipped);
    cm_yaml_kv_uint(y, "warnings", r->warnings);
    cm_yaml_key(y, "counters");
    cm_yaml_map_begin(y);
    for (i = 0; i < r->ncounters; i++)
        cm_yaml_kv_uint(y, r->counters[i].name, r->counters[i].n);
    cm_yaml_map_end(y);
    cm_yaml_map_end(y);
}

static void yaml_units(struct cm_yaml *y, const struct az_source *src,
                       const struct az_mrc *m, const char *key, const struct az_hist *h,
                       uint32_t nunits, const uint64_t *sizes, size_t n)
{
    char name[256];
    uint32_t u;

    cm_yaml_key(y, key);
    cm_yaml_map_begin(y);
    for (u = 0; u < nunits; u++) {
        if (h[u].references == 0)
            continue;
        /* quoted: a handle's hex digits stay a string */
        cm_yaml_str(y, src_unit_name(src, u, name, sizeof(name)));
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "unit", u);
        yaml_figures(y, m, &m->main, &h[u], sizes, n);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
}

void az_mrc_yaml(struct cm_yaml *y, const struct az_source *src, const struct az_mrc *m,
                 const uint64_t *sizes, size_t n)
{
    const struct az_mrc_run *r = &m->main;
    size_t judy = 0, total = az_sd_mem(r->sd, &judy);

    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "command", "mrc");
    cm_yaml_kv_str(y, "trace", src->file);
    cm_yaml_kv_str(y, "format", src_format(src));
    cm_yaml_kv_uint(y, "block_size", m->opt.block_size);
    cm_yaml_kv_str(y, "distance_convention", AZ_DISTANCE_CONVENTION);
    cm_yaml_kv_str(y, "method",
                   m->opt.method == AZ_SD_JUDY1 ? "judy1count" : "map+fenwick");
    cm_yaml_key(y, "sampling");
    cm_yaml_map_begin(y);
    cm_yaml_kv_double(y, "rate", m->threshold ? m->opt.sample_rate : 1.0, -1);
    cm_yaml_kv_bool(y, "exact", m->threshold == 0);
    cm_yaml_kv_uint(y, "sampled_references", m->threshold ? r->sampled : m->references);
    if (m->threshold)
        cm_yaml_kv_uint(y, "block_sample_references", r->kept);
    if (m->opt.sample_check)
        cm_yaml_kv_double(y, "hit_ratio_mae", az_mrc_sample_error(m, sizes, n), 9);
    if (m->threshold) {
        cm_yaml_kv_double(y, "expected_error", az_mrc_expected_error(m, sizes, n, NULL),
                          9);
        cm_yaml_kv_uint(y, "seed", m->opt.sample_seed);
        cm_yaml_kv_double(y, "distance_rate", az_mrc_distance_rate(m), -1);
        cm_yaml_kv_uint(y, "distance_sample_references", r->dist_refs);
    }
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "oversize_records_skipped", m->oversize_skipped);
    cm_yaml_kv_uint(y, "records", m->records);
    cm_yaml_kv_uint(y, "zero_size_records", m->zero_size);
    cm_yaml_kv_uint(y, "other_records", m->other_records);
    cm_yaml_kv_uint(y, "unique_blocks",
                    (uint64_t)llround((double)az_sd_unique(r->sd) * scale(m)));
    yaml_figures(y, m, r, &r->total, sizes, n);
    if (m->threshold)
        cm_yaml_kv_uint(y, "references_total", m->references);
    if (m->opt.per_unit)
        yaml_units(y, src, m, "per_unit", r->units, r->nunits, sizes, n);
    if (m->opt.isolated)
        yaml_units(y, src, m, "per_unit_isolated", r->iso, r->niso, sizes, n);
    cm_yaml_key(y, "memory");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "judy_bytes", judy);
    cm_yaml_kv_uint(y, "stack_bytes", total);
    if (m->threshold)
        cm_yaml_kv_uint(y, "sample_bytes", az_mrc_sample_mem(m));
    cm_yaml_map_end(y);
    if (src->reader)
        yaml_reader(y, src->reader);
    else
        src->reader_yaml(y, src->data);
    yaml_options(y, src);
    cm_yaml_map_end(y);
}

/* ---- statistics --------------------------------------------------------- */

static double duration_s(const struct az_stats *s)
{
    return s->any ? (double)(s->last_ns - s->first_ns) / 1e9 : 0;
}

static unsigned rate_used(const struct az_stats *s)
{
    unsigned n = AZ_RATE_BUCKETS;

    while (n > 0 && s->rate[n - 1] == 0)
        n--;
    return n;
}

static uint64_t units_used(const struct az_stats *s)
{
    uint64_t n = 0;
    uint32_t u;

    for (u = 0; u < s->nunits; u++)
        n += s->units[u].records > 0;
    return n;
}

void az_size_hist_table(FILE *out, const char *title, const char *what,
                        const uint64_t hist[AZ_SIZE_BUCKETS])
{
    char over[24];
    unsigned i;

    fprintf(out, "\n%s\n%16s %14s\n", title, "size_le", what);
    for (i = 0; i < AZ_SIZE_BUCKETS - 1; i++)
        if (hist[i])
            fprintf(out, "%16" PRIu64 " %14" PRIu64 "\n", az_size_bucket_max(i), hist[i]);
    if (hist[i]) { /* the last bucket has no upper bound */
        snprintf(over, sizeof(over), "> %" PRIu64, az_size_bucket_max(i - 1));
        fprintf(out, "%16s %14" PRIu64 "\n", over, hist[i]);
    }
}

void az_size_hist_yaml(struct cm_yaml *y, const uint64_t hist[AZ_SIZE_BUCKETS])
{
    unsigned i;

    cm_yaml_key(y, "size_histogram");
    cm_yaml_seq_begin(y);
    for (i = 0; i < AZ_SIZE_BUCKETS; i++) {
        if (!hist[i])
            continue;
        cm_yaml_map_begin(y);
        if (i < AZ_SIZE_BUCKETS - 1)
            cm_yaml_kv_uint(y, "le", az_size_bucket_max(i));
        else /* no upper bound */
            cm_yaml_kv_uint(y, "gt", az_size_bucket_max(i - 1));
        cm_yaml_kv_uint(y, "count", hist[i]);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
}

void az_stats_table(FILE *out, const struct az_source *src, const struct az_stats *s)
{
    uint64_t rw = s->by_op[TR_OP_READ] + s->by_op[TR_OP_WRITE];
    double dur = duration_s(s);
    char name[256];
    unsigned i, n;
    uint32_t u;

    fprintf(out, "trace %s (%s)\n", src->file, tr_reader_format(src->reader));
    fprintf(out, "%-22s %" PRIu64 "\n", "records", s->records);
    for (i = 0; i < TR_OP__COUNT; i++)
        if (s->by_op[i])
            fprintf(out, "  %-20s %" PRIu64 "\n", tr_op_name((enum tr_op)i), s->by_op[i]);
    fprintf(out, "%-22s %" PRIu64 "\n", "bytes read", s->bytes_read);
    fprintf(out, "%-22s %" PRIu64 "\n", "bytes written", s->bytes_written);
    fprintf(out, "%-22s %" PRIu64 "\n", "units", units_used(s));
    fprintf(out, "%-22s %.6f s\n", "duration", dur);
    fprintf(out, "%-22s %.1f records/s\n", "mean rate",
            dur > 0 ? (double)s->records / dur : 0.0);
    fprintf(out, "%-22s %.4f\n", "sequential fraction",
            rw > 1 ? (double)s->sequential / (double)rw : 0.0);
    fprintf(out, "%-22s %" PRIu64 " blocks of %" PRIu64 " (%" PRIu64 " bytes)\n",
            "footprint", s->footprint.count, s->block_size,
            s->footprint.count * s->block_size);
    for (i = 0; tr_masta_string(src->reader, i); i++)
        fprintf(out, "%-22s %s\n", i ? "" : "metadata", tr_masta_string(src->reader, i));
    az_size_hist_table(out, "request sizes", "records", s->size_hist);
    fprintf(out, "\nunits\n%-24s %10s %10s %10s %16s %16s %10s\n", "unit", "records",
            "reads", "writes", "bytes_read", "bytes_written", "seq_frac");
    for (u = 0; u < s->nunits; u++) {
        const struct az_unit_stats *x = &s->units[u];
        if (!x->records)
            continue;
        fprintf(out,
                "%-24s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %16" PRIu64 " %16" PRIu64
                " %10.4f\n",
                tr_reader_unit_name(src->reader, u, name, sizeof(name)), x->records,
                x->reads, x->writes, x->bytes_read, x->bytes_written,
                x->records > 1 ? (double)x->sequential / (double)x->records : 0.0);
    }
    n = rate_used(s);
    fprintf(out, "\nrate over time (%.3f s buckets)\n%12s %12s %14s\n",
            (double)s->rate_width_ns / 1e9, "start_s", "records", "records/s");
    for (i = 0; i < n; i++)
        fprintf(out, "%12.3f %12" PRIu64 " %14.1f\n", (double)s->rate_width_ns * i / 1e9,
                s->rate[i], (double)s->rate[i] * 1e9 / (double)s->rate_width_ns);
}

/* The trace statistics' plain counters, each once (common/fields.h). */
#define AZS(m, key) CM_FIELD_OF(struct az_stats, m, CM_FIELD_U64, CM_MERGE_SUM, "io", key)
static const struct cm_field stats_fields[] = {
    AZS(bytes_read, "bytes_read"),
    AZS(bytes_written, "bytes_written"),
    AZS(zero_size, "zero_size_records"),
};

void az_stats_yaml(struct cm_yaml *y, const struct az_source *src,
                   const struct az_stats *s)
{
    uint64_t rw = s->by_op[TR_OP_READ] + s->by_op[TR_OP_WRITE];
    double dur = duration_s(s);
    char name[256];
    unsigned i, n;
    uint32_t u;

    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "command", "stats");
    cm_yaml_kv_str(y, "trace", src->file);
    cm_yaml_kv_str(y, "format", tr_reader_format(src->reader));
    cm_yaml_kv_uint(y, "records", s->records);
    cm_yaml_key(y, "records_by_op");
    cm_yaml_map_begin(y);
    for (i = 0; i < TR_OP__COUNT; i++)
        cm_yaml_kv_uint(y, tr_op_name((enum tr_op)i), s->by_op[i]);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "reads", s->by_op[TR_OP_READ]);
    cm_yaml_kv_uint(y, "writes", s->by_op[TR_OP_WRITE]);
    cm_fields_yaml(y, stats_fields, CM_ARRAY_LEN(stats_fields), s, "io");
    cm_yaml_kv_double(y, "duration_s", dur, 9);
    cm_yaml_kv_double(y, "mean_rate", dur > 0 ? (double)s->records / dur : 0, 3);
    cm_yaml_kv_double(y, "sequential_fraction",
                      rw > 1 ? (double)s->sequential / (double)rw : 0, 6);
    cm_yaml_key(y, "footprint");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "block_size", s->block_size);
    cm_yaml_kv_uint(y, "blocks", s->footprint.count);
    cm_yaml_kv_uint(y, "bytes", s->footprint.count * s->block_size);
    cm_yaml_map_end(y);
    if (tr_masta_string(src->reader, 0)) {
        cm_yaml_key(y, "metadata");
        cm_yaml_seq_begin(y);
        for (i = 0; tr_masta_string(src->reader, i); i++)
            cm_yaml_str(y, tr_masta_string(src->reader, i));
        cm_yaml_seq_end(y);
    }
    az_size_hist_yaml(y, s->size_hist);
    cm_yaml_kv_uint(y, "units_count", units_used(s));
    cm_yaml_key(y, "units");
    cm_yaml_map_begin(y);
    for (u = 0; u < s->nunits; u++) {
        const struct az_unit_stats *x = &s->units[u];
        if (!x->records)
            continue;
        cm_yaml_key(y, tr_reader_unit_name(src->reader, u, name, sizeof(name)));
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "unit", u);
        cm_yaml_kv_uint(y, "records", x->records);
        cm_yaml_kv_uint(y, "reads", x->reads);
        cm_yaml_kv_uint(y, "writes", x->writes);
        cm_yaml_kv_uint(y, "bytes_read", x->bytes_read);
        cm_yaml_kv_uint(y, "bytes_written", x->bytes_written);
        cm_yaml_kv_uint(y, "max_end", x->max_end);
        cm_yaml_kv_uint(y, "sequential", x->sequential);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
    cm_yaml_key(y, "rate");
    cm_yaml_map_begin(y);
    cm_yaml_kv_double(y, "bucket_s", (double)s->rate_width_ns / 1e9, 9);
    cm_yaml_key(y, "records");
    cm_yaml_flow_seq_begin(y);
    n = rate_used(s);
    for (i = 0; i < n; i++)
        cm_yaml_uint(y, s->rate[i]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
    yaml_reader(y, src->reader);
    yaml_options(y, src);
    cm_yaml_map_end(y);
}
