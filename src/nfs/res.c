/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * res.c - results decoded into the caller's memory (nf.h, struct nf_res).
 * rpcgen's decoders put READ data, v3 file handles and READDIR(PLUS) entry
 * lists into malloc'd memory; a load generator's window must not allocate
 * per call, so these decode the same wire format into the struct nf_res
 * the result sits in: READ data into its data buffer, the handle a LOOKUP,
 * CREATE, MKDIR, SYMLINK or MKNOD reply names into its fh, directory
 * entries read over.  Encoding is rpcgen's; freeing frees nothing.  The
 * synthetic mix and both trace replays choose their codecs here.
 */
#include <stddef.h>
#include <string.h>

#include "nfs/nf.h"

/* The struct nf_res a decoded result lives in (the results are its first
 * member). */
static struct nf_res *res_of(void *res)
{
    return (struct nf_res *)((char *)res - offsetof(struct nf_res, r3));
}

/* The data of a READ reply: at most data_max bytes, into data. */
static bool_t data_into(XDR *x, u_int *len, char **val, struct nf_res *r)
{
    if (!xdr_u_int(x, len) || *len > r->data_max || r->data == NULL)
        return FALSE;
    *val = r->data;
    return xdr_opaque(x, r->data, *len);
}

static bool_t read3_into(XDR *x, READ3res *r)
{
    READ3resok *ok = &r->READ3res_u.resok;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READ3res(x, r);
    if (!xdr_nfsstat3(x, &r->status))
        return FALSE;
    if (r->status != NFS3_OK)
        return xdr_post_op_attr(x, &r->READ3res_u.resfail.file_attributes);
    return xdr_post_op_attr(x, &ok->file_attributes) && xdr_count3(x, &ok->count) &&
           xdr_bool(x, &ok->eof) &&
           data_into(x, &ok->data.data_len, &ok->data.data_val, res_of(r));
}

static bool_t read2_into(XDR *x, readres *r)
{
    readokres *ok = &r->readres_u.reply;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_readres(x, r);
    if (!xdr_nfsstat(x, &r->status))
        return FALSE;
    if (r->status != NFS_OK)
        return TRUE;
    return xdr_fattr(x, &ok->attributes) &&
           data_into(x, &ok->data.data_len, &ok->data.data_val, res_of(r));
}

/* xdr_bytes decodes into a buffer it is given: the nf_res's handle. */
static bool_t lookup3_into(XDR *x, LOOKUP3res *r)
{
    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op == XDR_DECODE)
        r->LOOKUP3res_u.resok.object.data.data_val = (char *)res_of(r)->fh;
    return xdr_LOOKUP3res(x, r);
}

/* CREATE, MKDIR, SYMLINK and MKNOD results share CREATE3res's layout. */
static bool_t create3_into(XDR *x, CREATE3res *r)
{
    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op == XDR_DECODE)
        r->CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_val =
            (char *)res_of(r)->fh;
    return xdr_CREATE3res(x, r);
}

/* Only the status (the first word of every NFS result). */
static bool_t status_only(XDR *x, void *res)
{
    if (x->x_op != XDR_DECODE)
        return TRUE;
    return xdr_enum(x, (enum_t *)res);
}

/* ---- directory entries, read over ---------------------------------------- */

/* A name or handle of a directory entry, read over (into the data buffer,
 * or the handle buffer when there is none). */
static bool_t skip_opaque(XDR *x, struct nf_res *r)
{
    char *buf = r->data ? r->data : (char *)r->fh;
    u_int len, max = r->data ? r->data_max : NF_FH_MAX, step;

    if (!xdr_u_int(x, &len))
        return FALSE;
    for (; len > 0; len -= step) { /* xdr_opaque pads the last piece only */
        step = len < max ? len : max - max % 4;
        if (step == 0 || !xdr_opaque(x, buf, step))
            return FALSE;
    }
    return TRUE;
}

/* The entry list of READDIR3 (plus = 0) or READDIRPLUS3, read over instead
 * of decoded into a malloc'd list; ends because every entry consumes
 * reply bytes. */
static bool_t skip_entries3(XDR *x, struct nf_res *r, int plus)
{
    bool_t more;
    fileid3 id;
    cookie3 cookie;
    post_op_attr attr;
    bool_t fh_follows;

    if (!xdr_bool(x, &more))
        return FALSE;
    while (more) {
        if (!xdr_fileid3(x, &id) || !skip_opaque(x, r) || !xdr_cookie3(x, &cookie))
            return FALSE;
        if (plus && (!xdr_post_op_attr(x, &attr) || !xdr_bool(x, &fh_follows) ||
                     (fh_follows && !skip_opaque(x, r))))
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

static bool_t dir3_into(XDR *x, const struct dir3_fields *d, struct nf_res *r, int plus)
{
    if (!xdr_nfsstat3(x, d->status))
        return FALSE;
    if (*d->status != NFS3_OK)
        return xdr_post_op_attr(x, d->fail_attr);
    return xdr_post_op_attr(x, d->ok_attr) && xdr_cookieverf3(x, d->verf) &&
           skip_entries3(x, r, plus) && xdr_bool(x, d->eof);
}

/* READDIR3res with its entries read over (entries stays NULL). */
static bool_t readdir3_into(XDR *x, READDIR3res *r)
{
    READDIR3resok *ok = &r->READDIR3res_u.resok;
    const struct dir3_fields d = {&r->status, &r->READDIR3res_u.resfail.dir_attributes,
                                  &ok->dir_attributes, ok->cookieverf, &ok->reply.eof};

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READDIR3res(x, r);
    return dir3_into(x, &d, res_of(r), 0);
}

/* The same for READDIRPLUS3res. */
static bool_t readdirplus3_into(XDR *x, READDIRPLUS3res *r)
{
    READDIRPLUS3resok *ok = &r->READDIRPLUS3res_u.resok;
    const struct dir3_fields d = {&r->status,
                                  &r->READDIRPLUS3res_u.resfail.dir_attributes,
                                  &ok->dir_attributes, ok->cookieverf, &ok->reply.eof};

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READDIRPLUS3res(x, r);
    return dir3_into(x, &d, res_of(r), 1);
}

/* The v2 readdirres: entries are fileid, name, 4-byte cookie. */
static bool_t readdir2_into(XDR *x, readdirres *r)
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
        if (!xdr_u_int(x, &id) || !skip_opaque(x, res_of(r)) ||
            !xdr_nfscookie(x, cookie) || !xdr_bool(x, &more))
            return FALSE;
    return xdr_bool(x, &r->readdirres_u.reply.eof);
}

/* ---- the choice ----------------------------------------------------------- */

static int names_handle(int op)
{
    return op == NF_OP_LOOKUP || op == NF_OP_CREATE || op == NF_OP_MKDIR ||
           op == NF_OP_SYMLINK || op == NF_OP_MKNOD;
}

xdrproc_t nf_res_codec(int version, int op, unsigned how, xdrproc_t dflt)
{
    if (op == NF_OP_NULL_OP)
        return dflt; /* no result */
    if (names_handle(op)) {
        if (version == 3)
            return op == NF_OP_LOOKUP ? (xdrproc_t)lookup3_into : (xdrproc_t)create3_into;
        if (op != NF_OP_SYMLINK && op != NF_OP_MKNOD)
            return dflt; /* diropres: the v2 handle is a fixed array */
    }
    if (how & NF_RES_STATUS_ONLY)
        return (xdrproc_t)status_only;
    switch (op) {
    case NF_OP_READ:
        return version == 3 ? (xdrproc_t)read3_into : (xdrproc_t)read2_into;
    case NF_OP_READDIR:
        return version == 3 ? (xdrproc_t)readdir3_into : (xdrproc_t)readdir2_into;
    case NF_OP_READDIRPLUS:
        return (xdrproc_t)readdirplus3_into;
    default:
        return dflt;
    }
}

int nf_res_handle(const struct nf_res *r, int version, int op, struct nf_fh *out)
{
    if (!names_handle(op))
        return 0;
    if (version == 3) {
        if (op == NF_OP_LOOKUP)
            return r->r3.lookup.status == NFS3_OK &&
                   nf_fh_from_v3(out, &r->r3.lookup.LOOKUP3res_u.resok.object) == 0;
        return r->r3.create.status == NFS3_OK &&
               r->r3.create.CREATE3res_u.resok.obj.handle_follows &&
               nf_fh_from_v3(
                   out, &r->r3.create.CREATE3res_u.resok.obj.post_op_fh3_u.handle) == 0;
    }
    if (op == NF_OP_SYMLINK || op == NF_OP_MKNOD || r->r2.lookup.status != NFS_OK)
        return 0; /* LOOKUP, CREATE and MKDIR answer a diropres */
    nf_fh_from_v2(out, &r->r2.lookup.diropres_u.diropres.file);
    return 1;
}
