/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_lock.c - NFSv4 byte-range locks of sfs_nfsd (server layer, RFC
 * 7530 9.2-9.5, RFC 8881 9.4 and 18.10-18.12): LOCK by a new lock owner
 * (from its open stateid) or by one that has a lock stateid for the file,
 * LOCKT, LOCKU, and in NFSv4.0 RELEASE_LOCKOWNER.  Ranges of other lock
 * owners conflict when they overlap and one of the two is a write lock:
 * DENIED, with the holder's range, type and owner.  A lock owner's own
 * ranges are replaced where a new one covers them (POSIX semantics: a
 * range changes type or splits), so LOCKU of the middle of a range leaves
 * its two ends.  Lengths of all ones mean "to the end of the file".
 */
#include "server/nfs4_int.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* [off, end) of a request; 0 or INVAL (length 0, or past 2^64). */
static nfsstat4 range_of(offset4 off, length4 len, uint64_t *end)
{
    if (len == 0)
        return NFS4ERR_INVAL;
    if (len == NFS4_UINT64_MAX) {
        *end = UINT64_MAX;
        return NFS4_OK;
    }
    if (len > UINT64_MAX - off)
        return NFS4ERR_INVAL;
    *end = off + len;
    return NFS4_OK;
}

static int is_write(nfs_lock_type4 t)
{
    return t == WRITE_LT || t == WRITEW_LT;
}

/* The first range of another lock owner on f that conflicts. */
static const struct sv4_range *conflict(const struct sv4_file *f,
                                        const struct sv4_owner *self, uint64_t off,
                                        uint64_t end, int write,
                                        const struct sv4_state **holder)
{
    for (const struct sv4_state *s = f ? f->locks : NULL; s != NULL;
         s = s->next_in_file) {
        if (s->owner == self)
            continue;
        for (const struct sv4_range *r = s->ranges; r != NULL; r = r->next)
            if (r->off < end && off < r->end && (write || r->write)) {
                *holder = s;
                return r;
            }
    }
    return NULL;
}

/* The DENIED arm: the holder's range, type and owner. */
static void denied(const struct sv4_range *r, const struct sv4_state *holder,
                   LOCK4denied *d)
{
    d->offset = r->off;
    d->length = r->end == UINT64_MAX ? NFS4_UINT64_MAX : r->end - r->off;
    d->locktype = r->write ? WRITE_LT : READ_LT;
    d->owner.clientid = holder->cl->clientid;
    d->owner.owner.owner_len = holder->owner->len;
    d->owner.owner.owner_val = (char *)holder->owner->data;
}

/* Takes [off, end) out of st's ranges, splitting those it cuts.  Returns
 * 0, or -1 when a split needed memory it could not get (nothing changed
 * then but the ranges already cut out). */
static int cut(struct sv4_state *st, uint64_t off, uint64_t end)
{
    struct sv4_range **pp = &st->ranges;

    while (*pp != NULL) {
        struct sv4_range *r = *pp;
        if (r->end <= off || r->off >= end) {
            pp = &r->next;
            continue;
        }
        if (r->off < off && r->end > end) { /* the cut is inside: two ends stay */
            struct sv4_range *tail = cm_malloc(sizeof(*tail));
            if (tail == NULL)
                return -1;
            *tail = *r;
            tail->off = end;
            r->end = off;
            tail->next = r->next;
            r->next = tail;
            st->cl->nranges++;
            return 0;
        }
        if (r->off < off) {
            r->end = off;
            pp = &r->next;
        } else if (r->end > end) {
            r->off = end;
            pp = &r->next;
        } else {
            *pp = r->next;
            st->cl->nranges--;
            free(r);
        }
    }
    return 0;
}

/* Sets [off, end) of st to a read or write lock. */
static nfsstat4 set_range(struct sv4_call *x, struct sv4_state *st, uint64_t off,
                          uint64_t end, int write)
{
    struct sv4_range *n, **pp;

    if (st->cl->nranges + 2 > SV4_MAX_LOCKS)
        return sv4_no_room(x);
    n = cm_malloc(sizeof(*n));
    if (n == NULL || cut(st, off, end) != 0) {
        free(n);
        return sv4_no_room(x);
    }
    n->off = off;
    n->end = end;
    n->write = write;
    for (pp = &st->ranges; *pp != NULL && (*pp)->off < off;)
        pp = &(*pp)->next;
    n->next = *pp;
    *pp = n;
    st->cl->nranges++;
    /* ranges of one type that touch become one, as POSIX merges them */
    for (struct sv4_range *r = st->ranges; r != NULL && r->next != NULL;) {
        struct sv4_range *next = r->next;
        if (r->write == next->write && r->end >= next->off) {
            if (next->end > r->end)
                r->end = next->end;
            r->next = next->next;
            st->cl->nranges--;
            free(next);
        } else {
            r = next;
        }
    }
    return NFS4_OK;
}

/* The lock state of a LOCK, from its locker: a new lock owner's (made
 * from the open stateid), or the existing lock stateid's.  *owner is the
 * lock owner whose seqid orders the request (4.0). */
static nfsstat4 locker_state(struct sv4_call *x, const LOCK4args *args,
                             const struct sv_node *n, struct sv4_state **out,
                             struct sv4_owner **seq_owner, seqid4 *seqid, int *replay)
{
    struct sv4_state *open, *st;
    struct sv4_owner *lo;
    nfsstat4 rc, bad;

    *out = NULL;
    *seq_owner = NULL;
    *replay = 0;
    if (!args->locker.new_lock_owner) {
        const exist_lock_owner4 *e = &args->locker.locker4_u.lock_owner;
        if ((rc = sv4_state_find(x, &e->lock_stateid, SV4_SID_LOCK, &st)) != NFS4_OK) {
            *replay = sv4_seq_replay(x, rc, &e->lock_stateid, OP_LOCK, e->lock_seqid);
            return *replay ? NFS4_OK : rc;
        }
        if (st->file->fileid != n->fileid)
            return NFS4ERR_BAD_STATEID;
        *seq_owner = st->owner;
        *seqid = e->lock_seqid;
        *replay = sv4_seq_check(x, st->owner, OP_LOCK, e->lock_seqid, &bad);
        *out = st;
        return bad;
    }
    const open_to_lock_owner4 *o = &args->locker.locker4_u.open_owner;
    if ((rc = sv4_state_find(x, &o->open_stateid, SV4_SID_OPEN, &open)) != NFS4_OK)
        return rc;
    if (open->file->fileid != n->fileid)
        return NFS4ERR_BAD_STATEID;
    /* 4.0: the open owner's seqid orders the request */
    *seq_owner = open->owner;
    *seqid = o->open_seqid;
    if ((*replay = sv4_seq_check(x, open->owner, OP_LOCK, o->open_seqid, &bad)) != 0 ||
        bad != NFS4_OK)
        return bad;
    if (x->minor == 0 && o->lock_owner.clientid != open->cl->clientid)
        return NFS4ERR_BAD_STATEID; /* a lock owner of another client */
    lo = sv4_owner_find(open->cl, 1, o->lock_owner.owner.owner_val,
                        o->lock_owner.owner.owner_len);
    if (lo == NULL) {
        lo = sv4_owner_new(open->cl, 1, o->lock_owner.owner.owner_val,
                           o->lock_owner.owner.owner_len);
        if (lo == NULL)
            return sv4_no_room(x);
        lo->confirmed = 1;
    }
    for (st = open->file->locks; st != NULL && st->owner != lo; st = st->next_in_file)
        ;
    if (st == NULL) {
        st = sv4_state_new(x->v, open->cl, lo, open->file, 1);
        if (st == NULL) {
            if (lo->nstates == 0)
                sv4_owner_free(lo);
            return sv4_no_room(x);
        }
        st->open = open;
        st->seqid = 0; /* the LOCK below makes it 1 */
    }
    lo->seqid = o->lock_seqid;
    lo->has_seqid = 1;
    *out = st;
    return NFS4_OK;
}

/* The regular file of a lock operation (INVAL or ISDIR otherwise). */
static nfsstat4 lock_file(struct sv4_call *x, struct sv_node **n)
{
    nfsstat4 rc = sv4_cur(x, n);

    if (rc == NFS4_OK && (*n)->type != SV_REG)
        rc = (*n)->type == SV_DIR ? NFS4ERR_ISDIR : NFS4ERR_INVAL;
    return rc;
}

nfsstat4 sv4_op_lock(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const LOCK4args *args = &a->nfs_argop4_u.oplock;
    LOCK4res *res = &r->nfs_resop4_u.oplock;
    struct sv4_state *st = NULL;
    struct sv4_owner *seq_owner = NULL;
    const struct sv4_range *held;
    const struct sv4_state *holder;
    struct sv_node *n;
    seqid4 seqid = 0;
    uint64_t end = 0;
    int replay = 0, write = is_write(args->locktype);

    if ((res->status = lock_file(x, &n)) == NFS4_OK)
        res->status = range_of(args->offset, args->length, &end);
    if (res->status == NFS4_OK && args->locktype != READ_LT &&
        args->locktype != READW_LT && !write)
        res->status = NFS4ERR_INVAL;
    if (res->status == NFS4_OK) {
        if (args->reclaim)
            res->status = sv4_in_grace(x) ? NFS4ERR_RECLAIM_BAD : NFS4ERR_NO_GRACE;
        else if (sv4_in_grace(x) || (x->cl != NULL && !x->cl->reclaim_complete))
            res->status = NFS4ERR_GRACE; /* RFC 8881 18.51.3, as OPEN */
    }
    if (res->status == NFS4_OK)
        res->status = locker_state(x, args, n, &st, &seq_owner, &seqid, &replay);
    if (replay)
        return NFS4_OK;
    if (res->status == NFS4_OK) {
        uint32_t need = write ? OPEN4_SHARE_ACCESS_WRITE : OPEN4_SHARE_ACCESS_READ;
        if (!(st->open->access & need))
            res->status = NFS4ERR_OPENMODE;
    }
    if (res->status == NFS4_OK && (held = conflict(st->file, st->owner, args->offset, end,
                                                   write, &holder)) != NULL) {
        denied(held, holder, &res->LOCK4res_u.denied);
        res->status = NFS4ERR_DENIED;
    }
    if (res->status == NFS4_OK)
        res->status = set_range(x, st, args->offset, end, write);
    sv4_seq_done(x, seq_owner, seqid, res->status);
    if (st != NULL && st->seqid == 0 && res->status != NFS4_OK) {
        struct sv4_owner *lo = st->owner;
        sv4_state_free(x->v, st); /* made for this LOCK, which failed */
        if (lo->nstates == 0)
            sv4_owner_free(lo);
    }
    if (res->status != NFS4_OK)
        return res->status;
    st->seqid++;
    sv4_stateid_of(x->v, st, &res->LOCK4res_u.resok4.lock_stateid);
    x->cur_sid = res->LOCK4res_u.resok4.lock_stateid;
    x->cur_sid_set = 1;
    return NFS4_OK;
}

nfsstat4 sv4_op_lockt(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const LOCKT4args *args = &a->nfs_argop4_u.oplockt;
    LOCKT4res *res = &r->nfs_resop4_u.oplockt;
    struct sv4_client *cl = x->cl;
    const struct sv4_owner *self = NULL;
    const struct sv4_range *held;
    const struct sv4_state *holder;
    struct sv_node *n;
    uint64_t end = 0;

    if ((res->status = lock_file(x, &n)) == NFS4_OK)
        res->status = range_of(args->offset, args->length, &end);
    if (res->status == NFS4_OK && x->minor == 0)
        res->status = sv4_client_lookup40(x, args->owner.clientid, &cl);
    if (res->status != NFS4_OK)
        return res->status;
    if (cl != NULL)
        self = sv4_owner_find(cl, 1, args->owner.owner.owner_val,
                              args->owner.owner.owner_len);
    held = conflict(sv4_file_get(x->v, n->fileid, 0), self, args->offset, end,
                    is_write(args->locktype), &holder);
    if (held != NULL) {
        denied(held, holder, &res->LOCKT4res_u.denied);
        return res->status = NFS4ERR_DENIED;
    }
    return res->status = NFS4_OK;
}

nfsstat4 sv4_op_locku(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const LOCKU4args *args = &a->nfs_argop4_u.oplocku;
    LOCKU4res *res = &r->nfs_resop4_u.oplocku;
    struct sv4_state *st = NULL;
    struct sv_node *n;
    uint64_t end = 0;
    nfsstat4 bad = NFS4_OK;

    if ((res->status = lock_file(x, &n)) == NFS4_OK)
        res->status = range_of(args->offset, args->length, &end);
    if (res->status == NFS4_OK &&
        (res->status = sv4_state_find(x, &args->lock_stateid, SV4_SID_LOCK, &st)) !=
            NFS4_OK &&
        sv4_seq_replay(x, res->status, &args->lock_stateid, OP_LOCKU, args->seqid))
        return res->status = NFS4_OK;
    if (res->status == NFS4_OK && st->file->fileid != n->fileid)
        res->status = NFS4ERR_BAD_STATEID;
    if (res->status == NFS4_OK &&
        sv4_seq_check(x, st->owner, OP_LOCKU, args->seqid, &bad))
        return NFS4_OK;
    if (res->status == NFS4_OK)
        res->status = bad;
    if (res->status == NFS4_OK && cut(st, args->offset, end) != 0)
        res->status = sv4_no_room(x);
    sv4_seq_done(x, st ? st->owner : NULL, args->seqid, res->status);
    if (res->status != NFS4_OK)
        return res->status;
    st->seqid++;
    sv4_stateid_of(x->v, st, &res->LOCKU4res_u.lock_stateid);
    x->cur_sid = res->LOCKU4res_u.lock_stateid;
    x->cur_sid_set = 1;
    return NFS4_OK;
}

nfsstat4 sv4_op_release_lockowner(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const lock_owner4 *lo = &a->nfs_argop4_u.oprelease_lockowner.lock_owner;
    nfsstat4 *rc = &r->nfs_resop4_u.oprelease_lockowner.status;
    struct sv4_client *cl;
    struct sv4_owner *o;

    if ((*rc = sv4_client_lookup40(x, lo->clientid, &cl)) != NFS4_OK)
        return *rc;
    o = sv4_owner_find(cl, 1, lo->owner.owner_val, lo->owner.owner_len);
    if (o == NULL)
        return *rc = NFS4_OK;
    for (struct sv4_state *s = cl->states; s != NULL; s = s->next_in_client)
        if (s->owner == o && s->ranges != NULL)
            return *rc = NFS4ERR_LOCKS_HELD;
    while (o->nstates > 0) {
        struct sv4_state *s = cl->states;
        while (s->owner != o)
            s = s->next_in_client;
        sv4_state_free(x->v, s);
    }
    sv4_owner_free(o);
    return *rc = NFS4_OK;
}
