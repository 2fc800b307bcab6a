/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs_tool.c - integration helper for the libnfs wrapper (nf_lnfs.h):
 * one operation per run on a mounted export.
 *
 *   lnfs_tool MOUNT write PATH TEXT | read PATH | size PATH | mkdirp PATH |
 *             ls DIR | rmtree PATH
 *
 * read prints the file's bytes; size prints the size; ls prints "d NAME" or
 * "f NAME" per entry.  Errors: one line on stderr, exit 1.
 */
#include <stdio.h>
#include <string.h>

#include "nfs/nf_lnfs.h"

static int print_entry(const char *name, int is_dir, void *data)
{
    (void)data;
    printf("%c %s\n", is_dir ? 'd' : 'f', name);
    return 0;
}

int main(int argc, char **argv)
{
    struct nf_lnfs *l;
    char err[512], buf[65536];
    const char *op, *path;
    uint64_t size;
    size_t got;
    int rc;

    if (argc < 4 || (strcmp(argv[2], "write") == 0 && argc != 5)) {
        fprintf(stderr, "usage: lnfs_tool MOUNT write PATH TEXT | read PATH | size PATH |"
                        " mkdirp PATH | ls DIR | rmtree PATH\n");
        return 2;
    }
    op = argv[2];
    path = argv[3];
    if (nf_lnfs_open(&l, argv[1], 5000, err, sizeof(err)) < 0) {
        fprintf(stderr, "lnfs_tool: %s\n", err);
        return 1;
    }
    if (strcmp(op, "write") == 0) {
        rc = nf_lnfs_write(l, path, 0, argv[4], strlen(argv[4]), 1);
    } else if (strcmp(op, "read") == 0) {
        rc = nf_lnfs_read(l, path, 0, buf, sizeof(buf), &got);
        if (rc == 0)
            fwrite(buf, 1, got, stdout);
    } else if (strcmp(op, "size") == 0) {
        rc = nf_lnfs_size(l, path, &size);
        if (rc == 0)
            printf("%llu\n", (unsigned long long)size);
    } else if (strcmp(op, "mkdirp") == 0) {
        rc = nf_lnfs_mkdir_p(l, path);
    } else if (strcmp(op, "ls") == 0) {
        rc = nf_lnfs_list(l, path, print_entry, NULL);
    } else if (strcmp(op, "rmtree") == 0) {
        rc = nf_lnfs_remove_tree(l, path);
    } else {
        fprintf(stderr, "lnfs_tool: unknown operation %s\n", op);
        nf_lnfs_close(l);
        return 2;
    }
    if (rc < 0)
        fprintf(stderr, "lnfs_tool: %s\n", nf_lnfs_last_error(l));
    nf_lnfs_close(l);
    return rc < 0 ? 1 : 0;
}
