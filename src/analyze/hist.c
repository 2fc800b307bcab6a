/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hist.c - the distance histogram: one counter per exact depth (the array
 * grows to the largest depth seen, which is at most the number of distinct
 * blocks), so that the hits of any cache size are exact prefix sums.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az.h"

int az_hist_add(struct az_hist *h, uint64_t depth, uint64_t n)
{
    h->references += n;
    if (depth == 0) {
        h->cold += n;
        return 0;
    }
    if (depth >= h->cap) {
        uint64_t cap = h->cap ? h->cap : 1024;
        uint64_t *c;
        while (cap <= depth)
            cap *= 2;
        c = realloc(h->count, cap * sizeof(*c));
        if (!c)
            return -ENOMEM;
        memset(c + h->cap, 0, (cap - h->cap) * sizeof(*c));
        h->count = c;
        h->cap = cap;
    }
    h->count[depth] += n;
    if (depth > h->max_depth)
        h->max_depth = depth;
    h->sum_depth += (long double)depth * n;
    return 0;
}

void az_hist_free(struct az_hist *h)
{
    free(h->count);
    memset(h, 0, sizeof(*h));
}

void az_hist_hits_at(const struct az_hist *h, const uint64_t *sizes, size_t n,
                     uint64_t *out)
{
    uint64_t d = 1, sum = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        uint64_t lim = sizes[i] < h->max_depth ? sizes[i] : h->max_depth;
        for (; d <= lim; d++)
            sum += h->count[d];
        out[i] = sum;
    }
}

uint64_t az_hist_hits(const struct az_hist *h, uint64_t c)
{
    uint64_t out;

    az_hist_hits_at(h, &c, 1, &out);
    return out;
}
