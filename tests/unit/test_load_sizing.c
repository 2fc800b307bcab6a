/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_sizing.c - unit tests for sizing.c: the docs/SFS30.md §5.2 formulas against
 * the user guide's sfssum samples (LOAD 200..1000 over 2 clients x 7
 * processes: 2 028 208 ... 10 140 312 KB), the per-child counts, -F, and
 * the docs/SFS30.md §5.1 file-size distribution (average 27 351 bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "load/options.h"
#include "load/sizing.h"
#include "common/cm.h"
#include "common/rng.h"

static void config(struct ld_config *c, int load, int procs)
{
    ld_config_defaults(c, 3);
    c->load = load;
    c->procs = procs;
}

static void guide_samples(void **state)
{
    static const struct {
        int load;
        uint64_t kb;
    } rows[] = {
        {200, 2028208}, {400, 4056052}, {600, 6084260}, {800, 8112104}, {1000, 10140312}};
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(rows); i++) {
        struct ld_config c;
        struct ld_sizing s;

        /* the prime splits LOAD over 2 clients; each has 7 children */
        config(&c, rows[i].load / 2, 7);
        assert_int_equal(ld_sizing_compute(&c, &s), 0);
        assert_int_equal(s.total_kb * 7 * 2, rows[i].kb);
    }
}

static void per_child_counts(void **state)
{
    struct ld_config c;
    struct ld_sizing s;

    (void)state;
    config(&c, 100, 7);
    assert_int_equal(ld_sizing_compute(&c, &s), 0);
    assert_int_equal(s.io_client, 39000);
    assert_int_equal(s.io_child, 5572);
    assert_int_equal(s.nonio_client, 780); /* 2 % of 39 000 */
    assert_int_equal(s.nonio_child, 112);  /* 780 / 7 + 1 */
    assert_int_equal(s.nonio_init, 56);
    assert_int_equal(s.dirs_child, 186);   /* 5572 / 30 + 1 */
    assert_int_equal(s.symlinks_child, 3); /* 20 / 7 + 1 */
    assert_int_equal(s.working_io, 558);   /* 5572 x 10 % + 1 */
    assert_int_equal(s.working_nonio, 112);
    assert_int_equal(s.base_kb, 558 * 26);
    assert_int_equal(s.total_kb, 5572 * 26);
    assert_int_equal(s.limit_kb, 558 * 26 + 558 * 26 / 10);
    assert_true(fabs(s.child_rate - 100.0 / 7.0) < 1e-12);

    /* 25 ops/s per process: the 975 working files of docs/SFS30.md §5.2 (+ SFS's 1) */
    config(&c, 25, 1);
    assert_int_equal(ld_sizing_compute(&c, &s), 0);
    assert_int_equal(s.io_client, 9750);
    assert_int_equal(s.working_io, 976);

    /* small loads: non-io has its floor of 100 per client */
    config(&c, 10, 4);
    assert_int_equal(ld_sizing_compute(&c, &s), 0);
    assert_int_equal(s.nonio_client, 100);
    assert_int_equal(s.nonio_child, 26);

    /* -F overrides the load; -D, -S, -a, -f feed through */
    config(&c, 100, 4);
    c.io_files = 1000;
    c.files_per_dir = 10;
    c.symlinks = 0;
    c.access_pct = 50;
    c.fss_delta_pct = 0;
    assert_int_equal(ld_sizing_compute(&c, &s), 0);
    assert_int_equal(s.io_child, 251);
    assert_int_equal(s.dirs_child, 26);
    assert_int_equal(s.symlinks_child, 1);
    assert_int_equal(s.working_io, 126);
    assert_int_equal(s.limit_kb, s.base_kb);

    config(&c, 0, 4);
    assert_int_equal(ld_sizing_compute(&c, &s), -EINVAL);
}

static void file_sizes(void **state)
{
    struct cm_rng rng;
    uint64_t sum = 0, count[10] = {0};
    const int n = 1000000;
    int i, k;

    (void)state;
    cm_rng_seed(&rng, 2231);
    for (i = 0; i < n; i++) {
        uint32_t b = ld_filesize_draw(&rng);

        for (k = 0; k < LD_FILE_SIZE_ROWS - 1 && b != ld_filesize_kb[k] * 1024; k++)
            ;
        assert_int_equal(b, ld_filesize_kb[k] * 1024);
        count[k]++;
        sum += b;
    }
    for (k = 0; k < LD_FILE_SIZE_ROWS; k++) {
        int share = ld_filesize_cum[k] - (k ? ld_filesize_cum[k - 1] : 0);

        assert_true(fabs(100.0 * count[k] / n - share) < 0.2);
    }
    /* the average the formulas assume, within 1 % */
    assert_true(fabs((double)sum / n / LD_AVG_FILE_BYTES - 1) < 0.01);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(guide_samples),
        cmocka_unit_test(per_child_counts),
        cmocka_unit_test(file_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
