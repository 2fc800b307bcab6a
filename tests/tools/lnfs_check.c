/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs_check.c - an independent NFSv3 client check of an NFS server through
 * libnfs's high-level synchronous API (test helper for tests/integration/
 * 07NN_*.t; docs/DECISIONS.md D3: libnfs is the independent second client).
 * Usage: lnfs_check URL, e.g. nfs://127.0.0.1/export?nfsport=P&mountport=M.
 * In a fresh directory it creates, writes, reads back (byte for byte,
 * across a sparse hole), truncates, renames, links, symlinks, lists and
 * removes files and directories, and checks the error paths (ENOENT,
 * EEXIST, ENOTDIR, EISDIR, ENOTEMPTY).  Prints TAP lines; exits 1 if any
 * check failed, 2 if it could not mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <nfsc/libnfs.h>

static int n_checks, n_failed;

static void check(int ok, const char *what, long got)
{
    n_checks++;
    if (ok) {
        printf("ok %d - %s\n", n_checks, what);
    } else {
        n_failed++;
        printf("not ok %d - %s (got %ld)\n", n_checks, what, got);
    }
}

#define EXPECT_OK(call, what)                                                            \
    do {                                                                                 \
        int rc_ = (call);                                                                \
        check(rc_ >= 0, what, rc_);                                                      \
    } while (0)
#define EXPECT_ERR(call, err, what)                                                      \
    do {                                                                                 \
        int rc_ = (call);                                                                \
        check(rc_ == -(err), what, rc_);                                                 \
    } while (0)

/* Writes len pattern bytes at off through a fresh handle. */
static int write_at(struct nfs_context *nfs, const char *path, uint64_t off,
                    const char *buf, size_t len)
{
    struct nfsfh *fh;
    int rc = nfs_open(nfs, path, O_WRONLY, &fh);

    if (rc < 0)
        return rc;
    rc = nfs_pwrite(nfs, fh, off, len, (char *)buf);
    nfs_close(nfs, fh);
    return rc == (int)len ? 0 : rc < 0 ? rc : -EIO;
}

static int read_at(struct nfs_context *nfs, const char *path, uint64_t off, char *buf,
                   size_t len)
{
    struct nfsfh *fh;
    size_t done = 0;
    int rc = nfs_open(nfs, path, O_RDONLY, &fh);

    if (rc < 0)
        return rc;
    while (done < len) {
        rc = nfs_pread(nfs, fh, off + done, len - done, buf + done);
        if (rc <= 0)
            break;
        done += (size_t)rc;
    }
    nfs_close(nfs, fh);
    return rc < 0 ? rc : (int)done;
}

static int count_entries(struct nfs_context *nfs, const char *path, const char *want,
                         int *found)
{
    struct nfsdir *d;
    struct nfsdirent *e;
    int n = 0, rc = nfs_opendir(nfs, path, &d);

    *found = 0;
    if (rc < 0)
        return rc;
    while ((e = nfs_readdir(nfs, d)) != NULL) {
        if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
            continue;
        n++;
        if (want && strcmp(e->name, want) == 0)
            *found = 1;
    }
    nfs_closedir(nfs, d);
    return n;
}

int main(int argc, char **argv)
{
    struct nfs_context *nfs;
    struct nfs_url *url;
    struct nfsfh *fh;
    struct nfs_stat_64 st;
    struct statvfs vfs;
    char *data, *back, dir[64], p1[128], p2[128], p3[128], buf[256];
    const size_t len = 200000; /* several chunks and several WRITE calls */
    int found, n;

    if (argc != 2) {
        fprintf(stderr, "usage: lnfs_check nfs://host/export?nfsport=P&mountport=M\n");
        return 2;
    }
    nfs = nfs_init_context();
    if (nfs == NULL)
        return 2;
    nfs_set_timeout(nfs, 10000);
    url = nfs_parse_url_dir(nfs, argv[1]);
    if (url == NULL || nfs_mount(nfs, url->server, url->path) != 0) {
        fprintf(stderr, "lnfs_check: cannot mount %s: %s\n", argv[1], nfs_get_error(nfs));
        return 2;
    }
    data = malloc(len);
    back = malloc(len);
    if (!data || !back)
        return 2;
    srand(7);
    for (size_t i = 0; i < len; i++)
        data[i] = (char)(rand() & 0xff);
    snprintf(dir, sizeof(dir), "/lnfs.%ld", (long)getpid());

    EXPECT_OK(nfs_mkdir(nfs, dir), "mkdir");
    EXPECT_ERR(nfs_mkdir(nfs, dir), EEXIST, "mkdir again: EEXIST");
    snprintf(p1, sizeof(p1), "%s/file", dir);
    EXPECT_OK(nfs_creat(nfs, p1, 0644, &fh), "create");
    if (fh)
        nfs_close(nfs, fh);
    EXPECT_OK(write_at(nfs, p1, 0, data, len), "write 200000 bytes");
    n = read_at(nfs, p1, 0, back, len);
    check(n == (int)len && memcmp(data, back, len) == 0, "read back byte for byte", n);
    /* a sparse write far away: the hole reads as zeros */
    EXPECT_OK(write_at(nfs, p1, 10 * 1000 * 1000, "tail", 4), "write at 10 MB");
    EXPECT_OK(nfs_stat64(nfs, p1, &st), "stat");
    check(st.nfs_size == 10 * 1000 * 1000 + 4, "size after sparse write",
          (long)st.nfs_size);
    n = read_at(nfs, p1, 5 * 1000 * 1000, buf, 100);
    check(n == 100 && buf[0] == 0 && buf[99] == 0, "hole reads as zeros", n);
    EXPECT_OK(nfs_truncate(nfs, p1, 1000), "truncate to 1000");
    n = read_at(nfs, p1, 0, back, 2000);
    check(n == 1000 && memcmp(data, back, 1000) == 0, "data kept up to the new size", n);
    EXPECT_OK(nfs_truncate(nfs, p1, 3000), "extend to 3000");
    n = read_at(nfs, p1, 1000, back, 2000);
    check(n == 2000 && back[0] == 0 && back[1999] == 0, "extension reads zeros", n);
    EXPECT_OK(nfs_chmod(nfs, p1, 0600), "chmod");
    EXPECT_OK(nfs_stat64(nfs, p1, &st), "stat after chmod");
    check((st.nfs_mode & 0777) == 0600, "mode is 0600", (long)st.nfs_mode);

    snprintf(p2, sizeof(p2), "%s/renamed", dir);
    EXPECT_OK(nfs_rename(nfs, p1, p2), "rename");
    EXPECT_ERR(nfs_stat64(nfs, p1, &st), ENOENT, "old name: ENOENT");
    n = read_at(nfs, p2, 0, back, 1000);
    check(n == 1000 && memcmp(data, back, 1000) == 0, "renamed file keeps its data", n);
    snprintf(p3, sizeof(p3), "%s/hardlink", dir);
    EXPECT_OK(nfs_link(nfs, p2, p3), "link");
    EXPECT_OK(nfs_stat64(nfs, p3, &st), "stat link");
    check(st.nfs_nlink == 2, "nlink 2", (long)st.nfs_nlink);
    EXPECT_ERR(nfs_link(nfs, p2, p3), EEXIST, "link again: EEXIST");

    snprintf(p1, sizeof(p1), "%s/sym", dir);
    EXPECT_OK(nfs_symlink(nfs, "renamed", p1), "symlink");
    memset(buf, 0, sizeof(buf));
    EXPECT_OK(nfs_readlink(nfs, p1, buf, sizeof(buf)), "readlink");
    check(strcmp(buf, "renamed") == 0, "readlink gives the target", 0);

    snprintf(p1, sizeof(p1), "%s/sub", dir);
    EXPECT_OK(nfs_mkdir(nfs, p1), "mkdir sub");
    n = count_entries(nfs, dir, "renamed", &found);
    check(n == 4 && found, "readdir lists 4 entries", n);
    EXPECT_ERR(nfs_rmdir(nfs, dir), ENOTEMPTY, "rmdir non-empty: ENOTEMPTY");
    EXPECT_ERR(nfs_opendir(nfs, p2, &(struct nfsdir *){NULL}), ENOTDIR,
               "opendir of a file: ENOTDIR");
    snprintf(p3, sizeof(p3), "%s/renamed/x", dir);
    EXPECT_ERR(nfs_mkdir(nfs, p3), ENOTDIR, "mkdir under a file: ENOTDIR");
    EXPECT_ERR(nfs_unlink(nfs, p1), EISDIR, "unlink of a directory: EISDIR");
    EXPECT_ERR(nfs_open(nfs, "/no/such/file", O_RDONLY, &fh), ENOENT,
               "open missing: ENOENT");
    EXPECT_OK(nfs_statvfs(nfs, "/", &vfs), "statvfs");

    /* clean up and check that everything is gone */
    EXPECT_OK(nfs_rmdir(nfs, p1), "rmdir sub");
    snprintf(p1, sizeof(p1), "%s/sym", dir);
    EXPECT_OK(nfs_unlink(nfs, p1), "unlink symlink");
    snprintf(p3, sizeof(p3), "%s/hardlink", dir);
    EXPECT_OK(nfs_unlink(nfs, p3), "unlink hard link");
    EXPECT_OK(nfs_unlink(nfs, p2), "unlink file");
    EXPECT_ERR(nfs_unlink(nfs, p2), ENOENT, "unlink again: ENOENT");
    n = count_entries(nfs, dir, NULL, &found);
    check(n == 0, "directory empty", n);
    EXPECT_OK(nfs_rmdir(nfs, dir), "rmdir");
    EXPECT_ERR(nfs_rmdir(nfs, dir), ENOENT, "rmdir again: ENOENT");

    printf("1..%d\n", n_checks);
    free(data);
    free(back);
    nfs_destroy_url(url);
    nfs_destroy_context(nfs);
    return n_failed ? 1 : 0;
}
