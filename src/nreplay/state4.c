/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state4.c - the traced NFSv4 open and lock state as an NFSv4 replay
 * replays it (nr_int.h, docs/nfs_replay.md "Opens"): the plan gives every
 * traced stateid a slot (plan4.c), and each copy here the replayed state of
 * each slot - the stateid the replay's own OPEN or LOCK got, its file, the
 * owner and share modes it was opened with.  The READs, WRITEs and
 * SETATTRs of a traced stateid go with its slot's; the plan's state
 * records are sent at their place, synchronously (the client's other calls
 * going on): a traced CLOSE as PUTFH CLOSE, an OPEN by handle as PUTFH
 * OPEN, a LOCK, LOCKU or LOCKT as itself (its status compared apart from
 * the calls'), each on its traced client's own client (clients4.c).  A
 * stateid the trace shows in use but never made (an open
 * from before the capture), or whose open a new client lost, is OPENed
 * (CLAIM_FH) before its next use; the opens left are CLOSEd at the end.
 * Nothing here allocates.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nfs/nf4_load.h"
#include "nreplay/nr_int.h"

/* A copy's replayed open of one of the plan's state slots. */
struct nr_v4sid {
    struct nf4_open o;
    struct nf4_fh fh; /* its file: the CLOSE's PUTFH */
    uint32_t owner;   /* its OPEN's owner and share modes (nr_call's): those of */
    uint8_t share;    /* the OPEN again after a new client lost it */
    uint8_t made;     /* a replayed OPEN was about it: never opened before use */
    uint8_t lock;     /* a lock's state: no CLOSE (it goes with its open's) */
    uint32_t stream;  /* the traced client whose client opened it */
};

size_t nr_state4_bytes(void)
{
    return sizeof(struct nr_v4sid);
}

static struct nr_v4sid *slot(const struct nr_replay *rp, uint32_t k, uint32_t sid)
{
    return &((struct nr_v4sid *)rp->v4open)[(size_t)k * (rp->plan->nsids + 1) + sid];
}

const stateid4 *nr_state4_sid(const struct nr_replay *rp, uint32_t k, uint32_t sid)
{
    const stateid4 *s = NULL;
    struct nr_v4sid *f;

    if (sid == NR_NONE || rp->v4open == NULL)
        return NULL;
    f = slot(rp, k, sid);
    if (nf4_open_need(&f->o, nf4_client_epoch(nr_client4(rp, k, f->stream)), &s) ==
        NF4_OPEN)
        return s;
    return f->made ? &f->o.stateid : NULL;
}

uint32_t nr_state4_epoch(const struct nr_replay *rp, uint32_t k, uint32_t sid)
{
    const struct nr_v4sid *f;

    if (sid == NR_NONE || rp->v4open == NULL)
        return UINT32_MAX;
    f = slot(rp, k, sid);
    return f->o.state == NF4_OPEN && !f->lock ? f->o.epoch : UINT32_MAX;
}

void nr_state4_owner(struct nf4_compound *c, char *buf, size_t len, uint32_t k,
                     uint32_t owner, uint8_t share)
{
    uint32_t i;

    snprintf(buf, len, "freesfs-replay/c%u/o%u", k, owner);
    for (i = c->args.argarray.argarray_len; i-- > 0;) {
        OPEN4args *o = &c->op[i].nfs_argop4_u.opopen;

        if (c->op[i].argop != OP_OPEN)
            continue;
        if (owner != 0) {
            o->owner.owner.owner_len = (u_int)strlen(buf);
            o->owner.owner.owner_val = buf;
        }
        if (share & 3u) {
            o->share_access = (o->share_access & ~3u) | (share & 3u);
            o->share_deny = (share >> 2) & 3u;
        }
        return;
    }
}

/* A replayed OPEN of slot f came back (res: its reply, NULL: none; fh:
 * the file): the slot's open, counted.  An OPEN of a file its owner has
 * open already (an upgrade) keeps the one open, with the later stateid. */
static void open_result(struct nr_replay *rp, struct nr_v4sid *f,
                        const struct nf4_res *res, uint32_t epoch,
                        const struct nf4_fh *fh)
{
    const struct nf4_resop *op = res ? nf4_res_find(res, OP_OPEN, 0) : NULL;
    const stateid4 *cur;

    f->made = 1;
    if (fh)
        f->fh = *fh;
    if (nf4_open_need(&f->o, epoch, &cur) == NF4_OPEN) {
        rp->v4counts.opens++;
        if (op && op->status == NFS4_OK)
            f->o.stateid = op->u.open.stateid;
        else
            rp->v4counts.open_errors++;
        return;
    }
    nf4_open_sending(&rp->v4counts, &f->o);
    (void)nf4_open_done(&rp->v4counts, &f->o, res, epoch);
}

void nr_state4_opened(struct nr_replay *rp, const struct nr_live *l,
                      const struct nf4_res *res, uint32_t epoch, const struct nf4_fh *fh)
{
    struct nr_v4sid *f;

    if (rp->v4open == NULL || l->c.res_sid == NR_NONE)
        return;
    f = slot(rp, l->k, l->c.res_sid);
    f->owner = l->c.owner;
    f->share = l->c.share;
    f->stream = l->c.stream;
    open_result(rp, f, res, epoch, fh);
}

/* Runs the process's own call (an OPEN or a CLOSE) to its end, the
 * client's other calls going on meanwhile. */
static int sync4(struct nr_replay *rp, struct nf4_client *cl)
{
    rp->v4sync.res.data = NULL;
    rp->v4sync.res.data_max = 0;
    return nf4_call_sync(cl, &rp->v4sync);
}

/* PUTFH fh OPEN(CLAIM_FH) into slot f, with owner (0: the client's). */
static int open_fh(struct nr_replay *rp, struct nf4_client *cl, struct nr_v4sid *f,
                   const struct nf4_fh *fh, uint32_t k, uint32_t owner, uint8_t share)
{
    int rc;

    /* the open alone, no call the trace did not make beside it (a Linux
     * client's ACCESS and GETATTR would count as calls) */
    nf4_compound_init(&rp->v4sync.args, 1, 0);
    nf4_op_putfh(&rp->v4sync.args, fh);
    if (nf4_op_open(&rp->v4sync.args, NULL, 0, NULL) == NULL)
        return 0;
    nr_state4_owner(&rp->v4sync.args, rp->v4owner, sizeof(rp->v4owner), k, owner, share);
    rc = sync4(rp, cl);
    /* a failed OPEN is counted; the calls of its stateid then go with the
     * stateid it did not get, and their statuses say what the server
     * thought */
    open_result(rp, f, rc == 0 ? &rp->v4sync.res : NULL, rp->v4sync.epoch, fh);
    return rc == -ENOTCONN ? rc : 0;
}

int nr_state4_open(struct nr_replay *rp, const struct nr_live *l)
{
    struct nf4_client *cl = nr_client4(rp, l->k, l->c.stream);
    struct nf4_fh h;
    struct nr_v4sid *f;
    const stateid4 *sid;

    if ((l->c.op != NF_OP_READ && l->c.op != NF_OP_WRITE && l->c.op != NF_OP_SETATTR) ||
        l->c.obj == NR_NONE || l->c.sid == NR_NONE || rp->v4open == NULL || cl == NULL)
        return 0;
    f = slot(rp, l->k, l->c.sid);
    if (f->lock || nf4_open_need(&f->o, nf4_client_epoch(cl), &sid) != NF4_CLOSED)
        return 0;
    /* never opened here (an open from before the capture), or open in a
     * client the server has forgotten (its lease ran out, it restarted):
     * opened again with its owner and share modes, as a client reclaims */
    if (f->made && f->o.state != NF4_OPEN)
        return 0; /* closed, or refused: the server says what it thinks of it */
    f->stream = l->c.stream;
    nf4_fh_from_nf(nr_fh(rp, l->k, l->c.obj), &h);
    return open_fh(rp, cl, f, &h, l->k, f->owner, f->share);
}

/* PUTFH CLOSE of slot f's open (sid: its stateid). */
static int close_one(struct nr_replay *rp, struct nf4_client *cl, struct nr_v4sid *f,
                     const stateid4 *sid)
{
    nf4_compound_init(&rp->v4sync.args, 1, 0); /* PUTFH CLOSE: no GETATTR */
    nf4_op_putfh(&rp->v4sync.args, &f->fh);
    nf4_op_close(&rp->v4sync.args, sid);
    return sync4(rp, cl);
}

/* The traced status of a state record against the replayed one (both
 * nfsstat4), counted apart from the calls'. */
static void lock_compare(struct nr_replay *rp, const struct nr_call *c, nfsstat4 st)
{
    if (c->status == NR_NO_REPLY)
        return;
    NR_STATS(&rp->cx)->nr_v4_lock_compared++;
    NR_STATS(&rp->cx)->nr_v4_lock_mismatches += c->status != (uint32_t)st;
}

/* Lock record l (LOCK, LOCKU, LOCKT) on file fh, synchronously: the lock
 * stateid a LOCK or LOCKU got into its slot, its status compared. */
static int lock_call(struct nr_replay *rp, struct nf4_client *cl, const struct nr_live *l,
                     const struct nf4_fh *fh)
{
    const struct nr_call *c = &l->c;
    struct nf4_compound *cp = &rp->v4sync.args;
    const struct nf4_resop *r;
    nfs_argop4 *a;
    struct nr_v4sid *f;
    int rc;

    snprintf(rp->v4owner, sizeof(rp->v4owner), "freesfs-replay/c%u/l%u", l->k, c->owner);
    nf4_compound_init(cp, 1, 0);
    nf4_op_putfh(cp, fh);
    a = nf4_op(cp, c->v4 == NR_V4_LOCK    ? OP_LOCK
                   : c->v4 == NR_V4_LOCKU ? OP_LOCKU
                                          : OP_LOCKT);
    if (a == NULL)
        return 0;
    if (c->v4 == NR_V4_LOCK) {
        LOCK4args *k = &a->nfs_argop4_u.oplock;

        k->locktype = (nfs_lock_type4)c->how;
        k->offset = c->offset;
        k->length = c->size;
        k->locker.new_lock_owner = c->owner != 0;
        if (c->owner != 0) { /* the open's stateid, and a lock owner of its own */
            k->locker.locker4_u.open_owner.open_stateid =
                *nr_state4_sid(rp, l->k, c->sid);
            k->locker.locker4_u.open_owner.lock_owner.owner.owner_len =
                (u_int)strlen(rp->v4owner);
            k->locker.locker4_u.open_owner.lock_owner.owner.owner_val = rp->v4owner;
            cp->nopen++; /* the lock owner's client id: the client's */
        } else {
            k->locker.locker4_u.lock_owner.lock_stateid =
                *nr_state4_sid(rp, l->k, c->sid);
        }
    } else if (c->v4 == NR_V4_LOCKU) {
        a->nfs_argop4_u.oplocku.locktype = (nfs_lock_type4)c->how;
        a->nfs_argop4_u.oplocku.lock_stateid = *nr_state4_sid(rp, l->k, c->sid);
        a->nfs_argop4_u.oplocku.offset = c->offset;
        a->nfs_argop4_u.oplocku.length = c->size;
    } else {
        a->nfs_argop4_u.oplockt.locktype = (nfs_lock_type4)c->how;
        a->nfs_argop4_u.oplockt.offset = c->offset;
        a->nfs_argop4_u.oplockt.length = c->size;
        a->nfs_argop4_u.oplockt.owner.owner.owner_len = (u_int)strlen(rp->v4owner);
        a->nfs_argop4_u.oplockt.owner.owner.owner_val = rp->v4owner;
        cp->nopen++;
    }
    cp->cachethis = c->v4 != NR_V4_LOCKT;
    NR_STATS(&rp->cx)->nr_v4_locks++;
    rc = sync4(rp, cl);
    if (rc < 0)
        return rc == -ENOTCONN ? rc : 0;
    r = nf4_res_find(&rp->v4sync.res, a->argop, 0);
    lock_compare(rp, c, r ? r->status : rp->v4sync.res.status);
    /* the lock's stateid: a LOCK's into its slot, a LOCKU's over it */
    f = c->v4 == NR_V4_LOCK && c->res_sid != NR_NONE ? slot(rp, l->k, c->res_sid)
        : c->v4 == NR_V4_LOCKU && c->sid != NR_NONE  ? slot(rp, l->k, c->sid)
                                                     : NULL;
    if (f != NULL && r != NULL && r->status == NFS4_OK) {
        f->o.stateid = r->u.close;
        f->o.state = NF4_OPEN;
        f->o.epoch = rp->v4sync.epoch;
        f->made = f->lock = 1;
        f->stream = c->stream;
    }
    return 0;
}

/* A traced OPEN_DOWNGRADE of slot f's open to the share modes `share`:
 * PUTFH OPEN_DOWNGRADE with the open's present stateid (seqid 0: 4.1's);
 * the stateid it gives, and the modes an OPEN again after a new client
 * takes. */
static int downgrade(struct nr_replay *rp, struct nf4_client *cl, struct nr_v4sid *f,
                     uint8_t share)
{
    OPEN_DOWNGRADE4args *d;
    const struct nf4_resop *r;
    const stateid4 *sid;
    nfs_argop4 *a;
    int rc;

    if (nf4_open_need(&f->o, nf4_client_epoch(cl), &sid) != NF4_OPEN)
        return 0; /* not open here (refused, or gone with a client) */
    nf4_compound_init(&rp->v4sync.args, 1, 0);
    nf4_op_putfh(&rp->v4sync.args, &f->fh);
    if ((a = nf4_op(&rp->v4sync.args, OP_OPEN_DOWNGRADE)) == NULL)
        return 0;
    d = &a->nfs_argop4_u.opopen_downgrade;
    d->open_stateid = *sid;
    d->seqid = 0;
    d->share_access = share & 3u;
    d->share_deny = (share >> 2) & 3u;
    rp->v4sync.args.cachethis = 1;
    NR_STATS(&rp->cx)->nr_v4_downgrades++;
    rc = sync4(rp, cl);
    if (rc < 0)
        return rc == -ENOTCONN ? rc : 0;
    r = nf4_res_find(&rp->v4sync.res, OP_OPEN_DOWNGRADE, 0);
    if (r != NULL && r->status == NFS4_OK) {
        f->o.stateid = r->u.close;
        f->share = share;
    }
    return 0;
}

int nr_state4_record(struct nr_replay *rp, const struct nr_live *l)
{
    struct nf4_client *cl = nr_client4(rp, l->k, l->c.stream);
    struct nr_v4sid *f;
    struct nf4_fh h;
    stateid4 sid;

    if (cl == NULL || rp->v4open == NULL)
        return cl == NULL ? -ENOTCONN : 0;
    if (l->c.v4 == NR_V4_CLOSE && l->c.sid != NR_NONE) {
        f = slot(rp, l->k, l->c.sid);
        f->made = 1;
        if (!nf4_open_leave(&rp->v4counts, &f->o, nf4_client_epoch(cl), &sid))
            return 0; /* not open here (its OPEN failed, or went with a client) */
        rp->v4closes_traced++;
        return close_one(rp, cl, f, &sid) == -ENOTCONN ? -ENOTCONN : 0;
    }
    if (l->c.v4 == NR_V4_DOWNGRADE)
        return l->c.sid == NR_NONE
                   ? 0
                   : downgrade(rp, cl, slot(rp, l->k, l->c.sid), l->c.share);
    if (l->c.v4 >= NR_V4_LOCK && l->c.obj != NR_NONE &&
        nr_fh(rp, l->k, l->c.obj)->len > 0) {
        nf4_fh_from_nf(nr_fh(rp, l->k, l->c.obj), &h);
        return lock_call(rp, cl, l, &h);
    }
    if (l->c.v4 == NR_V4_OPEN && l->c.res_sid != NR_NONE && l->c.obj != NR_NONE &&
        nr_fh(rp, l->k, l->c.obj)->len > 0) {
        nf4_fh_from_nf(nr_fh(rp, l->k, l->c.obj), &h);
        f = slot(rp, l->k, l->c.res_sid);
        f->owner = l->c.owner;
        f->share = l->c.share;
        f->stream = l->c.stream;
        return open_fh(rp, cl, f, &h, l->k, l->c.owner, l->c.share);
    }
    return 0;
}

void nr_state4_close_all(struct nr_replay *rp)
{
    uint32_t n = rp->v4open ? rp->plan->nsids : 0, k, i;
    stateid4 sid;

    for (k = 0; k < rp->ncopies; k++)
        for (i = 0; i < n; i++) {
            struct nr_v4sid *f = slot(rp, k, i);
            struct nf4_client *cl = nr_client4(rp, k, f->stream);

            if (f->lock || cl == NULL) /* a lock's: gone with its open's CLOSE */
                continue;
            if (!nf4_open_leave(&rp->v4counts, &f->o, nf4_client_epoch(cl), &sid))
                continue;
            if (close_one(rp, cl, f, &sid) == -ENOTCONN)
                return; /* the client is gone: its opens with it */
        }
}
