/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_perms.c - permission checks of an NFS server seen by callers with
 * different AUTH_SYS credentials (test helper for tests/integration/
 * 0780_*.t), on 127.0.0.1 over TCP, with the project's rpcgen codecs:
 *   nfsd_perms modes PORT EXPORT    as root, makes p/ (0750) and p/f
 *       (0640) owned by 1000:1000, then checks ACCESS, LOOKUP, READ,
 *       WRITE, CREATE, READDIR and SETATTR (v3, and v2 LOOKUP/READ) as the
 *       owner, a group member, a member through its supplementary groups,
 *       another user, and root.
 *   nfsd_perms squash PORT EXPORT   (server run with --root-squash) root
 *       is nobody: it cannot read a 0600 file of uid 1000, and what it
 *       creates belongs to 65534.
 *   nfsd_perms mnt PORT EXPORT OTHER   MNT through symbolic links in
 *       EXPORT: to a directory inside it (relative and absolute targets)
 *       resolves to that directory's handle; to OTHER (another export) or
 *       above the export, and a loop, are refused.
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

static struct sockaddr_in server;
static struct timeval tmo = {10, 0};

static void check(int ok, const char *what, long got)
{
    if (ok)
        tool_check(ok, "%s", what);
    else
        tool_check(ok, "%s (got %ld)", what, got);
}

/* A client of prog/vers whose calls carry uid, gid and groups. */
static CLIENT *as(unsigned long prog, unsigned long vers, int uid, int gid, int ngids,
                  gid_t *gids)
{
    int sock = RPC_ANYSOCK;
    CLIENT *c = clnttcp_create(&server, prog, vers, &sock, 0, 0);

    if (c == NULL) {
        clnt_pcreateerror("nfsd_perms");
        exit(2);
    }
    c->cl_auth = authunix_create("probe", uid, gid, ngids, gids);
    return c;
}

/* MNT3 of path: its status, the handle in out. */
static int mnt(const char *path, struct tool_fh3 *out)
{
    CLIENT *m = as(MOUNT3_PROGRAM, MOUNT_V3, 0, 0, 0, NULL);
    mnt3_dirpath p = (char *)path;
    mountres3 r;
    int st;

    memset(&r, 0, sizeof(r));
    if (clnt_call(m, MOUNTPROC3_MNT, (xdrproc_t)xdr_mnt3_dirpath, (char *)&p,
                  (xdrproc_t)xdr_mountres3, (char *)&r, tmo) != RPC_SUCCESS) {
        fprintf(stderr, "nfsd_perms: MNT %s: no answer\n", path);
        exit(2);
    }
    st = r.fhs_status;
    if (st == MNT3_OK && out)
        tool_keep_fh3(out, r.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val,
                      r.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len);
    clnt_freeres(m, (xdrproc_t)xdr_mountres3, (char *)&r);
    clnt_destroy(m);
    return st;
}

/* One v3 call; returns the NFS status (first member of every result).
 * The result is freed; what a caller needs is copied by the helpers. */
static int nfs3(CLIENT *c, unsigned long proc, xdrproc_t xa, void *a, xdrproc_t xr,
                void *r, size_t rsize)
{
    int st;

    memset(r, 0, rsize);
    if (clnt_call(c, proc, xa, a, xr, r, tmo) != RPC_SUCCESS)
        return -1;
    st = *(int *)r;
    return st;
}

static int lookup(CLIENT *c, const struct tool_fh3 *dir, const char *nm,
                  struct tool_fh3 *out)
{
    LOOKUP3args a = {{dir->fh, (char *)nm}};
    LOOKUP3res r;
    int st = nfs3(c, NFSPROC3_LOOKUP, (xdrproc_t)xdr_LOOKUP3args, &a,
                  (xdrproc_t)xdr_LOOKUP3res, &r, sizeof(r));

    if (st == NFS3_OK && out)
        tool_keep_fh3(out, r.LOOKUP3res_u.resok.object.data.data_val,
                      r.LOOKUP3res_u.resok.object.data.data_len);
    clnt_freeres(c, (xdrproc_t)xdr_LOOKUP3res, (char *)&r);
    return st;
}

/* MKDIR or CREATE (dir 0) with mode, uid and gid (uid < 0: not set). */
static int make(CLIENT *c, const struct tool_fh3 *dir, const char *nm, int is_dir,
                int mode, int uid, int gid, struct tool_fh3 *out, unsigned *owner)
{
    sattr3 sa;
    int st;

    memset(&sa, 0, sizeof(sa));
    sa.mode.set_it = 1;
    sa.mode.set_mode3_u.mode = (mode3)mode;
    sa.uid.set_it = uid >= 0;
    sa.uid.set_uid3_u.uid = (uid3)uid;
    sa.gid.set_it = gid >= 0;
    sa.gid.set_gid3_u.gid = (gid3)gid;
    if (is_dir) {
        MKDIR3args a = {{dir->fh, (char *)nm}, sa};
        MKDIR3res r;
        st = nfs3(c, NFSPROC3_MKDIR, (xdrproc_t)xdr_MKDIR3args, &a,
                  (xdrproc_t)xdr_MKDIR3res, &r, sizeof(r));
        clnt_freeres(c, (xdrproc_t)xdr_MKDIR3res, (char *)&r);
    } else {
        CREATE3args a;
        CREATE3res r;
        a.where.dir = dir->fh;
        a.where.name = (char *)nm;
        a.how.mode = GUARDED;
        a.how.createhow3_u.obj_attributes = sa;
        st = nfs3(c, NFSPROC3_CREATE, (xdrproc_t)xdr_CREATE3args, &a,
                  (xdrproc_t)xdr_CREATE3res, &r, sizeof(r));
        if (st == NFS3_OK && owner)
            *owner = r.CREATE3res_u.resok.obj_attributes.post_op_attr_u.attributes.uid;
        clnt_freeres(c, (xdrproc_t)xdr_CREATE3res, (char *)&r);
    }
    if (st == NFS3_OK && out)
        st = lookup(c, dir, nm, out);
    return st;
}

static int access3(CLIENT *c, const struct tool_fh3 *f, uint32_t *bits)
{
    ACCESS3args a = {f->fh, 0x3f};
    ACCESS3res r;
    int st = nfs3(c, NFSPROC3_ACCESS, (xdrproc_t)xdr_ACCESS3args, &a,
                  (xdrproc_t)xdr_ACCESS3res, &r, sizeof(r));

    *bits = st == NFS3_OK ? r.ACCESS3res_u.resok.access : 0xffff;
    return st;
}

static int read3(CLIENT *c, const struct tool_fh3 *f)
{
    READ3args a = {f->fh, 0, 16};
    READ3res r;
    int st = nfs3(c, NFSPROC3_READ, (xdrproc_t)xdr_READ3args, &a, (xdrproc_t)xdr_READ3res,
                  &r, sizeof(r));

    clnt_freeres(c, (xdrproc_t)xdr_READ3res, (char *)&r);
    return st;
}

static int write3(CLIENT *c, const struct tool_fh3 *f)
{
    char data[4] = "abc";
    WRITE3args a = {f->fh, 0, 3, FILE_SYNC, {3, data}};
    WRITE3res r;
    int st = nfs3(c, NFSPROC3_WRITE, (xdrproc_t)xdr_WRITE3args, &a,
                  (xdrproc_t)xdr_WRITE3res, &r, sizeof(r));

    clnt_freeres(c, (xdrproc_t)xdr_WRITE3res, (char *)&r);
    return st;
}

static int readdir3(CLIENT *c, const struct tool_fh3 *d)
{
    READDIR3args a = {d->fh, 0, {0}, 4096};
    READDIR3res r;
    int st = nfs3(c, NFSPROC3_READDIR, (xdrproc_t)xdr_READDIR3args, &a,
                  (xdrproc_t)xdr_READDIR3res, &r, sizeof(r));

    clnt_freeres(c, (xdrproc_t)xdr_READDIR3res, (char *)&r);
    return st;
}

static int chmod3(CLIENT *c, const struct tool_fh3 *f, int mode)
{
    SETATTR3args a;
    SETATTR3res r;
    int st;

    memset(&a, 0, sizeof(a));
    a.object = f->fh;
    a.new_attributes.mode.set_it = 1;
    a.new_attributes.mode.set_mode3_u.mode = (mode3)mode;
    st = nfs3(c, NFSPROC3_SETATTR, (xdrproc_t)xdr_SETATTR3args, &a,
              (xdrproc_t)xdr_SETATTR3res, &r, sizeof(r));
    clnt_freeres(c, (xdrproc_t)xdr_SETATTR3res, (char *)&r);
    return st;
}

/* v2 READ of a v3 handle (the same 32 bytes). */
static int read2(CLIENT *c, const struct tool_fh3 *f)
{
    readargs a;
    readres r;
    int st;

    memset(&a, 0, sizeof(a));
    memcpy(a.file.data, f->buf, NFS_FHSIZE);
    a.count = 16;
    memset(&r, 0, sizeof(r));
    if (clnt_call(c, NFSPROC_READ, (xdrproc_t)xdr_readargs, (char *)&a,
                  (xdrproc_t)xdr_readres, (char *)&r, tmo) != RPC_SUCCESS)
        return -1;
    st = r.status;
    clnt_freeres(c, (xdrproc_t)xdr_readres, (char *)&r);
    return st;
}

#define RD     ACCESS3_READ
#define LK     ACCESS3_LOOKUP
#define MOD    (ACCESS3_MODIFY | ACCESS3_EXTEND)
#define DEL    ACCESS3_DELETE
#define EXEC   ACCESS3_EXECUTE
#define CHK(e) check((e), #e, 0)

static void modes(const char *export)
{
    gid_t g1000[] = {1000};
    CLIENT *root = as(NFS3_PROGRAM, NFS_V3, 0, 0, 0, NULL);
    CLIENT *owner = as(NFS3_PROGRAM, NFS_V3, 1000, 1000, 0, NULL);
    CLIENT *group = as(NFS3_PROGRAM, NFS_V3, 2000, 1000, 0, NULL);
    CLIENT *suppl = as(NFS3_PROGRAM, NFS_V3, 3000, 3000, 1, g1000);
    CLIENT *other = as(NFS3_PROGRAM, NFS_V3, 3000, 3000, 0, NULL);
    CLIENT *other2 = as(NFS_PROGRAM, NFS_VERSION, 3000, 3000, 0, NULL);
    struct tool_fh3 ex, p, f, x;
    uint32_t b;
    int st;

    if (mnt(export, &ex) != MNT3_OK) {
        check(0, "MNT the export", 0);
        return;
    }
    st = make(root, &ex, "p", 1, 0750, 1000, 1000, &p, NULL);
    check(st == NFS3_OK, "root makes p (0750, 1000:1000)", st);
    st = make(root, &p, "f", 0, 0640, 1000, 1000, &f, NULL);
    check(st == NFS3_OK, "root makes p/f (0640, 1000:1000)", st);
    st = make(root, &p, "x", 0, 0750, 1000, 1000, &x, NULL);
    check(st == NFS3_OK, "root makes p/x (0750, 1000:1000)", st);

    access3(owner, &f, &b);
    check(b == (RD | MOD), "owner: ACCESS of f is READ, MODIFY, EXTEND", b);
    access3(owner, &p, &b);
    check(b == (RD | LK | MOD | DEL), "owner: ACCESS of p is everything of a dir", b);
    access3(owner, &x, &b);
    check(b == (RD | MOD | EXEC), "owner: ACCESS of x has EXECUTE", b);
    CHK(write3(owner, &f) == NFS3_OK);
    CHK(read3(owner, &f) == NFS3_OK);

    access3(group, &f, &b);
    check(b == RD, "group member: ACCESS of f is READ only", b);
    access3(group, &p, &b);
    check(b == (RD | LK), "group member: ACCESS of p is READ and LOOKUP", b);
    CHK(lookup(group, &p, "f", NULL) == NFS3_OK);
    CHK(read3(group, &f) == NFS3_OK);
    CHK(write3(group, &f) == NFS3ERR_ACCES);
    CHK(make(group, &p, "g", 0, 0644, -1, -1, NULL, NULL) == NFS3ERR_ACCES);
    CHK(chmod3(group, &f, 0666) == NFS3ERR_PERM);

    access3(suppl, &p, &b);
    check(b == (RD | LK), "supplementary group 1000: ACCESS of p is READ and LOOKUP", b);
    CHK(lookup(suppl, &p, "f", NULL) == NFS3_OK);

    access3(other, &p, &b);
    check(b == 0, "another user: ACCESS of p grants nothing", b);
    access3(other, &f, &b);
    check(b == 0, "another user: ACCESS of f grants nothing", b);
    CHK(lookup(other, &p, "f", NULL) == NFS3ERR_ACCES);
    CHK(readdir3(other, &p) == NFS3ERR_ACCES);
    CHK(read3(other, &f) == NFS3ERR_ACCES);
    CHK(write3(other, &f) == NFS3ERR_ACCES);
    CHK(read2(other2, &f) == NFSERR_ACCES);

    access3(root, &f, &b);
    check(b == (RD | MOD), "root: ACCESS of f is READ, MODIFY, EXTEND (no x bit)", b);
    CHK(read3(root, &f) == NFS3_OK);
    CHK(write3(root, &f) == NFS3_OK);
    CHK(chmod3(owner, &f, 0600) == NFS3_OK);
    CHK(read3(group, &f) == NFS3ERR_ACCES);
    clnt_destroy(root);
    clnt_destroy(owner);
    clnt_destroy(group);
    clnt_destroy(suppl);
    clnt_destroy(other);
    clnt_destroy(other2);
}

static void squash(const char *export)
{
    CLIENT *owner = as(NFS3_PROGRAM, NFS_V3, 1000, 1000, 0, NULL);
    CLIENT *root = as(NFS3_PROGRAM, NFS_V3, 0, 0, 0, NULL);
    struct tool_fh3 ex, s;
    unsigned uid = 0;
    uint32_t b;
    int st;

    if (mnt(export, &ex) != MNT3_OK) {
        check(0, "MNT the export", 0);
        return;
    }
    st = make(owner, &ex, "secret", 0, 0600, -1, -1, &s, NULL);
    check(st == NFS3_OK, "uid 1000 makes secret (0600)", st);
    CHK(read3(root, &s) == NFS3ERR_ACCES);
    access3(root, &s, &b);
    check(b == 0, "squashed root: ACCESS of secret grants nothing", b);
    st = make(root, &ex, "by-root", 0, 0644, -1, -1, NULL, &uid);
    check(st == NFS3_OK && uid == 65534, "what squashed root creates belongs to 65534",
          (long)uid);
    clnt_destroy(owner);
    clnt_destroy(root);
}

static int symlink3(CLIENT *c, const struct tool_fh3 *dir, const char *nm,
                    const char *target)
{
    SYMLINK3args a;
    SYMLINK3res r;
    int st;

    memset(&a, 0, sizeof(a));
    a.where.dir = dir->fh;
    a.where.name = (char *)nm;
    a.symlink.symlink_data = (char *)target;
    st = nfs3(c, NFSPROC3_SYMLINK, (xdrproc_t)xdr_SYMLINK3args, &a,
              (xdrproc_t)xdr_SYMLINK3res, &r, sizeof(r));
    clnt_freeres(c, (xdrproc_t)xdr_SYMLINK3res, (char *)&r);
    return st;
}

static void mnt_links(const char *export, const char *other_export)
{
    CLIENT *root = as(NFS3_PROGRAM, NFS_V3, 0, 0, 0, NULL);
    char path[1024], abs[1024], up[1024];
    struct tool_fh3 ex, sub, deep, got;
    int st, ok = 1;

    if (mnt(export, &ex) != MNT3_OK) {
        check(0, "MNT the export", 0);
        return;
    }
    ok &= make(root, &ex, "sub", 1, 0755, -1, -1, &sub, NULL) == NFS3_OK;
    ok &= make(root, &sub, "deep", 1, 0755, -1, -1, &deep, NULL) == NFS3_OK;
    snprintf(abs, sizeof(abs), "%s/sub/deep", export);
    ok &= symlink3(root, &ex, "rel", "sub") == NFS3_OK;
    ok &= symlink3(root, &ex, "abs", abs) == NFS3_OK;
    ok &= symlink3(root, &sub, "back", "../sub/./deep") == NFS3_OK;
    ok &= symlink3(root, &ex, "other", other_export) == NFS3_OK;
    snprintf(up, sizeof(up), "../../../../..%s", other_export);
    ok &= symlink3(root, &ex, "up", up) == NFS3_OK;
    ok &= symlink3(root, &ex, "loop", "loop") == NFS3_OK;
    check(ok, "made sub/deep and links rel, abs, sub/back, other, up, loop", 0);
    snprintf(path, sizeof(path), "%s/rel", export);
    st = mnt(path, &got);
    check(st == MNT3_OK && memcmp(got.buf, sub.buf, got.fh.data.data_len) == 0,
          "MNT export/rel (-> sub) gives sub's handle", st);
    snprintf(path, sizeof(path), "%s/abs", export);
    st = mnt(path, &got);
    check(st == MNT3_OK && memcmp(got.buf, deep.buf, got.fh.data.data_len) == 0,
          "MNT export/abs (absolute -> sub/deep) gives deep's handle", st);
    snprintf(path, sizeof(path), "%s/rel/back", export);
    st = mnt(path, &got);
    check(st == MNT3_OK && memcmp(got.buf, deep.buf, got.fh.data.data_len) == 0,
          "MNT export/rel/back (../sub/./deep) gives deep's handle", st);
    snprintf(path, sizeof(path), "%s/other", export);
    st = mnt(path, NULL);
    check(st == MNT3ERR_ACCES, "MNT export/other (-> another export) is refused", st);
    snprintf(path, sizeof(path), "%s/up", export);
    st = mnt(path, NULL);
    check(st == MNT3ERR_ACCES, "MNT export/up (-> above the export) is refused", st);
    snprintf(path, sizeof(path), "%s/loop", export);
    st = mnt(path, NULL);
    check(st != MNT3_OK, "MNT export/loop is refused", st);
    clnt_destroy(root);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: nfsd_perms modes|squash PORT EXPORT | "
                        "mnt PORT EXPORT OTHER\n");
        return 2;
    }
    tool_loopback(&server, argv[2]);
    if (strcmp(argv[1], "modes") == 0)
        modes(argv[3]);
    else if (strcmp(argv[1], "squash") == 0)
        squash(argv[3]);
    else if (strcmp(argv[1], "mnt") == 0 && argc == 5)
        mnt_links(argv[3], argv[4]);
    else {
        fprintf(stderr, "nfsd_perms: bad arguments\n");
        return 2;
    }
    return tool_done();
}
