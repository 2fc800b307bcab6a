/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_nfs4state.c - sfs_nfsd's NFSv4 state through sv_core_handle:
 * OPEN (creation modes, claims), READ/WRITE/COMMIT through stateids,
 * share reservations between two clients, byte-range locks with their
 * conflicts (DENIED and the holder), the stateid errors (BAD, OLD, STALE,
 * EXPIRED), TEST_STATEID and FREE_STATEID, NFSv4.0's OPEN_CONFIRM and
 * seqid replay (also of a LOCK, LOCKU or CLOSE whose stateid moved on or
 * went) and its reply cache by XID, the special stateids' WRITE, a
 * rebooted client's stateids, another principal naming a client, a lease that runs out
 * taking opens and locks with it, the grace period, and the operations that change
 * directories. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers/th_nfs4.h"

/* ---- building operations ------------------------------------------------------ */

static void put_root_export(nfs_argop4 *o)
{
    th4_op(&o[0], OP_PUTROOTFH);
    th4_op_lookup(&o[1], "export");
}

static uint32_t mode_mask[2] = {0, TH4_BIT(FATTR4_MODE)};
static char mode_644[4] = {0, 0, 1, (char)0xa4};

/* OPEN of name (create: UNCHECKED4 with mode 0644 unless how says). */
static void op_open(nfs_argop4 *o, const char *name, uint32_t access, uint32_t deny,
                    int create, createmode4 how, const char *owner, clientid4 cid)
{
    OPEN4args *a;

    th4_op(o, OP_OPEN);
    a = &o->nfs_argop4_u.opopen;
    a->share_access = access;
    a->share_deny = deny;
    a->owner.clientid = cid;
    a->owner.owner.owner_len = (u_int)strlen(owner);
    a->owner.owner.owner_val = (char *)owner;
    a->openhow.opentype = create ? OPEN4_CREATE : OPEN4_NOCREATE;
    a->openhow.openflag4_u.how.mode = how;
    if (how == UNCHECKED4 || how == GUARDED4) {
        fattr4 *f = &a->openhow.openflag4_u.how.createhow4_u.createattrs;
        f->attrmask.bitmap4_len = 2;
        f->attrmask.bitmap4_val = mode_mask;
        f->attr_vals.attrlist4_len = 4;
        f->attr_vals.attrlist4_val = mode_644;
    } else if (how == EXCLUSIVE4) {
        memcpy(a->openhow.openflag4_u.how.createhow4_u.createverf, "excl-ver", 8);
    } else {
        memcpy(a->openhow.openflag4_u.how.createhow4_u.ch_createboth.cva_verf, "excl-v41",
               8);
    }
    a->claim.claim = CLAIM_NULL;
    a->claim.open_claim4_u.file.utf8string_len = (u_int)strlen(name);
    a->claim.open_claim4_u.file.utf8string_val = (char *)name;
}

static stateid4 opened(u_int i, u_int n)
{
    assert_int_equal(th4_result(i, n), NFS4_OK);
    return th4_res.resarray.resarray_val[i].nfs_resop4_u.opopen.OPEN4res_u.resok4.stateid;
}

static void op_write(nfs_argop4 *o, const stateid4 *sid, uint64_t off, const char *data)
{
    th4_op(o, OP_WRITE);
    o->nfs_argop4_u.opwrite.stateid = *sid;
    o->nfs_argop4_u.opwrite.offset = off;
    o->nfs_argop4_u.opwrite.stable = UNSTABLE4;
    o->nfs_argop4_u.opwrite.data.data_len = (u_int)strlen(data);
    o->nfs_argop4_u.opwrite.data.data_val = (char *)data;
}

static void op_read(nfs_argop4 *o, const stateid4 *sid, uint64_t off, uint32_t count)
{
    th4_op(o, OP_READ);
    o->nfs_argop4_u.opread.stateid = *sid;
    o->nfs_argop4_u.opread.offset = off;
    o->nfs_argop4_u.opread.count = count;
}

static void op_close(nfs_argop4 *o, const stateid4 *sid, seqid4 seqid)
{
    th4_op(o, OP_CLOSE);
    o->nfs_argop4_u.opclose.seqid = seqid;
    o->nfs_argop4_u.opclose.open_stateid = *sid;
}

/* LOCK by a new lock owner from an open stateid. */
static void op_lock_new(nfs_argop4 *o, nfs_lock_type4 t, uint64_t off, uint64_t len,
                        const stateid4 *open, const char *owner, clientid4 cid)
{
    open_to_lock_owner4 *n;

    th4_op(o, OP_LOCK);
    o->nfs_argop4_u.oplock.locktype = t;
    o->nfs_argop4_u.oplock.offset = off;
    o->nfs_argop4_u.oplock.length = len;
    o->nfs_argop4_u.oplock.locker.new_lock_owner = TRUE;
    n = &o->nfs_argop4_u.oplock.locker.locker4_u.open_owner;
    n->open_stateid = *open;
    n->lock_owner.clientid = cid;
    n->lock_owner.owner.owner_len = (u_int)strlen(owner);
    n->lock_owner.owner.owner_val = (char *)owner;
}

static const struct sv_node *export_file(struct sv_core *c, const char *name)
{
    struct sv_node *e, *n;

    assert_int_equal(sv__fs_walk(c->fs, "/export", &e), 0);
    return sv__fs_lookup(c->fs, e, name, &n) == 0 ? n : NULL;
}

/* ---- NFSv4.1 ------------------------------------------------------------------- */

static void open_write_read_close(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session s;
    nfs_argop4 o[6];
    stateid4 sid;

    (void)state;
    th4_new_session(c, &s, "rw");
    th4_op_sequence(&o[0], &s, 0, 1, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "f", OPEN4_SHARE_ACCESS_BOTH, 0, 1, UNCHECKED4, "o1", s.cid);
    th4_op(&o[4], OP_GETFH);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    sid = opened(3, 5);
    assert_int_equal(export_file(c, "f")->mode, 0644);
    {
        OPEN4resok *ok =
            &th4_res.resarray.resarray_val[3].nfs_resop4_u.opopen.OPEN4res_u.resok4;
        assert_true(ok->cinfo.after != ok->cinfo.before);
        assert_int_equal(ok->rflags & OPEN4_RESULT_CONFIRM, 0); /* 4.1: none */
        assert_int_equal(ok->attrset.bitmap4_len, 2);
        assert_int_equal(ok->delegation.delegation_type, OPEN_DELEGATE_NONE);
    }
    /* the current stateid: WRITE and READ with {1, 0...} after OPEN */
    th4_op_sequence(&o[0], &s, 0, 2, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "f", OPEN4_SHARE_ACCESS_BOTH, 0, 0, UNCHECKED4, "o1", s.cid);
    {
        stateid4 cur = {1, {0}};
        op_write(&o[4], &cur, 0, "hello world");
        op_read(&o[5], &cur, 6, 100);
    }
    assert_int_equal(th4_run(c, 1, o, 6), NFS4_OK);
    {
        READ4resok *rd =
            &th4_res.resarray.resarray_val[5].nfs_resop4_u.opread.READ4res_u.resok4;
        stateid4 up = opened(3, 6);
        assert_int_equal(up.seqid, sid.seqid + 1); /* the same open, upgraded */
        assert_memory_equal(up.other, sid.other, NFS4_OTHER_SIZE);
        assert_int_equal(rd->data.data_len, 5);
        assert_memory_equal(rd->data.data_val, "world", 5);
        assert_true(rd->eof);
        sid = up;
    }
    /* an old seqid, then the right one; CLOSE; then the stateid is gone */
    th4_op_sequence(&o[0], &s, 0, 3, 0);
    put_root_export(&o[1]);
    th4_op_lookup(&o[3], "f");
    {
        stateid4 old = sid;
        old.seqid--;
        op_read(&o[4], &old, 0, 5);
    }
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_OLD_STATEID);
    th4_op_sequence(&o[0], &s, 0, 4, 0);
    op_close(&o[4], &sid, 0);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    th4_op_sequence(&o[0], &s, 0, 5, 0);
    op_read(&o[4], &sid, 0, 5);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_BAD_STATEID);
    /* the anonymous stateid reads; the bypass one cannot write */
    {
        stateid4 anon = {0, {0}}, ones;
        memset(&ones, 0xff, sizeof(ones));
        th4_op_sequence(&o[0], &s, 0, 6, 0);
        op_read(&o[4], &anon, 0, 5);
        assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
        th4_op_sequence(&o[0], &s, 0, 7, 0);
        op_write(&o[4], &ones, 0, "x");
        assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_BAD_STATEID);
    }
    sv_core_destroy(c);
}

static void share_reservations_between_two_clients(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session a, b;
    nfs_argop4 o[5];
    stateid4 anon = {0, {0}};

    (void)state;
    th4_new_session(c, &a, "client-a");
    th4_new_session(c, &b, "client-b");
    th4_op_sequence(&o[0], &a, 0, 1, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "shared", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_WRITE, 1, GUARDED4,
            "a", a.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    /* B may read it, not write it */
    th4_op_sequence(&o[0], &b, 0, 1, 0);
    op_open(&o[3], "shared", OPEN4_SHARE_ACCESS_WRITE, 0, 0, UNCHECKED4, "b", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_SHARE_DENIED);
    th4_op_sequence(&o[0], &b, 0, 2, 0);
    op_open(&o[3], "shared", OPEN4_SHARE_ACCESS_READ, 0, 0, UNCHECKED4, "b", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    /* B opening with DENY_READ meets A's read access */
    th4_op_sequence(&o[0], &b, 0, 3, 0);
    op_open(&o[3], "shared", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_READ, 0,
            UNCHECKED4, "b2", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_SHARE_DENIED);
    /* a GUARDED create of what exists */
    th4_op_sequence(&o[0], &b, 0, 4, 0);
    op_open(&o[3], "shared", OPEN4_SHARE_ACCESS_READ, 0, 1, GUARDED4, "b", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_EXIST);
    /* writes with the anonymous stateid meet A's deny */
    th4_op_sequence(&o[0], &b, 0, 5, 0);
    th4_op_lookup(&o[3], "shared");
    op_write(&o[4], &anon, 0, "x");
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_LOCKED);
    sv_core_destroy(c);
}

static void byte_range_locks_conflict_with_their_holder(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session a, b;
    nfs_argop4 o[5];
    stateid4 sa, sb, la;

    (void)state;
    th4_new_session(c, &a, "lock-a");
    th4_new_session(c, &b, "lock-b");
    th4_op_sequence(&o[0], &a, 0, 1, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "lk", OPEN4_SHARE_ACCESS_BOTH, 0, 1, UNCHECKED4, "oa", a.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    sa = opened(3, 4);
    th4_op_sequence(&o[0], &b, 0, 1, 0);
    op_open(&o[3], "lk", OPEN4_SHARE_ACCESS_BOTH, 0, 0, UNCHECKED4, "ob", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    sb = opened(3, 4);
    /* A write-locks [0, 100) */
    th4_op_sequence(&o[0], &a, 0, 2, 0);
    th4_op_lookup(&o[3], "lk");
    op_lock_new(&o[4], WRITE_LT, 0, 100, &sa, "la", a.cid);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    la = th4_res.resarray.resarray_val[4]
             .nfs_resop4_u.oplock.LOCK4res_u.resok4.lock_stateid;
    assert_int_equal(la.seqid, 1);
    /* B's read lock inside it is DENIED, with A's range, type and owner */
    th4_op_sequence(&o[0], &b, 0, 2, 0);
    op_lock_new(&o[4], READ_LT, 50, 10, &sb, "lb", b.cid);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_DENIED);
    {
        LOCK4denied *d =
            &th4_res.resarray.resarray_val[4].nfs_resop4_u.oplock.LOCK4res_u.denied;
        assert_true(d->offset == 0 && d->length == 100);
        assert_int_equal(d->locktype, WRITE_LT);
        assert_true(d->owner.clientid == a.cid);
        assert_int_equal(d->owner.owner.owner_len, 2);
        assert_memory_equal(d->owner.owner.owner_val, "la", 2);
    }
    /* LOCKT beside it is free; to the end of the file it is not */
    th4_op_sequence(&o[0], &b, 0, 3, 0);
    th4_op(&o[4], OP_LOCKT);
    o[4].nfs_argop4_u.oplockt.locktype = WRITE_LT;
    o[4].nfs_argop4_u.oplockt.offset = 100;
    o[4].nfs_argop4_u.oplockt.length = 10;
    o[4].nfs_argop4_u.oplockt.owner.owner.owner_len = 2;
    o[4].nfs_argop4_u.oplockt.owner.owner.owner_val = "lb";
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    th4_op_sequence(&o[0], &b, 0, 4, 0);
    o[4].nfs_argop4_u.oplockt.offset = 99;
    o[4].nfs_argop4_u.oplockt.length = NFS4_UINT64_MAX;
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_DENIED);
    /* CLOSE with locks held; LOCKU of the middle leaves both ends */
    th4_op_sequence(&o[0], &a, 0, 3, 0);
    op_close(&o[4], &sa, 0);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_LOCKS_HELD);
    th4_op_sequence(&o[0], &a, 0, 4, 0);
    th4_op(&o[4], OP_LOCKU);
    o[4].nfs_argop4_u.oplocku.locktype = WRITE_LT;
    o[4].nfs_argop4_u.oplocku.lock_stateid = la;
    o[4].nfs_argop4_u.oplocku.offset = 40;
    o[4].nfs_argop4_u.oplocku.length = 30;
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    la = th4_res.resarray.resarray_val[4].nfs_resop4_u.oplocku.LOCKU4res_u.lock_stateid;
    th4_op_sequence(&o[0], &b, 0, 5, 0);
    op_lock_new(&o[4], READ_LT, 50, 10, &sb, "lb", b.cid);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    th4_op_sequence(&o[0], &b, 0, 6, 0);
    op_lock_new(&o[4], READ_LT, 60, 20, &sb, "lb2", b.cid);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4ERR_DENIED);
    assert_true(
        th4_res.resarray.resarray_val[4].nfs_resop4_u.oplock.LOCK4res_u.denied.offset ==
        70);
    /* TEST_STATEID: A's lock and open fine, a made-up one bad */
    th4_op_sequence(&o[0], &a, 0, 5, 0);
    th4_op(&o[1], OP_TEST_STATEID);
    {
        stateid4 ids[3] = {la, sa, la};
        ids[2].other[11] ^= 0x40;
        o[1].nfs_argop4_u.optest_stateid.ts_stateids.ts_stateids_len = 3;
        o[1].nfs_argop4_u.optest_stateid.ts_stateids.ts_stateids_val = ids;
        assert_int_equal(th4_run(c, 1, o, 2), NFS4_OK);
        TEST_STATEID4resok *t =
            &th4_res.resarray.resarray_val[1]
                 .nfs_resop4_u.optest_stateid.TEST_STATEID4res_u.tsr_resok4;
        assert_int_equal(t->tsr_status_codes.tsr_status_codes_len, 3);
        assert_int_equal(t->tsr_status_codes.tsr_status_codes_val[0], NFS4_OK);
        assert_int_equal(t->tsr_status_codes.tsr_status_codes_val[1], NFS4_OK);
        assert_int_equal(t->tsr_status_codes.tsr_status_codes_val[2],
                         NFS4ERR_BAD_STATEID);
    }
    /* FREE_STATEID: not while ranges remain */
    th4_op_sequence(&o[0], &a, 0, 6, 0);
    th4_op(&o[1], OP_FREE_STATEID);
    o[1].nfs_argop4_u.opfree_stateid.fsa_stateid = la;
    assert_int_equal(th4_run(c, 1, o, 2), NFS4ERR_LOCKS_HELD);
    sv_core_destroy(c);
}

static void a_silent_client_loses_its_opens_and_locks(void **state)
{
    struct sv_core *c = th4_core(10);
    struct th4_session a, b;
    nfs_argop4 o[5];
    stateid4 sa, sb;

    (void)state;
    th4_new_session(c, &a, "silent");
    th4_new_session(c, &b, "busy");
    th4_op_sequence(&o[0], &a, 0, 1, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "held", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_BOTH, 1, UNCHECKED4,
            "a", a.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    sa = opened(3, 4);
    th4_op_sequence(&o[0], &a, 0, 2, 0);
    th4_op_lookup(&o[3], "held");
    op_lock_new(&o[4], WRITE_LT, 0, NFS4_UINT64_MAX, &sa, "la", a.cid);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    th4_op_sequence(&o[0], &b, 0, 1, 0);
    op_open(&o[3], "held", OPEN4_SHARE_ACCESS_READ, 0, 0, UNCHECKED4, "b", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_SHARE_DENIED);
    /* B renews for 12 s, A says nothing: A's open and lock go */
    for (int i = 2; i < 8; i++) {
        th4_now_ns += 2000000000ull;
        th4_op_sequence(&o[0], &b, 0, (uint32_t)i, 0);
        assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    }
    th4_op_sequence(&o[0], &b, 0, 8, 0);
    op_open(&o[3], "held", OPEN4_SHARE_ACCESS_BOTH, 0, 0, UNCHECKED4, "b", b.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    sb = opened(3, 4);
    th4_op_sequence(&o[0], &b, 0, 9, 0);
    th4_op_lookup(&o[3], "held");
    op_lock_new(&o[4], WRITE_LT, 0, 10, &sb, "lb", b.cid);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    assert_int_equal(c->v4->leases_expired, 1);
    /* A's session is gone; its stateid is EXPIRED to a 4.1 compound of B */
    th4_op_sequence(&o[0], &a, 0, 3, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSESSION);
    th4_op_sequence(&o[0], &b, 0, 10, 0);
    th4_op(&o[1], OP_TEST_STATEID);
    o[1].nfs_argop4_u.optest_stateid.ts_stateids.ts_stateids_len = 1;
    o[1].nfs_argop4_u.optest_stateid.ts_stateids.ts_stateids_val = &sa;
    assert_int_equal(th4_run(c, 1, o, 2), NFS4_OK);
    assert_int_equal(th4_res.resarray.resarray_val[1]
                         .nfs_resop4_u.optest_stateid.TEST_STATEID4res_u.tsr_resok4
                         .tsr_status_codes.tsr_status_codes_val[0],
                     NFS4ERR_EXPIRED);
    sv_core_destroy(c);
}

/* OPEN of name (creating it) and GETFH: the stateid, and the handle in fh. */
static stateid4 open_with_handle(struct sv_core *c, struct th4_session *s, uint32_t seq,
                                 const char *name, const char *owner,
                                 uint8_t fh[SV_FH_LEN])
{
    nfs_argop4 o[5];
    stateid4 sid;

    th4_op_sequence(&o[0], s, 0, seq, 0);
    put_root_export(&o[1]);
    op_open(&o[3], name, OPEN4_SHARE_ACCESS_BOTH, 0, 1, UNCHECKED4, owner, s->cid);
    th4_op(&o[4], OP_GETFH);
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    sid = opened(3, 5);
    assert_true(
        th4_res.resarray.resarray_val[3].nfs_resop4_u.opopen.OPEN4res_u.resok4.rflags &
        OPEN4_RESULT_PRESERVE_UNLINKED);
    assert_int_equal(th4_res.resarray.resarray_val[4]
                         .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_len,
                     SV_FH_LEN);
    memcpy(fh,
           th4_res.resarray.resarray_val[4]
               .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_val,
           SV_FH_LEN);
    return sid;
}

static void op_putfh(nfs_argop4 *o, uint8_t fh[SV_FH_LEN])
{
    th4_op(o, OP_PUTFH);
    o->nfs_argop4_u.opputfh.object.nfs_fh4_len = SV_FH_LEN;
    o->nfs_argop4_u.opputfh.object.nfs_fh4_val = (char *)fh;
}

static void op_name(nfs_argop4 *o, nfs_opnum4 op, const char *name, const char *to)
{
    th4_op(o, op);
    if (op == OP_REMOVE) {
        o->nfs_argop4_u.opremove.target.utf8string_len = (u_int)strlen(name);
        o->nfs_argop4_u.opremove.target.utf8string_val = (char *)name;
        return;
    }
    o->nfs_argop4_u.oprename.oldname.utf8string_len = (u_int)strlen(name);
    o->nfs_argop4_u.oprename.oldname.utf8string_val = (char *)name;
    o->nfs_argop4_u.oprename.newname.utf8string_len = (u_int)strlen(to);
    o->nfs_argop4_u.oprename.newname.utf8string_val = (char *)to;
}

/* PUTFH fh READ: the data read (NUL-terminated in buf). */
static nfsstat4 read_by_handle(struct sv_core *c, struct th4_session *s, uint32_t seq,
                               uint8_t fh[SV_FH_LEN], const stateid4 *sid, char *buf,
                               size_t cap)
{
    nfs_argop4 o[3];
    nfsstat4 st;

    th4_op_sequence(&o[0], s, 0, seq, 0);
    op_putfh(&o[1], fh);
    op_read(&o[2], sid, 0, (uint32_t)cap - 1);
    st = th4_run(c, 1, o, 3);
    if (st == NFS4_OK) {
        READ4resok *rd =
            &th4_res.resarray.resarray_val[2].nfs_resop4_u.opread.READ4res_u.resok4;
        memcpy(buf, rd->data.data_val, rd->data.data_len);
        buf[rd->data.data_len] = '\0';
    }
    return st;
}

/* A file that loses its last name while open - renamed over, removed -
 * keeps its handle, data and state until its last open closes (RFC 7530
 * 9.1.1's "until closed"; pynfs RNM21); then its handle is STALE and its
 * memory is given back.  A client whose lease runs out closes such a
 * file as well. */
static void a_file_unlinked_while_open_lives_until_close(void **state)
{
    struct sv_core *c = th4_core(10);
    struct th4_session s, quiet;
    uint8_t fh[SV_FH_LEN], fh_other[SV_FH_LEN], fh_quiet[SV_FH_LEN];
    struct sv_fs_usage before, during, after;
    struct sv_node *n;
    nfs_argop4 o[5];
    stateid4 sid, sid_other, sid_quiet;
    char buf[64];

    (void)state;
    th4_new_session(c, &s, "unlinker");
    th4_new_session(c, &quiet, "quiet");
    sv__fs_usage(c->fs, &before);
    sid = open_with_handle(c, &s, 1, "target", "o1", fh);
    sid_other = open_with_handle(c, &s, 2, "source", "o1", fh_other);
    th4_op_sequence(&o[0], &s, 0, 3, 0);
    op_putfh(&o[1], fh);
    op_write(&o[2], &sid, 0, "kept data");
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    /* RENAME source over target: target's last name goes */
    th4_op_sequence(&o[0], &s, 0, 4, 0);
    put_root_export(&o[1]);
    th4_op(&o[3], OP_SAVEFH);
    op_name(&o[4], OP_RENAME, "source", "target");
    assert_int_equal(th4_run(c, 1, o, 5), NFS4_OK);
    assert_int_equal(sv__fs_from_handle(c->fs, fh_other, SV_FH_LEN, &n), 0);
    assert_ptr_equal(export_file(c, "target"), n);
    assert_int_equal(sv__fs_from_handle(c->fs, fh, SV_FH_LEN, &n), 0);
    assert_int_equal(n->nlink, 0);
    sv__fs_usage(c->fs, &during);
    assert_true(during.used_bytes > before.used_bytes);
    /* its data reads and writes through the open until CLOSE */
    assert_int_equal(read_by_handle(c, &s, 5, fh, &sid, buf, sizeof(buf)), NFS4_OK);
    assert_string_equal(buf, "kept data");
    th4_op_sequence(&o[0], &s, 0, 6, 0);
    op_putfh(&o[1], fh);
    op_write(&o[2], &sid, 0, "more");
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    assert_int_equal(read_by_handle(c, &s, 7, fh, &sid, buf, sizeof(buf)), NFS4_OK);
    assert_string_equal(buf, "more data");
    /* no name for it again: LINK of a file without one is NOENT */
    {
        nfs_argop4 l[6];
        th4_op_sequence(&l[0], &s, 1, 1, 0);
        op_putfh(&l[1], fh);
        th4_op(&l[2], OP_SAVEFH);
        put_root_export(&l[3]);
        th4_op(&l[5], OP_LINK);
        l[5].nfs_argop4_u.oplink.newname.utf8string_len = 5;
        l[5].nfs_argop4_u.oplink.newname.utf8string_val = "again";
        assert_int_equal(th4_run(c, 1, l, 6), NFS4ERR_NOENT);
        assert_null(export_file(c, "again"));
    }
    th4_op_sequence(&o[0], &s, 0, 8, 0);
    op_putfh(&o[1], fh);
    op_close(&o[2], &sid, 0);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    th4_op_sequence(&o[0], &s, 0, 9, 0);
    op_putfh(&o[1], fh);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4ERR_STALE);
    /* REMOVE of the open renamed file: the same, then the memory is back */
    th4_op_sequence(&o[0], &s, 0, 10, 0);
    put_root_export(&o[1]);
    op_name(&o[3], OP_REMOVE, "target", NULL);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    assert_null(export_file(c, "target"));
    th4_op_sequence(&o[0], &s, 0, 11, 0);
    op_putfh(&o[1], fh_other);
    op_write(&o[2], &sid_other, 0, "removed, open");
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    assert_int_equal(read_by_handle(c, &s, 12, fh_other, &sid_other, buf, sizeof(buf)),
                     NFS4_OK);
    assert_string_equal(buf, "removed, open");
    th4_op_sequence(&o[0], &s, 0, 13, 0);
    op_putfh(&o[1], fh_other);
    op_close(&o[2], &sid_other, 0);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    assert_int_equal(sv__fs_from_handle(c->fs, fh_other, SV_FH_LEN, &n), NFS3ERR_STALE);
    sv__fs_usage(c->fs, &after);
    assert_int_equal(after.used_bytes, before.used_bytes);
    assert_int_equal(after.files, before.files);
    /* a client that opens, removes and falls silent: its lease takes the file */
    sid_quiet = open_with_handle(c, &quiet, 1, "quiet", "q", fh_quiet);
    th4_op_sequence(&o[0], &quiet, 0, 2, 0);
    op_putfh(&o[1], fh_quiet);
    op_write(&o[2], &sid_quiet, 0, "orphan");
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    th4_op_sequence(&o[0], &quiet, 0, 3, 0);
    put_root_export(&o[1]);
    op_name(&o[3], OP_REMOVE, "quiet", NULL);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    assert_int_equal(sv__fs_from_handle(c->fs, fh_quiet, SV_FH_LEN, &n), 0);
    for (uint32_t i = 14; i < 20; i++) {
        th4_now_ns += 2000000000ull;
        th4_op_sequence(&o[0], &s, 0, i, 0);
        assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    }
    assert_int_equal(c->v4->leases_expired, 1);
    th4_op_sequence(&o[0], &s, 0, 20, 0);
    op_putfh(&o[1], fh_quiet);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4ERR_STALE);
    sv__fs_usage(c->fs, &after);
    assert_int_equal(after.used_bytes, before.used_bytes);
    assert_int_equal(after.files, before.files);
    sv_core_destroy(c);
}

static void exclusive_creates_and_claims(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session s;
    nfs_argop4 o[4];

    (void)state;
    th4_new_session(c, &s, "excl");
    th4_op_sequence(&o[0], &s, 0, 1, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "x", OPEN4_SHARE_ACCESS_WRITE, 0, 1, EXCLUSIVE4_1, "o", s.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    /* the same verifier again: a retransmission, the same file */
    th4_op_sequence(&o[0], &s, 0, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    /* another verifier: EXIST */
    th4_op_sequence(&o[0], &s, 0, 3, 0);
    o[3].nfs_argop4_u.opopen.openhow.openflag4_u.how.createhow4_u.ch_createboth
        .cva_verf[0] = 'X';
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_EXIST);
    /* CLAIM_PREVIOUS with no grace: NO_GRACE; a directory: ISDIR */
    th4_op_sequence(&o[0], &s, 0, 4, 0);
    op_open(&o[3], "x", OPEN4_SHARE_ACCESS_READ, 0, 0, UNCHECKED4, "o", s.cid);
    o[3].nfs_argop4_u.opopen.claim.claim = CLAIM_PREVIOUS;
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_NO_GRACE);
    th4_op_sequence(&o[0], &s, 0, 5, 0);
    th4_op(&o[1], OP_PUTROOTFH);
    op_open(&o[2], "export", OPEN4_SHARE_ACCESS_READ, 0, 0, UNCHECKED4, "o", s.cid);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4ERR_ISDIR);
    /* nothing is made in the pseudo file system */
    th4_op_sequence(&o[0], &s, 0, 6, 0);
    op_open(&o[2], "new", OPEN4_SHARE_ACCESS_READ, 0, 1, UNCHECKED4, "o", s.cid);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4ERR_ROFS);
    sv_core_destroy(c);
}

/* ---- NFSv4.0 ------------------------------------------------------------------- */

static void open_confirm_and_seqid_replay_in_4_0(void **state)
{
    struct sv_core *c = th4_core(0);
    clientid4 cid = th4_setclientid(c, "v40", "verifier");
    nfs_argop4 o[5];
    stateid4 sid;
    uint8_t first[256];
    size_t first_len;

    (void)state;
    put_root_export(o);
    op_open(&o[2], "f40", OPEN4_SHARE_ACCESS_BOTH, 0, 1, EXCLUSIVE4, "owner", cid);
    o[2].nfs_argop4_u.opopen.seqid = 7;
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    sid = opened(2, 3);
    assert_true(
        th4_res.resarray.resarray_val[2].nfs_resop4_u.opopen.OPEN4res_u.resok4.rflags &
        OPEN4_RESULT_CONFIRM);
    /* unconfirmed: not usable yet */
    th4_op_lookup(&o[2], "f40");
    op_read(&o[3], &sid, 0, 1);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_BAD_STATEID);
    th4_op(&o[3], OP_OPEN_CONFIRM);
    /* the anonymous stateid names no open: BAD_STATEID (pynfs OPCF5) */
    o[3].nfs_argop4_u.opopen_confirm.seqid = 8;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_BAD_STATEID);
    o[3].nfs_argop4_u.opopen_confirm.open_stateid = sid;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    first_len = th4_reply_len;
    memcpy(first, th4_out, first_len);
    sid = th4_res.resarray.resarray_val[3]
              .nfs_resop4_u.opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;
    assert_int_equal(sid.seqid, 2);
    /* the same request again (seqid 8): the same reply, not a second confirm */
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    assert_int_equal(th4_reply_len, first_len);
    assert_memory_equal(th4_out + 4, first + 4, first_len - 4); /* all but the xid */
    /* a seqid skipped: BAD_SEQID; the next one works */
    op_write(&o[3], &sid, 0, "data");
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    op_close(&o[3], &sid, 10);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_BAD_SEQID);
    op_close(&o[3], &sid, 9);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    /* a stateid of another server instance: STALE_STATEID */
    sid.other[0] ^= 1;
    op_read(&o[3], &sid, 0, 1);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_STALE_STATEID);
    sv_core_destroy(c);
}

/* Runs the compound again and checks that its reply is the first one's,
 * byte for byte but the xid. */
static void same_reply_again(struct sv_core *c, nfs_argop4 *o, u_int n, nfsstat4 want)
{
    uint8_t first[512];
    size_t first_len;

    assert_int_equal(th4_run(c, 0, o, n), want);
    first_len = th4_reply_len;
    assert_true(first_len <= sizeof(first));
    memcpy(first, th4_out, first_len);
    assert_int_equal(th4_run(c, 0, o, n), want);
    assert_int_equal(th4_reply_len, first_len);
    assert_memory_equal(th4_out + 4, first + 4, first_len - 4);
}

static void retransmissions_after_their_stateid_moved_on_in_4_0(void **state)
{
    struct sv_core *c = th4_core(0);
    clientid4 cid = th4_setclientid(c, "rtx", "verifier");
    nfs_argop4 o[4];
    stateid4 sid, sid2, lsid;

    (void)state;
    /* two files of one owner, opened and confirmed (seqids 1-4) */
    put_root_export(o);
    op_open(&o[2], "r1", OPEN4_SHARE_ACCESS_BOTH, 0, 1, UNCHECKED4, "owner", cid);
    o[2].nfs_argop4_u.opopen.seqid = 1;
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    sid = opened(2, 3);
    th4_op_lookup(&o[2], "r1");
    th4_op(&o[3], OP_OPEN_CONFIRM);
    o[3].nfs_argop4_u.opopen_confirm.open_stateid = sid;
    o[3].nfs_argop4_u.opopen_confirm.seqid = 2;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    sid = th4_res.resarray.resarray_val[3]
              .nfs_resop4_u.opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;
    op_open(&o[2], "r2", OPEN4_SHARE_ACCESS_BOTH, 0, 1, UNCHECKED4, "owner", cid);
    o[2].nfs_argop4_u.opopen.seqid = 3;
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    sid2 = opened(2, 3); /* the owner is confirmed: no OPEN_CONFIRM */
    /* a LOCK, then one with its lock stateid retransmitted (seqid 1 of
     * the lock owner): the stateid it holds is OLD, the reply the first */
    th4_op_lookup(&o[2], "r1");
    op_lock_new(&o[3], WRITE_LT, 0, 10, &sid, "lo", cid);
    o[3].nfs_argop4_u.oplock.locker.locker4_u.open_owner.open_seqid = 4;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    lsid = th4_res.resarray.resarray_val[3]
               .nfs_resop4_u.oplock.LOCK4res_u.resok4.lock_stateid;
    th4_op(&o[3], OP_LOCK);
    o[3].nfs_argop4_u.oplock.locktype = WRITE_LT;
    o[3].nfs_argop4_u.oplock.offset = 20;
    o[3].nfs_argop4_u.oplock.length = 10;
    o[3].nfs_argop4_u.oplock.locker.locker4_u.lock_owner.lock_stateid = lsid;
    o[3].nfs_argop4_u.oplock.locker.locker4_u.lock_owner.lock_seqid = 1;
    same_reply_again(c, o, 4, NFS4_OK);
    lsid = th4_res.resarray.resarray_val[3]
               .nfs_resop4_u.oplock.LOCK4res_u.resok4.lock_stateid;
    assert_int_equal(lsid.seqid, 2); /* that LOCK ran once (twice: 3) */
    /* LOCKU the same way (lock seqid 2) */
    th4_op(&o[3], OP_LOCKU);
    o[3].nfs_argop4_u.oplocku.locktype = WRITE_LT;
    o[3].nfs_argop4_u.oplocku.seqid = 2;
    o[3].nfs_argop4_u.oplocku.lock_stateid = lsid;
    o[3].nfs_argop4_u.oplocku.offset = 0;
    o[3].nfs_argop4_u.oplocku.length = NFS4_UINT64_MAX;
    same_reply_again(c, o, 4, NFS4_OK);
    /* RELEASE_LOCKOWNER lets the open go; CLOSE (seqid 5) and its
     * retransmission after the state is gone: the same reply */
    th4_op(&o[2], OP_RELEASE_LOCKOWNER);
    o[2].nfs_argop4_u.oprelease_lockowner.lock_owner.clientid = cid;
    o[2].nfs_argop4_u.oprelease_lockowner.lock_owner.owner.owner_len = 2;
    o[2].nfs_argop4_u.oprelease_lockowner.lock_owner.owner.owner_val = "lo";
    assert_int_equal(th4_run(c, 0, o + 2, 1), NFS4_OK);
    th4_op_lookup(&o[2], "r1");
    op_close(&o[3], &sid, 5);
    same_reply_again(c, o, 4, NFS4_OK);
    /* with another seqid it is no retransmission: the stateid is gone */
    op_close(&o[3], &sid, 6);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_BAD_STATEID);
    op_close(&o[3], &sid, 4);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_BAD_STATEID);
    /* the owner's sequence goes on: the other file closes with seqid 6 */
    th4_op_lookup(&o[2], "r2");
    op_close(&o[3], &sid2, 6);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    sv_core_destroy(c);
}

/* ---- directories ------------------------------------------------------------------ */

static void create_link_rename_remove_setattr(void **state)
{
    struct sv_core *c = th4_core(0);
    clientid4 cid = th4_setclientid(c, "dirs", "verifier");
    nfs_argop4 o[8];
    uint32_t size_mask[1] = {TH4_BIT(FATTR4_SIZE)};
    char size_7[8] = {0, 0, 0, 0, 0, 0, 0, 7};
    stateid4 anon = {0, {0}};

    (void)state;
    put_root_export(o);
    th4_op(&o[2], OP_CREATE);
    o[2].nfs_argop4_u.opcreate.objtype.type = NF4DIR;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_len = 1;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_val = "d";
    th4_op(&o[3], OP_CREATE);
    o[3].nfs_argop4_u.opcreate.objtype.type = NF4LNK;
    o[3].nfs_argop4_u.opcreate.objtype.createtype4_u.linkdata.linktext4_len = 6;
    o[3].nfs_argop4_u.opcreate.objtype.createtype4_u.linkdata.linktext4_val = "../d/x";
    o[3].nfs_argop4_u.opcreate.objname.utf8string_len = 1;
    o[3].nfs_argop4_u.opcreate.objname.utf8string_val = "l";
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    assert_non_null(export_file(c, "d"));
    /* a regular file through CREATE: BADTYPE */
    o[3].nfs_argop4_u.opcreate.objtype.type = NF4REG;
    assert_int_equal(th4_run(c, 0, o + 1, 3), NFS4ERR_NOFILEHANDLE);
    o[2] = o[3];
    assert_int_equal(th4_run(c, 0, o, 3), NFS4ERR_BADTYPE);
    /* a file, grown by SETATTR with the anonymous stateid, linked, renamed */
    put_root_export(o);
    op_open(&o[2], "f", OPEN4_SHARE_ACCESS_WRITE, 0, 1, UNCHECKED4, "w", cid);
    th4_op(&o[3], OP_SETATTR);
    o[3].nfs_argop4_u.opsetattr.stateid = anon;
    o[3].nfs_argop4_u.opsetattr.obj_attributes.attrmask.bitmap4_len = 1;
    o[3].nfs_argop4_u.opsetattr.obj_attributes.attrmask.bitmap4_val = size_mask;
    o[3].nfs_argop4_u.opsetattr.obj_attributes.attr_vals.attrlist4_len = 8;
    o[3].nfs_argop4_u.opsetattr.obj_attributes.attr_vals.attrlist4_val = size_7;
    th4_op(&o[4], OP_SAVEFH);
    put_root_export(&o[5]);
    th4_op(&o[7], OP_LINK);
    o[7].nfs_argop4_u.oplink.newname.utf8string_len = 2;
    o[7].nfs_argop4_u.oplink.newname.utf8string_val = "f2";
    assert_int_equal(th4_run(c, 0, o, 8), NFS4_OK);
    assert_int_equal(export_file(c, "f")->size, 7);
    assert_int_equal(export_file(c, "f")->nlink, 2);
    put_root_export(o);
    th4_op(&o[2], OP_SAVEFH);
    th4_op(&o[3], OP_RENAME);
    o[3].nfs_argop4_u.oprename.oldname.utf8string_len = 2;
    o[3].nfs_argop4_u.oprename.oldname.utf8string_val = "f2";
    o[3].nfs_argop4_u.oprename.newname.utf8string_len = 2;
    o[3].nfs_argop4_u.oprename.newname.utf8string_val = "f3";
    th4_op(&o[4], OP_REMOVE); /* the link was made in d: CREATE moved there */
    o[4].nfs_argop4_u.opremove.target.utf8string_len = 1;
    o[4].nfs_argop4_u.opremove.target.utf8string_val = "d";
    assert_int_equal(th4_run(c, 0, o, 5), NFS4ERR_NOTEMPTY);
    assert_null(export_file(c, "f2"));
    assert_non_null(export_file(c, "f3"));
    o[4].nfs_argop4_u.opremove.target.utf8string_len = 2;
    o[4].nfs_argop4_u.opremove.target.utf8string_val = "f3";
    assert_int_equal(th4_run(c, 0, o + 2, 3), NFS4ERR_NOFILEHANDLE);
    o[3] = o[4];
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    assert_null(export_file(c, "f3"));
    assert_int_equal(export_file(c, "f")->nlink, 1);
    /* nothing in the pseudo file system */
    th4_op(&o[1], OP_SAVEFH);
    th4_op(&o[2], OP_REMOVE);
    o[2].nfs_argop4_u.opremove.target.utf8string_len = 6;
    o[2].nfs_argop4_u.opremove.target.utf8string_val = "export";
    assert_int_equal(th4_run(c, 0, o, 3), NFS4ERR_ROFS);
    sv_core_destroy(c);
}

/* OPEN (creating name) and OPEN_CONFIRM by a new 4.0 owner, seqids seq and
 * seq + 1: the confirmed stateid. */
static stateid4 open_confirmed_40(struct sv_core *c, clientid4 cid, const char *name,
                                  uint32_t access, uint32_t deny, const char *owner,
                                  seqid4 seq)
{
    nfs_argop4 o[4];
    stateid4 sid;

    put_root_export(o);
    op_open(&o[2], name, access, deny, 1, UNCHECKED4, owner, cid);
    o[2].nfs_argop4_u.opopen.seqid = seq;
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    sid = opened(2, 3);
    th4_op_lookup(&o[2], name);
    th4_op(&o[3], OP_OPEN_CONFIRM);
    o[3].nfs_argop4_u.opopen_confirm.open_stateid = sid;
    o[3].nfs_argop4_u.opopen_confirm.seqid = seq + 1;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    return th4_res.resarray.resarray_val[3]
        .nfs_resop4_u.opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;
}

static void requests_sent_again_with_their_xid_in_4_0(void **state)
{
    struct sv_core *c = th4_core(0);
    nfs_argop4 o[3];
    uint8_t first[256];
    size_t first_len;

    (void)state;
    (void)th4_setclientid(c, "xid", "verifier");
    put_root_export(o);
    th4_op(&o[2], OP_CREATE);
    o[2].nfs_argop4_u.opcreate.objtype.type = NF4DIR;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_len = 1;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_val = "x";
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    first_len = th4_reply_len;
    assert_true(first_len <= sizeof(first));
    memcpy(first, th4_out, first_len);
    /* the same CREATE with the same XID, twice (pynfs RPLY14): the first
     * reply, byte for byte, not EXIST */
    for (int i = 0; i < 2; i++) {
        th4_next_xid--;
        assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
        assert_int_equal(th4_reply_len, first_len);
        assert_memory_equal(th4_out, first, first_len);
    }
    assert_int_equal(c->v4->xid_replays, 2);
    /* the same CREATE with a new XID is a new request: EXIST */
    assert_int_equal(th4_run(c, 0, o, 3), NFS4ERR_EXIST);
    /* an XID used again by other arguments is a new request: it runs */
    th4_next_xid--;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_val = "y";
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    assert_non_null(export_file(c, "y"));
    assert_int_equal(c->v4->xid_replays, 2);
    sv_core_destroy(c);
}

static void special_stateids_and_a_rebooted_client_in_4_0(void **state)
{
    struct sv_core *c = th4_core(0);
    clientid4 cid = th4_setclientid(c, "boot", "verif-01");
    nfs_argop4 o[4];
    stateid4 ones, sid;

    (void)state;
    memset(&ones, 0xff, sizeof(ones));
    /* WRITE with the READ-bypass stateid is checked as the anonymous
     * stateid's (pynfs WRT2): refused while an open denies writing... */
    sid = open_confirmed_40(c, cid, "w", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_WRITE,
                            "ow", 1);
    put_root_export(o);
    th4_op_lookup(&o[2], "w");
    op_write(&o[3], &ones, 0, "data");
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_LOCKED);
    op_read(&o[3], &ones, 0, 4); /* READ bypasses it */
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    /* ... and let through when none does */
    op_close(&o[3], &sid, 3);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    op_write(&o[3], &ones, 0, "data");
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    assert_int_equal(export_file(c, "w")->size, 4);
    /* the client reboots (a new verifier, confirmed): the stateids of its
     * earlier incarnation are EXPIRED, not unknown (pynfs CID1) */
    sid = open_confirmed_40(c, cid, "r", OPEN4_SHARE_ACCESS_BOTH, 0, "ob", 1);
    (void)th4_setclientid(c, "boot", "verif-02");
    th4_op_lookup(&o[2], "r");
    op_read(&o[3], &sid, 0, 1);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_EXPIRED);
    sv_core_destroy(c);
}

static void another_principal_with_a_clients_id_in_4_0(void **state)
{
    struct sv_core *c = th4_core(0);
    clientid4 cid = th4_setclientid(c, "shared", "verifier");
    nfs_argop4 o[1];

    (void)state;
    (void)th4_setclientid(c, "idle", "verifier");
    (void)open_confirmed_40(c, cid, "s", OPEN4_SHARE_ACCESS_BOTH, 0, "os", 1);
    /* uid 1 names the id of uid 0's client, which holds an open: CLID_INUSE
     * (pynfs CID2a); the id of a client without state is taken (CID2) */
    th4_uid = 1;
    th4_op(&o[0], OP_SETCLIENTID);
    memcpy(o[0].nfs_argop4_u.opsetclientid.client.verifier, "verifier", 8);
    o[0].nfs_argop4_u.opsetclientid.client.id.id_len = 6;
    o[0].nfs_argop4_u.opsetclientid.client.id.id_val = "shared";
    o[0].nfs_argop4_u.opsetclientid.callback.cb_location.na_r_netid = "tcp";
    o[0].nfs_argop4_u.opsetclientid.callback.cb_location.na_r_addr = "127.0.0.1.0.0";
    assert_int_equal(th4_run(c, 0, o, 1), NFS4ERR_CLID_INUSE);
    o[0].nfs_argop4_u.opsetclientid.client.id.id_len = 4;
    o[0].nfs_argop4_u.opsetclientid.client.id.id_val = "idle";
    assert_int_equal(th4_run(c, 0, o, 1), NFS4_OK);
    th4_uid = 0;
    sv_core_destroy(c);
}

/* OPEN (no create, or UNCHECKED4 with the size in sz) of name by a 4.0
 * owner with seqid seq. */
static nfsstat4 open_again_40(struct sv_core *c, clientid4 cid, const char *name,
                              uint32_t access, uint32_t deny, const char *owner,
                              seqid4 seq, char *sz)
{
    static uint32_t size_mask[1] = {TH4_BIT(FATTR4_SIZE)};
    nfs_argop4 o[3];

    put_root_export(o);
    op_open(&o[2], name, access, deny, sz != NULL, UNCHECKED4, owner, cid);
    o[2].nfs_argop4_u.opopen.seqid = seq;
    if (sz != NULL) {
        fattr4 *f =
            &o[2].nfs_argop4_u.opopen.openhow.openflag4_u.how.createhow4_u.createattrs;
        f->attrmask.bitmap4_len = 1;
        f->attrmask.bitmap4_val = size_mask;
        f->attr_vals.attrlist4_len = 8;
        f->attr_vals.attrlist4_val = sz;
    }
    return th4_run(c, 0, o, 3);
}

static void open_corners_of_one_owner_in_4_0(void **state)
{
    struct sv_core *c = th4_core(0);
    clientid4 cid = th4_setclientid(c, "corners", "verifier");
    char size_16[8] = {0, 0, 0, 0, 0, 0, 0, 16}, size_0[8] = {0};
    nfs_argop4 o[4];
    stateid4 sid;

    (void)state;
    /* OPEN of a FIFO: SYMLINK in 4.0, as of anything not a regular file
     * or a directory (pynfs OPEN7b/c/f/s) */
    put_root_export(o);
    th4_op(&o[2], OP_CREATE);
    o[2].nfs_argop4_u.opcreate.objtype.type = NF4FIFO;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_len = 1;
    o[2].nfs_argop4_u.opcreate.objname.utf8string_val = "p";
    assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
    assert_int_equal(
        open_again_40(c, cid, "p", OPEN4_SHARE_ACCESS_READ, 0, "oa", 1, NULL),
        NFS4ERR_SYMLINK);
    /* READ and WRITE opened apart by one owner: OPEN_DOWNGRADE may go to
     * either (pynfs OPDG10, OPDG11, LOCK24) */
    (void)open_confirmed_40(c, cid, "f", OPEN4_SHARE_ACCESS_READ, 0, "ob", 1);
    assert_int_equal(
        open_again_40(c, cid, "f", OPEN4_SHARE_ACCESS_WRITE, 0, "ob", 3, NULL), NFS4_OK);
    sid = opened(2, 3);
    put_root_export(o);
    th4_op_lookup(&o[2], "f");
    th4_op(&o[3], OP_OPEN_DOWNGRADE);
    o[3].nfs_argop4_u.opopen_downgrade.open_stateid = sid;
    o[3].nfs_argop4_u.opopen_downgrade.seqid = 4;
    o[3].nfs_argop4_u.opopen_downgrade.share_access = OPEN4_SHARE_ACCESS_WRITE;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    /* an owner whose open denies reading cannot open for reading again
     * (pynfs OPEN21) */
    (void)open_confirmed_40(c, cid, "g", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_READ,
                            "oc", 1);
    assert_int_equal(
        open_again_40(c, cid, "g", OPEN4_SHARE_ACCESS_READ, 0, "oc", 3, NULL),
        NFS4ERR_SHARE_DENIED);
    /* UNCHECKED4 of an existing file leaves its size alone, but for a
     * size of 0 (pynfs OPEN2) */
    sid = open_confirmed_40(c, cid, "h", OPEN4_SHARE_ACCESS_BOTH, 0, "od", 1);
    th4_op_lookup(&o[2], "h");
    op_write(&o[3], &sid, 0, "0123456789");
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    assert_int_equal(
        open_again_40(c, cid, "h", OPEN4_SHARE_ACCESS_BOTH, 0, "od", 3, size_16),
        NFS4_OK);
    assert_int_equal(export_file(c, "h")->size, 10);
    assert_int_equal(
        open_again_40(c, cid, "h", OPEN4_SHARE_ACCESS_BOTH, 0, "od", 4, size_0), NFS4_OK);
    assert_int_equal(export_file(c, "h")->size, 0);
    sv_core_destroy(c);
}

static void grace_period_refuses_new_state(void **state)
{
    struct sv_config cfg;
    char err[256];
    struct sv_core *c;
    struct th4_session s;
    nfs_argop4 o[4];

    (void)state;
    sv_config_defaults(&cfg);
    cfg.instance = 7;
    cfg.clock = &th4_clock;
    cfg.grace_s = 5;
    c = sv_core_create(&cfg, err, sizeof(err));
    assert_non_null(c);
    th4_new_session_only(c, &s, "grace");
    th4_op_sequence(&o[0], &s, 0, 1, 0);
    put_root_export(&o[1]);
    op_open(&o[3], "g", OPEN4_SHARE_ACCESS_BOTH, 0, 1, UNCHECKED4, "o", s.cid);
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_GRACE);
    th4_op_sequence(&o[0], &s, 0, 2, 0);
    o[3].nfs_argop4_u.opopen.claim.claim = CLAIM_PREVIOUS;
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_RECLAIM_BAD);
    /* its reclaims done, and the grace period over: new state again */
    th4_op_sequence(&o[0], &s, 3, 1, 0);
    th4_op(&o[1], OP_RECLAIM_COMPLETE);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4_OK);
    th4_op_sequence(&o[0], &s, 0, 3, 0);
    put_root_export(&o[1]);
    o[3].nfs_argop4_u.opopen.claim.claim = CLAIM_NULL;
    assert_int_equal(th4_run(c, 1, o, 4), NFS4ERR_GRACE);
    th4_now_ns += 6000000000ull;
    th4_op_sequence(&o[0], &s, 0, 4, 0);
    o[3].nfs_argop4_u.opopen.claim.claim = CLAIM_NULL;
    assert_int_equal(th4_run(c, 1, o, 4), NFS4_OK);
    sv_core_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(open_write_read_close),
        cmocka_unit_test(share_reservations_between_two_clients),
        cmocka_unit_test(byte_range_locks_conflict_with_their_holder),
        cmocka_unit_test(a_silent_client_loses_its_opens_and_locks),
        cmocka_unit_test(a_file_unlinked_while_open_lives_until_close),
        cmocka_unit_test(exclusive_creates_and_claims),
        cmocka_unit_test(open_confirm_and_seqid_replay_in_4_0),
        cmocka_unit_test(retransmissions_after_their_stateid_moved_on_in_4_0),
        cmocka_unit_test(create_link_rename_remove_setattr),
        cmocka_unit_test(grace_period_refuses_new_state),
        cmocka_unit_test(requests_sent_again_with_their_xid_in_4_0),
        cmocka_unit_test(special_stateids_and_a_rebooted_client_in_4_0),
        cmocka_unit_test(another_principal_with_a_clients_id_in_4_0),
        cmocka_unit_test(open_corners_of_one_owner_in_4_0),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);

    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&th4_res);
    return rc;
}
