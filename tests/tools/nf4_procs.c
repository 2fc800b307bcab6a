/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4_procs.c - integration helper: mounts a server over NFSv4.1 with the
 * nfs layer's client and sends every SFS operation's compound
 * (nf4_sfs_compound: what a Linux 4.1 client sends for the same work),
 * and the OPEN and CLOSE around a file's I/O, on a scratch directory it
 * creates and removes again, checking the decoded results (data read
 * back, sizes, link targets, directory entries, the file system's
 * figures).  One line per call:
 *
 *   ok  <op> <operations sent>    every operation answered OK
 *   nfs <op> <STATUS>             the compound's status was another
 *   rpc <op> <error>              no decoded reply
 *   check <what> ok|FAIL          a check of a decoded value
 *
 * Exit 0 when every compound was answered OK and every check passed.
 * With -k the scratch directory is kept, not removed, so that a test can
 * look at what the server made of the calls (ls, stat, a v3 client):
 *
 *   kept NAME                     NAME/ holds f (100 bytes, mode 0600, the
 *                                 data written first, two links), h (f's
 *                                 second link, renamed from g), l (a
 *                                 symbolic link to f), p (a FIFO), d (a
 *                                 directory)
 *
 *   nf4_procs [-k] MOUNT
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "nfs/nf4_client.h"
#include "tool_nf4.h"

/* One SFS op's compound with arguments a. */
static int sfs(struct tool_nf4 *x, int op, const struct nf4_sfs_args *a)
{
    if (nf4_sfs_compound(&x->call.args, 1, op, a) < 0) {
        printf("rpc %s cannot build\n", nf_op_name(op));
        x->failures++;
        return -1;
    }
    return tool_nf4_send(x, nf_op_name(op), NFS4_OK);
}

static void check(struct tool_nf4 *x, const char *what, int good)
{
    printf("check %s %s\n", what, good ? "ok" : "FAIL");
    if (!good)
        x->failures++;
}

static const struct nf4_resop *res(const struct tool_nf4 *x, uint32_t op)
{
    return nf4_res_find(&x->call.res, op, 0);
}

/* The handle the last compound's GETFH returned. */
static int take_fh(const struct tool_nf4 *x, struct nf4_fh *fh)
{
    const struct nf4_resop *g = res(x, OP_GETFH);

    if (!g)
        return -1;
    *fh = g->u.getfh;
    return 0;
}

static void run(struct tool_nf4 *x, const struct nf4_fh *root, int keep)
{
    static const char data[] = "FreeSFS NFSv4.1 compounds: data written, then read back.";
    struct nf4_fh dir, file, sub, lnk;
    struct nf4_sfs_args a;
    const struct nf4_resop *o;
    stateid4 sid;
    char name[64];

    snprintf(name, sizeof(name), "nf4_procs.%ld", (long)getpid());
    memset(&a, 0, sizeof(a));
    a.fh = root;
    a.name = name;
    a.sa.set_mode = 1;
    a.sa.mode = 0755;
    if (sfs(x, NF_OP_MKDIR, &a) < 0 || take_fh(x, &dir) < 0)
        return;
    /* create: OPEN(CREATE) - the stateid serves the writes and reads */
    a.fh = &dir;
    a.name = "f";
    a.sa.mode = 0644;
    if (sfs(x, NF_OP_CREATE, &a) < 0 || take_fh(x, &file) < 0 || !(o = res(x, OP_OPEN)))
        return;
    sid = o->u.open.stateid;
    memset(&a, 0, sizeof(a));
    a.fh = &file;
    a.sid = &sid;
    a.data = data;
    a.count = sizeof(data);
    a.stable = 1;
    if (sfs(x, NF_OP_WRITE, &a) == 0)
        check(x, "write FILE_SYNC count and size",
              (o = res(x, OP_WRITE)) && o->u.write.count == sizeof(data) &&
                  o->u.write.committed == FILE_SYNC4 && res(x, OP_GETATTR) &&
                  res(x, OP_GETATTR)->u.getattr.size == sizeof(data));
    a.stable = 0;
    a.offset = 8192;
    if (sfs(x, NF_OP_WRITE, &a) == 0)
        check(x, "write UNSTABLE answered", res(x, OP_WRITE) != NULL);
    a.offset = 0;
    a.count = 0;
    sfs(x, NF_OP_COMMIT, &a);
    a.count = sizeof(data);
    if (sfs(x, NF_OP_READ, &a) == 0)
        check(x, "read gives back what was written",
              (o = res(x, OP_READ)) && o->u.read.len == sizeof(data) &&
                  memcmp(x->buf, data, sizeof(data)) == 0);
    if (sfs(x, NF_OP_GETATTR, &a) == 0)
        check(x, "getattr: a regular file of the size written",
              (o = res(x, OP_GETATTR)) && o->u.getattr.type == NF4REG &&
                  o->u.getattr.size == 8192 + sizeof(data) &&
                  nf4_attr_isset(o->u.getattr.have, FATTR4_FILEID));
    a.sa.set_size = 1;
    a.sa.size = 100;
    a.sa.set_mode = 1;
    a.sa.mode = 0600;
    if (sfs(x, NF_OP_SETATTR, &a) == 0)
        check(x, "setattr: size and mode set",
              (o = res(x, OP_GETATTR)) && o->u.getattr.size == 100 &&
                  (o->u.getattr.mode & 07777) == 0600);
    sfs(x, NF_OP_ACCESS, &a);
    memset(&a.sa, 0, sizeof(a.sa));
    /* the CLOSE of the create's open; then an OPEN by handle and its CLOSE */
    if (nf4_sfs_close(&x->call.args, &a) == 0)
        tool_nf4_send(x, "close", NFS4_OK);
    if (nf4_sfs_open(&x->call.args, &a) == 0 && tool_nf4_send(x, "open", NFS4_OK) == 0 &&
        (o = res(x, OP_OPEN)) != NULL) {
        sid = o->u.open.stateid;
        if (nf4_sfs_close(&x->call.args, &a) == 0)
            tool_nf4_send(x, "close", NFS4_OK);
    }
    memset(&a, 0, sizeof(a));
    a.fh = &dir;
    a.name = "f";
    if (sfs(x, NF_OP_LOOKUP, &a) == 0 && take_fh(x, &sub) == 0)
        check(x, "lookup finds the file's handle",
              sub.len == file.len && memcmp(sub.data, file.data, file.len) == 0);
    a.name = "l";
    a.target = "f";
    if (sfs(x, NF_OP_SYMLINK, &a) == 0 && take_fh(x, &lnk) == 0) {
        struct nf4_sfs_args r = {.fh = &lnk};

        if (sfs(x, NF_OP_READLINK, &r) == 0)
            check(x, "readlink gives the target",
                  (o = res(x, OP_READLINK)) && o->u.readlink.len == 1 &&
                      x->buf[0] == 'f');
    }
    a.name = "p";
    sfs(x, NF_OP_MKNOD, &a);
    a.name = "d";
    sfs(x, NF_OP_MKDIR, &a);
    {
        struct nf4_sfs_args l = {.fh = &file, .fh2 = &dir, .name = "g"};

        if (sfs(x, NF_OP_LINK, &l) == 0)
            check(x, "link: two links to the file",
                  (o = res(x, OP_GETATTR)) && o->u.getattr.numlinks == 2);
    }
    a.count = 8192;
    if (sfs(x, NF_OP_READDIR, &a) == 0)
        check(x, "readdir: f, g, l, p, d",
              (o = res(x, OP_READDIR)) && o->u.readdir.entries == 5 && o->u.readdir.eof);
    if (sfs(x, NF_OP_READDIRPLUS, &a) == 0)
        check(x, "readdirplus: the same 5",
              (o = res(x, OP_READDIR)) && o->u.readdir.entries == 5);
    if (sfs(x, NF_OP_FSSTAT, &a) == 0)
        check(x, "fsstat: space and files",
              (o = res(x, OP_GETATTR)) &&
                  nf4_attr_isset(o->u.getattr.have, FATTR4_SPACE_TOTAL) &&
                  nf4_attr_isset(o->u.getattr.have, FATTR4_FILES_FREE) &&
                  o->u.getattr.space_total > 0);
    if (sfs(x, NF_OP_FSINFO, &a) == 0)
        check(x, "fsinfo: lease, maxread, maxwrite",
              (o = res(x, OP_GETATTR)) && o->u.getattr.lease_time > 0 &&
                  o->u.getattr.maxread > 0 && o->u.getattr.maxwrite > 0);
    if (sfs(x, NF_OP_PATHCONF, &a) == 0)
        check(x, "pathconf: maxname",
              (o = res(x, OP_GETATTR)) && o->u.getattr.maxname > 0);
    a.fh2 = &dir;
    a.name = "g";
    a.name2 = "h";
    sfs(x, NF_OP_RENAME, &a);
    a.name = "h";
    if (sfs(x, NF_OP_LOOKUP, &a) == 0)
        check(x, "rename: the new name is there", res(x, OP_GETFH) != NULL);
    if (keep) {
        printf("kept %s\n", name);
        return;
    }
    {
        static const char *const gone[] = {"h", "l", "p", "f"};
        unsigned k;

        for (k = 0; k < 4; k++) {
            a.name = gone[k];
            sfs(x, NF_OP_REMOVE, &a);
        }
    }
    a.name = "d";
    sfs(x, NF_OP_RMDIR, &a);
    a.fh = root;
    a.name = name;
    sfs(x, NF_OP_RMDIR, &a);
}

int main(int argc, char **argv)
{
    static struct tool_nf4 x;
    static struct nf4_mount m;
    struct nf_mount_opts mo;
    char err[CM_ERR_LEN];
    int keep = argc == 3 && strcmp(argv[1], "-k") == 0;

    if (argc != 2 + keep) {
        fprintf(stderr, "usage: nf4_procs [-k] MOUNT\n");
        return 2;
    }
    nf_mount_opts_init(&mo, 4);
    mo.transport = RP_TCP;
    if (nf4_mount(&m, argv[1 + keep], &mo, NULL, err, sizeof(err)) < 0) {
        fprintf(stderr, "nf4_procs: %s\n", err);
        return 1;
    }
    x.cl = m.cl;
    run(&x, &m.root, keep);
    nf4_umount(&m);
    return x.failures ? 1 : 0;
}
