/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto2.c - NFSv2 behind the protocol seam (nf_proto.h; what v3 shares in
 * proto23.c): each SFS op's arguments from version-neutral ones (v2's
 * sattr carries the object's type in its mode and has no "server's time":
 * the client's times whenever asked, a new file's size 0), and what a
 * reply says.  SYMLINK names no handle: an earlier one is forgotten and
 * the caller looks the link up (docs/SFS30.md §2.4).
 */
#include <string.h>

#include "nfs/proto23.h"

#define V2_IFREG 0100000u
#define V2_IFDIR 0040000u
#define V2_IFLNK 0120000u

static void dirop(const struct nf_fh *dir, const char *name, diropargs *d)
{
    (void)nf_fh_to_v2(dir, &d->dir);
    d->name = (char *)name;
}

static void sattr2(sattr *a, uint32_t mode, int times)
{
    struct nf_sattr s;

    nf_sattr_mode(&s, mode);
    if (times)
        nf_sattr_times_now(&s);
    nf_sattr_to_v2(&s, a);
}

static void build(void *args, const struct nf_op_args *in)
{
    union nf2_args *a = args;

    switch (in->op) {
    case NF_OP_GETATTR:
    case NF_OP_READLINK:
    case NF_OP_FSSTAT:
        (void)nf_fh_to_v2(in->fh, &a->getattr);
        break;
    case NF_OP_SETATTR:
        (void)nf_fh_to_v2(in->fh, &a->setattr.file);
        sattr2(&a->setattr.attributes, in->mode, in->times);
        if (in->set_size)
            a->setattr.attributes.size = (u_int)in->size;
        break;
    case NF_OP_LOOKUP:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        dirop(in->fh, in->name, &a->lookup);
        break;
    case NF_OP_READ:
        (void)nf_fh_to_v2(in->fh, &a->read.file);
        a->read.offset = (u_int)in->offset;
        a->read.count = in->count;
        a->read.totalcount = in->count;
        break;
    case NF_OP_WRITE:
        (void)nf_fh_to_v2(in->fh, &a->write.file);
        a->write.beginoffset = a->write.offset = (u_int)in->offset;
        a->write.totalcount = in->count;
        a->write.data.data_len = in->count;
        a->write.data.data_val = (char *)in->data;
        break;
    case NF_OP_CREATE:
        dirop(in->fh, in->name, &a->create.where);
        sattr2(&a->create.attributes, V2_IFREG | in->mode, in->times);
        a->create.attributes.size = 0;
        break;
    case NF_OP_MKDIR:
        dirop(in->fh, in->name, &a->mkdir.where);
        sattr2(&a->mkdir.attributes, V2_IFDIR | in->mode, in->times);
        break;
    case NF_OP_SYMLINK:
        dirop(in->fh, in->name, &a->symlink.from);
        a->symlink.to = (char *)in->text;
        sattr2(&a->symlink.attributes, V2_IFLNK | in->mode, in->times);
        break;
    case NF_OP_RENAME:
        dirop(in->fh, in->name, &a->rename.from);
        dirop(in->fh2, in->name2, &a->rename.to);
        break;
    case NF_OP_LINK:
        (void)nf_fh_to_v2(in->fh, &a->link.from);
        dirop(in->fh2, in->name2, &a->link.to);
        break;
    case NF_OP_READDIR:
        memset(&a->readdir, 0, sizeof(a->readdir));
        (void)nf_fh_to_v2(in->fh, &a->readdir.dir);
        a->readdir.count = in->dir_bytes;
        break;
    default: /* null, root, wrcache */
        break;
    }
}

static void attr2(struct nf_op_res *r, const fattr *a)
{
    r->attr_type = (int)a->type;
    r->attr_size = a->size;
}

static void read_out(const struct nf_res *res, int op, struct nf_op_res *r)
{
    const union nf2_res *x = &res->r2;

    if (r->status != NFS_OK)
        return;
    r->has_fh = nf_res_handle(res, 2, op, &r->fh);
    switch (op) {
    case NF_OP_GETATTR:
    case NF_OP_SETATTR:
    case NF_OP_WRITE:
        attr2(r, &x->getattr.attrstat_u.attributes);
        break;
    case NF_OP_LOOKUP:
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
        attr2(r, &x->lookup.diropres_u.diropres.attributes);
        break;
    case NF_OP_SYMLINK:
        r->fh_forgotten = 1;
        break;
    default:
        break;
    }
}

static int has_op(int op)
{
    return nf_op_in_version(op, 2);
}

static const struct nf23_version v2 = {2, NF_NFS2, build, read_out};

static int call_start(struct nf_session *s, struct nf_call *c, const struct nf_op_args *a)
{
    return nf23_start(&v2, s, c, a);
}

const struct nf_proto nf_proto_v2 = {
    .name = "NFSv2",
    .prog = "sfs",
    .version = 2,
    .sfs_ops = 2,
    .has_op = has_op,
    .call_start = call_start,
    NF23_SESSION_AND_SERVICE,
};
