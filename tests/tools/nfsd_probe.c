/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_probe.c - a protocol conformance probe for sfs_nfsd (test helper
 * for tests/integration/07NN_*.t), built on the project's rpcgen codecs
 * and libtirpc's clnt_call over an explicit port (no rpcbind).
 *   nfsd_probe [-u] v3|v2|mount|rpc PORT EXPORT
 * runs every procedure of the chosen program version at least once with
 * its error paths (NOENT, EXIST, NOTDIR, ISDIR, NOTEMPTY, STALE...), and
 * "rpc" checks the RPC-level errors (PROG_MISMATCH, PROG_UNAVAIL,
 * PROC_UNAVAIL, GARBAGE_ARGS).  -u uses UDP instead of TCP.  Prints TAP
 * lines; exits 1 if a check failed, 2 if it could not connect.
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

static int n_checks, n_failed, use_udp;
static struct sockaddr_in server;

static void check(int ok, const char *what, long got, long want)
{
    n_checks++;
    if (ok) {
        printf("ok %d - %s\n", n_checks, what);
    } else {
        n_failed++;
        printf("not ok %d - %s (got %ld, expected %ld)\n", n_checks, what, got, want);
    }
}

static CLIENT *client(unsigned long prog, unsigned long vers)
{
    struct timeval wait = {1, 0};
    int sock = RPC_ANYSOCK;
    CLIENT *c;

    if (use_udp)
        c = clntudp_create(&server, prog, vers, wait, &sock);
    else
        c = clnttcp_create(&server, prog, vers, &sock, 0, 0);
    if (c == NULL) {
        clnt_pcreateerror("nfsd_probe");
        exit(2);
    }
    c->cl_auth = authunix_create_default();
    return c;
}

static enum clnt_stat call(CLIENT *c, unsigned long proc, void *xa, void *a, void *xr,
                           void *r)
{
    struct timeval tv = {10, 0};
    return clnt_call(c, proc, (xdrproc_t)xa, a, (xdrproc_t)xr, r, tv);
}

/* Calls and checks the RPC succeeded and the status (first member of
 * every NFS result) is want. */
#define NFS(c, proc, xa, a, xr, r, want, what)                                           \
    do {                                                                                 \
        memset(&(r), 0, sizeof(r));                                                      \
        enum clnt_stat cs_ = call(c, proc, (void *)xa, &(a), (void *)xr, &(r));          \
        if (cs_ != RPC_SUCCESS)                                                          \
            check(0, what, (long)cs_, 0);                                                \
        else                                                                             \
            check(*(int *)&(r) == (int)(want), what, *(int *)&(r), (long)(want));        \
    } while (0)

static char no_args;

/* ---- MOUNT ---------------------------------------------------------------- */

static void fh3_from_mnt(const char *export, nfs_fh3 *root, char *buf)
{
    CLIENT *c = client(MOUNT3_PROGRAM, MOUNT_V3);
    mnt3_dirpath p = (char *)export;
    mountres3 r;

    NFS(c, MOUNTPROC3_MNT, xdr_mnt3_dirpath, p, xdr_mountres3, r, MNT3_OK, "MNT3 export");
    if (r.fhs_status == MNT3_OK) {
        root->data.data_len = r.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len;
        memcpy(buf, r.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val,
               root->data.data_len);
        root->data.data_val = buf;
    }
    clnt_freeres(c, (xdrproc_t)xdr_mountres3, (char *)&r);
    clnt_destroy(c);
}

static void mount_checks(const char *export)
{
    CLIENT *c1 = client(MOUNTPROG, MOUNTVERS), *c3 = client(MOUNT3_PROGRAM, MOUNT_V3);
    char sub[1100], bad[] = "/not-exported";
    dirpath p1 = (char *)export, pb = bad;
    mnt3_dirpath p3 = (char *)export;
    fhstatus f1;
    mountres3 m3;
    mountlist ml = NULL;
    mnt3_list ml3 = NULL;
    exports ex = NULL;
    mnt3_exports ex3 = NULL;
    int found;

    check(call(c1, MOUNTPROC_NULL, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS,
          "MOUNT1 NULL", 0, 0);
    check(call(c3, MOUNTPROC3_NULL, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS,
          "MOUNT3 NULL", 0, 0);
    NFS(c1, MOUNTPROC_MNT, xdr_dirpath, p1, xdr_fhstatus, f1, 0, "MNT1 export");
    NFS(c1, MOUNTPROC_MNT, xdr_dirpath, pb, xdr_fhstatus, f1, MNT3ERR_ACCES,
        "MNT1 not exported: ACCES");
    NFS(c3, MOUNTPROC3_MNT, xdr_mnt3_dirpath, p3, xdr_mountres3, m3, MNT3_OK,
        "MNT3 export");
    clnt_freeres(c3, (xdrproc_t)xdr_mountres3, (char *)&m3);
    snprintf(sub, sizeof(sub), "%s/missing", export);
    p3 = sub;
    NFS(c3, MOUNTPROC3_MNT, xdr_mnt3_dirpath, p3, xdr_mountres3, m3, MNT3ERR_NOENT,
        "MNT3 missing subdirectory: NOENT");
    snprintf(sub, sizeof(sub), "%s/..", export);
    NFS(c3, MOUNTPROC3_MNT, xdr_mnt3_dirpath, p3, xdr_mountres3, m3, MNT3ERR_INVAL,
        "MNT3 climbing out with ..: INVAL");
    check(call(c1, MOUNTPROC_DUMP, xdr_void, NULL, xdr_mountlist, &ml) == RPC_SUCCESS &&
              ml != NULL && strcmp(ml->ml_directory, export) == 0,
          "MOUNT1 DUMP lists the mount", 0, 0);
    clnt_freeres(c1, (xdrproc_t)xdr_mountlist, (char *)&ml);
    check(call(c3, MOUNTPROC3_DUMP, xdr_void, NULL, xdr_mnt3_list, &ml3) == RPC_SUCCESS &&
              ml3 != NULL,
          "MOUNT3 DUMP lists the mounts", 0, 0);
    clnt_freeres(c3, (xdrproc_t)xdr_mnt3_list, (char *)&ml3);
    found = call(c1, MOUNTPROC_EXPORT, xdr_void, NULL, xdr_exports, &ex) == RPC_SUCCESS &&
            ex != NULL && strcmp(ex->ex_dir, export) == 0;
    check(found, "MOUNT1 EXPORT lists the export", 0, 0);
    clnt_freeres(c1, (xdrproc_t)xdr_exports, (char *)&ex);
    found = call(c3, MOUNTPROC3_EXPORT, xdr_void, NULL, xdr_mnt3_exports, &ex3) ==
                RPC_SUCCESS &&
            ex3 != NULL && strcmp(ex3->ex_dir, export) == 0;
    check(found, "MOUNT3 EXPORT lists the export", 0, 0);
    clnt_freeres(c3, (xdrproc_t)xdr_mnt3_exports, (char *)&ex3);
    p3 = (char *)export;
    check(call(c3, MOUNTPROC3_UMNT, xdr_mnt3_dirpath, &p3, xdr_void, NULL) == RPC_SUCCESS,
          "MOUNT3 UMNT", 0, 0);
    check(call(c1, MOUNTPROC_UMNT, xdr_dirpath, &p1, xdr_void, NULL) == RPC_SUCCESS,
          "MOUNT1 UMNT", 0, 0);
    check(call(c1, MOUNTPROC_UMNTALL, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS,
          "MOUNT1 UMNTALL", 0, 0);
    check(call(c3, MOUNTPROC3_UMNTALL, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS,
          "MOUNT3 UMNTALL", 0, 0);
    check(call(c3, MOUNTPROC3_DUMP, xdr_void, NULL, xdr_mnt3_list, &ml3) == RPC_SUCCESS &&
              ml3 == NULL,
          "DUMP empty after UMNTALL", 0, 0);
    clnt_destroy(c1);
    clnt_destroy(c3);
}

/* ---- NFSv3 ------------------------------------------------------------------ */

/* Copies a handle out of a result (results are freed after each call). */
struct fh3 {
    nfs_fh3 fh;
    char buf[NFS3_FHSIZE];
};

static void keep3(struct fh3 *k, const nfs_fh3 *fh)
{
    k->fh.data.data_len = fh->data.data_len;
    memcpy(k->buf, fh->data.data_val, fh->data.data_len);
    k->fh.data.data_val = k->buf;
}

static diropargs3 dop3(struct fh3 *dir, const char *nm)
{
    diropargs3 d;
    d.dir = dir->fh;
    d.name = (char *)nm;
    return d;
}

/* CREATE/MKDIR/SYMLINK/MKNOD result handle (same layout in all four). */
static void keep_made(struct fh3 *k, const post_op_fh3 *o)
{
    if (o->handle_follows)
        keep3(k, &o->post_op_fh3_u.handle);
}

static void v3_checks(const char *export)
{
    CLIENT *c = client(NFS3_PROGRAM, NFS_V3);
    struct fh3 root, d, f, x, gone;
    char rootbuf[NFS3_FHSIZE], data[8192], verf[8];
    union {
        GETATTR3res getattr;
        SETATTR3res setattr;
        LOOKUP3res lookup;
        ACCESS3res access;
        READLINK3res readlink;
        READ3res read;
        WRITE3res write;
        CREATE3res create;
        MKDIR3res mkdir;
        SYMLINK3res symlink;
        MKNOD3res mknod;
        REMOVE3res remove;
        RMDIR3res rmdir;
        RENAME3res rename;
        LINK3res link;
        READDIR3res readdir;
        READDIRPLUS3res readdirplus;
        FSSTAT3res fsstat;
        FSINFO3res fsinfo;
        PATHCONF3res pathconf;
        COMMIT3res commit;
    } r;
    GETATTR3args ga;
    SETATTR3args sa;
    LOOKUP3args la;
    ACCESS3args aa;
    READLINK3args rla;
    READ3args ra;
    WRITE3args wa;
    CREATE3args ca;
    MKDIR3args ma;
    SYMLINK3args sla;
    MKNOD3args mna;
    REMOVE3args rma;
    RENAME3args rna;
    LINK3args lka;
    READDIR3args rda;
    READDIRPLUS3args rpa;
    COMMIT3args cma;
    int i, n, found;

    fh3_from_mnt(export, &root.fh, rootbuf);
    keep3(&root, &root.fh);
    check(call(c, NFSPROC3_NULL, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS,
          "v3 NULL", 0, 0);
    ga.object = root.fh;
    NFS(c, NFSPROC3_GETATTR, xdr_GETATTR3args, ga, xdr_GETATTR3res, r.getattr, NFS3_OK,
        "v3 GETATTR root");
    check(r.getattr.GETATTR3res_u.resok.obj_attributes.type == NF3DIR,
          "root is a directory", 0, 0);
    memset(&gone, 0, sizeof(gone));
    gone.fh.data.data_len = 32;
    gone.fh.data.data_val = gone.buf;
    ga.object = gone.fh;
    NFS(c, NFSPROC3_GETATTR, xdr_GETATTR3args, ga, xdr_GETATTR3res, r.getattr,
        NFS3ERR_BADHANDLE, "v3 GETATTR foreign handle: BADHANDLE");
    NFS(c, NFSPROC3_FSINFO, xdr_FSINFO3args, ga, xdr_FSINFO3res, r.fsinfo,
        NFS3ERR_BADHANDLE, "v3 FSINFO foreign handle: BADHANDLE");
    ga.object = root.fh;
    NFS(c, NFSPROC3_FSINFO, xdr_FSINFO3args, ga, xdr_FSINFO3res, r.fsinfo, NFS3_OK,
        "v3 FSINFO");
    NFS(c, NFSPROC3_FSSTAT, xdr_FSSTAT3args, ga, xdr_FSSTAT3res, r.fsstat, NFS3_OK,
        "v3 FSSTAT");
    NFS(c, NFSPROC3_PATHCONF, xdr_PATHCONF3args, ga, xdr_PATHCONF3res, r.pathconf,
        NFS3_OK, "v3 PATHCONF");
    check(r.pathconf.PATHCONF3res_u.resok.name_max == 255, "name_max 255", 0, 0);

    /* MKDIR, CREATE in its three modes */
    memset(&ma, 0, sizeof(ma));
    ma.where = dop3(&root, "v3dir");
    NFS(c, NFSPROC3_MKDIR, xdr_MKDIR3args, ma, xdr_MKDIR3res, r.mkdir, NFS3_OK,
        "v3 MKDIR");
    keep_made(&d, &r.mkdir.MKDIR3res_u.resok.obj);
    check(r.mkdir.MKDIR3res_u.resok.dir_wcc.before.attributes_follow &&
              r.mkdir.MKDIR3res_u.resok.dir_wcc.after.attributes_follow,
          "MKDIR has wcc data", 0, 0);
    clnt_freeres(c, (xdrproc_t)xdr_MKDIR3res, (char *)&r);
    NFS(c, NFSPROC3_MKDIR, xdr_MKDIR3args, ma, xdr_MKDIR3res, r.mkdir, NFS3ERR_EXIST,
        "v3 MKDIR again: EXIST");
    memset(&ca, 0, sizeof(ca));
    ca.where = dop3(&d, "f");
    ca.how.mode = UNCHECKED;
    NFS(c, NFSPROC3_CREATE, xdr_CREATE3args, ca, xdr_CREATE3res, r.create, NFS3_OK,
        "v3 CREATE");
    keep_made(&f, &r.create.CREATE3res_u.resok.obj);
    clnt_freeres(c, (xdrproc_t)xdr_CREATE3res, (char *)&r);
    ca.how.mode = GUARDED;
    NFS(c, NFSPROC3_CREATE, xdr_CREATE3args, ca, xdr_CREATE3res, r.create, NFS3ERR_EXIST,
        "v3 CREATE GUARDED existing: EXIST");
    ca.where = dop3(&d, "x");
    ca.how.mode = EXCLUSIVE;
    memcpy(ca.how.createhow3_u.verf, "verifier", 8);
    NFS(c, NFSPROC3_CREATE, xdr_CREATE3args, ca, xdr_CREATE3res, r.create, NFS3_OK,
        "v3 CREATE EXCLUSIVE");
    keep_made(&x, &r.create.CREATE3res_u.resok.obj);
    clnt_freeres(c, (xdrproc_t)xdr_CREATE3res, (char *)&r);
    NFS(c, NFSPROC3_CREATE, xdr_CREATE3args, ca, xdr_CREATE3res, r.create, NFS3_OK,
        "v3 CREATE EXCLUSIVE retransmitted: OK");
    clnt_freeres(c, (xdrproc_t)xdr_CREATE3res, (char *)&r);
    memcpy(ca.how.createhow3_u.verf, "another!", 8);
    NFS(c, NFSPROC3_CREATE, xdr_CREATE3args, ca, xdr_CREATE3res, r.create, NFS3ERR_EXIST,
        "v3 CREATE EXCLUSIVE other verifier: EXIST");
    ca.where = dop3(&f, "under-a-file");
    ca.how.mode = UNCHECKED;
    memset(&ca.how.createhow3_u, 0, sizeof(ca.how.createhow3_u));
    NFS(c, NFSPROC3_CREATE, xdr_CREATE3args, ca, xdr_CREATE3res, r.create, NFS3ERR_NOTDIR,
        "v3 CREATE in a file: NOTDIR");

    /* WRITE at the three stability levels, COMMIT, READ back */
    for (i = 0; i < (int)sizeof(data); i++)
        data[i] = (char)(i * 7 + 3);
    memset(&wa, 0, sizeof(wa));
    wa.file = f.fh;
    wa.count = sizeof(data);
    wa.data.data_len = sizeof(data);
    wa.data.data_val = data;
    for (i = UNSTABLE; i <= FILE_SYNC; i++) {
        wa.stable = (stable_how)i;
        wa.offset = (offset3)i * sizeof(data);
        NFS(c, NFSPROC3_WRITE, xdr_WRITE3args, wa, xdr_WRITE3res, r.write, NFS3_OK,
            i == UNSTABLE    ? "v3 WRITE UNSTABLE"
            : i == DATA_SYNC ? "v3 WRITE DATA_SYNC"
                             : "v3 WRITE FILE_SYNC");
        check(r.write.WRITE3res_u.resok.count == sizeof(data) &&
                  r.write.WRITE3res_u.resok.file_wcc.after.attributes_follow,
              "WRITE count and wcc", 0, 0);
        memcpy(verf, r.write.WRITE3res_u.resok.verf, 8);
    }
    memset(&cma, 0, sizeof(cma));
    cma.file = f.fh;
    NFS(c, NFSPROC3_COMMIT, xdr_COMMIT3args, cma, xdr_COMMIT3res, r.commit, NFS3_OK,
        "v3 COMMIT");
    check(memcmp(r.commit.COMMIT3res_u.resok.verf, verf, 8) == 0,
          "COMMIT verifier equals WRITE's", 0, 0);
    cma.file = d.fh;
    NFS(c, NFSPROC3_COMMIT, xdr_COMMIT3args, cma, xdr_COMMIT3res, r.commit, NFS3ERR_ISDIR,
        "v3 COMMIT directory: ISDIR");
    memset(&ra, 0, sizeof(ra));
    ra.file = f.fh;
    ra.offset = sizeof(data);
    ra.count = sizeof(data);
    NFS(c, NFSPROC3_READ, xdr_READ3args, ra, xdr_READ3res, r.read, NFS3_OK, "v3 READ");
    check(r.read.READ3res_u.resok.count == sizeof(data) &&
              memcmp(r.read.READ3res_u.resok.data.data_val, data, sizeof(data)) == 0,
          "READ gives the written bytes", 0, 0);
    clnt_freeres(c, (xdrproc_t)xdr_READ3res, (char *)&r);
    ra.offset = 3 * sizeof(data);
    NFS(c, NFSPROC3_READ, xdr_READ3args, ra, xdr_READ3res, r.read, NFS3_OK,
        "v3 READ at end of file");
    check(r.read.READ3res_u.resok.count == 0 && r.read.READ3res_u.resok.eof, "eof", 0, 0);
    clnt_freeres(c, (xdrproc_t)xdr_READ3res, (char *)&r);
    ra.file = d.fh;
    NFS(c, NFSPROC3_READ, xdr_READ3args, ra, xdr_READ3res, r.read, NFS3ERR_ISDIR,
        "v3 READ directory: ISDIR");
    wa.file = d.fh;
    NFS(c, NFSPROC3_WRITE, xdr_WRITE3args, wa, xdr_WRITE3res, r.write, NFS3ERR_ISDIR,
        "v3 WRITE directory: ISDIR");

    /* LOOKUP, ACCESS, SETATTR */
    la.what = dop3(&d, "f");
    NFS(c, NFSPROC3_LOOKUP, xdr_LOOKUP3args, la, xdr_LOOKUP3res, r.lookup, NFS3_OK,
        "v3 LOOKUP");
    check(r.lookup.LOOKUP3res_u.resok.object.data.data_len == f.fh.data.data_len &&
              memcmp(r.lookup.LOOKUP3res_u.resok.object.data.data_val, f.buf,
                     f.fh.data.data_len) == 0,
          "LOOKUP gives the same handle as CREATE", 0, 0);
    clnt_freeres(c, (xdrproc_t)xdr_LOOKUP3res, (char *)&r);
    la.what = dop3(&d, "missing");
    NFS(c, NFSPROC3_LOOKUP, xdr_LOOKUP3args, la, xdr_LOOKUP3res, r.lookup, NFS3ERR_NOENT,
        "v3 LOOKUP missing: NOENT");
    la.what = dop3(&f, "x");
    NFS(c, NFSPROC3_LOOKUP, xdr_LOOKUP3args, la, xdr_LOOKUP3res, r.lookup, NFS3ERR_NOTDIR,
        "v3 LOOKUP in a file: NOTDIR");
    aa.object = f.fh;
    aa.access = ACCESS3_READ | ACCESS3_MODIFY;
    NFS(c, NFSPROC3_ACCESS, xdr_ACCESS3args, aa, xdr_ACCESS3res, r.access, NFS3_OK,
        "v3 ACCESS");
    memset(&sa, 0, sizeof(sa));
    sa.object = f.fh;
    sa.new_attributes.size.set_it = 1;
    sa.new_attributes.size.set_size3_u.size = 100;
    NFS(c, NFSPROC3_SETATTR, xdr_SETATTR3args, sa, xdr_SETATTR3res, r.setattr, NFS3_OK,
        "v3 SETATTR size");
    check(
        r.setattr.SETATTR3res_u.resok.obj_wcc.before.attributes_follow &&
            r.setattr.SETATTR3res_u.resok.obj_wcc.before.pre_op_attr_u.attributes.size ==
                3 * sizeof(data) &&
            r.setattr.SETATTR3res_u.resok.obj_wcc.after.post_op_attr_u.attributes.size ==
                100,
        "SETATTR wcc shows size before and after", 0, 0);
    sa.guard.check = 1;
    sa.guard.sattrguard3_u.obj_ctime.seconds = 1;
    NFS(c, NFSPROC3_SETATTR, xdr_SETATTR3args, sa, xdr_SETATTR3res, r.setattr,
        NFS3ERR_NOT_SYNC, "v3 SETATTR stale guard: NOT_SYNC");

    /* SYMLINK, READLINK, MKNOD, LINK */
    memset(&sla, 0, sizeof(sla));
    sla.where = dop3(&d, "s");
    sla.symlink.symlink_data = "f";
    NFS(c, NFSPROC3_SYMLINK, xdr_SYMLINK3args, sla, xdr_SYMLINK3res, r.symlink, NFS3_OK,
        "v3 SYMLINK");
    {
        struct fh3 s;
        keep_made(&s, &r.symlink.SYMLINK3res_u.resok.obj);
        clnt_freeres(c, (xdrproc_t)xdr_SYMLINK3res, (char *)&r);
        rla.symlink = s.fh;
        NFS(c, NFSPROC3_READLINK, xdr_READLINK3args, rla, xdr_READLINK3res, r.readlink,
            NFS3_OK, "v3 READLINK");
        check(strcmp(r.readlink.READLINK3res_u.resok.data, "f") == 0, "READLINK target",
              0, 0);
        clnt_freeres(c, (xdrproc_t)xdr_READLINK3res, (char *)&r);
    }
    rla.symlink = f.fh;
    NFS(c, NFSPROC3_READLINK, xdr_READLINK3args, rla, xdr_READLINK3res, r.readlink,
        NFS3ERR_INVAL, "v3 READLINK of a file: INVAL");
    memset(&mna, 0, sizeof(mna));
    mna.where = dop3(&d, "fifo");
    mna.what.type = NF3FIFO;
    NFS(c, NFSPROC3_MKNOD, xdr_MKNOD3args, mna, xdr_MKNOD3res, r.mknod, NFS3_OK,
        "v3 MKNOD fifo");
    clnt_freeres(c, (xdrproc_t)xdr_MKNOD3res, (char *)&r);
    mna.where = dop3(&d, "reg");
    mna.what.type = NF3REG;
    NFS(c, NFSPROC3_MKNOD, xdr_MKNOD3args, mna, xdr_MKNOD3res, r.mknod, NFS3ERR_BADTYPE,
        "v3 MKNOD regular: BADTYPE");
    lka.file = f.fh;
    lka.link = dop3(&d, "f2");
    NFS(c, NFSPROC3_LINK, xdr_LINK3args, lka, xdr_LINK3res, r.link, NFS3_OK, "v3 LINK");
    check(r.link.LINK3res_u.resok.file_attributes.post_op_attr_u.attributes.nlink == 2,
          "LINK nlink 2", 0, 0);
    NFS(c, NFSPROC3_LINK, xdr_LINK3args, lka, xdr_LINK3res, r.link, NFS3ERR_EXIST,
        "v3 LINK existing name: EXIST");
    lka.file = d.fh;
    lka.link = dop3(&root, "dirlink");
    NFS(c, NFSPROC3_LINK, xdr_LINK3args, lka, xdr_LINK3res, r.link, NFS3ERR_ISDIR,
        "v3 LINK a directory: ISDIR");

    /* READDIR and READDIRPLUS */
    memset(&rda, 0, sizeof(rda));
    rda.dir = d.fh;
    rda.count = 8192;
    NFS(c, NFSPROC3_READDIR, xdr_READDIR3args, rda, xdr_READDIR3res, r.readdir, NFS3_OK,
        "v3 READDIR");
    n = found = 0;
    for (entry3 *e = r.readdir.READDIR3res_u.resok.reply.entries; e; e = e->nextentry) {
        n++;
        found += strcmp(e->name, "f2") == 0;
    }
    check(n == 7 && found && r.readdir.READDIR3res_u.resok.reply.eof,
          "READDIR: . .. f x s fifo f2, eof", n, 7);
    clnt_freeres(c, (xdrproc_t)xdr_READDIR3res, (char *)&r);
    rda.cookie = 999999;
    NFS(c, NFSPROC3_READDIR, xdr_READDIR3args, rda, xdr_READDIR3res, r.readdir,
        NFS3ERR_BAD_COOKIE, "v3 READDIR unknown cookie: BAD_COOKIE");
    rda.cookie = 0;
    rda.dir = f.fh;
    NFS(c, NFSPROC3_READDIR, xdr_READDIR3args, rda, xdr_READDIR3res, r.readdir,
        NFS3ERR_NOTDIR, "v3 READDIR of a file: NOTDIR");
    memset(&rpa, 0, sizeof(rpa));
    rpa.dir = d.fh;
    rpa.dircount = 4096;
    rpa.maxcount = 32768;
    NFS(c, NFSPROC3_READDIRPLUS, xdr_READDIRPLUS3args, rpa, xdr_READDIRPLUS3res,
        r.readdirplus, NFS3_OK, "v3 READDIRPLUS");
    n = found = 0;
    for (entryplus3 *e = r.readdirplus.READDIRPLUS3res_u.resok.reply.entries; e;
         e = e->nextentry) {
        n++;
        found += e->name_attributes.attributes_follow && e->name_handle.handle_follows;
    }
    check(n == 7 && found == 7, "READDIRPLUS: every entry has attributes and a handle", n,
          7);
    clnt_freeres(c, (xdrproc_t)xdr_READDIRPLUS3res, (char *)&r);
    rpa.maxcount = 10;
    NFS(c, NFSPROC3_READDIRPLUS, xdr_READDIRPLUS3args, rpa, xdr_READDIRPLUS3res,
        r.readdirplus, NFS3ERR_TOOSMALL, "v3 READDIRPLUS maxcount 10: TOOSMALL");

    /* RENAME, REMOVE, RMDIR, STALE */
    rna.from = dop3(&d, "f2");
    rna.to = dop3(&d, "f3");
    NFS(c, NFSPROC3_RENAME, xdr_RENAME3args, rna, xdr_RENAME3res, r.rename, NFS3_OK,
        "v3 RENAME");
    check(r.rename.RENAME3res_u.resok.fromdir_wcc.after.attributes_follow &&
              r.rename.RENAME3res_u.resok.todir_wcc.after.attributes_follow,
          "RENAME wcc for both directories", 0, 0);
    NFS(c, NFSPROC3_RENAME, xdr_RENAME3args, rna, xdr_RENAME3res, r.rename, NFS3ERR_NOENT,
        "v3 RENAME missing: NOENT");
    ma.where = dop3(&d, "sub");
    NFS(c, NFSPROC3_MKDIR, xdr_MKDIR3args, ma, xdr_MKDIR3res, r.mkdir, NFS3_OK,
        "v3 MKDIR sub");
    clnt_freeres(c, (xdrproc_t)xdr_MKDIR3res, (char *)&r);
    rna.from = dop3(&d, "f3");
    rna.to = dop3(&d, "sub");
    NFS(c, NFSPROC3_RENAME, xdr_RENAME3args, rna, xdr_RENAME3res, r.rename, NFS3ERR_ISDIR,
        "v3 RENAME file over directory: ISDIR");
    rna.from = dop3(&root, "v3dir");
    rna.to = dop3(&d, "inside");
    NFS(c, NFSPROC3_RENAME, xdr_RENAME3args, rna, xdr_RENAME3res, r.rename, NFS3ERR_INVAL,
        "v3 RENAME directory into itself: INVAL");
    rma.object = dop3(&root, "v3dir");
    NFS(c, NFSPROC3_REMOVE, xdr_REMOVE3args, rma, xdr_REMOVE3res, r.remove, NFS3ERR_ISDIR,
        "v3 REMOVE directory: ISDIR");
    NFS(c, NFSPROC3_RMDIR, xdr_RMDIR3args, rma, xdr_RMDIR3res, r.rmdir, NFS3ERR_NOTEMPTY,
        "v3 RMDIR non-empty: NOTEMPTY");
    rma.object = dop3(&d, "f");
    NFS(c, NFSPROC3_RMDIR, xdr_RMDIR3args, rma, xdr_RMDIR3res, r.rmdir, NFS3ERR_NOTDIR,
        "v3 RMDIR file: NOTDIR");
    rma.object = dop3(&d, "x");
    NFS(c, NFSPROC3_REMOVE, xdr_REMOVE3args, rma, xdr_REMOVE3res, r.remove, NFS3_OK,
        "v3 REMOVE");
    check(r.remove.REMOVE3res_u.resok.dir_wcc.before.attributes_follow, "REMOVE wcc", 0,
          0);
    NFS(c, NFSPROC3_REMOVE, xdr_REMOVE3args, rma, xdr_REMOVE3res, r.remove, NFS3ERR_NOENT,
        "v3 REMOVE again: NOENT");
    ga.object = x.fh;
    NFS(c, NFSPROC3_GETATTR, xdr_GETATTR3args, ga, xdr_GETATTR3res, r.getattr,
        NFS3ERR_STALE, "v3 GETATTR removed object: STALE");
    for (i = 0; i < 4; i++) {
        static const char *const names[] = {"f", "f3", "s", "fifo"};
        rma.object = dop3(&d, names[i]);
        NFS(c, NFSPROC3_REMOVE, xdr_REMOVE3args, rma, xdr_REMOVE3res, r.remove, NFS3_OK,
            "v3 REMOVE the rest");
    }
    ga.object = f.fh;
    NFS(c, NFSPROC3_GETATTR, xdr_GETATTR3args, ga, xdr_GETATTR3res, r.getattr,
        NFS3ERR_STALE, "v3 file gone with its last link: STALE");
    rma.object = dop3(&d, "sub");
    NFS(c, NFSPROC3_RMDIR, xdr_RMDIR3args, rma, xdr_RMDIR3res, r.rmdir, NFS3_OK,
        "v3 RMDIR sub");
    rma.object = dop3(&root, "v3dir");
    NFS(c, NFSPROC3_RMDIR, xdr_RMDIR3args, rma, xdr_RMDIR3res, r.rmdir, NFS3_OK,
        "v3 RMDIR");
    ga.object = d.fh;
    NFS(c, NFSPROC3_GETATTR, xdr_GETATTR3args, ga, xdr_GETATTR3res, r.getattr,
        NFS3ERR_STALE, "v3 removed directory: STALE");
    clnt_destroy(c);
}

/* ---- NFSv2 ------------------------------------------------------------------ */

static void v2_checks(const char *export)
{
    CLIENT *m = client(MOUNTPROG, MOUNTVERS), *c = client(NFS_PROGRAM, NFS_VERSION);
    dirpath p = (char *)export;
    fhstatus fs;
    nfs_fh root, d, f;
    union {
        attrstat attr;
        diropres dirop;
        readlinkres readlink;
        readres read;
        nfsstat stat;
        readdirres readdir;
        statfsres statfs;
    } r;
    sattrargs sa;
    diropargs da;
    readargs ra;
    writeargs wa;
    createargs ca;
    renameargs rn;
    linkargs lk;
    symlinkargs sl;
    readdirargs rd;
    char data[4096];
    int n;

    NFS(m, MOUNTPROC_MNT, xdr_dirpath, p, xdr_fhstatus, fs, 0, "v2 MNT");
    memcpy(root.data, fs.fhstatus_u.fhs_fhandle, NFS_FHSIZE);
    check(call(c, NFSPROC_NULL, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS, "v2 NULL",
          0, 0);
    check(call(c, NFSPROC_ROOT, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS, "v2 ROOT",
          0, 0);
    check(call(c, NFSPROC_WRITECACHE, xdr_void, NULL, xdr_void, NULL) == RPC_SUCCESS,
          "v2 WRITECACHE", 0, 0);
    NFS(c, NFSPROC_GETATTR, xdr_nfs_fh, root, xdr_attrstat, r.attr, NFS_OK, "v2 GETATTR");
    NFS(c, NFSPROC_STATFS, xdr_nfs_fh, root, xdr_statfsres, r.statfs, NFS_OK,
        "v2 STATFS");

    memset(&ca, 0, sizeof(ca));
    memset(&ca.attributes, 0xff, sizeof(ca.attributes));
    ca.attributes.mode = 0755;
    ca.where.dir = root;
    ca.where.name = "v2dir";
    NFS(c, NFSPROC_MKDIR, xdr_createargs, ca, xdr_diropres, r.dirop, NFS_OK, "v2 MKDIR");
    d = r.dirop.diropres_u.diropres.file;
    NFS(c, NFSPROC_MKDIR, xdr_createargs, ca, xdr_diropres, r.dirop, NFSERR_EXIST,
        "v2 MKDIR again: EXIST");
    ca.where.dir = d;
    ca.where.name = "f";
    ca.attributes.mode = 0644;
    NFS(c, NFSPROC_CREATE, xdr_createargs, ca, xdr_diropres, r.dirop, NFS_OK,
        "v2 CREATE");
    f = r.dirop.diropres_u.diropres.file;

    for (n = 0; n < (int)sizeof(data); n++)
        data[n] = (char)(n * 13 + 1);
    memset(&wa, 0, sizeof(wa));
    wa.file = f;
    wa.offset = 100;
    wa.data.data_len = sizeof(data);
    wa.data.data_val = data;
    NFS(c, NFSPROC_WRITE, xdr_writeargs, wa, xdr_attrstat, r.attr, NFS_OK, "v2 WRITE");
    check(r.attr.attrstat_u.attributes.size == 100 + sizeof(data), "v2 WRITE size", 0, 0);
    wa.offset = 0xffffffffu - sizeof(data) + 1; /* the file would pass 2^32 - 1 */
    NFS(c, NFSPROC_WRITE, xdr_writeargs, wa, xdr_attrstat, r.attr, NFSERR_FBIG,
        "v2 WRITE beyond 32-bit sizes: FBIG");
    wa.offset = 100;
    wa.file = d;
    NFS(c, NFSPROC_WRITE, xdr_writeargs, wa, xdr_attrstat, r.attr, NFSERR_ISDIR,
        "v2 WRITE directory: ISDIR");
    memset(&ra, 0, sizeof(ra));
    ra.file = f;
    ra.offset = 100;
    ra.count = sizeof(data);
    NFS(c, NFSPROC_READ, xdr_readargs, ra, xdr_readres, r.read, NFS_OK, "v2 READ");
    check(r.read.readres_u.reply.data.data_len == sizeof(data) &&
              memcmp(r.read.readres_u.reply.data.data_val, data, sizeof(data)) == 0,
          "v2 READ gives the written bytes", 0, 0);
    clnt_freeres(c, (xdrproc_t)xdr_readres, (char *)&r);
    ra.file = d;
    NFS(c, NFSPROC_READ, xdr_readargs, ra, xdr_readres, r.read, NFSERR_ISDIR,
        "v2 READ directory: ISDIR");

    memset(&sa, 0xff, sizeof(sa));
    sa.file = f;
    sa.attributes.size = 10;
    NFS(c, NFSPROC_SETATTR, xdr_sattrargs, sa, xdr_attrstat, r.attr, NFS_OK,
        "v2 SETATTR");
    check(r.attr.attrstat_u.attributes.size == 10, "v2 SETATTR size", 0, 0);
    da.dir = d;
    da.name = "f";
    NFS(c, NFSPROC_LOOKUP, xdr_diropargs, da, xdr_diropres, r.dirop, NFS_OK, "v2 LOOKUP");
    check(memcmp(r.dirop.diropres_u.diropres.file.data, f.data, NFS_FHSIZE) == 0,
          "v2 LOOKUP handle stable", 0, 0);
    da.name = "missing";
    NFS(c, NFSPROC_LOOKUP, xdr_diropargs, da, xdr_diropres, r.dirop, NFSERR_NOENT,
        "v2 LOOKUP missing: NOENT");
    da.dir = f;
    da.name = "x";
    NFS(c, NFSPROC_LOOKUP, xdr_diropargs, da, xdr_diropres, r.dirop, NFSERR_NOTDIR,
        "v2 LOOKUP in a file: NOTDIR");

    memset(&sl, 0, sizeof(sl));
    memset(&sl.attributes, 0xff, sizeof(sl.attributes));
    sl.from.dir = d;
    sl.from.name = "s";
    sl.to = "f";
    NFS(c, NFSPROC_SYMLINK, xdr_symlinkargs, sl, xdr_nfsstat, r.stat, NFS_OK,
        "v2 SYMLINK");
    NFS(c, NFSPROC_SYMLINK, xdr_symlinkargs, sl, xdr_nfsstat, r.stat, NFSERR_EXIST,
        "v2 SYMLINK again: EXIST");
    da.dir = d;
    da.name = "s";
    NFS(c, NFSPROC_LOOKUP, xdr_diropargs, da, xdr_diropres, r.dirop, NFS_OK,
        "v2 LOOKUP symlink");
    {
        nfs_fh s = r.dirop.diropres_u.diropres.file;
        NFS(c, NFSPROC_READLINK, xdr_nfs_fh, s, xdr_readlinkres, r.readlink, NFS_OK,
            "v2 READLINK");
        check(strcmp(r.readlink.readlinkres_u.data, "f") == 0, "v2 READLINK target", 0,
              0);
        clnt_freeres(c, (xdrproc_t)xdr_readlinkres, (char *)&r);
    }
    lk.from = f;
    lk.to.dir = d;
    lk.to.name = "f2";
    NFS(c, NFSPROC_LINK, xdr_linkargs, lk, xdr_nfsstat, r.stat, NFS_OK, "v2 LINK");
    lk.from = d;
    lk.to.name = "dl";
    NFS(c, NFSPROC_LINK, xdr_linkargs, lk, xdr_nfsstat, r.stat, NFSERR_ISDIR,
        "v2 LINK directory: ISDIR");
    rn.from.dir = d;
    rn.from.name = "f2";
    rn.to.dir = d;
    rn.to.name = "f3";
    NFS(c, NFSPROC_RENAME, xdr_renameargs, rn, xdr_nfsstat, r.stat, NFS_OK, "v2 RENAME");
    NFS(c, NFSPROC_RENAME, xdr_renameargs, rn, xdr_nfsstat, r.stat, NFSERR_NOENT,
        "v2 RENAME missing: NOENT");

    memset(&rd, 0, sizeof(rd));
    rd.dir = d;
    rd.count = 4096;
    NFS(c, NFSPROC_READDIR, xdr_readdirargs, rd, xdr_readdirres, r.readdir, NFS_OK,
        "v2 READDIR");
    n = 0;
    for (entry *e = r.readdir.readdirres_u.reply.entries; e; e = e->nextentry)
        n++;
    check(n == 5 && r.readdir.readdirres_u.reply.eof, "v2 READDIR: . .. f s f3", n, 5);
    clnt_freeres(c, (xdrproc_t)xdr_readdirres, (char *)&r);
    rd.dir = f;
    NFS(c, NFSPROC_READDIR, xdr_readdirargs, rd, xdr_readdirres, r.readdir, NFSERR_NOTDIR,
        "v2 READDIR of a file: NOTDIR");

    da.dir = root;
    da.name = "v2dir";
    NFS(c, NFSPROC_REMOVE, xdr_diropargs, da, xdr_nfsstat, r.stat, NFSERR_ISDIR,
        "v2 REMOVE directory: ISDIR");
    NFS(c, NFSPROC_RMDIR, xdr_diropargs, da, xdr_nfsstat, r.stat, NFSERR_NOTEMPTY,
        "v2 RMDIR non-empty: NOTEMPTY");
    da.dir = d;
    da.name = "f";
    NFS(c, NFSPROC_RMDIR, xdr_diropargs, da, xdr_nfsstat, r.stat, NFSERR_NOTDIR,
        "v2 RMDIR file: NOTDIR");
    {
        static const char *const names[] = {"f", "f3", "s"};
        for (n = 0; n < 3; n++) {
            da.name = (char *)names[n];
            NFS(c, NFSPROC_REMOVE, xdr_diropargs, da, xdr_nfsstat, r.stat, NFS_OK,
                "v2 REMOVE");
        }
    }
    NFS(c, NFSPROC_REMOVE, xdr_diropargs, da, xdr_nfsstat, r.stat, NFSERR_NOENT,
        "v2 REMOVE again: NOENT");
    NFS(c, NFSPROC_GETATTR, xdr_nfs_fh, f, xdr_attrstat, r.attr, NFSERR_STALE,
        "v2 GETATTR removed file: STALE");
    da.dir = root;
    da.name = "v2dir";
    NFS(c, NFSPROC_RMDIR, xdr_diropargs, da, xdr_nfsstat, r.stat, NFS_OK, "v2 RMDIR");
    NFS(c, NFSPROC_STATFS, xdr_nfs_fh, d, xdr_statfsres, r.statfs, NFSERR_STALE,
        "v2 STATFS removed directory: STALE");
    clnt_destroy(c);
    clnt_destroy(m);
}

/* ---- RPC-level errors ------------------------------------------------------- */

static void rpc_checks(void)
{
    CLIENT *c;
    struct rpc_err e;
    enum clnt_stat cs;

    /* NFS version 4 is served over TCP only (RFC 7530 3.1) */
    c = client(NFS3_PROGRAM, 5);
    cs = call(c, 0, xdr_void, NULL, xdr_void, NULL);
    clnt_geterr(c, &e);
    check(cs == RPC_PROGVERSMISMATCH && e.re_vers.low == 2 &&
              e.re_vers.high == (use_udp ? 3u : 4u),
          use_udp ? "NFS v5: PROG_MISMATCH 2..3 over UDP" : "NFS v5: PROG_MISMATCH 2..4",
          (long)cs, RPC_PROGVERSMISMATCH);
    clnt_destroy(c);
    c = client(NFS3_PROGRAM, 4);
    cs = call(c, 0, xdr_void, NULL, xdr_void, NULL);
    clnt_geterr(c, &e);
    if (use_udp)
        check(cs == RPC_PROGVERSMISMATCH && e.re_vers.low == 2 && e.re_vers.high == 3,
              "NFS v4 over UDP: PROG_MISMATCH 2..3", (long)cs, RPC_PROGVERSMISMATCH);
    else
        check(cs == RPC_SUCCESS, "NFS v4 NULL over TCP: answered", (long)cs, RPC_SUCCESS);
    clnt_destroy(c);
    c = client(MOUNT3_PROGRAM, 2);
    cs = call(c, 0, xdr_void, NULL, xdr_void, NULL);
    clnt_geterr(c, &e);
    check(cs == RPC_PROGVERSMISMATCH && e.re_vers.low == 1 && e.re_vers.high == 3,
          "MOUNT v2: PROG_MISMATCH 1..3", (long)cs, RPC_PROGVERSMISMATCH);
    clnt_destroy(c);
    c = client(100099, 1);
    cs = call(c, 0, xdr_void, NULL, xdr_void, NULL);
    check(cs == RPC_PROGUNAVAIL, "unknown program: PROG_UNAVAIL", (long)cs,
          RPC_PROGUNAVAIL);
    clnt_destroy(c);
    c = client(NFS3_PROGRAM, NFS_V3);
    cs = call(c, 22, xdr_void, NULL, xdr_void, NULL);
    check(cs == RPC_PROCUNAVAIL, "NFSv3 procedure 22: PROC_UNAVAIL", (long)cs,
          RPC_PROCUNAVAIL);
    cs = call(c, NFSPROC3_GETATTR, xdr_void, NULL, xdr_void, NULL);
    check(cs == RPC_CANTDECODEARGS, "GETATTR without arguments: GARBAGE_ARGS", (long)cs,
          RPC_CANTDECODEARGS);
    cs = call(c, NFSPROC3_NULL, xdr_void, NULL, xdr_void, NULL);
    check(cs == RPC_SUCCESS, "server still answers", (long)cs, RPC_SUCCESS);
    clnt_destroy(c);
    c = client(NFS_PROGRAM, NFS_VERSION);
    cs = call(c, 18, xdr_void, NULL, xdr_void, NULL);
    check(cs == RPC_PROCUNAVAIL, "NFSv2 procedure 18: PROC_UNAVAIL", (long)cs,
          RPC_PROCUNAVAIL);
    clnt_destroy(c);
}

int main(int argc, char **argv)
{
    int a = 1;
    long port;

    (void)no_args;
    if (a < argc && strcmp(argv[a], "-u") == 0) {
        use_udp = 1;
        a++;
    }
    if (argc - a != 3) {
        fprintf(stderr, "usage: nfsd_probe [-u] v3|v2|mount|rpc PORT EXPORT\n");
        return 2;
    }
    port = strtol(argv[a + 1], NULL, 10);
    memset(&server, 0, sizeof(server));
    server.sin_family = AF_INET;
    server.sin_port = htons((unsigned short)port);
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (strcmp(argv[a], "v3") == 0)
        v3_checks(argv[a + 2]);
    else if (strcmp(argv[a], "v2") == 0)
        v2_checks(argv[a + 2]);
    else if (strcmp(argv[a], "mount") == 0)
        mount_checks(argv[a + 2]);
    else if (strcmp(argv[a], "rpc") == 0)
        rpc_checks();
    else {
        fprintf(stderr, "nfsd_probe: unknown suite '%s'\n", argv[a]);
        return 2;
    }
    printf("1..%d\n", n_checks);
    return n_failed ? 1 : 0;
}
