/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * call.c - the NFS calls of one replayed record (docs/DECISIONS.md D11,
 * docs/TRACE_FORMATS.md 2.4, 3.7, 4.5): READ and WRITE split at the server's
 * maximum, a COMMIT after an UNSTABLE record's writes or for a MaStA sync,
 * CREATE or LOOKUP for a sysio open, GETATTR for fxstat.  Arguments point
 * into the slot, the handle tables and two buffers made before timing
 * starts; READ data and the handles of LOOKUP3/CREATE3 replies are decoded
 * into them (nf_res_codec), so that no call allocates.  Every finished call is accounted
 * in the child's per-op table.
 */
#include <stddef.h>
#include <string.h>

#include "replay/rl_int.h"

/* ---- arguments -------------------------------------------------------------- */

uint32_t rl_call_pieces(const struct rl_replay *rp, const struct rl_item *it)
{
    uint64_t max = it->kind == RL_K_READ ? rp->rtmax : rp->wtmax;

    if (it->kind != RL_K_READ && it->kind != RL_K_WRITE)
        return 1;
    return it->length == 0 ? 1 : (uint32_t)((it->length + max - 1) / max);
}

/* Byte range of READ/WRITE piece i. */
static void piece_range(const struct rl_replay *rp, const struct rl_item *it, uint32_t i,
                        uint64_t *off, uint32_t *count)
{
    uint64_t max = it->kind == RL_K_READ ? rp->rtmax : rp->wtmax;
    uint64_t done = (uint64_t)i * max,
             left = it->length - (done < it->length ? done : it->length);

    *off = it->offset + done;
    *count = (uint32_t)(left < max ? left : max);
}

uint32_t rl_call_bytes(const struct rl_replay *rp, const struct rl_item *it,
                       uint32_t piece)
{
    uint64_t off;
    uint32_t count;

    if (piece >= it->pieces || (it->kind != RL_K_READ && it->kind != RL_K_WRITE))
        return 0;
    piece_range(rp, it, piece, &off, &count);
    return count;
}

/* What a sysio open's CREATE sets: the traced mode (0644 when it had
 * none), and size 0 with O_TRUNC. */
static void open_sattr(const struct rl_item *it, struct nf_sattr *sa)
{
    nf_sattr_mode(sa, (it->mode & 07777) ? it->mode & 07777 : 0644);
    if (it->flags & TR_F_TRUNC) {
        sa->set |= NF_SA_SIZE;
        sa->size = 0;
    }
}

/* Fills s for the call; returns the procedure number and sets s->op. */
static uint32_t args3(struct rl_replay *rp, struct rb_slot *s, const struct rl_item *it,
                      uint32_t piece)
{
    union nf3_args *a = &s->args.a3;
    const struct nf_fh *fh = &rp->fh[it->unit];
    struct nf_sattr sa;
    uint64_t off;

    if (piece == it->pieces || it->kind == RL_K_COMMIT) { /* COMMIT */
        s->op = NF_OP_COMMIT;
        nf_fh_to_v3(fh, &a->commit.file);
        a->commit.offset = it->kind == RL_K_COMMIT ? 0 : it->offset;
        a->commit.count = it->kind == RL_K_COMMIT || it->length > UINT32_MAX
                              ? 0 /* to the end of the file */
                              : (count3)it->length;
        return NFSPROC3_COMMIT;
    }
    switch (it->kind) {
    case RL_K_READ:
        s->op = NF_OP_READ;
        piece_range(rp, it, piece, &off, &s->count);
        nf_fh_to_v3(fh, &a->read.file);
        a->read.offset = off;
        a->read.count = s->count;
        return NFSPROC3_READ;
    case RL_K_WRITE:
        s->op = NF_OP_WRITE;
        piece_range(rp, it, piece, &off, &s->count);
        nf_fh_to_v3(fh, &a->write.file);
        a->write.offset = off;
        a->write.count = s->count;
        a->write.stable = rp->unstable ? UNSTABLE : FILE_SYNC;
        a->write.data.data_len = s->count;
        a->write.data.data_val = rp->win.wdata;
        return NFSPROC3_WRITE;
    case RL_K_OPEN:
        if (!(it->flags & TR_F_CREATE)) {
            s->op = NF_OP_LOOKUP;
            nf_fh_to_v3(&rp->dirfh[it->unit], &a->lookup.what.dir);
            a->lookup.what.name = (char *)rp->leaf[it->unit];
            return NFSPROC3_LOOKUP;
        }
        s->op = NF_OP_CREATE;
        memset(&a->create, 0, sizeof(a->create));
        nf_fh_to_v3(&rp->dirfh[it->unit], &a->create.where.dir);
        a->create.where.name = (char *)rp->leaf[it->unit];
        a->create.how.mode = UNCHECKED;
        open_sattr(it, &sa);
        nf_sattr_to_v3(&sa, &a->create.how.createhow3_u.obj_attributes);
        return NFSPROC3_CREATE;
    default: /* RL_K_GETATTR */
        s->op = NF_OP_GETATTR;
        nf_fh_to_v3(fh, &a->getattr.object);
        return NFSPROC3_GETATTR;
    }
}

static uint32_t args2(struct rl_replay *rp, struct rb_slot *s, const struct rl_item *it,
                      uint32_t piece)
{
    union nf2_args *a = &s->args.a2;
    const struct nf_fh *fh = &rp->fh[it->unit];
    struct nf_sattr sa;
    uint64_t off;

    switch (it->kind) {
    case RL_K_READ:
        s->op = NF_OP_READ;
        piece_range(rp, it, piece, &off, &s->count);
        (void)nf_fh_to_v2(fh, &a->read.file);
        a->read.offset = (u_int)off; /* the plan refused records beyond 4 GiB */
        a->read.count = s->count;
        a->read.totalcount = s->count;
        return NFSPROC_READ;
    case RL_K_WRITE:
        s->op = NF_OP_WRITE;
        piece_range(rp, it, piece, &off, &s->count);
        (void)nf_fh_to_v2(fh, &a->write.file);
        a->write.beginoffset = a->write.offset = (u_int)off;
        a->write.totalcount = s->count;
        a->write.data.data_len = s->count;
        a->write.data.data_val = rp->win.wdata;
        return NFSPROC_WRITE;
    case RL_K_OPEN:
        if (!(it->flags & TR_F_CREATE)) {
            s->op = NF_OP_LOOKUP;
            (void)nf_fh_to_v2(&rp->dirfh[it->unit], &a->lookup.dir);
            a->lookup.name = (char *)rp->leaf[it->unit];
            return NFSPROC_LOOKUP;
        }
        s->op = NF_OP_CREATE;
        (void)nf_fh_to_v2(&rp->dirfh[it->unit], &a->create.where.dir);
        a->create.where.name = (char *)rp->leaf[it->unit];
        open_sattr(it, &sa);
        nf_sattr_to_v2(&sa, &a->create.attributes);
        return NFSPROC_CREATE;
    default: /* RL_K_GETATTR; v2 has no COMMIT: the run loop never asks */
        s->op = NF_OP_GETATTR;
        (void)nf_fh_to_v2(fh, &a->getattr);
        return NFSPROC_GETATTR;
    }
}

int rl_call_start(struct rl_replay *rp, struct rb_slot *s, struct rl_item *it,
                  uint32_t piece, rp_done_fn done)
{
    struct ld_stats *st = &rp->cx.stats;
    struct rb_stats *rs = RB_STATS(&rp->cx);
    uint32_t proc;
    int rc;

    s->count = 0;
    s->piece = piece;
    proc = rp->version == 3 ? args3(rp, s, it, piece) : args2(rp, s, it, piece);
    rc = rb_slot_start(s, rp->cx.ses.rpc, rp->version, proc, 0, done);
    if (rc < 0) {
        ld_stats_bad(st, s->op);
        return rc;
    }
    rs->replay_calls++;
    if (s->op == NF_OP_READ)
        rs->replay_bytes_read += s->count;
    else if (s->op == NF_OP_WRITE)
        rs->replay_bytes_written += s->count;
    /* Lateness of the record's own calls; a COMMIT after writes has no
     * planned time of its own (it waits for them by design). */
    if (rp->speed > 0 && piece < it->pieces) {
        uint64_t late =
            s->call.t_send_ns > it->planned_ns ? s->call.t_send_ns - it->planned_ns : 0;
        cm_hist_add(&rs->replay_late, late / 1000);
    }
    return 0;
}

void rl_call_account(struct rb_slot *s)
{
    struct rp_call *call = &s->call;
    struct rl_replay *rp = s->owner;
    struct ld_stats *st = &rp->cx.stats;

    ld_jukebox_count(&s->jb, st, s->op);
    if (call->status == 0) {
        uint32_t nfs = nf_call_nfs_status(call);

        /* from the first send to the final reply (a JUKEBOX's waits in) */
        ld_stats_good(st, s->op, ld_jukebox_elapsed_ns(&s->jb, call), nfs != 0);
        /* a LOOKUP or CREATE answer carries the file's handle: later
         * calls use it */
        (void)nf_res_handle(&s->res, rp->version, s->op, &rp->fh[rp->items[s->tag].unit]);
        nf_call_free(call);
    } else {
        ld_stats_bad(st, s->op);
    }
}
