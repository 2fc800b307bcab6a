/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * access.c - permission checks of sfs_nfsd (server layer): the file
 * system operations as a caller may do them, by the mode bits against the
 * call's AUTH_SYS credential (uid, gid and the supplementary groups), as a
 * POSIX system and the Linux server do.  uid 0 passes every check but
 * execution of a file with no x bit, unless --root-squash made it nobody;
 * AUTH_NONE callers are nobody.  As on Linux, the owner of a file may READ,
 * WRITE and COMMIT it whatever its mode (a client checks at open time, and
 * a file created read-only must still take its first data), and READ is
 * allowed on an executable file.  The v2 and v3 handlers call these, never
 * the unchecked sv__fs_* operations, for everything a caller names.
 */
#include "server/sv_int.h"
#include "nfs3_prot.h"

#include <string.h>

#define MAY_R 4u
#define MAY_W 2u
#define MAY_X 1u

static int in_group(const struct sv_core *c, uint32_t gid)
{
    if (c->cred_gid == gid)
        return 1;
    for (int i = 0; i < c->cred_ngids; i++)
        if (c->cred_gids[i] == gid)
            return 1;
    return 0;
}

/* The rwx bits the caller has on n. */
static unsigned granted(const struct sv_core *c, const struct sv_node *n)
{
    if (c->cred_uid == 0) /* x only where someone may execute, or a dir */
        return MAY_R | MAY_W | (n->type == SV_DIR || (n->mode & 0111) ? MAY_X : 0);
    if (c->cred_uid == n->uid)
        return (n->mode >> 6) & 7;
    if (in_group(c, n->gid))
        return (n->mode >> 3) & 7;
    return n->mode & 7;
}

static int may(const struct sv_core *c, const struct sv_node *n, unsigned want)
{
    return (granted(c, n) & want) == want;
}

/* Directory modification: NOTDIR, or ACCES without w and x on it. */
static int may_change(const struct sv_core *c, const struct sv_node *dir)
{
    if (dir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    return may(c, dir, MAY_W | MAY_X) ? 0 : NFS3ERR_ACCES;
}

/* Removal of name from dir: w and x on dir, and with the sticky bit only
 * the owner of dir or of the entry (or root).  0 or a status. */
static int may_unlink(struct sv_core *c, struct sv_node *dir, const char *name)
{
    struct sv_node *n;
    int st = may_change(c, dir);

    if (st != 0 || !(dir->mode & 01000) || c->cred_uid == 0 || c->cred_uid == dir->uid)
        return st;
    if (sv__fs_lookup(c->fs, dir, name, &n) != 0)
        return 0; /* the operation itself reports the missing name */
    return c->cred_uid == n->uid ? 0 : NFS3ERR_PERM;
}

uint32_t sv__access3(struct sv_core *c, const struct sv_node *n, uint32_t asked)
{
    unsigned g = granted(c, n);
    uint32_t ok = 0;

    if (g & MAY_R)
        ok |= ACCESS3_READ;
    if (n->type == SV_DIR) {
        if (g & MAY_X)
            ok |= ACCESS3_LOOKUP;
        if (g & MAY_W)
            ok |= ACCESS3_MODIFY | ACCESS3_EXTEND;
        if ((g & (MAY_W | MAY_X)) == (MAY_W | MAY_X))
            ok |= ACCESS3_DELETE;
    } else {
        if (g & MAY_W)
            ok |= ACCESS3_MODIFY | ACCESS3_EXTEND;
        if (g & MAY_X)
            ok |= ACCESS3_EXECUTE;
    }
    return asked & ok;
}

int sv__lookup(struct sv_core *c, struct sv_node *dir, const char *name,
               struct sv_node **out)
{
    *out = NULL;
    if (dir->type == SV_DIR && !may(c, dir, MAY_X))
        return NFS3ERR_ACCES;
    return sv__fs_lookup(c->fs, dir, name, out);
}

int sv__readdir_check(struct sv_core *c, const struct sv_node *dir)
{
    if (dir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    return may(c, dir, MAY_R) ? 0 : NFS3ERR_ACCES;
}

int sv__data_check(struct sv_core *c, const struct sv_node *n, int write)
{
    if (n->type != SV_REG || c->cred_uid == n->uid)
        return 0; /* the operation reports ISDIR/INVAL; the owner may */
    if (write)
        return may(c, n, MAY_W) ? 0 : NFS3ERR_ACCES;
    return may(c, n, MAY_R) || may(c, n, MAY_X) ? 0 : NFS3ERR_ACCES;
}

int sv__create(struct sv_core *c, struct sv_node *dir, const char *name,
               enum sv_type type, const struct sv_sattr *sa, const char *target,
               struct sv_node **out)
{
    struct sv_sattr own;
    int st = may_change(c, dir);

    *out = NULL;
    if (st != 0)
        return st;
    /* a caller other than root cannot create files for someone else */
    if (sa != NULL && c->cred_uid != 0) {
        own = *sa;
        own.set_uid = own.set_uid && own.uid == c->cred_uid;
        own.set_gid = own.set_gid && in_group(c, own.gid);
        sa = &own;
    }
    return sv__fs_create(c->fs, dir, name, type, sa, c->cred_uid, c->cred_gid, target,
                         out);
}

int sv__remove(struct sv_core *c, struct sv_node *dir, const char *name, int want_dir)
{
    int st = may_unlink(c, dir, name);

    return st != 0 ? st : sv__fs_remove(c->fs, dir, name, want_dir);
}

int sv__rename(struct sv_core *c, struct sv_node *fdir, const char *fname,
               struct sv_node *tdir, const char *tname)
{
    int st = may_unlink(c, fdir, fname);

    if (st == 0)
        st = may_unlink(c, tdir, tname);
    return st != 0 ? st : sv__fs_rename(c->fs, fdir, fname, tdir, tname);
}

int sv__link(struct sv_core *c, struct sv_node *n, struct sv_node *dir, const char *name)
{
    int st = may_change(c, dir);

    return st != 0 ? st : sv__fs_link(c->fs, n, dir, name);
}

int sv__setattr(struct sv_core *c, struct sv_node *n, const struct sv_sattr *sa)
{
    int owner = c->cred_uid == 0 || c->cred_uid == n->uid;

    /* chmod, chown, chgrp and explicit times: the owner or root only;
     * giving a file away: root only; a group: one the owner is in */
    if ((sa->set_mode || sa->set_atime == 2 || sa->set_mtime == 2) && !owner)
        return NFS3ERR_PERM;
    if (sa->set_uid && sa->uid != n->uid && c->cred_uid != 0)
        return NFS3ERR_PERM;
    if (sa->set_gid && sa->gid != n->gid &&
        (!owner || (c->cred_uid != 0 && !in_group(c, sa->gid))))
        return NFS3ERR_PERM;
    /* truncation and "now" times: write permission (or the owner) */
    if ((sa->set_size || sa->set_atime == 1 || sa->set_mtime == 1) && !owner &&
        !may(c, n, MAY_W))
        return NFS3ERR_ACCES;
    return sv__fs_setattr(c->fs, n, sa);
}
