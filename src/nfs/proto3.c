/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto3.c - NFSv3 behind the protocol seam (nf_proto.h; what v2 shares in
 * proto23.c): each SFS op's arguments from version-neutral ones (the
 * client's times on create, mkdir and setattr, none on a symlink or
 * special file, as SFS; writes UNSTABLE so that COMMIT has something to
 * do, population's too: nothing measures it; readdir and readdirplus from
 * cookie 0), and what a reply says: its status, the object's attributes
 * and handle, whether written data awaits a COMMIT, and JUKEBOX as busy.
 */
#include <string.h>

#include "nfs/proto23.h"

static void dirop(const struct nf_fh *dir, const char *name, diropargs3 *d)
{
    nf_fh_to_v3(dir, &d->dir);
    d->name = (char *)name;
}

static void sattr_set(sattr3 *s, uint32_t mode, int times)
{
    struct nf_sattr sa;

    nf_sattr_mode(&sa, mode);
    if (times)
        nf_sattr_times_now(&sa);
    nf_sattr_to_v3(&sa, s);
}

static void build(void *args, const struct nf_op_args *in)
{
    union nf3_args *a = args;

    switch (in->op) {
    case NF_OP_GETATTR:
        nf_fh_to_v3(in->fh, &a->getattr.object);
        break;
    case NF_OP_SETATTR:
        memset(&a->setattr, 0, sizeof(a->setattr));
        nf_fh_to_v3(in->fh, &a->setattr.object);
        sattr_set(&a->setattr.new_attributes, in->mode, in->times);
        if (in->set_size) {
            a->setattr.new_attributes.size.set_it = TRUE;
            a->setattr.new_attributes.size.set_size3_u.size = in->size;
        }
        break;
    case NF_OP_LOOKUP:
        dirop(in->fh, in->name, &a->lookup.what);
        break;
    case NF_OP_ACCESS:
        nf_fh_to_v3(in->fh, &a->access.object);
        a->access.access = ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY |
                           ACCESS3_EXTEND | ACCESS3_DELETE | ACCESS3_EXECUTE;
        break;
    case NF_OP_READLINK:
        nf_fh_to_v3(in->fh, &a->readlink.symlink);
        break;
    case NF_OP_READ:
        nf_fh_to_v3(in->fh, &a->read.file);
        a->read.offset = in->offset;
        a->read.count = in->count;
        break;
    case NF_OP_WRITE:
        nf_fh_to_v3(in->fh, &a->write.file);
        a->write.offset = in->offset;
        a->write.count = in->count;
        a->write.stable = UNSTABLE;
        a->write.data.data_len = in->count;
        a->write.data.data_val = (char *)in->data;
        break;
    case NF_OP_CREATE:
        memset(&a->create, 0, sizeof(a->create));
        dirop(in->fh, in->name, &a->create.where);
        a->create.how.mode = UNCHECKED;
        sattr_set(&a->create.how.createhow3_u.obj_attributes, in->mode, in->times);
        break;
    case NF_OP_MKDIR:
        memset(&a->mkdir, 0, sizeof(a->mkdir));
        dirop(in->fh, in->name, &a->mkdir.where);
        sattr_set(&a->mkdir.attributes, in->mode, in->times);
        break;
    case NF_OP_SYMLINK:
        memset(&a->symlink, 0, sizeof(a->symlink));
        dirop(in->fh, in->name, &a->symlink.where);
        sattr_set(&a->symlink.symlink.symlink_attributes, in->mode, 0);
        a->symlink.symlink.symlink_data = (char *)in->text;
        break;
    case NF_OP_MKNOD:
        memset(&a->mknod, 0, sizeof(a->mknod));
        dirop(in->fh, in->name, &a->mknod.where);
        a->mknod.what.type = NF3FIFO;
        sattr_set(&a->mknod.what.mknoddata3_u.pipe_attributes, in->mode, 0);
        break;
    case NF_OP_REMOVE:
        dirop(in->fh, in->name, &a->remove.object);
        break;
    case NF_OP_RMDIR:
        dirop(in->fh, in->name, &a->rmdir.object);
        break;
    case NF_OP_RENAME:
        dirop(in->fh, in->name, &a->rename.from);
        dirop(in->fh2, in->name2, &a->rename.to);
        break;
    case NF_OP_LINK:
        nf_fh_to_v3(in->fh, &a->link.file);
        dirop(in->fh2, in->name2, &a->link.link);
        break;
    case NF_OP_READDIR:
        memset(&a->readdir, 0, sizeof(a->readdir));
        nf_fh_to_v3(in->fh, &a->readdir.dir);
        a->readdir.count = in->dir_bytes;
        break;
    case NF_OP_READDIRPLUS:
        memset(&a->readdirplus, 0, sizeof(a->readdirplus));
        nf_fh_to_v3(in->fh, &a->readdirplus.dir);
        a->readdirplus.dircount = in->dir_bytes;
        a->readdirplus.maxcount = in->dir_bytes;
        break;
    case NF_OP_FSSTAT:
        nf_fh_to_v3(in->fh, &a->fsstat.fsroot);
        break;
    case NF_OP_FSINFO:
        nf_fh_to_v3(in->fh, &a->fsinfo.fsroot);
        break;
    case NF_OP_PATHCONF:
        nf_fh_to_v3(in->fh, &a->pathconf.object);
        break;
    case NF_OP_COMMIT:
        nf_fh_to_v3(in->fh, &a->commit.file);
        a->commit.offset = 0;
        a->commit.count = 0;
        break;
    default: /* null */
        break;
    }
}

static void post_attr(struct nf_op_res *r, const post_op_attr *a)
{
    if (a->attributes_follow) {
        r->attr_type = (int)a->post_op_attr_u.attributes.type;
        r->attr_size = a->post_op_attr_u.attributes.size;
    }
}

static void read_out(const struct nf_res *res, int op, struct nf_op_res *r)
{
    const union nf3_res *x = &res->r3;

    r->busy = r->status == NFS3ERR_JUKEBOX;
    if (r->status != NFS3_OK)
        return;
    r->has_fh = nf_res_handle(res, 3, op, &r->fh);
    switch (op) {
    case NF_OP_GETATTR:
        r->attr_type = (int)x->getattr.GETATTR3res_u.resok.obj_attributes.type;
        r->attr_size = x->getattr.GETATTR3res_u.resok.obj_attributes.size;
        break;
    case NF_OP_SETATTR:
        post_attr(r, &x->setattr.SETATTR3res_u.resok.obj_wcc.after);
        break;
    case NF_OP_LOOKUP:
        post_attr(r, &x->lookup.LOOKUP3res_u.resok.obj_attributes);
        break;
    case NF_OP_WRITE:
        post_attr(r, &x->write.WRITE3res_u.resok.file_wcc.after);
        r->unstable = x->write.WRITE3res_u.resok.committed != FILE_SYNC;
        break;
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
    case NF_OP_SYMLINK:
    case NF_OP_MKNOD:
        /* the four resok types share their layout: obj, attributes, wcc */
        post_attr(r, &x->create.CREATE3res_u.resok.obj_attributes);
        break;
    default:
        break;
    }
}

static int has_op(int op)
{
    return nf_op_in_version(op, 3);
}

static const struct nf23_version v3 = {3, NF_NFS3, build, read_out};

static int call_start(struct nf_session *s, struct nf_call *c, const struct nf_op_args *a)
{
    return nf23_start(&v3, s, c, a);
}

const struct nf_proto nf_proto_v3 = {
    .name = "NFSv3",
    .prog = "sfs3",
    .version = 3,
    .sfs_ops = 3,
    .has_op = has_op,
    .call_start = call_start,
    NF23_SESSION_AND_SERVICE,
};
