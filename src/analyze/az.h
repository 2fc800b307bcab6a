/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * az.h - the analysis layer: exact LRU stack distances with Judy
 * (docs/DECISIONS.md D12, docs/TRACE_FORMATS.md section 5), distance histograms and
 * miss-ratio curves, sampled curves (after SHARDS), and trace statistics.  It consumes
 * the trace layer's normalised records and uses only common and trace; it opens no
 * sockets.  Judy is used only here.  Nothing prints to stdout except the report
 * functions, which write to the FILE* or YAML writer they are given.
 *
 * Distance convention (inclusive, as the Judy application note counts):
 * the depth of a reference is the number of distinct blocks referenced since
 * the previous reference of the same block, that block included.  1 means
 * the block was the most recently used; an LRU cache of C blocks hits a
 * reference exactly when its depth <= C.  Cold misses have no depth and
 * miss at every cache size.
 */
#ifndef AZ_H
#define AZ_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/yaml.h"
#include "common/opt.h"
#include "common/runs.h"
#include "trace/tr.h"

#define AZ_DISTANCE_CONVENTION                                                           \
    "inclusive: the distance of a reference is the number of distinct blocks "           \
    "referenced since the previous reference of the same block, that block "             \
    "included (the LRU stack depth; 1 = most recently used); a cache of C "              \
    "blocks hits it iff distance <= C; cold misses miss at every size"

/* ---- exact stack distances (stackdist.c) -------------------------------- */

enum az_sd_method {
    /* A hash table (chunkmap.h) key -> last time, live times in a bitmap
     * counted by a Fenwick tree over its words, renumbered when the time
     * axis fills (default). */
    AZ_SD_FENWICK,
    /* The application note's method: JudyL key -> last time, Judy1 of live
     * times, depth = population - Judy1Count(0, last - 1). */
    AZ_SD_JUDY1,
};

struct az_sd;

/* Creates an empty stack.  NULL when out of memory. */
struct az_sd *az_sd_new(enum az_sd_method method);
void az_sd_free(struct az_sd *sd);
/* Records a reference to key.  Returns its depth (>= 1), 0 for a cold miss
 * (first reference), or -ENOMEM.  Not thread-safe (Judy arrays are not). */
int64_t az_sd_ref(struct az_sd *sd, uint64_t key);
/* Records references to key, key + 1, ..., key + n - 1, in that order (the
 * blocks of one record), with depth[i] for key + i as az_sd_ref gives it.
 * Faster than n calls when the blocks were last used close together.
 * Returns 0 or -ENOMEM.  Keys must not wrap. */
#define AZ_SD_RANGE_MAX 1024u /* the largest n callers pass at once */
int az_sd_ref_range(struct az_sd *sd, uint64_t key, uint64_t n, uint64_t *depth);
/* A hint that key .. key + n - 1 come soon (AZ_SD_FENWICK): fetches their
 * places in the block map into the cache, and with deep those places'
 * times too when the map's are already there (the map is read).  Changes
 * nothing a reference sees. */
void az_sd_prefetch(const struct az_sd *sd, uint64_t key, uint64_t n, int deep);
/* Distinct keys seen so far. */
uint64_t az_sd_unique(const struct az_sd *sd);
/* Bytes in use: Judy's own counters (JudyLMemUsed, Judy1MemUsed) plus the
 * time axis arrays.  judy_bytes gets the Judy part alone when not NULL. */
size_t az_sd_mem(const struct az_sd *sd, size_t *judy_bytes);
/* Times the time axis was renumbered (AZ_SD_FENWICK). */
uint64_t az_sd_compactions(const struct az_sd *sd);
/* Caps the time axis (tests use tiny caps to exercise compaction); 0 =
 * default.  Call before the first reference. */
void az_sd_set_min_axis(struct az_sd *sd, uint64_t words);

/* ---- histograms and miss-ratio curves (hist.c) -------------------------- */

/* Histogram bins.  A histogram counts references per bin of depths
 * (bound[k-1], bound[k]]: the bounds are every power of two up to 2^63 and
 * the cache sizes the user asked for, so hits at each of those sizes (the
 * only sizes a report shows) are exact, while the counters stay a few
 * hundred bytes that live in L1 (a counter per depth was a random access
 * into megabytes on every reference; docs/PERFORMANCE.md). */
#define AZ_BINS_MAX (4096 + 65)
struct az_bins {
    uint64_t bound[AZ_BINS_MAX];
    size_t n;
    uint32_t pow2_at[64]; /* pow2_at[p] = k with bound[k] == 2^p */
    int pow2_only;
};

/* Bins at the powers of two plus sizes[0..n) (ascending, any values).
 * -EINVAL when there are too many sizes. */
int az_bins_init(struct az_bins *b, const uint64_t *sizes, size_t n);

/* The bin of depth d >= 1. */
static inline size_t az_bin_of(const struct az_bins *b, uint64_t d)
{
    unsigned p = d <= 1 ? 0 : 64u - (unsigned)__builtin_clzll(d - 1); /* 2^p >= d */
    size_t lo, hi;

    if (p > 63)
        return b->n - 1;
    if (b->pow2_only)
        return p;
    lo = p ? b->pow2_at[p - 1] + 1 : 0;
    hi = b->pow2_at[p];
    while (lo < hi) { /* the first bound >= d */
        size_t mid = lo + (hi - lo) / 2;
        if (b->bound[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct az_hist {
    const struct az_bins *bins;
    uint64_t *count;     /* count[k] = references in bin k (NULL until used) */
    uint64_t references; /* including cold misses */
    uint64_t cold;
    uint64_t max_depth;
    uint64_t sum_lo, sum_hi; /* sum of the reuse depths, 128 bits */
};

void az_hist_init(struct az_hist *h, const struct az_bins *bins);
/* Allocates the counters.  0 or -ENOMEM. */
int az_hist_alloc(struct az_hist *h);
/* Adds n references at depth (0 = cold).  0 or -ENOMEM.  Inline: it runs
 * once per run of equal depths, the analysis's hot path. */
static inline int az_hist_add(struct az_hist *h, uint64_t depth, uint64_t n)
{
    uint64_t add;

    if (depth == 0) {
        h->references += n;
        h->cold += n;
        return 0;
    }
    if (!h->count && az_hist_alloc(h) < 0)
        return -ENOMEM;
    h->references += n;
    h->count[az_bin_of(h->bins, depth)] += n;
    if (depth > h->max_depth)
        h->max_depth = depth;
    add = depth * n; /* n <= AZ_SD_RANGE_MAX, depth < 2^48: no overflow */
    h->sum_lo += add;
    h->sum_hi += h->sum_lo < add;
    return 0;
}
void az_hist_free(struct az_hist *h);
/* Sum of the depths of the reuses (for the mean). */
long double az_hist_sum_depth(const struct az_hist *h);
/* References with depth <= c (the hits of an LRU cache of c blocks); exact
 * when c is a bin bound, else the hits up to the bound below c. */
uint64_t az_hist_hits(const struct az_hist *h, uint64_t c);
/* Fills out[i] = hits at sizes[i] (sizes ascending) in one pass. */
void az_hist_hits_at(const struct az_hist *h, const uint64_t *sizes, size_t n,
                     uint64_t *out);

/* ---- the miss-ratio analysis (mrc.c) ------------------------------------ */

struct az_mrc_opts {
    uint64_t block_size;      /* analysis granularity in bytes (4096) */
    int per_unit;             /* per unit, in the shared cache */
    int isolated;             /* per unit, each with a cache of its own */
    double sample_rate;       /* SHARDS rate in (0, 1]; 0 = exact */
    int sample_check;         /* with sampling: run exact too, compare */
    enum az_sd_method method; /* AZ_SD_FENWICK */
    /* A record of more blocks is refused (-E2BIG), or counted and skipped
     * when lenient: one record must not cost unbounded time or memory. */
    uint64_t max_record_blocks; /* 0 = AZ_MAX_RECORD_BLOCKS */
    int lenient;
    /* cache sizes (blocks, ascending) at which hits must be exact besides
     * the powers of two; may be NULL */
    const uint64_t *cache_sizes;
    size_t ncache_sizes;
    uint64_t sample_seed; /* another seed samples other blocks (0: default) */
    /* the distance sample's rate (mrc.c): 0 = sample_rate x
     * AZ_DISTANCE_FACTOR, at most 1 */
    double distance_rate;
    /* bits of the (unit, block) key that number the unit: 0 =
     * AZ_KEY_UNIT_BITS; an NFS trace's files need more (AZ_KEY_NFS_UNIT_BITS) */
    unsigned unit_bits;
};
#define AZ_MAX_RECORD_BLOCKS (1ull << 24) /* 64 GiB at 4 KiB */

struct az_mrc_run {
    struct az_sd *sd;
    struct az_hist total;
    struct az_hist *units;
    uint32_t nunits;
    /* sampling (mrc.c): the references whose distance was estimated (the
     * watched ones), and the references the block sample kept */
    uint64_t sampled, kept;
    /* the distance sample (mrc.c): its references so far, and a Judy1 of
     * the times of those that are still the last reference of their block */
    uint64_t dist_refs;
    void *live;
    /* the main run's cliff risk (NULL when exact): cross[k] sums, over the
     * estimated reuses, the chance (by each estimate's standard error) that
     * the true depth lies on the other side of bin bound k */
    double *cross;
    /* isolated: one stack and one histogram per unit */
    struct az_sd **iso_sd;
    struct az_hist *iso;
    uint32_t niso;
};

/* Sub-samples: the watches and the distance sample split in AZ_SUBSAMPLES
 * by hash, each an independent sample at rate R / AZ_SUBSAMPLES; their
 * spread estimates the random error of the whole sample (report.c). */
#define AZ_SUBSAMPLES 8
/* The distance sample's rate over the watch rate, by default (mrc.c). */
#define AZ_DISTANCE_FACTOR 16
/* At most as many default cache sizes (powers of two up to the footprint:
 * 2^0 .. 2^64) as az_cache_sizes makes without a list. */
#define AZ_DEFAULT_SIZES_MAX 65

/* A counting filter over key hashes (mrc.c): a zero count answers "not in
 * the map" without a lookup.  Counts saturate (a saturated slot always
 * looks up), and the table grows with the map so that most slots stay 0. */
struct az_filter {
    uint8_t *count;
    uint64_t mask, entries;
    unsigned shift; /* the slot is (hash >> shift) & mask */
};

struct az_mrc {
    struct az_mrc_opts opt;
    struct az_mrc_run sub[AZ_SUBSAMPLES];
    struct az_bins bins;       /* shared by every histogram below */
    uint64_t threshold;        /* SHARDS: keep hash < threshold (2^64 scale) */
    struct az_mrc_run main;    /* exact, or sampled when sample_rate > 0 */
    struct az_mrc_run exact;   /* the exact twin of --sample-check */
    uint64_t records;          /* reads and writes seen */
    uint64_t zero_size;        /* of which size 0 (no references) */
    uint64_t other_records;    /* sync, open, getattr: no references */
    uint64_t references;       /* all references, sampled or not */
    uint64_t units_seen;       /* highest unit + 1 */
    uint64_t oversize_skipped; /* records over max_record_blocks (lenient) */
    /* sampling: pending watches (JudyL key -> struct watch *) and a counting
     * filter over key hashes that answers "no watch" without a lookup */
    void *watch;
    struct az_filter watch_filter;
    /* the reference samples (watches, distance sample): their next
     * reference indexes, drawn as geometric gaps (mrc.c), and the distance
     * sample's rate */
    uint64_t next_watch, next_live;
    double dist_rate;
    /* the distance sample: JudyL key -> time + 1 of the block's last
     * reference while that one was sampled, and its filter */
    void *live_key;
    struct az_filter live_filter;
    int finished; /* az_mrc_finish ran */
    char last_error[CM_ERR_LEN];
    /* the report's working arrays for up to report_n cache sizes, made by
     * az_mrc_init: printing the results of a long analysis allocates
     * nothing, so it cannot fail (or print less) once the trace is read */
    double *report_d;
    uint64_t *report_u;
    size_t report_n;
};

/* Initialises m.  Returns 0 or -EINVAL/-ENOMEM with the reason in err. */
int az_mrc_init(struct az_mrc *m, const struct az_mrc_opts *opt, char *err,
                size_t errlen);
/* Feeds one record: reads and writes reference every block of
 * [offset, offset + length) in ascending order.  Returns 0, or -ERANGE
 * (a block that does not fit the (unit, block) key), -E2BIG (more blocks
 * than max_record_blocks, strict) or -ENOMEM, with m->last_error saying
 * what (without the record's position: the caller knows it). */
int az_mrc_record(struct az_mrc *m, const struct tr_record *rec);
/* A hint that rec comes soon (exact runs; else nothing): on a large
 * footprint every record's blocks are a cache miss in the stack's block
 * map, so a caller that holds records ahead (a batch) hints the one
 * AZ_MRC_AHEAD ahead with deep = 0 and the one AZ_MRC_AHEAD / 2 ahead with
 * deep = 1 (az_sd_prefetch), and the misses overlap. */
#define AZ_MRC_AHEAD 16u
void az_mrc_prefetch(const struct az_mrc *m, const struct tr_record *rec, int deep);
/* az_mrc_record over n records in order, with the hints above.  Returns
 * the count done: n, or less when a record failed (its error as
 * az_mrc_record's, in *rc). */
size_t az_mrc_records(struct az_mrc *m, const struct tr_record *recs, size_t n, int *rc);
/* The distance sample's rate in effect (0 when exact). */
double az_mrc_distance_rate(const struct az_mrc *m);
/* Bytes the sampling adds to the block sample's stack: the distance
 * sample's Judy arrays, the watches and the filters (0 when exact). */
size_t az_mrc_sample_mem(const struct az_mrc *m);
/* Feeds one reference to block of unit directly (benchmarks, tests). */
int az_mrc_ref(struct az_mrc *m, uint32_t unit, uint64_t block);
/* After the last reference: a sampled run counts its references that were
 * never reused as misses at every size.  az_mrc_feed calls it; callers of
 * az_mrc_ref and az_mrc_record call it before reporting.  Idempotent. */
void az_mrc_finish(struct az_mrc *m);
void az_mrc_free(struct az_mrc *m);
/* The (unit, block) key: unit in the top 16 bits. */
#define AZ_KEY_UNIT_BITS  16
#define AZ_KEY_BLOCK_BITS 48
static inline uint64_t az_key(uint32_t unit, uint64_t block)
{
    return (uint64_t)unit << AZ_KEY_BLOCK_BITS | block;
}
/* The key split of NFS traces: 2^32 files of 2^32 blocks (16 TiB at
 * 4 KiB). */
#define AZ_KEY_NFS_UNIT_BITS 32
/* SHARDS's spatial hash: splitmix64 (the constant added first keeps key 0,
 * often the hottest block, from hashing to 0 and always being sampled). */
static inline uint64_t az_hash(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* ---- trace statistics (stats.c) ----------------------------------------- */

#define AZ_SIZE_BUCKETS 42 /* 0, then (2^(k-1), 2^k] for k = 0..40 */
#define AZ_RATE_BUCKETS 512

struct az_unit_stats {
    uint64_t records, reads, writes, bytes_read, bytes_written, max_end;
    uint64_t sequential, last_end;
    int seen;
};

struct az_stats {
    uint64_t block_size; /* for the footprint */
    uint64_t records, by_op[TR_OP__COUNT];
    uint64_t bytes_read, bytes_written, zero_size, sequential;
    uint64_t size_hist[AZ_SIZE_BUCKETS];
    int64_t first_ns, last_ns;
    int any;
    /* rate over time: counts per bucket of rate_width_ns, widened by
     * merging pairs so that the table stays AZ_RATE_BUCKETS long */
    uint64_t rate[AZ_RATE_BUCKETS];
    int64_t rate_width_ns;
    struct az_unit_stats *units;
    uint32_t nunits;
    struct cm_runs footprint; /* the (unit, block) keys; count: the blocks */
    char last_error[CM_ERR_LEN];
};

int az_stats_init(struct az_stats *s, uint64_t block_size);
int az_stats_record(struct az_stats *s, const struct tr_record *rec);
void az_stats_free(struct az_stats *s);
/* Bucket index of a request size in size_hist, and its upper bound. */
unsigned az_size_bucket(uint64_t bytes);
uint64_t az_size_bucket_max(unsigned bucket);

/* ---- feeding a reader to an analysis (feed.c) --------------------------- */

/* Feeds every record of r to the analysis, reading on a second thread when
 * threads > 1 (parsing then overlaps the analysis).  Returns 0, or -errno
 * with one line in err: the reader's error, or "FILE:LINE: message" for a
 * record the analysis refused. */
int az_mrc_feed(struct az_mrc *m, struct tr_reader *r, int threads, char *err,
                size_t errlen);
int az_stats_feed(struct az_stats *s, struct tr_reader *r, int threads, char *err,
                  size_t errlen);

/* ---- reports (report.c) ------------------------------------------------- */

/* What a report needs to know about the trace and the reader. */
struct az_source {
    const char *file;
    struct tr_reader *reader;
    /* the effective options, echoed under "options" in the YAML (may be
     * NULL): the program's option rows and the struct they point into */
    const struct cm_opt *opts;
    size_t nopts;
    const void *cfg;
    /* a trace without a block-trace reader (reader NULL: an NFS trace,
     * nfs_cli.c): its format, its units' names and its reader section in
     * the YAML, through data */
    const char *format;
    const char *(*unit_name)(const void *data, uint32_t unit, char *buf, size_t len);
    void (*reader_yaml)(struct cm_yaml *y, const void *data);
    const void *data;
};

/* The effective options under "options", by long name, as the rows
 * format them (opts NULL: nothing). */
void az_options_yaml(struct cm_yaml *y, const struct cm_opt *opts, size_t nopts,
                     const void *cfg);
/* Cache sizes: the list given, or powers of two up to the footprint. */
int az_cache_sizes(const char *list, uint64_t unique, uint64_t **sizes, size_t *n,
                   char *err, size_t errlen);
void az_mrc_table(FILE *out, const struct az_source *src, const struct az_mrc *m,
                  const uint64_t *sizes, size_t n);
void az_mrc_yaml(struct cm_yaml *y, const struct az_source *src, const struct az_mrc *m,
                 const uint64_t *sizes, size_t n);
/* Mean absolute error of the sampled hit-ratio curve against the exact one
 * (needs opt.sample_check). */
double az_mrc_sample_error(const struct az_mrc *m, const uint64_t *sizes, size_t n);
/* The expected absolute error of the sampled hit ratio at each size (into
 * err_at, may be NULL) and their mean, from the spread of the sub-samples:
 * sd(rate R) ~ sd(rate R/K) * sqrt((1 - R) / (K - R)), and E|X| = sd *
 * sqrt(2/pi) for a normal error.  NAN when not sampled. */
double az_mrc_expected_error(const struct az_mrc *m, const uint64_t *sizes, size_t n,
                             double *err_at);
/* The report's arrays for n cache sizes (az_mrc_init made them): two of
 * n doubles and one of n counts, apart from those az_mrc_expected_error
 * uses, so a caller may hold them around it.  Returns 0, or -ENOSPC when n
 * is more sizes than az_mrc_init allowed for (the options' cache sizes, or
 * AZ_DEFAULT_SIZES_MAX). */
int az_mrc_report_arrays(const struct az_mrc *m, size_t n, double **a, double **b,
                         uint64_t **hits);
/* Hit ratio of run r at the sizes; sampled runs scale by the sample. */
void az_mrc_ratios(const struct az_mrc *m, const struct az_mrc_run *r,
                   const struct az_hist *h, const uint64_t *sizes, size_t n,
                   double *ratio, uint64_t *hits);
/* Draws the miss-ratio curve of m's main run into output (.png or .svg)
 * with gnuplot (plot.c).  cm_plot_draw's returns: 0, CM_PLOT_NO_GNUPLOT
 * (err says gnuplot is not installed) or -errno. */
/* Several curves' main runs in one picture, named in the legend. */
#define AZ_PLOT_CURVES_MAX 8
int az_mrc_plot_curves(const struct az_mrc *const *ms, const char *const *names,
                       size_t nm, const char *title, const uint64_t *sizes, size_t n,
                       const char *output, char *err, size_t errlen);
int az_mrc_plot(const struct az_mrc *m, const char *trace, const uint64_t *sizes,
                size_t n, const char *output, char *err, size_t errlen);
void az_stats_table(FILE *out, const struct az_source *src, const struct az_stats *s);
void az_stats_yaml(struct cm_yaml *y, const struct az_source *src,
                   const struct az_stats *s);
/* A histogram of sizes in az_size_bucket's buckets (request sizes, the
 * NFS image's file sizes): as a text table under title, its counts headed
 * what; and as the YAML key size_histogram, a list of {le, count} with the
 * open-ended last bucket as {gt, count}.  Empty buckets are left out. */
void az_size_hist_table(FILE *out, const char *title, const char *what,
                        const uint64_t hist[AZ_SIZE_BUCKETS]);
void az_size_hist_yaml(struct cm_yaml *y, const uint64_t hist[AZ_SIZE_BUCKETS]);

#endif /* AZ_H */
