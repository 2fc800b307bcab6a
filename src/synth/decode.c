/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * decode.c - result codecs for the hot path (sy_int.h: sy_decode_codec).
 * rpcgen's decoders put READ data, LOOKUP3's handle and READDIR(PLUS)
 * entry lists into malloc'd memory; these decode the same wire format into
 * the call's biod slot instead (READ data into its buffer, a handle into
 * its idle buffer, directory entries read over), so that no call on the
 * hot path allocates.  Everything else keeps rpcgen's codec.
 */
#include <stddef.h>

#include "synth/sy_int.h"

/* The slot a result lives in (res is a member of struct sy_slot). */
static struct sy_slot *slot_of(void *res)
{
    return (struct sy_slot *)((char *)res - offsetof(struct sy_slot, res));
}

/* xdr_READ3res and xdr_readres decoding the data into the slot's buffer
 * (a READ reply is the one large result on the hot path). */
static bool_t xdr_read3_slot(XDR *x, READ3res *r)
{
    return nf_xdr_read3_into(x, r, slot_of(r)->rbuf, SY_RBUF_BYTES);
}

static bool_t xdr_read2_slot(XDR *x, readres *r)
{
    return nf_xdr_read2_into(x, r, slot_of(r)->rbuf, SY_RBUF_BYTES);
}

/* LOOKUP3's handle: xdr_bytes decodes into a buffer it is given, so the
 * slot's (idle: this is no READ) buffer takes it instead of malloc'd memory;
 * the handle is copied into the file table before the slot is reused. */
static bool_t xdr_lookup3_slot(XDR *x, LOOKUP3res *r)
{
    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op == XDR_DECODE)
        r->LOOKUP3res_u.resok.object.data.data_val = slot_of(r)->rbuf;
    return xdr_LOOKUP3res(x, r);
}

/* A name or handle of a directory entry, read over (into the slot's idle
 * buffer): nothing looks at readdir entries. */
static bool_t skip_opaque(XDR *x, struct sy_slot *s)
{
    u_int len;

    return xdr_u_int(x, &len) && len <= SY_RBUF_BYTES && xdr_opaque(x, s->rbuf, len);
}

/* The entry list of READDIR3 (plus = 0) or READDIRPLUS3, read over instead
 * of decoded into a malloc'd list; ends because every entry consumes
 * reply bytes. */
static bool_t skip_entries3(XDR *x, struct sy_slot *s, int plus)
{
    bool_t more;
    fileid3 id;
    cookie3 cookie;
    post_op_attr attr;
    bool_t fh_follows;

    if (!xdr_bool(x, &more))
        return FALSE;
    while (more) {
        if (!xdr_fileid3(x, &id) || !skip_opaque(x, s) || !xdr_cookie3(x, &cookie))
            return FALSE;
        if (plus && (!xdr_post_op_attr(x, &attr) || !xdr_bool(x, &fh_follows) ||
                     (fh_follows && !skip_opaque(x, s))))
            return FALSE;
        if (!xdr_bool(x, &more))
            return FALSE;
    }
    return TRUE;
}

/* The fields of READDIR3res and READDIRPLUS3res a decode fills (the two
 * differ only in their entries, which are read over). */
struct dir3_fields {
    nfsstat3 *status;
    post_op_attr *fail_attr;
    post_op_attr *ok_attr;
    char *verf;
    bool_t *eof;
};

static bool_t dir3_slot(XDR *x, const struct dir3_fields *d, struct sy_slot *s, int plus)
{
    if (!xdr_nfsstat3(x, d->status))
        return FALSE;
    if (*d->status != NFS3_OK)
        return xdr_post_op_attr(x, d->fail_attr);
    return xdr_post_op_attr(x, d->ok_attr) && xdr_cookieverf3(x, d->verf) &&
           skip_entries3(x, s, plus) && xdr_bool(x, d->eof);
}

/* READDIR3res with its entries read over (entries stays NULL). */
static bool_t xdr_readdir3_slot(XDR *x, READDIR3res *r)
{
    READDIR3resok *ok = &r->READDIR3res_u.resok;
    const struct dir3_fields d = {&r->status, &r->READDIR3res_u.resfail.dir_attributes,
                                  &ok->dir_attributes, ok->cookieverf, &ok->reply.eof};

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READDIR3res(x, r);
    return dir3_slot(x, &d, slot_of(r), 0);
}

/* The same for READDIRPLUS3res. */
static bool_t xdr_readdirplus3_slot(XDR *x, READDIRPLUS3res *r)
{
    READDIRPLUS3resok *ok = &r->READDIRPLUS3res_u.resok;
    const struct dir3_fields d = {&r->status,
                                  &r->READDIRPLUS3res_u.resfail.dir_attributes,
                                  &ok->dir_attributes, ok->cookieverf, &ok->reply.eof};

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READDIRPLUS3res(x, r);
    return dir3_slot(x, &d, slot_of(r), 1);
}

/* The v2 readdirres: entries are fileid, name, 4-byte cookie. */
static bool_t xdr_readdir2_slot(XDR *x, readdirres *r)
{
    bool_t more;
    u_int id;
    nfscookie cookie;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_readdirres(x, r);
    if (!xdr_nfsstat(x, &r->status))
        return FALSE;
    if (r->status != NFS_OK)
        return TRUE;
    if (!xdr_bool(x, &more))
        return FALSE;
    while (more)
        if (!xdr_u_int(x, &id) || !skip_opaque(x, slot_of(r)) ||
            !xdr_nfscookie(x, cookie) || !xdr_bool(x, &more))
            return FALSE;
    return xdr_bool(x, &r->readdirres_u.reply.eof);
}

/* The results on the hot path that rpcgen's codecs would decode into
 * malloc'd memory get the codecs above instead; the rest keep theirs. */
xdrproc_t sy_decode_codec(int op, int version, xdrproc_t dflt)
{
    switch (op) {
    case NF_OP_READ:
        return version == 3 ? (xdrproc_t)xdr_read3_slot : (xdrproc_t)xdr_read2_slot;
    case NF_OP_LOOKUP:
        return version == 3 ? (xdrproc_t)xdr_lookup3_slot : dflt;
    case NF_OP_READDIR:
        return version == 3 ? (xdrproc_t)xdr_readdir3_slot : (xdrproc_t)xdr_readdir2_slot;
    case NF_OP_READDIRPLUS:
        return (xdrproc_t)xdr_readdirplus3_slot;
    default:
        return dflt;
    }
}
