/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs2.c - the 18 NFSv2 procedures of sfs_nfsd (RFC 1094) and their
 * dispatch table, over the same in-memory file system as v3 (the same
 * object has the same 32-byte handle in both versions).  File-system
 * statuses are NFSv3 numbers; sv__v2_status folds the v3-only ones.  ROOT
 * and WRITECACHE are obsolete and answer an empty success, as servers did.
 */
#include "server/sv_int.h"
#include "nfs2_prot.h"
#include "nfs3_prot.h"
#include "common/bytes.h"

#include <string.h>
#include "common/cm.h"
#include "common/rng.h"

#define V2_UNSET    0xffffffffu
#define V2_SIZE_MAX 0xffffffffULL /* largest v2 size or offset */

uint32_t sv__v2_status(int st3)
{
    switch (st3) {
    case NFS3ERR_INVAL:
    case NFS3ERR_BADTYPE:
    case NFS3ERR_NOTSUPP:
    case NFS3ERR_BAD_COOKIE:
    case NFS3ERR_TOOSMALL:
    case NFS3ERR_SERVERFAULT:
        return NFSERR_IO;
    case NFS3ERR_BADHANDLE:
        return NFSERR_STALE;
    case NFS3ERR_XDEV:
    case NFS3ERR_MLINK:
    case NFS3ERR_NOT_SYNC:
        return NFSERR_PERM;
    default:
        /* same numbers in both versions (JUKEBOX and other injected
         * statuses pass through: fault injection asks for them) */
        return (uint32_t)st3;
    }
}

static void fattr2(struct sv_core *c, const struct sv_node *n, fattr *a)
{
    static const uint32_t fmt[] = {0,           NFSMODE_REG, NFSMODE_DIR,  NFSMODE_BLK,
                                   NFSMODE_CHR, NFSMODE_LNK, NFSMODE_SOCK, NFSMODE_FIFO};
    uint64_t used = n->type == SV_REG ? n->used : n->size;

    a->type = n->type == SV_FIFO ? NFFIFO : (ftype)n->type;
    a->mode = fmt[n->type] | n->mode;
    a->nlink = n->nlink;
    a->uid = n->uid;
    a->gid = n->gid;
    a->size = n->size > 0xffffffffu ? 0xffffffffu : (u_int)n->size;
    a->blocksize = 4096;
    a->rdev = n->rdev_major << 8 | (n->rdev_minor & 0xff);
    a->blocks = (u_int)((used + 511) / 512);
    a->fsid = SV_FSID;
    a->fileid = (u_int)n->fileid;
    a->atime.seconds = n->atime.sec;
    a->atime.useconds = n->atime.nsec / 1000;
    a->mtime.seconds = n->mtime.sec;
    a->mtime.useconds = n->mtime.nsec / 1000;
    a->ctime.seconds = n->ctime.sec;
    a->ctime.useconds = n->ctime.nsec / 1000;
    if (c->attrs_wrong) { /* --wrong-attrs */
        uint64_t size = a->size;
        uint32_t mode = a->mode;
        sv__fault_attrs(&size, &mode);
        a->size = (u_int)size;
        a->mode = mode;
    }
}

/* v2 sattr: all-ones means "leave alone"; useconds of one million means
 * "server time" (the convention of v2 clients for utimes(NULL)). */
static void sattr2(const sattr *s, struct sv_sattr *o)
{
    memset(o, 0, sizeof(*o));
    o->set_mode = s->mode != V2_UNSET;
    o->mode = s->mode;
    o->set_uid = s->uid != V2_UNSET;
    o->uid = s->uid;
    o->set_gid = s->gid != V2_UNSET;
    o->gid = s->gid;
    o->set_size = s->size != V2_UNSET;
    o->size = s->size;
    if (s->atime.seconds != V2_UNSET) {
        o->set_atime = s->atime.useconds == 1000000 ? 1 : 2;
        o->atime.sec = s->atime.seconds;
        o->atime.nsec = (s->atime.useconds % 1000000) * 1000;
    }
    if (s->mtime.seconds != V2_UNSET) {
        o->set_mtime = s->mtime.useconds == 1000000 ? 1 : 2;
        o->mtime.sec = s->mtime.seconds;
        o->mtime.nsec = (s->mtime.useconds % 1000000) * 1000;
    }
}

static int get(struct sv_core *c, const nfs_fh *fh, struct sv_node **n)
{
    return sv__fs_from_handle(c->fs, fh->data, NFS_FHSIZE, n);
}

/* attrstat and diropres: status, then attributes (and handle) when OK. */
static int attrstat_of(struct sv_core *c, int st, const struct sv_node *n, attrstat *res)
{
    res->status = (nfsstat)sv__v2_status(st);
    if (st == 0 && n != NULL)
        fattr2(c, n, &res->attrstat_u.attributes);
    return (int)res->status;
}

static int diropres_of(struct sv_core *c, int st, const struct sv_node *n, diropres *res)
{
    res->status = (nfsstat)sv__v2_status(st);
    if (st == 0 && n != NULL) {
        sv__handle(c, n, (uint8_t *)res->diropres_u.diropres.file.data);
        fattr2(c, n, &res->diropres_u.diropres.attributes);
    }
    return (int)res->status;
}

static int p_void(struct sv_core *c, void *a, void *r)
{
    (void)c, (void)a, (void)r;
    return 0;
}

static int p_getattr(struct sv_core *c, void *a, void *r)
{
    struct sv_node *n = NULL;
    int st = get(c, a, &n);

    return attrstat_of(c, st, n, r);
}

static int p_setattr(struct sv_core *c, void *a, void *r)
{
    sattrargs *args = a;
    struct sv_sattr sa;
    struct sv_node *n;
    int st = get(c, &args->file, &n);

    if (st == 0) {
        sattr2(&args->attributes, &sa);
        st = sv__setattr(c, n, &sa);
    }
    return attrstat_of(c, st, n, r);
}

static int p_lookup(struct sv_core *c, void *a, void *r)
{
    diropargs *args = a;
    struct sv_node *dir, *n = NULL;
    int st = get(c, &args->dir, &dir);

    if (st == 0)
        st = sv__lookup(c, dir, args->name, &n);
    return diropres_of(c, st, n, r);
}

static int p_readlink(struct sv_core *c, void *a, void *r)
{
    readlinkres *res = r;
    struct sv_node *n;
    int st = get(c, a, &n);

    if (st == 0 && n->type != SV_LNK)
        st = NFS3ERR_INVAL;
    res->status = (nfsstat)sv__v2_status(st);
    if (st == 0)
        res->readlinkres_u.data = n->u.lnk.target;
    return (int)res->status;
}

static int p_read(struct sv_core *c, void *a, void *r)
{
    readargs *args = a;
    readres *res = r;
    uint32_t count = args->count > NFS_MAXDATA ? NFS_MAXDATA : args->count, got = 0;
    struct sv_node *n;
    int eof, st = get(c, &args->file, &n);

    if (st == 0)
        st = sv__data_check(c, n, 0);
    if (st == 0)
        st = sv__fs_read(c->fs, n, args->offset, count, c->data, &got, &eof);
    res->status = (nfsstat)sv__v2_status(st);
    if (st != 0)
        return (int)res->status;
    if (got > 0 && c->fault.corrupt_pct > 0 && sv__fault_hit(c, c->fault.corrupt_pct)) {
        c->data[cm_rng_below(&c->rng, got)] ^= 0x5a;
        c->reads_corrupted++;
    }
    fattr2(c, n, &res->readres_u.reply.attributes);
    res->readres_u.reply.data.data_len = got;
    res->readres_u.reply.data.data_val = (char *)c->data;
    return 0;
}

static int p_write(struct sv_core *c, void *a, void *r)
{
    writeargs *args = a;
    struct sv_node *n;
    int st = get(c, &args->file, &n);

    /* v2 offsets and sizes are 32 bits: a file v2 cannot describe is FBIG */
    if (st == 0 && (uint64_t)args->offset + args->data.data_len > V2_SIZE_MAX)
        st = NFS3ERR_FBIG;
    if (st == 0)
        st = sv__data_check(c, n, 1);
    if (st == 0)
        st = sv__fs_write(c->fs, n, args->offset, args->data.data_val,
                          args->data.data_len);
    return attrstat_of(c, st, n, r);
}

/* CREATE and MKDIR: the same arguments; sa keeps the decoded attributes
 * for CREATE's truncation of an existing file. */
static int create2(struct sv_core *c, const createargs *args, enum sv_type type,
                   struct sv_sattr *sa, struct sv_node **n)
{
    struct sv_node *dir;
    int st = get(c, &args->where.dir, &dir);

    *n = NULL;
    if (st != 0)
        return st;
    sattr2(&args->attributes, sa);
    return sv__create(c, dir, args->where.name, type, sa, NULL, n);
}

static int p_create(struct sv_core *c, void *a, void *r)
{
    struct sv_node *n;
    struct sv_sattr sa;
    int st = create2(c, a, SV_REG, &sa, &n);

    if (st == NFS3ERR_EXIST && n != NULL && n->type == SV_REG) {
        /* v2 CREATE of an existing file is how v2 clients truncate (creat
         * with O_TRUNC): only the size is applied */
        sa.set_mode = sa.set_uid = sa.set_gid = sa.set_atime = sa.set_mtime = 0;
        st = sv__setattr(c, n, &sa);
    }
    return diropres_of(c, st, n, r);
}

static int p_mkdir(struct sv_core *c, void *a, void *r)
{
    struct sv_node *n;
    struct sv_sattr sa;
    int st = create2(c, a, SV_DIR, &sa, &n);

    return diropres_of(c, st, n, r);
}

static int remove_common(struct sv_core *c, const diropargs *d, nfsstat *res,
                         int want_dir)
{
    struct sv_node *dir;
    int st = get(c, &d->dir, &dir);

    if (st == 0)
        st = sv__remove(c, dir, d->name, want_dir);
    *res = (nfsstat)sv__v2_status(st);
    return (int)*res;
}

static int p_remove(struct sv_core *c, void *a, void *r)
{
    return remove_common(c, a, r, 0);
}

static int p_rmdir(struct sv_core *c, void *a, void *r)
{
    return remove_common(c, a, r, 1);
}

static int p_rename(struct sv_core *c, void *a, void *r)
{
    renameargs *args = a;
    nfsstat *res = r;
    struct sv_node *fdir, *tdir;
    int st = get(c, &args->from.dir, &fdir);

    if (st == 0)
        st = get(c, &args->to.dir, &tdir);
    if (st == 0)
        st = sv__rename(c, fdir, args->from.name, tdir, args->to.name);
    *res = (nfsstat)sv__v2_status(st);
    return (int)*res;
}

static int p_link(struct sv_core *c, void *a, void *r)
{
    linkargs *args = a;
    nfsstat *res = r;
    struct sv_node *n, *dir;
    int st = get(c, &args->from, &n);

    if (st == 0)
        st = get(c, &args->to.dir, &dir);
    if (st == 0)
        st = sv__link(c, n, dir, args->to.name);
    *res = (nfsstat)sv__v2_status(st);
    return (int)*res;
}

static int p_symlink(struct sv_core *c, void *a, void *r)
{
    symlinkargs *args = a;
    nfsstat *res = r;
    struct sv_node *dir, *n;
    struct sv_sattr sa;
    int st = get(c, &args->from.dir, &dir);

    if (st == 0) {
        sattr2(&args->attributes, &sa);
        st = sv__create(c, dir, args->from.name, SV_LNK, &sa, args->to, &n);
    }
    *res = (nfsstat)sv__v2_status(st);
    return (int)*res;
}

/* entry: value-follows, fileid, name, cookie */
#define ENTRY2_BYTES(nl) (4 + 4 + 4 + (((nl) + 3u) & ~3u) + 4)

static int p_readdir(struct sv_core *c, void *a, void *r)
{
    readdirargs *args = a;
    readdirres *res = r;
    entry *ents = (entry *)c->dirbuf.bytes, **tail = &res->readdirres_u.reply.entries;
    size_t max_ents = sizeof(c->dirbuf) / sizeof(entry), n = 0;
    uint32_t limit = args->count > NFS_MAXDATA ? NFS_MAXDATA : args->count;
    uint32_t used = 4 + 4 + 4;
    uint64_t cookie = cm_be32_get((const uint8_t *)args->cookie);
    struct sv_dirpos pos;
    struct sv_node *dir;
    int more = 0, drop, st = get(c, &args->dir, &dir);

    if (st == 0)
        st = sv__readdir_check(c, dir);
    drop = st == 0 && sv__fault_drop_dirent(c);
    while (st == 0 && n < max_ents &&
           (more = sv__fs_dir_after(c->fs, dir, cookie, &pos)) == 1) {
        uint32_t sz = ENTRY2_BYTES((uint32_t)strlen(pos.name));
        if (sv__fault_skip_dirent(c, &drop, pos.name)) {
            cookie = pos.cookie;
            continue;
        }
        if (used + sz > limit)
            break;
        used += sz;
        ents[n].fileid = (u_int)pos.node->fileid;
        ents[n].name = (char *)pos.name;
        cm_be32_put((uint8_t *)ents[n].cookie, (uint32_t)pos.cookie);
        ents[n].nextentry = NULL;
        *tail = &ents[n];
        tail = &ents[n].nextentry;
        cookie = pos.cookie;
        n++;
    }
    if (st == 0 && (more < 0 || (n == 0 && more == 1)))
        st = NFS3ERR_INVAL; /* v2 has no BAD_COOKIE or TOOSMALL: NFSERR_IO */
    res->status = (nfsstat)sv__v2_status(st);
    if (st == 0)
        res->readdirres_u.reply.eof = more == 0;
    else
        res->readdirres_u.reply.entries = NULL;
    return (int)res->status;
}

static int p_statfs(struct sv_core *c, void *a, void *r)
{
    statfsres *res = r;
    statfsokres *ok = &res->statfsres_u.reply;
    struct sv_fs_usage u;
    struct sv_node *n;
    uint64_t blocks, bfree;
    int st = get(c, a, &n);

    res->status = (nfsstat)sv__v2_status(st);
    if (st != 0)
        return (int)res->status;
    sv__fs_usage(c->fs, &u);
    blocks = u.total_bytes / 4096;
    bfree = (u.total_bytes - u.used_bytes) / 4096;
    ok->tsize = NFS_MAXDATA;
    ok->bsize = 4096;
    ok->blocks = blocks > 0xffffffffu ? 0xffffffffu : (u_int)blocks;
    ok->bfree = ok->bavail = bfree > 0xffffffffu ? 0xffffffffu : (u_int)bfree;
    if (ok->blocks < 0xffffffffu && sv__fault_lie(c, c->fault.bad_fs_pct))
        ok->bfree = ok->blocks + 1; /* more free than there is */
    return 0;
}

#define H(num, fn) [num] = {fn, NULL}

static const struct sv_handler procs2[] = {
    H(NFSPROC_NULL, p_void),       H(NFSPROC_GETATTR, p_getattr),
    H(NFSPROC_SETATTR, p_setattr), H(NFSPROC_ROOT, p_void),
    H(NFSPROC_LOOKUP, p_lookup),   H(NFSPROC_READLINK, p_readlink),
    H(NFSPROC_READ, p_read),       H(NFSPROC_WRITECACHE, p_void),
    H(NFSPROC_WRITE, p_write),     H(NFSPROC_CREATE, p_create),
    H(NFSPROC_REMOVE, p_remove),   H(NFSPROC_RENAME, p_rename),
    H(NFSPROC_LINK, p_link),       H(NFSPROC_SYMLINK, p_symlink),
    H(NFSPROC_MKDIR, p_mkdir),     H(NFSPROC_RMDIR, p_rmdir),
    H(NFSPROC_READDIR, p_readdir), H(NFSPROC_STATFS, p_statfs),
};

const struct sv_version sv__nfs2_version = {NF_NFS2, "nfs_v2", procs2,
                                            CM_ARRAY_LEN(procs2), 1};
