/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs4_flow.c - an NFSv4 COMPOUND made whole when its event leaves the
 * pairing: its strings and READDIR entries become pointers into the slot,
 * and the filehandle flow is followed through its operations (RFC 8881
 * section 16.2.3.1.1: the current and the saved filehandle).
 *
 * Each handle of a COMPOUND is named by the operation that made it the
 * current one (its id: that operation's index + 1).  PUTFH names one
 * whose bytes it carries; PUTROOTFH, PUTPUBFH, LOOKUP, LOOKUPP, CREATE,
 * OPENATTR and OPEN by name make one whose bytes only a later GETFH of
 * the same COMPOUND shows; OPEN by handle keeps the current one; SAVEFH
 * and RESTOREFH copy the current to the saved one and back; SECINFO and
 * SECINFO_NO_NAME consume it (RFC 8881 2.6.3.1.1.8).  An operation whose
 * result failed changed nothing.  A first pass gives every operation the
 * ids of its handles and lets each GETFH reveal its id's bytes; a second
 * copies the bytes every id has into the operations that name it.
 */
#include <string.h>

#include "trace/tr_nfs_int.h"

static const char *str(const struct tr__slot *s, uint32_t off)
{
    return off == TR__NOSTR ? NULL : s->arena + off;
}

/* 1 when the operation ran and failed: it changed no handle. */
static int failed(const struct tr_nfs4_op *op)
{
    return (op->flags & TR_NFS4_O_RES) && op->status != NFS4_OK;
}

/* The first pass: ids, and what each GETFH shows. */
static void ids(struct tr_nfs4_op *ops, uint32_t n)
{
    uint32_t cur = 0, saved = 0, i;

    for (i = 0; i < n; i++) {
        struct tr_nfs4_op *op = &ops[i];
        uint32_t next = cur;
        op->fh_id = cur;
        switch (op->op) {
        case OP_PUTFH: /* its fh is the one it puts */
            op->fh_id = i + 1;
            next = i + 1;
            break;
        case OP_PUTROOTFH:
        case OP_PUTPUBFH:
        case OP_LOOKUP:
        case OP_LOOKUPP:
        case OP_CREATE:
        case OP_OPENATTR:
            next = i + 1;
            break;
        case OP_OPEN:
            if (op->claim == CLAIM_NULL || op->claim == CLAIM_DELEGATE_CUR ||
                op->claim == CLAIM_DELEGATE_PREV)
                next = i + 1;
            break;
        case OP_SAVEFH:
            if (!failed(op))
                saved = cur;
            break;
        case OP_RESTOREFH:
            next = saved;
            break;
        case OP_RENAME:
        case OP_LINK:
            op->fh2_id = saved;
            break;
        case OP_GETFH:
            /* what GETFH shows is the current handle's bytes */
            if (cur && (op->flags & TR_NFS4_O_RES_FH) && !failed(op) &&
                !(ops[cur - 1].flags & TR_NFS4_O_RES_FH)) {
                ops[cur - 1].res_fh = op->res_fh;
                ops[cur - 1].flags |= TR_NFS4_O_RES_FH;
            }
            op->res_fh_id = cur;
            break;
        case OP_SECINFO:
        case OP_SECINFO_NO_NAME:
            if (!failed(op))
                next = 0;
            break;
        default:
            break;
        }
        if (failed(op))
            next = cur;
        if (next != cur && next)
            op->res_fh_id = next;
        cur = next;
    }
}

/* The bytes of handle id, when the COMPOUND shows them. */
static int bytes_of(const struct tr_nfs4_op *ops, uint32_t id, struct nf_fh *out)
{
    if (!id || !(ops[id - 1].flags & TR_NFS4_O_RES_FH))
        return 0;
    *out = ops[id - 1].res_fh;
    return 1;
}

/* The second pass: bytes into every operation that names a handle. */
static void handles(struct tr_nfs4_op *ops, uint32_t n)
{
    uint32_t i;

    for (i = 0; i < n; i++) {
        struct tr_nfs4_op *op = &ops[i];
        if (op->op != OP_PUTFH && bytes_of(ops, op->fh_id, &op->fh))
            op->flags |= TR_NFS4_O_FH;
        if (bytes_of(ops, op->fh2_id, &op->fh2))
            op->flags |= TR_NFS4_O_FH2;
        if (op->res_fh_id != i + 1 && bytes_of(ops, op->res_fh_id, &op->res_fh))
            op->flags |= TR_NFS4_O_RES_FH;
    }
}

void tr__nfs4_finish(struct tr__slot *s)
{
    struct tr_nfs4_compound *c = &s->c4;
    uint32_t i;

    for (i = 0; i < c->nops; i++) {
        struct tr_nfs4_op *op = &s->ops4[i];
        const struct tr__op4x *x = &s->ops4x[i];
        op->name = str(s, x->soff[TR__S4_NAME]);
        op->name2 = str(s, x->soff[TR__S4_NAME2]);
        op->text = str(s, x->soff[TR__S4_TEXT]);
        op->entries = op->nentries ? s->ents + x->ent0 : NULL;
        if ((op->flags & TR_NFS4_O_CLIENTID) && !(c->flags & TR_NFS4_C_CLIENTID)) {
            c->clientid = op->clientid;
            c->flags |= TR_NFS4_C_CLIENTID;
        }
    }
    ids(s->ops4, c->nops);
    handles(s->ops4, c->nops);
    c->tag = str(s, s->tag_off);
    c->ops = c->nops ? s->ops4 : NULL;
    s->ev.v4 = c;
    s->ev.entries = NULL;
    s->ev.nentries = 0;
}
