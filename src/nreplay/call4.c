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
 * The traced opens: a file is OPENed (CLAIM_FH) before the first READ or
 * WRITE of it in a copy that has no open of it, and the stateid that OPEN
 * names - or the one a replayed OPEN(CREATE) named, which stays open - is
 * the one every later READ, WRITE and SETATTR of the file goes with, as the
 * traced client's went with the stateid its OPEN had made; the opens are
 * CLOSEd at the end of the run.  One open per file and copy stands for the
 * traced stateids of that file (a trace with several open owners of one
 * file replays their I/O under one open).
 *
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

/* One slot's v4 call: the compound, its handles and arguments. */
struct nr_v4call {
    struct nf4_call call;
    struct nf4_fh fh, fh2;
    struct nf4_sfs_args args;
    rp_done_fn done; /* the replay's own completion (run.c), as for v2/v3 */
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

void *nr_call4_fstate(const struct nr_replay *rp, uint32_t k, uint32_t obj)
{
    return &((struct nf4_open *)rp->v4open)[(size_t)k * im_nobjs(rp->plan->img) + obj];
}

/* The stateid of the open of object obj in copy k, or the anonymous one. */
static const stateid4 *sid_of(const struct nr_replay *rp, uint32_t k, uint32_t obj)
{
    const stateid4 *sid = NULL;

    if (obj != NR_NONE && rp->v4open != NULL &&
        nf4_open_need(nr_call4_fstate(rp, k, obj), nf4_client_epoch(client(rp)), &sid) ==
            NF4_OPEN)
        return sid;
    return &anonymous;
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
        a->sid = sid_of(rp, l->k, c->obj);
        rp->v4counts.anonymous_io += a->sid == &anonymous && piece == 0;
        break;
    case NF_OP_WRITE:
        a->count = s->count = piece_of(piece, c, rp->wtmax, &off);
        a->offset = off;
        a->data = rp->win.wdata;
        a->stable = c->how != 0; /* DATA_SYNC4 and FILE_SYNC4 as FILE_SYNC4 */
        a->sid = sid_of(rp, l->k, c->obj);
        rp->v4counts.anonymous_io += a->sid == &anonymous && piece == 0;
        break;
    case NF_OP_SETATTR:
        a->sid = sid_of(rp, l->k, c->obj);
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
    rc = nf4_sfs_compound(&v->call.args, nf4_client_minor(cl), c->op, a);
    if (rc < 0)
        return rc;
    v->call.res.data = NULL; /* READ data, READLINK text, names: read over */
    v->call.res.data_max = 0;
    v->call.done = done4;
    v->done = done;
    v->call.data = s;
    v->call.timeout_ms = 0;
    return nf4_call_start(cl, &v->call);
}

/* A replayed OPEN(CREATE) made an open: the file's open in this copy. */
static void keep_created_open(struct nr_replay *rp, const struct nr_live *l,
                              const struct nf4_call *call)
{
    struct nf4_open *f;
    const stateid4 *sid;

    if (l->c.res_obj == NR_NONE || rp->v4open == NULL)
        return;
    f = nr_call4_fstate(rp, l->k, l->c.res_obj);
    if (nf4_open_need(f, nf4_client_epoch(client(rp)), &sid) != NF4_CLOSED)
        return; /* one open per file: the one it has (this one stays to the end) */
    nf4_open_sending(&rp->v4counts, f);
    (void)nf4_open_done(&rp->v4counts, f, &call->res, call->epoch);
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
    if (c->op == NF_OP_CREATE && r.status == 0)
        keep_created_open(rp, l, call);
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

int nr_call4_open(struct nr_replay *rp, const struct nr_live *l)
{
    struct nf4_client *cl = client(rp);
    struct nf4_fh h;
    struct nf4_open *f;
    const stateid4 *sid;
    int rc;

    if ((l->c.op != NF_OP_READ && l->c.op != NF_OP_WRITE) || l->c.obj == NR_NONE ||
        rp->v4open == NULL || cl == NULL)
        return 0;
    f = nr_call4_fstate(rp, l->k, l->c.obj);
    if (nf4_open_need(f, nf4_client_epoch(cl), &sid) != NF4_CLOSED)
        return 0;
    nf4_fh_from_nf(nr_fh(rp, l->k, l->c.obj), &h);
    /* PUTFH OPEN(CLAIM_FH): the open alone, no call the trace did not make
     * beside it (a Linux client's ACCESS and GETATTR would count as
     * calls) */
    nf4_compound_init(&rp->v4sync.args, 1, 0);
    nf4_op_putfh(&rp->v4sync.args, &h);
    if (nf4_op_open(&rp->v4sync.args, NULL, 0, NULL) == NULL)
        return 0;
    nf4_open_sending(&rp->v4counts, f);
    rc = sync4(rp, cl);
    /* a failed OPEN is counted; the file's I/O then goes with the
     * anonymous stateid, and its status says what the server thought */
    (void)nf4_open_done(&rp->v4counts, f, rc == 0 ? &rp->v4sync.res : NULL,
                        rp->v4sync.epoch);
    return rc == -ENOTCONN ? rc : 0;
}

void nr_call4_close_all(struct nr_replay *rp)
{
    struct nf4_client *cl = client(rp);
    uint32_t n = rp->v4open ? im_nobjs(rp->plan->img) : 0, k, obj;
    struct nf4_fh h;
    stateid4 sid;

    for (k = 0; cl && k < rp->ncopies; k++)
        for (obj = 0; obj < n; obj++) {
            if (!nf4_open_leave(&rp->v4counts, nr_call4_fstate(rp, k, obj),
                                nf4_client_epoch(cl), &sid))
                continue;
            nf4_fh_from_nf(nr_fh(rp, k, obj), &h);
            nf4_compound_init(&rp->v4sync.args, 1, 0); /* PUTFH CLOSE: no GETATTR */
            nf4_op_putfh(&rp->v4sync.args, &h);
            nf4_op_close(&rp->v4sync.args, &sid);
            if (sync4(rp, cl) == -ENOTCONN)
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
