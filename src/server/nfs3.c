/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs3.c - the 22 NFSv3 procedures of sfs_nfsd (RFC 1813) over the
 * in-memory file system (fs.c), and their dispatch table.  Each handler
 * reads rpcgen-decoded arguments, fills the rpcgen result that dispatch.c
 * zeroed and encodes: post-op attributes and wcc data wherever RFC 1813
 * defines them, handles in c->fh_scratch, READ data in c->data, READDIR
 * entries in c->dirbuf - nothing allocated per call.
 */
#include "server/sv_int.h"
#include "nfs3_prot.h"

#include <string.h>
#include "common/cm.h"
#include "common/rng.h"

/* ---- attribute helpers --------------------------------------------------- */

static void attr_of(struct sv_core *c, const struct sv_node *n, fattr3 *a)
{
    a->type = (ftype3)n->type;
    a->mode = n->mode;
    a->nlink = n->nlink;
    a->uid = n->uid;
    a->gid = n->gid;
    a->size = n->size;
    a->used = n->type == SV_REG ? n->used : n->size;
    a->rdev.specdata1 = n->rdev_major;
    a->rdev.specdata2 = n->rdev_minor;
    a->fsid = SV_FSID;
    a->fileid = n->fileid;
    a->atime.seconds = n->atime.sec;
    a->atime.nseconds = n->atime.nsec;
    a->mtime.seconds = n->mtime.sec;
    a->mtime.nseconds = n->mtime.nsec;
    a->ctime.seconds = n->ctime.sec;
    a->ctime.nseconds = n->ctime.nsec;
    if (c->attrs_wrong) /* --wrong-attrs */
        sv__fault_attrs(&a->size, &a->mode);
}

static void post(struct sv_core *c, const struct sv_node *n, post_op_attr *p)
{
    p->attributes_follow = n != NULL;
    if (n != NULL)
        attr_of(c, n, &p->post_op_attr_u.attributes);
}

static void pre(const struct sv_node *n, pre_op_attr *p)
{
    p->attributes_follow = n != NULL;
    if (n != NULL) {
        wcc_attr *w = &p->pre_op_attr_u.attributes;
        w->size = n->size;
        w->mtime.seconds = n->mtime.sec;
        w->mtime.nseconds = n->mtime.nsec;
        w->ctime.seconds = n->ctime.sec;
        w->ctime.nseconds = n->ctime.nsec;
    }
}

/* wcc data: the before image taken by the caller, and the node now. */
static void wcc(struct sv_core *c, const pre_op_attr *before, const struct sv_node *n,
                wcc_data *w)
{
    w->before = *before;
    post(c, n, &w->after);
}

static void handle(struct sv_core *c, const struct sv_node *n, int slot, nfs_fh3 *fh)
{
    sv__handle(c, n, c->fh_scratch[slot]);
    fh->data.data_len = SV_FH_LEN;
    fh->data.data_val = (char *)c->fh_scratch[slot];
}

static int get(struct sv_core *c, const nfs_fh3 *fh, struct sv_node **n)
{
    return sv__fs_from_handle(c->fs, fh->data.data_val, fh->data.data_len, n);
}

/* The prologue of every procedure that answers wcc data: the object, and
 * its before image (none when the handle fails: *n is then NULL). */
static int get_pre(struct sv_core *c, const nfs_fh3 *fh, struct sv_node **n,
                   pre_op_attr *before)
{
    int st = get(c, fh, n);

    pre(*n, before);
    return st;
}

static void sattr_of(const sattr3 *s, struct sv_sattr *o)
{
    memset(o, 0, sizeof(*o));
    o->set_mode = s->mode.set_it;
    o->mode = s->mode.set_mode3_u.mode;
    o->set_uid = s->uid.set_it;
    o->uid = s->uid.set_uid3_u.uid;
    o->set_gid = s->gid.set_it;
    o->gid = s->gid.set_gid3_u.gid;
    o->set_size = s->size.set_it;
    o->size = s->size.set_size3_u.size;
    o->set_atime = s->atime.set_it == SET_TO_SERVER_TIME   ? 1
                   : s->atime.set_it == SET_TO_CLIENT_TIME ? 2
                                                           : 0;
    o->atime.sec = s->atime.set_atime_u.atime.seconds;
    o->atime.nsec = s->atime.set_atime_u.atime.nseconds;
    o->set_mtime = s->mtime.set_it == SET_TO_SERVER_TIME   ? 1
                   : s->mtime.set_it == SET_TO_CLIENT_TIME ? 2
                                                           : 0;
    o->mtime.sec = s->mtime.set_mtime_u.mtime.seconds;
    o->mtime.nsec = s->mtime.set_mtime_u.mtime.nseconds;
}

/* ---- procedures ---------------------------------------------------------- */

static int p_null(struct sv_core *c, void *a, void *r)
{
    (void)c, (void)a, (void)r;
    return 0;
}

static int p_getattr(struct sv_core *c, void *a, void *r)
{
    GETATTR3args *args = a;
    GETATTR3res *res = r;
    struct sv_node *n;

    res->status = get(c, &args->object, &n);
    if (res->status == NFS3_OK)
        attr_of(c, n, &res->GETATTR3res_u.resok.obj_attributes);
    return res->status;
}

static int p_setattr(struct sv_core *c, void *a, void *r)
{
    SETATTR3args *args = a;
    SETATTR3res *res = r;
    struct sv_sattr sa;
    struct sv_node *n;
    pre_op_attr before;

    res->status = get_pre(c, &args->object, &n, &before);
    if (res->status != NFS3_OK)
        return res->status;
    if (args->guard.check &&
        (args->guard.sattrguard3_u.obj_ctime.seconds != n->ctime.sec ||
         args->guard.sattrguard3_u.obj_ctime.nseconds != n->ctime.nsec)) {
        res->status = NFS3ERR_NOT_SYNC;
    } else {
        sattr_of(&args->new_attributes, &sa);
        res->status = sv__setattr(c, n, &sa);
    }
    /* resok and resfail both hold only obj_wcc */
    wcc(c, &before, n, &res->SETATTR3res_u.resok.obj_wcc);
    return res->status;
}

static int p_lookup(struct sv_core *c, void *a, void *r)
{
    LOOKUP3args *args = a;
    LOOKUP3res *res = r;
    struct sv_node *dir, *n;

    res->status = get(c, &args->what.dir, &dir);
    if (res->status != NFS3_OK)
        return res->status;
    res->status = sv__lookup(c, dir, args->what.name, &n);
    if (res->status != NFS3_OK) {
        post(c, dir, &res->LOOKUP3res_u.resfail.dir_attributes);
        return res->status;
    }
    handle(c, n, 0, &res->LOOKUP3res_u.resok.object);
    post(c, n, &res->LOOKUP3res_u.resok.obj_attributes);
    post(c, dir, &res->LOOKUP3res_u.resok.dir_attributes);
    return 0;
}

static int p_access(struct sv_core *c, void *a, void *r)
{
    ACCESS3args *args = a;
    ACCESS3res *res = r;
    struct sv_node *n;

    res->status = get(c, &args->object, &n);
    if (res->status != NFS3_OK)
        return res->status;
    post(c, n, &res->ACCESS3res_u.resok.obj_attributes);
    res->ACCESS3res_u.resok.access = sv__access3(c, n, args->access);
    if (sv__fault_lie(c, c->fault.bad_access_pct)) /* the mode's opposite, and
                                                      a bit never asked for */
        res->ACCESS3res_u.resok.access =
            (args->access & ~res->ACCESS3res_u.resok.access) | SV_ACCESS3_UNASKED;
    return 0;
}

static int p_readlink(struct sv_core *c, void *a, void *r)
{
    READLINK3args *args = a;
    READLINK3res *res = r;
    struct sv_node *n;

    res->status = get(c, &args->symlink, &n);
    if (res->status != NFS3_OK)
        return res->status;
    if (n->type != SV_LNK) {
        res->status = NFS3ERR_INVAL;
        post(c, n, &res->READLINK3res_u.resfail.symlink_attributes);
        return res->status;
    }
    post(c, n, &res->READLINK3res_u.resok.symlink_attributes);
    res->READLINK3res_u.resok.data = n->u.lnk.target;
    return 0;
}

static int p_read(struct sv_core *c, void *a, void *r)
{
    READ3args *args = a;
    READ3res *res = r;
    READ3resok *ok = &res->READ3res_u.resok;
    uint32_t count = args->count, max = c->udp ? SV_IO_MAX_UDP : SV_IO_MAX;
    struct sv_node *n;
    uint32_t got;
    int eof;

    res->status = get(c, &args->file, &n);
    if (res->status != NFS3_OK)
        return res->status;
    if (count > max)
        count = max;
    res->status = sv__data_check(c, n, 0);
    if (res->status == NFS3_OK)
        res->status = sv__fs_read(c->fs, n, args->offset, count, c->data, &got, &eof);
    if (res->status != NFS3_OK) {
        post(c, n, &res->READ3res_u.resfail.file_attributes);
        return res->status;
    }
    if (got > 0 && c->fault.corrupt_pct > 0 && sv__fault_hit(c, c->fault.corrupt_pct)) {
        c->data[cm_rng_below(&c->rng, got)] ^= 0x5a;
        c->reads_corrupted++;
    }
    post(c, n, &ok->file_attributes);
    ok->count = got;
    ok->eof = sv__fault_lie(c, c->fault.wrong_eof_pct) ? !eof : eof;
    ok->data.data_len = got;
    ok->data.data_val = (char *)c->data;
    return 0;
}

static int p_write(struct sv_core *c, void *a, void *r)
{
    WRITE3args *args = a;
    WRITE3res *res = r;
    struct sv_node *n;
    pre_op_attr before;

    res->status = get_pre(c, &args->file, &n, &before);
    if (res->status != NFS3_OK)
        return res->status;
    if (args->count > args->data.data_len)
        res->status = NFS3ERR_INVAL;
    else
        res->status = sv__data_check(c, n, 1);
    if (res->status == NFS3_OK)
        res->status =
            sv__fs_write(c->fs, n, args->offset, args->data.data_val, args->count);
    if (res->status != NFS3_OK) {
        wcc(c, &before, n, &res->WRITE3res_u.resfail.file_wcc);
        return res->status;
    }
    wcc(c, &before, n, &res->WRITE3res_u.resok.file_wcc);
    res->WRITE3res_u.resok.count = args->count;
    /* memory is as stable as this server gets; answering the level asked
     * for keeps clients' UNSTABLE + COMMIT paths in use */
    res->WRITE3res_u.resok.committed =
        sv__fault_lie(c, c->fault.weak_write_pct) ? UNSTABLE : args->stable;
    sv__fault_verf(c, (uint8_t *)res->WRITE3res_u.resok.verf);
    return 0;
}

/* What CREATE, MKDIR, SYMLINK and MKNOD share: a directory and a name, the
 * new object's type, attributes and link target, and result arms with the
 * same members.  make_node does the work, made fills the results. */
struct make {
    const diropargs3 *where;
    enum sv_type type;
    const sattr3 *attrs; /* NULL: none (EXCLUSIVE create) */
    const char *target;
    struct sv_node *dir, *n;
    pre_op_attr before;
};

static int make_node(struct sv_core *c, struct make *m)
{
    struct sv_sattr sa;
    int st = get_pre(c, &m->where->dir, &m->dir, &m->before);

    if (st != NFS3_OK)
        return st; /* m->dir is NULL: made() answers no wcc data */
    if (m->attrs)
        sattr_of(m->attrs, &sa);
    else
        memset(&sa, 0, sizeof(sa));
    return sv__create(c, m->dir, m->where->name, m->type, &sa, m->target, &m->n);
}

static int made(struct sv_core *c, int st, const struct make *m, post_op_fh3 *obj,
                post_op_attr *attr, wcc_data *ok_wcc, wcc_data *fail_wcc)
{
    if (m->dir == NULL)
        return st; /* the directory handle itself failed: no wcc data */
    if (st != NFS3_OK) {
        wcc(c, &m->before, m->dir, fail_wcc);
        return st;
    }
    obj->handle_follows = 1;
    handle(c, m->n, 0, &obj->post_op_fh3_u.handle);
    post(c, m->n, attr);
    wcc(c, &m->before, m->dir, ok_wcc);
    return 0;
}

static int p_create(struct sv_core *c, void *a, void *r)
{
    CREATE3args *args = a;
    CREATE3res *res = r;
    CREATE3resok *ok = &res->CREATE3res_u.resok;
    int excl = args->how.mode == EXCLUSIVE;
    struct make m = {.where = &args->where,
                     .type = SV_REG,
                     .attrs = excl ? NULL : &args->how.createhow3_u.obj_attributes};
    uint64_t verf = 0;

    if (excl)
        memcpy(&verf, args->how.createhow3_u.verf, sizeof(verf));
    res->status = make_node(c, &m);
    if (res->status == NFS3_OK) {
        m.n->create_verf = verf;
    } else if (res->status == NFS3ERR_EXIST && m.n != NULL && m.n->type == SV_REG) {
        /* UNCHECKED succeeds on an existing file (applying only the size);
         * EXCLUSIVE succeeds when the verifier matches (a retransmission) */
        if (args->how.mode == UNCHECKED) {
            struct sv_sattr sa = {0};
            const set_size3 *sz = &args->how.createhow3_u.obj_attributes.size;
            sa.set_size = sz->set_it;
            sa.size = sz->set_size3_u.size;
            res->status = sv__setattr(c, m.n, &sa);
        } else if (excl && verf != 0 && m.n->create_verf == verf) {
            res->status = NFS3_OK;
        }
    }
    return made(c, res->status, &m, &ok->obj, &ok->obj_attributes, &ok->dir_wcc,
                &res->CREATE3res_u.resfail.dir_wcc);
}

static int p_mkdir(struct sv_core *c, void *a, void *r)
{
    MKDIR3args *args = a;
    MKDIR3res *res = r;
    MKDIR3resok *ok = &res->MKDIR3res_u.resok;
    struct make m = {.where = &args->where, .type = SV_DIR, .attrs = &args->attributes};

    res->status = make_node(c, &m);
    return made(c, res->status, &m, &ok->obj, &ok->obj_attributes, &ok->dir_wcc,
                &res->MKDIR3res_u.resfail.dir_wcc);
}

static int p_symlink(struct sv_core *c, void *a, void *r)
{
    SYMLINK3args *args = a;
    SYMLINK3res *res = r;
    SYMLINK3resok *ok = &res->SYMLINK3res_u.resok;
    struct make m = {.where = &args->where,
                     .type = SV_LNK,
                     .attrs = &args->symlink.symlink_attributes,
                     .target = args->symlink.symlink_data};

    res->status = make_node(c, &m);
    return made(c, res->status, &m, &ok->obj, &ok->obj_attributes, &ok->dir_wcc,
                &res->SYMLINK3res_u.resfail.dir_wcc);
}

static int p_mknod(struct sv_core *c, void *a, void *r)
{
    MKNOD3args *args = a;
    MKNOD3res *res = r;
    MKNOD3resok *ok = &res->MKNOD3res_u.resok;
    const mknoddata3 *w = &args->what;
    int dev = w->type == NF3CHR || w->type == NF3BLK;
    struct make m = {.where = &args->where,
                     .type = (enum sv_type)w->type,
                     .attrs = dev ? &w->mknoddata3_u.device.dev_attributes
                                  : &w->mknoddata3_u.pipe_attributes};

    static const sattr3 unset; /* the arm of the other types carries none */

    if (sv__fault_lie(c, c->fault.bad_mknod_pct)) { /* a regular file, whatever */
        m.type = SV_REG;
        dev = 0;
        if (w->type != NF3SOCK && w->type != NF3FIFO)
            m.attrs = &unset;
    } else if (!dev && w->type != NF3SOCK && w->type != NF3FIFO) {
        res->status = NFS3ERR_BADTYPE; /* regular files, directories, links */
        return res->status;
    }
    res->status = make_node(c, &m);
    if (res->status == NFS3_OK && dev) {
        m.n->rdev_major = w->mknoddata3_u.device.spec.specdata1;
        m.n->rdev_minor = w->mknoddata3_u.device.spec.specdata2;
    }
    return made(c, res->status, &m, &ok->obj, &ok->obj_attributes, &ok->dir_wcc,
                &res->MKNOD3res_u.resfail.dir_wcc);
}

/* REMOVE and RMDIR: same arguments and results shape. */
static int unlink_common(struct sv_core *c, const diropargs3 *d, wcc_data *w,
                         int want_dir)
{
    struct sv_node *dir;
    pre_op_attr before;
    int st = get_pre(c, &d->dir, &dir, &before);

    if (st != NFS3_OK)
        return st;
    st = sv__remove(c, dir, d->name, want_dir);
    wcc(c, &before, dir, w);
    return st;
}

static int p_remove(struct sv_core *c, void *a, void *r)
{
    REMOVE3res *res = r;

    res->status = unlink_common(c, &((REMOVE3args *)a)->object,
                                &res->REMOVE3res_u.resok.dir_wcc, 0);
    return res->status;
}

static int p_rmdir(struct sv_core *c, void *a, void *r)
{
    RMDIR3res *res = r;

    res->status =
        unlink_common(c, &((RMDIR3args *)a)->object, &res->RMDIR3res_u.resok.dir_wcc, 1);
    return res->status;
}

static int p_rename(struct sv_core *c, void *a, void *r)
{
    RENAME3args *args = a;
    RENAME3res *res = r;
    struct sv_node *fdir, *tdir;
    pre_op_attr fb, tb;
    int st;

    /* both handles are resolved even when one fails, so that each
     * directory found still gets its wcc data (pre() and post(c, ) of NULL
     * say "no attributes") */
    res->status = get_pre(c, &args->from.dir, &fdir, &fb);
    st = get_pre(c, &args->to.dir, &tdir, &tb);
    if (res->status == NFS3_OK)
        res->status = st;
    if (res->status == NFS3_OK)
        res->status = sv__rename(c, fdir, args->from.name, tdir, args->to.name);
    wcc(c, &fb, fdir, &res->RENAME3res_u.resok.fromdir_wcc);
    wcc(c, &tb, tdir, &res->RENAME3res_u.resok.todir_wcc);
    return res->status;
}

static int p_link(struct sv_core *c, void *a, void *r)
{
    LINK3args *args = a;
    LINK3res *res = r;
    struct sv_node *n, *dir;
    pre_op_attr before;
    int st;

    /* as in RENAME: whichever handle resolves still gets its attributes */
    res->status = get(c, &args->file, &n);
    st = get_pre(c, &args->link.dir, &dir, &before);
    if (res->status == NFS3_OK)
        res->status = st;
    if (res->status == NFS3_OK)
        res->status = sv__link(c, n, dir, args->link.name);
    post(c, n, &res->LINK3res_u.resok.file_attributes);
    wcc(c, &before, dir, &res->LINK3res_u.resok.linkdir_wcc);
    return res->status;
}

/* XDR sizes (RFC 1813 encoding) used to fill READDIR replies to count. */
#define XDR_PAD(n)      (((n) + 3u) & ~3u)
#define POST_ATTR_BYTES (4 + 84)
#define ENTRY_BYTES(nl) (4 + 8 + 4 + XDR_PAD(nl) + 8)
#define DIR_RES_BYTES   (4 + POST_ATTR_BYTES + 8 + 4 + 4)

/* READDIR and READDIRPLUS walk a directory the same way: from a cookie,
 * while the entries fit the reply (limit bytes, each entry costing its
 * READDIR encoding plus extra) and the entry budget (dirlimit, 0 = none).
 * add() stores entry i of the reply in c->dirbuf. */
struct dirwalk {
    uint64_t cookie;
    uint32_t limit, dirlimit, extra;
    size_t max_ents;
    int eof;
};
typedef void (*dir_add_fn)(struct sv_core *c, size_t i, const struct sv_dirpos *pos,
                           void *ctx);

static int dir_walk(struct sv_core *c, const nfs_fh3 *fh, struct dirwalk *w,
                    struct sv_node **dirp, dir_add_fn add, void *ctx)
{
    uint32_t used = DIR_RES_BYTES, dused = 0, max = c->udp ? SV_IO_MAX_UDP : SV_IO_MAX;
    struct sv_dirpos pos;
    struct sv_node *dir;
    size_t n = 0;
    int more = 0, drop, st = get(c, fh, &dir);

    *dirp = st == NFS3_OK ? dir : NULL;
    if (st != NFS3_OK)
        return st;
    st = sv__readdir_check(c, dir);
    if (st != NFS3_OK)
        return st;
    if (w->limit > max)
        w->limit = max;
    drop = sv__fault_drop_dirent(c);
    while (n < w->max_ents &&
           (more = sv__fs_dir_after(c->fs, dir, w->cookie, &pos)) == 1) {
        uint32_t dsz = ENTRY_BYTES((uint32_t)strlen(pos.name));
        if (sv__fault_skip_dirent(c, &drop, pos.name)) {
            w->cookie = pos.cookie;
            continue;
        }
        if (used + dsz + w->extra > w->limit ||
            (w->dirlimit && dused + dsz > w->dirlimit))
            break;
        used += dsz + w->extra;
        dused += dsz;
        add(c, n++, &pos, ctx);
        w->cookie = pos.cookie;
    }
    if (more < 0)
        return NFS3ERR_BAD_COOKIE;
    if (n == 0 && more == 1)
        return NFS3ERR_TOOSMALL;
    w->eof = more == 0;
    return 0;
}

static void add_entry(struct sv_core *c, size_t i, const struct sv_dirpos *pos, void *ctx)
{
    entry3 *e = (entry3 *)c->dirbuf.bytes + i, ***tail = ctx;

    e->fileid = pos->node->fileid;
    e->name = (char *)pos->name;
    e->cookie = pos->cookie;
    e->nextentry = NULL;
    **tail = e;
    *tail = &e->nextentry;
}

static int p_readdir(struct sv_core *c, void *a, void *r)
{
    READDIR3args *args = a;
    READDIR3res *res = r;
    READDIR3resok *ok = &res->READDIR3res_u.resok;
    entry3 **tail = &ok->reply.entries;
    struct dirwalk w = {.cookie = args->cookie,
                        .limit = args->count,
                        .max_ents = sizeof(c->dirbuf) / sizeof(entry3)};
    struct sv_node *dir;

    res->status = dir_walk(c, &args->dir, &w, &dir, add_entry, &tail);
    if (res->status != NFS3_OK) {
        ok->reply.entries = NULL;
        post(c, dir, &res->READDIR3res_u.resfail.dir_attributes);
        return res->status;
    }
    post(c, dir, &ok->dir_attributes);
    ok->reply.eof = w.eof;
    return 0;
}

/* A READDIRPLUS entry with room for its handle. */
struct plus_slot {
    entryplus3 e;
    uint8_t fh[SV_FH_LEN];
};

static void add_plus(struct sv_core *c, size_t i, const struct sv_dirpos *pos, void *ctx)
{
    struct plus_slot *s = (struct plus_slot *)c->dirbuf.bytes + i;
    entryplus3 *e = &s->e, ***tail = ctx;

    memset(e, 0, sizeof(*e));
    e->fileid = pos->node->fileid;
    e->name = (char *)pos->name;
    e->cookie = pos->cookie;
    post(c, pos->node, &e->name_attributes);
    sv__handle(c, pos->node, s->fh);
    e->name_handle.handle_follows = 1;
    e->name_handle.post_op_fh3_u.handle.data.data_len = SV_FH_LEN;
    e->name_handle.post_op_fh3_u.handle.data.data_val = (char *)s->fh;
    **tail = e;
    *tail = &e->nextentry;
}

static int p_readdirplus(struct sv_core *c, void *a, void *r)
{
    READDIRPLUS3args *args = a;
    READDIRPLUS3res *res = r;
    READDIRPLUS3resok *ok = &res->READDIRPLUS3res_u.resok;
    entryplus3 **tail = &ok->reply.entries;
    struct dirwalk w = {.cookie = args->cookie,
                        .limit = args->maxcount,
                        .dirlimit = args->dircount,
                        .extra = POST_ATTR_BYTES + 4 + 4 + SV_FH_LEN,
                        .max_ents = sizeof(c->dirbuf) / sizeof(struct plus_slot)};
    struct sv_node *dir;

    res->status = dir_walk(c, &args->dir, &w, &dir, add_plus, &tail);
    if (res->status != NFS3_OK) {
        ok->reply.entries = NULL;
        post(c, dir, &res->READDIRPLUS3res_u.resfail.dir_attributes);
        return res->status;
    }
    post(c, dir, &ok->dir_attributes);
    ok->reply.eof = w.eof;
    return 0;
}

static int p_fsstat(struct sv_core *c, void *a, void *r)
{
    FSSTAT3res *res = r;
    FSSTAT3resok *ok = &res->FSSTAT3res_u.resok;
    struct sv_fs_usage u;
    struct sv_node *n;
    int lie;

    res->status = get(c, &((FSSTAT3args *)a)->fsroot, &n);
    if (res->status != NFS3_OK)
        return res->status;
    lie = sv__fault_lie(c, c->fault.bad_fs_pct);
    sv__fs_usage(c->fs, &u);
    /* --bad-fs: the attributes of another object (the internal root) */
    post(c, lie ? sv__fs_root(c->fs) : n, &ok->obj_attributes);
    ok->tbytes = u.total_bytes;
    ok->fbytes = ok->abytes = u.total_bytes - u.used_bytes;
    ok->tfiles = 1ULL << 32;
    ok->ffiles = ok->afiles = ok->tfiles - u.files;
    ok->invarsec = 0;
    if (lie) { /* more free than there is */
        ok->fbytes = ok->tbytes + 1;
        ok->afiles = ok->ffiles + 1;
    }
    return 0;
}

static int p_fsinfo(struct sv_core *c, void *a, void *r)
{
    FSINFO3res *res = r;
    FSINFO3resok *ok = &res->FSINFO3res_u.resok;
    uint32_t io = c->udp ? SV_IO_MAX_UDP : SV_IO_MAX;
    struct sv_node *n;
    int lie;

    res->status = get(c, &((FSINFO3args *)a)->fsroot, &n);
    if (res->status != NFS3_OK)
        return res->status;
    lie = sv__fault_lie(c, c->fault.bad_fs_pct);
    post(c, lie ? sv__fs_root(c->fs) : n, &ok->obj_attributes);
    ok->rtmax = ok->rtpref = ok->wtmax = ok->wtpref = io;
    ok->rtmult = ok->wtmult = 4096;
    ok->dtpref = 8192;
    ok->maxfilesize = SV_FILE_MAX;
    ok->time_delta.seconds = 0;
    ok->time_delta.nseconds = 1;
    ok->properties = FSF3_LINK | FSF3_SYMLINK | FSF3_HOMOGENEOUS | FSF3_CANSETTIME;
    if (lie) { /* LINK and SYMLINK work */
        ok->rtpref = ok->rtmax + 1;
        ok->maxfilesize = 1;
        ok->properties &= ~(uint32_t)(FSF3_LINK | FSF3_SYMLINK);
    }
    return 0;
}

static int p_pathconf(struct sv_core *c, void *a, void *r)
{
    PATHCONF3res *res = r;
    PATHCONF3resok *ok = &res->PATHCONF3res_u.resok;
    struct sv_node *n;

    res->status = get(c, &((PATHCONF3args *)a)->object, &n);
    if (res->status != NFS3_OK)
        return res->status;
    post(c, n, &ok->obj_attributes);
    ok->linkmax = 32000;
    ok->name_max = SV_NAME_MAX;
    ok->no_trunc = 1;
    ok->chown_restricted = 1;
    ok->case_insensitive = 0;
    ok->case_preserving = 1;
    /* a directory's only: files keep the truth, which FSF3_HOMOGENEOUS
     * says is the same */
    if (n->type == SV_DIR && sv__fault_lie(c, c->fault.bad_fs_pct)) {
        ok->linkmax = 1;
        ok->name_max = SV_BAD_NAME_MAX;
    }
    return 0;
}

static int p_commit(struct sv_core *c, void *a, void *r)
{
    COMMIT3args *args = a;
    COMMIT3res *res = r;
    struct sv_node *n;
    pre_op_attr before;

    res->status = get_pre(c, &args->file, &n, &before);
    if (res->status != NFS3_OK)
        return res->status;
    if (n->type != SV_REG)
        res->status = n->type == SV_DIR ? NFS3ERR_ISDIR : NFS3ERR_INVAL;
    else
        res->status = sv__data_check(c, n, 1);
    wcc(c, &before, n, &res->COMMIT3res_u.resok.file_wcc);
    sv__fault_verf(c, (uint8_t *)res->COMMIT3res_u.resok.verf);
    return res->status;
}

/* ---- the table ----------------------------------------------------------- */

#define H(num, fn)           [num] = {fn, NULL}
#define HB(num, fn, bounded) [num] = {fn, (xdrproc_t)bounded}

static const struct sv_handler procs3[] = {
    H(NFSPROC3_NULL, p_null),
    H(NFSPROC3_GETATTR, p_getattr),
    H(NFSPROC3_SETATTR, p_setattr),
    HB(NFSPROC3_LOOKUP, p_lookup, sv__xdr_LOOKUP3args),
    H(NFSPROC3_ACCESS, p_access),
    H(NFSPROC3_READLINK, p_readlink),
    H(NFSPROC3_READ, p_read),
    HB(NFSPROC3_WRITE, p_write, sv__xdr_WRITE3args),
    HB(NFSPROC3_CREATE, p_create, sv__xdr_CREATE3args),
    HB(NFSPROC3_MKDIR, p_mkdir, sv__xdr_MKDIR3args),
    HB(NFSPROC3_SYMLINK, p_symlink, sv__xdr_SYMLINK3args),
    HB(NFSPROC3_MKNOD, p_mknod, sv__xdr_MKNOD3args),
    HB(NFSPROC3_REMOVE, p_remove, sv__xdr_REMOVE3args),
    HB(NFSPROC3_RMDIR, p_rmdir, sv__xdr_RMDIR3args),
    HB(NFSPROC3_RENAME, p_rename, sv__xdr_RENAME3args),
    HB(NFSPROC3_LINK, p_link, sv__xdr_LINK3args),
    H(NFSPROC3_READDIR, p_readdir),
    H(NFSPROC3_READDIRPLUS, p_readdirplus),
    H(NFSPROC3_FSSTAT, p_fsstat),
    H(NFSPROC3_FSINFO, p_fsinfo),
    H(NFSPROC3_PATHCONF, p_pathconf),
    H(NFSPROC3_COMMIT, p_commit),
};

const struct sv_version sv__nfs3_version = {NF_NFS3, "nfs_v3", procs3,
                                            CM_ARRAY_LEN(procs3), 1};
