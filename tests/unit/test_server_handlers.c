/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_handlers.c - unit tests of sfs_nfsd's handlers as a client
 * sees them: the server core on socketpairs (tests/unit/helpers/th_core.h)
 * and the project's own client engine and typed calls (nfm3_mnt,
 * nf3_lookup...) on the near ends - no network.  Covers ".." at an
 * export's root, ACCESS and data checks against the AUTH_SYS credential,
 * --root-squash, MNT through symbolic links, a bad credential answered
 * AUTH_ERROR, and the --change-handles / --wrong-attrs / --drop-dirents
 * faults. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "helpers/th_core.h"
#include "nfs/nf.h"

struct fix {
    struct th_core t;
    struct rp_client *mnt, *nfs, *other; /* other: uid 2000, gid 2000 */
    nfs_fh3 root;
    char rootbuf[NFS3_FHSIZE];
};

/* A core (cfg adjusted by the test through tweak), a MOUNT v3 client and
 * an NFSv3 client whose calls carry uid/gid; the export root mounted. */
static void start(struct fix *f, void (*tweak)(struct sv_config *), int64_t uid,
                  int64_t gid)
{
    struct sv_config cfg;
    struct rp_client_opts o;
    mnt3_dirpath path = "/export";
    mountres3 mr;

    sv_config_defaults(&cfg);
    cfg.instance = 7;
    if (tweak)
        tweak(&cfg);
    assert_int_equal(th_core_start(&f->t, &cfg, 3), 0);
    assert_int_equal(th_core_client(&f->t, 0, MOUNT3_PROGRAM, MOUNT_V3, NULL, &f->mnt),
                     0);
    rp_client_opts_init(&o);
    o.uid = uid;
    o.gid = gid;
    o.ngids = 0;
    assert_int_equal(th_core_client(&f->t, 1, NFS3_PROGRAM, NFS_V3, &o, &f->nfs), 0);
    o.uid = o.gid = 2000;
    assert_int_equal(th_core_client(&f->t, 2, NFS3_PROGRAM, NFS_V3, &o, &f->other), 0);
    memset(&mr, 0, sizeof(mr));
    assert_int_equal(nfm3_mnt(f->mnt, &path, &mr), 0);
    assert_int_equal(mr.fhs_status, MNT3_OK);
    f->root.data.data_len = mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len;
    memcpy(f->rootbuf, mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val,
           f->root.data.data_len);
    f->root.data.data_val = f->rootbuf;
    xdr_free((xdrproc_t)xdr_mountres3, (char *)&mr);
}

/* LOOKUP3 of name in dir: status; the handle copied into buf/out. */
static int lookup(struct fix *f, const nfs_fh3 *dir, const char *nm, nfs_fh3 *out,
                  char *buf)
{
    LOOKUP3args a = {{*dir, (char *)nm}};
    LOOKUP3res r;
    int st;

    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_lookup(f->nfs, &a, &r), 0);
    st = r.status;
    if (st == NFS3_OK && out) {
        out->data.data_len = r.LOOKUP3res_u.resok.object.data.data_len;
        memcpy(buf, r.LOOKUP3res_u.resok.object.data.data_val, out->data.data_len);
        out->data.data_val = buf;
    }
    xdr_free((xdrproc_t)xdr_LOOKUP3res, (char *)&r);
    return st;
}

/* CREATE3 (GUARDED) of name in dir with mode; status, owner in *uid. */
static int create(struct fix *f, const nfs_fh3 *dir, const char *nm, int mode,
                  uint32_t *uid)
{
    CREATE3args a;
    CREATE3res r;
    int st;

    memset(&a, 0, sizeof(a));
    a.where.dir = *dir;
    a.where.name = (char *)nm;
    a.how.mode = GUARDED;
    a.how.createhow3_u.obj_attributes.mode.set_it = 1;
    a.how.createhow3_u.obj_attributes.mode.set_mode3_u.mode = (mode3)mode;
    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_create(f->nfs, &a, &r), 0);
    st = r.status;
    if (st == NFS3_OK && uid)
        *uid = r.CREATE3res_u.resok.obj_attributes.post_op_attr_u.attributes.uid;
    xdr_free((xdrproc_t)xdr_CREATE3res, (char *)&r);
    return st;
}

static uint32_t access_bits(struct rp_client *c, const nfs_fh3 *obj)
{
    ACCESS3args a = {*obj, 0x3f};
    ACCESS3res r;

    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_access(c, &a, &r), 0);
    assert_int_equal(r.status, NFS3_OK);
    return r.ACCESS3res_u.resok.access;
}

static void dotdot_of_the_export_root_is_the_root(void **state)
{
    struct fix f;
    nfs_fh3 up;
    char buf[NFS3_FHSIZE];

    (void)state;
    start(&f, NULL, 0, 0);
    assert_int_equal(lookup(&f, &f.root, "..", &up, buf), NFS3_OK);
    assert_int_equal(up.data.data_len, f.root.data.data_len);
    assert_memory_equal(buf, f.rootbuf, up.data.data_len);
    th_core_stop(&f.t);
}

static int read_status(struct rp_client *c, const nfs_fh3 *fh)
{
    READ3args a = {*fh, 0, 16};
    READ3res r;
    int st;

    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_read(c, &a, &r), 0);
    st = r.status;
    xdr_free((xdrproc_t)xdr_READ3res, (char *)&r);
    return st;
}

static void access_follows_the_credential(void **state)
{
    struct fix f;
    nfs_fh3 fh;
    char buf[NFS3_FHSIZE];
    uint32_t uid = 0;

    (void)state;
    start(&f, NULL, 1000, 1000); /* the export is 0777: anyone creates */
    assert_int_equal(create(&f, &f.root, "mine", 0600, &uid), NFS3_OK);
    assert_int_equal(uid, 1000);
    assert_int_equal(lookup(&f, &f.root, "mine", &fh, buf), NFS3_OK);
    assert_int_equal(access_bits(f.nfs, &fh),
                     ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND);
    assert_int_equal(read_status(f.nfs, &fh), NFS3_OK);
    /* another user: nothing, and READ is refused */
    assert_int_equal(access_bits(f.other, &fh), 0);
    assert_int_equal(read_status(f.other, &fh), NFS3ERR_ACCES);
    /* the export root is 0777 for both */
    assert_int_equal(access_bits(f.other, &f.root), 0x1f);
    th_core_stop(&f.t);
}

static void squash(struct sv_config *cfg)
{
    cfg->root_squash = 1;
}

static void root_squash_makes_root_nobody(void **state)
{
    struct fix f;
    uint32_t uid = 0;

    (void)state;
    start(&f, squash, 0, 0);
    assert_int_equal(create(&f, &f.root, "by-root", 0644, &uid), NFS3_OK);
    assert_int_equal(uid, 65534);
    th_core_stop(&f.t);
}

static void changing(struct sv_config *cfg)
{
    cfg->fault.change_fh_pct = 100;
    cfg->fault.wrong_attrs_pct = 100;
}

static void faults_change_handles_and_attributes(void **state)
{
    struct fix f;
    nfs_fh3 a, b;
    char abuf[NFS3_FHSIZE], bbuf[NFS3_FHSIZE];
    GETATTR3args ga;
    GETATTR3res gr;

    (void)state;
    start(&f, changing, 0, 0);
    assert_int_equal(create(&f, &f.root, "f", 0644, NULL), NFS3_OK);
    assert_int_equal(lookup(&f, &f.root, "f", &a, abuf), NFS3_OK);
    assert_int_equal(lookup(&f, &f.root, "f", &b, bbuf), NFS3_OK);
    assert_memory_not_equal(abuf, bbuf, a.data.data_len);
    ga.object = b; /* a changed handle still works ... */
    memset(&gr, 0, sizeof(gr));
    assert_int_equal(nf3_getattr(f.nfs, &ga, &gr), 0);
    assert_int_equal(gr.status, NFS3_OK);
    /* ... and the attributes lie: an empty 0644 file */
    assert_int_equal(gr.GETATTR3res_u.resok.obj_attributes.size, 1);
    assert_int_equal(gr.GETATTR3res_u.resok.obj_attributes.mode, 0644 ^ 0777);
    th_core_stop(&f.t);
}

static void mnt_follows_links_inside_the_export_only(void **state)
{
    struct fix f;
    SYMLINK3args a;
    SYMLINK3res r;
    mnt3_dirpath in = "/export/in", out = "/export/out";
    mountres3 mr;
    static const char *const targets[][2] = {{"in", "."}, {"out", "/"}};

    (void)state;
    start(&f, NULL, 0, 0);
    for (int i = 0; i < 2; i++) {
        memset(&a, 0, sizeof(a));
        a.where.dir = f.root;
        a.where.name = (char *)targets[i][0];
        a.symlink.symlink_data = (char *)targets[i][1];
        memset(&r, 0, sizeof(r));
        assert_int_equal(nf3_symlink(f.nfs, &a, &r), 0);
        assert_int_equal(r.status, NFS3_OK);
        xdr_free((xdrproc_t)xdr_SYMLINK3res, (char *)&r);
    }
    memset(&mr, 0, sizeof(mr));
    assert_int_equal(nfm3_mnt(f.mnt, &in, &mr), 0);
    assert_int_equal(mr.fhs_status, MNT3_OK); /* in -> . is the export */
    assert_memory_equal(mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val, f.rootbuf,
                        f.root.data.data_len);
    xdr_free((xdrproc_t)xdr_mountres3, (char *)&mr);
    memset(&mr, 0, sizeof(mr));
    assert_int_equal(nfm3_mnt(f.mnt, &out, &mr), 0);
    assert_int_equal(mr.fhs_status, MNT3ERR_ACCES); /* out -> / is not */
    th_core_stop(&f.t);
}

/* The client engine cannot send a bad credential; a raw record can: a
 * NULL call whose AUTH_SYS credential claims 500 bytes (RFC 5531 allows
 * 400) is answered MSG_DENIED, AUTH_ERROR, AUTH_BADCRED. */
static void bad_credential_gets_auth_error(void **state)
{
    static const uint8_t call[] = {
        0x80, 0, 0,    36,   0, 0, 0, 9, /* mark, xid 9 */
        0,    0, 0,    0,    0, 0, 0, 2, /* CALL, RPC 2 */
        0,    1, 0x86, 0xa3, 0, 0, 0, 3, /* NFS, v3 */
        0,    0, 0,    0,    0, 0, 0, 1, /* NULL, AUTH_SYS */
        0,    0, 0x01, 0xf4, 0, 0, 0, 0, /* 500 bytes ... */
    };
    uint8_t reply[64];
    struct th_core t;
    size_t got = 0;

    (void)state;
    assert_int_equal(th_core_start(&t, NULL, 1), 0);
    assert_int_equal(write(t.fds[0], call, sizeof(call)), (ssize_t)sizeof(call));
    while (got < 24) {
        struct pollfd p = {t.fds[0], POLLIN, 0};
        ssize_t n;
        assert_int_equal(poll(&p, 1, 5000), 1); /* bounded: no reply fails */
        n = read(t.fds[0], reply + got, sizeof(reply) - got);
        assert_true(n > 0);
        got += (size_t)n;
    }
    assert_int_equal(reply[7], 9);  /* xid */
    assert_int_equal(reply[15], 1); /* MSG_DENIED */
    assert_int_equal(reply[19], 1); /* AUTH_ERROR */
    assert_int_equal(reply[23], 1); /* AUTH_BADCRED */
    th_core_stop(&t);
}

static void dropping(struct sv_config *cfg)
{
    cfg->fault.drop_dirent_pct = 100;
}

static void drop_dirents_hides_one_name(void **state)
{
    struct fix f;
    READDIR3args a;
    READDIR3res r;
    int names = 0;

    (void)state;
    start(&f, dropping, 0, 0);
    assert_int_equal(create(&f, &f.root, "one", 0644, NULL), NFS3_OK);
    assert_int_equal(create(&f, &f.root, "two", 0644, NULL), NFS3_OK);
    memset(&a, 0, sizeof(a));
    a.dir = f.root;
    a.count = 4096;
    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_readdir(f.nfs, &a, &r), 0);
    assert_int_equal(r.status, NFS3_OK);
    for (entry3 *e = r.READDIR3res_u.resok.reply.entries; e; e = e->nextentry)
        names += strcmp(e->name, "one") == 0 || strcmp(e->name, "two") == 0;
    assert_int_equal(names, 1);
    assert_true(r.READDIR3res_u.resok.reply.eof);
    xdr_free((xdrproc_t)xdr_READDIR3res, (char *)&r);
    th_core_stop(&f.t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dotdot_of_the_export_root_is_the_root),
        cmocka_unit_test(access_follows_the_credential),
        cmocka_unit_test(root_squash_makes_root_nobody),
        cmocka_unit_test(faults_change_handles_and_attributes),
        cmocka_unit_test(mnt_follows_links_inside_the_export_only),
        cmocka_unit_test(bad_credential_gets_auth_error),
        cmocka_unit_test(drop_dirents_hides_one_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
