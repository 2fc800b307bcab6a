/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_xdr.c - the arguments and results of every NFSv2, NFSv3 and MOUNT
 * v1/v3 procedure, decoded from a captured RPC message into a struct
 * tr_nfs_event with the project's rpcgen codecs (nfs2_prot.x, nfs3_prot.x,
 * mount.x), composed field by field the way the server's bounded decoders
 * are, so that:
 *   - each field is set only once its codec succeeded, and a message cut
 *     by the snap length keeps every field before the cut (the caller
 *     flags the rest as cut, never guesses it);
 *   - WRITE data and READ data are never decoded: their length word says
 *     the size, and whether all of it was captured (DATA_CUT);
 *   - handles and names decode straight into the event's storage or a
 *     bounded buffer on the stack (no allocation per message; every
 *     string codec has a bound the buffer covers);
 *   - directory entries are walked one by one (no recursion, at most
 *     TR_NFS_ENTRIES_MAX kept, the rest counted).
 * The procedure numbers, names and SFS ops come from the nfs layer's
 * tables (tr_nfs_proc.c).
 */
#include <errno.h>
#include <string.h>

#include "common/bytes.h"
#include "trace/tr_nfs_int.h"
#include "mount_prot.h"

/* What one decode works on. */
struct dx {
    XDR x;
    size_t len; /* bytes in the buffer */
    int cut;    /* the message had more bytes on the wire than in the buffer */
    int nomem;  /* a copy into the slot failed */
    int entries_cut;
    struct tr__slot *s;
};

static size_t left(struct dx *d)
{
    size_t pos = xdr_getpos(&d->x);

    return pos < d->len ? d->len - pos : 0;
}

/* ---- handles, names, attributes --------------------------------------------- */

static int fh3(struct dx *d, struct nf_fh *out)
{
    nfs_fh3 f;
    struct nf_fh tmp;

    f.data.data_val = (char *)tmp.data;
    f.data.data_len = 0;
    if (!xdr_nfs_fh3(&d->x, &f))
        return 0;
    tmp.len = f.data.data_len;
    *out = tmp;
    return 1;
}

static int fh2(struct dx *d, struct nf_fh *out)
{
    nfs_fh f;

    if (!xdr_nfs_fh(&d->x, &f))
        return 0;
    nf_fh_from_v2(out, &f);
    return 1;
}

/* A bounded string codec into buf (its bound + 1 bytes), then into the
 * slot. */
static int str_into(struct dx *d, xdrproc_t codec, char *buf, int which)
{
    char *p = buf;

    if (!codec(&d->x, &p))
        return 0;
    if (tr__slot_str(d->s, which, buf, strlen(buf)) < 0) {
        d->nomem = 1;
        return 0;
    }
    return 1;
}

/* What a full fattr3 (or v2 fattr) gives. */
#define ALL_ATTRS                                                                        \
    (TR_NFS_A_TYPE | TR_NFS_A_MODE | TR_NFS_A_NLINK | TR_NFS_A_UID | TR_NFS_A_GID |      \
     TR_NFS_A_SIZE | TR_NFS_A_USED | TR_NFS_A_FSID | TR_NFS_A_FILEID | TR_NFS_A_ATIME |  \
     TR_NFS_A_MTIME | TR_NFS_A_CTIME)

/* NFSv2 times are seconds and microseconds. */
static int64_t ns2(const nfstime *t)
{
    return (int64_t)t->seconds * 1000000000 + (int64_t)t->useconds * 1000;
}

static int64_t ns3(const nfstime3 *t)
{
    return (int64_t)t->seconds * 1000000000 + t->nseconds;
}

static void from_fattr3(struct tr_nfs_attr *a, const fattr3 *f)
{
    a->have = ALL_ATTRS;
    a->type = f->type >= NF3REG && f->type <= NF3FIFO ? (enum tr_nfs_ftype)f->type
                                                      : TR_NFS_NONE;
    a->mode = f->mode & 07777;
    a->nlink = f->nlink;
    a->uid = f->uid;
    a->gid = f->gid;
    a->size = f->size;
    a->used = f->used;
    a->fsid = f->fsid;
    a->fileid = f->fileid;
    a->atime_ns = ns3(&f->atime);
    a->mtime_ns = ns3(&f->mtime);
    a->ctime_ns = ns3(&f->ctime);
}

static int post_attr(struct dx *d, struct tr_nfs_attr *out)
{
    post_op_attr p;

    if (!xdr_post_op_attr(&d->x, &p))
        return 0;
    if (p.attributes_follow)
        from_fattr3(out, &p.post_op_attr_u.attributes);
    return 1;
}

static int wcc(struct dx *d, struct tr_nfs_attr *pre, struct tr_nfs_attr *post)
{
    wcc_data w;

    if (!xdr_wcc_data(&d->x, &w))
        return 0;
    if (w.before.attributes_follow) {
        const wcc_attr *b = &w.before.pre_op_attr_u.attributes;
        pre->have = TR_NFS_A_SIZE | TR_NFS_A_MTIME | TR_NFS_A_CTIME;
        pre->size = b->size;
        pre->mtime_ns = ns3(&b->mtime);
        pre->ctime_ns = ns3(&b->ctime);
    }
    if (w.after.attributes_follow)
        from_fattr3(post, &w.after.post_op_attr_u.attributes);
    return 1;
}

static int64_t set_time(const set_atime *t)
{
    return t->set_it == SET_TO_SERVER_TIME ? TR_NFS_TIME_SERVER
                                           : ns3(&t->set_atime_u.atime);
}

static void from_sattr3(struct tr_nfs_attr *a, const sattr3 *s)
{
    if (s->mode.set_it) {
        a->have |= TR_NFS_A_MODE;
        a->mode = s->mode.set_mode3_u.mode & 07777;
    }
    if (s->uid.set_it) {
        a->have |= TR_NFS_A_UID;
        a->uid = s->uid.set_uid3_u.uid;
    }
    if (s->gid.set_it) {
        a->have |= TR_NFS_A_GID;
        a->gid = s->gid.set_gid3_u.gid;
    }
    if (s->size.set_it) {
        a->have |= TR_NFS_A_SIZE;
        a->size = s->size.set_size3_u.size;
    }
    if (s->atime.set_it != DONT_CHANGE) {
        a->have |= TR_NFS_A_ATIME;
        a->atime_ns = set_time(&s->atime);
    }
    if (s->mtime.set_it != DONT_CHANGE) {
        set_atime m;
        m.set_it = s->mtime.set_it;
        m.set_atime_u.atime = s->mtime.set_mtime_u.mtime;
        a->have |= TR_NFS_A_MTIME;
        a->mtime_ns = set_time(&m);
    }
}

static int sattr3_(struct dx *d, struct tr_nfs_attr *out)
{
    sattr3 s;

    if (!xdr_sattr3(&d->x, &s))
        return 0;
    from_sattr3(out, &s);
    return 1;
}

/* v2 attributes: types NFNON..NFFIFO (NFBAD is 7, NFFIFO 8); times in
 * microseconds; used = blocks of blocksize. */
static void from_fattr2(struct tr_nfs_attr *a, const fattr *f)
{
    static const enum tr_nfs_ftype type2[9] = {TR_NFS_NONE, TR_NFS_REG,  TR_NFS_DIR,
                                               TR_NFS_BLK,  TR_NFS_CHR,  TR_NFS_LNK,
                                               TR_NFS_SOCK, TR_NFS_NONE, TR_NFS_FIFO};

    a->have = ALL_ATTRS;
    a->type = (unsigned)f->type < 9 ? type2[f->type] : TR_NFS_NONE;
    a->mode = f->mode & 07777;
    a->nlink = f->nlink;
    a->uid = f->uid;
    a->gid = f->gid;
    a->size = f->size;
    a->used = (uint64_t)f->blocks * f->blocksize;
    a->fsid = f->fsid;
    a->fileid = f->fileid;
    a->atime_ns = ns2(&f->atime);
    a->mtime_ns = ns2(&f->mtime);
    a->ctime_ns = ns2(&f->ctime);
}

static int fattr2_(struct dx *d, struct tr_nfs_attr *out)
{
    fattr f;

    if (!xdr_fattr(&d->x, &f))
        return 0;
    from_fattr2(out, &f);
    return 1;
}

/* v2 sattr: all-ones means "not set"; times are kept as sent. */
static int sattr2_(struct dx *d, struct tr_nfs_attr *a)
{
    sattr s;

    if (!xdr_sattr(&d->x, &s))
        return 0;
    if (s.mode != UINT32_MAX) {
        a->have |= TR_NFS_A_MODE;
        a->mode = s.mode & 07777;
    }
    if (s.uid != UINT32_MAX) {
        a->have |= TR_NFS_A_UID;
        a->uid = s.uid;
    }
    if (s.gid != UINT32_MAX) {
        a->have |= TR_NFS_A_GID;
        a->gid = s.gid;
    }
    if (s.size != UINT32_MAX) {
        a->have |= TR_NFS_A_SIZE;
        a->size = s.size;
    }
    if (s.atime.seconds != UINT32_MAX) {
        a->have |= TR_NFS_A_ATIME;
        a->atime_ns = ns2(&s.atime);
    }
    if (s.mtime.seconds != UINT32_MAX) {
        a->have |= TR_NFS_A_MTIME;
        a->mtime_ns = ns2(&s.mtime);
    }
    return 1;
}

/* The length word of WRITE or READ data: the size is the count the event
 * already has; the bytes themselves are skipped, never decoded. */
static int data_len(struct dx *d, uint32_t max)
{
    u_int n;

    if (!xdr_u_int(&d->x, &n) || n > max)
        return 0;
    if (n > left(d)) {
        if (!d->cut)
            return 0; /* a complete message shorter than its data: garbage */
        d->s->ev.flags |= TR_NFS_F_DATA_CUT;
    }
    return 1;
}

/* ---- NFSv3 -------------------------------------------------------------------- */

static int name3(struct dx *d, int which)
{
    char buf[NFS3_MAXNAMLEN + 1];

    return str_into(d, (xdrproc_t)xdr_filename3, buf, which);
}

static int path3(struct dx *d)
{
    char buf[NFS3_MAXPATHLEN + 1];

    return str_into(d, (xdrproc_t)xdr_nfspath3, buf, TR__S_TEXT);
}

static int args3(struct dx *d, uint32_t proc)
{
    struct tr_nfs_event *e = &d->s->ev;
    struct nf_fh fh;

    switch (proc) {
    case NFSPROC3_NULL:
        return 1;
    case NFSPROC3_LINK:
        return fh3(d, &e->fh) && fh3(d, &e->fh2) && name3(d, TR__S_NAME2);
    default:
        break;
    }
    if (!fh3(d, &e->fh))
        return 0;
    switch (proc) {
    case NFSPROC3_SETATTR: {
        sattrguard3 g;
        return sattr3_(d, &e->sattr) && xdr_sattrguard3(&d->x, &g);
    }
    case NFSPROC3_LOOKUP:
    case NFSPROC3_REMOVE:
    case NFSPROC3_RMDIR:
        return name3(d, TR__S_NAME);
    case NFSPROC3_ACCESS:
        return xdr_uint32(&d->x, &e->access);
    case NFSPROC3_READ:
        return xdr_offset3(&d->x, &e->offset) && xdr_count3(&d->x, &e->count);
    case NFSPROC3_COMMIT:
        return xdr_offset3(&d->x, &e->offset) && xdr_count3(&d->x, &e->count);
    case NFSPROC3_WRITE: {
        stable_how st;
        if (!xdr_offset3(&d->x, &e->offset) || !xdr_count3(&d->x, &e->count) ||
            !xdr_stable_how(&d->x, &st))
            return 0;
        e->stable = (uint32_t)st;
        return data_len(d, NFS3_MAXDATA);
    }
    case NFSPROC3_CREATE: {
        createhow3 how;
        if (!name3(d, TR__S_NAME) || !xdr_createhow3(&d->x, &how))
            return 0;
        e->stable = (uint32_t)how.mode;
        if (how.mode != EXCLUSIVE)
            from_sattr3(&e->sattr, &how.createhow3_u.obj_attributes);
        return 1;
    }
    case NFSPROC3_MKDIR:
        return name3(d, TR__S_NAME) && sattr3_(d, &e->sattr);
    case NFSPROC3_SYMLINK:
        return name3(d, TR__S_NAME) && sattr3_(d, &e->sattr) && path3(d);
    case NFSPROC3_MKNOD: {
        ftype3 t;
        if (!name3(d, TR__S_NAME) || !xdr_ftype3(&d->x, &t))
            return 0;
        e->sattr.have |= TR_NFS_A_TYPE;
        e->sattr.type = t >= NF3REG && t <= NF3FIFO ? (enum tr_nfs_ftype)t : TR_NFS_NONE;
        if (t == NF3CHR || t == NF3BLK) {
            specdata3 sp;
            return sattr3_(d, &e->sattr) && xdr_specdata3(&d->x, &sp);
        }
        if (t == NF3SOCK || t == NF3FIFO)
            return sattr3_(d, &e->sattr);
        return 1;
    }
    case NFSPROC3_RENAME:
        return name3(d, TR__S_NAME) && fh3(d, &fh) && (e->fh2 = fh, 1) &&
               name3(d, TR__S_NAME2);
    case NFSPROC3_READDIR: {
        cookieverf3 v;
        return xdr_cookie3(&d->x, &e->offset) && xdr_cookieverf3(&d->x, v) &&
               xdr_count3(&d->x, &e->count);
    }
    case NFSPROC3_READDIRPLUS: {
        cookieverf3 v;
        count3 dircount;
        return xdr_cookie3(&d->x, &e->offset) && xdr_cookieverf3(&d->x, v) &&
               xdr_count3(&d->x, &dircount) && xdr_count3(&d->x, &e->count);
    }
    default: /* GETATTR, READLINK, FSSTAT, FSINFO, PATHCONF: the handle only */
        return 1;
    }
}

/* READDIR(PLUS) entries, one at a time. */
static int entries3(struct dx *d, int plus)
{
    struct tr_nfs_event *e = &d->s->ev;
    bool_t more, eof;

    for (;;) {
        char buf[NFS3_MAXNAMLEN + 1], *p = buf;
        fileid3 id;
        cookie3 ck;
        struct tr_nfs_dirent *de;
        struct tr_nfs_attr a = {0};
        struct nf_fh fh = {0};
        int rc;

        if (!xdr_bool(&d->x, &more))
            return 0;
        if (!more)
            break;
        if (!xdr_fileid3(&d->x, &id) || !xdr_filename3(&d->x, &p) ||
            !xdr_cookie3(&d->x, &ck))
            return 0;
        if (plus) {
            post_op_fh3 pf;
            pf.post_op_fh3_u.handle.data.data_val = (char *)fh.data;
            if (!post_attr(d, &a) || !xdr_post_op_fh3(&d->x, &pf))
                return 0;
            if (pf.handle_follows)
                fh.len = pf.post_op_fh3_u.handle.data.data_len;
        }
        de = tr__slot_dirent(d->s, buf, strlen(buf), &rc);
        if (!de) {
            if (rc < 0) {
                d->nomem = 1;
                return 0;
            }
            d->entries_cut++;
            continue;
        }
        de->fileid = id;
        de->fh = fh;
        de->attr = a;
    }
    if (!xdr_bool(&d->x, &eof))
        return 0;
    e->eof = eof ? 1 : 0;
    return 1;
}

static int res3(struct dx *d, uint32_t proc)
{
    struct tr_nfs_event *e = &d->s->ev;
    nfsstat3 st;
    int ok;

    if (proc == NFSPROC3_NULL)
        return 1;
    if (!xdr_nfsstat3(&d->x, &st))
        return 0;
    e->status = (uint32_t)st;
    ok = st == NFS3_OK;
    switch (proc) {
    case NFSPROC3_GETATTR: {
        fattr3 f;
        if (!ok)
            return 1;
        if (!xdr_fattr3(&d->x, &f))
            return 0;
        from_fattr3(&e->attr, &f);
        return 1;
    }
    case NFSPROC3_SETATTR:
    case NFSPROC3_COMMIT:
        return wcc(d, &e->pre, &e->attr);
    case NFSPROC3_LOOKUP:
        if (!ok)
            return post_attr(d, &e->dir_attr);
        return fh3(d, &e->res_fh) && post_attr(d, &e->attr) && post_attr(d, &e->dir_attr);
    case NFSPROC3_ACCESS:
        return post_attr(d, &e->attr) && (!ok || xdr_uint32(&d->x, &e->res_access));
    case NFSPROC3_READLINK:
        return post_attr(d, &e->attr) && (!ok || path3(d));
    case NFSPROC3_READ: {
        bool_t eof;
        if (!post_attr(d, &e->attr))
            return 0;
        if (!ok)
            return 1;
        if (!xdr_count3(&d->x, &e->res_count) || !xdr_bool(&d->x, &eof))
            return 0;
        e->eof = eof ? 1 : 0;
        return data_len(d, NFS3_MAXDATA);
    }
    case NFSPROC3_WRITE: {
        stable_how c;
        writeverf3 v;
        if (!wcc(d, &e->pre, &e->attr))
            return 0;
        if (!ok)
            return 1;
        if (!xdr_count3(&d->x, &e->res_count) || !xdr_stable_how(&d->x, &c))
            return 0;
        e->committed = (uint32_t)c;
        return xdr_writeverf3(&d->x, v);
    }
    case NFSPROC3_CREATE:
    case NFSPROC3_MKDIR:
    case NFSPROC3_SYMLINK:
    case NFSPROC3_MKNOD:
        if (ok) {
            post_op_fh3 pf;
            struct nf_fh fh;
            pf.post_op_fh3_u.handle.data.data_val = (char *)fh.data;
            if (!xdr_post_op_fh3(&d->x, &pf))
                return 0;
            if (pf.handle_follows) {
                fh.len = pf.post_op_fh3_u.handle.data.data_len;
                e->res_fh = fh;
            }
            if (!post_attr(d, &e->attr))
                return 0;
        }
        return wcc(d, &e->pre, &e->dir_attr);
    case NFSPROC3_REMOVE:
    case NFSPROC3_RMDIR:
        return wcc(d, &e->pre, &e->dir_attr);
    case NFSPROC3_RENAME: {
        struct tr_nfs_attr pre2, post2;
        return wcc(d, &e->pre, &e->dir_attr) && wcc(d, &pre2, &post2);
    }
    case NFSPROC3_LINK:
        return post_attr(d, &e->attr) && wcc(d, &e->pre, &e->dir_attr);
    case NFSPROC3_READDIR:
    case NFSPROC3_READDIRPLUS: {
        cookieverf3 v;
        if (!post_attr(d, &e->attr))
            return 0;
        if (!ok)
            return 1;
        return xdr_cookieverf3(&d->x, v) && entries3(d, proc == NFSPROC3_READDIRPLUS);
    }
    case NFSPROC3_FSSTAT: {
        FSSTAT3resok r;
        memset(&r, 0, sizeof(r));
        if (!post_attr(d, &e->attr))
            return 0;
        /* the rest of the result after the attributes */
        return !ok || (xdr_size3(&d->x, &r.tbytes) && xdr_size3(&d->x, &r.fbytes) &&
                       xdr_size3(&d->x, &r.abytes) && xdr_size3(&d->x, &r.tfiles) &&
                       xdr_size3(&d->x, &r.ffiles) && xdr_size3(&d->x, &r.afiles) &&
                       xdr_uint32(&d->x, &r.invarsec));
    }
    default: /* FSINFO, PATHCONF: their attributes are what the event keeps */
        return post_attr(d, &e->attr);
    }
}

/* ---- NFSv2 -------------------------------------------------------------------- */

static int name2(struct dx *d, int which)
{
    char buf[NFS_MAXNAMLEN + 1];

    return str_into(d, (xdrproc_t)xdr_filename, buf, which);
}

static int args2(struct dx *d, uint32_t proc)
{
    struct tr_nfs_event *e = &d->s->ev;

    switch (proc) {
    case NFSPROC_NULL:
    case NFSPROC_ROOT:
    case NFSPROC_WRITECACHE:
        return 1;
    default:
        break;
    }
    if (!fh2(d, &e->fh))
        return 0;
    switch (proc) {
    case NFSPROC_SETATTR:
        return sattr2_(d, &e->sattr);
    case NFSPROC_LOOKUP:
    case NFSPROC_REMOVE:
    case NFSPROC_RMDIR:
        return name2(d, TR__S_NAME);
    case NFSPROC_READ: {
        u_int off, cnt, total;
        if (!xdr_u_int(&d->x, &off) || !xdr_u_int(&d->x, &cnt) ||
            !xdr_u_int(&d->x, &total))
            return 0;
        e->offset = off;
        e->count = cnt;
        return 1;
    }
    case NFSPROC_WRITE: {
        u_int begin, off, total;
        e->stable = FILE_SYNC;
        if (!xdr_u_int(&d->x, &begin) || !xdr_u_int(&d->x, &off) ||
            !xdr_u_int(&d->x, &total))
            return 0;
        e->offset = off;
        /* the data's length word is the count (v2 totalcount is unused) */
        {
            u_int n;
            if (!xdr_u_int(&d->x, &n) || n > NFS_MAXDATA)
                return 0;
            e->count = n;
            if (n > left(d)) {
                if (!d->cut)
                    return 0;
                e->flags |= TR_NFS_F_DATA_CUT;
            }
        }
        return 1;
    }
    case NFSPROC_CREATE:
    case NFSPROC_MKDIR:
        return name2(d, TR__S_NAME) && sattr2_(d, &e->sattr);
    case NFSPROC_RENAME: {
        struct nf_fh fh;
        return name2(d, TR__S_NAME) && fh2(d, &fh) && (e->fh2 = fh, 1) &&
               name2(d, TR__S_NAME2);
    }
    case NFSPROC_LINK: {
        struct nf_fh fh;
        return fh2(d, &fh) && (e->fh2 = fh, 1) && name2(d, TR__S_NAME2);
    }
    case NFSPROC_SYMLINK: {
        char buf[NFS_MAXPATHLEN + 1];
        return name2(d, TR__S_NAME) &&
               str_into(d, (xdrproc_t)xdr_nfspath, buf, TR__S_TEXT) &&
               sattr2_(d, &e->sattr);
    }
    case NFSPROC_READDIR: {
        nfscookie ck;
        u_int cnt;
        if (!xdr_nfscookie(&d->x, ck) || !xdr_u_int(&d->x, &cnt))
            return 0;
        e->offset = cm_be32_get((const uint8_t *)ck);
        e->count = cnt;
        return 1;
    }
    default: /* GETATTR, READLINK, STATFS */
        return 1;
    }
}

static int entries2(struct dx *d)
{
    bool_t more, eof;

    for (;;) {
        char buf[NFS_MAXNAMLEN + 1], *p = buf;
        u_int id;
        nfscookie ck;
        struct tr_nfs_dirent *de;
        int rc;

        if (!xdr_bool(&d->x, &more))
            return 0;
        if (!more)
            break;
        if (!xdr_u_int(&d->x, &id) || !xdr_filename(&d->x, &p) ||
            !xdr_nfscookie(&d->x, ck))
            return 0;
        de = tr__slot_dirent(d->s, buf, strlen(buf), &rc);
        if (!de) {
            if (rc < 0) {
                d->nomem = 1;
                return 0;
            }
            d->entries_cut++;
            continue;
        }
        de->fileid = id;
    }
    if (!xdr_bool(&d->x, &eof))
        return 0;
    d->s->ev.eof = eof ? 1 : 0;
    return 1;
}

static int res2(struct dx *d, uint32_t proc)
{
    struct tr_nfs_event *e = &d->s->ev;
    nfsstat st;

    switch (proc) {
    case NFSPROC_NULL:
    case NFSPROC_ROOT:
    case NFSPROC_WRITECACHE:
        return 1;
    default:
        break;
    }
    if (!xdr_nfsstat(&d->x, &st))
        return 0;
    e->status = (uint32_t)st;
    if (st != NFS_OK)
        return 1;
    switch (proc) {
    case NFSPROC_GETATTR:
    case NFSPROC_SETATTR:
    case NFSPROC_WRITE:
        return fattr2_(d, &e->attr);
    case NFSPROC_LOOKUP:
    case NFSPROC_CREATE:
    case NFSPROC_MKDIR:
        return fh2(d, &e->res_fh) && fattr2_(d, &e->attr);
    case NFSPROC_READLINK: {
        char buf[NFS_MAXPATHLEN + 1];
        return str_into(d, (xdrproc_t)xdr_nfspath, buf, TR__S_TEXT);
    }
    case NFSPROC_READ: {
        u_int n;
        if (!fattr2_(d, &e->attr) || !xdr_u_int(&d->x, &n) || n > NFS_MAXDATA)
            return 0;
        e->res_count = n;
        if (n > left(d)) {
            if (!d->cut)
                return 0;
            e->flags |= TR_NFS_F_DATA_CUT;
        }
        return 1;
    }
    case NFSPROC_READDIR:
        return entries2(d);
    case NFSPROC_STATFS: {
        statfsokres s;
        return xdr_statfsokres(&d->x, &s);
    }
    default: /* REMOVE, RENAME, LINK, SYMLINK, RMDIR: the status only */
        return 1;
    }
}

/* ---- MOUNT ---------------------------------------------------------------------- */

static int args_mnt(struct dx *d, uint32_t vers, uint32_t proc)
{
    char buf[MNTPATHLEN + 1];

    if (proc != MOUNTPROC_MNT && proc != MOUNTPROC_UMNT)
        return 1;
    return str_into(d, vers == 1 ? (xdrproc_t)xdr_dirpath : (xdrproc_t)xdr_mnt3_dirpath,
                    buf, TR__S_TEXT);
}

static int res_mnt(struct dx *d, uint32_t vers, uint32_t proc)
{
    struct tr_nfs_event *e = &d->s->ev;
    u_int st;

    if (proc != MOUNTPROC_MNT)
        return 1; /* DUMP and EXPORT lists are not kept */
    if (!xdr_u_int(&d->x, &st))
        return 0;
    e->status = st;
    if (st != 0)
        return 1;
    if (vers == 1) {
        fhandle f;
        if (!xdr_fhandle(&d->x, f))
            return 0;
        e->res_fh.len = FHSIZE;
        memcpy(e->res_fh.data, f, FHSIZE);
        return 1;
    }
    {
        mnt3_fhandle f;
        struct nf_fh fh;
        f.mnt3_fhandle_val = (char *)fh.data;
        f.mnt3_fhandle_len = 0;
        if (!xdr_mnt3_fhandle(&d->x, &f))
            return 0;
        fh.len = f.mnt3_fhandle_len;
        e->res_fh = fh;
        return 1; /* the flavour list after it is not kept */
    }
}

/* ---- entry points --------------------------------------------------------------- */

static int run(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
               size_t len, int cut, int reply)
{
    const struct tr_nfs_event *e = &s->ev;
    struct dx d;
    int ok;

    memset(&d, 0, sizeof(d));
    d.len = len;
    d.cut = cut;
    d.s = s;
    xdrmem_create(&d.x, (char *)buf, (u_int)len, XDR_DECODE);
    if (e->prog == TR_NFS_PROG_MOUNT)
        ok = reply ? res_mnt(&d, e->vers, e->proc) : args_mnt(&d, e->vers, e->proc);
    else if (e->vers == 3)
        ok = reply ? res3(&d, e->proc) : args3(&d, e->proc);
    else
        ok = reply ? res2(&d, e->proc) : args2(&d, e->proc);
    xdr_destroy(&d.x);
    r->cnt[TR__C_ENTRIES_CUT] += (uint64_t)d.entries_cut;
    if (d.nomem)
        return -ENOMEM;
    return ok ? 1 : 0;
}

int tr__xdr_args(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                 size_t len, int cut)
{
    return run(r, s, buf, len, cut, 0);
}

int tr__xdr_res(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                size_t len, int cut)
{
    return run(r, s, buf, len, cut, 1);
}
