/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs.c - the libnfs wrapper of nf_lnfs.h (nfs layer, docs/DECISIONS.md D3).
 * The only file in src/ that uses libnfs, and it includes only
 * <nfsc/libnfs.h>: libnfs's raw headers define the RFC 1813 names that our
 * rpcgen nfs3_prot.h defines too.  Mount points are parsed by spec.c and
 * handed to libnfs as a URL with explicit ports when the user gave them.
 */
#include <sys/time.h> /* libnfs.h uses struct timeval without including it */

#include <nfsc/libnfs.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cm.h"
#include "common/error.h"
#include "nfs/nf_lnfs.h"
#include "nfs/nf_spec.h"
#include "common/alloc.h"

#define LNFS_MAX_DEPTH 64

struct nf_lnfs {
    struct nfs_context *nfs;
    char last_error[CM_ERR_LEN];
};

static int set_error(struct nf_lnfs *l, int rc, const char *fmt, ...) CM_PRINTF(3, 4);
static int set_error(struct nf_lnfs *l, int rc, const char *fmt, ...)
{
    char what[CM_ERR_LEN / 2];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(l->last_error, sizeof(l->last_error), "%s: %s", what,
             nfs_get_error(l->nfs) ? nfs_get_error(l->nfs) : strerror(-rc));
    return rc < 0 ? rc : -EIO;
}

const char *nf_lnfs_last_error(const struct nf_lnfs *l)
{
    return l->last_error;
}

int nf_lnfs_open(struct nf_lnfs **out, const char *spec, uint32_t timeout_ms, char *err,
                 size_t errlen)
{
    return nf_lnfs_open_version(out, spec, 3, timeout_ms, err, errlen);
}

int nf_lnfs_open_version(struct nf_lnfs **out, const char *spec, int nfs_version,
                         uint32_t timeout_ms, char *err, size_t errlen)
{
    struct nf_mount_spec s;
    struct nf_lnfs *l;
    char url[NF_HOST_MAX + NF_PATH_MAX + 96], q[64] = "";
    struct nfs_url *u;
    int rc;

    *out = NULL;
    rc = nf_parse_mount_spec(spec, &s, err, errlen);
    if (rc < 0)
        return rc;
    if (s.nfs_port && s.mount_port)
        snprintf(q, sizeof(q), "?nfsport=%u&mountport=%u", s.nfs_port, s.mount_port);
    else if (s.nfs_port)
        snprintf(q, sizeof(q), "?nfsport=%u", s.nfs_port);
    else if (s.mount_port)
        snprintf(q, sizeof(q), "?mountport=%u", s.mount_port);
    if (nfs_version == 4 && s.nfs_port) /* no MOUNT program: the NFS port only */
        snprintf(q, sizeof(q), "?version=4&nfsport=%u", s.nfs_port);
    else if (nfs_version == 4)
        snprintf(q, sizeof(q), "?version=4");
    snprintf(url, sizeof(url), "nfs://%s%s%s", s.host, s.path, q);
    l = cm_calloc(1, sizeof(*l));
    if (!l || !(l->nfs = nfs_init_context())) {
        free(l);
        cm_errf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    nfs_set_timeout(l->nfs, timeout_ms ? (int)timeout_ms : 10000);
    u = nfs_parse_url_dir(l->nfs, url);
    if (!u) {
        cm_errf(err, errlen, "libnfs: %s: %s", url, nfs_get_error(l->nfs));
        nf_lnfs_close(l);
        return -EINVAL;
    }
    rc = nfs_mount(l->nfs, u->server, u->path);
    nfs_destroy_url(u);
    if (rc < 0) {
        cm_errf(err, errlen, "libnfs: mount %s: %s", spec, nfs_get_error(l->nfs));
        nf_lnfs_close(l);
        return rc;
    }
    *out = l;
    return 0;
}

void nf_lnfs_close(struct nf_lnfs *l)
{
    if (!l)
        return;
    if (l->nfs)
        nfs_destroy_context(l->nfs);
    free(l);
}

int nf_lnfs_read(struct nf_lnfs *l, const char *path, uint64_t off, void *buf, size_t len,
                 size_t *got)
{
    struct nfsfh *fh;
    size_t done = 0;
    int rc;

    *got = 0;
    rc = nfs_open(l->nfs, path, O_RDONLY, &fh);
    if (rc < 0)
        return set_error(l, rc, "open %s", path);
    /* libnfs returns at most one READ's worth per call */
    while (done < len) {
        rc = nfs_pread(l->nfs, fh, off + done, len - done, (char *)buf + done);
        if (rc <= 0)
            break;
        done += (size_t)rc;
    }
    nfs_close(l->nfs, fh);
    if (rc < 0)
        return set_error(l, rc, "read %s", path);
    *got = done;
    return 0;
}

int nf_lnfs_write(struct nf_lnfs *l, const char *path, uint64_t off, const void *buf,
                  size_t len, int create)
{
    struct nfsfh *fh;
    size_t done = 0;
    int rc;

    rc = create ? nfs_open2(l->nfs, path, O_WRONLY | O_CREAT, 0644, &fh)
                : nfs_open(l->nfs, path, O_WRONLY, &fh);
    if (rc < 0)
        return set_error(l, rc, "open %s", path);
    while (done < len) {
        rc = nfs_pwrite(l->nfs, fh, off + done, len - done, (const char *)buf + done);
        if (rc <= 0)
            break;
        done += (size_t)rc;
    }
    nfs_close(l->nfs, fh);
    if (rc <= 0 && done < len)
        return set_error(l, rc < 0 ? rc : -EIO, "write %s", path);
    return 0;
}

int nf_lnfs_size(struct nf_lnfs *l, const char *path, uint64_t *size)
{
    struct nfs_stat_64 st;
    int rc = nfs_stat64(l->nfs, path, &st);

    if (rc < 0)
        return set_error(l, rc, "stat %s", path);
    *size = st.nfs_size;
    return 0;
}

int nf_lnfs_prepare_file(struct nf_lnfs *l, const char *path, uint64_t size, int *created,
                         int *grown)
{
    struct nfs_stat_64 st;
    struct nfsfh *fh;
    int rc = nfs_stat64(l->nfs, path, &st);

    if (created)
        *created = 0;
    if (grown)
        *grown = 0;
    if (rc == -ENOENT) {
        rc = nfs_open2(l->nfs, path, O_WRONLY | O_CREAT, 0644, &fh);
        if (rc < 0)
            return set_error(l, rc, "create %s", path);
        nfs_close(l->nfs, fh);
        st.nfs_size = 0;
        st.nfs_mode = S_IFREG;
        if (created)
            *created = 1;
    } else if (rc < 0) {
        return set_error(l, rc, "stat %s", path);
    }
    if (S_ISDIR(st.nfs_mode))
        return set_error(l, -EISDIR, "prepare %s", path);
    if (st.nfs_size >= size)
        return 0;
    rc = nfs_truncate(l->nfs, path, size);
    if (rc < 0)
        return set_error(l, rc, "truncate %s to %llu bytes", path,
                         (unsigned long long)size);
    if (grown)
        *grown = 1;
    return 0;
}

int nf_lnfs_mkdir_p(struct nf_lnfs *l, const char *path)
{
    char p[NF_PATH_MAX];
    size_t i, n = strlen(path);
    int rc;

    if (n == 0 || n >= sizeof(p) || path[0] != '/')
        return set_error(l, -EINVAL, "mkdir '%s'", path);
    memcpy(p, path, n + 1);
    for (i = 1; i <= n; i++) {
        struct nfs_stat_64 st;

        if (p[i] != '/' && p[i] != '\0')
            continue;
        p[i] = '\0';
        rc = nfs_mkdir(l->nfs, p);
        if (rc < 0 &&
            !(rc == -EEXIST || (nfs_stat64(l->nfs, p, &st) == 0 && S_ISDIR(st.nfs_mode))))
            return set_error(l, rc, "mkdir %s", p);
        p[i] = path[i];
    }
    return 0;
}

int nf_lnfs_list(struct nf_lnfs *l, const char *dir,
                 int (*fn)(const char *name, int is_dir, void *data), void *data)
{
    struct nfsdir *d;
    struct nfsdirent *e;
    int rc = nfs_opendir(l->nfs, dir, &d);

    if (rc < 0)
        return set_error(l, rc, "opendir %s", dir);
    rc = 0;
    while (rc == 0 && (e = nfs_readdir(l->nfs, d)) != NULL) {
        if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
            continue;
        rc = fn(e->name, S_ISDIR(e->mode) || e->type == 2 /* NF3DIR */, data);
    }
    nfs_closedir(l->nfs, d);
    return rc;
}

struct rm_walk {
    struct nf_lnfs *l;
    const char *dir;
    int depth;
};

static int remove_below(struct nf_lnfs *l, const char *path, int depth);

static int rm_entry(const char *name, int is_dir, void *data)
{
    struct rm_walk *w = data;
    char child[NF_PATH_MAX];
    int rc;

    if ((size_t)snprintf(child, sizeof(child), "%s/%s", w->dir, name) >= sizeof(child))
        return set_error(w->l, -ENAMETOOLONG, "remove %s/%s", w->dir, name);
    if (!is_dir) {
        rc = nfs_unlink(w->l->nfs, child);
        return rc < 0 ? set_error(w->l, rc, "unlink %s", child) : 0;
    }
    rc = remove_below(w->l, child, w->depth + 1);
    if (rc == 0 && (rc = nfs_rmdir(w->l->nfs, child)) < 0)
        return set_error(w->l, rc, "rmdir %s", child);
    return rc;
}

/* Removes everything inside the directory path. */
static int remove_below(struct nf_lnfs *l, const char *path, int depth)
{
    struct rm_walk w = {l, path, depth};

    if (depth > LNFS_MAX_DEPTH)
        return set_error(l, -ELOOP, "remove %s: deeper than %d levels", path,
                         LNFS_MAX_DEPTH);
    return nf_lnfs_list(l, path, rm_entry, &w);
}

int nf_lnfs_remove_tree(struct nf_lnfs *l, const char *path)
{
    struct nfs_stat_64 st;
    int rc = nfs_lstat64(l->nfs, path, &st);

    if (rc == -ENOENT)
        return 0;
    if (rc < 0)
        return set_error(l, rc, "stat %s", path);
    if (!S_ISDIR(st.nfs_mode)) {
        rc = nfs_unlink(l->nfs, path);
        return rc < 0 ? set_error(l, rc, "unlink %s", path) : 0;
    }
    rc = remove_below(l, path, 0);
    if (rc == 0 && strcmp(path, "/") != 0 && (rc = nfs_rmdir(l->nfs, path)) < 0)
        return set_error(l, rc, "rmdir %s", path);
    return rc;
}
