/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * call4.c - one traced call of an NFSv4 plan as the NFS trace replay sends
 * it (nr_int.h): through the session's NFSv4.1 client (its own client id
 * and session, a fore-channel slot per call of the window; SEQUENCE, slots
 * and seqids the client's, never the trace's), each call the compound a
 * 4.1 client sends for its SFS op (nfs/v4_sfs.c: "PUTFH LOOKUP GETFH
 * GETATTR"...), the NULL procedure as itself.  The attributes a traced
 * SETATTR or CREATE set are set, no others.
 *
 * The traced opens: every traced stateid has a slot in the plan (plan4.c),
 * and each copy here the replayed open of each slot: a traced OPEN is
 * replayed as an OPEN (by name: PUTFH OPEN GETFH GETATTR, counted as the
 * lookup or create it is; by handle: a state record, PUTFH OPEN) with an
 * open owner of its own per traced owner, and the stateid its reply names
 * is the one the READs, WRITEs and SETATTRs of the traced stateid go with;
 * the traced CLOSE is replayed at its place (a state record, PUTFH CLOSE).
 * A stateid the trace shows in use but never made (an open from before
 * the capture) is OPENed (CLAIM_FH, the client's owner) before its first
 * use.  The opens the trace never CLOSEd are CLOSEd at the end of the run.

 * The reply is decoded by the client into the slot's call; its status
 * (nf.h's numbering) is compared with the traced nfsstat4 in the same
 * numbering (nf4_status_nf).  Nothing here allocates.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/hist.h"
#include "image/im.h"
#include "nfs/nf4_load.h"
#include "nfs/nf_proto.h"
#include "nreplay/nr_int.h"

/* One slot's v4 call: the compound, its handles and arguments, its OPEN's
 * owner. */
struct nr_v4call {
    struct nf4_call call;
    struct nf4_fh fh, fh2;
    struct nf4_sfs_args args;
    char owner[48];
    rp_done_fn done; /* the replay's own completion (run.c), as for v2/v3 */
};

/* A copy's replayed open of one of the plan's state slots. */
struct nr_v4sid {
    struct nf4_open o;
    struct nf4_fh fh; /* its file: the CLOSE's PUTFH */
    uint32_t owner;   /* its OPEN's owner and share modes (nr_call's): those of */
    uint8_t share;    /* the OPEN again after a new client lost it */
    uint8_t made;     /* a replayed OPEN was about it: never opened before use */
    uint8_t lock;     /* a lock's state: no CLOSE (it goes with its open's) */
};

static const stateid4 anonymous; /* all zeros (RFC 8881 8.2.3) */

static struct nf4_client *client(const struct nr_replay *rp)
{
    const struct nf4_mount *m = nf4_session_mount(&rp->cx.ses);

    return m ? m->cl : NULL;
}

size_t nr_call4_bytes(void)
{
    return sizeof(struct nr_v4call);
}

size_t nr_call4_sid_bytes(void)
{
    return sizeof(struct nr_v4sid);
}

static struct nr_v4sid *slot(const struct nr_replay *rp, uint32_t k, uint32_t sid)
{
    return &((struct nr_v4sid *)rp->v4open)[(size_t)k * (rp->plan->nsids + 1) + sid];
}

/* The stateid a call of copy k using the plan's slot sid goes with: its
 * replayed open's; the stateid of an open closed since, or refused (the
 * server says what it thinks of it, as the traced one did); the anonymous
 * one for a traced special stateid. */
static const stateid4 *sid_of(const struct nr_replay *rp, uint32_t k, uint32_t sid)
{
    const stateid4 *s = NULL;
    struct nr_v4sid *f;

    if (sid == NR_NONE || rp->v4open == NULL)
        return &anonymous;
    f = slot(rp, k, sid);
    if (nf4_open_need(&f->o, nf4_client_epoch(client(rp)), &s) == NF4_OPEN)
        return s;
    return f->made ? &f->o.stateid : &anonymous;
}

/* The OPEN of compound c goes with traced owner `owner` of copy k (an
 * owner of its own; 0: the client's) and the traced share modes (share:
 * nr_call's; 0: reading and writing, denying nothing). */
static void set_owner(struct nf4_compound *c, char *buf, size_t len, uint32_t k,
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

/* The OPEN(CREATE) of compound c with the traced create mode (how: 0
 * UNCHECKED, 1 GUARDED, 2 EXCLUSIVE, as the plan has it): GUARDED4 keeps
 * the attributes; EXCLUSIVE as NFSv4.1's EXCLUSIVE4_1, with them and a
 * verifier of its own per record and copy (sent again unchanged, as a
 * client's retry is). */
static void create_mode(struct nf4_compound *c, uint32_t how, uint64_t i, uint32_t k)
{
    uint64_t verf = i ^ ((uint64_t)k << 48) ^ 0x4652454553465321ull;
    uint32_t n;

    for (n = c->args.argarray.argarray_len; n-- > 0;) {
        createhow4 *h = &c->op[n].nfs_argop4_u.opopen.openhow.openflag4_u.how;
        fattr4 attrs;

        if (c->op[n].argop != OP_OPEN ||
            c->op[n].nfs_argop4_u.opopen.openhow.opentype != OPEN4_CREATE)
            continue;
        if (how == 1) {
            h->mode = GUARDED4; /* the same arm: the attributes stay */
        } else if (how == 2) {
            attrs = h->createhow4_u.createattrs; /* the arms overlap */
            h->mode = EXCLUSIVE4_1;
            memcpy(h->createhow4_u.ch_createboth.cva_verf, &verf, sizeof(verifier4));
            h->createhow4_u.ch_createboth.cva_attrs = attrs;
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

/* What a traced SETATTR, CREATE, MKDIR, SYMLINK or MKNOD set. */
static void sattr_of(const struct nr_call *c, struct nf4_sattr *sa)
{
    memset(sa, 0, sizeof(*sa));
    sa->set_mode = (c->sattr & NF_SA_MODE) != 0;
    sa->mode = c->mode & 07777u;
    sa->set_size = (c->sattr & NF_SA_SIZE) != 0;
    sa->size = c->size;
    sa->set_atime_now = (c->sattr & (NF_SA_ATIME | NF_SA_ATIME_SERVER)) != 0;
    sa->set_mtime_now = (c->sattr & (NF_SA_MTIME | NF_SA_MTIME_SERVER)) != 0;
}

/* Piece `piece` of a READ or WRITE: its offset and count. */
static uint32_t piece_of(uint32_t piece, const struct nr_call *c, uint32_t max,
                         uint64_t *off)
{
    uint64_t done = (uint64_t)piece * max;
    uint64_t left = c->count > done ? c->count - done : 0;

    *off = c->offset + done;
    return (uint32_t)(left < max ? left : max);
}

/* The compound's end goes to the replay's completion as a v2/v3 call's
 * does: its accounting comes back down here through nr_call_account. */
static void done4(struct nf4_call *call, void *data)
{
    struct rb_slot *s = data;
    struct nr_replay *rp = s->owner;
    struct nr_v4call *v = &((struct nr_v4call *)rp->v4calls)[s - rp->win.slot];

    v->done(&call->rpc, s);
}

int nr_call4_start(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                   rp_done_fn done)
{
    const struct nr_live *l = &rp->live[ref];
    const struct nr_call *c = &l->c;
    struct nr_v4call *v = &((struct nr_v4call *)rp->v4calls)[s - rp->win.slot];
    struct nf4_sfs_args *a = &v->args;
    struct nf4_client *cl = client(rp);
    uint64_t off;
    int rc;

    s->count = 0;
    if (cl == NULL)
        return -ENOTCONN;
    if (c->op == NF_OP_NULL_OP) { /* the RPC NULL procedure, no compound */
        rp_call_prepare(&s->call, 0, (xdrproc_t)rp_xdr_void, NULL, (xdrproc_t)rp_xdr_void,
                        NULL, nf_class_timeout_ms(NF_CLASS_LOOKUP, 1), done, s);
        return rp_call_start(rp->cx.ses.rpc, &s->call);
    }
    memset(a, 0, sizeof(*a));
    if (c->obj != NR_NONE) {
        nf4_fh_from_nf(nr_fh(rp, l->k, c->obj), &v->fh);
        a->fh = &v->fh;
    }
    if (c->obj2 != NR_NONE) {
        nf4_fh_from_nf(nr_fh(rp, l->k, c->obj2), &v->fh2);
        a->fh2 = &v->fh2;
    }
    a->name = c->op == NF_OP_LINK ? c->name2 : c->name;
    a->name2 = c->name2;
    a->target = c->text ? c->text : "";
    switch (c->op) {
    case NF_OP_READ:
        a->count = s->count = piece_of(piece, c, rp->rtmax, &off);
        a->offset = off;
        a->sid = sid_of(rp, l->k, c->sid);
        rp->v4counts.anonymous_io += a->sid == &anonymous && piece == 0;
        break;
    case NF_OP_WRITE:
        a->count = s->count = piece_of(piece, c, rp->wtmax, &off);
        a->offset = off;
        a->data = rp->win.wdata;
        a->stable = c->how != 0; /* DATA_SYNC4 and FILE_SYNC4 as FILE_SYNC4 */
        a->sid = sid_of(rp, l->k, c->sid);
        rp->v4counts.anonymous_io += a->sid == &anonymous && piece == 0;
        break;
    case NF_OP_SETATTR:
        a->sid = sid_of(rp, l->k, c->sid);
        sattr_of(c, &a->sa);
        break;
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
    case NF_OP_SYMLINK:
    case NF_OP_MKNOD:
        sattr_of(c, &a->sa);
        a->type = c->ftype ? (nfs_ftype4)c->ftype : NF4FIFO;
        break;
    case NF_OP_COMMIT:
        a->offset = c->offset;
        a->count = c->count;
        break;
    case NF_OP_READDIR:
    case NF_OP_READDIRPLUS:
        a->count = a->dircount = c->count ? c->count : 4096;
        break;
    case NF_OP_ACCESS:
        a->access = c->access;
        break;
    default:
        break;
    }
    if (c->op == NF_OP_LOOKUP && c->res_sid != NR_NONE && a->fh) {
        /* a traced OPEN by name, no create: PUTFH OPEN GETFH GETATTR */
        nf4_compound_init(&v->call.args, nf4_client_minor(cl), 0);
        nf4_op_putfh(&v->call.args, a->fh);
        nf4_op_open(&v->call.args, a->name, 0, NULL);
        nf4_op_getfh(&v->call.args);
        rc = nf4_op_getattr(&v->call.args, NF4_MASK_GETATTR) ? 0 : -EINVAL;
    } else {
        rc = nf4_sfs_compound(&v->call.args, nf4_client_minor(cl), c->op, a);
    }
    if (rc < 0)
        return rc;
    if (c->op == NF_OP_CREATE && c->how != 0)
        create_mode(&v->call.args, c->how, l->i, l->k);
    if (c->res_sid != NR_NONE)
        set_owner(&v->call.args, v->owner, sizeof(v->owner), l->k, c->owner, c->share);
    v->call.res.data = NULL; /* READ data, READLINK text, names: read over */
    v->call.res.data_max = 0;
    v->call.done = done4;
    v->done = done;
    v->call.data = s;
    v->call.timeout_ms = 0;
    return nf4_call_start(cl, &v->call);
}

int nr_call4_account(struct rb_slot *s)
{
    struct nr_replay *rp = s->owner;
    const struct nr_v4call *v = &((struct nr_v4call *)rp->v4calls)[s - rp->win.slot];
    const struct nf4_call *call = &v->call;
    const struct nr_live *l = &rp->live[s->tag];
    const struct nr_call *c = &l->c;
    struct ld_stats *st = &rp->cx.stats;
    struct nf4_sfs_result r;

    if (call->status != 0 && call->rpc.sends == 0) /* never left this host */
        return 0;
    RB_STATS(&rp->cx)->replay_calls++;
    if (s->piece == 0)
        RB_STATS(&rp->cx)->replay_records++;
    if (c->op == NF_OP_READ)
        RB_STATS(&rp->cx)->replay_bytes_read += s->count;
    else if (c->op == NF_OP_WRITE)
        RB_STATS(&rp->cx)->replay_bytes_written += s->count;
    if (call->rpc.t_reply_ns == 0)
        NR_STATS(&rp->cx)->nr_unanswered++;
    if (call->rpc.retransmits > 0)
        LD_STATS_COUNT(st, c->op, retrans);
    NR_STATS(&rp->cx)->nr_resends += call->rpc.retransmits + call->resends;
    if (call->status != 0) {
        ld_stats_bad(st, c->op);
        if (c->res_sid != NR_NONE && rp->v4open != NULL)
            open_result(rp, slot(rp, l->k, c->res_sid), NULL, call->epoch, NULL);
        return 1;
    }
    nf4_sfs_result(&call->res, &r);
    {
        uint64_t ns = call->rpc.t_reply_ns > call->rpc.t_send_ns
                          ? call->rpc.t_reply_ns - call->rpc.t_send_ns
                          : 0;

        if (ns > (uint64_t)call->rpc.timeout_ms * 1000000u) { /* answered too late */
            ld_stats_bad(st, c->op);
            LD_STATS_COUNT(st, c->op, late);
        } else {
            ld_stats_good(st, c->op, ns, r.status != 0);
        }
    }
    if (r.status == NF_ST_STALE || r.status == NF_ST_BADHANDLE)
        st->stale++;
    nr__stale_run(rp, c, r.status,
                  call->rpc.t_reply_ns ? call->rpc.t_reply_ns : cm_now_ns());
    if (c->status != NR_NO_REPLY && s->piece == 0) {
        cm_hist_add(&NR_STATS(&rp->cx)->nr_traced[c->op], c->rt_us);
        cm_hist_add(&NR_STATS(&rp->cx)->nr_traced[NF_OP_TOTAL], c->rt_us);
        NR_STATS(&rp->cx)->nr_traced_us[c->op] += c->rt_us;
        NR_STATS(&rp->cx)->nr_traced_us[NF_OP_TOTAL] += c->rt_us;
    }
    if (s->piece == 0)
        nr__compare(rp, l,
                    c->status == NR_NO_REPLY ? c->status : nf4_status_nf(c->status),
                    r.status);
    if (c->res_obj != NR_NONE && r.status == 0 && r.has_fh)
        (void)nf4_fh_to_nf(&r.fh, nr_fh(rp, l->k, c->res_obj));
    if (c->res_sid != NR_NONE && rp->v4open != NULL) { /* a traced OPEN's */
        struct nr_v4sid *f = slot(rp, l->k, c->res_sid);

        f->owner = c->owner;
        f->share = c->share;
        open_result(rp, f, &call->res, call->epoch, r.has_fh ? &r.fh : NULL);
    }
    return 1;
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
    set_owner(&rp->v4sync.args, rp->v4owner, sizeof(rp->v4owner), k, owner, share);
    rc = sync4(rp, cl);
    /* a failed OPEN is counted; the calls of its stateid then go with the
     * stateid it did not get, and their statuses say what the server
     * thought */
    open_result(rp, f, rc == 0 ? &rp->v4sync.res : NULL, rp->v4sync.epoch, fh);
    return rc == -ENOTCONN ? rc : 0;
}

int nr_call4_open(struct nr_replay *rp, const struct nr_live *l)
{
    struct nf4_client *cl = client(rp);
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
            k->locker.locker4_u.open_owner.open_stateid = *sid_of(rp, l->k, c->sid);
            k->locker.locker4_u.open_owner.lock_owner.owner.owner_len =
                (u_int)strlen(rp->v4owner);
            k->locker.locker4_u.open_owner.lock_owner.owner.owner_val = rp->v4owner;
            cp->nopen++; /* the lock owner's client id: the client's */
        } else {
            k->locker.locker4_u.lock_owner.lock_stateid = *sid_of(rp, l->k, c->sid);
        }
    } else if (c->v4 == NR_V4_LOCKU) {
        a->nfs_argop4_u.oplocku.locktype = (nfs_lock_type4)c->how;
        a->nfs_argop4_u.oplocku.lock_stateid = *sid_of(rp, l->k, c->sid);
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
    }
    return 0;
}

int nr_call4_state(struct nr_replay *rp, const struct nr_live *l)
{
    struct nf4_client *cl = client(rp);
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
        return open_fh(rp, cl, f, &h, l->k, l->c.owner, l->c.share);
    }
    return 0;
}

void nr_call4_close_all(struct nr_replay *rp)
{
    struct nf4_client *cl = client(rp);
    uint32_t n = rp->v4open ? rp->plan->nsids : 0, k, i;
    stateid4 sid;

    for (k = 0; cl && k < rp->ncopies; k++)
        for (i = 0; i < n; i++) {
            struct nr_v4sid *f = slot(rp, k, i);

            if (f->lock) /* a lock's: gone with its open's CLOSE */
                continue;
            if (!nf4_open_leave(&rp->v4counts, &f->o, nf4_client_epoch(cl), &sid))
                continue;
            if (close_one(rp, cl, f, &sid) == -ENOTCONN)
                return; /* the client is gone: its opens with it */
        }
}

int nr_call4_wait(struct nr_replay *rp, uint64_t now, uint64_t wake)
{
    struct nf_session *ses = &rp->cx.ses;
    const struct nf_proto *p = ses->proto;
    int rev =
        rb_wait_fd(&rp->loop, p->fd(ses), p->events(ses), p->next_ms(ses), now, wake);

    return rev < 0 ? rev : p->service(ses, (short)rev);
}
