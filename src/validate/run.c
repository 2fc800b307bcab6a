/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c - one validation run (vd.h: vd_run): mount, open <export>/
 * validatedir (workdir.c), the steps in the reference order with
 * FreeSFS's read-back after the read step and the extended section last,
 * then the clean-up and the final line.  The first step that stops the run
 * (an E, or "n" at level 3) ends the sequence; the clean-up still runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "validate/vd_int.h"
#include "common/alloc.h"
#include "common/cm.h"
#include "common/error.h"

#define DAY_S 86400u

void vd_opts_init(struct vd_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->level = VD_LEVEL_BATCH;
    o->nfs_version = 3;
    o->prog = "sfs3";
}

typedef int (*vd_step_fn)(struct vd_ctx *v);

/* The reference order (docs/SFS30.md §19), the read-back after the read
 * step, the extended section last. */
static const vd_step_fn steps[] = {
    vd_step_null,    vd_step_create,   vd_step_attributes, vd_step_write,
    vd_step_read,    vd_step_readback, vd_step_readdir,    vd_step_readdirplus,
    vd_step_release, vd_step_rename,   vd_step_remove,     vd_step_extended,
};

static int finish(struct vd_ctx *v, int stopped)
{
    v->step = NULL;
    if (stopped == -ECANCELED)
        fprintf(v->out, "validation stopped after a warning\n");
    if (v->deviations)
        fprintf(v->out,
                "%u deviation%s from the RFCs beyond what SFS 3.0 checks (the W lines "
                "marked [deviation]; they lose no data and are not errors)\n",
                v->deviations, v->deviations == 1 ? "" : "s");
    if (stopped == 0 && v->warnings == 0 && v->errors == 0) {
        fprintf(v->out, "validation completed successfully.\n");
        fflush(v->out);
        return VD_PASSED;
    }
    fprintf(v->out, "%u warning%s, %u error%s\n", v->warnings,
            v->warnings == 1 ? "" : "s", v->errors, v->errors == 1 ? "" : "s");
    fprintf(v->out, "validation terminated with errors\n");
    fflush(v->out);
    return VD_FAILED;
}

/* The suite's table of each NFS version it validates over; NULL: none. */
static const struct vd_proto *proto_of(int nfs_version)
{
    return nfs_version == 2   ? &vd_proto2
           : nfs_version == 3 ? &vd_proto3
           : nfs_version == 4 ? &vd_proto4
                              : NULL;
}

int vd_speaks(int nfs_version)
{
    return proto_of(nfs_version) != NULL;
}

int vd_run(const struct vd_opts *o, FILE *out, FILE *in)
{
    struct vd_ctx *v = cm_calloc(1, sizeof(*v));
    char err[CM_ERR_LEN];
    size_t i;
    int rc = 0, result;

    if (!v || !vd_speaks(o->nfs_version)) {
        fprintf(out, "E: %s\nvalidation terminated with errors\n",
                v ? "no validation over this NFS version" : "out of memory");
        free(v);
        return VD_FAILED;
    }
    v->o = o;
    v->out = out;
    v->in = in;
    v->p = proto_of(o->nfs_version);
    v->uid = (uint32_t)getuid();
    v->gid = (uint32_t)getgid();
    v->set_time = (uint32_t)time(NULL) - DAY_S;
    v->ext_file = -1;
    fprintf(out, "%s: validating %s over NFSv%s/%s, level %d, in %s\n", o->prog, o->mount,
            o->nfs_version == 4   ? "4.1"
            : o->nfs_version == 3 ? "3"
                                  : "2",
            o->tcp || o->nfs_version == 4 ? "TCP" : "UDP", o->level, VD_WORKDIR);
    fflush(out);
    v->step = "mount";
    if (vd_mount(v, 1, err, sizeof(err)) < 0) {
        vd_error(v, "%s", err);
        result = finish(v, -EIO);
        vd4_free(v);
        free(v);
        return result;
    }
    vd_objects_init(v);
    rc = vd_workdir_open(v);
    for (i = 0; rc == 0 && i < CM_ARRAY_LEN(steps); i++)
        rc = steps[i](v);
    if (v->mounted) {
        vd_step_release(v);
        vd_workdir_remove(v);
        vd_umount(v);
    }
    result = finish(v, rc);
    vd4_free(v);
    free(v);
    return result;
}
