/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto2.c - the NFSv2 adapter of the validation suite (vd_int.h): each
 * reference-step call through the typed calls of src/nfs (nf2_*), its reply
 * turned into a struct vd_res and freed.  v2 has no post-op attributes on
 * LINK and SYMLINK and no handle from SYMLINK: the steps look those up.
 * A sattr field of all ones means "do not set" (RFC 1094 section 2.3.6).
 */
#include <string.h>

#include "validate/vd_int.h"

#define NOT_SET          0xffffffffu
#define V2_FIFO          8   /* NFFIFO */
#define V2_READDIR_COUNT 264 /* about 9 entries a call, as SFS read them */

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

static void res_clear(struct vd_res *r)
{
    memset(r, 0, sizeof(*r));
    r->eof = -1;
}

static void dirop(const struct nf_fh *dir, const char *name, diropargs *d)
{
    (void)nf_fh_to_v2(dir, &d->dir);
    d->name = (char *)(uintptr_t)name;
}

/* A sattr that sets nothing. */
static void sattr_none(sattr *s)
{
    memset(s, 0xff, sizeof(*s));
}

/* The new-object attributes of CREATE: type|mode, our uid and gid, size 0,
 * times now. */
static void sattr_new(struct vd_ctx *v, sattr *s, uint32_t mode)
{
    uint32_t sec, nsec;

    cm_wall_time(&sec, &nsec);
    s->mode = mode;
    s->uid = v->uid;
    s->gid = v->gid;
    s->size = 0;
    s->atime.seconds = sec;
    s->atime.useconds = nsec / 1000;
    s->mtime = s->atime;
}

static int p2_null(struct vd_ctx *v)
{
    nf_void a = {0}, r = {0};
    int rc;

    VD_CALL(v, rc, nf2_null(v->clnt, &a, &r));
    return rc;
}

/* attrstat replies: GETATTR, SETATTR, WRITE. */
static int attrstat_reply(int rc, attrstat *res, struct vd_res *r)
{
    if (rc == 0 && res->status == NFS_OK) {
        attr2(&res->attrstat_u.attributes, &r->attr);
        r->have_attr = 1;
    }
    return vd_reply_done(rc, res, (xdrproc_t)xdr_attrstat);
}

/* diropres replies: LOOKUP, CREATE, MKDIR. */
static int diropres_reply(int rc, diropres *res, struct vd_res *r)
{
    if (rc == 0 && res->status == NFS_OK) {
        nf_fh_from_v2(&r->fh, &res->diropres_u.diropres.file);
        r->have_fh = 1;
        attr2(&res->diropres_u.diropres.attributes, &r->attr);
        r->have_attr = 1;
    }
    return vd_reply_done(rc, res, (xdrproc_t)xdr_diropres);
}

static int p2_getattr(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    nfs_fh a;
    attrstat res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    (void)nf_fh_to_v2(fh, &a);
    VD_CALL(v, rc, nf2_getattr(v->clnt, &a, &res));
    return attrstat_reply(rc, &res, r);
}

static int p2_setattr(struct vd_ctx *v, const struct nf_fh *fh, uint32_t mode,
                      uint32_t time_s, struct vd_res *r)
{
    sattrargs a;
    attrstat res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    (void)nf_fh_to_v2(fh, &a.file);
    sattr_none(&a.attributes);
    a.attributes.mode = mode;
    a.attributes.atime.seconds = time_s;
    a.attributes.atime.useconds = 0;
    a.attributes.mtime = a.attributes.atime;
    VD_CALL(v, rc, nf2_setattr(v->clnt, &a, &res));
    return attrstat_reply(rc, &res, r);
}

static int p2_lookup(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     struct vd_res *r)
{
    diropargs a;
    diropres res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    dirop(dir, name, &a);
    VD_CALL(v, rc, nf2_lookup(v->clnt, &a, &res));
    return diropres_reply(rc, &res, r);
}

static int p2_make(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                   uint32_t mode, int is_dir, struct vd_res *r)
{
    createargs a;
    diropres res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    dirop(dir, name, &a.where);
    if (is_dir) {
        sattr_none(&a.attributes);
        a.attributes.mode = NFSMODE_DIR | mode;
        VD_CALL(v, rc, nf2_mkdir(v->clnt, &a, &res));
    } else {
        sattr_new(v, &a.attributes, NFSMODE_REG | mode);
        VD_CALL(v, rc, nf2_create(v->clnt, &a, &res));
    }
    return diropres_reply(rc, &res, r);
}

static int p2_create(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     uint32_t mode, struct vd_res *r)
{
    return p2_make(v, dir, name, mode, 0, r);
}

static int p2_mkdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                    uint32_t mode, struct vd_res *r)
{
    return p2_make(v, dir, name, mode, 1, r);
}

static int status_reply(int rc, nfsstat *res)
{
    return rc < 0 ? rc : (int)*res;
}

static int p2_link(struct vd_ctx *v, const struct nf_fh *file, const struct nf_fh *dir,
                   const char *name, struct vd_res *r)
{
    linkargs a;
    nfsstat res = NFS_OK;
    int rc;

    res_clear(r);
    (void)nf_fh_to_v2(file, &a.from);
    dirop(dir, name, &a.to);
    VD_CALL(v, rc, nf2_link(v->clnt, &a, &res));
    return status_reply(rc, &res);
}

static int p2_symlink(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                      const char *text, struct vd_res *r)
{
    symlinkargs a;
    nfsstat res = NFS_OK;
    int rc;

    res_clear(r);
    dirop(dir, name, &a.from);
    a.to = (char *)(uintptr_t)text;
    sattr_none(&a.attributes);
    a.attributes.mode = NFSMODE_LNK | 0777;
    VD_CALL(v, rc, nf2_symlink(v->clnt, &a, &res));
    return status_reply(rc, &res);
}

static int p2_readlink(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    nfs_fh a;
    readlinkres res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    (void)nf_fh_to_v2(fh, &a);
    VD_CALL(v, rc, nf2_readlink(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS_OK)
        snprintf(r->text, sizeof(r->text), "%s",
                 res.readlinkres_u.data ? res.readlinkres_u.data : "");
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_readlinkres);
}

static int p2_write(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off,
                    const void *buf, uint32_t len, int stable, struct vd_res *r)
{
    writeargs a;
    attrstat res;
    int rc;

    (void)stable; /* v2 WRITE is synchronous (RFC 1094 section 2.2.9) */
    res_clear(r);
    memset(&a, 0, sizeof(a));
    memset(&res, 0, sizeof(res));
    (void)nf_fh_to_v2(fh, &a.file);
    /* beginoffset and totalcount are unused (RFC 1094 2.2.9); they describe
     * this transfer, as the load generator (src/load/args.c) and the Linux
     * client fill them, so that a server sees one v2 WRITE from FreeSFS,
     * whichever part sends it. */
    a.beginoffset = a.offset = (u_int)off;
    a.totalcount = len;
    a.data.data_len = len;
    a.data.data_val = (char *)(uintptr_t)buf;
    VD_CALL(v, rc, nf2_write(v->clnt, &a, &res));
    rc = attrstat_reply(rc, &res, r);
    if (rc == NFS_OK) {
        r->count = len; /* v2 writes everything or fails */
        r->committed = FILE_SYNC;
    }
    return rc;
}

static int p2_read(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, void *buf,
                   uint32_t len, struct vd_res *r)
{
    readargs a;
    readres res;
    int rc;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    (void)nf_fh_to_v2(fh, &a.file);
    a.offset = (u_int)off;
    a.count = len;
    a.totalcount = len; /* unused (RFC 1094 2.2.7); as the load generator's */
    VD_CALL(v, rc, nf2_read(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS_OK) {
        uint32_t n = res.readres_u.reply.data.data_len;

        n = n < len ? n : len;
        attr2(&res.readres_u.reply.attributes, &r->attr);
        r->have_attr = 1;
        memcpy(buf, res.readres_u.reply.data.data_val, n);
        r->count = n;
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_readres);
}

static uint64_t cookie_in(const uint8_t *c)
{
    return (uint64_t)c[0] << 24 | (uint64_t)c[1] << 16 | (uint64_t)c[2] << 8 | c[3];
}

static int p2_readdir(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                      vd_entry_fn fn, void *data, struct vd_res *r)
{
    readdirargs a;
    readdirres res;
    const entry *e;
    int rc, stop = 0;

    res_clear(r);
    memset(&res, 0, sizeof(res));
    (void)nf_fh_to_v2(dir, &a.dir);
    a.cookie[0] = (char)(cur->cookie >> 24);
    a.cookie[1] = (char)(cur->cookie >> 16);
    a.cookie[2] = (char)(cur->cookie >> 8);
    a.cookie[3] = (char)cur->cookie;
    a.count = V2_READDIR_COUNT;
    VD_CALL(v, rc, nf2_readdir(v->clnt, &a, &res));
    if (rc == 0 && res.status == NFS_OK) {
        for (e = res.readdirres_u.reply.entries; e; e = e->nextentry) {
            const uint8_t *c = (const uint8_t *)e->cookie;

            if (!stop)
                stop = fn(v, e->name ? e->name : "", e->fileid, data);
            cur->cookie = cookie_in(c);
            r->count++;
        }
        r->eof = res.readdirres_u.reply.eof ? 1 : 0;
    }
    return vd_reply_done(rc, &res, (xdrproc_t)xdr_readdirres);
}

static int p2_remove(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    diropargs a;
    nfsstat res = NFS_OK;
    int rc;

    dirop(dir, name, &a);
    VD_CALL(v, rc, nf2_remove(v->clnt, &a, &res));
    return status_reply(rc, &res);
}

static int p2_rmdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    diropargs a;
    nfsstat res = NFS_OK;
    int rc;

    dirop(dir, name, &a);
    VD_CALL(v, rc, nf2_rmdir(v->clnt, &a, &res));
    return status_reply(rc, &res);
}

static int p2_rename(struct vd_ctx *v, const struct nf_fh *dir, const char *from,
                     const char *to)
{
    renameargs a;
    nfsstat res = NFS_OK;
    int rc;

    dirop(dir, from, &a.from);
    dirop(dir, to, &a.to);
    VD_CALL(v, rc, nf2_rename(v->clnt, &a, &res));
    return status_reply(rc, &res);
}

const struct vd_proto vd_proto2 = {
    .version = 2,
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
    .null = p2_null,
    .getattr = p2_getattr,
    .setattr = p2_setattr,
    .lookup = p2_lookup,
    .create = p2_create,
    .mkdir = p2_mkdir,
    .link = p2_link,
    .symlink = p2_symlink,
    .readlink = p2_readlink,
    .write = p2_write,
    .read = p2_read,
    .readdir = p2_readdir,
    .remove = p2_remove,
    .rmdir = p2_rmdir,
    .rename = p2_rename,
};
