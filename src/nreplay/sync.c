/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sync.c - a child's synchronous NFS calls before the clock starts
 * (nr_int.h): the calls that make the image (prep.c) and the LOOKUPs that
 * find it (prep.c, hosts.c), with the result's memory freed after.
 */
#include <string.h>

#include "nreplay/nr_int.h"

static const struct nf_proc *row_of(const struct nr_replay *rp, uint32_t proc)
{
    return nf_proc_row(rp->version == 3 ? NF_NFS3 : NF_NFS2, proc);
}

int nr_sync(struct nr_replay *rp, uint32_t proc, const void *args, void *res,
            xdrproc_t free_codec, uint32_t *status)
{
    struct rp_call call;
    int rc;

    (void)free_codec;
    memset(&call, 0, sizeof(call));
    rc = nf_call_init(&call, rp->cx.clnt, proc, args, res, NULL, NULL);
    if (rc == 0)
        rc = rp_call_sync(rp->cx.clnt, &call);
    if (rc == 0)
        *status = nf_call_nfs_status(&call);
    return rc;
}

void nr_sync_free(const struct nr_replay *rp, uint32_t proc, void *res)
{
    xdr_free(row_of(rp, proc)->res_codec, (char *)res);
}

int nr_lookup(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
              struct nf_fh *out)
{
    uint32_t st = 0;
    int rc;

    if (rp->version == 3) {
        LOOKUP3args a;
        LOOKUP3res res;

        memset(&res, 0, sizeof(res));
        nf_fh_to_v3(dir, &a.what.dir);
        a.what.name = (char *)name;
        rc = nr_sync(rp, NFSPROC3_LOOKUP, &a, &res, NULL, &st);
        if (rc == 0 && st == NFS3_OK)
            rc = nf_fh_from_v3(out, &res.LOOKUP3res_u.resok.object);
        if (rc == 0)
            nr_sync_free(rp, NFSPROC3_LOOKUP, &res);
    } else {
        diropargs a;
        diropres res;

        memset(&res, 0, sizeof(res));
        (void)nf_fh_to_v2(dir, &a.dir);
        a.name = (char *)name;
        rc = nr_sync(rp, NFSPROC_LOOKUP, &a, &res, NULL, &st);
        if (rc == 0 && st == NFS_OK)
            nf_fh_from_v2(out, &res.diropres_u.diropres.file);
        if (rc == 0)
            nr_sync_free(rp, NFSPROC_LOOKUP, &res);
    }
    return rc < 0 ? rc : st ? nf_status_errno(st) : 0;
}
