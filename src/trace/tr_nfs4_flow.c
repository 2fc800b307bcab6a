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
 * result failed changed nothing.  A server's root keeps its handle: one a
 * GETFH showed after PUTROOTFH is remembered per server and stands for
 * every later PUTROOTFH to it that no GETFH follows; before any did, the
 * server's root key stands for it (TR_NFS4_O_ROOT_KEY).  A first pass gives every
 * operation the ids of its handles and lets each GETFH reveal its id's bytes; a second
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

static int same_ep(const struct tr__ep *a, const struct tr__ep *b)
{
    return a->fam == b->fam && a->len == b->len && a->port == b->port &&
           memcmp(a->a, b->a, sizeof(a->a)) == 0;
}

/* The key of a server's root whose handle the trace has not shown. */
static void root_key(const struct tr__ep *srv, struct nf_fh *out)
{
    static const uint8_t tag[5] = {0, 'R', 'O', 'O', 'T'};

    memcpy(out->data, tag, sizeof(tag));
    out->data[5] = srv->fam;
    memcpy(out->data + 6, srv->a, srv->len);
    out->data[6 + srv->len] = (uint8_t)(srv->port >> 8);
    out->data[7 + srv->len] = (uint8_t)srv->port;
    out->len = 8u + srv->len;
}

/* PUTROOTFH's handle: learnt from the COMPOUND's GETFH, or known from an
 * earlier one to the same server, or the server's root key. */
static void root_handle(struct tr__roots *r, const struct tr__ep *srv,
                        struct tr_nfs4_op *ops, uint32_t n)
{
    uint32_t i, k;

    for (i = 0; i < n; i++) {
        struct tr_nfs4_op *op = &ops[i];
        if (op->op != OP_PUTROOTFH || failed(op))
            continue;
        for (k = 0; k < r->n && !same_ep(&r->srv[k], srv); k++)
            ;
        if (op->flags & TR_NFS4_O_RES_FH) {
            if (k == r->n) {
                k = r->n < TR__ROOTS_MAX ? r->n++ : r->next;
                r->next = (r->next + 1) % TR__ROOTS_MAX;
                r->srv[k] = *srv;
            }
            r->fh[k] = op->res_fh;
        } else if (k < r->n) {
            op->res_fh = r->fh[k];
            op->flags |= TR_NFS4_O_RES_FH;
        } else {
            root_key(srv, &op->res_fh);
            op->flags |= TR_NFS4_O_RES_FH | TR_NFS4_O_ROOT_KEY;
        }
    }
}

void tr__nfs4_finish(struct tr__roots *roots, struct tr__slot *s)
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
        if ((op->flags & TR_NFS4_O_CLIENTID) && !(c->flags & TR_NFS4_C_CLIENTID) &&
            !(c->minor >= 1 && (op->flags & TR_NFS4_O_OWNER))) {
            /* 4.1 owners carry no client id of their own (RFC 8881
             * 18.16.3: the session's is theirs) */
            c->clientid = op->clientid;
            c->flags |= TR_NFS4_C_CLIENTID;
        }
    }
    ids(s->ops4, c->nops);
    root_handle(roots, &s->srv, s->ops4, c->nops);
    handles(s->ops4, c->nops);
    c->tag = str(s, s->tag_off);
    c->ops = c->nops ? s->ops4 : NULL;
    s->ev.v4 = c;
    s->ev.entries = NULL;
    s->ev.nentries = 0;
}
