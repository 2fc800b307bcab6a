/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto.c - the two protocol adapters of the validation suite (vd_int.h):
 * each call the reference steps make, in its NFSv2 and its NFSv3 form side
 * by side, over the round trips vd_int.h generates from the procedure lists
 * (vd2_<proc>, vd3_<proc>: send, retry after a timeout, status, free).
 * What is left here is what differs between the versions: building the
 * arguments and turning the reply into a struct vd_res.  The adapter tables
 * vd_proto2 and vd_proto3 are generated from VD_PROTO_CALLS, so both
 * versions implement every call.  Also the conversions the v3-only steps
 * share (vd3_attr, vd3_post_op, vd3_new_obj).
 *
 * NFSv2 has no post-op attributes on LINK and SYMLINK and no handle from
 * SYMLINK: the steps look those up.  A v2 sattr field of all ones means "do
 * not set" (RFC 1094 section 2.3.6).
 */
#include <string.h>

#include "validate/vd_int.h"
#include "common/bytes.h"

#define NOT_SET          0xffffffffu
#define V2_FIFO          8   /* NFFIFO */
#define V2_READDIR_COUNT 264 /* about 9 entries a call, as SFS read them */
#define V3_READDIR_COUNT 8192

/* ---- conversions ------------------------------------------------------------ */

static void attr2(const fattr *f, struct vd_attr *a)
{
    a->type = f->type == V2_FIFO                        ? VD_T_FIFO
              : (f->type >= NFREG && f->type <= NFSOCK) ? (uint32_t)f->type
                                                        : VD_T_BAD;
    a->mode = f->mode & 07777;
    a->nlink = f->nlink;
    a->uid = f->uid;
    a->gid = f->gid;
    a->size = f->size;
    a->fsid = f->fsid;
    a->fileid = f->fileid;
    a->rdev1 = f->rdev;
    a->rdev2 = 0;
    a->atime_s = f->atime.seconds;
    a->mtime_s = f->mtime.seconds;
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

void vd3_new_obj(const post_op_fh3 *fh, const post_op_attr *attr, struct vd_res *r)
{
    if (fh->handle_follows && nf_fh_from_v3(&r->fh, &fh->post_op_fh3_u.handle) == 0)
        r->have_fh = 1;
    vd3_post_op(attr, r);
}

static void res_clear(struct vd_res *r)
{
    memset(r, 0, sizeof(*r));
    r->eof = -1;
}

static void dirop2(const struct nf_fh *dir, const char *name, diropargs *d)
{
    (void)nf_fh_to_v2(dir, &d->dir);
    d->name = (char *)(uintptr_t)name;
}

static void dirop3(const struct nf_fh *dir, const char *name, diropargs3 *d)
{
    nf_fh_to_v3(dir, &d->dir);
    d->name = (char *)(uintptr_t)name;
}

/* A v2 sattr that sets nothing. */
static void sattr2_none(sattr *s)
{
    struct nf_sattr none = {0};

    nf_sattr_to_v2(&none, s);
}

/* The mode, and with owner our uid and gid, size 0 and the times now (a
 * CREATE's). */
static void sattr_new(struct vd_ctx *v, struct nf_sattr *s, uint32_t mode, int owner)
{
    nf_sattr_mode(s, mode);
    if (!owner)
        return;
    s->set |= NF_SA_UID | NF_SA_GID | NF_SA_SIZE;
    s->uid = v->uid;
    s->gid = v->gid;
    s->size = 0;
    nf_sattr_times_now(s);
}

/* The new-object attributes of a v2 CREATE: type|mode, our uid and gid,
 * size 0, times now. */
static void sattr2_new(struct vd_ctx *v, sattr *s, uint32_t mode)
{
    struct nf_sattr n;

    sattr_new(v, &n, mode, 1);
    nf_sattr_to_v2(&n, s);
}

/* v3 attributes to set: the mode, and with owner the rest of a CREATE's. */
static void sattr3_new(struct vd_ctx *v, sattr3 *s, uint32_t mode, int owner)
{
    struct nf_sattr n;

    sattr_new(v, &n, mode, owner);
    nf_sattr_to_v3(&n, s);
}

/* v2 replies of type attrstat (GETATTR, SETATTR, WRITE) and diropres
 * (LOOKUP, CREATE, MKDIR). */
static void attrstat2(const attrstat *res, struct vd_res *r)
{
    if (res->status == NFS_OK) {
        attr2(&res->attrstat_u.attributes, &r->attr);
        r->have_attr = 1;
    }
}

static void diropres2(const diropres *res, struct vd_res *r)
{
    if (res->status == NFS_OK) {
        nf_fh_from_v2(&r->fh, &res->diropres_u.diropres.file);
        r->have_fh = 1;
        attr2(&res->diropres_u.diropres.attributes, &r->attr);
        r->have_attr = 1;
    }
}

/* ---- NULL ----------------------------------------------------------------- */

static int p2_null(struct vd_ctx *v)
{
    nf_void a = {0}, res;

    return vd2_null(v, &a, &res);
}

static int p3_null(struct vd_ctx *v)
{
    nf_void a = {0}, res;

    return vd3_null(v, &a, &res);
}

/* ---- GETATTR -------------------------------------------------------------- */

static int p2_getattr(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    nfs_fh a;
    attrstat res;
    int rc;

    res_clear(r);
    (void)nf_fh_to_v2(fh, &a);
    if ((rc = vd2_getattr(v, &a, &res)) == 0)
        attrstat2(&res, r);
    return vd2_getattr_done(rc, &res);
}

static int p3_getattr(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    GETATTR3args a;
    GETATTR3res res;
    int rc;

    res_clear(r);
    nf_fh_to_v3(fh, &a.object);
    if ((rc = vd3_getattr(v, &a, &res)) == 0 && res.status == NFS3_OK) {
        vd3_attr(&res.GETATTR3res_u.resok.obj_attributes, &r->attr);
        r->have_attr = 1;
    }
    return vd3_getattr_done(rc, &res);
}

/* ---- SETATTR: the mode and both times, v3 without the guard ---------------- */

static int p2_setattr(struct vd_ctx *v, const struct nf_fh *fh, uint32_t mode,
                      uint32_t time_s, struct vd_res *r)
{
    sattrargs a;
    attrstat res;
    int rc;

    res_clear(r);
    (void)nf_fh_to_v2(fh, &a.file);
    sattr2_none(&a.attributes);
    a.attributes.mode = mode;
    a.attributes.atime.seconds = time_s;
    a.attributes.atime.useconds = 0;
    a.attributes.mtime = a.attributes.atime;
    if ((rc = vd2_setattr(v, &a, &res)) == 0)
        attrstat2(&res, r);
    return vd2_setattr_done(rc, &res);
}

static int p3_setattr(struct vd_ctx *v, const struct nf_fh *fh, uint32_t mode,
                      uint32_t time_s, struct vd_res *r)
{
    SETATTR3args a;
    SETATTR3res res;
    int rc;

    res_clear(r);
    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(fh, &a.object);
    sattr3_new(v, &a.new_attributes, mode, 0);
    a.new_attributes.atime.set_it = SET_TO_CLIENT_TIME;
    a.new_attributes.atime.set_atime_u.atime.seconds = time_s;
    a.new_attributes.mtime.set_it = SET_TO_CLIENT_TIME;
    a.new_attributes.mtime.set_mtime_u.mtime.seconds = time_s;
    a.guard.check = FALSE;
    if ((rc = vd3_setattr(v, &a, &res)) == 0 && res.status == NFS3_OK)
        vd3_post_op(&res.SETATTR3res_u.resok.obj_wcc.after, r);
    return vd3_setattr_done(rc, &res);
}

/* ---- LOOKUP --------------------------------------------------------------- */

static int p2_lookup(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     struct vd_res *r)
{
    diropargs a;
    diropres res;
    int rc;

    res_clear(r);
    dirop2(dir, name, &a);
    if ((rc = vd2_lookup(v, &a, &res)) == 0)
        diropres2(&res, r);
    return vd2_lookup_done(rc, &res);
}

static int p3_lookup(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     struct vd_res *r)
{
    LOOKUP3args a;
    LOOKUP3res res;
    int rc;

    res_clear(r);
    dirop3(dir, name, &a.what);
    if ((rc = vd3_lookup(v, &a, &res)) == 0 && res.status == NFS3_OK) {
        r->have_fh = nf_fh_from_v3(&r->fh, &res.LOOKUP3res_u.resok.object) == 0;
        vd3_post_op(&res.LOOKUP3res_u.resok.obj_attributes, r);
    }
    return vd3_lookup_done(rc, &res);
}

/* ---- CREATE (v3 UNCHECKED) and MKDIR -------------------------------------- */

/* In v2 CREATE and MKDIR take the same arguments and give the same reply. */
static int p2_make(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                   uint32_t mode, int is_dir, struct vd_res *r)
{
    createargs a;
    diropres res;
    int rc;

    res_clear(r);
    dirop2(dir, name, &a.where);
    if (is_dir) {
        sattr2_none(&a.attributes);
        a.attributes.mode = NFSMODE_DIR | mode;
        rc = vd2_mkdir(v, &a, &res);
    } else {
        sattr2_new(v, &a.attributes, NFSMODE_REG | mode);
        rc = vd2_create(v, &a, &res);
    }
    if (rc == 0)
        diropres2(&res, r);
    return vd2_create_done(rc, &res);
}

static int p2_create(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     uint32_t mode, struct vd_res *r)
{
    return p2_make(v, dir, name, mode, 0, r);
}

static int p3_create(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     uint32_t mode, struct vd_res *r)
{
    CREATE3args a;
    CREATE3res res;
    int rc;

    res_clear(r);
    memset(&a, 0, sizeof(a));
    dirop3(dir, name, &a.where);
    a.how.mode = UNCHECKED;
    sattr3_new(v, &a.how.createhow3_u.obj_attributes, mode, 1);
    if ((rc = vd3_create(v, &a, &res)) == 0 && res.status == NFS3_OK)
        vd3_new_obj(&res.CREATE3res_u.resok.obj, &res.CREATE3res_u.resok.obj_attributes,
                    r);
    return vd3_create_done(rc, &res);
}

static int p2_mkdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                    uint32_t mode, struct vd_res *r)
{
    return p2_make(v, dir, name, mode, 1, r);
}

static int p3_mkdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                    uint32_t mode, struct vd_res *r)
{
    MKDIR3args a;
    MKDIR3res res;
    int rc;

    res_clear(r);
    dirop3(dir, name, &a.where);
    sattr3_new(v, &a.attributes, mode, 0);
    if ((rc = vd3_mkdir(v, &a, &res)) == 0 && res.status == NFS3_OK)
        vd3_new_obj(&res.MKDIR3res_u.resok.obj, &res.MKDIR3res_u.resok.obj_attributes, r);
    return vd3_mkdir_done(rc, &res);
}

/* ---- LINK: r->attr is the file's, after the call (v3 only) ---------------- */

static int p2_link(struct vd_ctx *v, const struct nf_fh *file, const struct nf_fh *dir,
                   const char *name, struct vd_res *r)
{
    linkargs a;
    nfsstat res;

    res_clear(r);
    (void)nf_fh_to_v2(file, &a.from);
    dirop2(dir, name, &a.to);
    return vd2_link_done(vd2_link(v, &a, &res), &res);
}

static int p3_link(struct vd_ctx *v, const struct nf_fh *file, const struct nf_fh *dir,
                   const char *name, struct vd_res *r)
{
    LINK3args a;
    LINK3res res;
    int rc;

    res_clear(r);
    nf_fh_to_v3(file, &a.file);
    dirop3(dir, name, &a.link);
    if ((rc = vd3_link(v, &a, &res)) == 0 && res.status == NFS3_OK)
        vd3_post_op(&res.LINK3res_u.resok.file_attributes, r);
    return vd3_link_done(rc, &res);
}

/* ---- SYMLINK and READLINK ------------------------------------------------- */

static int p2_symlink(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                      const char *text, struct vd_res *r)
{
    symlinkargs a;
    nfsstat res;

    res_clear(r);
    dirop2(dir, name, &a.from);
    a.to = (char *)(uintptr_t)text;
    sattr2_none(&a.attributes);
    a.attributes.mode = NFSMODE_LNK | 0777;
    return vd2_symlink_done(vd2_symlink(v, &a, &res), &res);
}

static int p3_symlink(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                      const char *text, struct vd_res *r)
{
    SYMLINK3args a;
    SYMLINK3res res;
    int rc;

    res_clear(r);
    dirop3(dir, name, &a.where);
    sattr3_new(v, &a.symlink.symlink_attributes, 0777, 0);
    a.symlink.symlink_data = (char *)(uintptr_t)text;
    if ((rc = vd3_symlink(v, &a, &res)) == 0 && res.status == NFS3_OK)
        vd3_new_obj(&res.SYMLINK3res_u.resok.obj, &res.SYMLINK3res_u.resok.obj_attributes,
                    r);
    return vd3_symlink_done(rc, &res);
}

static int p2_readlink(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    nfs_fh a;
    readlinkres res;
    int rc;

    res_clear(r);
    (void)nf_fh_to_v2(fh, &a);
    if ((rc = vd2_readlink(v, &a, &res)) == 0 && res.status == NFS_OK)
        snprintf(r->text, sizeof(r->text), "%s",
                 res.readlinkres_u.data ? res.readlinkres_u.data : "");
    return vd2_readlink_done(rc, &res);
}

static int p3_readlink(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    READLINK3args a;
    READLINK3res res;
    int rc;

    res_clear(r);
    nf_fh_to_v3(fh, &a.symlink);
    if ((rc = vd3_readlink(v, &a, &res)) == 0 && res.status == NFS3_OK) {
        snprintf(r->text, sizeof(r->text), "%s",
                 res.READLINK3res_u.resok.data ? res.READLINK3res_u.resok.data : "");
        vd3_post_op(&res.READLINK3res_u.resok.symlink_attributes, r);
    }
    return vd3_readlink_done(rc, &res);
}

/* ---- WRITE: r->count bytes were written ----------------------------------- */

static int p2_write(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off,
                    const void *buf, uint32_t len, int stable, struct vd_res *r)
{
    writeargs a;
    attrstat res;
    int rc;

    (void)stable; /* v2 WRITE is synchronous (RFC 1094 section 2.2.9) */
    res_clear(r);
    memset(&a, 0, sizeof(a));
    (void)nf_fh_to_v2(fh, &a.file);
    /* beginoffset and totalcount are unused (RFC 1094 2.2.9); they describe
     * this transfer, as the load generator (src/load/args.c) and the Linux
     * client fill them, so that a server sees one v2 WRITE from FreeSFS,
     * whichever part sends it. */
    a.beginoffset = a.offset = (u_int)off;
    a.totalcount = len;
    a.data.data_len = len;
    a.data.data_val = (char *)(uintptr_t)buf;
    if ((rc = vd2_write(v, &a, &res)) == 0)
        attrstat2(&res, r);
    rc = vd2_write_done(rc, &res);
    if (rc == NFS_OK) {
        r->count = len; /* v2 writes everything or fails */
        r->committed = FILE_SYNC;
    }
    return rc;
}

static int p3_write(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off,
                    const void *buf, uint32_t len, int stable, struct vd_res *r)
{
    WRITE3args a;
    WRITE3res res;
    int rc;

    res_clear(r);
    nf_fh_to_v3(fh, &a.file);
    a.offset = off;
    a.count = len;
    a.stable = (stable_how)stable;
    a.data.data_len = len;
    a.data.data_val = (char *)(uintptr_t)buf;
    if ((rc = vd3_write(v, &a, &res)) == 0 && res.status == NFS3_OK) {
        const WRITE3resok *ok = &res.WRITE3res_u.resok;

        vd3_post_op(&ok->file_wcc.after, r);
        r->count = ok->count;
        r->committed = (int)ok->committed;
        memcpy(r->verf, ok->verf, sizeof(r->verf));
    }
    return vd3_write_done(rc, &res);
}

/* ---- READ: r->count bytes were read into buf ------------------------------ */

static int p2_read(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, void *buf,
                   uint32_t len, struct vd_res *r)
{
    readargs a;
    readres res;
    int rc;

    res_clear(r);
    (void)nf_fh_to_v2(fh, &a.file);
    a.offset = (u_int)off;
    a.count = len;
    a.totalcount = len; /* unused (RFC 1094 2.2.7); as the load generator's */
    if ((rc = vd2_read(v, &a, &res)) == 0 && res.status == NFS_OK) {
        uint32_t n = res.readres_u.reply.data.data_len;

        n = n < len ? n : len;
        attr2(&res.readres_u.reply.attributes, &r->attr);
        r->have_attr = 1;
        memcpy(buf, res.readres_u.reply.data.data_val, n);
        r->count = n;
    }
    return vd2_read_done(rc, &res);
}

static int p3_read(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, void *buf,
                   uint32_t len, struct vd_res *r)
{
    READ3args a;
    READ3res res;
    int rc;

    res_clear(r);
    nf_fh_to_v3(fh, &a.file);
    a.offset = off;
    a.count = len;
    if ((rc = vd3_read(v, &a, &res)) == 0 && res.status == NFS3_OK) {
        const READ3resok *ok = &res.READ3res_u.resok;
        uint32_t n = ok->data.data_len < len ? ok->data.data_len : len;

        vd3_post_op(&ok->file_attributes, r);
        memcpy(buf, ok->data.data_val, n);
        r->count = n;
        r->eof = ok->eof ? 1 : 0;
    }
    return vd3_read_done(rc, &res);
}

/* ---- READDIR: one call from *cur, which it advances; r->eof --------------- */

static int p2_readdir(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                      vd_entry_fn fn, void *data, struct vd_res *r)
{
    readdirargs a;
    readdirres res;
    const entry *e;
    int rc, stop = 0;

    res_clear(r);
    (void)nf_fh_to_v2(dir, &a.dir);
    cm_be32_put((uint8_t *)a.cookie, (uint32_t)cur->cookie);
    a.count = V2_READDIR_COUNT;
    if ((rc = vd2_readdir(v, &a, &res)) == 0 && res.status == NFS_OK) {
        for (e = res.readdirres_u.reply.entries; e; e = e->nextentry) {
            if (!stop)
                stop = fn(v, e->name ? e->name : "", e->fileid, data);
            cur->cookie = cm_be32_get((const uint8_t *)e->cookie);
            r->count++;
        }
        r->eof = res.readdirres_u.reply.eof ? 1 : 0;
    }
    return vd2_readdir_done(rc, &res);
}

static int p3_readdir(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                      vd_entry_fn fn, void *data, struct vd_res *r)
{
    READDIR3args a;
    READDIR3res res;
    const entry3 *e;
    int rc, stop = 0;

    res_clear(r);
    nf_fh_to_v3(dir, &a.dir);
    a.cookie = cur->cookie;
    memcpy(a.cookieverf, cur->verf, sizeof(a.cookieverf));
    a.count = V3_READDIR_COUNT;
    if ((rc = vd3_readdir(v, &a, &res)) == 0 && res.status == NFS3_OK) {
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
    return vd3_readdir_done(rc, &res);
}

/* ---- REMOVE, RMDIR, RENAME (in one directory) ------------------------------ */

/* In v2 REMOVE and RMDIR take the same arguments and give the same reply. */
static int p2_unlink(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     int is_dir)
{
    diropargs a;
    nfsstat res;

    dirop2(dir, name, &a);
    return vd2_remove_done(is_dir ? vd2_rmdir(v, &a, &res) : vd2_remove(v, &a, &res),
                           &res);
}

static int p2_remove(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    return p2_unlink(v, dir, name, 0);
}

static int p3_remove(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    REMOVE3args a;
    REMOVE3res res;

    dirop3(dir, name, &a.object);
    return vd3_remove_done(vd3_remove(v, &a, &res), &res);
}

static int p2_rmdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    return p2_unlink(v, dir, name, 1);
}

static int p3_rmdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    RMDIR3args a;
    RMDIR3res res;

    dirop3(dir, name, &a.object);
    return vd3_rmdir_done(vd3_rmdir(v, &a, &res), &res);
}

static int p2_rename(struct vd_ctx *v, const struct nf_fh *dir, const char *from,
                     const char *to)
{
    renameargs a;
    nfsstat res;

    dirop2(dir, from, &a.from);
    dirop2(dir, to, &a.to);
    return vd2_rename_done(vd2_rename(v, &a, &res), &res);
}

static int p3_rename(struct vd_ctx *v, const struct nf_fh *dir, const char *from,
                     const char *to)
{
    RENAME3args a;
    RENAME3res res;

    dirop3(dir, from, &a.from);
    dirop3(dir, to, &a.to);
    return vd3_rename_done(vd3_rename(v, &a, &res), &res);
}

/* ---- the two adapters ----------------------------------------------------- */

#define P2_ROW(nm) .nm = p2_##nm,
#define P3_ROW(nm) .nm = p3_##nm,

const struct vd_proto vd_proto2 = {.version = 2,
                                   .rfc = "RFC 1094",
                                   .section =
                                       {
                                           [NF_OP_NULL_OP] = "RFC 1094 section 2.2.1",
                                           [NF_OP_GETATTR] = "RFC 1094 section 2.2.2",
                                           [NF_OP_SETATTR] = "RFC 1094 section 2.2.3",
                                           [NF_OP_LOOKUP] = "RFC 1094 section 2.2.5",
                                           [NF_OP_READLINK] = "RFC 1094 section 2.2.6",
                                           [NF_OP_READ] = "RFC 1094 section 2.2.7",
                                           [NF_OP_WRITE] = "RFC 1094 section 2.2.9",
                                           [NF_OP_CREATE] = "RFC 1094 section 2.2.10",
                                           [NF_OP_REMOVE] = "RFC 1094 section 2.2.11",
                                           [NF_OP_RENAME] = "RFC 1094 section 2.2.12",
                                           [NF_OP_LINK] = "RFC 1094 section 2.2.13",
                                           [NF_OP_SYMLINK] = "RFC 1094 section 2.2.14",
                                           [NF_OP_MKDIR] = "RFC 1094 section 2.2.15",
                                           [NF_OP_RMDIR] = "RFC 1094 section 2.2.16",
                                           [NF_OP_READDIR] = "RFC 1094 section 2.2.17",
                                           [NF_OP_FSSTAT] = "RFC 1094 section 2.2.18",
                                       },
                                   .readdir_count = V2_READDIR_COUNT,
                                   VD_PROTO_CALLS(P2_ROW)};

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
    .readdir_count = V3_READDIR_COUNT,
    VD_PROTO_CALLS(P3_ROW)};
