/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_proc.c - what each NFSv2, NFSv3 and MOUNT procedure's call and
 * reply carry into a struct tr_nfs_event (TR__A_* and TR__R_* bits), one
 * row a procedure in the nfs layer's numbering (nf.h's tables give the
 * names, ops and codecs; a unit test checks the rows line up with them).
 * The nfsdump reader uses the rows to place attributes the text does not
 * label, the writer to know which fields to write; tr_nfs_proc_name names
 * a procedure from the same tables.
 */
#include "trace/tr_nfs_int.h"

#define NAME_CALL (TR__A_FH | TR__A_NAME)
#define MADE      (TR__R_FH | TR__R_ATTR | TR__R_ATTR_OK | TR__R_PRE | TR__R_DIR)

static const struct tr__proc_fields v3[] = {
    {0, 0},                                                         /* null */
    {TR__A_FH, TR__R_ATTR},                                         /* getattr */
    {TR__A_FH | TR__A_SATTR, TR__R_PRE | TR__R_ATTR},               /* setattr */
    {NAME_CALL, TR__R_FH | TR__R_ATTR | TR__R_ATTR_OK | TR__R_DIR}, /* lookup */
    {TR__A_FH | TR__A_ACCESS, TR__R_ATTR | TR__R_ACCESS},           /* access */
    {TR__A_FH, TR__R_ATTR | TR__R_TEXT},                            /* readlink */
    {TR__A_FH | TR__A_OFFSET | TR__A_COUNT,
     TR__R_ATTR | TR__R_COUNT | TR__R_EOF}, /* read */
    {TR__A_FH | TR__A_OFFSET | TR__A_COUNT | TR__A_STABLE,
     TR__R_PRE | TR__R_ATTR | TR__R_COUNT | TR__R_COMMIT},        /* write */
    {NAME_CALL | TR__A_HOW | TR__A_SATTR, MADE},                  /* create */
    {NAME_CALL | TR__A_SATTR, MADE},                              /* mkdir */
    {NAME_CALL | TR__A_SATTR | TR__A_TEXT, MADE},                 /* symlink */
    {NAME_CALL | TR__A_FTYPE | TR__A_SATTR, MADE},                /* mknod */
    {NAME_CALL, TR__R_PRE | TR__R_DIR},                           /* remove */
    {NAME_CALL, TR__R_PRE | TR__R_DIR},                           /* rmdir */
    {NAME_CALL | TR__A_FH2 | TR__A_NAME2, TR__R_PRE | TR__R_DIR}, /* rename */
    {TR__A_FH | TR__A_FH2 | TR__A_NAME2, TR__R_ATTR | TR__R_PRE | TR__R_DIR}, /* link */
    {TR__A_FH | TR__A_COOKIE | TR__A_COUNT, TR__R_ATTR | TR__R_EOF | TR__R_ENTRIES},
    {TR__A_FH | TR__A_COOKIE | TR__A_MAXCNT, TR__R_ATTR | TR__R_EOF | TR__R_ENTRIES},
    {TR__A_FH, TR__R_ATTR},                                          /* fsstat */
    {TR__A_FH, TR__R_ATTR},                                          /* fsinfo */
    {TR__A_FH, TR__R_ATTR},                                          /* pathconf */
    {TR__A_FH | TR__A_OFFSET | TR__A_COUNT, TR__R_PRE | TR__R_ATTR}, /* commit */
};

#define MADE2 (TR__R_FH | TR__R_ATTR | TR__R_ATTR_OK)

static const struct tr__proc_fields v2[] = {
    {0, 0},                                                             /* null */
    {TR__A_FH, TR__R_ATTR},                                             /* getattr */
    {TR__A_FH | TR__A_SATTR, TR__R_ATTR},                               /* setattr */
    {0, 0},                                                             /* root */
    {NAME_CALL, MADE2},                                                 /* lookup */
    {TR__A_FH, TR__R_TEXT},                                             /* readlink */
    {TR__A_FH | TR__A_OFFSET | TR__A_COUNT, TR__R_ATTR | TR__R_COUNT},  /* read */
    {0, 0},                                                             /* writecache */
    {TR__A_FH | TR__A_OFFSET | TR__A_COUNT, TR__R_ATTR},                /* write */
    {NAME_CALL | TR__A_SATTR, MADE2},                                   /* create */
    {NAME_CALL, 0},                                                     /* remove */
    {NAME_CALL | TR__A_FH2 | TR__A_NAME2, 0},                           /* rename */
    {TR__A_FH | TR__A_FH2 | TR__A_NAME2, 0},                            /* link */
    {NAME_CALL | TR__A_TEXT | TR__A_SATTR, 0},                          /* symlink */
    {NAME_CALL | TR__A_SATTR, MADE2},                                   /* mkdir */
    {NAME_CALL, 0},                                                     /* rmdir */
    {TR__A_FH | TR__A_COOKIE | TR__A_COUNT, TR__R_EOF | TR__R_ENTRIES}, /* readdir */
    {TR__A_FH, 0},                                                      /* statfs */
};

/* MOUNT v1 and v3 share their first six procedures; v1 adds EXPORTALL. */
static const struct tr__proc_fields mnt[] = {
    {0, 0},                 /* null */
    {TR__A_TEXT, TR__R_FH}, /* mnt */
    {0, 0},                 /* dump */
    {TR__A_TEXT, 0},        /* umnt */
    {0, 0},                 /* umntall */
    {0, 0},                 /* export */
    {0, 0},                 /* exportall */
};

const struct nf_proc *tr__proc_row(uint32_t prog, uint32_t vers, uint32_t proc)
{
    const struct nf_proc_table *t = nf_proc_table_for(prog, vers);

    return t && proc < t->nrows ? &t->rows[proc] : NULL;
}

const struct tr__proc_fields *tr__proc_fields(uint32_t prog, uint32_t vers, uint32_t proc)
{
    const struct nf_proc_table *t = nf_proc_table_for(prog, vers);

    if (!t || proc >= t->nrows)
        return NULL;
    switch (t->id) {
    case NF_NFS2:
        return proc < CM_ARRAY_LEN(v2) ? &v2[proc] : NULL;
    case NF_NFS3:
        return proc < CM_ARRAY_LEN(v3) ? &v3[proc] : NULL;
    default:
        return proc < CM_ARRAY_LEN(mnt) ? &mnt[proc] : NULL;
    }
}

const char *tr_nfs_proc_name(uint32_t prog, uint32_t vers, uint32_t proc)
{
    const struct nf_proc *row = tr__proc_row(prog, vers, proc);

    return row ? row->name : "unknown";
}
