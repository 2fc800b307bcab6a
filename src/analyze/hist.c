/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hist.c - the distance histogram: counters per bin of depths, the bins
 * bounded by every power of two and by the cache sizes the user asked for
 * (az.h explains why), so that the hits at every size a report shows are
 * exact prefix sums while the counters stay small enough for L1.  The
 * largest depth and the sum of the depths (for the mean) are kept exactly
 * beside them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "analyze/az.h"

int az_bins_init(struct az_bins *b, const uint64_t *sizes, size_t n)
{
    size_t i = 0, k = 0;
    unsigned p = 0;

    memset(b, 0, sizeof(*b));
    if (n > AZ_BINS_MAX - 65)
        return -EINVAL;
    /* merge the powers of two 2^0..2^63 with the sizes, without repeats */
    while (p < 64 || i < n) {
        uint64_t pw = p < 64 ? 1ull << p : UINT64_MAX;
        uint64_t v = i < n && sizes[i] < pw ? sizes[i] : pw;

        if (k == 0 || b->bound[k - 1] < v)
            b->bound[k++] = v;
        if (i < n && sizes[i] == v)
            i++;
        if (v == pw && p < 64)
            b->pow2_at[p++] = (uint32_t)(k - 1);
    }
    if (b->bound[k - 1] != UINT64_MAX)
        b->bound[k++] = UINT64_MAX;
    b->n = k;
    b->pow2_only = k == 65;
    return 0;
}

void az_hist_init(struct az_hist *h, const struct az_bins *bins)
{
    memset(h, 0, sizeof(*h));
    h->bins = bins;
}

int az_hist_alloc(struct az_hist *h)
{
    h->count = cm_calloc(h->bins->n, sizeof(*h->count));
    return h->count ? 0 : -ENOMEM;
}

void az_hist_free(struct az_hist *h)
{
    const struct az_bins *bins = h->bins;

    free(h->count);
    memset(h, 0, sizeof(*h));
    h->bins = bins;
}

long double az_hist_sum_depth(const struct az_hist *h)
{
    return (long double)h->sum_hi * 18446744073709551616.0L + (long double)h->sum_lo;
}

void az_hist_hits_at(const struct az_hist *h, const uint64_t *sizes, size_t n,
                     uint64_t *out)
{
    uint64_t sum = 0;
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        for (; h->count && k < h->bins->n && h->bins->bound[k] <= sizes[i]; k++)
            sum += h->count[k];
        out[i] = sum;
    }
}

uint64_t az_hist_hits(const struct az_hist *h, uint64_t c)
{
    uint64_t out;

    az_hist_hits_at(h, &c, 1, &out);
    return out;
}
