/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto3.c - the NFSv3 adapter of the validation suite (vd_int.h): each
 * reference-step call through the typed calls of src/nfs (nf3_*), its reply
 * turned into a struct vd_res and freed.  Also the attribute conversion
 * the v3-only steps share (vd3_attr).
 */
#include <string.h>

#include "validate/vd_int.h"

static void fh_arg(const struct nf_fh *fh, nfs_fh3 *out)
{
    nf_fh_to_v3(fh, out);
}

void vd3_attr(const fattr3 *f, struct vd_attr *a)
{
    a->type = (uint32_t)f->type;
    a->mode = f->mode & 07777;
    a->nlink = f->nlink;
    a->uid = f->uid;
    a->gid = f->gid;
    a->size = f->size;
    a->fsid = f->fsid;
    a->fileid = f->fileid;
    a->rdev1 = f->rdev.specdata1;
    a->rdev2 = f->rdev.specdata2;
    a->atime_s = f->atime.seconds;
    a->mtime_s = f->mtime.seconds;
}

void vd3_post_op(const post_op_attr *p, struct vd_res *r)
{
    if (p->attributes_follow) {
        vd3_attr(&p->post_op_attr_u.attributes, &r->attr);
        r->have_attr = 1;
    }
}

static void post_fh(const post_op_fh3 *p, struct vd_res *r)
{
    if (p->handle_follows && nf_fh_from_v3(&r->fh, &p->post_op_fh3_u.handle) == 0)
        r->have_fh = 1;
}

static void dirop(const struct nf_fh *dir, const char *name, diropargs3 *d)
{
    fh_arg(dir, &d->dir);
    d->name = (char *)(uintptr_t)name;
}

static void sattr_new(struct vd_ctx *v, sattr3 *s, uint32_t mode, int owner)
{
    uint32_t sec, nsec;

    memset(s, 0, sizeof(*s));
    s->mode.set_it = TRUE;
    s->mode.set_mode3_u.mode = mode;
    if (owner) {
        s->uid.set_it = TRUE;
        s->uid.set_uid3_u.uid = v->uid;
        s->gid.set_it = TRUE;
        s->gid.set_gid3_u.gid = v->gid;
        s->size.set_it = TRUE;
        s->size.set_size3_u.size = 0;
        cm_wall_time(&sec, &nsec);
        s->atime.set_it = SET_TO_CLIENT_TIME;
        s->atime.set_atime_u.atime.seconds = sec;
        s->atime.set_atime_u.atime.nseconds = nsec;
        s->mtime.set_it = SET_TO_CLIENT_TIME;
        s->mtime.set_mtime_u.mtime = s->atime.set_atime_u.atime;
    }
}

static void res_clear(struct vd_res *r)
{
    memset(r, 0, sizeof(*r));
    r->eof = -1;
}

int vd_reply_done(int rc, void *res, xdrproc_t codec)
{
    if (rc < 0)
        return rc;
    rc = (int)*(const uint32_t *)res;
    xdr_free(codec, (char *)res);
    return rc;
}

static int p3_null(struct vd_ctx *v)
{
    nf_void a = {0}, r = {0};
    int rc;

    VD_CALL(v, rc, nf3_null(v->clnt, &a, &r));
    return rc;
}

static int p3_getattr(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    GETATTR3args a;
    GETATTR3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    fh_arg(fh, &a.object);
    VD_CALL(v, rc, nf3_getattr(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        vd3_attr(&res.GETATTR3res_u.resok.obj_attributes, &r->attr);
        r->have_attr = 1;
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_GETATTR3res);
}

static int p3_setattr(struct vd_ctx *v, const struct nf_fh *fh, uint32_t mode,
                      uint32_t time_s, struct vd_res *r)
{
    SETATTR3args a;
    SETATTR3res res;
    int rc;

    res_clear(r);
    memset(&a, 0, sizeof(a));
    memset(&res, 0, sizeof(res));
    fh_arg(fh, &a.object);
    sattr_new(v, &a.new_attributes, mode, 0);
    a.new_attributes.atime.set_it = SET_TO_CLIENT_TIME;
    a.new_attributes.atime.set_atime_u.atime.seconds = time_s;
    a.new_attributes.mtime.set_it = SET_TO_CLIENT_TIME;
    a.new_attributes.mtime.set_mtime_u.mtime.seconds = time_s;
    a.guard.check = FALSE;
    VD_CALL(v, rc, nf3_setattr(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK)
        vd3_post_op(&res.SETATTR3res_u.resok.obj_wcc.after, r);
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_SETATTR3res);
}

static int p3_lookup(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     struct vd_res *r)
{
    LOOKUP3args a;
    LOOKUP3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    dirop(dir, name, &a.what);
    VD_CALL(v, rc, nf3_lookup(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        r->have_fh = nf_fh_from_v3(&r->fh, &res.LOOKUP3res_u.resok.object) == 0;
        vd3_post_op(&res.LOOKUP3res_u.resok.obj_attributes, r);
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_LOOKUP3res);
}

static int p3_create(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     uint32_t mode, struct vd_res *r)
{
    CREATE3args a;
    CREATE3res res;
    int rc;

    res_clear(r);
    memset(&a, 0, sizeof(a));
    memset(&res, 0, sizeof(res));
    dirop(dir, name, &a.where);
    a.how.mode = UNCHECKED;
    sattr_new(v, &a.how.createhow3_u.obj_attributes, mode, 1);
    VD_CALL(v, rc, nf3_create(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        post_fh(&res.CREATE3res_u.resok.obj, r);
        vd3_post_op(&res.CREATE3res_u.resok.obj_attributes, r);
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_CREATE3res);
}

static int p3_mkdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                    uint32_t mode, struct vd_res *r)
{
    MKDIR3args a;
    MKDIR3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    dirop(dir, name, &a.where);
    sattr_new(v, &a.attributes, mode, 0);
    VD_CALL(v, rc, nf3_mkdir(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        post_fh(&res.MKDIR3res_u.resok.obj, r);
        vd3_post_op(&res.MKDIR3res_u.resok.obj_attributes, r);
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_MKDIR3res);
}

static int p3_link(struct vd_ctx *v, const struct nf_fh *file, const struct nf_fh *dir,
                   const char *name, struct vd_res *r)
{
    LINK3args a;
    LINK3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    fh_arg(file, &a.file);
    dirop(dir, name, &a.link);
    VD_CALL(v, rc, nf3_link(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK)
        vd3_post_op(&res.LINK3res_u.resok.file_attributes, r);
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_LINK3res);
}

static int p3_symlink(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                      const char *text, struct vd_res *r)
{
    SYMLINK3args a;
    SYMLINK3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    dirop(dir, name, &a.where);
    sattr_new(v, &a.symlink.symlink_attributes, 0777, 0);
    a.symlink.symlink_data = (char *)(uintptr_t)text;
    VD_CALL(v, rc, nf3_symlink(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        post_fh(&res.SYMLINK3res_u.resok.obj, r);
        vd3_post_op(&res.SYMLINK3res_u.resok.obj_attributes, r);
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_SYMLINK3res);
}

static int p3_readlink(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    READLINK3args a;
    READLINK3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    fh_arg(fh, &a.symlink);
    VD_CALL(v, rc, nf3_readlink(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        snprintf(r->text, sizeof(r->text), "%s",
                 res.READLINK3res_u.resok.data ? res.READLINK3res_u.resok.data : "");
        vd3_post_op(&res.READLINK3res_u.resok.symlink_attributes, r);
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_READLINK3res);
}

static int p3_write(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off,
                    const void *buf, uint32_t len, int stable, struct vd_res *r)
{
    WRITE3args a;
    WRITE3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    fh_arg(fh, &a.file);
    a.offset = off;
    a.count = len;
    a.stable = (stable_how)stable;
    a.data.data_len = len;
    a.data.data_val = (char *)(uintptr_t)buf;
    VD_CALL(v, rc, nf3_write(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        const WRITE3resok *ok = &res.WRITE3res_u.resok;

        vd3_post_op(&ok->file_wcc.after, r);
        r->count = ok->count;
        r->committed = (int)ok->committed;
        memcpy(r->verf, ok->verf, sizeof(r->verf));
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_WRITE3res);
}

static int p3_read(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, void *buf,
                   uint32_t len, struct vd_res *r)
{
    READ3args a;
    READ3res res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    fh_arg(fh, &a.file);
    a.offset = off;
    a.count = len;
    VD_CALL(v, rc, nf3_read(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        const READ3resok *ok = &res.READ3res_u.resok;
        uint32_t n = ok->data.data_len < len ? ok->data.data_len : len;

        vd3_post_op(&ok->file_attributes, r);
        memcpy(buf, ok->data.data_val, n);
        r->count = n;
        r->eof = ok->eof ? 1 : 0;
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_READ3res);
}

static int p3_readdir(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                      vd_entry_fn fn, void *data, struct vd_res *r)
{
    READDIR3args a;
    READDIR3res res;
    const entry3 *e;
    int rc, stop = 0;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    fh_arg(dir, &a.dir);
    a.cookie = cur->cookie;
    memcpy(a.cookieverf, cur->verf, sizeof(a.cookieverf));
    a.count = vd_proto3.readdir_count;
    VD_CALL(v, rc, nf3_readdir(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS3_OK) {
        const READDIR3resok *ok = &res.READDIR3res_u.resok;

        memcpy(cur->verf, ok->cookieverf, sizeof(cur->verf));
        for (e = ok->reply.entries; e; e = e->nextentry) {
            if (!stop)
                stop = fn(v, e->name ? e->name : "", e->fileid, data);
            cur->cookie = e->cookie;
            r->count++;
        }
        r->eof = ok->reply.eof ? 1 : 0;
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_READDIR3res);
}

static int p3_dirop(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                    int rmdir)
{
    union {
        REMOVE3args remove;
        RMDIR3args rmdir;
    } a;
    union {
        REMOVE3res remove;
        RMDIR3res rmdir;
    } res;
    int rc;

    memset(&res, 0, sizeof(res));
    dirop(dir, name, rmdir ? &a.rmdir.object : &a.remove.object);
    if (rmdir)
        VD_CALL(v, rc, nf3_rmdir(v->clnt, &a.rmdir, &res.rmdir));
    else
        VD_CALL(v, rc, nf3_remove(v->clnt, &a.remove, &res.remove));
    return vd_reply_done(rc, &res,
                         rmdir ? (xdrproc_t)xdr_RMDIR3res : (xdrproc_t)xdr_REMOVE3res);
}

static int p3_remove(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    return p3_dirop(v, dir, name, 0);
}

static int p3_rmdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    return p3_dirop(v, dir, name, 1);
}

static int p3_rename(struct vd_ctx *v, const struct nf_fh *dir, const char *from,
                     const char *to)
{
    RENAME3args a;
    RENAME3res res;
    int rc;

    memset(&res, 0, sizeof(res));
    dirop(dir, from, &a.from);
    dirop(dir, to, &a.to);
    VD_CALL(v, rc, nf3_rename(v->clnt, &a, &res));
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_RENAME3res);
}

const struct vd_proto vd_proto3 = {
    .version = 3,
    .rfc = "RFC 1813",
    .section =
        {
            [NF_OP_NULL_OP] = "RFC 1813 section 3.3.0",
            [NF_OP_GETATTR] = "RFC 1813 section 3.3.1",
            [NF_OP_SETATTR] = "RFC 1813 section 3.3.2",
            [NF_OP_LOOKUP] = "RFC 1813 section 3.3.3",
            [NF_OP_ACCESS] = "RFC 1813 section 3.3.4",
            [NF_OP_READLINK] = "RFC 1813 section 3.3.5",
            [NF_OP_READ] = "RFC 1813 section 3.3.6",
            [NF_OP_WRITE] = "RFC 1813 section 3.3.7",
            [NF_OP_CREATE] = "RFC 1813 section 3.3.8",
            [NF_OP_MKDIR] = "RFC 1813 section 3.3.9",
            [NF_OP_SYMLINK] = "RFC 1813 section 3.3.10",
            [NF_OP_MKNOD] = "RFC 1813 section 3.3.11",
            [NF_OP_REMOVE] = "RFC 1813 section 3.3.12",
            [NF_OP_RMDIR] = "RFC 1813 section 3.3.13",
            [NF_OP_RENAME] = "RFC 1813 section 3.3.14",
            [NF_OP_LINK] = "RFC 1813 section 3.3.15",
            [NF_OP_READDIR] = "RFC 1813 section 3.3.16",
            [NF_OP_READDIRPLUS] = "RFC 1813 section 3.3.17",
            [NF_OP_FSSTAT] = "RFC 1813 section 3.3.18",
            [NF_OP_FSINFO] = "RFC 1813 section 3.3.19",
            [NF_OP_PATHCONF] = "RFC 1813 section 3.3.20",
            [NF_OP_COMMIT] = "RFC 1813 section 3.3.21",
        },
    .readdir_count = 8192,
    .null = p3_null,
    .getattr = p3_getattr,
    .setattr = p3_setattr,
    .lookup = p3_lookup,
    .create = p3_create,
    .mkdir = p3_mkdir,
    .link = p3_link,
    .symlink = p3_symlink,
    .readlink = p3_readlink,
    .write = p3_write,
    .read = p3_read,
    .readdir = p3_readdir,
    .remove = p3_remove,
    .rmdir = p3_rmdir,
    .rename = p3_rename,
};
