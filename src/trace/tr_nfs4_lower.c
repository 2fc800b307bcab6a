/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs4_lower.c - an operation of an NFSv4 COMPOUND as the NFSv3-shaped
 * event of the same SFS op (tr_nfs4_op_event), so that what learns from v3
 * events - the file-system image, the miss-ratio curve - learns from v4
 * traffic with no second copy of its rules.
 *
 * The handles come from the COMPOUND's filehandle flow (tr_nfs4_flow.c):
 * RENAME's source directory and LINK's file are the saved handle, their
 * target directory the current one, as v3's fh and fh2 put them.  v4
 * replies carry no wcc data and no post-operation attributes of their
 * own: a GETATTR of the same COMPOUND on the same handle stands for them
 * (after the operation: its post-operation attributes - of the object a
 * LOOKUP, OPEN or CREATE made current; before it: WRITE's and SETATTR's
 * pre-operation size).  An operation the reply shows did not run (an
 * earlier one failed) has no event: it changed nothing.
 */
#include <stddef.h>
#include <string.h>

#include "trace/tr_nfs_int.h"

/* The attributes a successful GETATTR of the COMPOUND showed of handle id,
 * after operation i (after = 1) or before it. */
static int getattr_of(const struct tr_nfs4_compound *c, uint32_t i, uint32_t id,
                      int after, struct tr_nfs_attr *out)
{
    uint32_t j;

    if (!id)
        return 0;
    if (after) {
        for (j = i + 1; j < c->nops; j++) {
            const struct tr_nfs4_op *g = &c->ops[j];
            if (g->op == OP_GETATTR && g->fh_id == id && (g->flags & TR_NFS4_O_RES) &&
                g->status == NFS4_OK) {
                *out = g->attr;
                return 1;
            }
        }
        return 0;
    }
    for (j = i; j-- > 0;) {
        const struct tr_nfs4_op *g = &c->ops[j];
        if (g->op == OP_GETATTR && g->fh_id == id && (g->flags & TR_NFS4_O_RES) &&
            g->status == NFS4_OK) {
            *out = g->attr;
            return 1;
        }
    }
    return 0;
}

static void handle(struct nf_fh *out, const struct tr_nfs4_op *op, uint32_t flag,
                   const struct nf_fh *fh)
{
    if (op->flags & flag)
        *out = *fh;
    else
        out->len = 0;
}

/* The v3 CREATE's mode of OPEN's createmode4. */
static uint32_t create_how(uint32_t how)
{
    return how == UNCHECKED4 ? 0 : how == GUARDED4 ? 1 : 2;
}

/* The SFS op of operation op, with what it sets beyond the common fields;
 * -1 when it has none. */
static int as_v3(const struct tr_nfs4_compound *c, uint32_t i, struct tr_nfs_event *o)
{
    const struct tr_nfs4_op *op = &c->ops[i];
    struct tr_nfs_attr pre;

    switch (op->op) {
    case OP_LOOKUP:
        getattr_of(c, i, op->res_fh_id, 1, &o->attr);
        getattr_of(c, i, op->fh_id, 1, &o->dir_attr);
        return NF_OP_LOOKUP;
    case OP_OPEN:
        if (op->claim != CLAIM_NULL && op->claim != CLAIM_DELEGATE_CUR &&
            op->claim != CLAIM_DELEGATE_PREV)
            return -1; /* by handle: no name */
        getattr_of(c, i, op->res_fh_id, 1, &o->attr);
        if (op->how == TR_NFS4_NOCREATE)
            return NF_OP_LOOKUP;
        o->stable = create_how(op->how);
        o->sattr = op->sattr;
        return NF_OP_CREATE;
    case OP_CREATE:
        getattr_of(c, i, op->res_fh_id, 1, &o->attr);
        getattr_of(c, i, op->fh_id, 1, &o->dir_attr);
        o->sattr = op->sattr;
        switch (op->how) {
        case NF4DIR:
            return NF_OP_MKDIR;
        case NF4LNK:
            o->text = op->text;
            return NF_OP_SYMLINK;
        case NF4BLK:
        case NF4CHR:
        case NF4SOCK:
        case NF4FIFO:
            o->sattr.type = (enum tr_nfs_ftype)op->how;
            o->sattr.have |= TR_NFS_A_TYPE;
            return NF_OP_MKNOD;
        default:
            return -1;
        }
    case OP_REMOVE:
        getattr_of(c, i, op->fh_id, 1, &o->dir_attr);
        return NF_OP_REMOVE;
    case OP_RENAME:
        /* v3's fh is the source directory: v4's saved handle */
        handle(&o->fh, op, TR_NFS4_O_FH2, &op->fh2);
        handle(&o->fh2, op, TR_NFS4_O_FH, &op->fh);
        o->name2 = op->name2;
        getattr_of(c, i, op->fh2_id, 1, &o->dir_attr);
        return NF_OP_RENAME;
    case OP_LINK:
        /* v3's fh is the file (v4's saved handle), fh2 the directory */
        handle(&o->fh, op, TR_NFS4_O_FH2, &op->fh2);
        handle(&o->fh2, op, TR_NFS4_O_FH, &op->fh);
        o->name = NULL;
        o->name2 = op->name;
        getattr_of(c, i, op->fh2_id, 1, &o->attr);
        getattr_of(c, i, op->fh_id, 1, &o->dir_attr);
        return NF_OP_LINK;
    case OP_READ:
    case OP_READ_PLUS: /* 4.2: data and holes, the bytes they cover */
        o->offset = op->offset;
        o->count = op->count;
        o->res_count = op->res_count;
        o->eof = op->eof;
        getattr_of(c, i, op->fh_id, 1, &o->attr);
        return NF_OP_READ;
    case OP_WRITE:
        o->offset = op->offset;
        o->count = op->count;
        o->stable = op->how;
        o->res_count = op->res_count;
        o->committed = op->res_how;
        getattr_of(c, i, op->fh_id, 1, &o->attr);
        if (getattr_of(c, i, op->fh_id, 0, &pre) && (pre.have & TR_NFS_A_SIZE)) {
            o->pre.have = TR_NFS_A_SIZE;
            o->pre.size = pre.size;
        }
        return NF_OP_WRITE;
    case OP_COMMIT:
        o->offset = op->offset;
        o->count = op->count;
        return NF_OP_COMMIT;
    case OP_SETATTR:
        o->sattr = op->sattr;
        getattr_of(c, i, op->fh_id, 1, &o->attr);
        if (getattr_of(c, i, op->fh_id, 0, &pre) && (pre.have & TR_NFS_A_SIZE)) {
            o->pre.have = TR_NFS_A_SIZE;
            o->pre.size = pre.size;
        }
        return NF_OP_SETATTR;
    case OP_GETATTR:
        o->attr = op->attr;
        return NF_OP_GETATTR;
    case OP_ACCESS:
        o->access = op->how;
        o->res_access = op->res_how;
        return NF_OP_ACCESS;
    case OP_READDIR:
        o->offset = op->offset;
        o->count = op->count;
        o->eof = op->eof;
        o->entries = op->entries;
        o->nentries = op->nentries;
        return NF_OP_READDIRPLUS;
    case OP_READLINK:
        o->text = op->text;
        return NF_OP_READLINK;
    default:
        return -1;
    }
}

int tr_nfs4_op_event(const struct tr_nfs_event *ev, uint32_t i, struct tr_nfs_event *out)
{
    const struct tr_nfs4_compound *c = ev->v4;
    const struct tr_nfs4_op *op;
    int reply = (ev->flags & TR_NFS_F_REPLY) && ev->rpc_status == TR_NFS_RPC_SUCCESS;
    int sfs_op;

    if (!c || i >= c->nops)
        return 0;
    op = &c->ops[i];
    if (!(op->flags & TR_NFS4_O_ARGS) || ((ev->flags & TR_NFS_F_REPLY) && !reply) ||
        (reply && !(op->flags & TR_NFS4_O_RES)))
        return 0; /* its arguments unknown, or it did not run */
    *out = *ev;
    memset(&out->fh, 0, sizeof(*out) - offsetof(struct tr_nfs_event, fh));
    out->rpc_status = ev->rpc_status;
    out->flags = ev->flags & (TR_NFS_F_REPLY | TR_NFS_F_RETRANS);
    if (op->flags & TR_NFS4_O_CUT)
        out->flags |= TR_NFS_F_CALL_CUT;
    if (op->flags & TR_NFS4_O_DATA_CUT)
        out->flags |= TR_NFS_F_DATA_CUT;
    out->proc = op->op;
    handle(&out->fh, op, TR_NFS4_O_FH, &op->fh);
    handle(&out->res_fh, op, TR_NFS4_O_RES_FH, &op->res_fh);
    out->name = op->name;
    out->status = reply ? op->status : 0;
    if (op->op == OP_PUTROOTFH) {
        /* the server's root, as the MNT of "/" (no MOUNT in v4) */
        if (!reply || op->status != NFS4_OK || !(op->flags & TR_NFS4_O_RES_FH))
            return 0;
        out->prog = TR_NFS_PROG_MOUNT;
        out->vers = 3;
        out->proc = MOUNTPROC3_MNT;
        out->op = NF_OP_MOUNT;
        out->text = "/";
        out->fh.len = 0;
        return 1;
    }
    sfs_op = as_v3(c, i, out);
    if (sfs_op < 0)
        return 0;
    out->op = sfs_op;
    return 1;
}

int tr_nfs_each_v3(const struct tr_nfs_event *ev,
                   int (*fn)(void *data, const struct tr_nfs_event *ev), void *data)
{
    struct tr_nfs_event op;
    uint32_t i;
    int rc;

    if (!ev->v4)
        return ev->prog == TR_NFS_PROG_NFS && ev->vers == 4 ? 0 : fn(data, ev);
    for (i = 0; i < ev->v4->nops; i++)
        if (tr_nfs4_op_event(ev, i, &op) && (rc = fn(data, &op)) < 0)
            return rc;
    return 0;
}
