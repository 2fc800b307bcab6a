/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hist.h - a fixed-size log-linear histogram of latencies in microseconds,
 * for percentiles without keeping the samples: the load generator's per-op
 * response times, open-loop issue lag, sfs_ping's call latencies.  Adding a
 * value is O(1) and allocates nothing; two histograms add cell by cell, so
 * children and clients merge exactly.
 *
 * Resolution: values below CM_HIST_SUB us are exact; above, every power of
 * two is cut into CM_HIST_SUB buckets, so a bucket is at most 1/16 (6.25 %)
 * of its lower bound wide and a quantile (the bucket's midpoint, kept
 * within the smallest and the largest value seen) is within
 * cm_hist_resolution_pct() (3.1 %) of a sample in that bucket.  Reports
 * that print a percentile say so; every percentile lies in [min, max], as
 * the reports print them beside it.
 */
#ifndef CM_HIST_H
#define CM_HIST_H

#include <stdint.h>

/* Histogram: values in microseconds; exact below 16 us, then 16 buckets per
 * power of two (at most ~6 % wide) up to 2^30 us (~18 min; larger values
 * land in the last bucket). */
#define CM_HIST_SUB     16
#define CM_HIST_OCTAVES 26
#define CM_HIST_NB      (CM_HIST_SUB + CM_HIST_SUB * CM_HIST_OCTAVES)

struct cm_hist {
    uint32_t n[CM_HIST_NB];
    uint64_t count;
    uint64_t max_us;
    uint64_t min_us; /* meaningful when count > 0 */
};

/* Adds one value (microseconds). */
void cm_hist_add(struct cm_hist *h, uint64_t us);

/* The q-quantile (0 < q <= 1) in milliseconds (the bucket's midpoint,
 * within [min_us, max_us]; exact for values below CM_HIST_SUB us); 0 when
 * empty. */
double cm_hist_quantile_ms(const struct cm_hist *h, double q);

/* Bucket index of a value in microseconds, and a bucket's [lo, hi) bounds. */
unsigned cm_hist_bucket(uint64_t us);
void cm_hist_bounds(unsigned b, uint64_t *lo_us, uint64_t *hi_us);

/* The largest relative error of a quantile above the exact range, in
 * percent (3.125). */
double cm_hist_resolution_pct(void);

#endif /* CM_HIST_H */
