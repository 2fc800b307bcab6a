/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xdr_args.c - bounded decoders for the NFSv3 call arguments that carry
 * unbounded strings or opaques in RFC 1813 (filename3, nfspath3, WRITE
 * data).  rpcgen's routines pass ~0 as the limit, and libtirpc's
 * xdr_string/xdr_bytes allocate the claimed length before they find the
 * message too short, so a 20-byte hostile call could ask for 4 GiB.  These
 * compose the generated sub-codecs with a limit that the message size
 * already implies; they are the only decoding the server does not leave to
 * rpcgen, and they decode the same bytes into the same rpcgen structs.
 */
#include "server/sv_int.h"
#include "nfs3_prot.h"

/* Generous limits: longer names still decode, so the handler can answer
 * NAMETOOLONG as RFC 1813 asks, instead of GARBAGE_ARGS. */
#define NAME_DECODE_MAX 1024
#define PATH_DECODE_MAX 4096
#define DATA_DECODE_MAX SV_MSG_MAX

static bool_t dirop(XDR *x, diropargs3 *d)
{
    return xdr_nfs_fh3(x, &d->dir) && xdr_string(x, &d->name, NAME_DECODE_MAX);
}

bool_t sv__xdr_LOOKUP3args(XDR *x, void *a)
{
    return dirop(x, &((LOOKUP3args *)a)->what);
}

bool_t sv__xdr_REMOVE3args(XDR *x, void *a)
{
    return dirop(x, &((REMOVE3args *)a)->object);
}

bool_t sv__xdr_RMDIR3args(XDR *x, void *a)
{
    return dirop(x, &((RMDIR3args *)a)->object);
}

bool_t sv__xdr_CREATE3args(XDR *x, void *a)
{
    CREATE3args *c = a;
    return dirop(x, &c->where) && xdr_createhow3(x, &c->how);
}

bool_t sv__xdr_MKDIR3args(XDR *x, void *a)
{
    MKDIR3args *m = a;
    return dirop(x, &m->where) && xdr_sattr3(x, &m->attributes);
}

bool_t sv__xdr_SYMLINK3args(XDR *x, void *a)
{
    SYMLINK3args *s = a;
    return dirop(x, &s->where) && xdr_sattr3(x, &s->symlink.symlink_attributes) &&
           xdr_string(x, &s->symlink.symlink_data, PATH_DECODE_MAX);
}

bool_t sv__xdr_MKNOD3args(XDR *x, void *a)
{
    MKNOD3args *m = a;
    return dirop(x, &m->where) && xdr_mknoddata3(x, &m->what);
}

bool_t sv__xdr_RENAME3args(XDR *x, void *a)
{
    RENAME3args *r = a;
    return dirop(x, &r->from) && dirop(x, &r->to);
}

bool_t sv__xdr_LINK3args(XDR *x, void *a)
{
    LINK3args *l = a;
    return xdr_nfs_fh3(x, &l->file) && dirop(x, &l->link);
}

bool_t sv__xdr_WRITE3args(XDR *x, void *a)
{
    WRITE3args *w = a;
    return xdr_nfs_fh3(x, &w->file) && xdr_offset3(x, &w->offset) &&
           xdr_count3(x, &w->count) && xdr_stable_how(x, &w->stable) &&
           xdr_bytes(x, &w->data.data_val, &w->data.data_len, DATA_DECODE_MAX);
}
