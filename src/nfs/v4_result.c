/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_result.c - an NFSv4 reply read out as the version-neutral result the
 * SFS mix works with (nf4_load.h): nf.h's status numbering, the object's
 * attributes, a new handle, an unstable write; handles into the mix's
 * struct nf_fh.
 */
#include <errno.h>
#include <string.h>

#include "nfs/nf4.h"
#include "nfs/nf4_load.h"

uint32_t nf4_status_nf(uint32_t s)
{
    switch (s) {
    case NFS4ERR_FHEXPIRED:
        return NF_ST_STALE;
    case NFS4ERR_NOFILEHANDLE:
        return NF_ST_BADHANDLE;
    case NFS4ERR_SYMLINK: /* a path through a link: v3 says NOTDIR */
        return NF_ST_NOTDIR;
    case NFS4ERR_WRONG_TYPE: /* READLINK of a file: v3 says INVAL */
    case NFS4ERR_BADNAME:
    case NFS4ERR_BADCHAR:
        return NF_ST_INVAL;
    case NFS4ERR_ATTRNOTSUPP:
        return NF_ST_NOTSUPP;
    case NFS4ERR_OPENMODE:
    case NFS4ERR_SHARE_DENIED:
    case NFS4ERR_LOCKED:
    case NFS4ERR_DENIED:
        return NF_ST_ACCES;
    default:
        break;
    }
    /* v4 kept v3's numbers for the statuses both have (DELAY is JUKEBOX) */
    if (s <= NFS4ERR_DELAY && strcmp(nf_status_name(s), "UNKNOWN") != 0 &&
        strcmp(nf4_status_name(s), "UNKNOWN") != 0)
        return s;
    return NF_ST_SERVERFAULT;
}

int nf4_fh_to_nf(const struct nf4_fh *in, struct nf_fh *out)
{
    if (in->len > NF_FH_MAX)
        return -E2BIG;
    out->len = in->len;
    memcpy(out->data, in->data, in->len);
    return 0;
}

void nf4_fh_from_nf(const struct nf_fh *in, struct nf4_fh *out)
{
    out->len = in->len <= NF_FH_MAX ? in->len : NF_FH_MAX;
    memcpy(out->data, in->data, out->len);
}

void nf4_sfs_result(const struct nf4_res *r, struct nf4_sfs_result *out)
{
    uint32_t i;

    memset(out, 0, sizeof(*out));
    out->status4 = r->status;
    out->status = nf4_status_nf(r->status);
    if (r->status != NFS4_OK && r->nops > 0)
        out->failed_op = r->op[r->nops - 1].op;
    for (i = 0; i < r->nops && i < NF4_MAX_OPS; i++) {
        const struct nf4_resop *o = &r->op[i];

        if (o->status != NFS4_OK)
            break;
        switch (o->op) {
        case OP_GETATTR: {
            const struct nf4_attrs *a = &o->u.getattr;

            out->has_attrs = 1;
            if (nf4_attr_isset(a->have, FATTR4_TYPE))
                out->type = a->type >= NF4REG && a->type <= NF4FIFO ? a->type : 0;
            if (nf4_attr_isset(a->have, FATTR4_SIZE))
                out->size = a->size;
            if (nf4_attr_isset(a->have, FATTR4_NUMLINKS))
                out->nlink = a->numlinks;
            break;
        }
        case OP_GETFH:
            out->has_fh = 1;
            out->fh = o->u.getfh;
            break;
        case OP_READ:
            out->count = o->u.read.len;
            out->eof = o->u.read.eof != 0;
            break;
        case OP_WRITE:
            out->count = o->u.write.count;
            out->unstable = o->u.write.committed != FILE_SYNC4;
            break;
        default:
            break;
        }
    }
}
