/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hist.c - the log-linear latency histogram of hist.h: bucket arithmetic,
 * adding a value, quantiles.  O(1) per value, no allocation.
 */
#include <math.h>

#include "common/hist.h"

unsigned cm_hist_bucket(uint64_t us)
{
    unsigned e = 0;
    uint64_t v = us;

    if (us < CM_HIST_SUB)
        return (unsigned)us;
    while (v >>= 1)
        e++; /* e = floor(log2(us)) >= 4 */
    if (e - 4 >= CM_HIST_OCTAVES)
        return CM_HIST_NB - 1;
    return CM_HIST_SUB + (e - 4) * CM_HIST_SUB +
           (unsigned)((us >> (e - 4)) & (CM_HIST_SUB - 1));
}

void cm_hist_bounds(unsigned b, uint64_t *lo_us, uint64_t *hi_us)
{
    unsigned oct, sub;

    if (b < CM_HIST_SUB) {
        *lo_us = b;
        *hi_us = b + 1;
        return;
    }
    oct = (b - CM_HIST_SUB) / CM_HIST_SUB;
    sub = (b - CM_HIST_SUB) % CM_HIST_SUB;
    *lo_us = (uint64_t)(CM_HIST_SUB + sub) << oct;
    *hi_us = (uint64_t)(CM_HIST_SUB + sub + 1) << oct;
}

void cm_hist_add(struct cm_hist *h, uint64_t us)
{
    h->n[cm_hist_bucket(us)]++;
    if (h->count == 0 || us < h->min_us)
        h->min_us = us;
    h->count++;
    if (us > h->max_us)
        h->max_us = us;
}

double cm_hist_quantile_ms(const struct cm_hist *h, double q)
{
    uint64_t rank, seen = 0, lo, hi;
    unsigned b;

    if (h->count == 0)
        return 0;
    rank = (uint64_t)ceil(q * (double)h->count);
    if (rank < 1)
        rank = 1;
    for (b = 0; b < CM_HIST_NB; b++) {
        seen += h->n[b];
        if (seen >= rank)
            break;
    }
    if (b == CM_HIST_NB)
        b = CM_HIST_NB - 1;
    cm_hist_bounds(b, &lo, &hi);
    if (b < CM_HIST_SUB)
        return (double)lo / 1000.0;
    {
        /* a bucket's midpoint may lie outside the values it holds (a bucket
         * of one value, the first or the last): never below the smallest
         * value seen nor above the largest */
        double mid = (double)(lo + hi) / 2.0;

        if (mid > (double)h->max_us)
            mid = (double)h->max_us;
        if (mid < (double)h->min_us)
            mid = (double)h->min_us;
        return mid / 1000.0;
    }
}

double cm_hist_resolution_pct(void)
{
    /* the widest bucket above the exact range is 1/CM_HIST_SUB of its
     * lower bound; the midpoint is off by at most half of that */
    return 100.0 / (2.0 * CM_HIST_SUB);
}
