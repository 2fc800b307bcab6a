/* SPDX-License-Identifier: BSD-2-Clause */
/* test_replay_plan.c - the replay plan (rl.h) on the fixtures: the
 * D11 file sizes of the SPC example (docs/TRACE_FORMATS.md 2.4) and the
 * bytes its records touch (overlapping, nested, adjacent), units, streams
 * and the trace's duration; MaStA and sysio units and paths; NFSv2's 4 GiB
 * limit (an error naming the line, or a counted skip with --lenient); a
 * malformed record stops the plan with FILE:LINE; the partition of streams
 * over every process of every client. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "helpers/th_config.h"
#include "load/options.h"
#include "replay/rl.h"

#define FIX "tests/fixtures/"

static void config(struct ld_config *cfg, int version, const char *file, int lenient)
{
    assert_int_equal(th_config_for(cfg, version, &rl_workload), 0);
    snprintf(RB_TOPTS_SET(cfg)->trace_file, LD_PATH_MAX, "%s", file);
    RB_TOPTS_SET(cfg)->trace_lenient = lenient;
}

static void spc_example_sizes(void **state)
{
    struct rl_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 3, FIX "spc/seed-example.spc", 0);
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_string_equal(p.format, "spc");
    assert_int_equal(p.records, 11);
    assert_int_equal(p.nunits, 3);
    assert_int_equal(p.nstreams, 3);
    assert_string_equal(p.units[0].name, "asu0");
    assert_string_equal(p.units[2].name, "asu2");
    assert_true(p.units[0].size == 10721935360ull);
    assert_true(p.units[1].size == 5302579200ull);
    assert_true(p.units[2].size == 15801356288ull);
    assert_true(p.trace_ns == 2449733000ll);
    assert_true(rl_expected_s(&p, 2) > 1.2247 && rl_expected_s(&p, 2) < 1.2249);
    /* the bytes the records touch, counted by hand from the file: ASU 0
     * three 8 KiB writes apart and a 4 KiB read; ASU 1 15872 bytes, two
     * adjacent 512-byte LBAs and two 4 KiB records; ASU 2 two 4 KiB */
    assert_true(p.units[0].touched.count == 3 * 8192 + 4096);
    assert_true(p.units[1].touched.count == 15872 + 1024 + 2 * 4096);
    assert_true(p.units[2].touched.count == 2 * 4096);
    assert_null(p.units[0].touched.judy); /* the runs are released */
    rl_plan_free(&p);
}

/* edge-cases.spc overlaps, nests and abuts its records: ASU 0's 1 MiB
 * write at 0 covers its four others (one of 1000 bytes, one across a
 * block's end); ASU 1 has a zero-length read; ASU 2's 512 bytes at LBA 17
 * lie inside its 4 KiB at LBA 16, which its 64 KiB at LBA 24 abuts. */
static void spc_touched_bytes_overlap(void **state)
{
    struct rl_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 3, FIX "spc/edge-cases.spc", 0);
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_int_equal(p.nunits, 3);
    assert_true(p.units[0].touched.count == 1048576);
    assert_true(p.units[1].touched.count == 8192 + 512);
    assert_true(p.units[2].touched.count == 4096 + 65536);
    assert_true(p.units[1].size == 2097152 + 512); /* sparse: far more */
    rl_plan_free(&p);
}

static void spc_block_size(void **state)
{
    struct rl_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 3, FIX "spc/edge-cases.spc", 0);
    RL_BOPTS_SET(&cfg)->trace_block_size =
        4096; /* ASU 1 ends with 512 bytes at LBA 4096 */
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_true(p.units[1].size == 4096ull * 4096 + 512);
    rl_plan_free(&p);
}

static void nfsv2_limit(void **state)
{
    struct rl_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 2, FIX "spc/seed-example.spc", 0);
    assert_true(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)) < 0);
    assert_non_null(strstr(err, "seed-example.spc:1: error:"));
    assert_non_null(strstr(err, "NFSv2"));
    config(&cfg, 2, FIX "spc/seed-example.spc", 1);
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_int_equal(p.v2_beyond, 7); /* only lines 4-7 end below 4 GiB */
    assert_int_equal(p.records, 4);
    rl_plan_free(&p);
}

static void malformed_stops_with_position(void **state)
{
    struct rl_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 3, FIX "spc/seed-example-raw.spc", 0);
    assert_true(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)) < 0);
    assert_non_null(strstr(err, "seed-example-raw.spc:9:"));
    config(&cfg, 3, FIX "spc/seed-example-raw.spc", 1);
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_int_equal(p.records, 10);
    assert_int_equal(p.skipped, 1);
    assert_true(p.units[2].size == 15792922624ull); /* without line 9 */
    rl_plan_free(&p);
    config(&cfg, 3, FIX "masta/truncated.mtr", 0);
    assert_true(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)) < 0);
    assert_non_null(strstr(err, "offset 104"));
}

static void masta_and_sysio_units(void **state)
{
    struct rl_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 3, FIX "masta/sample.mtr", 0);
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_string_equal(p.format, "masta");
    assert_int_equal(p.nunits, 1);
    assert_string_equal(p.units[0].name, "region0");
    assert_true(p.units[0].size == 32768);
    rl_plan_free(&p);
    config(&cfg, 3, FIX "sysio/sample.trace", 0);
    assert_int_equal(rl_plan_build(&p, &cfg, NULL, err, sizeof(err)), 0);
    assert_string_equal(p.format, "sysio");
    assert_int_equal(p.nstreams, 2);
    assert_int_equal(p.nunits, 2);
    assert_string_equal(p.units[1].name, "rXGyxud/alegra.out"); /* leading '/' dropped */
    assert_true(p.units[1].size == 60);
    assert_true(p.units[0].size == 1048576);
    rl_plan_free(&p);
}

static void partition_covers_every_process(void **state)
{
    struct ld_config cfg;
    uint32_t g, n, seen[8] = {0}, s, client, child;

    (void)state;
    assert_int_equal(th_config_for(&cfg, 3, &rl_workload), 0);
    cfg.procs = 2;
    RB_TOPTS_SET(&cfg)->nclients = 4;
    for (client = 1; client <= 4; client++)
        for (child = 0; child < 2; child++) {
            cfg.client_num = (int)client;
            rl_procs(&cfg, child, &g, &n);
            assert_int_equal(n, 8);
            assert_true(g < 8);
            seen[g]++;
        }
    for (g = 0; g < 8; g++)
        assert_int_equal(seen[g], 1);
    /* every stream has exactly one owner, and streams spread evenly */
    memset(seen, 0, sizeof(seen));
    for (s = 0; s < 800; s++)
        seen[rl_owner(s, 8)]++;
    for (g = 0; g < 8; g++)
        assert_int_equal(seen[g], 100);
}

/* A replay longer than a day needs -t (or a higher speed); the rate a
 * replay asks for is records / (duration / speed). */
static void long_replay_needs_a_limit(void **state)
{
    struct rl_plan p;
    struct rb_stats st;
    char err[512], buf[128];

    (void)state;
    memset(&p, 0, sizeof(p));
    snprintf(p.file, sizeof(p.file), "t.trace");
    p.records = 9;
    p.trace_ns = 2 * 86400ll * 1000000000ll; /* two days */
    assert_int_equal(rl_plan_check_time(&p, 1, 0, err, sizeof(err)), -E2BIG);
    assert_non_null(
        strstr(err, "t.trace: the replay would take 172800.000 s (2.0 days)"));
    assert_non_null(strstr(err, "pass -t SEC"));
    assert_non_null(strstr(err, "--speed 2 or more"));
    assert_int_equal(rl_plan_check_time(&p, 1, 5, err, sizeof(err)), 0);
    assert_int_equal(rl_plan_check_time(&p, 2, 0, err, sizeof(err)), 0);
    assert_int_equal(rl_plan_check_time(&p, 0, 0, err, sizeof(err)), 0);
    p.trace_ns += 1; /* a hair over: speed 2 is not enough */
    assert_int_equal(rl_plan_check_time(&p, 2, 0, err, sizeof(err)), -E2BIG);
    assert_non_null(strstr(err, "--speed 3 or more"));

    memset(&st, 0, sizeof(st));
    st.replay_trace_records = 11;
    st.replay_trace_ns = 2450000000ull;
    rl_requested(buf, sizeof(buf), 2, &st, 1);
    assert_string_equal(buf, "8.98 records/s (the trace at speed 2)");
    rl_requested(buf, sizeof(buf), 1, &st, 2);
    assert_string_equal(buf, "4.49 records/s (the trace at speed 1, over 2 clients)");
    rl_requested(buf, sizeof(buf), 0, &st, 1);
    assert_string_equal(buf, "as fast as the window allows (speed 0)");
    st.replay_trace_ns = 0; /* every record at time 0 */
    rl_requested(buf, sizeof(buf), 1, &st, 1);
    assert_string_equal(buf, "as fast as the window allows (speed 1)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spc_example_sizes),
        cmocka_unit_test(spc_block_size),
        cmocka_unit_test(spc_touched_bytes_overlap),
        cmocka_unit_test(nfsv2_limit),
        cmocka_unit_test(malformed_stops_with_position),
        cmocka_unit_test(masta_and_sysio_units),
        cmocka_unit_test(partition_covers_every_process),
        cmocka_unit_test(long_replay_needs_a_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
