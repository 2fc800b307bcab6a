/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runs.h - a set of 64-bit keys kept as disjoint runs of consecutive keys
 * (a JudyL of first -> last), with the number of keys it holds.  Adding a
 * range costs a few Judy steps whatever its length (a 2^50-key range is one
 * run, not 2^50 bits), and each run merged away was added by an earlier
 * call, so merging is amortised constant per call; memory grows with the
 * runs, never with the keys.  sfs_trace's footprint counts (unit, block)
 * keys with it, a replay's plan the bytes each file's records touch.
 */
#ifndef CM_RUNS_H
#define CM_RUNS_H

#include <stdint.h>

struct cm_runs {
    void *judy;     /* JudyL: a run's first key -> its last key; NULL empty */
    uint64_t count; /* keys in the set (UINT64_MAX when all 2^64 are) */
};

/* Adds the keys a..b (inclusive; a <= b).  0, or -ENOMEM (the set is then
 * as before the call). */
int cm_runs_add(struct cm_runs *r, uint64_t a, uint64_t b);

/* Releases the runs; count stays, so that a caller may keep the figure. */
void cm_runs_free(struct cm_runs *r);

#endif /* CM_RUNS_H */
