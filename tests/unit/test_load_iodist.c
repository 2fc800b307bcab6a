/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_iodist.c - unit tests for iodist.c: the default tables of
 * docs/SFS30.md §3 (1.64 / 2.00 calls per request, 136 KB maximum), the
 * transfer draw (row shares, fragment sizes, -B), and the block-size file
 * reader on tests/fixtures/iodist (Read/read, FILE:LINE errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cm.h"
#include "common/error.h"
#include "common/rng.h"
#include "load/iodist.h"

#define FIX "tests/fixtures/iodist/"

static void defaults(void **state)
{
    struct ld_iodist d;

    (void)state;
    ld_iodist_default(&d, 8);
    assert_true(fabs(d.read.calls_per_req - 1.64) < 1e-9);
    assert_true(fabs(d.write.calls_per_req - 2.00) < 1e-9);
    assert_int_equal(d.read.cum[d.read.nrows - 1], 100);
    assert_int_equal(d.write.cum[0], 49);
    assert_int_equal(d.read.cum[1], 85);
    assert_int_equal(d.read.cum[2], 93);
    assert_int_equal(ld_iodist_max_bytes(&d), 17 * 8192);
    assert_int_equal(d.block_bytes, 8192);
    assert_int_equal(d.from_file, 0);
}

/* Many draws: row shares, sizes and calls as the tables say. */
static void draws(void **state)
{
    struct ld_iodist d;
    struct cm_rng rng;
    uint64_t calls[2] = {0}, frag_calls = 0, full_calls = 0;
    int w, i;

    (void)state;
    ld_iodist_default(&d, 8);
    cm_rng_seed(&rng, 31337);
    for (w = 0; w < 2; w++) {
        uint64_t eight_kb = 0;

        for (i = 0; i < 200000; i++) {
            struct ld_xfer x;

            ld_iodist_draw(&d, w, &rng, &x);
            assert_int_equal(x.calls, x.full_calls + (x.frag_bytes != 0));
            assert_int_equal(x.bytes, x.full_calls * 8192 + x.frag_bytes);
            assert_true(x.bytes > 0 && x.bytes <= ld_iodist_max_bytes(&d));
            assert_true(x.frag_bytes % 1024 == 0 && x.frag_bytes <= 7 * 1024);
            if (x.frag_bytes)
                assert_true(x.frag_bytes >= 1024);
            if (!w)
                assert_true(x.full_calls >= 1); /* reads are at least a block */
            if (x.bytes == 8192)
                eight_kb++;
            calls[w] += x.calls;
            if (w) {
                frag_calls += x.frag_bytes != 0;
                full_calls += x.full_calls;
            }
        }
        if (!w)
            assert_true(fabs(eight_kb / 200000.0 - 0.85) < 0.005);
    }
    assert_true(fabs(calls[0] / 200000.0 - 1.64) < 0.02);
    assert_true(fabs(calls[1] / 200000.0 - 2.00) < 0.02);
    /* writes: half full blocks, half fragments (docs/SFS30.md §3 packet mix) */
    assert_true(fabs((double)frag_calls / (double)(frag_calls + full_calls) - 0.5) <
                0.01);
}

static void block_sizes(void **state)
{
    struct ld_iodist d;
    struct cm_rng rng;
    int i;

    (void)state;
    cm_rng_seed(&rng, 5);
    ld_iodist_default(&d, 4);
    assert_int_equal(ld_iodist_max_bytes(&d), 17 * 4096);
    for (i = 0; i < 10000; i++) {
        struct ld_xfer x;

        ld_iodist_draw(&d, 1, &rng, &x);
        assert_true(x.frag_bytes <= 3 * 1024);
        assert_int_equal(x.bytes, x.full_calls * 4096 + x.frag_bytes);
    }
    ld_iodist_default(&d, 1);
    for (i = 0; i < 1000; i++) {
        struct ld_xfer x;

        ld_iodist_draw(&d, 1, &rng, &x);
        assert_true(x.frag_bytes == 0 || x.frag_bytes == 1024);
        assert_true(x.bytes > 0);
    }
}

static void good_files(void **state)
{
    struct ld_iodist d, def;
    char err[CM_ERR_LEN];
    struct cm_rng rng;
    int i;

    (void)state;
    ld_iodist_default(&def, 8);
    assert_int_equal(ld_iodist_load(&d, 8, FIX "default.bsd", NULL, err, sizeof(err)), 0);
    assert_int_equal(d.from_file, 1);
    assert_string_equal(d.file, FIX "default.bsd");
    assert_memory_equal(&d.read, &def.read, sizeof(d.read));
    assert_memory_equal(&d.write, &def.write, sizeof(d.write));
    assert_int_equal(ld_iodist_load(&d, 8, FIX "lowercase.bsd", NULL, err, sizeof(err)),
                     0);
    assert_int_equal(d.read.nrows, 2);
    assert_true(fabs(d.read.calls_per_req - 1.5) < 1e-9);
    assert_true(fabs(d.write.calls_per_req - 5.0) < 1e-9);
    assert_int_equal(ld_iodist_max_bytes(&d), 5 * 8192);
    cm_rng_seed(&rng, 8);
    for (i = 0; i < 100; i++) {
        struct ld_xfer x;

        ld_iodist_draw(&d, 1, &rng, &x);
        assert_int_equal(x.full_calls, 4);
        assert_int_equal(x.calls, 5);
    }
    assert_int_equal(ld_iodist_load(&d, 8, FIX "read-only.bsd", NULL, err, sizeof(err)),
                     0);
    assert_true(fabs(d.read.calls_per_req - 1.0) < 1e-9);
    assert_memory_equal(&d.write, &def.write, sizeof(d.write));
}

static void bad_files(void **state)
{
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {"bad-sum.bsd", ":1: error: section Read: percentages sum to 93, not 100"},
        {"bad-frag.bsd", ":4: error: frag 2 must be 0 or 1"},
        {"bad-twice.bsd", ":5: error: section Read appears twice"},
        {"bad-section.bsd",
         ":1: error: unknown section 'Reads' (expected Read or Write)"},
        {"bad-row.bsd", ":1: error: a row before any Read or Write section"},
    };
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(cases); i++) {
        struct ld_iodist d;
        char err[CM_ERR_LEN], want[256], *out = NULL;
        size_t len = 0;
        FILE *diag = open_memstream(&out, &len);

        snprintf(want, sizeof(want), FIX "%s%s", cases[i].file, cases[i].msg);
        d.from_file = 42;
        assert_int_equal(ld_iodist_load(&d, 8, want, NULL, err, sizeof(err)), -ENOENT);
        snprintf(want, sizeof(want), FIX "%s", cases[i].file);
        assert_int_equal(ld_iodist_load(&d, 8, want, diag, err, sizeof(err)), -EINVAL);
        fclose(diag);
        assert_int_equal(d.from_file, 42); /* untouched on error */
        snprintf(want, sizeof(want), FIX "%s%s", cases[i].file, cases[i].msg);
        assert_string_equal(err, want);
        assert_non_null(strstr(out, want));
        free(out);
    }
}

/* Every error of a file is reported, not only the first. */
static void all_errors(void **state)
{
    struct ld_iodist d;
    char err[CM_ERR_LEN], *out = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&out, &len);

    (void)state;
    assert_int_equal(ld_iodist_load(&d, 8, FIX "bad-row.bsd", diag, err, sizeof(err)),
                     -EINVAL);
    fclose(diag);
    assert_non_null(strstr(out, "bad-row.bsd:1: error:"));
    assert_non_null(strstr(out, "bad-row.bsd:3: error: expected 'percent blocks frag'"));
    assert_non_null(strstr(out, "bad-row.bsd:2: error: section Read has no rows"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),    cmocka_unit_test(draws),
        cmocka_unit_test(block_sizes), cmocka_unit_test(good_files),
        cmocka_unit_test(bad_files),   cmocka_unit_test(all_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
