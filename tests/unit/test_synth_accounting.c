/* SPDX-License-Identifier: BSD-2-Clause */
/* test_synth_accounting.c - the honest accounting (docs/sfs.md: bad calls
 * by kind, unexpected NFS errors, the schedule kept) without a server:
 *  - the new counters merge (sums, and max for the largest lag and the
 *    early-end cause) and survive the child -> parent wire form;
 *  - which NFS errors the workload expects (reply.c).
 * The validity rules beyond SFS 3.0 are in test_load_report.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "synth/sy_int.h"

/* ---- stats ------------------------------------------------------------------- */

static void new_counters_merge_and_travel(void **state)
{
    static struct ld_stats a, b, c;
    unsigned char *buf = malloc(ld_stats_wire_max(NULL));
    size_t n;

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
    n = ld_stats_encode(&a, NULL, NULL, buf);
    assert_int_equal(ld_stats_decode(&c, NULL, NULL, buf, n, NULL), 0);
    assert_memory_equal(&a, &c, sizeof(a));
    free(buf);
}

/* ---- expected NFS errors -------------------------------------------------------- */

static void expected_errors(void **state)
{
    static struct sy_child c;
    static struct sy_slot s;
    static struct nf_call call;

    (void)state;
    memset(&c, 0, sizeof(c));
    memset(&s, 0, sizeof(s));
    memset(&call, 0, sizeof(call));
    s.call = &call;
    s.op = NF_OP_LOOKUP;
    c.req.expect_noent = 1;
    assert_true(sy_reply_expected(&c, &s, NF_ST_NOENT));
    c.req.expect_noent = 0;
    c.req.pick_state = SY_EXISTS;
    assert_false(sy_reply_expected(&c, &s, NF_ST_NOENT));
    s.op = NF_OP_CREATE; /* a create over an existing name (pick fell back) */
    assert_true(sy_reply_expected(&c, &s, NF_ST_EXIST));
    c.req.pick_state = SY_NONEXISTENT;
    assert_false(sy_reply_expected(&c, &s, NF_ST_EXIST));
    s.call->retransmits = 1; /* the server had done it already */
    assert_true(sy_reply_expected(&c, &s, NF_ST_EXIST));
    s.op = NF_OP_REMOVE;
    assert_true(sy_reply_expected(&c, &s, NF_ST_NOENT));
    s.call->retransmits = 0;
    c.req.pick_state = SY_EXISTS;
    assert_false(sy_reply_expected(&c, &s, NF_ST_NOENT));
    s.op = NF_OP_RMDIR; /* a spare dir another run filled */
    assert_true(sy_reply_expected(&c, &s, NF_ST_NOTEMPTY));
    s.op = NF_OP_GETATTR;
    assert_false(sy_reply_expected(&c, &s, NF_ST_IO));
    assert_false(sy_reply_expected(&c, &s, NF_ST_STALE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_counters_merge_and_travel),
        cmocka_unit_test(expected_errors),
    };

    return cmocka_run_group_tests_name("load_accounting", tests, NULL, NULL);
}
