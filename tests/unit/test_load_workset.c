/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_workset.c - unit tests for workset.c: the cyclical Poisson
 * weights, the group layout, and the D5 invariant: for W = 975, 15 600 and
 * 156 000 working files split over 1, 4 and 16 processes, the 12
 * generations' access shares are the same (exactly, from the ranges, and
 * statistically, from seeded draws: chi-square against the common shares),
 * and no group has probability zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/cm.h"
#include "common/rng.h"
#include "load/workset.h"

static void weights_are_poisson6(void **state)
{
    const uint32_t *w = ld_workset_weights();
    double p = exp(-6.0), sum = 0, norm = 0;
    uint32_t k, total = 0;

    (void)state;
    for (k = 0; k < 12; k++, p = p * 6.0 / k)
        norm += p;
    p = exp(-6.0);
    for (k = 0; k < 12; k++) {
        double want = p / norm * 1000.0;

        assert_true(w[k] >= 1);
        assert_true(fabs((double)w[k] - want) < 1.0);
        total += w[k];
        sum += want;
        p = p * 6.0 / (k + 1);
    }
    assert_int_equal(total, LD_PROB_SCALE);
    assert_true(fabs(sum - 1000.0) < 1e-9);
    /* the mode of Poisson(6) is at k = 5 and 6 */
    assert_true(w[5] >= w[4] && w[6] >= w[7]);
}

static void cycles_and_groups(void **state)
{
    static const struct {
        uint32_t w, cycles;
    } cases[] = {{1, 1},    {487, 1},    {975, 1},     {1462, 1},
                 {1463, 2}, {15600, 16}, {156000, 160}};
    size_t i;
    struct ld_workset ws;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(cases); i++) {
        assert_int_equal(ld_workset_init(&ws, cases[i].w), 0);
        assert_int_equal(ws.cycles, cases[i].cycles);
        assert_int_equal(ws.ngroups, 12 * cases[i].cycles);
        assert_int_equal(ws.max_range, 1000 * cases[i].cycles);
        ld_workset_free(&ws);
    }
    assert_int_equal(ld_workset_init(&ws, 0), -EINVAL);
}

/* Every file belongs to exactly one group when W >= groups; groups are
 * never empty; sizes differ by at most one. */
static void layout_covers_files(void **state)
{
    static const uint32_t ws_sizes[] = {5, 12, 975, 1000, 15600, 15611};
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(ws_sizes); i++) {
        struct ld_workset ws;
        uint32_t g, next = 0, lo = UINT32_MAX, hi = 0;

        assert_int_equal(ld_workset_init(&ws, ws_sizes[i]), 0);
        for (g = 0; g < ws.ngroups; g++) {
            uint32_t first, count;

            ld_workset_group(&ws, g, &first, &count);
            assert_true(count >= 1);
            assert_true(first + count <= ws.nfiles);
            if (ws.nfiles >= ws.ngroups) {
                assert_int_equal(first, next);
                next = first + count;
                lo = count < lo ? count : lo;
                hi = count > hi ? count : hi;
            }
            assert_true(ld_workset_group_prob(&ws, g) > 0);
        }
        if (ws.nfiles >= ws.ngroups) {
            assert_int_equal(next, ws.nfiles);
            assert_true(hi - lo <= 1);
        }
        ld_workset_free(&ws);
    }
}

/* The D5 invariant. */
static void generations_invariant(void **state)
{
    static const uint32_t totals[] = {975, 15600, 156000};
    static const uint32_t procs[] = {1, 4, 16};
    const uint32_t *w = ld_workset_weights();
    const uint32_t draws = 240000; /* per (W, P) case, spread over the children */
    size_t ti, pi;

    (void)state;
    for (ti = 0; ti < CM_ARRAY_LEN(totals); ti++) {
        for (pi = 0; pi < CM_ARRAY_LEN(procs); pi++) {
            uint64_t gen[12] = {0};
            double chi2 = 0;
            uint32_t child, k;

            for (child = 0; child < procs[pi]; child++) {
                struct ld_workset ws;
                struct cm_rng rng;
                double exact[12] = {0};
                uint32_t g, i;

                assert_int_equal(ld_workset_init(&ws, totals[ti] / procs[pi]), 0);
                /* exact shares from the integer ranges */
                for (g = 0; g < ws.ngroups; g++) {
                    assert_true(ld_workset_group_prob(&ws, g) > 0);
                    exact[ld_workset_generation(g)] += ld_workset_group_prob(&ws, g);
                }
                for (k = 0; k < 12; k++)
                    assert_true(fabs(exact[k] - w[k] / 1000.0) < 1e-12);
                /* seeded draws (each child its own stream, as the children) */
                cm_rng_seed(&rng, 1000 + child * 7919 + ti * 104729 + pi);
                for (i = 0; i < draws / procs[pi]; i++) {
                    uint32_t grp;
                    uint32_t f = ld_workset_draw_file(&ws, &rng, &grp);

                    assert_true(f < ws.nfiles);
                    gen[ld_workset_generation(grp)]++;
                }
                ld_workset_free(&ws);
            }
            for (k = 0; k < 12; k++) {
                double n = (double)(draws / procs[pi] * procs[pi]);
                double e = n * w[k] / 1000.0;

                chi2 += ((double)gen[k] - e) * ((double)gen[k] - e) / e;
                assert_true(gen[k] > 0);
            }
            /* 11 degrees of freedom: 31.26 is the 0.1 % critical value */
            if (chi2 > 31.26)
                fail_msg("W=%u P=%u: chi-square %.2f over 31.26", totals[ti], procs[pi],
                         chi2);
        }
    }
}

/* Files inside a group are drawn uniformly. */
static void file_draw_uniform_in_group(void **state)
{
    struct ld_workset ws;
    struct cm_rng rng;
    uint32_t hits[975] = {0}, i, g;

    (void)state;
    assert_int_equal(ld_workset_init(&ws, 975), 0);
    cm_rng_seed(&rng, 99);
    for (i = 0; i < 2000000; i++)
        hits[ld_workset_draw_file(&ws, &rng, NULL)]++;
    for (g = 0; g < ws.ngroups; g++) {
        uint32_t first, count, f;
        double want = 2000000.0 * ld_workset_group_prob(&ws, g);

        ld_workset_group(&ws, g, &first, &count);
        for (f = first; f < first + count; f++) {
            double e = want / count;

            /* 5 standard deviations of a binomial count */
            assert_true(fabs(hits[f] - e) < 5 * sqrt(e) + 1);
        }
    }
    ld_workset_free(&ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(weights_are_poisson6),
        cmocka_unit_test(cycles_and_groups),
        cmocka_unit_test(layout_covers_files),
        cmocka_unit_test(generations_invariant),
        cmocka_unit_test(file_draw_uniform_in_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
