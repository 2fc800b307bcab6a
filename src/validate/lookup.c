/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lookup.c - the attributes step (vd_int.h; docs/SFS30.md §19 step 3):
 * LOOKUP each object (the handle must be the one the object was made with:
 * an error in v3, a warning in v2; the attributes must match), GETATTR it,
 * SETATTR mode 0777 (directories) or 0666 (the others) and both times (v3
 * without the guard), compare the reply, then GETATTR again.  A symbolic
 * link may keep its mode (POSIX leaves it unspecified; RFC 1094 section
 * 2.2.14: UNIX servers keep 0777).  Beyond SFS, GETATTR must show the times
 * SETATTR set: objects where it does not are one deviation.
 */
#include <stdio.h>
#include <string.h>

#include "validate/vd_int.h"

/* Objects whose times SETATTR did not set: reported once, at the end. */
struct times_seen {
    unsigned wrong;
    char first[VD_NAME_MAX + 80];
};

static void check_times(struct vd_ctx *v, const struct vd_obj *o, const struct vd_attr *a,
                        const char *via, struct times_seen *ts)
{
    if (a->mtime_s == v->set_time && a->atime_s == v->set_time)
        return;
    if (ts->wrong++ == 0)
        snprintf(ts->first, sizeof(ts->first), "%s: %s shows atime %u, mtime %u", o->name,
                 via, a->atime_s, a->mtime_s);
}

static int lookup_one(struct vd_ctx *v, struct vd_obj *o)
{
    struct vd_res r;
    int st = v->p->lookup(v, &v->workdir, o->name, &r);

    if (st < 0)
        return vd_fail_call(v, NF_OP_LOOKUP, o->name, st);
    if (st != NF_ST_OK)
        return vd_warn(v, "%s: LOOKUP: %s (%s)", o->name, nf_status_name((uint32_t)st),
                       vd_rfc(v, NF_OP_LOOKUP));
    if (!r.have_fh || !nf_fh_equal(&r.fh, &o->fh)) {
        if (v->p->version != 2)
            return vd_error(v,
                            "%s: filehandles do not match: LOOKUP returned another "
                            "handle than the object was made with (%s)",
                            o->name, vd_rfc(v, NF_OP_LOOKUP));
        int rc = vd_warn(v,
                         "%s: filehandles do not match: LOOKUP returned another "
                         "handle than the object was made with (%s)",
                         o->name, vd_rfc(v, NF_OP_LOOKUP));
        if (rc < 0)
            return rc;
    }
    if (r.have_attr)
        return vd_attr_check(v, o, &r.attr, 0, "LOOKUP", NF_OP_LOOKUP);
    return 0;
}

static int getattr_one(struct vd_ctx *v, struct vd_obj *o, int after_setattr,
                       struct times_seen *ts)
{
    struct vd_res r;
    int st = v->p->getattr(v, &o->fh, &r), rc;

    if (st < 0)
        return vd_fail_call(v, NF_OP_GETATTR, o->name, st);
    if (st != NF_ST_OK)
        return vd_warn(v, "%s: GETATTR: %s (%s)", o->name, nf_status_name((uint32_t)st),
                       vd_rfc(v, NF_OP_GETATTR));
    rc = vd_attr_check(v, o, &r.attr, 0, "GETATTR", NF_OP_GETATTR);
    if (rc == 0 && after_setattr)
        check_times(v, o, &r.attr, "GETATTR", ts);
    return rc;
}

static int setattr_one(struct vd_ctx *v, struct vd_obj *o, int *applied)
{
    uint32_t mode = o->kind == VD_DIR ? 0777 : 0666;
    struct vd_res r;
    int st;

    st = v->p->setattr(v, &o->fh, mode, v->set_time, &r);
    if (st < 0 || (st != NF_ST_OK && v->p->version != 2))
        return vd_fail_call(v, NF_OP_SETATTR, o->name, st);
    if (st != NF_ST_OK)
        return vd_warn(v, "%s: SETATTR: %s (%s)", o->name, nf_status_name((uint32_t)st),
                       vd_rfc(v, NF_OP_SETATTR));
    *applied = 1;
    if (!r.have_attr && (st = v->p->getattr(v, &o->fh, &r)) != NF_ST_OK)
        return vd_fail_call(v, NF_OP_GETATTR, o->name, st);
    if (o->kind == VD_SYMLINK && r.attr.mode != mode &&
        r.attr.mode == v->attrs[o->ino].mode)
        /* POSIX leaves the mode of a symlink unspecified; Linux and Solaris
         * keep 0777 whatever is asked */
        vd_info(v,
                "%s: the mode of a symbolic link stays %#o: UNIX servers do not use "
                "it (RFC 1094 section 2.2.14)",
                o->name, r.attr.mode);
    else
        v->attrs[o->ino].mode = mode;
    return vd_attr_check(v, o, &r.attr, 0, "SETATTR", NF_OP_SETATTR);
}

int vd_step_attributes(struct vd_ctx *v)
{
    struct times_seen ts;
    int i, rc = 0;

    memset(&ts, 0, sizeof(ts));
    vd_begin(v, "attributes", "LOOKUP, GETATTR, SETATTR and GETATTR of each object");
    for (i = 0; i < v->nobj && rc == 0; i++) {
        struct vd_obj *o = &v->obj[i];
        int applied = 0;

        rc = lookup_one(v, o);
        if (rc == 0)
            rc = getattr_one(v, o, 0, &ts);
        if (rc == 0)
            rc = setattr_one(v, o, &applied);
        if (rc == 0)
            rc = getattr_one(v, o, applied, &ts);
        if (rc == 0)
            vd_detail(v, "%s: mode %#o, nlink %u, fileid %llu", o->name,
                      v->attrs[o->ino].mode, v->attrs[o->ino].nlink,
                      (unsigned long long)v->attrs[o->ino].fileid);
    }
    if (rc == 0 && ts.wrong)
        rc = vd_deviation(v,
                          "SETATTR answered OK but did not set both times to %u on %u "
                          "objects (first %s) (%s)",
                          v->set_time, ts.wrong, ts.first, vd_rfc(v, NF_OP_SETATTR));
    return rc;
}
