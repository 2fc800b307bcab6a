/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * call4.c - one traced call of an NFSv4 plan as the NFS trace replay sends
 * it (nr_int.h): through its traced client's NFSv4.1 client (clients4.c:
 * its own client id and session, a fore-channel slot per call of the
 * window; SEQUENCE, slots and seqids the client's, never the trace's),
 * each call the compound a
 * 4.1 client sends for its SFS op (nfs/v4_sfs.c: "PUTFH LOOKUP GETFH
 * GETATTR"...), the NULL procedure as itself.  The attributes a traced
 * SETATTR or CREATE set are set, no others.
 *
 * A traced OPEN by name is sent as an OPEN (PUTFH OPEN GETFH GETATTR,
 * OPEN(CREATE) with its create mode) with an open owner of its own per
 * traced one; the stateid its reply names, and the stateid each READ,
 * WRITE and SETATTR goes with, are the open state's (state4.c).

 * The reply is decoded by the client into the slot's call; its status
 * (nf.h's numbering) is compared with the traced nfsstat4 in the same
 * numbering (nf4_status_nf).  Nothing here allocates.
 */
#include <errno.h>
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
    rp_done_fn done;        /* the replay's own completion (run.c), as for v2/v3 */
    uint32_t sid_epoch;     /* the client's epoch of the open whose stateid a
                               READ, WRITE or SETATTR carries; NO_OPEN: none */
    uint8_t restate;        /* answered for a stateid a new client lost: to go
                               again (nr_call4_restates) */
    uint8_t restated;       /* ... and went again: how many times */
    uint64_t first_send_ns; /* a call sent again: its first send, its time's start */
};

#define NO_OPEN UINT32_MAX
/* A call goes again after a stale stateid at most this many times, each
 * after its client was made anew once more: a server that cuts leases
 * often cuts one again while the calls sent again are in flight. */
#define RESTATES_MAX 4u

static const stateid4 anonymous; /* all zeros (RFC 8881 8.2.3) */

size_t nr_call4_bytes(void)
{
    return sizeof(struct nr_v4call);
}

/* The stateid a call using the plan's slot sid goes with (state4.c), or
 * the anonymous one. */
static const stateid4 *sid_or_anonymous(const struct nr_replay *rp, uint32_t k,
                                        uint32_t sid)
{
    const stateid4 *s = nr_state4_sid(rp, k, sid);

    return s ? s : &anonymous;
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

/* Whether v's answered call is a READ, WRITE or SETATTR a client sends
 * again (as the mix does, nfs/proto4.c): STALE_STATEID (BAD_STATEID in
 * 4.1) or EXPIRED for the stateid of an open its client lost since (the
 * client was made anew after the call was built: a restarted server, a
 * lease run out), not sent again RESTATES_MAX times yet. */
static int stale_stateid(const struct nr_replay *rp, const struct nr_v4call *v,
                         struct nf4_client *cl)
{
    uint32_t st = v->call.res.status;

    return v->call.status == 0 && v->restated < RESTATES_MAX && !rp->closing &&
           cl != NULL &&
           (st == NFS4ERR_STALE_STATEID || st == NFS4ERR_BAD_STATEID ||
            st == NFS4ERR_EXPIRED) &&
           v->sid_epoch != NO_OPEN && v->sid_epoch != nf4_client_epoch(cl);
}

/* The compound's end goes to the replay's completion as a v2/v3 call's
 * does: its accounting comes back down here through nr_call_account; a
 * call answered for a lost open's stateid waits to go again instead (its
 * file's OPEN first: synchronous, so not from this callback). */
static void done4(struct nf4_call *call, void *data)
{
    struct rb_slot *s = data;
    struct nr_replay *rp = s->owner;
    struct nr_v4call *v = &((struct nr_v4call *)rp->v4calls)[s - rp->win.slot];
    const struct nr_live *l = &rp->live[s->tag];

    if (stale_stateid(rp, v, nr_client4(rp, l->k, l->c.stream))) {
        v->restate = 1;
        v->first_send_ns = call->rpc.t_send_ns;
        rp->v4restates++;
        return;
    }
    v->done(&call->rpc, s);
}

static int start4(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                  rp_done_fn done);

int nr_call4_start(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                   rp_done_fn done)
{
    struct nr_v4call *v = &((struct nr_v4call *)rp->v4calls)[s - rp->win.slot];

    v->restate = v->restated = 0;
    v->first_send_ns = 0;
    return start4(rp, s, ref, piece, done);
}

int nr_call4_restates(struct nr_replay *rp)
{
    struct nr_v4call *calls = rp->v4calls;
    uint32_t i, n = rp->window ? rp->window : 1;
    int rc;

    for (i = 0; rp->v4restates > 0 && i < n; i++) {
        struct nr_v4call *v = &calls[i];
        struct rb_slot *s = &rp->win.slot[i];

        if (!v->restate)
            continue;
        v->restate = 0;
        rp->v4restates--;
        v->restated++;
        /* the file's open again (unless another call's did it), then the
         * call with its stateid */
        rc = nr_state4_open(rp, &rp->live[s->tag]);
        if (rc == 0 && (rc = start4(rp, s, s->tag, s->piece, v->done)) == 0) {
            NR_STATS(&rp->cx)->nr_v4_stale_resends++;
            continue;
        }
        if (rc == -ENOTCONN)
            return rc;            /* the client is gone: the call waits with the others */
        v->done(&v->call.rpc, s); /* not sent again: the stale answer stands */
    }
    return 0;
}

/* Piece `piece` of live call ref on slot s (nr_call4_start). */
static int start4(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                  rp_done_fn done)
{
    const struct nr_live *l = &rp->live[ref];
    const struct nr_call *c = &l->c;
    struct nr_v4call *v = &((struct nr_v4call *)rp->v4calls)[s - rp->win.slot];
    struct nf4_sfs_args *a = &v->args;
    struct nf4_client *cl = nr_client4(rp, l->k, c->stream); /* the traced client's */
    uint64_t off;
    int rc;

    s->count = 0;
    if (cl == NULL)
        return -ENOTCONN;
    v->sid_epoch = c->op == NF_OP_READ || c->op == NF_OP_WRITE || c->op == NF_OP_SETATTR
                       ? nr_state4_epoch(rp, l->k, c->sid)
                       : NO_OPEN;
    if (c->op == NF_OP_NULL_OP) { /* the RPC NULL procedure, no compound */
        rp_call_prepare(&s->call, 0, (xdrproc_t)rp_xdr_void, NULL, (xdrproc_t)rp_xdr_void,
                        NULL, nf_class_timeout_ms(NF_CLASS_LOOKUP, 1), done, s);
        return rp_call_start(nf4_client_rpc(cl), &s->call);
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
        a->sid = sid_or_anonymous(rp, l->k, c->sid);
        rp->v4counts.anonymous_io += a->sid == &anonymous && piece == 0;
        break;
    case NF_OP_WRITE:
        a->count = s->count = piece_of(piece, c, rp->wtmax, &off);
        a->offset = off;
        a->data = rp->win.wdata;
        a->stable = c->how != 0; /* DATA_SYNC4 and FILE_SYNC4 as FILE_SYNC4 */
        a->sid = sid_or_anonymous(rp, l->k, c->sid);
        rp->v4counts.anonymous_io += a->sid == &anonymous && piece == 0;
        break;
    case NF_OP_SETATTR:
        a->sid = sid_or_anonymous(rp, l->k, c->sid);
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
        nr_state4_owner(&v->call.args, v->owner, sizeof(v->owner), l->k, c->owner,
                        c->share);
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
    NR_STATS(&rp->cx)->nr_resends += call->rpc.retransmits + call->resends + v->restated;
    if (call->status != 0) {
        ld_stats_bad(st, c->op);
        if (c->res_sid != NR_NONE) /* a traced OPEN's, with no reply */
            nr_state4_opened(rp, l, NULL, call->epoch, NULL);
        return 1;
    }
    nf4_sfs_result(&call->res, &r);
    {
        /* a call sent again after a stale stateid: from its first send */
        uint64_t from = v->first_send_ns ? v->first_send_ns : call->rpc.t_send_ns;
        uint64_t ns = call->rpc.t_reply_ns > from ? call->rpc.t_reply_ns - from : 0;

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
    if (c->res_sid != NR_NONE) /* a traced OPEN's: the stateid its slot maps to */
        nr_state4_opened(rp, l, &call->res, call->epoch, r.has_fh ? &r.fh : NULL);
    return 1;
}
