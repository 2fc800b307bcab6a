/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mount.c - MOUNT v1 (RFC 1094 appendix A) and v3 (RFC 1813 section 5) for
 * sfs_nfsd, and their dispatch tables.  MNT of an exported path, or of a
 * directory below one (through symbolic links that stay inside the
 * export, resolved as Linux mountd does), returns its 32-byte handle (the
 * same for NFSv2 and v3); DUMP lists the MNT calls not yet undone by UMNT/UMNTALL (a
 * bounded table: beyond SV_MAX_MOUNTS entries the oldest is forgotten, it is only
 * advisory); EXPORT lists the exports with no group restriction.
 */
#include "server/sv_int.h"
#include "nfs3_prot.h"
#include "mount_prot.h"

#include <string.h>
#include "common/cm.h"

/* Whether path is dir or lies below it (on a component boundary). */
static int under(const char *path, const char *dir)
{
    size_t len = strlen(dir);

    return strncmp(path, dir, len) == 0 &&
           (path[len] == '\0' || path[len] == '/' || (len == 1 && dir[0] == '/'));
}

/* The longest export that path is or lies below, or NULL. */
static const char *export_of(const struct sv_core *c, const char *path)
{
    const char *best = NULL;

    for (int i = 0; i < c->nexports; i++)
        if (under(path, c->exports[i]) && (!best || strlen(c->exports[i]) > strlen(best)))
            best = c->exports[i];
    return best;
}

#define MNT_PATH_MAX  4096
#define MNT_LINKS_MAX 40 /* symbolic links followed, as Linux's ELOOP */

/* Resolves an absolute path as Linux mountd's realpath does: component by
 * component from the root, following symbolic links (an absolute target
 * from the root, "." and ".." inside targets taken as POSIX does) into the
 * canonical path out.  Returns 0 or an nfsstat3 (NOENT, NOTDIR,
 * NAMETOOLONG, or INVAL for a "." or ".." in path itself or a loop). */
static int resolve(struct sv_core *c, const char *path, char *out)
{
    char rest[MNT_PATH_MAX], tmp[MNT_PATH_MAX], comp[SV_NAME_MAX + 1];
    struct sv_node *dir, *n;
    const char *p = path;
    int links = 0, st;

    if (strlen(path) >= sizeof(rest))
        return NFS3ERR_NAMETOOLONG;
    /* "." and ".." would let "/export/.." name a directory outside every
     * export while passing the prefix check: refused in the request */
    while ((p = sv__path_next(p, comp, &st)) != NULL)
        if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
            return NFS3ERR_INVAL;
    if (st != 0)
        return st;
    strcpy(rest, path);
    strcpy(out, "/");
    while ((p = sv__path_next(rest, comp, &st)) != NULL) {
        memmove(rest, p, strlen(p) + 1);
        if (strcmp(comp, ".") == 0)
            continue;
        if (strcmp(comp, "..") == 0) { /* in a link target: up one */
            char *slash = strrchr(out, '/');
            slash[slash == out ? 1 : 0] = '\0';
            continue;
        }
        st = sv__fs_walk(c->fs, out, &dir);
        if (st == 0)
            st = sv__fs_lookup(c->fs, dir, comp, &n);
        if (st != 0)
            return st;
        if (n->type == SV_LNK) {
            const char *t = n->u.lnk.target;
            if (++links > MNT_LINKS_MAX)
                return NFS3ERR_INVAL;
            if (snprintf(tmp, sizeof(tmp), "%s/%s", t, rest) >= (int)sizeof(tmp))
                return NFS3ERR_NAMETOOLONG;
            strcpy(rest, tmp);
            if (t[0] == '/')
                strcpy(out, "/");
            continue;
        }
        if (n->type != SV_DIR)
            return NFS3ERR_NOTDIR;
        if (strlen(out) + strlen(comp) + 2 > MNT_PATH_MAX)
            return NFS3ERR_NAMETOOLONG;
        if (out[1] != '\0')
            strcat(out, "/");
        strcat(out, comp);
    }
    return st;
}

/* Resolves a MNT path: 0 with the node, or a mountstat3 (v1 uses the same
 * errno numbers).  The path must lie in an export, and so must where its
 * symbolic links lead: in the same export, so no link leaves it. */
static int mnt(struct sv_core *c, const char *path, struct sv_node **n)
{
    char real[MNT_PATH_MAX];
    const char *ex;
    int st;

    if (path == NULL || path[0] != '/')
        return MNT3ERR_NOENT;
    ex = export_of(c, path);
    if (ex == NULL)
        return MNT3ERR_ACCES;
    st = resolve(c, path, real);
    if (st == 0 && !under(real, ex))
        return MNT3ERR_ACCES;
    if (st == 0)
        st = sv__fs_walk(c->fs, real, n);
    if (st == NFS3ERR_NOTDIR)
        return MNT3ERR_NOTDIR;
    if (st == NFS3ERR_NAMETOOLONG)
        return MNT3ERR_NAMETOOLONG;
    if (st == NFS3ERR_INVAL)
        return MNT3ERR_INVAL;
    if (st != 0)
        return MNT3ERR_NOENT;
    /* remember it for DUMP; when full, slide the oldest out */
    if (c->nmounts == SV_MAX_MOUNTS) {
        memmove(&c->mounts[0], &c->mounts[1], sizeof(c->mounts[0]) * (SV_MAX_MOUNTS - 1));
        c->nmounts--;
    }
    snprintf(c->mounts[c->nmounts].host, sizeof(c->mounts[0].host), "%s", c->peer);
    snprintf(c->mounts[c->nmounts].path, sizeof(c->mounts[0].path), "%s", path);
    c->nmounts++;
    return 0;
}

/* UMNT (path) or UMNTALL (path NULL) for the calling host. */
static void umnt(struct sv_core *c, const char *path)
{
    int i, j = 0;

    for (i = 0; i < c->nmounts; i++) {
        const struct sv_mount_entry *m = &c->mounts[i];
        if (strcmp(m->host, c->peer) == 0 && (path == NULL || strcmp(m->path, path) == 0))
            continue;
        if (i != j)
            c->mounts[j] = *m;
        j++;
    }
    c->nmounts = j;
}

static int p_null(struct sv_core *c, void *a, void *r)
{
    (void)c, (void)a, (void)r;
    return 0;
}

static int p_mnt1(struct sv_core *c, void *a, void *r)
{
    fhstatus *res = r;
    struct sv_node *n;

    res->fhs_status = (u_int)mnt(c, *(char **)a, &n);
    if (res->fhs_status == 0)
        sv__handle(c, n, (uint8_t *)res->fhstatus_u.fhs_fhandle);
    return (int)res->fhs_status;
}

static int p_mnt3(struct sv_core *c, void *a, void *r)
{
    static int flavors[] = {AUTH_SYS, AUTH_NONE};
    mountres3 *res = r;
    mountres3_ok *ok = &res->mountres3_u.mountinfo;
    struct sv_node *n;

    res->fhs_status = (mountstat3)mnt(c, *(char **)a, &n);
    if (res->fhs_status != MNT3_OK)
        return res->fhs_status;
    sv__handle(c, n, c->fh_scratch[0]);
    ok->fhandle.mnt3_fhandle_len = SV_FH_LEN;
    ok->fhandle.mnt3_fhandle_val = (char *)c->fh_scratch[0];
    ok->auth_flavors.auth_flavors_len = CM_ARRAY_LEN(flavors);
    ok->auth_flavors.auth_flavors_val = flavors;
    return 0;
}

static int p_umnt(struct sv_core *c, void *a, void *r)
{
    (void)r;
    umnt(c, *(char **)a);
    return 0;
}

static int p_umntall(struct sv_core *c, void *a, void *r)
{
    (void)a, (void)r;
    umnt(c, NULL);
    return 0;
}

/* DUMP and EXPORT lists: v1 and v3 have the same shapes in two rpcgen
 * types, so one macro writes both builders and no cast crosses the types.
 * The nodes live in c->dirbuf (SV_MAX_MOUNTS and SV_MAX_EXPORTS fit). */
#define DUMP_FN(fn, body_t, list_t)                                                      \
    static int fn(struct sv_core *c, void *a, void *r)                                   \
    {                                                                                    \
        body_t *b = (body_t *)c->dirbuf.bytes;                                           \
        (void)a;                                                                         \
        for (int i = 0; i < c->nmounts; i++) {                                           \
            b[i].ml_hostname = c->mounts[i].host;                                        \
            b[i].ml_directory = c->mounts[i].path;                                       \
            b[i].ml_next = i + 1 < c->nmounts ? &b[i + 1] : NULL;                        \
        }                                                                                \
        *(list_t *)r = c->nmounts ? &b[0] : NULL;                                        \
        return 0;                                                                        \
    }
#define EXPORT_FN(fn, node_t, list_t)                                                    \
    static int fn(struct sv_core *c, void *a, void *r)                                   \
    {                                                                                    \
        node_t *e = (node_t *)c->dirbuf.bytes;                                           \
        (void)a;                                                                         \
        for (int i = 0; i < c->nexports; i++) {                                          \
            e[i].ex_dir = c->exports[i];                                                 \
            e[i].ex_groups = NULL;                                                       \
            e[i].ex_next = i + 1 < c->nexports ? &e[i + 1] : NULL;                       \
        }                                                                                \
        *(list_t *)r = c->nexports ? &e[0] : NULL;                                       \
        return 0;                                                                        \
    }
DUMP_FN(p_dump1, mountbody, mountlist)
DUMP_FN(p_dump3, mnt3_body, mnt3_list)
EXPORT_FN(p_export1, exportnode, exports)
EXPORT_FN(p_export3, mnt3_exportnode, mnt3_exports)

#define H(num, fn) [num] = {fn, NULL}

static const struct sv_handler procs1[] = {
    H(MOUNTPROC_NULL, p_null),         H(MOUNTPROC_MNT, p_mnt1),
    H(MOUNTPROC_DUMP, p_dump1),        H(MOUNTPROC_UMNT, p_umnt),
    H(MOUNTPROC_UMNTALL, p_umntall),   H(MOUNTPROC_EXPORT, p_export1),
    H(MOUNTPROC_EXPORTALL, p_export1),
};

static const struct sv_handler procs3[] = {
    H(MOUNTPROC3_NULL, p_null),       H(MOUNTPROC3_MNT, p_mnt3),
    H(MOUNTPROC3_DUMP, p_dump3),      H(MOUNTPROC3_UMNT, p_umnt),
    H(MOUNTPROC3_UMNTALL, p_umntall), H(MOUNTPROC3_EXPORT, p_export3),
};

const struct sv_version sv__mount1_version = {NF_MOUNT1, "mount_v1", procs1,
                                              CM_ARRAY_LEN(procs1), 0};
const struct sv_version sv__mount3_version = {NF_MOUNT3, "mount_v3", procs3,
                                              CM_ARRAY_LEN(procs3), 0};
