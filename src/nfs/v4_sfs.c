/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_sfs.c - the SFS 3.0 operations as the NFSv4.1 compounds a Linux
 * client sends for the same work (nf4_client.h, docs/nfsv4.md "The SFS mix over
 * NFSv4"): one row per SFS op - its compound's shape and the function
 * that builds it from version-neutral arguments - and the OPEN and CLOSE
 * a client wraps around a file's reads and writes.  The shapes follow a
 * Linux 4.1 client's (a GETATTR after the calls that change an object, so
 * that its cached attributes stay right; the masks of `stat`, `ls`,
 * `ls -l`, statfs and pathconf).  Nothing here sends: the caller starts
 * the compound on its nf4 client.
 */
#include <string.h>

#include "nfs/nf4_client.h"

#define STAT NF4_MASK_GETATTR

/* ---- one builder per shape -------------------------------------------------- */

typedef int (*build_fn)(struct nf4_compound *c, const struct nf4_sfs_args *a);

/* A compound holds them all (at most seven operations): a NULL is a
 * missing argument. */
#define NEED(x)                                                                          \
    do {                                                                                 \
        if (!(x))                                                                        \
            return -EINVAL;                                                              \
    } while (0)

static int b_getattr(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    nf4_op_getattr(c, STAT);
    return 0;
}

static int b_setattr(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    static const stateid4 anonymous;

    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    NEED(nf4_op_setattr(c, a->sid ? a->sid : &anonymous, &a->sa));
    nf4_op_getattr(c, STAT);
    return 0;
}

static int b_lookup(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->name);
    nf4_op_putfh(c, a->fh);
    nf4_op_lookup(c, a->name);
    nf4_op_getfh(c);
    nf4_op_getattr(c, STAT);
    return 0;
}

static int b_readlink(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    nf4_op_readlink(c);
    return 0;
}

static int b_read(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->sid);
    nf4_op_putfh(c, a->fh);
    nf4_op_read(c, a->sid, a->offset, a->count);
    return 0;
}

static int b_write(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->sid && a->data);
    nf4_op_putfh(c, a->fh);
    nf4_op_write(c, a->sid, a->offset, a->stable ? FILE_SYNC4 : UNSTABLE4, a->data,
                 a->count);
    nf4_op_getattr(c, STAT);
    return 0;
}

/* create: open(O_CREAT) - the file opened, its handle and attributes;
 * the CLOSE is nf4_sfs_close's */
static int b_create(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->name);
    nf4_op_putfh(c, a->fh);
    NEED(nf4_op_open(c, a->name, 1, &a->sa));
    nf4_op_getfh(c);
    nf4_op_getattr(c, STAT);
    return 0;
}

static int b_remove(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->name);
    nf4_op_putfh(c, a->fh);
    nf4_op_remove(c, a->name);
    return 0;
}

/* rename: from the saved directory (fh) to the current one (fh2) */
static int b_rename(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->fh2 && a->name && a->name2);
    nf4_op_putfh(c, a->fh);
    nf4_op_savefh(c);
    nf4_op_putfh(c, a->fh2);
    nf4_op_rename(c, a->name, a->name2);
    return 0;
}

/* link: the file (fh) saved, linked into the directory (fh2) as name,
 * then the file's attributes (its link count changed) */
static int b_link(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->fh2 && a->name);
    nf4_op_putfh(c, a->fh);
    nf4_op_savefh(c);
    nf4_op_putfh(c, a->fh2);
    nf4_op_link(c, a->name);
    nf4_op_restorefh(c);
    nf4_op_getattr(c, STAT);
    return 0;
}

/* symlink, mkdir, mknod: CREATE of the type in the directory fh */
static int b_create_obj(struct nf4_compound *c, const struct nf4_sfs_args *a,
                        nfs_ftype4 t)
{
    NEED(a->fh && a->name && (t != NF4LNK || a->target));
    nf4_op_putfh(c, a->fh);
    NEED(nf4_op_create(c, t, a->name, a->target, &a->sa));
    nf4_op_getfh(c);
    nf4_op_getattr(c, STAT);
    return 0;
}

static int b_symlink(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_create_obj(c, a, NF4LNK);
}

static int b_mkdir(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_create_obj(c, a, NF4DIR);
}

/* mknod: a FIFO unless the arguments say which special file */
static int b_mknod(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_create_obj(c, a, a->type ? a->type : NF4FIFO);
}

static int b_readdir_mask(struct nf4_compound *c, const struct nf4_sfs_args *a,
                          enum nf4_mask m)
{
    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    nf4_op_readdir(c, a->cookie, a->verf, a->dircount ? a->dircount : a->count, a->count,
                   m);
    return 0;
}

/* readdir: `ls` (types and file ids); readdirplus: `ls -l` (stat and the
 * handle of every entry) */
static int b_readdir(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_readdir_mask(c, a, NF4_MASK_READDIR);
}

static int b_readdirplus(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_readdir_mask(c, a, NF4_MASK_READDIR_PLUS);
}

static int b_fs_mask(struct nf4_compound *c, const struct nf4_sfs_args *a,
                     enum nf4_mask m)
{
    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    nf4_op_getattr(c, m);
    return 0;
}

static int b_fsstat(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_fs_mask(c, a, NF4_MASK_FSSTAT);
}

static int b_fsinfo(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_fs_mask(c, a, NF4_MASK_FSINFO);
}

static int b_pathconf(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    return b_fs_mask(c, a, NF4_MASK_PATHCONF);
}

/* access: the bits asked (all of them when none is) */
static int b_access(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    nf4_op_access(c, a->access ? a->access
                               : ACCESS4_READ | ACCESS4_LOOKUP | ACCESS4_MODIFY |
                                     ACCESS4_EXTEND | ACCESS4_DELETE | ACCESS4_EXECUTE);
    nf4_op_getattr(c, STAT);
    return 0;
}

static int b_commit(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh);
    nf4_op_putfh(c, a->fh);
    nf4_op_commit(c, a->offset, a->count);
    return 0;
}

/* ---- the table ------------------------------------------------------------------ */

struct sfs_row {
    const char *shape; /* after SEQUENCE */
    build_fn build;
};

/* SFS ops without a compound (null, root, wrcache) have none: NULL is
 * the RPC NULL procedure, the others are NFSv2's. */
static const struct sfs_row rows[NF_NOPS] = {
    [NF_OP_GETATTR] = {"PUTFH GETATTR", b_getattr},
    [NF_OP_SETATTR] = {"PUTFH SETATTR GETATTR", b_setattr},
    [NF_OP_LOOKUP] = {"PUTFH LOOKUP GETFH GETATTR", b_lookup},
    [NF_OP_READLINK] = {"PUTFH READLINK", b_readlink},
    [NF_OP_READ] = {"PUTFH READ", b_read},
    [NF_OP_WRITE] = {"PUTFH WRITE GETATTR", b_write},
    [NF_OP_CREATE] = {"PUTFH OPEN GETFH GETATTR", b_create},
    [NF_OP_REMOVE] = {"PUTFH REMOVE", b_remove},
    [NF_OP_RENAME] = {"PUTFH SAVEFH PUTFH RENAME", b_rename},
    [NF_OP_LINK] = {"PUTFH SAVEFH PUTFH LINK RESTOREFH GETATTR", b_link},
    [NF_OP_SYMLINK] = {"PUTFH CREATE GETFH GETATTR", b_symlink},
    [NF_OP_MKDIR] = {"PUTFH CREATE GETFH GETATTR", b_mkdir},
    [NF_OP_RMDIR] = {"PUTFH REMOVE", b_remove},
    [NF_OP_READDIR] = {"PUTFH READDIR", b_readdir},
    [NF_OP_FSSTAT] = {"PUTFH GETATTR", b_fsstat},
    [NF_OP_ACCESS] = {"PUTFH ACCESS GETATTR", b_access},
    [NF_OP_COMMIT] = {"PUTFH COMMIT", b_commit},
    [NF_OP_FSINFO] = {"PUTFH GETATTR", b_fsinfo},
    [NF_OP_MKNOD] = {"PUTFH CREATE GETFH GETATTR", b_mknod},
    [NF_OP_PATHCONF] = {"PUTFH GETATTR", b_pathconf},
    [NF_OP_READDIRPLUS] = {"PUTFH READDIR", b_readdirplus},
};

const char *nf4_sfs_shape(int op)
{
    return op >= 0 && op < NF_NOPS ? rows[op].shape : NULL;
}

int nf4_sfs_compound(struct nf4_compound *c, uint32_t minor, int op,
                     const struct nf4_sfs_args *a)
{
    if (op < 0 || op >= NF_NOPS || !rows[op].build)
        return -EOPNOTSUPP;
    if (op == NF_OP_CREATE && minor == 0)
        return -EOPNOTSUPP; /* 4.0 opens: an owner sequence FreeSFS does not keep */
    nf4_compound_init(c, minor, 0);
    return rows[op].build(c, a);
}

int nf4_sfs_open(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh);
    nf4_compound_init(c, 1, 0);
    nf4_op_putfh(c, a->fh);
    nf4_op_open(c, NULL, 0, NULL); /* CLAIM_FH: the file is the current handle */
    nf4_op_access(c, ACCESS4_READ | ACCESS4_MODIFY | ACCESS4_EXTEND);
    nf4_op_getattr(c, STAT);
    return 0;
}

int nf4_sfs_reclaim(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    open_claim4 *claim;
    int rc = nf4_sfs_open(c, a);

    if (rc < 0)
        return rc;
    claim = &c->op[2].nfs_argop4_u.opopen.claim; /* SEQUENCE PUTFH OPEN */
    claim->claim = CLAIM_PREVIOUS;
    claim->open_claim4_u.delegate_type = OPEN_DELEGATE_NONE;
    return 0;
}

int nf4_sfs_close(struct nf4_compound *c, const struct nf4_sfs_args *a)
{
    NEED(a->fh && a->sid);
    nf4_compound_init(c, 1, 0);
    nf4_op_putfh(c, a->fh);
    nf4_op_close(c, a->sid);
    nf4_op_getattr(c, STAT);
    return 0;
}
