/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xdr_into.c - READ results decoded into a caller's buffer (nf.h).
 * rpcgen's xdr_READ3res and xdr_readres put the data into malloc'd
 * memory; a load generator's hot path must not allocate per call, so
 * these decode the same wire format into a buffer it already holds.
 * Encoding is rpcgen's; freeing frees nothing.
 */
#include "nfs/nf.h"

/* The data of a READ reply: at most max bytes, into buf. */
static bool_t data_into(XDR *x, u_int *len, char **val, char *buf, u_int max)
{
    if (!xdr_u_int(x, len) || *len > max)
        return FALSE;
    *val = buf;
    return xdr_opaque(x, buf, *len);
}

bool_t nf_xdr_read3_into(XDR *x, READ3res *r, char *buf, u_int max)
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
           data_into(x, &ok->data.data_len, &ok->data.data_val, buf, max);
}

bool_t nf_xdr_read2_into(XDR *x, readres *r, char *buf, u_int max)
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
           data_into(x, &ok->data.data_len, &ok->data.data_val, buf, max);
}
