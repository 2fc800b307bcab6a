/* SPDX-License-Identifier: BSD-2-Clause */
/* test_analyze_nfs4.c - the NFSv4 statistics from COMPOUND events built
 * here: operations (calls, results, errors, bytes, the COMPOUNDs'
 * response times once per result), shapes, errors by status, opens and
 * their durations (and a CLOSE of an open the trace never saw), sessions
 * with the client their CREATE_SESSION named, NULL calls, unanswered
 * COMPOUNDs; and the totals the v2/v3 report shares. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analyze/az_nfs.h"
#include "nfs/nf4.h"
#include "nfs4_prot.h"

static struct tr_nfs4_op ops[8];
static struct tr_nfs4_compound comp;

/* A COMPOUND of n operations (numbers in nums) with every result OK,
 * called at t and answered rt_ns later (rt_ns < 0: unanswered). */
static struct tr_nfs_event compound(const uint32_t *nums, uint32_t n, int64_t t,
                                    int64_t rt_ns)
{
    struct tr_nfs_event e;
    uint32_t i;

    memset(&e, 0, sizeof(e));
    memset(&comp, 0, sizeof(comp));
    memset(ops, 0, sizeof(ops));
    e.prog = TR_NFS_PROG_NFS;
    e.vers = 4;
    e.proc = 1;
    e.op = TR_NFS_OP_NFSV4;
    e.t_ns = t;
    e.reply_t_ns = t + rt_ns;
    e.flags = rt_ns >= 0 ? TR_NFS_F_REPLY : 0;
    e.transport = TR_NFS_TCP;
    comp.minor = 1;
    comp.nops = comp.nops_call = n;
    comp.nres = rt_ns >= 0 ? n : 0;
    for (i = 0; i < n; i++) {
        ops[i].op = nums[i];
        ops[i].flags = TR_NFS4_O_ARGS | (rt_ns >= 0 ? TR_NFS4_O_RES : 0);
    }
    comp.ops = ops;
    e.v4 = &comp;
    return e;
}

static void session(const char *id)
{
    memcpy(comp.sessionid, id, 16);
    comp.flags |= TR_NFS4_C_SEQUENCE;
}

static void stats(void **state)
{
    static const uint32_t getattr[] = {OP_SEQUENCE, OP_PUTFH, OP_GETATTR};
    static const uint32_t read[] = {OP_SEQUENCE, OP_PUTFH, OP_READ};
    static const uint32_t open[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, OP_GETFH};
    static const uint32_t close[] = {OP_SEQUENCE, OP_PUTFH, OP_CLOSE};
    static const uint32_t cs[] = {OP_CREATE_SESSION};
    struct az_nfs_stats *s = calloc(1, sizeof(*s));
    const struct az_nfs4_stats *v;
    struct tr_nfs_event e;
    int i;

    (void)state;
    az_nfs_stats_init(s);
    e = compound(cs, 1, 0, 100000);
    ops[0].flags |= TR_NFS4_O_SESSION | TR_NFS4_O_CLIENTID;
    ops[0].clientid = 0xc1;
    memcpy(ops[0].sessionid, "session-number-1", 16);
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    for (i = 0; i < 3; i++) {
        e = compound(getattr, 3, 1000000 + i, 200000 * (i + 1));
        session("session-number-1");
        comp.slotid = (uint32_t)i;
        assert_int_equal(az_nfs_stats_event(s, &e), 0);
    }
    e = compound(read, 3, 2000000, 500000);
    session("session-number-1");
    ops[2].count = 8192;
    ops[2].res_count = 3000;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    /* a READ that failed: its GETATTR-less COMPOUND's error */
    e = compound(read, 3, 3000000, 100000);
    ops[2].status = NFS4ERR_OPENMODE;
    comp.status = NFS4ERR_OPENMODE;
    e.status = NFS4ERR_OPENMODE;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    /* OPEN at 4 ms, answered at 4.1 ms; CLOSE called at 9.1 ms */
    e = compound(open, 4, 4000000, 100000);
    ops[2].flags |= TR_NFS4_O_RES_STATEID;
    memcpy(ops[2].res_stateid.other, "stateid-0001", 12);
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = compound(close, 3, 9100000, 50000);
    ops[2].flags |= TR_NFS4_O_STATEID;
    memcpy(ops[2].stateid.other, "stateid-0001", 12);
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = compound(close, 3, 9200000, 50000);
    ops[2].flags |= TR_NFS4_O_STATEID;
    memcpy(ops[2].stateid.other, "stateid-0009", 12); /* opened before */
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = compound(getattr, 3, 9300000, -1); /* unanswered */
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = compound(NULL, 0, 9400000, 1000);
    e.proc = 0;
    e.v4 = NULL;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);

    v = s->v4;
    assert_non_null(v);
    assert_int_equal(s->calls, 11);
    assert_int_equal(s->by_version[4], 11);
    assert_int_equal(s->bytes_read, 3000);
    assert_int_equal(v->proc[0].calls, 1);
    assert_int_equal(v->proc[1].calls, 10);
    assert_int_equal(v->proc[1].replies, 9);
    assert_int_equal(v->proc[1].errors, 1);
    assert_int_equal(v->minor[1], 10);
    assert_int_equal(v->op[OP_GETATTR].calls, 4);
    assert_int_equal(v->op[OP_GETATTR].replies, 3);
    assert_int_equal(v->op[OP_GETATTR].unanswered, 1);
    assert_int_equal(v->op[OP_GETATTR].rt_sum_ns, 1200000);
    assert_int_equal(v->op[OP_GETATTR].rt_min_ns, 200000);
    assert_int_equal(v->op[OP_GETATTR].rt_max_ns, 600000);
    assert_int_equal(v->op[OP_SEQUENCE].calls, 9);
    assert_int_equal(v->op[OP_READ].calls, 2);
    assert_int_equal(v->op[OP_READ].errors, 1);
    assert_int_equal(v->op[OP_READ].bytes, 3000);
    assert_int_equal(v->nerr, 1);
    assert_int_equal(v->err[0].row, OP_READ);
    assert_int_equal(v->err[0].status, NFS4ERR_OPENMODE);
    /* shapes: CREATE_SESSION, S P GETATTR (4), S P READ (2), open, close (2) */
    assert_int_equal(v->nshapes, 5);
    for (i = 0; i < (int)v->nshapes; i++)
        if (v->shapes[i].n == 3 && v->shapes[i].ops[2] == OP_GETATTR) {
            assert_int_equal(v->shapes[i].p.calls, 4);
            assert_int_equal(v->shapes[i].p.unanswered, 1);
        }
    assert_int_equal(v->opens_ok, 1);
    assert_int_equal(v->opens_closed, 1);
    assert_int_equal(v->open_sum_ns, 5000000); /* 4.1 ms to 9.1 ms */
    assert_int_equal(v->closes_not_opened, 1);
    assert_int_equal(v->opens_held, 0);
    assert_int_equal(v->nsessions, 1);
    assert_true(v->sessions[0].created);
    assert_int_equal(v->sessions[0].clientid, 0xc1);
    assert_int_equal(v->sessions[0].compounds, 4);
    assert_int_equal(v->sessions[0].slots, 3);
    assert_int_equal(v->nclients, 1);
    assert_int_equal(v->clients[0].sessions, 1);
    assert_int_equal(v->clients[0].compounds, 4); /* its session's */
    assert_int_equal(az_nfs4_op_row(OP_ILLEGAL), AZ_NFS4_OP_ROWS - 1);
    assert_int_equal(az_nfs4_row_op(AZ_NFS4_OP_ROWS - 1), OP_ILLEGAL);
    assert_int_equal(az_nfs4_op_row(20000), -1);
    az_nfs_stats_free(s);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
