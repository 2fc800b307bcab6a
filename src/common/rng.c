/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rng.c - the Park-Miller "minimal standard" generator SFS 3.0 uses
 * (docs/SFS30.md §8): multiplier 16807, modulus 2^31 - 1, Schrage's split so
 * that 32-bit arithmetic never overflows.  Kept bit-compatible with SFS so
 * that seeded runs are reproducible and comparable.
 */
#include "common/rng.h"

#define RNG_A 16807
#define RNG_Q 127773 /* M / A */
#define RNG_R 2836   /* M % A */

void cm_rng_seed(struct cm_rng *r, int64_t seed)
{
    int64_t s = seed % (CM_RNG_MODULUS - 1);

    if (s < 0)
        s = -s;
    if (s == 0)
        s = CM_RNG_DEFAULT_SEED;
    r->state = (int32_t)s;
}

int32_t cm_rng_next(struct cm_rng *r)
{
    int32_t hi = r->state / RNG_Q;
    int32_t lo = r->state % RNG_Q;
    int32_t t = RNG_A * lo - RNG_R * hi;

    r->state = t > 0 ? t : t + CM_RNG_MODULUS;
    return r->state;
}

uint32_t cm_rng_below(struct cm_rng *r, uint32_t n)
{
    /* Values are uniform on [1, M-1]; reject the top partial bucket so every
     * result in [0, n) is equally likely (SFS used a plain modulo). */
    const uint32_t span = CM_RNG_MODULUS - 1;
    uint32_t limit, v;

    if (n <= 1)
        return 0;
    limit = span - span % n;
    do {
        v = (uint32_t)cm_rng_next(r) - 1;
    } while (v >= limit);
    return v % n;
}

double cm_rng_unit(struct cm_rng *r)
{
    return (double)cm_rng_next(r) / (double)CM_RNG_MODULUS;
}
