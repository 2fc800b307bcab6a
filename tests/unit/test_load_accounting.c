/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_accounting.c - the accounting of issues 9 and 10 without a
 * server:
 *  - the new counters merge (sums, and max for the largest lag and the
 *    early-end cause) and survive the child -> parent wire form;
 *  - validity beyond SFS 3.0: more than 1 % unexpected NFS errors is code
 *    17 (exactly 1 % is not), a run that ended early is code 18 and wins
 *    over the failed calls it caused, -F / --open-loop / --seed are
 *    non-standard (codes 19-21) while SFS's own code still wins;
 *  - the table's Success / Error columns move the unexpected errors;
 *  - which NFS errors the workload expects (reply.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "load/ld_int.h"
#include "load/options.h"
#include "load/report.h"

/* ---- stats ------------------------------------------------------------------- */

static void new_counters_merge_and_travel(void **state)
{
    static struct ld_stats a, b, c;
    unsigned char *buf = malloc(ld_stats_wire_bytes());

    (void)state;
    assert_non_null(buf);
    ld_stats_reset(&a);
    ld_stats_reset(&b);
    a.max_lag_ns = 3000000000ull;
    b.max_lag_ns = 1000000000ull;
    b.ended_early = LD_END_UNREACHABLE;
    a.behind_ns = 5;
    b.behind_ns = 7;
    LD_STATS_COUNT(&a, NF_OP_READ, retrans);
    LD_STATS_COUNT(&b, NF_OP_READ, retrans);
    LD_STATS_COUNT(&b, NF_OP_WRITE, late);
    ld_stats_unexpected(&a, NF_OP_GETATTR, NF_ST_IO);
    ld_stats_unexpected(&b, NF_OP_GETATTR, 12345); /* not in the map */
    a.late_threshold_us = b.late_threshold_us = 1000;
    ld_stats_merge(&a, &b);
    assert_int_equal(a.max_lag_ns, 3000000000ull);
    assert_int_equal(a.ended_early, LD_END_UNREACHABLE);
    assert_int_equal(a.behind_ns, 12);
    assert_int_equal(a.late_threshold_us, 1000);
    assert_int_equal(a.op[NF_OP_READ].retrans, 2);
    assert_int_equal(a.op[NF_OP_TOTAL].retrans, 2);
    assert_int_equal(a.op[NF_OP_WRITE].late, 1);
    assert_int_equal(a.op[NF_OP_GETATTR].unexpected, 2);
    assert_int_equal(a.err_status[ld_stats_status_slot(NF_ST_IO)], 1);
    assert_int_equal(a.err_status[LD_NSTATUS - 1], 1);
    assert_int_equal(ld_stats_slot_status(ld_stats_status_slot(NF_ST_STALE)),
                     NF_ST_STALE);
    assert_int_equal(ld_stats_slot_status(LD_NSTATUS - 1), UINT32_MAX);
    ld_stats_encode(&a, buf);
    assert_int_equal(ld_stats_decode(&c, buf, ld_stats_wire_bytes()), 0);
    assert_memory_equal(&a, &c, sizeof(a));
    free(buf);
}

/* ---- validity ------------------------------------------------------------------ */

struct fixture {
    struct ld_config cfg;
    struct ld_mix mix;
    struct ld_iodist io;
    struct ld_sizing sz;
    struct ld_stats st;
    struct ld_report_in in;
};

/* A standard run (300 s, every op on target, 24 000 good calls). */
static struct fixture *standard(void)
{
    static struct fixture f;
    static char a0[] = "sfs3", a1[] = "127.0.0.1:/export";
    char *argv[] = {a0, a1};
    char err[CM_ERR_LEN];
    int op, code;

    memset(&f, 0, sizeof(f));
    assert_int_equal(ld_options_parse(&f.cfg, 3, 2, argv, &code, err, sizeof(err)), 0);
    ld_mix_default(&f.mix, 3);
    ld_iodist_default(&f.io, 8);
    ld_sizing_compute(&f.cfg, &f.sz);
    ld_stats_reset(&f.st);
    for (op = 0; op < NF_NOPS; op++) {
        int i;

        for (i = 0; i < f.mix.pct[op] * 240; i++)
            ld_stats_good(&f.st, op, 2500000, 0);
    }
    f.st.runtime_ns = 300000000000ull;
    f.in.prog = "sfs3";
    f.in.host = "client1";
    f.in.cfg = &f.cfg;
    f.in.mix = &f.mix;
    f.in.iodist = &f.io;
    f.in.sizing = &f.sz;
    f.in.stats = &f.st;
    return &f;
}

static void unexpected_errors_beyond_one_percent(void **state)
{
    struct fixture *f = standard();
    struct ld_validity v;
    int i;

    (void)state;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_VALID);
    for (i = 0; i < 240; i++) /* exactly 1 %: still valid */
        ld_stats_unexpected(&f->st, NF_OP_GETATTR, NF_ST_IO);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_VALID);
    ld_stats_unexpected(&f->st, NF_OP_GETATTR, NF_ST_IO);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_NFS_ERRORS);
    assert_string_equal(v.line[0], "INVALID RUN, 1.00% Unexpected NFS errors");
    assert_string_equal(ld_invalid_text(LD_INV_NFS_ERRORS), "Unexpected NFS errors");
    /* the table moves them from successes to errors */
    assert_int_equal(ld_report_success(&f->st.op[NF_OP_GETATTR]), 2640 - 241);
    assert_int_equal(ld_report_errors(&f->st.op[NF_OP_GETATTR]), 241);
}

static void ended_early_wins_over_the_failed_calls(void **state)
{
    struct fixture *f = standard();
    struct ld_validity v;
    int i;

    (void)state;
    for (i = 0; i < 500; i++)
        ld_stats_bad(&f->st, NF_OP_LOOKUP);
    f->st.ended_early = LD_END_UNREACHABLE;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_ENDED_EARLY);
    assert_int_equal(v.nlines, 2);
    assert_non_null(strstr(v.line[0], "Failed RPC calls"));
    assert_non_null(strstr(v.line[1], "the run ended early"));
}

static void freesfs_settings_are_non_standard(void **state)
{
    struct fixture *f = standard();
    struct ld_validity v;

    (void)state;
    f->cfg.io_files = 1000;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_FILE_COUNT);
    assert_string_equal(v.line[0], "INVALID RUN, ILLEGAL PARAMETER: Non-standard File "
                                   "count 1000 != 390 x load (-F)");
    f->cfg.pace_mode = LD_PACE_OPEN_FIXED;
    f->cfg.seed = 77;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_FILE_COUNT);
    assert_int_equal(v.nlines, 3);
    assert_string_equal(
        v.line[0], "INVALID RUN, ILLEGAL PARAMETER: Non-standard Random seed 77 != 2231");
    assert_string_equal(
        v.line[1],
        "INVALID RUN, ILLEGAL PARAMETER: Non-standard Pacing open-loop (fixed) != sfs");
    /* SFS's own code wins when one of its parameters fails too */
    f->cfg.runtime_s = 60;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_RUNTIME);
    assert_int_equal(v.nlines, 4);
}

/* ---- expected NFS errors -------------------------------------------------------- */

static void expected_errors(void **state)
{
    static struct ld_child c;
    static struct ld_slot s;

    (void)state;
    memset(&c, 0, sizeof(c));
    memset(&s, 0, sizeof(s));
    s.op = NF_OP_LOOKUP;
    c.req.expect_noent = 1;
    assert_true(ld_reply_expected(&c, &s, NF_ST_NOENT));
    c.req.expect_noent = 0;
    c.req.pick_state = LD_EXISTS;
    assert_false(ld_reply_expected(&c, &s, NF_ST_NOENT));
    s.op = NF_OP_CREATE; /* a create over an existing name (pick fell back) */
    assert_true(ld_reply_expected(&c, &s, NF_ST_EXIST));
    c.req.pick_state = LD_NONEXISTENT;
    assert_false(ld_reply_expected(&c, &s, NF_ST_EXIST));
    s.call.retransmits = 1; /* the server had done it already */
    assert_true(ld_reply_expected(&c, &s, NF_ST_EXIST));
    s.op = NF_OP_REMOVE;
    assert_true(ld_reply_expected(&c, &s, NF_ST_NOENT));
    s.call.retransmits = 0;
    c.req.pick_state = LD_EXISTS;
    assert_false(ld_reply_expected(&c, &s, NF_ST_NOENT));
    s.op = NF_OP_RMDIR; /* a spare dir another run filled */
    assert_true(ld_reply_expected(&c, &s, NF_ST_NOTEMPTY));
    s.op = NF_OP_GETATTR;
    assert_false(ld_reply_expected(&c, &s, NF_ST_IO));
    assert_false(ld_reply_expected(&c, &s, NF_ST_STALE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_counters_merge_and_travel),
        cmocka_unit_test(unexpected_errors_beyond_one_percent),
        cmocka_unit_test(ended_early_wins_over_the_failed_calls),
        cmocka_unit_test(freesfs_settings_are_non_standard),
        cmocka_unit_test(expected_errors),
    };

    return cmocka_run_group_tests_name("load_accounting", tests, NULL, NULL);
}
