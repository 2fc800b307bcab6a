/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workset.c - the cyclical Poisson access groups of docs/DECISIONS.md D5
 * (docs/SFS30.md §6).  The 12 weights of a cycle are the Poisson(6)
 * probabilities of k = 0..11 renormalised over the 12 and rounded to
 * integers summing to PROB_SCALE (largest remainder, so the sum is exact and
 * no group gets 0); cycle c's cumulative ranges follow cycle c-1's.  The
 * draw reduces the generator to [0, 1000 x cycles) without modulo bias
 * (cm_rng_below) and binary-searches the ranges: O(log groups), the cost
 * bench/load_choice.c measures.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "load/workset.h"
#include "common/alloc.h"

const uint32_t *ld_workset_weights(void)
{
    static uint32_t w[LD_WS_GENERATIONS];
    double p[LD_WS_GENERATIONS], frac[LD_WS_GENERATIONS], sum = 0, term;
    uint32_t acc = 0, k, i;

    term = exp(-LD_WS_LAMBDA); /* P(0) */
    for (k = 0; k < LD_WS_GENERATIONS; k++) {
        p[k] = term;
        sum += term;
        term = term * LD_WS_LAMBDA / (double)(k + 1);
    }
    for (k = 0; k < LD_WS_GENERATIONS; k++) {
        double x = p[k] / sum * LD_PROB_SCALE;

        w[k] = (uint32_t)floor(x);
        frac[k] = x - floor(x);
        acc += w[k];
    }
    /* hand the missing units to the largest remainders (ties: lower k) */
    while (acc < LD_PROB_SCALE) {
        uint32_t best = 0;

        for (i = 1; i < LD_WS_GENERATIONS; i++)
            if (frac[i] > frac[best])
                best = i;
        w[best]++;
        frac[best] = -1.0;
        acc++;
    }
    for (k = 0; k < LD_WS_GENERATIONS; k++)
        if (w[k] == 0)
            w[k] = 1; /* cannot happen for lambda 6; kept as the D5 guarantee */
    return w;
}

int ld_workset_init(struct ld_workset *ws, uint32_t nfiles)
{
    const uint32_t *w = ld_workset_weights();
    uint32_t g, acc = 0;

    memset(ws, 0, sizeof(*ws));
    if (nfiles == 0)
        return -EINVAL;
    /* cycles = max(1, round(W / 975)) */
    ws->cycles =
        (uint32_t)(((uint64_t)nfiles + LD_WS_FILES_AT_25 / 2) / LD_WS_FILES_AT_25);
    if (ws->cycles == 0)
        ws->cycles = 1;
    if (ws->cycles > (CM_RNG_MODULUS - 2u) / LD_PROB_SCALE)
        return -EINVAL; /* the ranges would outgrow the generator */
    ws->ngroups = LD_WS_GENERATIONS * ws->cycles;
    ws->nfiles = nfiles;
    ws->range = cm_malloc(sizeof(uint32_t) * ws->ngroups);
    ws->first = cm_malloc(sizeof(uint32_t) * (ws->ngroups + 1));
    if (!ws->range || !ws->first) {
        ld_workset_free(ws);
        return -ENOMEM;
    }
    for (g = 0; g < ws->ngroups; g++) {
        acc += w[g % LD_WS_GENERATIONS];
        ws->range[g] = acc;
    }
    ws->max_range = acc;
    for (g = 0; g <= ws->ngroups; g++)
        ws->first[g] = (uint32_t)((uint64_t)g * nfiles / ws->ngroups);
    return 0;
}

void ld_workset_free(struct ld_workset *ws)
{
    free(ws->range);
    free(ws->first);
    ws->range = NULL;
    ws->first = NULL;
    ws->ngroups = 0;
}

uint32_t ld_workset_draw_group(const struct ld_workset *ws, struct cm_rng *rng)
{
    uint32_t v = cm_rng_below(rng, ws->max_range);
    uint32_t lo = 0, hi = ws->ngroups - 1;

    /* the first group whose cumulative bound exceeds v */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (ws->range[mid] > v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void ld_workset_group(const struct ld_workset *ws, uint32_t g, uint32_t *first,
                      uint32_t *count)
{
    uint32_t f = ws->first[g], n = ws->first[g + 1] - f;

    if (n == 0) { /* W < groups: share a neighbour's file */
        n = 1;
        if (f >= ws->nfiles)
            f = ws->nfiles - 1;
    }
    *first = f;
    *count = n;
}

uint32_t ld_workset_draw_file(const struct ld_workset *ws, struct cm_rng *rng,
                              uint32_t *group)
{
    uint32_t g = ld_workset_draw_group(ws, rng), first, count;

    ld_workset_group(ws, g, &first, &count);
    if (group)
        *group = g;
    return first + cm_rng_below(rng, count);
}

double ld_workset_group_prob(const struct ld_workset *ws, uint32_t g)
{
    uint32_t lo = g ? ws->range[g - 1] : 0;

    return (double)(ws->range[g] - lo) / (double)ws->max_range;
}
