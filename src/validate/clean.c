/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clean.c - the last reference steps (vd_int.h; docs/SFS30.md §19 steps 8
 * and 9).  Rename: each object to "n<name>" (an error when nothing could be
 * renamed); beyond SFS, the old name must be gone and the new one must
 * name the same file.  Remove: REMOVE files, links and symlinks, RMDIR
 * directories, and a LOOKUP afterwards must answer NOENT ("file not
 * removed").
 */
#include <stdio.h>
#include <string.h>

#include "validate/vd_int.h"

/* After RENAME: the old name gone, the new one the same object. */
static int check_renamed(struct vd_ctx *v, struct vd_obj *o, const char *old)
{
    struct vd_res r;
    int st;

    st = v->p->lookup(v, &v->workdir, old, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_LOOKUP, old, st);
    if (st != NF_ST_NOENT)
        return vd_warn(v,
                       "%s: LOOKUP of the old name after RENAME to %s answered %s, "
                       "not NOENT (%s)",
                       old, o->name, nf_status_name((uint32_t)st),
                       vd_rfc(v, NF_OP_RENAME));
    st = v->p->lookup(v, &v->workdir, o->name, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_LOOKUP, o->name, st);
    if (st != NF_ST_OK)
        return vd_warn(v, "%s: LOOKUP after RENAME from %s: %s (%s)", o->name, old,
                       nf_status_name((uint32_t)st), vd_rfc(v, NF_OP_RENAME));
    if (r.have_attr)
        return vd_attr_check(v, o, &r.attr, 0, "LOOKUP", NF_OP_RENAME);
    return 0;
}

int vd_step_rename(struct vd_ctx *v)
{
    char old[VD_NAME_MAX];
    int i, st, renamed = 0, rc = 0;

    vd_begin(v, "rename", "each object to n<name>");
    for (i = 0; i < v->nobj && rc == 0; i++) {
        struct vd_obj *o = &v->obj[i];
        char to[VD_NAME_MAX];

        if (!o->exists)
            continue;
        snprintf(old, sizeof(old), "%s", o->name);
        snprintf(to, sizeof(to), "n%.*s", VD_NAME_MAX - 2, old);
        st = v->p->rename(v, &v->workdir, old, to);
        if (st < 0)
            return vd_fail_call(v, NF_OP_RENAME, old, st);
        if (st != NF_ST_OK) {
            rc = vd_warn(v, "%s: RENAME to %s: %s (%s)", old, to,
                         nf_status_name((uint32_t)st), vd_rfc(v, NF_OP_RENAME));
            continue;
        }
        snprintf(o->name, sizeof(o->name), "%s", to);
        renamed++;
        rc = check_renamed(v, o, old);
        vd_detail(v, "%s -> %s", old, to);
    }
    if (rc == 0 && renamed == 0)
        return vd_error(v, "nothing could be renamed");
    return rc;
}

int vd_step_remove(struct vd_ctx *v)
{
    int i, st, rc = 0;

    vd_begin(v, "remove", "REMOVE and RMDIR each object, then LOOKUP");
    for (i = 0; i < v->nobj && rc == 0; i++) {
        struct vd_obj *o = &v->obj[i];
        int op = o->kind == VD_DIR ? NF_OP_RMDIR : NF_OP_REMOVE;
        struct vd_res r;

        if (!o->exists)
            continue;
        st = o->kind == VD_DIR ? v->p->rmdir(v, &v->workdir, o->name)
                               : v->p->remove(v, &v->workdir, o->name);
        if (st < 0)
            return vd_fail_call(v, op, o->name, st);
        if (st != NF_ST_OK) {
            rc = vd_warn(v, "%s: %s: %s (%s)", o->name,
                         op == NF_OP_RMDIR ? "RMDIR" : "REMOVE",
                         nf_status_name((uint32_t)st), vd_rfc(v, op));
            continue;
        }
        o->exists = 0;
        if (o->kind == VD_LINK && v->attrs[o->ino].nlink != VD_UNKNOWN32)
            v->attrs[o->ino].nlink--;
        st = v->p->lookup(v, &v->workdir, o->name, &r);
        if (st < 0)
            return vd_fail_call(v, NF_OP_LOOKUP, o->name, st);
        if (st != NF_ST_NOENT)
            rc = vd_warn(v, "%s: file not removed: LOOKUP after %s answered %s (%s)",
                         o->name, op == NF_OP_RMDIR ? "RMDIR" : "REMOVE",
                         nf_status_name((uint32_t)st), vd_rfc(v, op));
        else
            vd_detail(v, "%s removed", o->name);
    }
    return rc;
}
