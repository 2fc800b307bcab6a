/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workdir.c - the mount and the work directory of a validation: the mount
 * with the options' version and transport (again, bounded, after the
 * restart step restarted the server), <export>/validatedir made when
 * absent and emptied of what an earlier run left, and removed at the end.
 * Here, below run.c and the steps, because both use them.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/vd_int.h"
#include "common/alloc.h"

#define CLEAN_ROUNDS     8   /* listings while emptying validatedir */
#define CLEAN_NAMES      256 /* names removed per listing */
#define MOUNT_RETRY_MS   200
#define MOUNT_RETRY_STEP 2000 /* per-try bound while a server restarts */

int vd_mount(struct vd_ctx *v, unsigned tries, char *err, size_t errlen)
{
    struct nf_mount_opts mo;
    unsigned i;
    int rc = -EINVAL;

    nf_mount_opts_init(&mo, v->o->nfs_version);
    mo.transport = v->o->tcp ? RP_TCP : RP_UDP;
    mo.mount_transport = mo.transport;
    mo.connect = v->o->connect;
    mo.connect_data = v->o->connect_data;
    if (tries > 1)
        mo.timeout_ms = MOUNT_RETRY_STEP;
    if (v->o->nfs_version == 4)
        mo.transport = mo.mount_transport = RP_TCP; /* NFSv4 runs over TCP only */
    for (i = 0; i < tries; i++) {
        if (i > 0)
            poll(NULL, 0, MOUNT_RETRY_MS);
        if (v->o->nfs_version == 4) {
            rc = vd4_mount(v, &mo, err, errlen);
            if (rc == 0)
                return v->mounted = 1, 0;
            continue;
        }
        rc = nf_mount(&v->m, v->o->mount, &mo, err, errlen);
        if (rc == 0) {
            v->mounted = 1;
            v->clnt = v->m.nfs;
            return 0;
        }
    }
    return rc;
}

void vd_umount(struct vd_ctx *v)
{
    if (!v->mounted)
        return;
    if (v->v4)
        vd4_umount(v);
    else
        nf_umount(&v->m);
    v->mounted = 0;
}

int vd_step_release(struct vd_ctx *v)
{
    if (v->v4)
        vd4_release(v);
    return 0;
}

struct names {
    char name[CLEAN_NAMES][VD_NAME_MAX * 2];
    int n;
    int more;
};

static int collect(struct vd_ctx *v, const char *name, uint64_t fileid, void *data)
{
    struct names *ns = data;

    (void)v;
    (void)fileid;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return 0;
    if (ns->n >= CLEAN_NAMES || strlen(name) >= sizeof(ns->name[0])) {
        ns->more = 1;
        return 0;
    }
    snprintf(ns->name[ns->n++], sizeof(ns->name[0]), "%s", name);
    return 0;
}

/* Lists validatedir (up to CLEAN_NAMES names).  0 or an NFS/RPC status. */
static int list_names(struct vd_ctx *v, struct names *ns)
{
    struct vd_cursor cur;
    struct vd_res r;
    int calls, st;

    memset(&cur, 0, sizeof(cur));
    ns->n = 0;
    ns->more = 0;
    for (calls = 0; calls < 64 && ns->n < CLEAN_NAMES; calls++) {
        st = v->p->readdir(v, &v->workdir, &cur, collect, ns, &r);
        if (st != NF_ST_OK)
            return st;
        if (r.eof == 1 || r.count == 0)
            return 0;
    }
    ns->more = 1;
    return 0;
}

/* Removes everything in validatedir (flat: the validation makes only
 * empty directories).  Returns 0, or the status of what failed with *what
 * naming it. */
static int empty_workdir(struct vd_ctx *v, char *what, size_t whatlen)
{
    struct names *ns = cm_malloc(sizeof(*ns));
    int round, i, st = 0;

    if (!ns)
        return snprintf(what, whatlen, "the list of its names"), -ENOMEM;
    for (round = 0; round < CLEAN_ROUNDS; round++) {
        st = list_names(v, ns);
        if (st != 0) {
            snprintf(what, whatlen, "READDIR");
            break;
        }
        for (i = 0; i < ns->n; i++) {
            struct vd_res r;

            st = v->p->lookup(v, &v->workdir, ns->name[i], &r);
            if (st == NF_ST_OK)
                st = r.have_attr && r.attr.type == VD_T_DIR
                         ? v->p->rmdir(v, &v->workdir, ns->name[i])
                         : v->p->remove(v, &v->workdir, ns->name[i]);
            if (st == NF_ST_NOENT)
                st = 0;
            if (st != 0) {
                snprintf(what, whatlen, "%s", ns->name[i]);
                break;
            }
        }
        if (st != 0 || (ns->n == 0 && !ns->more))
            break;
    }
    free(ns);
    return st;
}

int vd_workdir_open(struct vd_ctx *v)
{
    char what[VD_NAME_MAX * 2];
    struct vd_res r;
    int st;

    vd_begin(v, "setup", "%s in the export", VD_WORKDIR);
    st = v->p->lookup(v, &v->m.root, VD_WORKDIR, &r);
    if (st == NF_ST_NOENT) {
        st = v->p->mkdir(v, &v->m.root, VD_WORKDIR, 0777, &r);
        if (st == NF_ST_OK && !r.have_fh)
            st = v->p->lookup(v, &v->m.root, VD_WORKDIR, &r);
        if (st != NF_ST_OK)
            return vd_fail_call(v, NF_OP_MKDIR, VD_WORKDIR, st);
        v->workdir = r.fh;
    } else if (st == NF_ST_OK) {
        v->workdir = r.fh;
        if (r.have_attr && r.attr.type != VD_T_DIR)
            return vd_error(v, "%s exists and is not a directory", VD_WORKDIR);
        st = empty_workdir(v, what, sizeof(what));
        if (st != 0)
            return vd_error(v, "cannot empty %s of an earlier run: %s: %s", VD_WORKDIR,
                            what,
                            st < 0 ? rp_status_text(st) : nf_status_name((uint32_t)st));
        vd_info(v, "%s emptied of what an earlier run left", VD_WORKDIR);
    } else {
        return vd_fail_call(v, NF_OP_LOOKUP, VD_WORKDIR, st);
    }
    st = v->p->getattr(v, &v->workdir, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_GETATTR, VD_WORKDIR, st);
    v->workdir_attr = r.attr;
    vd_detail(v, "%s: fileid %llu, fsid %llu", VD_WORKDIR,
              (unsigned long long)r.attr.fileid, (unsigned long long)r.attr.fsid);
    return 0;
}

void vd_workdir_remove(struct vd_ctx *v)
{
    char what[VD_NAME_MAX * 2];
    int st;

    v->step = "cleanup";
    st = empty_workdir(v, what, sizeof(what));
    if (st == 0) {
        st = v->p->rmdir(v, &v->m.root, VD_WORKDIR);
        snprintf(what, sizeof(what), "%s", VD_WORKDIR);
    }
    /* the checks are done, but a run that ran out of memory did not
     * finish as designed: an E, so that it cannot pass */
    if (st == -ENOMEM)
        vd_error(v, "%s left behind (%s: %s); the next run empties it", VD_WORKDIR, what,
                 rp_status_text(st));
    else if (st != 0)
        vd_info(v, "%s left behind (%s: %s); the next run empties it", VD_WORKDIR, what,
                st < 0 ? rp_status_text(st) : nf_status_name((uint32_t)st));
    else
        vd_detail(v, "%s removed", VD_WORKDIR);
}
