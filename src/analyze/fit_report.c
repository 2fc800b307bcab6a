/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit_report.c - the report of sfs_trace fit (az_fit.h): what the fitted
 * model keeps of the trace (the op mix, the block sizes, the rate, the
 * file set and its working set, the streams and their depth, the
 * appends), what it cannot keep (dependencies, the rate's bursts, per-file
 * sequentiality, and every call or request the model could not map), and
 * the measure of fit: the trace against its model, and, when a second
 * trace is given (the fitted run's own capture), the two fits side by
 * side with the same distances and their miss-ratio curves.  Text for
 * people and YAML with the same figures.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_fit.h"

/* ---- distances ----------------------------------------------------------------- */

/* The miss ratio of f's curve at a cache of c blocks (exact at powers of
 * two). */
static double miss(const struct az_fit *f, uint64_t c)
{
    uint64_t refs = f->mrc->main.total.references;

    return refs ? 1.0 - (double)az_hist_hits(&f->mrc->main.total, c) / (double)refs : 0;
}

/* Powers of two up to the larger footprint (at least one size). */
static unsigned mrc_sizes(const struct az_fit *a, const struct az_fit *b)
{
    uint64_t fp = a->m.footprint_blocks;
    unsigned n = 1;

    if (b && b->m.footprint_blocks > fp)
        fp = b->m.footprint_blocks;
    while (n < 63 && (1ull << (n - 1)) < fp)
        n++;
    return n;
}

/* The total variation between two block-size tables (fitted percents). */
static double rows_tv(const struct ld_iodist_table *x, const struct ld_iodist_table *y)
{
    double sum = 0;
    int i, j;

    for (i = 0; i < x->nrows; i++) {
        int other = 0;
        for (j = 0; j < y->nrows; j++)
            if (y->row[j].blocks == x->row[i].blocks && y->row[j].frag == x->row[i].frag)
                other = y->row[j].pct;
        sum += abs(x->row[i].pct - other);
    }
    for (j = 0; j < y->nrows; j++) {
        int found = 0;
        for (i = 0; i < x->nrows; i++)
            found |=
                y->row[j].blocks == x->row[i].blocks && y->row[j].frag == x->row[i].frag;
        if (!found)
            sum += y->row[j].pct;
    }
    return sum / 200.0;
}

/* The trace's own block-size shares against the rows fitted to them. */
static double rows_tv_self(const struct az_fit_model *m, int k)
{
    double sum = 0, kept = 0;
    int i;

    for (i = 0; i < m->table[k].nrows; i++) {
        sum += fabs(m->trace_row_pct[k][i] - m->table[k].row[i].pct);
        kept += m->trace_row_pct[k][i];
    }
    return (sum + (100 - kept)) / 200.0; /* the rows left out count wholly */
}

void az_fit_distance(const struct az_fit *a, const struct az_fit *b,
                     struct az_fit_distance *d)
{
    unsigned i, n;
    int op, k;

    memset(d, 0, sizeof(*d));
    for (op = 0; op < NF_NOPS; op++) {
        double x = b ? (double)b->m.pct[op] : a->m.trace_pct[op];
        double diff = fabs(a->m.pct[op] - x);
        if (diff > d->mix_max)
            d->mix_max = diff;
        d->mix_tv += diff / 200.0;
    }
    for (k = 0; k < 2; k++)
        d->rows_tv[k] =
            b ? rows_tv(&a->m.table[k], &b->m.table[k]) : rows_tv_self(&a->m, k);
    if (!b)
        return;
    n = mrc_sizes(a, b);
    for (i = 0; i < n; i++)
        d->mrc_mean += fabs(miss(a, 1ull << i) - miss(b, 1ull << i)) / n;
}

/* ---- text ------------------------------------------------------------------------ */

static double peak_over_mean(const struct az_fit *f, uint64_t *lo, uint64_t *hi)
{
    uint64_t sum = 0;
    uint32_t i, n = f->c.nrate;

    *lo = UINT64_MAX;
    *hi = 0;
    /* whole seconds only: the last is cut by the trace's end */
    if (n > 2)
        n--;
    for (i = 0; i < n; i++) {
        sum += f->c.rate[i];
        if (f->c.rate[i] < *lo)
            *lo = f->c.rate[i];
        if (f->c.rate[i] > *hi)
            *hi = f->c.rate[i];
    }
    if (*lo == UINT64_MAX)
        *lo = 0;
    return sum ? (double)*hi / ((double)sum / n) : 0;
}

static void rows_table(FILE *out, const struct az_fit *f, const struct az_fit *g, int k)
{
    const struct ld_iodist_table *t = &f->m.table[k];
    int i, j;

    fprintf(out, "\n%s requests: %" PRIu64 " (%" PRIu64 " calls), blocks of %u KB\n",
            k ? "WRITE" : "READ", f->c.requests[k], f->c.req_calls[k], f->m.kb_per_block);
    if (!f->m.have_table[k]) {
        fprintf(out, "  none: SFS's default rows stay\n");
        return;
    }
    fprintf(out, "  %6s %4s %9s %7s%s\n", "blocks", "frag", "trace %", "fitted",
            g ? "   other" : "");
    for (i = 0; i < t->nrows; i++) {
        fprintf(out, "  %6d %4d %9.2f %7d", t->row[i].blocks, t->row[i].frag,
                f->m.trace_row_pct[k][i], t->row[i].pct);
        if (g) {
            int other = 0;
            for (j = 0; j < g->m.table[k].nrows; j++)
                if (g->m.table[k].row[j].blocks == t->row[i].blocks &&
                    g->m.table[k].row[j].frag == t->row[i].frag)
                    other = g->m.table[k].row[j].pct;
            fprintf(out, " %7d", other);
        }
        fprintf(out, "\n");
    }
    for (j = 0; g && j < g->m.table[k].nrows; j++) {
        int found = 0;
        for (i = 0; i < t->nrows; i++)
            found |= g->m.table[k].row[j].blocks == t->row[i].blocks &&
                     g->m.table[k].row[j].frag == t->row[i].frag;
        if (!found)
            fprintf(out, "  %6d %4d %9s %7d %7d\n", g->m.table[k].row[j].blocks,
                    g->m.table[k].row[j].frag, "-", 0, g->m.table[k].row[j].pct);
    }
}

static void model_lines(FILE *out, const struct az_fit *f)
{
    const struct az_fit_model *m = &f->m;

    fprintf(out,
            "  file set: %" PRIu64 " regular files held data at the start: %" PRIu64
            " the trace showed (%.1f MB), in %" PRIu64 " directories\n    (%" PRIu64
            " listed whole), the rest estimated; %" PRIu64 " empty files, %" PRIu64
            " symlinks\n",
            m->files_at_start, m->files_known, (double)m->bytes_at_start / 1e6,
            m->dirs_with_files, m->dirs_listed, m->empty_files, m->symlinks);
    fprintf(out,
            "  working set: the working-set ops touched %" PRIu64 " of them, %" PRIu64
            " in %" PRIu64 " picks: SFS's groups need %.0f (%.1f %%)\n",
            m->files_touched, m->picked, m->picks, m->working_set,
            m->files_at_start ? 100.0 * m->working_set / (double)m->files_at_start : 0);
    fprintf(out,
            "  footprint: %" PRIu64 " blocks of %" PRIu64 " B (%.1f MB) in %" PRIu64
            " references\n",
            m->footprint_blocks, f->block_size,
            (double)(m->footprint_blocks * f->block_size) / 1e6, m->references);
    fprintf(out,
            "  streams: %u on %u client host%s; READ calls in flight in a stream: %d, "
            "WRITE: %d (the most 1 %% saw; -1: none)\n",
            m->streams, m->clients, m->clients == 1 ? "" : "s", m->biod_reads,
            m->biod_writes);
    if (f->c.requests[1] > f->c.append_unknown)
        fprintf(out, "  appends: %d %% of the WRITE requests", m->append_pct);
    else
        fprintf(out, "  appends: %d %% (SFS's default: no WRITE request of a known size)",
                m->append_pct);
    fprintf(out, "; stable writes: %.1f %% of the WRITE calls\n", m->stable_pct);
    fprintf(out,
            "  rc: LOAD=%d NFS_VERSION=%d TCP=%s PROCS=%u BLOCK_SIZE=%u FILE_COUNT=%d "
            "ACCESS_PCNT=%d DIR_COUNT=%d SYMLINK_COUNT=%d APPEND_PCNT=%d",
            m->load, m->nfs_version, m->tcp ? "on" : "off", m->procs, m->kb_per_block,
            m->file_count, m->access_pct, m->dir_count, m->symlink_count, m->append_pct);
    if (m->biod_reads > 0)
        fprintf(out, " BIOD_MAX_READS=%d", m->biod_reads);
    if (m->biod_writes > 0)
        fprintf(out, " BIOD_MAX_WRITES=%d", m->biod_writes);
    fprintf(out, "\n");
}

void az_fit_table(FILE *out, const char *trace, const struct az_fit *f,
                  const char *other_trace, const struct az_fit *g,
                  const struct az_fit_out *o)
{
    const struct az_fit_model *m = &f->m;
    struct az_fit_distance self, both;
    uint64_t lo, hi;
    double pm = peak_over_mean(f, &lo, &hi);
    uint64_t seq = f->c.sequential[0] + f->c.sequential[1];
    uint64_t reqs = f->c.requests[0] + f->c.requests[1];
    unsigned i, n;
    int op;

    az_fit_distance(f, NULL, &self);
    fprintf(out,
            "fit of %s: %" PRIu64 " NFS calls mapped (%" PRIu64 " not) in %.3f s, the "
            "model's %.1f calls/s%s; NFSv%d over %s\n",
            trace, m->mapped_calls, m->unmapped_calls, m->duration_s, m->rate,
            m->duration_s < 1 ? " (the trace counted as 1 s)" : "", m->nfs_version,
            m->tcp ? "TCP" : "UDP");
    if (g)
        fprintf(out, "compared with %s (\"other\" below): %" PRIu64 " calls in %.3f s\n",
                other_trace, g->m.mapped_calls, g->m.duration_s);
    fprintf(out, "\n%-12s %10s %9s %7s%s\n", "op", "calls", "trace %", "fitted",
            g ? "   other" : "");
    for (op = 0; op < NF_NOPS; op++) {
        if (!f->c.calls[op] && !m->pct[op] && !(g && g->m.pct[op]))
            continue;
        fprintf(out, "%-12s %10" PRIu64 " %9.2f %7d", nf_op_name(op), f->c.calls[op],
                m->trace_pct[op], m->pct[op]);
        if (g)
            fprintf(out, " %7d", g->m.pct[op]);
        fprintf(out, "\n");
    }
    rows_table(out, f, g, 0);
    rows_table(out, f, g, 1);
    fprintf(out, "\nthe model\n");
    model_lines(out, f);
    if (g) {
        fprintf(out, "the other trace's model\n");
        model_lines(out, g);
    }
    n = mrc_sizes(f, g);
    fprintf(out, "\nmiss ratio by cache size (blocks of %" PRIu64 " B)\n  %12s %8s%s\n",
            f->block_size, "cache_blocks", "trace", g ? "    other" : "");
    for (i = 0; i < n; i++) {
        fprintf(out, "  %12llu %8.4f", 1ull << i, miss(f, 1ull << i));
        if (g)
            fprintf(out, " %8.4f", miss(g, 1ull << i));
        fprintf(out, "\n");
    }
    fprintf(
        out,
        "\nwhat the fit keeps: the op mix, the READ and WRITE requests in blocks, the "
        "rate, the file set\nand its working set, files per directory, symlinks, "
        "the streams and their calls in flight, the appends\n");
    fprintf(out, "what it cannot keep:\n");
    fprintf(out,
            "  - dependencies between calls (a LOOKUP before the READs of its file, a "
            "CREATE before its WRITEs):\n    SFS picks each request's file on its own\n");
    fprintf(out,
            "  - the rate's bursts: %" PRIu64 " to %" PRIu64 " calls in a second of the "
            "trace (the peak %.2f times the mean);\n    SFS paces at a constant rate\n",
            lo, hi, pm);
    fprintf(out,
            "  - per-file sequentiality: %" PRIu64 " of the %" PRIu64 " READ and WRITE "
            "requests went on where their\n    stream's previous one of the file ended; "
            "SFS chooses each request's offset anew\n",
            seq, reqs);
    for (i = 0; i < m->nnotes; i++)
        fprintf(out, "  - %s\n", m->notes[i]);
    if (m->notes_more)
        fprintf(out, "  - (%" PRIu64 " more notes)\n", m->notes_more);
    fprintf(out,
            "\nmeasure of fit, the trace against its model: mix largest difference %.2f "
            "points, total variation %.4f;\n  block sizes total variation READ %.4f, "
            "WRITE %.4f\n",
            self.mix_max, self.mix_tv, self.rows_tv[0], self.rows_tv[1]);
    if (g) {
        az_fit_distance(f, g, &both);
        fprintf(out,
                "measure of fit, this model against the other's: mix largest difference "
                "%.0f points, total variation %.4f;\n  block sizes total variation "
                "READ %.4f, WRITE %.4f; miss ratio mean absolute difference %.4f\n",
                both.mix_max, both.mix_tv, both.rows_tv[0], both.rows_tv[1],
                both.mrc_mean);
    }
    if (o)
        fprintf(out, "\nwritten: %s.mix, %s%s_rc\n", o->name,
                m->have_table[0] || m->have_table[1] ? "" : "(no block sizes), ",
                o->name);
    if (o && (m->have_table[0] || m->have_table[1]))
        fprintf(out, "         %s.iodist\n", o->name);
}

/* ---- YAML -----------------------------------------------------------------------------
 */

static void yaml_rows(struct cm_yaml *y, const struct az_fit_model *m, int k)
{
    int i;

    cm_yaml_seq_begin(y);
    for (i = 0; m->have_table[k] && i < m->table[k].nrows; i++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_int(y, "pct", m->table[k].row[i].pct);
        cm_yaml_kv_int(y, "blocks", m->table[k].row[i].blocks);
        cm_yaml_kv_int(y, "frag", m->table[k].row[i].frag);
        cm_yaml_kv_double(y, "trace_pct", m->trace_row_pct[k][i], 4);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
}

/* A distance under key; mrc: with the curves' (two fits, not a fit and its
 * trace). */
static void yaml_distance(struct cm_yaml *y, const char *key,
                          const struct az_fit_distance *d, int mrc)
{
    cm_yaml_key(y, key);
    cm_yaml_map_begin(y);
    cm_yaml_kv_double(y, "mix_max", d->mix_max, 4);
    cm_yaml_kv_double(y, "mix_tv", d->mix_tv, 4);
    cm_yaml_kv_double(y, "read_rows_tv", d->rows_tv[0], 4);
    cm_yaml_kv_double(y, "write_rows_tv", d->rows_tv[1], 4);
    if (mrc)
        cm_yaml_kv_double(y, "mrc_mean", d->mrc_mean, 4);
    cm_yaml_map_end(y);
}

/* How an NFSv4 trace's COMPOUNDs were mapped (fit_v4.c). */
static void v4_yaml(struct cm_yaml *y, const struct az_fit_counts *c)
{
    uint32_t i;

    cm_yaml_key(y, "nfsv4");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "calls", c->v4_compounds);
    cm_yaml_key(y, "minor_versions");
    cm_yaml_map_begin(y);
    for (i = 0; i < 3; i++) {
        char k[4] = {(char)('0' + i), 0};
        cm_yaml_kv_uint(y, k, c->v4_minor[i]);
    }
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "mapped", c->v4_mapped);
    cm_yaml_kv_uint(y, "getattr_shaped", c->v4_getattrs);
    cm_yaml_kv_uint(y, "opens", c->v4_opens);
    cm_yaml_kv_uint(y, "closes", c->v4_closes);
    cm_yaml_key(y, "unmapped");
    cm_yaml_map_begin(y);
    for (i = 0; i < c->nv4_unmapped; i++)
        cm_yaml_kv_uint(y, c->v4_unmapped[i].name, c->v4_unmapped[i].n);
    if (c->v4_unmapped_other)
        cm_yaml_kv_uint(y, "(others)", c->v4_unmapped_other);
    cm_yaml_map_end(y);
    cm_yaml_map_end(y);
}

static void yaml_model(struct cm_yaml *y, const char *trace, const struct az_fit *f,
                       const struct az_fit *g)
{
    const struct az_fit_model *m = &f->m;
    struct az_fit_distance d;
    unsigned i, n = mrc_sizes(f, g);
    int op;

    cm_yaml_kv_str(y, "trace", trace);
    cm_yaml_kv_uint(y, "mapped_calls", m->mapped_calls);
    cm_yaml_kv_uint(y, "unmapped_calls", m->unmapped_calls);
    cm_yaml_kv_double(y, "duration_s", m->duration_s, 4);
    cm_yaml_kv_double(y, "rate", m->rate, 4);
    cm_yaml_kv_int(y, "nfs_version", m->nfs_version);
    cm_yaml_kv_int(y, "tcp", m->tcp);
    if (f->c.v4_compounds)
        v4_yaml(y, &f->c);
    cm_yaml_key(y, "mix");
    cm_yaml_map_begin(y);
    for (op = 0; op < NF_NOPS; op++)
        if (nf_op_in_version(op, m->nfs_version))
            cm_yaml_kv_int(y, nf_op_name(op), m->pct[op]);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "trace_mix");
    cm_yaml_map_begin(y);
    for (op = 0; op < NF_NOPS; op++)
        if (f->c.calls[op])
            cm_yaml_kv_double(y, nf_op_name(op), m->trace_pct[op], 4);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "kb_per_block", m->kb_per_block);
    cm_yaml_kv_uint(y, "read_requests", f->c.requests[0]);
    cm_yaml_kv_uint(y, "write_requests", f->c.requests[1]);
    cm_yaml_key(y, "read_rows");
    yaml_rows(y, m, 0);
    cm_yaml_key(y, "write_rows");
    yaml_rows(y, m, 1);
    cm_yaml_key(y, "rc");
    cm_yaml_map_begin(y);
    cm_yaml_kv_int(y, "LOAD", m->load);
    cm_yaml_kv_int(y, "NUM_RUNS", m->points);
    cm_yaml_kv_int(y, "NFS_VERSION", m->nfs_version);
    cm_yaml_kv_uint(y, "PROCS", m->procs);
    cm_yaml_kv_uint(y, "CLIENTS", m->clients);
    cm_yaml_kv_uint(y, "BLOCK_SIZE", m->kb_per_block);
    cm_yaml_kv_int(y, "FILE_COUNT", m->file_count);
    cm_yaml_kv_int(y, "ACCESS_PCNT", m->access_pct);
    cm_yaml_kv_int(y, "DIR_COUNT", m->dir_count);
    cm_yaml_kv_int(y, "SYMLINK_COUNT", m->symlink_count);
    cm_yaml_kv_int(y, "APPEND_PCNT", m->append_pct);
    cm_yaml_kv_int(y, "BIOD_MAX_READS", m->biod_reads);
    cm_yaml_kv_int(y, "BIOD_MAX_WRITES", m->biod_writes);
    cm_yaml_kv_int(y, "RUNTIME", m->runtime_s);
    cm_yaml_kv_int(y, "WARMUP_TIME", m->warmup_s);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "streams", m->streams);
    cm_yaml_kv_uint(y, "files_at_start", m->files_at_start);
    cm_yaml_kv_uint(y, "files_known", m->files_known);
    cm_yaml_kv_uint(y, "dirs_listed", m->dirs_listed);
    cm_yaml_kv_uint(y, "files_touched", m->files_touched);
    cm_yaml_kv_uint(y, "picked", m->picked);
    cm_yaml_kv_uint(y, "picks", m->picks);
    cm_yaml_kv_double(y, "working_set", m->working_set, 1);
    cm_yaml_kv_uint(y, "bytes_at_start", m->bytes_at_start);
    cm_yaml_kv_uint(y, "empty_files", m->empty_files);
    cm_yaml_kv_uint(y, "symlinks", m->symlinks);
    cm_yaml_kv_uint(y, "dirs_with_files", m->dirs_with_files);
    cm_yaml_kv_double(y, "stable_pct", m->stable_pct, 4);
    cm_yaml_kv_uint(y, "footprint_blocks", m->footprint_blocks);
    cm_yaml_kv_uint(y, "references", m->references);
    cm_yaml_kv_uint(y, "sequential_requests", f->c.sequential[0] + f->c.sequential[1]);
    cm_yaml_key(y, "miss_ratio");
    cm_yaml_seq_begin(y);
    for (i = 0; i < n; i++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "cache_blocks", 1ull << i);
        cm_yaml_kv_double(y, "miss_ratio", miss(f, 1ull << i), 6);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_key(y, "not_kept");
    cm_yaml_seq_begin(y);
    for (i = 0; i < m->nnotes; i++)
        cm_yaml_str(y, m->notes[i]);
    cm_yaml_seq_end(y);
    az_fit_distance(f, NULL, &d);
    yaml_distance(y, "fit_to_trace", &d, 0);
}

void az_fit_yaml(struct cm_yaml *y, const char *trace, const struct az_fit *f,
                 const char *other_trace, const struct az_fit *g)
{
    struct az_fit_distance d;

    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "command", "fit");
    yaml_model(y, trace, f, g);
    if (g) {
        cm_yaml_key(y, "compared");
        cm_yaml_map_begin(y);
        yaml_model(y, other_trace, g, f);
        cm_yaml_map_end(y);
        az_fit_distance(f, g, &d);
        yaml_distance(y, "distance", &d, 1);
    }
    cm_yaml_map_end(y);
}
