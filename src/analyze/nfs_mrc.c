/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_mrc.c - an NFS trace's READs and WRITEs as the block references of
 * the miss-ratio analysis (mrc.c): each file handle is a unit, numbered
 * densely in order of first use by the trace layer's handle map, and a
 * READ or WRITE references every block of [offset, offset + length) of
 * its file.  The length of a READ is what its reply returned (a READ past
 * the end moves no data), or what it asked when the trace has no reply; a
 * WRITE's is the bytes it sent.  The key gives the unit 32 bits
 * (AZ_KEY_NFS_UNIT_BITS): a trace touches far more files than a block
 * trace has units.
 */
#include <errno.h>
#include <string.h>

#include "analyze/az_nfs.h"

int az_nfs_mrc_event(struct az_mrc *m, struct im_fhmap *units,
                     const struct tr_nfs_event *ev)
{
    struct tr_record rec;
    int64_t unit;

    memset(&rec, 0, sizeof(rec));
    if (ev->prog != TR_NFS_PROG_NFS || (ev->op != NF_OP_READ && ev->op != NF_OP_WRITE) ||
        ev->fh.len == 0) {
        rec.op = TR_OP_GETATTR; /* counted as another record */
        return az_mrc_record(m, &rec);
    }
    if (ev->op == NF_OP_READ && (ev->flags & TR_NFS_F_REPLY) &&
        (ev->rpc_status != TR_NFS_RPC_SUCCESS || ev->status != 0)) {
        rec.op = TR_OP_GETATTR; /* a failed READ moved nothing */
        return az_mrc_record(m, &rec);
    }
    if ((unit = im_fhmap_id(units, &ev->fh, 1, NULL)) < 0)
        return cm_errf(m->last_error, sizeof(m->last_error), "out of memory"), -ENOMEM;
    rec.unit = (uint32_t)unit;
    rec.t_ns = ev->t_ns;
    rec.op = ev->op == NF_OP_READ ? TR_OP_READ : TR_OP_WRITE;
    rec.offset = ev->offset;
    rec.length =
        ev->op == NF_OP_READ && (ev->flags & TR_NFS_F_REPLY) ? ev->res_count : ev->count;
    rec.line = (long)ev->where;
    return az_mrc_record(m, &rec);
}
