/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_file.c - NFSv4 operations that read, write and change files and
 * directories (server layer, RFC 8881 section 18): READ, WRITE and COMMIT
 * (the stateid checked by nfs4_state.c; the write verifier the v3 one,
 * new at each start), SETATTR (a stateid for a change of size), CREATE of
 * every type but regular files (which OPEN makes), LINK, REMOVE and
 * RENAME, with the change_info of the directories.  Nothing can be made
 * or changed in the pseudo file system above the exports (ROFS).
 */
#include "server/nfs4_int.h"
#include "common/rng.h"

#include <string.h>

/* The current handle as a regular file to read or write. */
static nfsstat4 cur_file(struct sv4_call *x, struct sv_node **n)
{
    nfsstat4 st = sv4_cur(x, n);

    if (st == NFS4_OK && (*n)->type != SV_REG)
        st = (*n)->type == SV_DIR ? NFS4ERR_ISDIR : sv4_type_error(x, *n);
    return st;
}

/* The current handle as a directory to change. */
static nfsstat4 cur_dir(struct sv4_call *x, struct sv_node **dir)
{
    nfsstat4 st = sv4_cur(x, dir);

    if (st != NFS4_OK)
        return st;
    if ((*dir)->type != SV_DIR)
        return (*dir)->type == SV_LNK ? NFS4ERR_SYMLINK : NFS4ERR_NOTDIR;
    return sv4_is_pseudo(x, *dir) ? NFS4ERR_ROFS : NFS4_OK;
}

nfsstat4 sv4_op_read(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const READ4args *args = &a->nfs_argop4_u.opread;
    READ4res *res = &r->nfs_resop4_u.opread;
    struct sv_core *c = x->c;
    uint32_t count = args->count, got = 0;
    struct sv_node *n;
    int eof = 0;

    if ((res->status = cur_file(x, &n)) == NFS4_OK)
        res->status = sv4_io_stateid(x, &args->stateid, n, 0);
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__data_check(c, n, 0));
    if (res->status != NFS4_OK)
        return res->status;
    /* what the reply can still hold (the session's or the buffer's) */
    if (count > SV_IO_MAX)
        count = SV_IO_MAX;
    if (x->reply_room < 256)
        count = 0;
    else if (count > x->reply_room - 256)
        count = x->reply_room - 256;
    res->status =
        sv4_status(sv__fs_read(c->fs, n, args->offset, count, c->data, &got, &eof));
    if (res->status != NFS4_OK)
        return res->status;
    if (got > 0 && c->fault.corrupt_pct > 0 && sv__fault_hit(c, c->fault.corrupt_pct)) {
        c->data[cm_rng_below(&c->rng, got)] ^= 0x5a;
        c->reads_corrupted++;
    }
    res->READ4res_u.resok4.eof = eof;
    res->READ4res_u.resok4.data.data_len = got;
    res->READ4res_u.resok4.data.data_val = (char *)c->data;
    return NFS4_OK;
}

nfsstat4 sv4_op_write(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const WRITE4args *args = &a->nfs_argop4_u.opwrite;
    WRITE4res *res = &r->nfs_resop4_u.opwrite;
    WRITE4resok *ok = &res->WRITE4res_u.resok4;
    struct sv_node *n;

    if ((res->status = cur_file(x, &n)) == NFS4_OK)
        res->status = sv4_io_stateid(x, &args->stateid, n, 1);
    if (res->status == NFS4_OK && args->stable > FILE_SYNC4)
        res->status = NFS4ERR_INVAL;
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__data_check(x->c, n, 1));
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__fs_write(x->c->fs, n, args->offset,
                                              args->data.data_val, args->data.data_len));
    if (res->status != NFS4_OK)
        return res->status;
    ok->count = args->data.data_len;
    ok->committed = args->stable; /* memory: what was asked, no more */
    memcpy(ok->writeverf, x->c->write_verf, NFS4_VERIFIER_SIZE);
    return NFS4_OK;
}

nfsstat4 sv4_op_commit(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const COMMIT4args *args = &a->nfs_argop4_u.opcommit;
    COMMIT4res *res = &r->nfs_resop4_u.opcommit;
    struct sv_node *n;

    if ((res->status = cur_file(x, &n)) == NFS4_OK && args->count != 0 &&
        args->offset > UINT64_MAX - args->count)
        res->status = NFS4ERR_INVAL;
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__data_check(x->c, n, 1));
    if (res->status == NFS4_OK)
        memcpy(res->COMMIT4res_u.resok4.writeverf, x->c->write_verf, NFS4_VERIFIER_SIZE);
    return res->status;
}

nfsstat4 sv4_op_setattr(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const SETATTR4args *args = &a->nfs_argop4_u.opsetattr;
    SETATTR4res *res = &r->nfs_resop4_u.opsetattr;
    struct sv_sattr sa;
    struct sv_node *n;

    sv4_bitmap(&res->attrsset, x->words, 0); /* none set, unless it succeeds */
    if ((res->status = sv4_cur(x, &n)) != NFS4_OK)
        return res->status;
    res->status = sv4_attr_decode(x, &args->obj_attributes, &sa, x->words);
    if (res->status == NFS4_OK && sv4_is_pseudo(x, n))
        res->status = NFS4ERR_ROFS;
    if (res->status == NFS4_OK && sa.set_size) {
        if (n->type != SV_REG)
            res->status = n->type == SV_DIR ? NFS4ERR_ISDIR : NFS4ERR_INVAL;
        else
            res->status = sv4_io_stateid(x, &args->stateid, n, 1);
    }
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__setattr(x->c, n, &sa));
    if (res->status == NFS4_OK)
        sv4_bitmap(&res->attrsset, x->words, SV4_ATTR_WORDS);
    return res->status;
}

/* The directory's change attribute around an operation (atomic: one
 * thread changes the file system). */
static void cinfo(change_info4 *ci, uint64_t before, const struct sv_node *dir)
{
    ci->atomic = TRUE;
    ci->before = before;
    ci->after = sv4_change(dir);
}

nfsstat4 sv4_op_create(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const CREATE4args *args = &a->nfs_argop4_u.opcreate;
    CREATE4res *res = &r->nfs_resop4_u.opcreate;
    char name[SV_NAME_MAX + 1], target[SV_PATH_MAX + 1];
    const char *link = NULL;
    enum sv_type type;
    struct sv_node *dir, *n;
    struct sv_sattr sa;
    uint64_t before;

    if ((res->status = cur_dir(x, &dir)) != NFS4_OK)
        return res->status;
    switch (args->objtype.type) {
    case NF4LNK: {
        const linktext4 *t = &args->objtype.createtype4_u.linkdata;
        if (t->linktext4_len == 0 || memchr(t->linktext4_val, 0, t->linktext4_len))
            return res->status = NFS4ERR_INVAL;
        if (t->linktext4_len > SV_PATH_MAX)
            return res->status = NFS4ERR_NAMETOOLONG;
        memcpy(target, t->linktext4_val, t->linktext4_len);
        target[t->linktext4_len] = '\0';
        link = target;
        type = SV_LNK;
        break;
    }
    case NF4BLK:
    case NF4CHR:
    case NF4SOCK:
    case NF4FIFO:
    case NF4DIR:
        type = (enum sv_type)args->objtype.type; /* the same numbers */
        break;
    default:
        return res->status = NFS4ERR_BADTYPE; /* regular files: OPEN */
    }
    if ((res->status = sv4_name(&args->objname, name)) != NFS4_OK)
        return res->status;
    if ((res->status = sv4_attr_decode(x, &args->createattrs, &sa, x->words)) != NFS4_OK)
        return res->status;
    before = sv4_change(dir);
    res->status = sv4_status(sv__create(x->c, dir, name, type, &sa, link, &n));
    if (res->status != NFS4_OK)
        return res->status;
    if (type == SV_BLK || type == SV_CHR) {
        n->rdev_major = args->objtype.createtype4_u.devdata.specdata1;
        n->rdev_minor = args->objtype.createtype4_u.devdata.specdata2;
    }
    cinfo(&res->CREATE4res_u.resok4.cinfo, before, dir);
    sv4_bitmap(&res->CREATE4res_u.resok4.attrset, x->words, SV4_ATTR_WORDS);
    sv4_set_cur(x, n);
    return NFS4_OK;
}

nfsstat4 sv4_op_link(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    LINK4res *res = &r->nfs_resop4_u.oplink;
    char name[SV_NAME_MAX + 1];
    struct sv_node *src, *dir;
    uint64_t before;

    if ((res->status = sv4_saved(x, &src)) == NFS4ERR_RESTOREFH)
        res->status = NFS4ERR_NOFILEHANDLE;
    if (res->status == NFS4_OK)
        res->status = cur_dir(x, &dir);
    if (res->status == NFS4_OK && src->type == SV_DIR)
        res->status = NFS4ERR_ISDIR;
    if (res->status == NFS4_OK)
        res->status = sv4_name(&a->nfs_argop4_u.oplink.newname, name);
    if (res->status != NFS4_OK)
        return res->status;
    before = sv4_change(dir);
    if ((res->status = sv4_status(sv__link(x->c, src, dir, name))) == NFS4_OK)
        cinfo(&res->LINK4res_u.resok4.cinfo, before, dir);
    return res->status;
}

nfsstat4 sv4_op_remove(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    REMOVE4res *res = &r->nfs_resop4_u.opremove;
    char name[SV_NAME_MAX + 1];
    struct sv_node *dir, *n;
    uint64_t before;

    if ((res->status = cur_dir(x, &dir)) == NFS4_OK)
        res->status = sv4_name(&a->nfs_argop4_u.opremove.target, name);
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__lookup(x->c, dir, name, &n));
    if (res->status != NFS4_OK)
        return res->status;
    before = sv4_change(dir);
    res->status = sv4_status(sv__remove(x->c, dir, name, n->type == SV_DIR));
    if (res->status == NFS4_OK)
        cinfo(&res->REMOVE4res_u.resok4.cinfo, before, dir);
    return res->status;
}

nfsstat4 sv4_op_rename(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const RENAME4args *args = &a->nfs_argop4_u.oprename;
    RENAME4res *res = &r->nfs_resop4_u.oprename;
    char from[SV_NAME_MAX + 1], to[SV_NAME_MAX + 1];
    struct sv_node *sdir, *tdir;
    uint64_t sbefore, tbefore;

    if ((res->status = sv4_saved(x, &sdir)) == NFS4ERR_RESTOREFH)
        res->status = NFS4ERR_NOFILEHANDLE;
    if (res->status == NFS4_OK && sdir->type != SV_DIR)
        res->status = NFS4ERR_NOTDIR;
    if (res->status == NFS4_OK && sv4_is_pseudo(x, sdir))
        res->status = NFS4ERR_ROFS;
    if (res->status == NFS4_OK)
        res->status = cur_dir(x, &tdir);
    if (res->status == NFS4_OK)
        res->status = sv4_name(&args->oldname, from);
    if (res->status == NFS4_OK)
        res->status = sv4_name(&args->newname, to);
    if (res->status != NFS4_OK)
        return res->status;
    sbefore = sv4_change(sdir);
    tbefore = sv4_change(tdir);
    res->status = sv4_status(sv__rename(x->c, sdir, from, tdir, to));
    if (res->status == NFS4_OK) {
        cinfo(&res->RENAME4res_u.resok4.source_cinfo, sbefore, sdir);
        cinfo(&res->RENAME4res_u.resok4.target_cinfo, tbefore, tdir);
    }
    return res->status;
}
