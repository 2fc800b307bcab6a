/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * call.c - one traced call as the NFS trace replay sends it (nr.h): its
 * arguments in NFSv3 or NFSv2 from the struct nr_call and the handles the
 * replay knows, READ and WRITE cut to the server's maxima, the credential
 * the replay's own (the traced one is not sent); the reply decoded no
 * further than its status, except for the handle a LOOKUP, CREATE, MKDIR,
 * SYMLINK or MKNOD reply names, which is decoded into the slot; then
 * accounted: the per-op table, the traced server's response time, and the
 * status against the traced one (a mismatch by op and pair of classes,
 * the first few kept for the report).  Nothing here allocates.
 */
#include <errno.h>
#include <string.h>

#include "common/hist.h"
#include "common/clock.h"
#include "nreplay/nr_int.h"

/* ---- arguments ------------------------------------------------------------ */

int nr_call_ready(const struct nr_replay *rp, const struct nr_live *l)
{
    const struct nr_call *c = &l->c;

    return (c->obj == NR_NONE || nr_fh(rp, l->k, c->obj)->len > 0) &&
           (c->obj2 == NR_NONE || nr_fh(rp, l->k, c->obj2)->len > 0);
}

/* What the traced SETATTR, CREATE, MKDIR, SYMLINK or MKNOD set. */
static void sattr_of(const struct nr_call *c, struct nf_sattr *a)
{
    memset(a, 0, sizeof(*a));
    a->set = c->sattr;
    a->mode = c->mode;
    a->uid = c->uid;
    a->gid = c->gid;
    a->size = c->size;
}

static void sattr3_of(const struct nr_call *c, sattr3 *a)
{
    struct nf_sattr s;

    sattr_of(c, &s);
    nf_sattr_to_v3(&s, a);
}

static void sattr2_of(const struct nr_call *c, sattr *a)
{
    struct nf_sattr s;

    sattr_of(c, &s);
    nf_sattr_to_v2(&s, a);
}

uint32_t nr_call_pieces(const struct nr_replay *rp, const struct nr_call *c)
{
    uint32_t max = c->op == NF_OP_READ ? rp->rtmax : rp->wtmax;

    if ((c->op != NF_OP_READ && c->op != NF_OP_WRITE) || c->count <= max)
        return 1;
    return (c->count + max - 1) / max;
}

/* Piece `piece` of a READ or WRITE: its offset and count. */
static uint32_t piece_of(const struct rb_slot *s, const struct nr_call *c, uint32_t max,
                         uint64_t *off)
{
    uint64_t done = (uint64_t)s->piece * max;
    uint64_t left = c->count > done ? c->count - done : 0;

    *off = c->offset + done;
    return (uint32_t)(left < max ? left : max);
}

static void args3(struct nr_replay *rp, struct rb_slot *s, const struct nr_live *l)
{
    const struct nr_call *c = &l->c;
    union nf3_args *a = &s->args.a3;
    const struct nf_fh *fh = c->obj != NR_NONE ? nr_fh(rp, l->k, c->obj) : NULL;
    const struct nf_fh *fh2 = c->obj2 != NR_NONE ? nr_fh(rp, l->k, c->obj2) : NULL;
    char *name = (char *)c->name;
    char *name2 = (char *)c->name2;
    uint64_t off;

    memset(a, 0, sizeof(*a));
    s->count = 0;
    switch (c->op) {
    case NF_OP_NULL_OP:
        break;
    case NF_OP_GETATTR:
    case NF_OP_FSSTAT:
    case NF_OP_FSINFO:
    case NF_OP_PATHCONF:
    case NF_OP_READLINK: /* every one of them: one handle */
        nf_fh_to_v3(fh, &a->getattr.object);
        break;
    case NF_OP_SETATTR:
        nf_fh_to_v3(fh, &a->setattr.object);
        sattr3_of(c, &a->setattr.new_attributes);
        break;
    case NF_OP_LOOKUP:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR: /* diropargs3 */
        nf_fh_to_v3(fh, &a->lookup.what.dir);
        a->lookup.what.name = name;
        break;
    case NF_OP_ACCESS:
        nf_fh_to_v3(fh, &a->access.object);
        a->access.access = c->access;
        break;
    case NF_OP_READ:
        nf_fh_to_v3(fh, &a->read.file);
        a->read.count = s->count = piece_of(s, c, rp->rtmax, &off);
        a->read.offset = off;
        break;
    case NF_OP_WRITE:
        nf_fh_to_v3(fh, &a->write.file);
        a->write.count = s->count = piece_of(s, c, rp->wtmax, &off);
        a->write.offset = off;
        a->write.stable = c->how <= FILE_SYNC ? (stable_how)c->how : FILE_SYNC;
        a->write.data.data_len = s->count;
        a->write.data.data_val = rp->win.wdata;
        break;
    case NF_OP_CREATE:
        nf_fh_to_v3(fh, &a->create.where.dir);
        a->create.where.name = name;
        a->create.how.mode = c->how <= EXCLUSIVE ? (createmode3)c->how : UNCHECKED;
        if (a->create.how.mode == EXCLUSIVE)
            memcpy(a->create.how.createhow3_u.verf, &l->i,
                   sizeof(l->i)); /* a verifier of its own per call */
        else
            sattr3_of(c, &a->create.how.createhow3_u.obj_attributes);
        break;
    case NF_OP_MKDIR:
        nf_fh_to_v3(fh, &a->mkdir.where.dir);
        a->mkdir.where.name = name;
        sattr3_of(c, &a->mkdir.attributes);
        break;
    case NF_OP_SYMLINK:
        nf_fh_to_v3(fh, &a->symlink.where.dir);
        a->symlink.where.name = name;
        sattr3_of(c, &a->symlink.symlink.symlink_attributes);
        a->symlink.symlink.symlink_data = (char *)(c->text ? c->text : "");
        break;
    case NF_OP_MKNOD:
        nf_fh_to_v3(fh, &a->mknod.where.dir);
        a->mknod.where.name = name;
        a->mknod.what.type = c->ftype ? (ftype3)c->ftype : NF3FIFO;
        if (a->mknod.what.type == NF3CHR || a->mknod.what.type == NF3BLK)
            sattr3_of(c, &a->mknod.what.mknoddata3_u.device.dev_attributes);
        else if (a->mknod.what.type == NF3FIFO || a->mknod.what.type == NF3SOCK)
            sattr3_of(c, &a->mknod.what.mknoddata3_u.pipe_attributes);
        break;
    case NF_OP_RENAME:
        nf_fh_to_v3(fh, &a->rename.from.dir);
        a->rename.from.name = name;
        nf_fh_to_v3(fh2, &a->rename.to.dir);
        a->rename.to.name = name2;
        break;
    case NF_OP_LINK:
        nf_fh_to_v3(fh, &a->link.file);
        nf_fh_to_v3(fh2, &a->link.link.dir);
        a->link.link.name = name2;
        break;
    case NF_OP_READDIR:
        nf_fh_to_v3(fh, &a->readdir.dir);
        a->readdir.count = c->count ? c->count : 4096;
        break;
    case NF_OP_READDIRPLUS:
        nf_fh_to_v3(fh, &a->readdirplus.dir);
        a->readdirplus.maxcount = c->count ? c->count : 4096;
        a->readdirplus.dircount = a->readdirplus.maxcount;
        break;
    case NF_OP_COMMIT:
        nf_fh_to_v3(fh, &a->commit.file);
        a->commit.offset = c->offset;
        a->commit.count = c->count;
        break;
    default:
        break;
    }
}

static void args2(struct nr_replay *rp, struct rb_slot *s, const struct nr_live *l)
{
    const struct nr_call *c = &l->c;
    union nf2_args *a = &s->args.a2;
    const struct nf_fh *fh = c->obj != NR_NONE ? nr_fh(rp, l->k, c->obj) : NULL;
    const struct nf_fh *fh2 = c->obj2 != NR_NONE ? nr_fh(rp, l->k, c->obj2) : NULL;
    char *name = (char *)c->name;
    char *name2 = (char *)c->name2;
    uint64_t off;

    memset(a, 0, sizeof(*a));
    s->count = 0;
    switch (c->op) {
    case NF_OP_NULL_OP:
        break;
    case NF_OP_GETATTR:
    case NF_OP_READLINK:
    case NF_OP_FSSTAT: /* one handle */
        (void)nf_fh_to_v2(fh, &a->getattr);
        break;
    case NF_OP_SETATTR:
        (void)nf_fh_to_v2(fh, &a->setattr.file);
        sattr2_of(c, &a->setattr.attributes);
        break;
    case NF_OP_LOOKUP:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR: /* diropargs */
        (void)nf_fh_to_v2(fh, &a->lookup.dir);
        a->lookup.name = name;
        break;
    case NF_OP_READ:
        (void)nf_fh_to_v2(fh, &a->read.file);
        a->read.count = a->read.totalcount = s->count = piece_of(s, c, rp->rtmax, &off);
        a->read.offset = (u_int)off;
        break;
    case NF_OP_WRITE:
        (void)nf_fh_to_v2(fh, &a->write.file);
        a->write.totalcount = s->count = piece_of(s, c, rp->wtmax, &off);
        a->write.beginoffset = a->write.offset = (u_int)off;
        a->write.data.data_len = s->count;
        a->write.data.data_val = rp->win.wdata;
        break;
    case NF_OP_CREATE:
    case NF_OP_MKDIR: /* createargs */
        (void)nf_fh_to_v2(fh, &a->create.where.dir);
        a->create.where.name = name;
        sattr2_of(c, &a->create.attributes);
        break;
    case NF_OP_SYMLINK:
        (void)nf_fh_to_v2(fh, &a->symlink.from.dir);
        a->symlink.from.name = name;
        a->symlink.to = (char *)(c->text ? c->text : "");
        sattr2_of(c, &a->symlink.attributes);
        break;
    case NF_OP_RENAME:
        (void)nf_fh_to_v2(fh, &a->rename.from.dir);
        a->rename.from.name = name;
        (void)nf_fh_to_v2(fh2, &a->rename.to.dir);
        a->rename.to.name = name2;
        break;
    case NF_OP_LINK:
        (void)nf_fh_to_v2(fh, &a->link.from);
        (void)nf_fh_to_v2(fh2, &a->link.to.dir);
        a->link.to.name = name2;
        break;
    case NF_OP_READDIR:
        (void)nf_fh_to_v2(fh, &a->readdir.dir);
        a->readdir.count = c->count ? c->count : 4096;
        break;
    default:
        break;
    }
}

int nr_call_start(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                  rp_done_fn done)
{
    const struct nr_live *l = &rp->live[ref];
    const struct nr_call *c = &l->c;
    struct ld_stats *st = &rp->cx.stats;
    int rc;

    s->tag = ref;
    s->piece = piece;
    s->op = c->op;
    if (rp->version == 4)
        return nr_call4_start(rp, s, ref, piece, done);
    if (rp->version == 3)
        args3(rp, s, l);
    else
        args2(rp, s, l);
    rc = rb_slot_start(s, rp->cx.ses.rpc, rp->version, c->proc, NF_RES_STATUS_ONLY, done);
    if (rc < 0 && rc != -ENOTCONN) /* a broken client: not sent, the run ends */
        ld_stats_bad(st, c->op);
    return rc;
}

/* ---- accounting -------------------------------------------------------------- */

/* The handle a reply names, for the object the traced reply named. */
static void take_handle(struct nr_replay *rp, struct rb_slot *s, const struct nr_live *l)
{
    if (l->c.res_obj != NR_NONE)
        (void)nf_res_handle(&s->res, rp->version, l->c.op, nr_fh(rp, l->k, l->c.res_obj));
}

int nr_call_account(struct rb_slot *s)
{
    struct rp_call *call = &s->call;
    struct nr_replay *rp = s->owner;
    const struct nr_live *l = &rp->live[s->tag];
    const struct nr_call *c = &l->c;
    struct ld_stats *st = &rp->cx.stats;

    if (rp->version == 4 && c->op != NF_OP_NULL_OP) /* a compound (NULL is an RPC here) */
        return nr_call4_account(s);

    if (call->sends == 0 && call->status != 0) /* never left this host */
        return 0;
    RB_STATS(&rp->cx)->replay_calls++; /* an RPC the transport took */
    if (s->piece == 0)                 /* its pieces are one traced call */
        RB_STATS(&rp->cx)->replay_records++;
    if (c->op == NF_OP_READ)
        RB_STATS(&rp->cx)->replay_bytes_read += s->count;
    else if (c->op == NF_OP_WRITE)
        RB_STATS(&rp->cx)->replay_bytes_written += s->count;
    if (call->t_reply_ns == 0)
        NR_STATS(&rp->cx)->nr_unanswered++;
    if (call->retransmits > 0)
        LD_STATS_COUNT(st, c->op, retrans);
    NR_STATS(&rp->cx)->nr_resends += call->retransmits;
    if (call->status == 0) {
        uint32_t nfs = nf_call_nfs_status(call);
        uint64_t ns =
            call->t_reply_ns > call->t_send_ns ? call->t_reply_ns - call->t_send_ns : 0;

        if (ns > (uint64_t)call->timeout_ms * 1000000u) { /* a lost reply sent again */
            ld_stats_bad(st, c->op);
            LD_STATS_COUNT(st, c->op, late);
        } else {
            ld_stats_good(st, c->op, ns, nfs != 0);
        }
        if (nfs == NF_ST_STALE || nfs == NF_ST_BADHANDLE)
            st->stale++;
        nr__stale_run(rp, c, nfs, call->t_reply_ns ? call->t_reply_ns : cm_now_ns());
        if (c->status != NR_NO_REPLY && s->piece == 0) {
            cm_hist_add(&NR_STATS(&rp->cx)->nr_traced[c->op], c->rt_us);
            cm_hist_add(&NR_STATS(&rp->cx)->nr_traced[NF_OP_TOTAL], c->rt_us);
            NR_STATS(&rp->cx)->nr_traced_us[c->op] += c->rt_us;
            NR_STATS(&rp->cx)->nr_traced_us[NF_OP_TOTAL] += c->rt_us;
        }
        if (s->piece == 0) /* its pieces are one traced call */
            nr__compare(rp, l, c->status, nfs);
        take_handle(rp, s, l);
        nf_call_free(call);
    } else {
        ld_stats_bad(st, c->op);
    }
    return 1;
}
