/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_kept.c - a compound sent again unchanged keeps its encoding
 * (nf4_compound_keep): rpcgen encodes it once, at its first send; every
 * later send copies those bytes and writes over the only fields the client
 * changes between sends, SEQUENCE's session, sequence id, slot, highest
 * slot and cachethis (RFC 8881 18.46: sessionid4 is 16 bytes of opaque,
 * the rest 32-bit words, the boolean one word).  The bytes are then what
 * rpcgen would have written for the same arguments; the unit tests compare
 * the two.
 */
#include <string.h>

#include "common/bytes.h"
#include "nfs/nf4_int.h"

void nf4__compound_kept(struct nf4_compound *c)
{
    const utf8str_cs *tag = &c->args.tag;
    XDR x;
    bool_t ok;

    if (!c->keep || c->kept_len)
        return;
    if (c->nopen) { /* the owner is the client's: it may change */
        c->keep = 0;
        return;
    }
    xdrmem_create(&x, c->kept, sizeof(c->kept), XDR_ENCODE);
    ok = xdr_COMPOUND4args(&x, &c->args);
    if (ok) {
        c->kept_len = xdr_getpos(&x);
        /* tag (length and padded bytes), minorversion, the array's
         * length, then op[0]'s number */
        c->kept_seq = 4u + RNDUP(tag->utf8string_len) + 4u + 4u + 4u;
    } else {
        c->keep = 0; /* longer than kept: encoded at every send */
    }
    xdr_destroy(&x);
}

bool_t nf4__xdr_compound(XDR *x, void *compound)
{
    struct nf4_compound *c = compound;
    const SEQUENCE4args *s;
    uint8_t *p;

    if (x->x_op != XDR_ENCODE || !c->kept_len ||
        !(p = (uint8_t *)xdr_inline(x, (int)c->kept_len)))
        return xdr_COMPOUND4args(x, &c->args);
    memcpy(p, c->kept, c->kept_len);
    if (c->nseq) {
        s = &c->op[0].nfs_argop4_u.opsequence;
        p += c->kept_seq;
        memcpy(p, s->sa_sessionid, NFS4_SESSIONID_SIZE);
        cm_be32_put(p + 16, s->sa_sequenceid);
        cm_be32_put(p + 20, s->sa_slotid);
        cm_be32_put(p + 24, s->sa_highest_slotid);
        cm_be32_put(p + 28, s->sa_cachethis ? 1u : 0u);
    }
    return TRUE;
}

void nf4_compound_keep(struct nf4_compound *c)
{
    c->keep = 1;
    c->kept_len = 0;
}
