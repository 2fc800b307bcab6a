/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c - the v2 and v3 arguments of one call (sy_int.h: sy_args_build).
 * Arguments point into the slot (names, symlink text) and the file table
 * (handles), never into fresh memory.  Modes and times follow SFS: files
 * 0666, directories and symlinks 0777, client times on create and setattr.
 */
#include <string.h>

#include "synth/sy_int.h"

#define WBUF_BYTES 8192u /* the largest call: -B is at most 8 KB */
#define DIR_COUNT  8192u /* readdir/readdirplus byte counts (docs/SFS30.md §3) */
#define MODE_FILE  0666u
#define MODE_DIR   0777u
#define MODE_LINK  0777u
#define V2_IFREG   0100000u
#define V2_IFDIR   0040000u
#define V2_IFLNK   0120000u

static char wbuf[WBUF_BYTES];
static int wbuf_ready;

const char *sy_op_write_data(void)
{
    if (!wbuf_ready) {
        static const unsigned char word[4] = {0xde, 0xad, 0xbe, 0xef};
        unsigned k;
        for (k = 0; k < WBUF_BYTES; k++)
            wbuf[k] = (char)word[k % 4];
        wbuf_ready = 1;
    }
    return wbuf;
}

/* ---- handles, names, attributes ------------------------------------------- */

static const struct nf_fh *fh_of(const struct sy_child *c, uint32_t i)
{
    if (i == SY_NO_FILE || i == SY_NO_PARENT || !c->files.f[i].has_fh)
        return &c->testdir;
    return &c->files.f[i].fh;
}

static const struct nf_fh *dir_of(const struct sy_child *c, uint32_t i)
{
    return fh_of(c, c->files.f[i].parent);
}

static void dirop3(struct sy_child *c, struct sy_slot *s, int k, uint32_t i,
                   diropargs3 *d)
{
    sy_files_name(&c->files, i, s->name[k], sizeof(s->name[k]));
    nf_fh_to_v3(dir_of(c, i), &d->dir);
    d->name = s->name[k];
}

static void dirop2(struct sy_child *c, struct sy_slot *s, int k, uint32_t i, diropargs *d)
{
    sy_files_name(&c->files, i, s->name[k], sizeof(s->name[k]));
    nf_fh_to_v2(dir_of(c, i), &d->dir);
    d->name = s->name[k];
}

/* The mode of a new or changed object, with the times now (v2 always:
 * its sattr has no "server's time"). */
static void sattr3_init(sattr3 *a, uint32_t mode, int times)
{
    struct nf_sattr s;

    nf_sattr_mode(&s, mode);
    if (times)
        nf_sattr_times_now(&s);
    nf_sattr_to_v3(&s, a);
}

static void sattr2_init(sattr *a, uint32_t mode)
{
    struct nf_sattr s;

    nf_sattr_mode(&s, mode);
    nf_sattr_times_now(&s);
    nf_sattr_to_v2(&s, a);
}

/* ---- per call --------------------------------------------------------------- */

/* Call i of a read or write request: its offset and length (block-sized
 * calls, the last one shorter) into the slot; returns the length. */
static uint32_t rw_chunk(const struct sy_req *r, struct sy_slot *s, uint32_t i)
{
    uint32_t done = i * r->block;
    uint32_t len = r->len - done < r->block ? r->len - done : r->block;

    s->offset = r->offset + done;
    s->len = len;
    return len;
}

static void prep_rw3(struct sy_child *c, struct sy_slot *s, uint32_t i)
{
    const struct sy_req *r = &c->req;
    uint32_t len = rw_chunk(r, s, i);

    if (r->op == NF_OP_READ) {
        nf_fh_to_v3(fh_of(c, r->file), &s->args.a3_read.file);
        s->args.a3_read.offset = s->offset;
        s->args.a3_read.count = len;
    } else {
        WRITE3args *w = &s->args.a3_write;
        nf_fh_to_v3(fh_of(c, r->file), &w->file);
        w->offset = s->offset;
        w->count = len;
        w->stable = UNSTABLE; /* population too: nothing measures it */
        w->data.data_len = len;
        w->data.data_val = (char *)sy_op_write_data();
    }
}

static void prep_rw2(struct sy_child *c, struct sy_slot *s, uint32_t i)
{
    const struct sy_req *r = &c->req;
    uint32_t len = rw_chunk(r, s, i);

    if (r->op == NF_OP_READ) {
        nf_fh_to_v2(fh_of(c, r->file), &s->args.a2_read.file);
        s->args.a2_read.offset = (u_int)s->offset;
        s->args.a2_read.count = len;
        s->args.a2_read.totalcount = len;
    } else {
        writeargs *w = &s->args.a2_write;
        nf_fh_to_v2(fh_of(c, r->file), &w->file);
        w->beginoffset = w->offset = (u_int)s->offset;
        w->totalcount = len;
        w->data.data_len = len;
        w->data.data_val = (char *)sy_op_write_data();
    }
}

/* Builds the symlink text "./<name of an existing non-io or io file>". */
static void symlink_text(struct sy_child *c, struct sy_slot *s)
{
    uint32_t target =
        sy_files_pick(&c->files, SY_CAT_NONIO, SY_EXISTS, SY_NO_FILE, &c->rng);
    char name[SY_NAME_MAX];

    if (target == SY_NO_FILE)
        target = c->files.ws[0];
    sy_files_name(&c->files, target, name, sizeof(name));
    snprintf(s->text, sizeof(s->text), "./%s", name);
}

static void prep3(struct sy_child *c, struct sy_slot *s)
{
    const struct sy_req *r = &c->req;
    union sy_args *a = &s->args;

    switch (r->op) {
    case NF_OP_GETATTR:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_getattr.object);
        break;
    case NF_OP_SETATTR:
        memset(&a->a3_setattr, 0, sizeof(a->a3_setattr));
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_setattr.object);
        sattr3_init(&a->a3_setattr.new_attributes, MODE_FILE, 1);
        if (r->truncate) {
            a->a3_setattr.new_attributes.size.set_it = TRUE;
            a->a3_setattr.new_attributes.size.set_size3_u.size = r->new_size;
        }
        break;
    case NF_OP_LOOKUP:
        dirop3(c, s, 0, r->file, &a->a3_lookup.what);
        break;
    case NF_OP_ACCESS:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_access.object);
        a->a3_access.access = ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY |
                              ACCESS3_EXTEND | ACCESS3_DELETE | ACCESS3_EXECUTE;
        break;
    case NF_OP_READLINK:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_readlink.symlink);
        break;
    case NF_OP_CREATE:
        memset(&a->a3_create, 0, sizeof(a->a3_create));
        dirop3(c, s, 0, r->file, &a->a3_create.where);
        a->a3_create.how.mode = UNCHECKED;
        sattr3_init(&a->a3_create.how.createhow3_u.obj_attributes, MODE_FILE, 1);
        break;
    case NF_OP_MKDIR:
        memset(&a->a3_mkdir, 0, sizeof(a->a3_mkdir));
        dirop3(c, s, 0, r->file, &a->a3_mkdir.where);
        sattr3_init(&a->a3_mkdir.attributes, MODE_DIR, 1);
        break;
    case NF_OP_SYMLINK:
        memset(&a->a3_symlink, 0, sizeof(a->a3_symlink));
        dirop3(c, s, 0, r->file, &a->a3_symlink.where);
        sattr3_init(&a->a3_symlink.symlink.symlink_attributes, MODE_LINK, 0);
        symlink_text(c, s);
        a->a3_symlink.symlink.symlink_data = s->text;
        break;
    case NF_OP_MKNOD:
        memset(&a->a3_mknod, 0, sizeof(a->a3_mknod));
        dirop3(c, s, 0, r->file, &a->a3_mknod.where);
        a->a3_mknod.what.type = NF3FIFO;
        sattr3_init(&a->a3_mknod.what.mknoddata3_u.pipe_attributes, MODE_FILE, 0);
        break;
    case NF_OP_REMOVE:
        dirop3(c, s, 0, r->file, &a->a3_remove.object);
        break;
    case NF_OP_RMDIR:
        dirop3(c, s, 0, r->file, &a->a3_rmdir.object);
        break;
    case NF_OP_RENAME:
        dirop3(c, s, 0, r->file, &a->a3_rename.from);
        dirop3(c, s, 1, r->file2, &a->a3_rename.to);
        break;
    case NF_OP_LINK:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_link.file);
        dirop3(c, s, 1, r->file2, &a->a3_link.link);
        break;
    case NF_OP_READDIR:
        memset(&a->a3_readdir, 0, sizeof(a->a3_readdir));
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_readdir.dir);
        a->a3_readdir.count = DIR_COUNT;
        break;
    case NF_OP_READDIRPLUS:
        memset(&a->a3_readdirplus, 0, sizeof(a->a3_readdirplus));
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_readdirplus.dir);
        a->a3_readdirplus.dircount = DIR_COUNT;
        a->a3_readdirplus.maxcount = DIR_COUNT;
        break;
    case NF_OP_FSSTAT:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_fsstat.fsroot);
        break;
    case NF_OP_FSINFO:
        nf_fh_to_v3(fh_of(c, SY_NO_FILE), &a->a3_fsinfo.fsroot);
        break;
    case NF_OP_PATHCONF:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_pathconf.object);
        break;
    case NF_OP_COMMIT:
        nf_fh_to_v3(fh_of(c, r->file), &a->a3_commit.file);
        a->a3_commit.offset = 0;
        a->a3_commit.count = 0;
        break;
    default: /* null */
        break;
    }
}

static void prep2(struct sy_child *c, struct sy_slot *s)
{
    const struct sy_req *r = &c->req;
    union sy_args *a = &s->args;

    switch (r->op) {
    case NF_OP_GETATTR:
    case NF_OP_READLINK:
    case NF_OP_FSSTAT:
        nf_fh_to_v2(fh_of(c, r->file), &a->a2_fh);
        break;
    case NF_OP_SETATTR:
        nf_fh_to_v2(fh_of(c, r->file), &a->a2_setattr.file);
        sattr2_init(&a->a2_setattr.attributes, MODE_FILE);
        if (r->truncate)
            a->a2_setattr.attributes.size = (u_int)r->new_size;
        break;
    case NF_OP_LOOKUP:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        dirop2(c, s, 0, r->file, &a->a2_dirop);
        break;
    case NF_OP_CREATE:
        dirop2(c, s, 0, r->file, &a->a2_create.where);
        sattr2_init(&a->a2_create.attributes, V2_IFREG | MODE_FILE);
        a->a2_create.attributes.size = 0;
        break;
    case NF_OP_MKDIR:
        dirop2(c, s, 0, r->file, &a->a2_create.where);
        sattr2_init(&a->a2_create.attributes, V2_IFDIR | MODE_DIR);
        break;
    case NF_OP_SYMLINK:
        dirop2(c, s, 0, r->file, &a->a2_symlink.from);
        symlink_text(c, s);
        a->a2_symlink.to = s->text;
        sattr2_init(&a->a2_symlink.attributes, V2_IFLNK | MODE_LINK);
        break;
    case NF_OP_RENAME:
        dirop2(c, s, 0, r->file, &a->a2_rename.from);
        dirop2(c, s, 1, r->file2, &a->a2_rename.to);
        break;
    case NF_OP_LINK:
        nf_fh_to_v2(fh_of(c, r->file), &a->a2_link.from);
        dirop2(c, s, 1, r->file2, &a->a2_link.to);
        break;
    case NF_OP_READDIR:
        memset(&a->a2_readdir, 0, sizeof(a->a2_readdir));
        nf_fh_to_v2(fh_of(c, r->file), &a->a2_readdir.dir);
        a->a2_readdir.count = DIR_COUNT;
        break;
    default: /* null, root, wrcache */
        break;
    }
}

/* ---- entry point ---------------------------------------------------------- */

void sy_args_build(struct sy_child *c, struct sy_slot *s, uint32_t i)
{
    int op = c->req.op;

    if (op == NF_OP_READ || op == NF_OP_WRITE) {
        if (c->cx.nfs_version == 3)
            prep_rw3(c, s, i);
        else
            prep_rw2(c, s, i);
    } else if (c->cx.nfs_version == 3) {
        prep3(c, s);
    } else {
        prep2(c, s);
    }
}
