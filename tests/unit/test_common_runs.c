/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_runs.c - the key set of disjoint runs (runs.h): its count
 * against a plain bitmap over a small key space after thousands of random
 * ranges (overlapping, adjacent, contained, swallowing several runs); the
 * runs stay disjoint and never adjacent; the ends of the 64-bit key space
 * (a range to UINT64_MAX, all 2^64 keys saturate the count). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <Judy.h>

#include "common/runs.h"

#define SPACE 4096u

/* Checks that r's runs are disjoint, not adjacent, and hold count keys. */
static void check_runs(const struct cm_runs *r)
{
    Word_t k = 0;
    PWord_t pv = (PWord_t)JudyLFirst(r->judy, &k, PJE0);
    uint64_t n = 0, prev_last = 0;
    int first = 1;

    for (; pv; pv = (PWord_t)JudyLNext(r->judy, &k, PJE0)) {
        assert_true(*pv >= k);
        if (!first)
            assert_true(k > prev_last + 1); /* neither overlapping nor adjacent */
        first = 0;
        prev_last = *pv;
        n += *pv - k + 1;
    }
    assert_true(n == r->count);
}

static void random_ranges_match_a_bitmap(void **state)
{
    static unsigned char bit[SPACE];
    struct cm_runs r = {0};
    uint64_t want = 0, x = 88172645463325252ull;
    unsigned i, k;

    (void)state;
    memset(bit, 0, sizeof(bit));
    for (i = 0; i < 5000; i++) {
        uint64_t a, len;

        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a = x % SPACE;
        len = i % 50 == 49 ? (x >> 20) % 600 + 1 : (x >> 20) % 9 + 1;
        if (a + len > SPACE)
            len = SPACE - a;
        assert_int_equal(cm_runs_add(&r, a, a + len - 1), 0);
        for (k = (unsigned)a; k < a + len; k++) {
            want += !bit[k];
            bit[k] = 1;
        }
        assert_true(r.count == want);
        if (i % 500 == 0)
            check_runs(&r);
    }
    check_runs(&r);
    cm_runs_free(&r);
    assert_null(r.judy);
    assert_true(r.count == want); /* the figure outlives the runs */
}

static void shapes(void **state)
{
    struct cm_runs r = {0};

    (void)state;
    assert_int_equal(cm_runs_add(&r, 10, 19), 0); /* [10,19] */
    assert_int_equal(cm_runs_add(&r, 12, 15), 0); /* inside */
    assert_true(r.count == 10);
    assert_int_equal(cm_runs_add(&r, 20, 20), 0); /* adjacent after */
    assert_int_equal(cm_runs_add(&r, 9, 9), 0);   /* adjacent before */
    assert_true(r.count == 12);
    assert_int_equal(cm_runs_add(&r, 30, 39), 0);
    assert_int_equal(cm_runs_add(&r, 50, 59), 0);
    assert_true(r.count == 32);
    assert_int_equal(cm_runs_add(&r, 0, 100), 0); /* swallows all three */
    assert_true(r.count == 101);
    check_runs(&r);
    cm_runs_free(&r);
}

static void key_space_ends(void **state)
{
    struct cm_runs r = {0};

    (void)state;
    assert_int_equal(cm_runs_add(&r, UINT64_MAX - 9, UINT64_MAX), 0);
    assert_true(r.count == 10);
    assert_int_equal(cm_runs_add(&r, UINT64_MAX, UINT64_MAX), 0);
    assert_true(r.count == 10);
    assert_int_equal(cm_runs_add(&r, 0, 0), 0);
    assert_true(r.count == 11);
    check_runs(&r);
    assert_int_equal(cm_runs_add(&r, 0, UINT64_MAX), 0); /* 2^64 keys */
    assert_true(r.count == UINT64_MAX);
    cm_runs_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_ranges_match_a_bitmap),
        cmocka_unit_test(shapes),
        cmocka_unit_test(key_space_ends),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
