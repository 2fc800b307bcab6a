/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rng.h - SFS 3.0's Park-Miller minimal standard random generator (common
 * layer, rng.c; docs/SFS30.md §8), bit-compatible with SFS so that seeded
 * runs are reproducible and comparable.
 */
#ifndef CM_RNG_H
#define CM_RNG_H

#include <stdint.h>

struct cm_rng {
    int32_t state; /* in [1, 2^31 - 2] */
};
#define CM_RNG_MODULUS      2147483647 /* 2^31 - 1 */
#define CM_RNG_DEFAULT_SEED 2231

/* Seeds the generator; a seed of 0 (not allowed by the algorithm) or one
 * outside the range is folded into it. */
void cm_rng_seed(struct cm_rng *r, int64_t seed);
/* Next value in [1, 2^31 - 2] (Schrage's method, no overflow). */
int32_t cm_rng_next(struct cm_rng *r);
/* Uniform integer in [0, n) for 0 < n <= 2^31 - 2, without modulo bias. */
uint32_t cm_rng_below(struct cm_rng *r, uint32_t n);
/* Uniform double in (0, 1). */
double cm_rng_unit(struct cm_rng *r);

#endif /* CM_RNG_H */
