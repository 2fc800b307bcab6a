/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nreplay_plan4.c - which operations of an NFSv4 COMPOUND an NFSv4
 * plan makes calls of (src/nreplay/plan4.c), on COMPOUND events built
 * here: a GETATTR after another call is that call's attributes, alone it
 * is a call; OPEN by handle, CLOSE and the client's and session's
 * operations are counted as v4 state (an OPEN by handle and a CLOSE of a
 * stateid also a state record), an operation with no NFSv3 form as
 * procedure, one whose arguments were cut as call_cut; the operations a
 * failure stopped are nothing; an unanswered COMPOUND's operations are
 * calls without a traced status; the NULL procedure is a call; a stateid
 * used and never made (an open from before the capture) counted once, the
 * special ones never; the traced stateids' slots (made by an OPEN, used by
 * the I/O, freed by the CLOSE for the next OPEN), the owners numbered, and
 * the dependency keys they give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "nfs4_prot.h"
#include "nreplay/nr_int.h"

static struct tr_nfs4_op ops[8];
static struct tr_nfs4_compound comp;
static struct tr_nfs_event ev;

/* A COMPOUND of n operations, every one answered OK (answered 0: no
 * reply). */
static void compound(const uint32_t *nums, uint32_t n, int answered)
{
    uint32_t i;

    memset(&ev, 0, sizeof(ev));
    memset(&comp, 0, sizeof(comp));
    memset(ops, 0, sizeof(ops));
    ev.prog = TR_NFS_PROG_NFS;
    ev.vers = 4;
    ev.proc = 1;
    ev.op = TR_NFS_OP_NFSV4;
    ev.flags = answered ? TR_NFS_F_REPLY : 0;
    comp.minor = 1;
    comp.nops = comp.nops_call = n;
    comp.nres = answered ? n : 0;
    for (i = 0; i < n; i++) {
        ops[i].op = nums[i];
        ops[i].flags = TR_NFS4_O_ARGS | TR_NFS4_O_FH | (answered ? TR_NFS4_O_RES : 0);
        ops[i].fh.len = 8;
        ops[i].name = "f";
        ops[i].claim = CLAIM_NULL;
        ops[i].how = TR_NFS4_NOCREATE;
    }
    comp.ops = ops;
    ev.v4 = &comp;
}

/* What nr__v4_calls gave: the calls' ops and statuses, the counts. */
static int got_op[8], got_status[8], ngot;
static uint64_t skipped[NR_SKIPS];
static struct nr__v4_state v4;

static struct nr_call got[8];  /* their state (nr__v4_call_state) */
static uint64_t got_key[8][4]; /* their dependency keys */
static int got_changes[8][4], got_nkeys[8];

static int take(void *data, const struct tr_nfs_event *call)
{
    (void)data;
    assert_true(ngot < 8);
    got_op[ngot] = call->prog == TR_NFS_PROG_MOUNT ? -100 : call->op;
    nr__v4_call_state(&v4, &got[ngot]);
    got_nkeys[ngot] = (int)nr__v4_dep_keys(&v4, got_key[ngot], got_changes[ngot]);
    got_status[ngot++] = (call->flags & TR_NFS_F_REPLY) ? (int)call->status : -1;
    return 0;
}

static void plan(void)
{
    ngot = 0;
    memset(skipped, 0, sizeof(skipped));
    assert_int_equal(nr__v4_calls(&v4, &ev, skipped, take, NULL), 0);
}

static void a_getattr_after_a_call_is_its_attributes(void **state)
{
    static const uint32_t write[] = {OP_SEQUENCE, OP_PUTFH, OP_WRITE, OP_GETATTR};
    static const uint32_t stat[] = {OP_SEQUENCE, OP_PUTFH, OP_GETATTR};
    static const uint32_t lookup[] = {OP_SEQUENCE, OP_PUTFH,  OP_LOOKUP,
                                      OP_GETFH,    OP_ACCESS, OP_GETATTR};

    (void)state;
    compound(write, 4, 1);
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got_op[0], NF_OP_WRITE);
    compound(stat, 3, 1);
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got_op[0], NF_OP_GETATTR);
    compound(lookup, 6, 1);
    plan();
    assert_int_equal(ngot, 2);
    assert_int_equal(got_op[0], NF_OP_LOOKUP);
    assert_int_equal(got_op[1], NF_OP_ACCESS);
    for (unsigned k = 0; k < NR_SKIPS; k++)
        assert_int_equal(skipped[k], 0);
}

static void state_and_other_operations_are_counted(void **state)
{
    static const uint32_t open_fh[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, OP_ACCESS,
                                       OP_GETATTR};
    static const uint32_t close[] = {OP_SEQUENCE, OP_PUTFH, OP_CLOSE, OP_GETATTR};
    static const uint32_t misc[] = {OP_EXCHANGE_ID, OP_SECINFO_NO_NAME, OP_LOOKUPP,
                                    OP_REMOVE};

    (void)state;
    compound(open_fh, 5, 1);
    ops[2].claim = CLAIM_FH;
    plan();
    assert_int_equal(ngot, 2); /* the OPEN's state record, the ACCESS */
    assert_int_equal(got[0].v4, NR_V4_OPEN);
    assert_int_equal(got_op[0], NF_OP_NULL_OP);
    assert_int_equal(got_op[1], NF_OP_ACCESS);
    assert_int_equal(got[1].v4, NR_V4_CALL);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 1);

    compound(open_fh, 5, 1); /* by name: a lookup, or a create */
    ops[2].how = UNCHECKED4;
    plan();
    assert_int_equal(ngot, 2);
    assert_int_equal(got_op[0], NF_OP_CREATE);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 0);

    compound(close, 4, 1); /* no other call: the GETATTR is one */
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got_op[0], NF_OP_GETATTR);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 1);

    compound(misc, 4, 1);
    ops[3].flags &= ~TR_NFS4_O_ARGS; /* its arguments cut away */
    plan();
    assert_int_equal(ngot, 0);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 1);
    assert_int_equal(skipped[NR_SKIP_PROC], 2);
    assert_int_equal(skipped[NR_SKIP_CUT], 1);
}

static void what_a_failure_stopped_is_nothing(void **state)
{
    static const uint32_t lookup[] = {OP_SEQUENCE, OP_PUTFH,   OP_LOOKUP,
                                      OP_GETFH,    OP_GETATTR, OP_CLOSE};
    unsigned k;

    (void)state;
    compound(lookup, 6, 1);
    comp.nres = 3;
    ops[2].status = NFS4ERR_NOENT;
    comp.status = NFS4ERR_NOENT;
    ops[3].flags = ops[4].flags = ops[5].flags = TR_NFS4_O_ARGS;
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got_op[0], NF_OP_LOOKUP);
    assert_int_equal(got_status[0], NFS4ERR_NOENT);
    for (k = 0; k < NR_SKIPS; k++)
        assert_int_equal(skipped[k], 0); /* the CLOSE did not run */

    compound(lookup, 6, 0); /* no reply: every operation is taken as sent */
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got_status[0], -1);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 1);
}

static void the_root_is_a_mount_and_null_a_call(void **state)
{
    static const uint32_t root[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR};

    (void)state;
    compound(root, 3, 1);
    ops[1].flags |= TR_NFS4_O_RES_FH;
    plan();
    assert_int_equal(ngot, 2); /* the mount (the plan counts it), the GETATTR */
    assert_int_equal(got_op[0], -100);
    assert_int_equal(got_op[1], NF_OP_GETATTR);

    compound(root, 0, 1);
    ev.proc = 0;
    ev.v4 = NULL;
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got_op[0], NF_OP_NULL_OP);
}

/* Operation i uses (res 0) or makes (res 1) the state named by byte b. */
static void sid(uint32_t i, int res, uint8_t b)
{
    struct tr_nfs4_op *o = &ops[i];
    struct tr_nfs4_stateid *s = res ? &o->res_stateid : &o->stateid;

    memset(s->other, b, sizeof(s->other));
    s->other[0] = 0x42; /* b 0 or 0xff: still no special stateid */
    o->flags |= res ? TR_NFS4_O_RES_STATEID : TR_NFS4_O_STATEID;
}

static void opens_seen_only_in_use_are_counted_once(void **state)
{
    static const uint32_t open[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, OP_GETFH};
    static const uint32_t io[] = {OP_SEQUENCE, OP_PUTFH, OP_READ, OP_WRITE, OP_CLOSE};

    (void)state;
    nr__v4_state_free(&v4);
    compound(open, 4, 1);
    sid(2, 1, 1); /* an open the trace shows made */
    plan();
    compound(io, 5, 1);
    sid(2, 0, 1);
    sid(3, 0, 2); /* an open from before the trace */
    sid(4, 0, 2);
    plan();
    assert_int_equal(v4.in_use, 1);
    compound(io, 5, 1);
    memset(ops[2].stateid.other, 0, sizeof(ops[2].stateid.other)); /* anonymous */
    ops[2].flags |= TR_NFS4_O_STATEID;
    memset(ops[3].stateid.other, 0xff, sizeof(ops[3].stateid.other)); /* bypass */
    ops[3].flags |= TR_NFS4_O_STATEID;
    sid(4, 0, 3); /* another */
    plan();
    assert_int_equal(v4.in_use, 2);
    compound(io, 5, 1); /* no reply: a failure stopped nothing */
    comp.nres = 2;
    ops[2].flags = ops[3].flags = ops[4].flags = TR_NFS4_O_ARGS;
    sid(3, 0, 4); /* did not run */
    ops[3].flags &= ~TR_NFS4_O_RES;
    plan();
    assert_int_equal(v4.in_use, 2);
    nr__v4_state_free(&v4);
}

/* The dependency keys of call c (of got[]) include key with changes ch. */
static int has_key(int c, uint64_t key, int ch)
{
    for (int k = 0; k < got_nkeys[c]; k++)
        if (got_key[c][k] == key && got_changes[c][k] == ch)
            return 1;
    return 0;
}

static void opens_order_their_owner_and_the_io_on_their_stateid(void **state)
{
    static const uint32_t open[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, OP_GETFH};
    static const uint32_t io[] = {OP_SEQUENCE, OP_PUTFH,   OP_READ,
                                  OP_WRITE,    OP_SETATTR, OP_COMMIT};
    uint64_t owner, made5, made6;

    (void)state;
    nr__v4_state_free(&v4);
    compound(open, 4, 1);
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 77;
    sid(2, 1, 5);
    plan();
    assert_int_equal(ngot, 1); /* a lookup, the OPEN by name */
    assert_int_equal(got[0].res_sid, 0);
    assert_int_equal(got[0].sid, NR_NONE);
    assert_int_equal(got[0].owner, 1);
    assert_int_equal(got_nkeys[0], 2); /* the slot made, the owner */
    assert_int_equal(got_changes[0][0], 1);
    assert_int_equal(got_changes[0][1], 1);
    made5 = got_key[0][0];
    owner = got_key[0][1];
    assert_true(made5 != owner);
    assert_true(made5 >> 62 == 1 && owner >> 62 == 1); /* apart from objects, names */

    compound(open, 4, 1); /* the owner's next OPEN: the same owner key */
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 77;
    sid(2, 1, 6);
    plan();
    assert_int_equal(got[0].res_sid, 1);
    assert_int_equal(got[0].owner, 1);
    made6 = got_key[0][0];
    assert_true(has_key(0, owner, 1) && made6 != made5);

    compound(io, 6, 1);
    sid(2, 0, 5);
    sid(3, 0, 6);
    memset(ops[4].stateid.other, 0, sizeof(ops[4].stateid.other)); /* anonymous */
    ops[4].flags |= TR_NFS4_O_STATEID;
    plan();
    assert_int_equal(ngot, 4);
    /* READ: its stateid's slot and its owner, read (after their OPEN) */
    assert_int_equal(got[0].sid, 0);
    assert_true(has_key(0, made5, 0) && has_key(0, owner, 0));
    assert_int_equal(got[1].sid, 1);
    assert_true(has_key(1, made6, 0) && has_key(1, owner, 0));
    assert_int_equal(got[2].sid, NR_NONE); /* SETATTR, anonymous: none */
    assert_int_equal(got_nkeys[2], 0);
    assert_int_equal(got_nkeys[3], 0); /* COMMIT: no stateid */
    nr__v4_state_free(&v4);
}

static void a_close_is_a_record_and_frees_its_slot(void **state)
{
    static const uint32_t open[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, OP_GETFH};
    static const uint32_t close[] = {OP_SEQUENCE, OP_PUTFH, OP_CLOSE};
    uint64_t slot0;

    (void)state;
    nr__v4_state_free(&v4);
    compound(open, 4, 1);
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 1;
    sid(2, 1, 9);
    plan();
    slot0 = got_key[0][0];
    compound(open, 4, 1); /* another owner's open of the file */
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 2;
    sid(2, 1, 10);
    plan();
    assert_int_equal(got[0].res_sid, 1);
    assert_int_equal(got[0].owner, 2);

    compound(close, 3, 1);
    sid(2, 0, 9);
    plan();
    assert_int_equal(ngot, 1); /* the CLOSE's state record */
    assert_int_equal(got[0].v4, NR_V4_CLOSE);
    assert_int_equal(got[0].sid, 0);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 1);
    assert_true(has_key(0, slot0, 1)); /* after every use of the slot */
    assert_int_equal(got_nkeys[0], 2); /* and its owner's (the first) */

    compound(open, 4, 1); /* the next OPEN takes the slot freed, after the CLOSE */
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 3;
    sid(2, 1, 11);
    plan();
    assert_int_equal(got[0].res_sid, 0);
    assert_int_equal(got[0].owner, 3);
    assert_true(has_key(0, slot0, 1));
    assert_int_equal(v4.nslots, 2);
    assert_int_equal(v4.nowners, 3);

    compound(open, 4, 1); /* refused: a slot of its own, no stateid names it */
    ops[2].status = NFS4ERR_EXIST;
    comp.status = NFS4ERR_EXIST;
    comp.nres = 3;
    ops[3].flags = TR_NFS4_O_ARGS;
    plan();
    assert_int_equal(got[0].res_sid, 2);
    nr__v4_state_free(&v4);
}

static void locks_are_records_of_their_lock_state(void **state)
{
    static const uint32_t open[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, OP_GETFH};
    static const uint32_t lock[] = {OP_SEQUENCE, OP_PUTFH, OP_LOCK};
    static const uint32_t locku[] = {OP_SEQUENCE, OP_PUTFH, OP_LOCKU};
    static const uint32_t lockt[] = {OP_SEQUENCE, OP_PUTFH, OP_LOCKT};
    uint32_t lock_owner;

    (void)state;
    nr__v4_state_free(&v4);
    compound(open, 4, 1);
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 7;
    sid(2, 1, 20);
    plan();
    compound(lock, 3, 1); /* a new lock owner, with the open's stateid */
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 7; /* the open owner's hash: still another owner */
    ops[2].offset = 10;
    ops[2].length = 5;
    ops[2].how = WRITE_LT;
    sid(2, 0, 20);
    sid(2, 1, 21);
    plan();
    assert_int_equal(ngot, 1);
    assert_int_equal(got[0].v4, NR_V4_LOCK);
    assert_int_equal(got[0].sid, 0);     /* the open's slot */
    assert_int_equal(got[0].res_sid, 1); /* the lock's */
    lock_owner = got[0].owner;
    assert_int_equal(lock_owner, 2);
    assert_int_equal(skipped[NR_SKIP_V4_STATE], 1);
    assert_true(has_key(0, got_key[0][0], 1)); /* it changes the lock's slot */

    compound(lock, 3, 1); /* the lock owner again: its lock stateid */
    sid(2, 0, 21);
    sid(2, 1, 21);
    ops[2].status = NFS4ERR_DENIED;
    ops[2].flags &= ~TR_NFS4_O_RES_STATEID;
    plan();
    assert_int_equal(got[0].v4, NR_V4_LOCK);
    assert_int_equal(got[0].sid, 1);
    assert_int_equal(got[0].res_sid, NR_NONE); /* refused: no state */
    assert_int_equal(got[0].owner, 0);
    assert_int_equal(got_status[0], NFS4ERR_DENIED);

    compound(locku, 3, 1);
    sid(2, 0, 21);
    plan();
    assert_int_equal(got[0].v4, NR_V4_LOCKU);
    assert_int_equal(got[0].sid, 1);
    assert_true(got_changes[0][0] == 1); /* the lock's state changes */

    compound(lockt, 3, 1);
    ops[2].flags |= TR_NFS4_O_OWNER;
    ops[2].owner = 7;
    plan();
    assert_int_equal(got[0].v4, NR_V4_LOCKT);
    assert_int_equal(got[0].owner, lock_owner);
    assert_int_equal(got[0].sid, NR_NONE);
    nr__v4_state_free(&v4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_getattr_after_a_call_is_its_attributes),
        cmocka_unit_test(state_and_other_operations_are_counted),
        cmocka_unit_test(what_a_failure_stopped_is_nothing),
        cmocka_unit_test(the_root_is_a_mount_and_null_a_call),
        cmocka_unit_test(opens_seen_only_in_use_are_counted_once),
        cmocka_unit_test(opens_order_their_owner_and_the_io_on_their_stateid),
        cmocka_unit_test(a_close_is_a_record_and_frees_its_slot),
        cmocka_unit_test(locks_are_records_of_their_lock_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
