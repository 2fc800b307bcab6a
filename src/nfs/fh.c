/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fh.c - version-neutral file handles (nfs layer): struct nf_fh holds a v2
 * (32-byte) or v3 (up to 64-byte) handle by value, so file tables keep
 * handles without allocating, and converts to and from the rpcgen types.
 */
#include "nfs/nf.h"

#include <string.h>

void nf_fh_from_v2(struct nf_fh *fh, const nfs_fh *v2)
{
    fh->len = NFS_FHSIZE;
    memcpy(fh->data, v2->data, NFS_FHSIZE);
}

int nf_fh_to_v2(const struct nf_fh *fh, nfs_fh *v2)
{
    if (fh->len != NFS_FHSIZE) {
        memset(v2->data, 0, NFS_FHSIZE); /* never garbage on the wire */
        return -EINVAL;
    }
    memcpy(v2->data, fh->data, NFS_FHSIZE);
    return 0;
}

int nf_fh_from_v3(struct nf_fh *fh, const nfs_fh3 *v3)
{
    if (v3->data.data_len > NF_FH_MAX)
        return -EINVAL;
    fh->len = v3->data.data_len;
    if (fh->len)
        memcpy(fh->data, v3->data.data_val, fh->len);
    return 0;
}

void nf_fh_to_v3(const struct nf_fh *fh, nfs_fh3 *v3)
{
    v3->data.data_len = fh->len;
    v3->data.data_val = (char *)(uintptr_t)fh->data;
}

int nf_fh_equal(const struct nf_fh *a, const struct nf_fh *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}
