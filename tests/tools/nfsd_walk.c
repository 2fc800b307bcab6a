/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_walk.c - tries to climb out of every export of an NFS server (test
 * helper for tests/integration/0760_*.t).  For each EXPORT it mounts it
 * (MOUNT v3 and v1), makes a few directories below it, then walks up with
 * LOOKUP ".." (v3 and v2) from the deepest one and from the export root,
 * and reads the ".." entry of READDIR (v3, v2) and READDIRPLUS (v3) at the
 * root: every path must end at the export root itself (its handle, its
 * file id), never at a directory above it.  Built on the project's rpcgen
 * codecs and libtirpc over an explicit port (no rpcbind).
 *   nfsd_walk [-u] PORT EXPORT...
 * Prints TAP lines; exits 1 if a check failed, 2 if it could not connect.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nfs2_prot.h"
#include "nfs3_prot.h"
#include "mount_prot.h"
#include "tool_tap.h"

static int use_udp;
static struct sockaddr_in server;

static void check(int ok, const char *export, const char *what)
{
    tool_check(ok, "%s: %s", export, what);
}

static CLIENT *client(unsigned long prog, unsigned long vers)
{
    struct timeval wait = {1, 0};
    int sock = RPC_ANYSOCK;
    CLIENT *c = use_udp ? clntudp_create(&server, prog, vers, wait, &sock)
                        : clnttcp_create(&server, prog, vers, &sock, 0, 0);

    if (c == NULL) {
        clnt_pcreateerror("nfsd_walk");
        exit(2);
    }
    c->cl_auth = authunix_create_default();
    return c;
}

static int call(CLIENT *c, unsigned long proc, void *xa, void *a, void *xr, void *r)
{
    struct timeval tv = {10, 0};
    return clnt_call(c, proc, (xdrproc_t)xa, a, (xdrproc_t)xr, r, tv) == RPC_SUCCESS;
}

static int same(const struct tool_fh3 *a, const struct tool_fh3 *b)
{
    return a->fh.data.data_len == b->fh.data.data_len &&
           memcmp(a->buf, b->buf, a->fh.data.data_len) == 0;
}

static uint64_t id_of(CLIENT *c, const struct tool_fh3 *f)
{
    GETATTR3args a = {f->fh};
    GETATTR3res r;
    uint64_t id = 0;

    memset(&r, 0, sizeof(r));
    if (call(c, NFSPROC3_GETATTR, xdr_GETATTR3args, &a, xdr_GETATTR3res, &r) &&
        r.status == NFS3_OK)
        id = r.GETATTR3res_u.resok.obj_attributes.fileid;
    clnt_freeres(c, (xdrproc_t)xdr_GETATTR3res, (char *)&r);
    return id;
}

/* LOOKUP (v3) of name in dir into out; 1 on NFS3_OK. */
static int lookup3(CLIENT *c, const struct tool_fh3 *dir, const char *nm,
                   struct tool_fh3 *out)
{
    LOOKUP3args a;
    LOOKUP3res r;
    int ok;

    a.what.dir = dir->fh;
    a.what.name = (char *)nm;
    memset(&r, 0, sizeof(r));
    ok = call(c, NFSPROC3_LOOKUP, xdr_LOOKUP3args, &a, xdr_LOOKUP3res, &r) &&
         r.status == NFS3_OK;
    if (ok)
        tool_keep_fh3(out, r.LOOKUP3res_u.resok.object.data.data_val,
                      r.LOOKUP3res_u.resok.object.data.data_len);
    clnt_freeres(c, (xdrproc_t)xdr_LOOKUP3res, (char *)&r);
    return ok;
}

/* MKDIR (v3) name in dir (EXIST is fine) and its handle into out. */
static int mkdir3(CLIENT *c, const struct tool_fh3 *dir, const char *nm,
                  struct tool_fh3 *out)
{
    MKDIR3args a;
    MKDIR3res r;

    memset(&a, 0, sizeof(a));
    a.where.dir = dir->fh;
    a.where.name = (char *)nm;
    memset(&r, 0, sizeof(r));
    call(c, NFSPROC3_MKDIR, xdr_MKDIR3args, &a, xdr_MKDIR3res, &r);
    clnt_freeres(c, (xdrproc_t)xdr_MKDIR3res, (char *)&r);
    return lookup3(c, dir, nm, out);
}

/* The ".." entry of READDIR (plus = 0) or READDIRPLUS (plus = 1) of dir:
 * its file id, and (READDIRPLUS) its handle into h.  0 when absent. */
static uint64_t dotdot3(CLIENT *c, const struct tool_fh3 *dir, int plus,
                        struct tool_fh3 *h)
{
    uint64_t id = 0;

    if (!plus) {
        READDIR3args a = {dir->fh, 0, {0}, 8192};
        READDIR3res r;
        memset(&r, 0, sizeof(r));
        if (call(c, NFSPROC3_READDIR, xdr_READDIR3args, &a, xdr_READDIR3res, &r) &&
            r.status == NFS3_OK)
            for (entry3 *e = r.READDIR3res_u.resok.reply.entries; e; e = e->nextentry)
                if (strcmp(e->name, "..") == 0)
                    id = e->fileid;
        clnt_freeres(c, (xdrproc_t)xdr_READDIR3res, (char *)&r);
    } else {
        READDIRPLUS3args a = {dir->fh, 0, {0}, 4096, 32768};
        READDIRPLUS3res r;
        memset(&r, 0, sizeof(r));
        if (call(c, NFSPROC3_READDIRPLUS, xdr_READDIRPLUS3args, &a, xdr_READDIRPLUS3res,
                 &r) &&
            r.status == NFS3_OK)
            for (entryplus3 *e = r.READDIRPLUS3res_u.resok.reply.entries; e;
                 e = e->nextentry)
                if (strcmp(e->name, "..") == 0 && e->name_handle.handle_follows) {
                    id = e->fileid;
                    tool_keep_fh3(h, e->name_handle.post_op_fh3_u.handle.data.data_val,
                                  e->name_handle.post_op_fh3_u.handle.data.data_len);
                }
        clnt_freeres(c, (xdrproc_t)xdr_READDIRPLUS3res, (char *)&r);
    }
    return id;
}

static void walk_v3(const char *export)
{
    CLIENT *m = client(MOUNT3_PROGRAM, MOUNT_V3), *c = client(NFS3_PROGRAM, NFS_V3);
    mnt3_dirpath p = (char *)export;
    struct tool_fh3 root, a, b, up, plus;
    mountres3 mr;
    uint64_t root_id;
    int stayed = 1, steps;

    memset(&mr, 0, sizeof(mr));
    if (!call(m, MOUNTPROC3_MNT, xdr_mnt3_dirpath, &p, xdr_mountres3, &mr) ||
        mr.fhs_status != MNT3_OK) {
        check(0, export, "MNT3");
        return;
    }
    tool_keep_fh3(&root, mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val,
                  mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len);
    clnt_freeres(m, (xdrproc_t)xdr_mountres3, (char *)&mr);
    root_id = id_of(c, &root);
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    check(mkdir3(c, &root, "walk-a", &a) && mkdir3(c, &a, "walk-b", &b), export,
          "v3 MKDIR walk-a/walk-b");
    check(lookup3(c, &root, "..", &up) && same(&up, &root), export,
          "v3 LOOKUP .. at the export root gives the export root");
    /* from the deepest directory: two steps reach the root, and further
     * steps stay there */
    up = b;
    for (steps = 0; steps < 6; steps++) {
        if (!lookup3(c, &up, "..", &up)) {
            stayed = 0;
            break;
        }
        if (steps >= 1 && !same(&up, &root))
            stayed = 0;
    }
    check(stayed, export, "v3 LOOKUP .. six times from walk-a/walk-b ends at the root");
    check(id_of(c, &up) == root_id, export, "... with the root's file id");
    check(dotdot3(c, &root, 0, NULL) == root_id, export,
          "v3 READDIR: the root's .. entry is the root");
    memset(&plus, 0, sizeof(plus));
    check(dotdot3(c, &root, 1, &plus) == root_id && same(&plus, &root), export,
          "v3 READDIRPLUS: the root's .. entry has the root's handle");
    check(dotdot3(c, &a, 1, &plus) == root_id && same(&plus, &root), export,
          "v3 READDIRPLUS: walk-a's .. entry is the root");
    clnt_destroy(m);
    clnt_destroy(c);
}

/* v2: MNT1, LOOKUP ".." from the root and from walk-a, READDIR's "..". */
static void walk_v2(const char *export)
{
    CLIENT *m = client(MOUNTPROG, MOUNTVERS), *c = client(NFS_PROGRAM, NFS_VERSION);
    dirpath p = (char *)export;
    fhstatus fs;
    nfs_fh root, dir;
    diropargs da;
    diropres dr;
    readdirargs ra;
    readdirres rr;
    u_int root_id = 0, dd = 0;
    int ok;

    memset(&fs, 0, sizeof(fs));
    if (!call(m, MOUNTPROC_MNT, xdr_dirpath, &p, xdr_fhstatus, &fs) || fs.fhs_status) {
        check(0, export, "MNT1");
        return;
    }
    memcpy(root.data, fs.fhstatus_u.fhs_fhandle, NFS_FHSIZE);
    memset(&dr, 0, sizeof(dr));
    da.dir = root;
    da.name = "..";
    ok = call(c, NFSPROC_LOOKUP, xdr_diropargs, &da, xdr_diropres, &dr) &&
         dr.status == NFS_OK &&
         memcmp(dr.diropres_u.diropres.file.data, root.data, NFS_FHSIZE) == 0;
    check(ok, export, "v2 LOOKUP .. at the export root gives the export root");
    memset(&dr, 0, sizeof(dr));
    da.name = "walk-a";
    ok = call(c, NFSPROC_LOOKUP, xdr_diropargs, &da, xdr_diropres, &dr) &&
         dr.status == NFS_OK;
    dir = dr.diropres_u.diropres.file;
    memset(&dr, 0, sizeof(dr));
    da.dir = dir;
    da.name = "..";
    ok = ok && call(c, NFSPROC_LOOKUP, xdr_diropargs, &da, xdr_diropres, &dr) &&
         dr.status == NFS_OK;
    da.dir = dr.diropres_u.diropres.file;
    memset(&dr, 0, sizeof(dr));
    ok = ok && call(c, NFSPROC_LOOKUP, xdr_diropargs, &da, xdr_diropres, &dr) &&
         dr.status == NFS_OK &&
         memcmp(dr.diropres_u.diropres.file.data, root.data, NFS_FHSIZE) == 0;
    root_id = dr.diropres_u.diropres.attributes.fileid;
    check(ok, export, "v2 LOOKUP .. twice from walk-a ends at the root");
    memset(&ra, 0, sizeof(ra));
    ra.dir = root;
    ra.count = 8192;
    memset(&rr, 0, sizeof(rr));
    if (call(c, NFSPROC_READDIR, xdr_readdirargs, &ra, xdr_readdirres, &rr) &&
        rr.status == NFS_OK)
        for (entry *e = rr.readdirres_u.reply.entries; e; e = e->nextentry)
            if (strcmp(e->name, "..") == 0)
                dd = e->fileid;
    clnt_freeres(c, (xdrproc_t)xdr_readdirres, (char *)&rr);
    check(dd != 0 && dd == root_id, export,
          "v2 READDIR: the root's .. entry is the root");
    clnt_destroy(m);
    clnt_destroy(c);
}

int main(int argc, char **argv)
{
    int a = 1;

    if (a < argc && strcmp(argv[a], "-u") == 0) {
        use_udp = 1;
        a++;
    }
    if (argc - a < 2) {
        fprintf(stderr, "usage: nfsd_walk [-u] PORT EXPORT...\n");
        return 2;
    }
    tool_loopback(&server, argv[a]);
    for (int i = a + 1; i < argc; i++) {
        walk_v3(argv[i]);
        walk_v2(argv[i]);
    }
    return tool_done();
}
