/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workset.h - the cyclical Poisson working set of SFS 3.0, exactly as
 * docs/DECISIONS.md D5 fixes it (docs/SFS30.md §6): W working io files of one
 * child are spread evenly over 12 x cycles access groups, cycles =
 * max(1, round(W / 975)); within a cycle group k has the Poisson(6)
 * probability of k = 0..11 renormalised over the 12, as integer weights
 * summing to PROB_SCALE 1000; cycle c's ranges continue the cumulative sum,
 * so every cycle is equally likely and generation k (groups k, k+12, ...)
 * always gets the same share whatever W, the process count or the rate.  A
 * draw is one uniform number and a binary search: O(log groups), no
 * allocation.  The files themselves (and best fit, D6) are files.c's.
 */
#ifndef LD_WORKSET_H
#define LD_WORKSET_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"

#define LD_PROB_SCALE     1000u
#define LD_WS_GENERATIONS 12u  /* _MIN_GROUPS */
#define LD_WS_FILES_AT_25 975u /* _WORKING_SET_AT_25_OPS_PER_SEC */
#define LD_WS_LAMBDA      6.0

struct ld_workset {
    uint32_t nfiles; /* W */
    uint32_t cycles;
    uint32_t ngroups;   /* 12 x cycles */
    uint32_t max_range; /* 1000 x cycles */
    uint32_t *range;    /* ngroups cumulative upper bounds (exclusive) */
    uint32_t *first;    /* ngroups + 1 file offsets; group g = [first[g], first[g+1]) */
};

/* The 12 integer weights of one cycle (sum 1000, each >= 1); the same for
 * every working set. */
const uint32_t *ld_workset_weights(void);

/* Builds the working set for W = nfiles (>= 1).  Allocates the two arrays
 * (freed by ld_workset_free).  Returns 0, -EINVAL (nfiles 0, or above ~2 x 10^9) or
 * -ENOMEM. */
int ld_workset_init(struct ld_workset *ws, uint32_t nfiles);
void ld_workset_free(struct ld_workset *ws);

/* Draws a group (hot path). */
uint32_t ld_workset_draw_group(const struct ld_workset *ws, struct cm_rng *rng);

/* Group g's files: first working-file index and count (>= 1).  When W is
 * smaller than the group count, neighbouring groups share one file so that
 * no group is empty. */
void ld_workset_group(const struct ld_workset *ws, uint32_t g, uint32_t *first,
                      uint32_t *count);

/* Draws a group, then a uniform file inside it: a working-file index in
 * [0, W).  *group (may be NULL) gets the group. */
uint32_t ld_workset_draw_file(const struct ld_workset *ws, struct cm_rng *rng,
                              uint32_t *group);

/* Generation of a group (g mod 12) and the exact probability of a group. */
static inline uint32_t ld_workset_generation(uint32_t g)
{
    return g % LD_WS_GENERATIONS;
}
double ld_workset_group_prob(const struct ld_workset *ws, uint32_t g);

#endif /* LD_WORKSET_H */
