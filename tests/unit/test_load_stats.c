/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_stats.c - unit tests for stats.c: the docs/SFS30.md §11 math against
 * hand-computed values (mean, variance, the CI column sqrt(3.84 x stddev /
 * n)), good/bad/fast accounting into op and TOTAL, the histogram's buckets
 * and percentiles, merging children, and the wire encoding round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load/stats.h"

#define MS 1000000ull /* ns */

static void sfs_math(void **state)
{
    struct ld_stats s;
    const struct ld_opstat *o;

    (void)state;
    ld_stats_reset(&s);
    ld_stats_good(&s, NF_OP_LOOKUP, 1 * MS, 0);
    ld_stats_good(&s, NF_OP_LOOKUP, 2 * MS, 0);
    ld_stats_good(&s, NF_OP_LOOKUP, 3 * MS, 1);
    ld_stats_good(&s, NF_OP_LOOKUP, 4 * MS, 0);
    o = &s.op[NF_OP_LOOKUP];
    assert_int_equal(o->good, 4);
    assert_int_equal(o->nfs_errors, 1);
    /* n = 4, S = 10, Q = 30 */
    assert_true(fabs(o->sum_ms - 10) < 1e-9);
    assert_true(fabs(o->sumsq_ms - 30) < 1e-9);
    assert_true(fabs(ld_stats_mean_ms(o) - 2.5) < 1e-9);
    /* (30 - 100/4) / 3 = 5/3 */
    assert_true(fabs(ld_stats_variance(o) - 5.0 / 3.0) < 1e-9);
    assert_true(fabs(ld_stats_stddev(o) - 1.2909944487) < 1e-9);
    /* sqrt(3.84 x 1.2909944487 / 4) = 1.1132667... */
    assert_true(fabs(ld_stats_ci(o) - sqrt(3.84 * 1.2909944487358056 / 4)) < 1e-9);
    assert_true(fabs(ld_stats_ci(o) - 1.11326) < 1e-4);
    /* TOTAL saw the same calls */
    assert_int_equal(s.op[NF_OP_TOTAL].good, 4);
    assert_int_equal(s.op[NF_OP_TOTAL].sum_us, 10000);
}

static void edge_cases(void **state)
{
    struct ld_stats s;

    (void)state;
    ld_stats_reset(&s);
    assert_int_equal(s.nchildren, 1);
    /* n <= 1: variance 0, CI 0 for n = 0 */
    assert_true(ld_stats_variance(&s.op[NF_OP_READ]) == 0);
    assert_true(ld_stats_ci(&s.op[NF_OP_READ]) == 0);
    assert_true(ld_stats_mean_ms(&s.op[NF_OP_READ]) == 0);
    ld_stats_good(&s, NF_OP_READ, 7 * MS, 0);
    assert_true(ld_stats_variance(&s.op[NF_OP_READ]) == 0);
    /* identical values: rounding must not make the variance negative */
    ld_stats_good(&s, NF_OP_READ, 7 * MS, 0);
    ld_stats_good(&s, NF_OP_READ, 7 * MS, 0);
    assert_true(ld_stats_variance(&s.op[NF_OP_READ]) >= 0);
    /* fast calls: below SFS's microsecond resolution */
    ld_stats_good(&s, NF_OP_GETATTR, 999, 0);
    ld_stats_good(&s, NF_OP_GETATTR, 1000, 0);
    assert_int_equal(s.op[NF_OP_GETATTR].fast, 1);
    assert_int_equal(s.op[NF_OP_TOTAL].fast, 1);
    /* bad calls record no time */
    ld_stats_bad(&s, NF_OP_WRITE);
    assert_int_equal(s.op[NF_OP_WRITE].bad, 1);
    assert_int_equal(s.op[NF_OP_TOTAL].bad, 1);
    assert_int_equal(s.op[NF_OP_WRITE].good, 0);
    assert_int_equal(s.op[NF_OP_WRITE].hist.count, 0);
}

static void histogram_buckets(void **state)
{
    uint64_t us, lo, hi;
    unsigned b, prev = 0;

    (void)state;
    for (b = 0; b < CM_HIST_NB; b++) {
        cm_hist_bounds(b, &lo, &hi);
        assert_true(lo < hi);
        if (b > 0) {
            uint64_t plo, phi;

            cm_hist_bounds(b - 1, &plo, &phi);
            assert_int_equal(phi, lo); /* contiguous */
        }
        assert_int_equal(cm_hist_bucket(lo), b);
        assert_int_equal(cm_hist_bucket(hi - 1), b);
        /* width at most 1/16 of the lower bound (above the exact range) */
        if (b >= CM_HIST_SUB)
            assert_true((hi - lo) * 16 <= lo);
    }
    for (us = 0; us < 5000000; us = us * 2 + 1) {
        b = cm_hist_bucket(us);
        assert_true(b >= prev);
        prev = b;
    }
    assert_int_equal(cm_hist_bucket(UINT64_MAX), CM_HIST_NB - 1);
}

static void percentiles(void **state)
{
    struct ld_stats s;
    const struct cm_hist *h;
    int i;

    (void)state;
    ld_stats_reset(&s);
    for (i = 1; i <= 1000; i++)
        ld_stats_good(&s, NF_OP_READ, (uint64_t)i * 100000ull, 0); /* 0.1 .. 100 ms */
    h = &s.op[NF_OP_READ].hist;
    assert_true(fabs(cm_hist_quantile_ms(h, 0.50) / 50.0 - 1) < 0.04);
    assert_true(fabs(cm_hist_quantile_ms(h, 0.99) / 99.0 - 1) < 0.04);
    assert_true(cm_hist_quantile_ms(h, 1.0) <= 100.0);
    assert_int_equal(h->max_us, 100000);
    /* exact below 16 us */
    ld_stats_reset(&s);
    ld_stats_good(&s, NF_OP_READ, 7000, 0);
    assert_true(fabs(cm_hist_quantile_ms(&s.op[NF_OP_READ].hist, 0.5) - 0.007) < 1e-12);
    ld_stats_reset(&s);
    assert_true(cm_hist_quantile_ms(&s.op[NF_OP_READ].hist, 0.5) == 0);
}

/* A bucket's midpoint can lie below the smallest value in it or above the
 * largest: every percentile stays within [min, max] (cases met in
 * real captures: 99 us in [96, 100), 675.268 ms in [655.36, 688.128)). */
static void percentiles_within_min_and_max(void **state)
{
    static const uint64_t cases[][2] = {
        {99, 99}, {675268, 675268}, {97, 99}, {660000, 687000}};
    struct cm_hist h;
    unsigned k;
    int i;

    (void)state;
    for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        memset(&h, 0, sizeof(h));
        for (i = 0; i < 10; i++)
            cm_hist_add(&h, i % 2 ? cases[k][0] : cases[k][1]);
        assert_int_equal(h.min_us, cases[k][0]);
        assert_int_equal(h.max_us, cases[k][1]);
        assert_true(cm_hist_quantile_ms(&h, 0.5) >= (double)cases[k][0] / 1000.0);
        assert_true(cm_hist_quantile_ms(&h, 0.5) <= (double)cases[k][1] / 1000.0);
        assert_true(cm_hist_quantile_ms(&h, 0.99) >= (double)cases[k][0] / 1000.0);
        assert_true(cm_hist_quantile_ms(&h, 0.99) <= (double)cases[k][1] / 1000.0);
    }
    memset(&h, 0, sizeof(h));
    cm_hist_add(&h, 99);
    assert_true(fabs(cm_hist_quantile_ms(&h, 0.5) - 0.099) < 1e-12); /* not 0.098 */
    memset(&h, 0, sizeof(h));
    cm_hist_add(&h, 675268);
    assert_true(fabs(cm_hist_quantile_ms(&h, 0.5) - 675.268) < 1e-9); /* not 671.744 */
}

static void fill(struct ld_stats *s, int seed)
{
    int i;

    ld_stats_reset(s);
    for (i = 0; i < 1000; i++)
        ld_stats_good(s, (i * 7 + seed) % NF_NOPS, (uint64_t)(i * 13 + seed) * 1000,
                      i % 5 == 0);
    for (i = 0; i < 10; i++)
        ld_stats_bad(s, i);
    ld_stats_lag(s, 0);
    ld_stats_lag(s, 5 * MS + (uint64_t)seed);
    s->op[NF_OP_READ].no_calls = 3;
    s->nofit = 2 + seed;
    s->truncates = 4;
    s->appends = 9;
    s->runtime_ns = 60000000000ull + (uint64_t)seed;
    s->total_kb = 144872;
    s->base_kb = 14508;
    s->least_kb = 14508;
    s->most_kb = 15000 + (uint64_t)seed;
    s->io_files = 5572;
    s->working_files = 558;
    s->catchup_skips = 11 + (uint64_t)seed;
    s->ahead_sleeps = 5;
}

static void merge_children(void **state)
{
    struct ld_stats a, b, m;
    int op;

    (void)state;
    fill(&a, 1);
    fill(&b, 2);
    m = a;
    ld_stats_merge(&m, &b);
    assert_int_equal(m.nchildren, 2);
    for (op = 0; op <= NF_NOPS; op++) {
        assert_int_equal(m.op[op].good, a.op[op].good + b.op[op].good);
        assert_int_equal(m.op[op].bad, a.op[op].bad + b.op[op].bad);
        assert_int_equal(m.op[op].hist.count, a.op[op].hist.count + b.op[op].hist.count);
        assert_true(fabs(m.op[op].sumsq_ms - a.op[op].sumsq_ms - b.op[op].sumsq_ms) <
                    1e-6);
        assert_int_equal(m.op[op].hist.max_us, a.op[op].hist.max_us > b.op[op].hist.max_us
                                                   ? a.op[op].hist.max_us
                                                   : b.op[op].hist.max_us);
    }
    assert_int_equal(m.op[NF_OP_TOTAL].good, 2000);
    assert_int_equal(m.runtime_ns, a.runtime_ns + b.runtime_ns);
    assert_int_equal(m.total_kb, 2 * 144872);
    assert_int_equal(m.most_kb, 30003);
    assert_int_equal(m.late_requests, 2);
    assert_int_equal(m.nofit, 7);
    assert_int_equal(m.lag.max_us, 5000);
    assert_int_equal(m.catchup_skips, 25);
    assert_int_equal(m.ahead_sleeps, 10);
}

static void wire_round_trip(void **state)
{
    struct ld_stats a, b;
    size_t max = ld_stats_wire_max(NULL), n, used = 0;
    unsigned char *buf = malloc(max);

    (void)state;
    assert_non_null(buf);
    assert_true(max > sizeof(uint64_t) * 100);
    fill(&a, 3);
    n = ld_stats_encode(&a, NULL, NULL, buf);
    assert_true(n <= max);
    assert_int_equal(ld_stats_decode(&b, NULL, NULL, buf, n, &used), 0);
    assert_int_equal(used, n);
    assert_memory_equal(&a, &b, sizeof(a));
    /* big-endian magic "LDST" first */
    assert_memory_equal(buf, "LDST", 4);
    assert_int_equal(ld_stats_decode(&b, NULL, NULL, buf, n - 1, NULL), -EPROTO);
    buf[0] ^= 0xff;
    assert_int_equal(ld_stats_decode(&b, NULL, NULL, buf, n, NULL), -EPROTO);
    free(buf);
}

/* Bytes of base a field table covers. */
static size_t covered(const struct cm_field *t, size_t n)
{
    size_t i, bytes = 0;

    for (i = 0; i < n; i++)
        bytes += t[i].size * (t[i].count ? t[i].count : 1);
    return bytes;
}

/* Every counter of the results is a row of their field table (the merge,
 * the wire form and the YAML come from it): a member added without a row
 * would leave bytes uncovered.  struct ld_stats pads its one uint32_t. */
static void every_counter_is_in_the_field_table(void **state)
{
    size_t n, no;
    const struct cm_field *t = ld_stats_fields(&n);
    const struct cm_field *o = ld_opstat_fields(&no);

    (void)state;
    assert_int_equal(covered(o, no), sizeof(struct ld_opstat));
    assert_true(sizeof(struct ld_stats) - covered(t, n) < sizeof(uint64_t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sfs_math),
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(histogram_buckets),
        cmocka_unit_test(percentiles_within_min_and_max),
        cmocka_unit_test(percentiles),
        cmocka_unit_test(merge_children),
        cmocka_unit_test(wire_round_trip),
        cmocka_unit_test(every_counter_is_in_the_field_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
