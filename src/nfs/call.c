/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * call.c - the one generic NFS/MOUNT call (nfs layer): the client's program
 * and version select a procedure table, the row gives the codecs and the
 * call class, and the class and the client's transport give the SFS
 * timeout.  Every typed wrapper in nf.h comes through here; there is no
 * per-procedure code.
 */
#include "nfs/nf.h"

#include "mount_prot.h"

#include <string.h>

int nf_call_init(struct rp_call *call, const struct rp_client *c, uint32_t proc,
                 const void *args, void *res, rp_done_fn done, void *data)
{
    const struct nf_proc_table *t =
        nf_proc_table_for(rp_client_prog(c), rp_client_vers(c));
    const struct nf_proc *row;

    if (!t || proc >= t->nrows)
        return -EINVAL;
    row = &t->rows[proc];
    rp_call_prepare(call, proc, row->args_codec, args, row->res_codec, res,
                    nf_class_timeout_ms(row->cls, rp_client_transport(c) == RP_TCP), done,
                    data);
    return 0;
}

int nf_call_sync(struct rp_client *c, uint32_t proc, const void *args, void *res)
{
    struct rp_call call;
    int rc = nf_call_init(&call, c, proc, args, res, NULL, NULL);

    if (rc < 0)
        return rc;
    return rp_call_sync(c, &call);
}

void nf_call_free(struct rp_call *call)
{
    if (call->res && call->res_codec) {
        xdr_free(call->res_codec, call->res);
    }
}

uint32_t nf_call_nfs_status(const struct rp_call *call)
{
    /* rpcgen lays every result union out as { status; union {...} }, and the
     * list-returning MOUNT procedures (DUMP, EXPORT) return a pointer, not a
     * status: those report 0 as well. */
    if (call->status != 0 || !call->res || call->res_codec == (xdrproc_t)xdr_nf_void ||
        call->res_codec == (xdrproc_t)xdr_mnt3_list ||
        call->res_codec == (xdrproc_t)xdr_mnt3_exports ||
        call->res_codec == (xdrproc_t)xdr_mountlist ||
        call->res_codec == (xdrproc_t)xdr_exports)
        return 0;
    return *(const uint32_t *)call->res;
}
