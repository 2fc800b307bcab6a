/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_mount.c - the NFSv4 mount (nf4_client.h).  NFSv4 has no MOUNT program: the
 * connection comes from the mount session (mount.c: the host, the port
 * from the mount point, rpcbind or 2049, NULL to check that version 4 is
 * served, TCP only), the client state from nf4_client_open, and the
 * export's handle from the server's pseudo file system as a Linux client
 * finds it: PUTROOTFH, then a LOOKUP per component of the export path, in
 * as few compounds as the compound size allows, each ending GETFH GETATTR.
 */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "nfs/nf4_int.h"

/* LOOKUPs in one compound: SEQUENCE, PUT(ROOT)FH, GETFH and GETATTR
 * take the other places. */
#define LOOKUPS_PER_CALL (NF4_MAX_OPS - 4)

/* Splits path into its components (in buf, NUL-terminated); returns their
 * number, or -1 when there are too many. */
static int split_path(const char *path, char *buf, size_t len, const char **comp)
{
    char *p, *save = NULL;
    int n = 0;

    snprintf(buf, len, "%s", path);
    for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        if (n >= NF4_PATH_COMPONENTS)
            return -1;
        comp[n++] = p;
    }
    return n;
}

/* One line for a failed walk: the operation and component that failed. */
static int walk_error(const struct nf4_mount *m, const struct nf4_call *call,
                      const char **comp, int first, char *err, size_t errlen)
{
    const char *host = m->m.spec.host, *path = m->m.spec.path;
    uint32_t i, k = 0;

    if (call->status < 0)
        return cm_errf(err, errlen, "%s:%s: %s", host, path,
                       nf4_client_last_error(m->cl)[0] ? nf4_client_last_error(m->cl)
                                                       : rp_status_text(call->status)),
               call->status;
    for (i = 0; i < call->res.nops; i++) {
        const struct nf4_resop *o = &call->res.op[i];

        if (o->op == OP_LOOKUP && o->status != NFS4_OK)
            return cm_errf(err, errlen, "%s:%s: LOOKUP '%s': %s", host, path,
                           comp[first + (int)k], nf4_status_name(o->status)),
                   -ENOENT;
        if (o->op == OP_LOOKUP)
            k++;
        if (o->status != NFS4_OK)
            return cm_errf(err, errlen, "%s:%s: %s: %s", host, path, nf4_op_name(o->op),
                           nf4_status_name(o->status)),
                   -EIO;
    }
    return cm_errf(err, errlen, "%s:%s: %s", host, path,
                   nf4_status_name(call->res.status)),
           -EIO;
}

/* PUTROOTFH and a LOOKUP per component: the export's handle and
 * attributes into m->root and m->root_attrs. */
static int walk(struct nf4_mount *m, struct nf4_call *call, char *err, size_t errlen)
{
    char buf[NF_PATH_MAX];
    const char *comp[NF4_PATH_COMPONENTS];
    int n = split_path(m->m.spec.path, buf, sizeof(buf), comp), done = 0;
    uint32_t minor = nf4_client_minor(m->cl);

    if (n < 0)
        return cm_errf(err, errlen, "%s:%s: more than %d path components", m->m.spec.host,
                       m->m.spec.path, NF4_PATH_COMPONENTS);
    do {
        int k, first = done;
        const struct nf4_resop *fh, *at;

        nf4_compound_init(&call->args, minor, 0);
        if (done == 0)
            nf4_op_putrootfh(&call->args);
        else
            nf4_op_putfh(&call->args, &m->root);
        for (k = 0; k < LOOKUPS_PER_CALL && done < n; k++)
            nf4_op_lookup(&call->args, comp[done++]);
        nf4_op_getfh(&call->args);
        nf4_op_getattr(&call->args, NF4_MASK_GETATTR);
        if (nf4_call_sync(m->cl, call) != 0 || call->res.status != NFS4_OK)
            return walk_error(m, call, comp, first, err, errlen);
        fh = nf4_res_find(&call->res, OP_GETFH, 0);
        at = nf4_res_find(&call->res, OP_GETATTR, 0);
        if (!fh || !at)
            return cm_errf(err, errlen, "%s:%s: no handle in the reply", m->m.spec.host,
                           m->m.spec.path),
                   -EPROTO;
        m->root = fh->u.getfh;
        m->root_attrs = at->u.getattr;
    } while (done < n);
    if (nf4_attr_isset(m->root_attrs.have, FATTR4_TYPE) && m->root_attrs.type != NF4DIR)
        return cm_errf(err, errlen, "%s:%s: not a directory", m->m.spec.host,
                       m->m.spec.path),
               -ENOTDIR;
    return 0;
}

int nf4_mount(struct nf4_mount *m, const char *spec, const struct nf_mount_opts *opts,
              const struct nf4_client_opts *v4, char *err, size_t errlen)
{
    struct nf_mount_opts mo;
    struct nf4_client_opts co;
    struct nf4_call *call;
    char why[CM_ERR_LEN];
    unsigned need;
    int rc;

    memset(m, 0, sizeof(*m));
    if (opts)
        mo = *opts;
    else
        nf_mount_opts_init(&mo, 4);
    if (v4)
        co = *v4;
    else
        nf4_client_opts_init(&co);
    mo.nfs_version = 4;
    /* every slot in flight, and the client's own calls beside them */
    need = co.slots + NF4_DELEGRETURNS + 2;
    if (mo.rpc.max_in_flight < need)
        mo.rpc.max_in_flight = need;
    rc = nf_mount(&m->m, spec, &mo, err, errlen);
    if (rc < 0)
        return rc;
    rc = nf4_client_open(&m->cl, m->m.nfs, &co, why, sizeof(why));
    m->m.nfs = NULL; /* the NFSv4 client's now */
    if (rc < 0)
        return cm_errf(err, errlen, "%s: %s", m->m.spec.host, why), rc;
    call = cm_calloc(1, sizeof(*call)); /* about 6 KB: not on the stack */
    if (call) {
        rc = walk(m, call, err, errlen);
    } else {
        cm_errf(err, errlen, "out of memory for the mount");
        rc = -ENOMEM;
    }
    free(call);
    if (rc < 0)
        nf4_umount(m);
    return rc;
}

int nf4_umount(struct nf4_mount *m)
{
    int rc = nf4_client_close(m->cl);

    m->cl = NULL;
    nf_mount_close(&m->m);
    return rc;
}
