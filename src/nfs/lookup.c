/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lookup.c - synchronous calls of the phases before a load (nf.h): a call
 * with its NFS status, and LOOKUP of a name in either version, its errors
 * said one way ("LOOKUP name: NOENT", "LOOKUP name: <the RPC's error>").
 * sfs_ping and both trace replays find their files with it.
 */
#include <string.h>

#include "common/error.h"
#include "nfs/nf.h"

int nf_call_sync_status(struct rp_client *c, uint32_t proc, const void *args, void *res,
                        uint32_t *status)
{
    struct rp_call call;
    int rc = nf_call_init(&call, c, proc, args, res, NULL, NULL);

    if (rc == 0)
        rc = rp_call_sync(c, &call);
    *status = rc == 0 ? nf_call_nfs_status(&call) : 0;
    return rc;
}

void nf_res_free(const struct rp_client *c, uint32_t proc, void *res)
{
    const struct nf_proc_table *t =
        nf_proc_table_for(rp_client_prog(c), rp_client_vers(c));

    if (t && proc < t->nrows)
        xdr_free(t->rows[proc].res_codec, (char *)res);
}

int nf_lookup(struct rp_client *c, const struct nf_fh *dir, const char *name,
              struct nf_fh *out, uint32_t *type, char *err, size_t errlen)
{
    uint32_t st = 0, ty = 0;
    int rc, v3 = rp_client_vers(c) == 3;
    union nf3_args a3;
    union nf3_res r3;
    union nf2_args a2;
    union nf2_res r2;

    memset(&r3, 0, sizeof(r3));
    memset(&r2, 0, sizeof(r2));
    if (v3) {
        nf_fh_to_v3(dir, &a3.lookup.what.dir);
        a3.lookup.what.name = (char *)(uintptr_t)name;
        rc = nf_call_sync_status(c, NFSPROC3_LOOKUP, &a3, &r3, &st);
    } else if (nf_fh_to_v2(dir, &a2.lookup.dir) < 0) {
        return cm_errf(err, errlen, "LOOKUP %s: not an NFSv2 handle", name), -EINVAL;
    } else {
        a2.lookup.name = (char *)(uintptr_t)name;
        rc = nf_call_sync_status(c, NFSPROC_LOOKUP, &a2, &r2, &st);
    }
    if (rc < 0)
        return cm_errf(err, errlen, "LOOKUP %s: %s", name,
                       rp_client_last_error(c)[0] ? rp_client_last_error(c)
                                                  : rp_status_text(rc)),
               rc;
    if (st == 0 && v3) {
        const post_op_attr *pa = &r3.lookup.LOOKUP3res_u.resok.obj_attributes;

        if (nf_fh_from_v3(out, &r3.lookup.LOOKUP3res_u.resok.object) < 0) {
            cm_errf(err, errlen, "LOOKUP %s: handle too long", name);
            rc = -EINVAL;
        }
        ty = pa->attributes_follow ? (uint32_t)pa->post_op_attr_u.attributes.type : 0;
    } else if (st == 0) {
        nf_fh_from_v2(out, &r2.lookup.diropres_u.diropres.file);
        ty = (uint32_t)r2.lookup.diropres_u.diropres.attributes.type;
    } else {
        cm_errf(err, errlen, "LOOKUP %s: %s", name, nf_status_name(st));
        rc = nf_status_errno(st);
    }
    nf_res_free(c, v3 ? NFSPROC3_LOOKUP : NFSPROC_LOOKUP, v3 ? (void *)&r3 : (void *)&r2);
    if (type)
        *type = ty;
    return rc;
}
