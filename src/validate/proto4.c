/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto4.c - the NFSv4.1 adapter of the validation suite (vd_int.h), over
 * the v4 client of the nfs layer (nf4_client.h): each call the reference
 * steps make is the compound the SFS mix sends for that op (v4_sfs.c:
 * SEQUENCE, PUTFH, the operation, GETFH and GETATTR where a Linux client
 * asks them), sent synchronously and read out as a struct vd_res.
 *
 * What NFSv4 does differently, and how the suite sees it:
 *   - the mount: no MOUNT program; PUTROOTFH and a LOOKUP per component,
 *     with a session (nf4_mount), over TCP whatever -Q says;
 *   - READ and WRITE carry the stateid of an OPEN: a file created here
 *     keeps its OPEN(CREATE)'s, another is opened (CLAIM_FH) at its first
 *     READ or WRITE; all are CLOSEd before the clean-up (vd4_release), as
 *     the load CLOSEs a file leaving its working set;
 *   - owner and owner_group are strings: compared as uid and gid when the
 *     server sends numbers (AUTH_SYS without an id mapping), else not
 *     compared (one I note);
 *   - READDIR has no "." and "..", and the readdirplus step lists with the
 *     attributes `ls -l` asks (the mix's readdirplus).
 * Statuses come back in nf.h's numbering (nf4_status_nf), so the steps
 * read them as v3's.
 */
#include <string.h>

#include "validate/vd_int.h"
#include "common/alloc.h"
#include "common/error.h"
#include "nfs/nf4_client.h"
#include "nfs/nf4_load.h"

#define V4_READDIR_COUNT 8192
#define V4_SLOTS         4
#define V4_NAMES_BYTES   32768 /* a READDIR reply's names and fileids */

struct vd4_open {
    struct nf_fh fh;
    stateid4 sid;
};

struct vd4 {
    struct nf4_mount m;
    struct nf4_call call;
    struct vd4_open open[VD_MAX_OBJS];
    int nopen;
    int owners_named; /* an owner string that is not a number was seen */
    char names[V4_NAMES_BYTES];
};

/* ---- the mount -------------------------------------------------------------- */

int vd4_mount(struct vd_ctx *v, const struct nf_mount_opts *mo, char *err, size_t errlen)
{
    struct nf4_client_opts co;
    struct vd4 *s = v->v4 ? v->v4 : cm_calloc(1, sizeof(*s));
    int rc;

    if (!s)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    v->v4 = s;
    s->nopen = 0;
    nf4_client_opts_init(&co);
    co.slots = V4_SLOTS;
    co.timeout_ms = mo->timeout_ms ? mo->timeout_ms : co.timeout_ms;
    rc = nf4_mount(&s->m, v->o->mount, mo, &co, err, errlen);
    if (rc < 0)
        return rc;
    if (nf4_fh_to_nf(&s->m.root, &v->m.root) < 0) {
        nf4_umount(&s->m);
        return cm_errf(err, errlen, "the export's handle is %u bytes, more than %d",
                       s->m.root.len, NF_FH_MAX),
               -E2BIG;
    }
    v->clnt = nf4_client_rpc(s->m.cl);
    return 0;
}

void vd4_umount(struct vd_ctx *v)
{
    if (!v->v4)
        return;
    vd4_release(v);
    nf4_umount(&v->v4->m);
    v->clnt = NULL;
}

void vd4_free(struct vd_ctx *v)
{
    free(v->v4);
    v->v4 = NULL;
}

/* ---- one compound ------------------------------------------------------------ */

static struct nf4_compound *begin(struct vd_ctx *v, char *data, uint32_t data_max)
{
    struct nf4_call *c = &v->v4->call;

    memset(&c->res, 0, sizeof(c->res));
    c->res.data = data;
    c->res.data_max = data_max;
    c->done = NULL;
    c->timeout_ms = 0; /* TCP's call-class timeout */
    return &c->args;
}

/* Sends the compound built in v4->call.args (again after a timeout, as
 * every call of the suite); the NFS status in nf.h's numbering, or the
 * negative RPC status. */
static int send4(struct vd_ctx *v)
{
    struct nf4_call *c = &v->v4->call;
    int rc;

    VD_CALL(v, rc, nf4_call_sync(v->v4->m.cl, c));
    if (rc < 0)
        return rc;
    return (int)nf4_status_nf(c->res.status);
}

/* Builds SFS op's compound from a; -EINVAL (no reply) when it cannot. */
static int sfs_call(struct vd_ctx *v, int op, const struct nf4_sfs_args *a, char *data,
                    uint32_t data_max)
{
    struct nf4_compound *c = begin(v, data, data_max);
    int rc = nf4_sfs_compound(c, 1, op, a);

    return rc < 0 ? rc : send4(v);
}

static const struct nf4_resop *result(struct vd_ctx *v, uint32_t op)
{
    const struct nf4_resop *o = nf4_res_find(&v->v4->call.res, op, 0);

    return o && o->status == NFS4_OK ? o : NULL;
}

/* ---- conversions ------------------------------------------------------------- */

static uint32_t type4(uint32_t t)
{
    return t >= NF4REG && t <= NF4FIFO ? t : VD_T_BAD; /* v3's numbers */
}

static void attr4(struct vd_ctx *v, const struct nf4_attrs *a, struct vd_attr *out)
{
    out->type = type4(a->type);
    out->mode = a->mode & 07777;
    out->nlink = a->numlinks;
    out->uid = a->owner_id;
    out->gid = a->owner_group_id;
    if (a->owner_id == UINT32_MAX || a->owner_group_id == UINT32_MAX) {
        if (!v->v4->owners_named++)
            vd_info(v, "the server names owners as strings, not numbers: uid and gid are "
                       "not compared (RFC 8881 section 5.9)");
        out->uid = out->gid = VD_UNKNOWN32; /* not compared */
    }
    out->size = a->size;
    out->fsid = a->fsid_major ^ (a->fsid_minor << 32 | a->fsid_minor >> 32);
    out->fileid = a->fileid;
    out->rdev1 = a->rawdev_major;
    out->rdev2 = a->rawdev_minor;
    out->atime_s = (uint32_t)a->time_access.sec;
    out->mtime_s = (uint32_t)a->time_modify.sec;
}

static void res_clear(struct vd_res *r)
{
    memset(r, 0, sizeof(*r));
    r->eof = -1;
}

/* The last GETATTR's attributes and GETFH's handle into r. */
static void fill(struct vd_ctx *v, struct vd_res *r)
{
    const struct nf4_res *res = &v->v4->call.res;
    const struct nf4_resop *o = NULL;
    uint32_t i;

    for (i = 0; i < res->nops; i++)
        if (res->op[i].op == OP_GETATTR && res->op[i].status == NFS4_OK)
            o = &res->op[i];
    if (o) {
        attr4(v, &o->u.getattr, &r->attr);
        r->have_attr = 1;
    }
    o = result(v, OP_GETFH);
    if (o && nf4_fh_to_nf(&o->u.getfh, &r->fh) == 0)
        r->have_fh = 1;
}

/* ---- opens ------------------------------------------------------------------- */

static struct vd4_open *open_of(struct vd_ctx *v, const struct nf_fh *fh)
{
    int i;

    for (i = 0; i < v->v4->nopen; i++)
        if (nf_fh_equal(&v->v4->open[i].fh, fh))
            return &v->v4->open[i];
    return NULL;
}

static void open_keep(struct vd_ctx *v, const struct nf_fh *fh, const stateid4 *sid)
{
    struct vd4_open *o = open_of(v, fh);

    if (!o && v->v4->nopen < VD_MAX_OBJS) {
        o = &v->v4->open[v->v4->nopen++];
        o->fh = *fh;
    }
    if (o)
        o->sid = *sid;
}

/* The stateid of fh's OPEN, opening it first (CLAIM_FH); 0 and *sid, or a
 * status. */
static int opened(struct vd_ctx *v, const struct nf_fh *fh, const stateid4 **sid)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    const struct nf4_resop *o;
    struct vd4_open *known = open_of(v, fh);
    int st;

    if (known) {
        *sid = &known->sid;
        return 0;
    }
    memset(&a, 0, sizeof(a));
    nf4_fh_from_nf(fh, &f);
    a.fh = &f;
    begin(v, NULL, 0);
    if ((st = nf4_sfs_open(&v->v4->call.args, &a)) < 0 || (st = send4(v)) != NF_ST_OK)
        return st;
    if (!(o = result(v, OP_OPEN)))
        return NF_ST_SERVERFAULT;
    open_keep(v, fh, &o->u.open.stateid);
    if (!(known = open_of(v, fh)))
        return -ENOMEM; /* more files than the suite makes */
    *sid = &known->sid;
    return 0;
}

void vd4_release(struct vd_ctx *v)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    int i;

    if (!v->v4)
        return;
    for (i = 0; i < v->v4->nopen; i++) {
        memset(&a, 0, sizeof(a));
        nf4_fh_from_nf(&v->v4->open[i].fh, &f);
        a.fh = &f;
        a.sid = &v->v4->open[i].sid;
        begin(v, NULL, 0);
        if (nf4_sfs_close(&v->v4->call.args, &a) == 0 && send4(v) != NF_ST_OK)
            vd_info(v, "CLOSE of an open file: %s",
                    nf4_status_name(v->v4->call.res.status));
    }
    v->v4->nopen = 0;
}

/* ---- the calls --------------------------------------------------------------- */

static int p4_null(struct vd_ctx *v)
{
    struct rp_call call;
    int rc;

    VD_CALL(
        v, rc,
        (rp_call_prepare(&call, 0, (xdrproc_t)rp_xdr_void, NULL, (xdrproc_t)rp_xdr_void,
                         NULL, nf_class_timeout_ms(NF_CLASS_LOOKUP, 1), NULL, NULL),
         rp_call_sync(v->clnt, &call)));
    return rc;
}

static void args_fh(struct nf4_sfs_args *a, struct nf4_fh *f, const struct nf_fh *fh)
{
    memset(a, 0, sizeof(*a));
    nf4_fh_from_nf(fh, f);
    a->fh = f;
}

static int p4_getattr(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    int st;

    res_clear(r);
    args_fh(&a, &f, fh);
    if ((st = sfs_call(v, NF_OP_GETATTR, &a, NULL, 0)) == NF_ST_OK)
        fill(v, r);
    return st;
}

static int p4_setattr(struct vd_ctx *v, const struct nf_fh *fh, uint32_t mode,
                      uint32_t time_s, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    int st;

    res_clear(r);
    args_fh(&a, &f, fh);
    a.sa.set_mode = 1;
    a.sa.mode = mode;
    a.sa.set_times = 1;
    a.sa.time_s = time_s;
    if ((st = sfs_call(v, NF_OP_SETATTR, &a, NULL, 0)) == NF_ST_OK)
        fill(v, r);
    return st;
}

static int p4_lookup(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    int st;

    res_clear(r);
    args_fh(&a, &f, dir);
    a.name = name;
    if ((st = sfs_call(v, NF_OP_LOOKUP, &a, NULL, 0)) == NF_ST_OK)
        fill(v, r);
    return st;
}

/* create: OPEN(CREATE) UNCHECKED with the mode, size 0 and the times now;
 * the open is kept for the file's WRITEs and READs */
static int p4_create(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                     uint32_t mode, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    const struct nf4_resop *o;
    int st;

    res_clear(r);
    args_fh(&a, &f, dir);
    a.name = name;
    a.sa.set_mode = 1;
    a.sa.mode = mode;
    a.sa.set_size = 1;
    a.sa.size = 0;
    if ((st = sfs_call(v, NF_OP_CREATE, &a, NULL, 0)) != NF_ST_OK)
        return st;
    fill(v, r);
    o = result(v, OP_OPEN);
    if (o && r->have_fh)
        open_keep(v, &r->fh, &o->u.open.stateid);
    return st;
}

/* mkdir, symlink: CREATE of the type, its handle and attributes */
static int make(struct vd_ctx *v, int op, const struct nf_fh *dir, const char *name,
                uint32_t mode, const char *target, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    int st;

    res_clear(r);
    args_fh(&a, &f, dir);
    a.name = name;
    a.target = target;
    a.sa.set_mode = 1;
    a.sa.mode = mode;
    if ((st = sfs_call(v, op, &a, NULL, 0)) == NF_ST_OK)
        fill(v, r);
    return st;
}

static int p4_mkdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                    uint32_t mode, struct vd_res *r)
{
    return make(v, NF_OP_MKDIR, dir, name, mode, NULL, r);
}

static int p4_symlink(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                      const char *text, struct vd_res *r)
{
    return make(v, NF_OP_SYMLINK, dir, name, 0777, text, r);
}

static int p4_link(struct vd_ctx *v, const struct nf_fh *file, const struct nf_fh *dir,
                   const char *name, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f, d;
    int st;

    res_clear(r);
    args_fh(&a, &f, file);
    nf4_fh_from_nf(dir, &d);
    a.fh2 = &d;
    a.name = name;
    if ((st = sfs_call(v, NF_OP_LINK, &a, NULL, 0)) == NF_ST_OK)
        fill(v, r); /* the file's, after RESTOREFH */
    return st;
}

static int p4_readlink(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    const struct nf4_resop *o;
    int st;

    res_clear(r);
    args_fh(&a, &f, fh);
    st = sfs_call(v, NF_OP_READLINK, &a, r->text, sizeof(r->text) - 1);
    if (st == NF_ST_OK && (o = result(v, OP_READLINK)) != NULL)
        r->text[o->u.readlink.len < sizeof(r->text) ? o->u.readlink.len
                                                    : sizeof(r->text) - 1] = '\0';
    return st;
}

static int p4_write(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off,
                    const void *buf, uint32_t len, int stable, struct vd_res *r)
{
    struct nf4_fh f;
    struct nf4_compound *c;
    const struct nf4_resop *o;
    const stateid4 *sid;
    int st;

    res_clear(r);
    if ((st = opened(v, fh, &sid)) != 0)
        return st;
    nf4_fh_from_nf(fh, &f);
    /* the mix's compound (PUTFH WRITE GETATTR), with any stable_how */
    c = begin(v, NULL, 0);
    nf4_compound_init(c, 1, 0);
    nf4_op_putfh(c, &f);
    nf4_op_write(c, sid, off, (stable_how4)stable, buf, len);
    nf4_op_getattr(c, NF4_MASK_GETATTR);
    if ((st = send4(v)) != NF_ST_OK)
        return st;
    fill(v, r);
    if ((o = result(v, OP_WRITE)) != NULL) {
        r->count = o->u.write.count;
        r->committed = (int)o->u.write.committed;
        memcpy(r->verf, o->u.write.writeverf, sizeof(r->verf));
    }
    return st;
}

static int p4_read(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, void *buf,
                   uint32_t len, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    const struct nf4_resop *o;
    const stateid4 *sid;
    int st;

    res_clear(r);
    if ((st = opened(v, fh, &sid)) != 0)
        return st;
    args_fh(&a, &f, fh);
    a.sid = sid;
    a.offset = off;
    a.count = len;
    st = sfs_call(v, NF_OP_READ, &a, buf, len);
    if (st == NF_ST_OK && (o = result(v, OP_READ)) != NULL) {
        r->count = o->u.read.len < len ? o->u.read.len : len;
        r->eof = o->u.read.eof ? 1 : 0;
    }
    return st;
}

/* One READDIR from *cur: the names and their fileids (res.dir_fileids). */
static int list(struct vd_ctx *v, int op, const struct nf_fh *dir, struct vd_cursor *cur,
                vd_entry_fn fn, void *data, struct vd_res *r)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;
    const struct nf4_resop *o;
    const char *p, *end;
    int st, stop = 0;

    res_clear(r);
    args_fh(&a, &f, dir);
    a.cookie = cur->cookie;
    a.verf = (const char *)cur->verf;
    a.count = V4_READDIR_COUNT;
    a.dircount = V4_READDIR_COUNT;
    {
        struct nf4_compound *c = begin(v, v->v4->names, sizeof(v->v4->names));

        v->v4->call.res.dir_fileids = 1;
        if ((st = nf4_sfs_compound(c, 1, op, &a)) < 0 || (st = send4(v)) != NF_ST_OK)
            return st;
    }
    if (!(o = result(v, OP_READDIR)))
        return NF_ST_SERVERFAULT;
    memcpy(cur->verf, o->u.readdir.cookieverf, sizeof(cur->verf));
    p = v->v4->names;
    end = p + o->u.readdir.names_len;
    while (p < end) {
        size_t n = strlen(p);
        uint64_t fileid;

        memcpy(&fileid, p + n + 1, sizeof(fileid));
        if (!stop)
            stop = fn(v, p, fileid, data);
        r->count++;
        p += n + 1 + sizeof(fileid);
    }
    if (r->count < o->u.readdir.entries) /* names that did not fit: none of
                                            the suite's are that long */
        return NF_ST_SERVERFAULT;
    cur->cookie = o->u.readdir.last_cookie;
    r->eof = o->u.readdir.eof ? 1 : 0;
    return st;
}

static int p4_readdir(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                      vd_entry_fn fn, void *data, struct vd_res *r)
{
    return list(v, NF_OP_READDIR, dir, cur, fn, data, r);
}

static int p4_readdir_plus(struct vd_ctx *v, const struct nf_fh *dir,
                           struct vd_cursor *cur, vd_entry_fn fn, void *data,
                           struct vd_res *r)
{
    return list(v, NF_OP_READDIRPLUS, dir, cur, fn, data, r);
}

static int by_name(struct vd_ctx *v, int op, const struct nf_fh *dir, const char *name)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;

    args_fh(&a, &f, dir);
    a.name = name;
    return sfs_call(v, op, &a, NULL, 0);
}

static int p4_remove(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    return by_name(v, NF_OP_REMOVE, dir, name);
}

static int p4_rmdir(struct vd_ctx *v, const struct nf_fh *dir, const char *name)
{
    return by_name(v, NF_OP_RMDIR, dir, name);
}

static int p4_rename(struct vd_ctx *v, const struct nf_fh *dir, const char *from,
                     const char *to)
{
    struct nf4_sfs_args a;
    struct nf4_fh f;

    args_fh(&a, &f, dir);
    a.fh2 = &f;
    a.name = from;
    a.name2 = to;
    return sfs_call(v, NF_OP_RENAME, &a, NULL, 0);
}

#define P4_ROW(nm) .nm = p4_##nm,

const struct vd_proto vd_proto4 = {.version = 4,
                                   .rfc = "RFC 8881",
                                   .section =
                                       {
                                           [NF_OP_NULL_OP] = "RFC 8881 section 16.1",
                                           [NF_OP_GETATTR] = "RFC 8881 section 18.7",
                                           [NF_OP_SETATTR] = "RFC 8881 section 18.30",
                                           [NF_OP_LOOKUP] = "RFC 8881 section 18.13",
                                           [NF_OP_ACCESS] = "RFC 8881 section 18.1",
                                           [NF_OP_READLINK] = "RFC 8881 section 18.24",
                                           [NF_OP_READ] = "RFC 8881 section 18.22",
                                           [NF_OP_WRITE] = "RFC 8881 section 18.32",
                                           [NF_OP_CREATE] = "RFC 8881 section 18.16",
                                           [NF_OP_MKDIR] = "RFC 8881 section 18.4",
                                           [NF_OP_SYMLINK] = "RFC 8881 section 18.4",
                                           [NF_OP_MKNOD] = "RFC 8881 section 18.4",
                                           [NF_OP_REMOVE] = "RFC 8881 section 18.25",
                                           [NF_OP_RMDIR] = "RFC 8881 section 18.25",
                                           [NF_OP_RENAME] = "RFC 8881 section 18.26",
                                           [NF_OP_LINK] = "RFC 8881 section 18.9",
                                           [NF_OP_READDIR] = "RFC 8881 section 18.23",
                                           [NF_OP_READDIRPLUS] = "RFC 8881 section 18.23",
                                           [NF_OP_FSSTAT] = "RFC 8881 section 18.7",
                                           [NF_OP_FSINFO] = "RFC 8881 section 18.7",
                                           [NF_OP_PATHCONF] = "RFC 8881 section 18.7",
                                           [NF_OP_COMMIT] = "RFC 8881 section 18.3",
                                       },
                                   .readdir_count = V4_READDIR_COUNT,
                                   .readdir_plus = p4_readdir_plus,
                                   VD_PROTO_CALLS(P4_ROW)};
