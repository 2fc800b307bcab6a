/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_procs.c - integration helper: mounts a server with the nfs layer and
 * calls every procedure of NFSv3 (22) or NFSv2 (18) through the typed
 * wrappers of nf.h, on a scratch directory it creates and removes again,
 * checking the decoded results (data read back, link targets, directory
 * entries).  One line per call:
 *
 *   ok  <proc>            RPC reply decoded, NFS status OK
 *   nfs <proc> <STATUS>   RPC reply decoded, another NFS status
 *   rpc <proc> <error>    no decoded reply (PROC_UNAVAIL, timeout...)
 *   check <what> ok|FAIL  a check of a decoded value
 *
 * Exit 0 when every call got a decoded RPC reply and every check passed.
 *
 *   nf_procs [-2|-3] [-Q] MOUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nfs/nf.h"
#include "common/error.h"

struct ctx {
    struct rp_client *c;
    enum nf_prog prog;
    int failures;
};

/* One typed call's outcome, printed; returns the NFS status (or -1 when
 * the RPC failed).  The caller frees res with done(). */
static int report(struct ctx *x, uint32_t proc, int rc, const void *res)
{
    const struct nf_proc *row = nf_proc_row(x->prog, proc);
    uint32_t st;

    if (rc < 0) {
        printf("rpc %s %s\n", row->name, rp_status_text(rc));
        if (rc != RP_ERR_PROC_UNAVAIL)
            x->failures++;
        return -1;
    }
    /* every result but "nothing" starts with the status */
    st = row->res_codec == (xdrproc_t)xdr_nf_void ? 0 : *(const uint32_t *)res;
    if (st == 0)
        printf("ok %s\n", row->name);
    else
        printf("nfs %s %s\n", row->name, nf_status_name(st));
    return (int)st;
}

static void done(struct ctx *x, uint32_t proc, void *res)
{
    xdr_free(nf_proc_row(x->prog, proc)->res_codec, res);
}

static void check(struct ctx *x, const char *what, int good)
{
    printf("check %s %s\n", what, good ? "ok" : "FAIL");
    if (!good)
        x->failures++;
}

/* ---- NFSv3 ---------------------------------------------------------------- */

/* Takes the handle out of a CREATE/MKDIR/SYMLINK/MKNOD result. */
static void take_fh3(struct nf_fh *out, const post_op_fh3 *p)
{
    if (p->handle_follows)
        (void)nf_fh_from_v3(out, &p->post_op_fh3_u.handle);
}

static void remove3(struct ctx *x, const struct nf_fh *dir, const char *nm)
{
    REMOVE3args a;
    union nf3_res r;

    memset(&r, 0, sizeof(r));
    nf_fh_to_v3(dir, &a.object.dir);
    a.object.name = (char *)(uintptr_t)nm;
    if (report(x, NFSPROC3_REMOVE, nf3_remove(x->c, &a, &r.remove), &r) >= 0)
        done(x, NFSPROC3_REMOVE, &r);
}

/* Looks name up in dir and says whether any entry list has it. */
static int dir_has3(const entry3 *e, const char *nm)
{
    for (; e; e = e->nextentry)
        if (strcmp(e->name, nm) == 0)
            return 1;
    return 0;
}

static int dir_has3plus(const entryplus3 *e, const char *nm)
{
    for (; e; e = e->nextentry)
        if (strcmp(e->name, nm) == 0)
            return 1;
    return 0;
}

static void run3(struct ctx *x, const struct nf_fh *root)
{
    static char text[] = "hello, nfs v3 world";
    char dname[64];
    struct nf_fh d = {0, {0}}, f = {0, {0}}, s = {0, {0}}, p = {0, {0}};
    union nf3_args a;
    union nf3_res r;
    nf_void none = {0};

#define CALL3(PROC, nm)                                                                  \
    (memset(&r, 0, sizeof(r)), report(x, PROC, nf3_##nm(x->c, &a.nm, &r.nm), &r))

    snprintf(dname, sizeof(dname), "nf_procs.%ld", (long)getpid());
    if (report(x, NFSPROC3_NULL, nf3_null(x->c, &none, &none), &none) < 0)
        return;
    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(root, &a.fsinfo.fsroot);
    if (CALL3(NFSPROC3_FSINFO, fsinfo) == 0)
        check(x, "fsinfo_rtmax", r.fsinfo.FSINFO3res_u.resok.rtmax > 0);
    done(x, NFSPROC3_FSINFO, &r);
    nf_fh_to_v3(root, &a.fsstat.fsroot);
    CALL3(NFSPROC3_FSSTAT, fsstat);
    done(x, NFSPROC3_FSSTAT, &r);
    nf_fh_to_v3(root, &a.pathconf.object);
    CALL3(NFSPROC3_PATHCONF, pathconf);
    done(x, NFSPROC3_PATHCONF, &r);
    nf_fh_to_v3(root, &a.access.object);
    a.access.access = ACCESS3_READ | ACCESS3_LOOKUP;
    CALL3(NFSPROC3_ACCESS, access);
    done(x, NFSPROC3_ACCESS, &r);

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(root, &a.mkdir.where.dir);
    a.mkdir.where.name = dname;
    a.mkdir.attributes.mode.set_it = TRUE;
    a.mkdir.attributes.mode.set_mode3_u.mode = 0755;
    if (CALL3(NFSPROC3_MKDIR, mkdir) == 0)
        take_fh3(&d, &r.mkdir.MKDIR3res_u.resok.obj);
    done(x, NFSPROC3_MKDIR, &r);
    if (!d.len)
        return;

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.create.where.dir);
    a.create.where.name = "f";
    a.create.how.mode = UNCHECKED;
    a.create.how.createhow3_u.obj_attributes.mode.set_it = TRUE;
    a.create.how.createhow3_u.obj_attributes.mode.set_mode3_u.mode = 0644;
    if (CALL3(NFSPROC3_CREATE, create) == 0)
        take_fh3(&f, &r.create.CREATE3res_u.resok.obj);
    done(x, NFSPROC3_CREATE, &r);
    if (f.len) {
        memset(&a, 0, sizeof(a));
        nf_fh_to_v3(&f, &a.write.file);
        a.write.count = sizeof(text) - 1;
        a.write.stable = UNSTABLE;
        a.write.data.data_len = sizeof(text) - 1;
        a.write.data.data_val = text;
        if (CALL3(NFSPROC3_WRITE, write) == 0)
            check(x, "write_count", r.write.WRITE3res_u.resok.count == sizeof(text) - 1);
        done(x, NFSPROC3_WRITE, &r);
        memset(&a, 0, sizeof(a));
        nf_fh_to_v3(&f, &a.commit.file);
        CALL3(NFSPROC3_COMMIT, commit);
        done(x, NFSPROC3_COMMIT, &r);
        memset(&a, 0, sizeof(a));
        nf_fh_to_v3(&f, &a.read.file);
        a.read.count = 4096;
        if (CALL3(NFSPROC3_READ, read) == 0)
            check(x, "read_back",
                  r.read.READ3res_u.resok.data.data_len == sizeof(text) - 1 &&
                      memcmp(r.read.READ3res_u.resok.data.data_val, text,
                             sizeof(text) - 1) == 0);
        done(x, NFSPROC3_READ, &r);
        memset(&a, 0, sizeof(a));
        nf_fh_to_v3(&f, &a.setattr.object);
        a.setattr.new_attributes.size.set_it = TRUE;
        a.setattr.new_attributes.size.set_size3_u.size = 5;
        CALL3(NFSPROC3_SETATTR, setattr);
        done(x, NFSPROC3_SETATTR, &r);
        memset(&a, 0, sizeof(a));
        nf_fh_to_v3(&f, &a.getattr.object);
        if (CALL3(NFSPROC3_GETATTR, getattr) == 0)
            check(x, "setattr_size",
                  r.getattr.GETATTR3res_u.resok.obj_attributes.size == 5);
        done(x, NFSPROC3_GETATTR, &r);
    }

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.lookup.what.dir);
    a.lookup.what.name = "f";
    if (CALL3(NFSPROC3_LOOKUP, lookup) == 0) {
        struct nf_fh got;

        check(x, "lookup_handle",
              nf_fh_from_v3(&got, &r.lookup.LOOKUP3res_u.resok.object) == 0 &&
                  nf_fh_equal(&got, &f));
    }
    done(x, NFSPROC3_LOOKUP, &r);

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.symlink.where.dir);
    a.symlink.where.name = "s";
    a.symlink.symlink.symlink_data = "f";
    if (CALL3(NFSPROC3_SYMLINK, symlink) == 0)
        take_fh3(&s, &r.symlink.SYMLINK3res_u.resok.obj);
    done(x, NFSPROC3_SYMLINK, &r);
    if (s.len) {
        memset(&a, 0, sizeof(a));
        nf_fh_to_v3(&s, &a.readlink.symlink);
        if (CALL3(NFSPROC3_READLINK, readlink) == 0)
            check(x, "readlink_target",
                  strcmp(r.readlink.READLINK3res_u.resok.data, "f") == 0);
        done(x, NFSPROC3_READLINK, &r);
    }

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&f, &a.link.file);
    nf_fh_to_v3(&d, &a.link.link.dir);
    a.link.link.name = "h";
    CALL3(NFSPROC3_LINK, link);
    done(x, NFSPROC3_LINK, &r);

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.mknod.where.dir);
    a.mknod.where.name = "p";
    a.mknod.what.type = NF3FIFO;
    if (CALL3(NFSPROC3_MKNOD, mknod) == 0)
        take_fh3(&p, &r.mknod.MKNOD3res_u.resok.obj);
    done(x, NFSPROC3_MKNOD, &r);

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.readdir.dir);
    a.readdir.count = 8192;
    if (CALL3(NFSPROC3_READDIR, readdir) == 0)
        check(x, "readdir_names",
              dir_has3(r.readdir.READDIR3res_u.resok.reply.entries, "f") &&
                  dir_has3(r.readdir.READDIR3res_u.resok.reply.entries, "s") &&
                  dir_has3(r.readdir.READDIR3res_u.resok.reply.entries, "h"));
    done(x, NFSPROC3_READDIR, &r);
    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.readdirplus.dir);
    a.readdirplus.dircount = 4096;
    a.readdirplus.maxcount = 16384;
    if (CALL3(NFSPROC3_READDIRPLUS, readdirplus) == 0)
        check(x, "readdirplus_names",
              dir_has3plus(r.readdirplus.READDIRPLUS3res_u.resok.reply.entries, "f") &&
                  dir_has3plus(r.readdirplus.READDIRPLUS3res_u.resok.reply.entries, "h"));
    done(x, NFSPROC3_READDIRPLUS, &r);

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&d, &a.rename.from.dir);
    a.rename.from.name = "h";
    nf_fh_to_v3(&d, &a.rename.to.dir);
    a.rename.to.name = "h2";
    CALL3(NFSPROC3_RENAME, rename);
    done(x, NFSPROC3_RENAME, &r);

    remove3(x, &d, "f");
    remove3(x, &d, "h2");
    remove3(x, &d, "s");
    if (p.len)
        remove3(x, &d, "p");
    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(root, &a.rmdir.object.dir);
    a.rmdir.object.name = dname;
    CALL3(NFSPROC3_RMDIR, rmdir);
    done(x, NFSPROC3_RMDIR, &r);
#undef CALL3
}

/* ---- NFSv2 ---------------------------------------------------------------- */

static void unset_sattr(sattr *s)
{
    memset(s, 0xff, sizeof(*s)); /* -1: do not set (RFC 1094 2.3.6) */
}

static void dirop2(diropargs *a, const struct nf_fh *dir, const char *nm)
{
    nf_fh_to_v2(dir, &a->dir);
    a->name = (char *)(uintptr_t)nm;
}

static void run2(struct ctx *x, const struct nf_fh *root)
{
    static char text[] = "hello, nfs v2 world";
    char dname[64];
    struct nf_fh d = {0, {0}}, f = {0, {0}}, s = {0, {0}};
    union nf2_args a;
    union nf2_res r;
    nf_void none = {0};

#define CALL2(PROC, nm)                                                                  \
    (memset(&r, 0, sizeof(r)), report(x, PROC, nf2_##nm(x->c, &a.nm, &r.nm), &r))

    snprintf(dname, sizeof(dname), "nf_procs.%ld", (long)getpid());
    if (report(x, NFSPROC_NULL, nf2_null(x->c, &none, &none), &none) < 0)
        return;
    (void)report(x, NFSPROC_ROOT, nf2_root(x->c, &none, &none), &none);
    (void)report(x, NFSPROC_WRITECACHE, nf2_writecache(x->c, &none, &none), &none);
    memset(&a, 0, sizeof(a));
    nf_fh_to_v2(root, &a.statfs);
    CALL2(NFSPROC_STATFS, statfs);
    done(x, NFSPROC_STATFS, &r);
    nf_fh_to_v2(root, &a.getattr);
    CALL2(NFSPROC_GETATTR, getattr);
    done(x, NFSPROC_GETATTR, &r);

    memset(&a, 0, sizeof(a));
    dirop2(&a.mkdir.where, root, dname);
    unset_sattr(&a.mkdir.attributes);
    a.mkdir.attributes.mode = 0755;
    if (CALL2(NFSPROC_MKDIR, mkdir) == 0)
        nf_fh_from_v2(&d, &r.mkdir.diropres_u.diropres.file);
    done(x, NFSPROC_MKDIR, &r);
    if (!d.len)
        return;
    memset(&a, 0, sizeof(a));
    dirop2(&a.create.where, &d, "f");
    unset_sattr(&a.create.attributes);
    a.create.attributes.mode = 0644;
    if (CALL2(NFSPROC_CREATE, create) == 0)
        nf_fh_from_v2(&f, &r.create.diropres_u.diropres.file);
    done(x, NFSPROC_CREATE, &r);
    if (f.len) {
        memset(&a, 0, sizeof(a));
        nf_fh_to_v2(&f, &a.write.file);
        a.write.data.data_len = sizeof(text) - 1;
        a.write.data.data_val = text;
        CALL2(NFSPROC_WRITE, write);
        done(x, NFSPROC_WRITE, &r);
        memset(&a, 0, sizeof(a));
        nf_fh_to_v2(&f, &a.read.file);
        a.read.count = 4096;
        if (CALL2(NFSPROC_READ, read) == 0)
            check(x, "read_back",
                  r.read.readres_u.reply.data.data_len == sizeof(text) - 1 &&
                      memcmp(r.read.readres_u.reply.data.data_val, text,
                             sizeof(text) - 1) == 0);
        done(x, NFSPROC_READ, &r);
        memset(&a, 0, sizeof(a));
        nf_fh_to_v2(&f, &a.setattr.file);
        unset_sattr(&a.setattr.attributes);
        a.setattr.attributes.size = 5;
        if (CALL2(NFSPROC_SETATTR, setattr) == 0)
            check(x, "setattr_size", r.setattr.attrstat_u.attributes.size == 5);
        done(x, NFSPROC_SETATTR, &r);
    }
    memset(&a, 0, sizeof(a));
    dirop2(&a.lookup, &d, "f");
    if (CALL2(NFSPROC_LOOKUP, lookup) == 0) {
        struct nf_fh got;

        nf_fh_from_v2(&got, &r.lookup.diropres_u.diropres.file);
        check(x, "lookup_handle", nf_fh_equal(&got, &f));
    }
    done(x, NFSPROC_LOOKUP, &r);
    memset(&a, 0, sizeof(a));
    dirop2(&a.symlink.from, &d, "s");
    a.symlink.to = "f";
    unset_sattr(&a.symlink.attributes);
    CALL2(NFSPROC_SYMLINK, symlink);
    done(x, NFSPROC_SYMLINK, &r);
    memset(&a, 0, sizeof(a));
    dirop2(&a.lookup, &d, "s");
    if (CALL2(NFSPROC_LOOKUP, lookup) == 0)
        nf_fh_from_v2(&s, &r.lookup.diropres_u.diropres.file);
    done(x, NFSPROC_LOOKUP, &r);
    if (s.len) {
        memset(&a, 0, sizeof(a));
        nf_fh_to_v2(&s, &a.readlink);
        if (CALL2(NFSPROC_READLINK, readlink) == 0)
            check(x, "readlink_target", strcmp(r.readlink.readlinkres_u.data, "f") == 0);
        done(x, NFSPROC_READLINK, &r);
    }
    memset(&a, 0, sizeof(a));
    nf_fh_to_v2(&f, &a.link.from);
    dirop2(&a.link.to, &d, "h");
    CALL2(NFSPROC_LINK, link);
    done(x, NFSPROC_LINK, &r);
    memset(&a, 0, sizeof(a));
    nf_fh_to_v2(&d, &a.readdir.dir);
    a.readdir.count = 8192;
    if (CALL2(NFSPROC_READDIR, readdir) == 0) {
        const entry *e;
        int found = 0;

        for (e = r.readdir.readdirres_u.reply.entries; e; e = e->nextentry)
            found += strcmp(e->name, "f") == 0 || strcmp(e->name, "h") == 0;
        check(x, "readdir_names", found == 2);
    }
    done(x, NFSPROC_READDIR, &r);
    memset(&a, 0, sizeof(a));
    dirop2(&a.rename.from, &d, "h");
    dirop2(&a.rename.to, &d, "h2");
    CALL2(NFSPROC_RENAME, rename);
    done(x, NFSPROC_RENAME, &r);
    memset(&a, 0, sizeof(a));
    dirop2(&a.remove, &d, "f");
    CALL2(NFSPROC_REMOVE, remove);
    dirop2(&a.remove, &d, "h2");
    CALL2(NFSPROC_REMOVE, remove);
    dirop2(&a.remove, &d, "s");
    CALL2(NFSPROC_REMOVE, remove);
    dirop2(&a.rmdir, root, dname);
    CALL2(NFSPROC_RMDIR, rmdir);
#undef CALL2
}

int main(int argc, char **argv)
{
    struct nf_mount_opts o;
    struct nf_mount m;
    struct ctx x;
    char err[CM_ERR_LEN];
    int opt, version = 3;

    nf_mount_opts_init(&o, 3);
    while ((opt = getopt(argc, argv, "23Q")) != -1) {
        if (opt == '2' || opt == '3')
            version = opt - '0';
        else if (opt == 'Q')
            o.transport = RP_TCP;
        else
            return 2;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "usage: nf_procs [-2|-3] [-Q] MOUNT\n");
        return 2;
    }
    o.nfs_version = version;
    if (nf_mount(&m, argv[optind], &o, err, sizeof(err)) < 0) {
        fprintf(stderr, "nf_procs: %s\n", err);
        return 1;
    }
    memset(&x, 0, sizeof(x));
    x.c = m.nfs;
    x.prog = version == 2 ? NF_NFS2 : NF_NFS3;
    if (version == 2)
        run2(&x, &m.root);
    else
        run3(&x, &m.root);
    nf_umount(&m);
    return x.failures ? 1 : 0;
}
