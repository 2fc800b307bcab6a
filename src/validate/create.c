/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * create.c - the first two reference steps (vd_int.h; docs/SFS30.md §19
 * steps 1 and 2): NULL, then the object set in validatedir.  Files by
 * CREATE (v3 UNCHECKED) with mode 0666, our uid and gid, size 0 and the
 * times; directories by MKDIR 0777; hard links (link N to file N, the link
 * count kept in the file's record); symbolic links "./<file>" followed by
 * LOOKUP and a READLINK that must return the text exactly.  An object that
 * cannot be made stops the run: every later step needs the whole set.
 */
#include <string.h>

#include "validate/vd_int.h"

int vd_step_null(struct vd_ctx *v)
{
    int rc;

    vd_begin(v, "null", "NULL call");
    rc = v->p->null(v);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_NULL_OP, "NULL", rc);
    return 0;
}

/* LOOKUP of a new object: its handle when the reply gave none, and for
 * links and symlinks (v2 returns neither). */
static int lookup_new(struct vd_ctx *v, struct vd_obj *o, struct vd_res *r)
{
    int st = v->p->lookup(v, &v->workdir, o->name, r);

    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_LOOKUP, o->name, st);
    if (!r->have_fh)
        return vd_error(v, "%s: LOOKUP returned no usable file handle", o->name);
    o->fh = r->fh;
    return 0;
}

static int make_file_or_dir(struct vd_ctx *v, struct vd_obj *o)
{
    int dir = o->kind == VD_DIR, op = dir ? NF_OP_MKDIR : NF_OP_CREATE;
    struct vd_res r;
    int st, rc;

    vd_attr_expect(v, &v->attrs[o->ino], o->kind);
    st = dir ? v->p->mkdir(v, &v->workdir, o->name, 0777, &r)
             : v->p->create(v, &v->workdir, o->name, 0666, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, op, o->name, st);
    o->exists = 1;
    if (r.have_fh)
        o->fh = r.fh;
    else if ((rc = lookup_new(v, o, &r)) < 0)
        return rc;
    if (r.have_attr) {
        rc = vd_attr_check(v, o, &r.attr, 0, dir ? "MKDIR" : "CREATE", op);
        if (rc < 0)
            return rc;
    }
    vd_detail(v, "%s %s: fileid %llu", dir ? "mkdir" : "create", o->name,
              (unsigned long long)v->attrs[o->ino].fileid);
    return 0;
}

static int make_link(struct vd_ctx *v, struct vd_obj *o)
{
    struct vd_obj *file = &v->obj[o->target];
    struct vd_attr *a = &v->attrs[o->ino];
    struct vd_res r;
    int st, rc;

    st = v->p->link(v, &file->fh, &v->workdir, o->name, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_LINK, o->name, st);
    o->exists = 1;
    if (a->nlink != VD_UNKNOWN32)
        a->nlink++;
    if (r.have_attr && (rc = vd_attr_check(v, o, &r.attr, 0, "LINK", NF_OP_LINK)) < 0)
        return rc;
    if ((rc = lookup_new(v, o, &r)) < 0)
        return rc;
    if (r.have_attr && (rc = vd_attr_check(v, o, &r.attr, 0, "LOOKUP", NF_OP_LOOKUP)) < 0)
        return rc;
    vd_detail(v, "link %s -> %s: nlink %u", o->name, file->name, a->nlink);
    return 0;
}

static int make_symlink(struct vd_ctx *v, struct vd_obj *o)
{
    char text[VD_NAME_MAX + 8];
    struct vd_res r;
    int st, rc;

    vd_symlink_text(v, o, text, sizeof(text));
    vd_attr_expect(v, &v->attrs[o->ino], o->kind);
    st = v->p->symlink(v, &v->workdir, o->name, text, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_SYMLINK, o->name, st);
    o->exists = 1;
    if (r.have_attr &&
        (rc = vd_attr_check(v, o, &r.attr, 0, "SYMLINK", NF_OP_SYMLINK)) < 0)
        return rc;
    if ((rc = lookup_new(v, o, &r)) < 0)
        return rc;
    if (r.have_attr && (rc = vd_attr_check(v, o, &r.attr, 0, "LOOKUP", NF_OP_LOOKUP)) < 0)
        return rc;
    st = v->p->readlink(v, &o->fh, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_READLINK, o->name, st);
    if (strcmp(r.text, text) != 0)
        return vd_warn(v, "%s: READLINK returned '%s', the link was made to '%s' (%s)",
                       o->name, r.text, text, vd_rfc(v, NF_OP_READLINK));
    vd_detail(v, "symlink %s -> %s", o->name, text);
    return 0;
}

int vd_step_create(struct vd_ctx *v)
{
    int i, rc = 0;

    vd_begin(v, "create", "%d files, %d directories, %d hard links, %d symbolic links",
             v->nkind[VD_FILE], v->nkind[VD_DIR], v->nkind[VD_LINK],
             v->nkind[VD_SYMLINK]);
    for (i = 0; i < v->nobj && rc == 0; i++) {
        struct vd_obj *o = &v->obj[i];

        switch (o->kind) {
        case VD_FILE:
        case VD_DIR:
            rc = make_file_or_dir(v, o);
            break;
        case VD_LINK:
            rc = make_link(v, o);
            break;
        case VD_SYMLINK:
            rc = make_symlink(v, o);
            break;
        case VD_NKINDS:
            break;
        }
    }
    return rc;
}
