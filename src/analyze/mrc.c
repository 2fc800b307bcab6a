/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mrc.c - the miss-ratio analysis: turns records into block references
 * (docs/TRACE_FORMATS.md 2.5, 3.8, 4.6: every block of [offset, offset + length)
 * at the analysis granularity, ascending), keys them by (unit, block),
 * feeds the stack (stackdist.c) and accumulates the histograms, in total
 * and per unit.  Per-unit figures attribute each reference of the shared
 * cache to its unit (the cache is shared, as a server's would be); the
 * isolated option gives each unit a stack of its own as well (a cache per
 * unit).
 *
 * Sampled mode starts from fixed-rate SHARDS (Waldspurger et al., FAST
 * 2015) and samples references rather than blocks for the curve and for
 * the distances (the sampling section below says how and why).  With
 * sample_check an exact twin runs on every reference so that the error of
 * the sample can be reported.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#define FILTER_BITS     16 /* counting filters start at 64 KiB */
#define FILTER_MAX_BITS 26 /* and grow to at most 64 MiB */
#define WATCH_SALT      0x2545f4914f6cdd1dull
#define LIVE_SALT       0x9fb21c651e98df25ull
#define KEY_SALT        0xd1b54a32d192ed03ull

#include "common/alloc.h"
#include "analyze/az.h"

/* The (unit, block) key with the unit in the top opt.unit_bits bits. */
static uint64_t mrc_key(const struct az_mrc *m, uint32_t unit, uint64_t block)
{
    return (uint64_t)unit << (64 - m->opt.unit_bits) | block;
}

static int run_init(struct az_mrc_run *r, enum az_sd_method method,
                    const struct az_bins *bins)
{
    memset(r, 0, sizeof(*r));
    az_hist_init(&r->total, bins);
    r->sd = az_sd_new(method);
    return r->sd ? 0 : -ENOMEM;
}

static void run_free(struct az_mrc_run *r)
{
    uint32_t i;

    az_sd_free(r->sd);
    Judy1FreeArray((PPvoid_t)&r->live, PJE0);
    free(r->cross);
    az_hist_free(&r->total);
    for (i = 0; i < r->nunits; i++)
        az_hist_free(&r->units[i]);
    free(r->units);
    for (i = 0; i < r->niso; i++) {
        az_sd_free(r->iso_sd[i]);
        az_hist_free(&r->iso[i]);
    }
    free(r->iso_sd);
    free(r->iso);
    memset(r, 0, sizeof(*r));
}

/* ---- counting filters ---------------------------------------------------- */

static int filter_init(struct az_filter *f, unsigned bits, unsigned shift)
{
    f->count = cm_calloc((size_t)1 << bits, 1);
    f->mask = ((uint64_t)1 << bits) - 1;
    f->entries = 0;
    f->shift = shift;
    return f->count ? 0 : -ENOMEM;
}

/* The hash of a key that the filters and the block sample use. */
static uint64_t key_hash(const struct az_mrc *m, uint64_t key)
{
    return az_hash(key ^ m->opt.sample_seed * KEY_SALT);
}

static size_t filter_slot(const struct az_filter *f, uint64_t hash)
{
    return (size_t)((hash >> f->shift) & f->mask);
}

static void filter_count(struct az_filter *f, uint64_t hash)
{
    size_t i = filter_slot(f, hash);

    if (f->count[i] < UINT8_MAX)
        f->count[i]++;
}

/* Counts a key just added to map, then grows the table four times when
 * the map holds more than a sixteenth of its slots (rebuilt from the map's
 * keys; a failed allocation keeps the old table, which stays correct).  At
 * a quarter, false positives made JudyLGet 11 % of a sampled run; at a
 * sixteenth the run is 15 % faster in bench/trace.sh. */
static void filter_add(const struct az_mrc *m, struct az_filter *f, uint64_t hash,
                       void *map)
{
    struct az_filter g;
    Word_t key = 0;
    PWord_t pv;

    filter_count(f, hash);
    if (++f->entries <= (f->mask + 1) / 16 || f->mask >= (1ull << FILTER_MAX_BITS) - 1 ||
        filter_init(&g, (unsigned)__builtin_popcountll(f->mask) + 2, f->shift) < 0)
        return;
    g.entries = f->entries;
    for (pv = (PWord_t)JudyLFirst(map, &key, PJE0); pv;
         pv = (PWord_t)JudyLNext(map, &key, PJE0))
        filter_count(&g, key_hash(m, key));
    free(f->count);
    *f = g;
}

static void filter_del(struct az_filter *f, uint64_t hash)
{
    size_t i = filter_slot(f, hash);

    f->entries--;
    if (f->count[i] < UINT8_MAX) /* saturated: stays set */
        f->count[i]--;
}

/* The index of the next sampled reference after now, for a sample at rate
 * of the references: a geometric gap, drawn from a hash of now, so that a
 * seed fixes the sample and the references between cost one comparison
 * each (5-8 % faster in bench/trace.sh than hashing every index). */
static uint64_t next_pick(const struct az_mrc *m, uint64_t now, double rate,
                          uint64_t salt)
{
    double u, gap;

    if (rate >= 1)
        return now + 1;
    /* u in (0, 1) from the top 53 bits */
    u = ((double)(az_hash(now ^ (m->opt.sample_seed + 1) * salt) >> 11) + 0.5) * 0x1p-53;
    gap = floor(log(u) / log1p(-rate));
    return gap < 0x1p62 ? now + 1 + (uint64_t)gap : UINT64_MAX;
}

/* The sub-sample of the sampled reference at index t. */
static unsigned sub_of(const struct az_mrc *m, uint64_t t, uint64_t salt)
{
    return (unsigned)(az_hash(t ^ (m->opt.sample_seed + 2) * salt) % AZ_SUBSAMPLES);
}

/* The report's arrays (az.h): az_mrc_expected_error's sub-sample ratios
 * and cliff risk (AZ_SUBSAMPLES + 1 per size) and its counts, then the
 * callers' two rows and counts. */
static int report_init(struct az_mrc *m)
{
    size_t n = m->opt.ncache_sizes > AZ_DEFAULT_SIZES_MAX ? m->opt.ncache_sizes
                                                          : AZ_DEFAULT_SIZES_MAX;

    m->report_d = cm_calloc(n * (AZ_SUBSAMPLES + 3), sizeof(*m->report_d));
    m->report_u = cm_calloc(2 * n, sizeof(*m->report_u));
    m->report_n = n;
    return m->report_d && m->report_u ? 0 : -ENOMEM;
}

int az_mrc_report_arrays(const struct az_mrc *m, size_t n, double **a, double **b,
                         uint64_t **hits)
{
    double *mine;

    if (n > m->report_n || !m->report_d)
        return -ENOSPC;
    mine = m->report_d + m->report_n * (AZ_SUBSAMPLES + 1);
    *a = mine;
    *b = mine + m->report_n;
    *hits = m->report_u + m->report_n;
    return 0;
}

int az_mrc_init(struct az_mrc *m, const struct az_mrc_opts *opt, char *err, size_t errlen)
{
    unsigned i;

    memset(m, 0, sizeof(*m));
    m->opt = *opt;
    if (m->opt.block_size == 0)
        m->opt.block_size = 4096;
    if (m->opt.unit_bits == 0)
        m->opt.unit_bits = AZ_KEY_UNIT_BITS;
    if (m->opt.unit_bits > 32)
        return cm_errf(err, errlen, "%u unit bits: at most 32", m->opt.unit_bits);
    if (m->opt.sample_rate < 0 || m->opt.sample_rate > 1)
        return cm_errf(err, errlen, "sample rate %g is not in (0, 1]",
                       m->opt.sample_rate);
    if (m->opt.sample_rate > 0)
        m->threshold = m->opt.sample_rate >= 1 ? UINT64_MAX
                                               : (uint64_t)ldexp(m->opt.sample_rate, 64);
    else
        m->opt.sample_check = 0;
    if (az_bins_init(&m->bins, m->opt.cache_sizes, m->opt.ncache_sizes) < 0)
        return cm_errf(err, errlen, "too many cache sizes (%zu)", m->opt.ncache_sizes);
    /* sub-samples: histograms and distance samples, no stack */
    for (i = 0; i < AZ_SUBSAMPLES; i++) {
        memset(&m->sub[i], 0, sizeof(m->sub[i]));
        az_hist_init(&m->sub[i].total, &m->bins);
    }
    if (m->threshold) {
        double rd = m->opt.distance_rate > 0 ? m->opt.distance_rate
                                             : m->opt.sample_rate * AZ_DISTANCE_FACTOR;
        if (m->opt.distance_rate < 0 || m->opt.distance_rate > 1)
            return cm_errf(err, errlen, "distance sample rate %g is not in (0, 1]",
                           m->opt.distance_rate);
        m->dist_rate = rd > 1 ? 1 : rd < m->opt.sample_rate ? m->opt.sample_rate : rd;
        m->next_watch = next_pick(m, 0, m->opt.sample_rate, WATCH_SALT);
        m->next_live = next_pick(m, 0, m->dist_rate, LIVE_SALT);
    }
    if ((m->threshold && (filter_init(&m->watch_filter, FILTER_BITS, 0) < 0 ||
                          filter_init(&m->live_filter, FILTER_BITS, 32) < 0)) ||
        run_init(&m->main, m->opt.method, &m->bins) < 0 ||
        (m->threshold && !(m->main.cross = cm_calloc(m->bins.n, sizeof(double)))) ||
        (m->opt.sample_check && run_init(&m->exact, m->opt.method, &m->bins) < 0) ||
        report_init(m) < 0) {
        az_mrc_free(m);
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    return 0;
}

double az_mrc_distance_rate(const struct az_mrc *m)
{
    return m->dist_rate;
}

void az_mrc_free(struct az_mrc *m)
{
    Word_t key = 0;
    PWord_t pv;
    unsigned i;

    m->finished = 0;
    if (m->threshold) {
        m->threshold = 0; /* frees the watches without counting them */
        for (pv = (PWord_t)JudyLFirst(m->watch, &key, PJE0); pv;
             pv = (PWord_t)JudyLNext(m->watch, &key, PJE0))
            free((void *)*pv);
    }
    JudyLFreeArray((PPvoid_t)&m->watch, PJE0);
    JudyLFreeArray((PPvoid_t)&m->live_key, PJE0);
    free(m->watch_filter.count);
    free(m->live_filter.count);
    memset(&m->watch_filter, 0, sizeof(m->watch_filter));
    memset(&m->live_filter, 0, sizeof(m->live_filter));
    run_free(&m->main);
    run_free(&m->exact);
    for (i = 0; i < AZ_SUBSAMPLES; i++)
        run_free(&m->sub[i]);
    free(m->report_d);
    free(m->report_u);
    m->report_d = NULL;
    m->report_u = NULL;
}

/* Makes *h (n entries) hold index unit.  0 or -ENOMEM. */
static int unit_slot(const struct az_mrc *m, struct az_hist **h, uint32_t *n,
                     uint32_t unit)
{
    struct az_hist *u;
    uint32_t i;

    if (unit < *n)
        return 0;
    u = cm_realloc(*h, (unit + 1) * sizeof(*u));
    if (!u)
        return -ENOMEM;
    for (i = *n; i <= unit; i++)
        az_hist_init(&u[i], &m->bins);
    *h = u;
    *n = unit + 1;
    return 0;
}

/* Adds n references at depth to r's total and, with per_unit, to its unit. */
static int account(const struct az_mrc *m, struct az_mrc_run *r, uint32_t unit,
                   uint64_t depth, uint64_t n)
{
    if (az_hist_add(&r->total, depth, n) < 0)
        return -ENOMEM;
    if (!m->opt.per_unit)
        return 0;
    if (unit_slot(m, &r->units, &r->nunits, unit) < 0)
        return -ENOMEM;
    return az_hist_add(&r->units[unit], depth, n);
}

/* Accounts depth[0..n) in runs of equal depth: a run read again in order
 * has one depth throughout, so a 32 KiB record is one histogram add. */
static int account_runs(const struct az_mrc *m, struct az_mrc_run *r, struct az_hist *h,
                        uint32_t unit, const uint64_t *depth, uint64_t n)
{
    uint64_t i = 0;

    while (i < n) {
        uint64_t j = i + 1;
        while (j < n && depth[j] == depth[i])
            j++;
        if ((h ? az_hist_add(h, depth[i], j - i) : account(m, r, unit, depth[i], j - i)) <
            0)
            return -ENOMEM;
        i = j;
    }
    return 0;
}

/* Scales a depth measured on the sample back to the full trace: 1/R. */
static uint64_t scaled(const struct az_mrc *m, uint64_t d)
{
    if (m->threshold && d > 0)
        d = (uint64_t)ceil((double)d / m->opt.sample_rate - 1e-9);
    return d;
}

/* The unit's own stack and histogram (isolated caches), made on first use. */
static struct az_sd *isolated_sd(struct az_mrc_run *r, const struct az_mrc *m,
                                 uint32_t unit)
{
    uint32_t old = r->niso;

    if (unit >= r->niso) {
        struct az_sd **sd = cm_realloc(r->iso_sd, (unit + 1) * sizeof(*sd));
        if (!sd)
            return NULL;
        memset(sd + old, 0, (unit + 1 - old) * sizeof(*sd));
        r->iso_sd = sd;
        if (unit_slot(m, &r->iso, &r->niso, unit) < 0)
            return NULL;
    }
    if (!r->iso_sd[unit])
        r->iso_sd[unit] = az_sd_new(m->opt.method);
    return r->iso_sd[unit];
}

/* Exact references to blocks first..first+n-1 of unit in run r, n at most
 * AZ_SD_RANGE_MAX. */
static int exact_range(struct az_mrc *m, struct az_mrc_run *r, uint32_t unit,
                       uint64_t first, uint64_t n)
{
    uint64_t depth[AZ_SD_RANGE_MAX];
    struct az_sd *iso;

    if (az_sd_ref_range(r->sd, mrc_key(m, unit, first), n, depth) < 0 ||
        account_runs(m, r, NULL, unit, depth, n) < 0)
        return -ENOMEM;
    if (!m->opt.isolated)
        return 0;
    if (!(iso = isolated_sd(r, m, unit)) ||
        az_sd_ref_range(iso, mrc_key(m, unit, first), n, depth) < 0 ||
        account_runs(m, r, &r->iso[unit], unit, depth, n) < 0)
        return -ENOMEM;
    return 0;
}

/* ---- sampling --------------------------------------------------------------
 *
 * Plain SHARDS keeps the references of the sampled blocks and weighs each by
 * 1/R.  A hot block that happens to be sampled (or not) then moves the whole
 * curve: on the skewed benchmark trace (Zipf 0.9,
 * bench/trace_bench.c) the mean error at rate 0.001 was
 * 0.03-0.06 over hash seeds.  Here the sample has three parts:
 *
 *  - which references the curve is made of (the watches): a uniform sample
 *    of the references themselves (geometric gaps at rate R, next_pick), so
 *    that a hot block is represented as often as it is referenced.
 *    Each is watched until its block's next reference; its forward distance
 *    counts like the backward distance of that next reference (each reuse
 *    pair has one distance both ways, and the references never reused are
 *    as many as the cold misses, so the two distributions are the same);
 *  - how far that is (the distance sample): another uniform sample of the
 *    references, at a higher rate Rd (AZ_DISTANCE_FACTOR x R by default),
 *    each kept in a Judy1 of times while it is the last reference of its
 *    block.  The distinct blocks of a window are its references that are
 *    the last of their block in it, so over the T - 1 references between a
 *    watched reference and its reuse, S of them sampled, L still live:
 *    D = 1 + (T - 1) L / S, exact at Rd = 1.  The error of L / S is that of
 *    a sampled proportion, p (1 - p) / S, small when most of the window is
 *    distinct, and fresh for every window.  (The previous estimator took d
 *    distinct of t kept references from SHARDS's block sample: one fixed
 *    set of blocks judged every window alike, so on the skewed benchmark trace one
 *    seed in ten moved the whole 50 000-block loop across 65 536 blocks,
 *    1.5 % below its distance: mean error 0.023 and 0.055 where this gives
 *    at most 0.004; docs/PERFORMANCE.md);
 *  - the block sample (SHARDS's spatial hash below R): the footprint
 *    estimate, and the isolated per-unit caches (plain SHARDS).
 *
 * Sub-sample k (of AZ_SUBSAMPLES) takes the watched references and the
 * distance sample's references whose hashes fall in its k-th share, so that
 * the spread of the sub-curves estimates the random error of the whole;
 * the cliff risk (cross_add) adds what that spread cannot see. */

struct watch {
    uint64_t at;                  /* m->references at the watched reference */
    uint64_t main_dist, sub_dist; /* the distance samples' counts then */
    uint32_t unit, sub;
};

/* The estimate D for the window (at, now) of a watched reuse in run r:
 * of its S distance-sample references, L are still their block's last, so
 * D = 1 + (T - 1) L / S over the T - 1 references between.  *sd gets its
 * standard error: the sampled fraction's, p (1 - p) / S with the finite
 * population correction (p from (L + 1/2) / (S + 1), never 0 or 1); with
 * S = 0, D = T and the error of a uniform guess over [1, T]. */
static uint64_t window_depth(const struct az_mrc_run *r, uint64_t at, uint64_t now,
                             uint64_t dist_at, double *sd)
{
    uint64_t s = r->dist_refs - dist_at, l;
    double v, n = (double)(now - at - 1), p;

    if (s == 0) {
        *sd = n / sqrt(12.0);
        return now - at;
    }
    l = (uint64_t)Judy1Count(r->live, (Word_t)at + 1, (Word_t)now - 1, PJE0);
    p = ((double)l + 0.5) / ((double)s + 1);
    *sd = n * sqrt(p * (1 - p) / (double)s * (n > 1 ? (n - (double)s) / (n - 1) : 0));
    v = ceil(1.0 + n * (double)l / (double)s - 1e-9);
    return v < 1 ? 1 : (uint64_t)v;
}

/* Adds the chances that an estimate d with standard error sd lies on the
 * wrong side of each bin bound within six sd (normal errors). */
static void cross_add(const struct az_mrc *m, struct az_mrc_run *r, uint64_t d, double sd)
{
    const struct az_bins *b = &m->bins;
    double lo = (double)d - 6 * sd;
    size_t k = az_bin_of(b, lo < 1 ? 1 : (uint64_t)lo);

    for (; sd > 0 && k + 1 < b->n; k++) {
        double x = ((double)b->bound[k] + 0.5 - (double)d) / sd;
        if (x > 6)
            break;
        r->cross[k] += 0.5 * erfc(fabs(x) / M_SQRT2);
    }
}

/* The distance sample at a reference to key: the block's previous
 * reference, if sampled, is no longer its last; this one joins the sample
 * when it is the next pick of the distance sample.  0 or -ENOMEM. */
static int live_update(struct az_mrc *m, uint64_t key, uint64_t khash)
{
    uint64_t now = m->references;
    struct az_mrc_run *sub;
    PWord_t pv = NULL;

    if (m->live_filter.count[filter_slot(&m->live_filter, khash)]) {
        pv = (PWord_t)JudyLGet(m->live_key, (Word_t)key, PJE0);
        if (pv) {
            uint64_t t = *pv - 1;
            Judy1Unset((PPvoid_t)&m->main.live, (Word_t)t, PJE0);
            Judy1Unset((PPvoid_t)&m->sub[sub_of(m, t, LIVE_SALT)].live, (Word_t)t, PJE0);
        }
    }
    if (now != m->next_live) {
        if (pv) {
            JudyLDel((PPvoid_t)&m->live_key, (Word_t)key, PJE0);
            filter_del(&m->live_filter, khash);
        }
        return 0;
    }
    if (!pv) {
        pv = (PWord_t)JudyLIns((PPvoid_t)&m->live_key, (Word_t)key, PJE0);
        if (pv == PJERR)
            return -ENOMEM;
        *pv = now + 1;
        filter_add(m, &m->live_filter, khash, m->live_key);
    } else {
        *pv = now + 1;
    }
    m->next_live = next_pick(m, now, m->dist_rate, LIVE_SALT);
    sub = &m->sub[sub_of(m, now, LIVE_SALT)];
    if (Judy1Set((PPvoid_t)&m->main.live, (Word_t)now, PJE0) == JERR ||
        Judy1Set((PPvoid_t)&sub->live, (Word_t)now, PJE0) == JERR)
        return -ENOMEM;
    m->main.dist_refs++;
    sub->dist_refs++;
    return 0;
}

/* A reference to key under sampling: updates the distance sample, resolves
 * the block's pending watch, feeds the block sample, and maybe watches this
 * reference.  0 or -ENOMEM. */
static int sampled_ref(struct az_mrc *m, uint32_t unit, uint64_t block)
{
    uint64_t key = mrc_key(m, unit, block), d;
    uint64_t hash = key_hash(m, key);
    double sd;
    struct az_mrc_run *r = &m->main;
    struct watch *w;
    struct az_sd *iso;
    PWord_t pv;

    if (live_update(m, key, hash) < 0)
        return -ENOMEM;
    if (m->watch_filter.count[filter_slot(&m->watch_filter, hash)]) {
        pv = (PWord_t)JudyLGet(m->watch, (Word_t)key, PJE0);
        if (pv) {
            w = (struct watch *)*pv;
            d = window_depth(r, w->at, m->references, w->main_dist, &sd);
            if (account(m, r, w->unit, d, 1) < 0)
                return -ENOMEM;
            cross_add(m, r, d, sd);
            d = window_depth(&m->sub[w->sub], w->at, m->references, w->sub_dist, &sd);
            if (az_hist_add(&m->sub[w->sub].total, d, 1) < 0)
                return -ENOMEM;
            free(w);
            JudyLDel((PPvoid_t)&m->watch, (Word_t)key, PJE0);
            filter_del(&m->watch_filter, hash);
        }
    }
    if (hash < m->threshold) {
        /* the block sample: the footprint estimate, and isolated caches */
        if (az_sd_ref_range(r->sd, key, 1, &d) < 0)
            return -ENOMEM;
        r->kept++;
        /* a cache per unit: plain SHARDS scaling of the block sample */
        if (m->opt.isolated &&
            (!(iso = isolated_sd(r, m, unit)) || az_sd_ref_range(iso, key, 1, &d) < 0 ||
             az_hist_add(&r->iso[unit], scaled(m, d), 1) < 0))
            return -ENOMEM;
    }
    if (m->references != m->next_watch)
        return 0;
    m->next_watch = next_pick(m, m->references, m->opt.sample_rate, WATCH_SALT);
    if (!(w = cm_malloc(sizeof(*w))) ||
        (pv = (PWord_t)JudyLIns((PPvoid_t)&m->watch, (Word_t)key, PJE0)) == PJERR) {
        free(w);
        return -ENOMEM;
    }
    w->at = m->references;
    w->unit = unit;
    w->sub = sub_of(m, m->references, WATCH_SALT);
    w->main_dist = r->dist_refs;
    w->sub_dist = m->sub[w->sub].dist_refs;
    *pv = (Word_t)w;
    filter_add(m, &m->watch_filter, hash, m->watch);
    r->sampled++;
    m->sub[w->sub].sampled++;
    return 0;
}

size_t az_mrc_sample_mem(const struct az_mrc *m)
{
    size_t bytes = 0;
    unsigned k;

    if (!m->threshold)
        return 0;
    bytes += (size_t)JudyLMemUsed(m->live_key) + (size_t)JudyLMemUsed(m->watch) +
             (size_t)Judy1MemUsed(m->main.live) +
             (m->main.sampled - m->main.total.references) * sizeof(struct watch) +
             (size_t)(m->watch_filter.mask + 1) + (size_t)(m->live_filter.mask + 1);
    for (k = 0; k < AZ_SUBSAMPLES; k++)
        bytes += (size_t)Judy1MemUsed(m->sub[k].live);
    return bytes;
}

void az_mrc_finish(struct az_mrc *m)
{
    Word_t key = 0;
    PWord_t pv;

    if (m->finished || !m->threshold)
        return;
    m->finished = 1;
    /* references never reused: misses at every size, like cold misses */
    for (pv = (PWord_t)JudyLFirst(m->watch, &key, PJE0); pv;
         pv = (PWord_t)JudyLNext(m->watch, &key, PJE0)) {
        struct watch *w = (struct watch *)*pv;
        account(m, &m->main, w->unit, 0, 1);
        az_hist_add(&m->sub[w->sub].total, 0, 1);
        free(w);
    }
    JudyLFreeArray((PPvoid_t)&m->watch, PJE0);
}

/* References blocks first..first+n-1 of unit, in order. */
static int refs(struct az_mrc *m, uint32_t unit, uint64_t first, uint64_t n)
{
    uint64_t done, b;

    if (unit + 1 > m->units_seen)
        m->units_seen = unit + 1;
    for (done = 0; done < n; done += AZ_SD_RANGE_MAX) {
        uint64_t k = n - done < AZ_SD_RANGE_MAX ? n - done : AZ_SD_RANGE_MAX;
        if (m->opt.sample_check && exact_range(m, &m->exact, unit, first + done, k) < 0)
            return -ENOMEM;
        if (!m->threshold) {
            m->references += k;
            if (exact_range(m, &m->main, unit, first + done, k) < 0)
                return -ENOMEM;
            continue;
        }
        for (b = first + done; b < first + done + k; b++) {
            m->references++;
            if (sampled_ref(m, unit, b) < 0)
                return -ENOMEM;
        }
    }
    return 0;
}

int az_mrc_ref(struct az_mrc *m, uint32_t unit, uint64_t block)
{
    return refs(m, unit, block, 1);
}

void az_mrc_prefetch(const struct az_mrc *m, const struct tr_record *rec, int deep)
{
    uint64_t g = m->opt.block_size, first, last;

    if (m->threshold || (rec->op != TR_OP_READ && rec->op != TR_OP_WRITE) ||
        !rec->length || rec->length - 1 > UINT64_MAX - rec->offset ||
        (uint64_t)rec->unit >> m->opt.unit_bits)
        return; /* az_mrc_record says what is wrong */
    first = rec->offset / g;
    last = (rec->offset + (rec->length - 1)) / g;
    if (last >> (64 - m->opt.unit_bits))
        return;
    az_sd_prefetch(m->main.sd, mrc_key(m, rec->unit, first), last - first + 1, deep);
}

size_t az_mrc_records(struct az_mrc *m, const struct tr_record *recs, size_t n, int *rc)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (i + AZ_MRC_AHEAD < n)
            az_mrc_prefetch(m, &recs[i + AZ_MRC_AHEAD], 0);
        if (i + AZ_MRC_AHEAD / 2 < n)
            az_mrc_prefetch(m, &recs[i + AZ_MRC_AHEAD / 2], 1);
        if ((*rc = az_mrc_record(m, &recs[i])) < 0)
            return i;
    }
    *rc = 0;
    return n;
}

int az_mrc_record(struct az_mrc *m, const struct tr_record *rec)
{
    uint64_t first, last, g = m->opt.block_size, max = m->opt.max_record_blocks;

    if (rec->op != TR_OP_READ && rec->op != TR_OP_WRITE) {
        m->other_records++;
        return 0;
    }
    m->records++;
    if (rec->length == 0) {
        m->zero_size++;
        return 0;
    }
    first = rec->offset / g;
    if (rec->length - 1 > UINT64_MAX - rec->offset)
        return cm_errf(m->last_error, sizeof(m->last_error),
                       "offset + length beyond 2^64"),
               -ERANGE;
    last = (rec->offset + (rec->length - 1)) / g;
    if ((uint64_t)rec->unit >> m->opt.unit_bits || last >> (64 - m->opt.unit_bits))
        return cm_errf(m->last_error, sizeof(m->last_error),
                       "unit %u block %llu does not fit the (unit, block) key (%u + %u "
                       "bits); use a larger --block-size",
                       rec->unit, (unsigned long long)last, m->opt.unit_bits,
                       64 - m->opt.unit_bits),
               -ERANGE;
    if (last - first >= (max ? max : AZ_MAX_RECORD_BLOCKS)) {
        if (m->opt.lenient) {
            m->oversize_skipped++;
            return 0;
        }
        return cm_errf(m->last_error, sizeof(m->last_error),
                       "record of %llu blocks exceeds --max-record-blocks %llu",
                       (unsigned long long)(last - first + 1),
                       (unsigned long long)(max ? max : AZ_MAX_RECORD_BLOCKS)),
               -E2BIG;
    }
    if (refs(m, rec->unit, first, last - first + 1) < 0)
        return cm_errf(m->last_error, sizeof(m->last_error), "out of memory"), -ENOMEM;
    return 0;
}
