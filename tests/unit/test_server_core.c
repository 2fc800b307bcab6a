/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_core.c - unit tests for sfs_nfsd's dispatcher (src/server/
 * dispatch.c, fault.c, stats.c) through sv_core_handle: the procedure
 * tables, RPC-level answers (PROG_MISMATCH with its range, PROG_UNAVAIL,
 * PROC_UNAVAIL, GARBAGE_ARGS, RPC_MISMATCH, non-calls dropped), fault
 * injection (--error, --drop-replies, --delay-us, --exit-after) and its
 * determinism, the stats file and the counters, and handler details (v2
 * 32-bit size limit, v3 wcc data with a stale handle, MNT path rules).  Calls are encoded
 * and replies decoded with the rpcgen codecs; no sockets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers/th_text.h"
#include "common/bytes.h"
#include "server/sv_int.h"
#include "nfs2_prot.h"
#include "nfs3_prot.h"

static uint8_t msg[4096];
static uint8_t out[SV_REPLY_MAX];

/* Encodes a call with AUTH_NONE and the given arguments. */
static size_t enc_call(uint32_t xid, uint32_t rpcvers, uint32_t prog, uint32_t vers,
                       uint32_t proc, xdrproc_t xa, void *args)
{
    XDR x;
    u_int v[10] = {xid, 0, rpcvers, prog, vers, proc, 0, 0, 0, 0};
    size_t len;

    xdrmem_create(&x, (char *)msg, sizeof(msg), XDR_ENCODE);
    for (int i = 0; i < 10; i++)
        assert_true(xdr_u_int(&x, &v[i]));
    if (xa)
        assert_true(xa(&x, args));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    return len;
}

/* Decodes an accepted reply's header; returns accept_stat (or 100 +
 * reject_stat for a denied one) and leaves x positioned on the results. */
static int dec_reply(XDR *x, size_t len, uint32_t xid)
{
    u_int v[5];

    xdrmem_create(x, (char *)out, (u_int)len, XDR_DECODE);
    for (int i = 0; i < 3; i++)
        assert_true(xdr_u_int(x, &v[i]));
    assert_int_equal(v[0], xid);
    assert_int_equal(v[1], 1);
    if (v[2] == 1) {
        assert_true(xdr_u_int(x, &v[3]));
        return 100 + (int)v[3];
    }
    for (int i = 0; i < 3; i++)
        assert_true(xdr_u_int(x, &v[i]));
    return (int)v[2];
}

static struct sv_core *core_with(const struct sv_fault *f)
{
    struct sv_config cfg;
    char err[256];
    struct sv_core *c;

    sv_config_defaults(&cfg);
    cfg.instance = 7;
    if (f)
        cfg.fault = *f;
    c = sv_core_create(&cfg, err, sizeof(err));
    assert_non_null(c);
    return c;
}

/* GETATTR3 of the /export handle; returns the NFS status. */
static int getattr(struct sv_core *c, uint32_t xid, struct sv_reply *rp)
{
    struct sv_node *n;
    uint8_t fh[SV_FH_LEN];
    GETATTR3args a;
    GETATTR3res res;
    XDR x;
    size_t len;

    assert_int_equal(sv__fs_walk(c->fs, "/export", &n), 0);
    sv__fs_handle(c->fs, n, fh);
    a.object.data.data_len = SV_FH_LEN;
    a.object.data.data_val = (char *)fh;
    len = enc_call(xid, 2, NFS3_PROGRAM, NFS_V3, NFSPROC3_GETATTR,
                   (xdrproc_t)xdr_GETATTR3args, &a);
    *rp = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 0);
    if (rp->len == 0)
        return -1;
    assert_int_equal(dec_reply(&x, rp->len, xid), SUCCESS);
    memset(&res, 0, sizeof(res));
    assert_true(xdr_GETATTR3res(&x, &res));
    xdr_destroy(&x);
    return (int)res.status;
}

static void tables_are_complete(void **state)
{
    const struct sv_version *vs[] = {&sv__nfs2_version, &sv__nfs3_version,
                                     &sv__mount1_version, &sv__mount3_version};
    const uint32_t nprocs[] = {18, 22, 7, 6};

    (void)state;
    for (int v = 0; v < 4; v++) {
        const struct nf_proc_table *t = nf_proc_table(vs[v]->id);
        assert_non_null(t);
        /* a handler for every row of the shared table, and no more */
        assert_int_equal(vs[v]->nhandlers, nprocs[v]);
        assert_int_equal(t->nrows, nprocs[v]);
        assert_true(vs[v]->nhandlers <= SV_MAX_PROCS);
        for (uint32_t p = 0; p < vs[v]->nhandlers; p++) {
            assert_non_null(vs[v]->handlers[p].fn);
            assert_true(t->rows[p].args_size <= SV_ARGS_MAX);
            assert_true(t->rows[p].res_size <= SV_ARGS_MAX);
        }
    }
}

static void rpc_level_errors(void **state)
{
    struct sv_core *c = core_with(NULL);
    struct sv_reply r;
    XDR x;
    u_int low = 0, high = 0;
    size_t len;

    (void)state;
    len = enc_call(1, 2, NFS3_PROGRAM, NFS_V3, NFSPROC3_NULL, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(dec_reply(&x, r.len, 1), SUCCESS);
    len = enc_call(2, 2, NFS3_PROGRAM, 4, 0, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(dec_reply(&x, r.len, 2), PROG_MISMATCH);
    assert_true(xdr_u_int(&x, &low) && xdr_u_int(&x, &high));
    assert_int_equal(low, 2);
    assert_int_equal(high, 3); /* over UDP: NFSv4 needs TCP (RFC 7530 3.1) */
    len = enc_call(2, 2, NFS3_PROGRAM, 5, 0, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 0);
    assert_int_equal(dec_reply(&x, r.len, 2), PROG_MISMATCH);
    assert_true(xdr_u_int(&x, &low) && xdr_u_int(&x, &high));
    assert_int_equal(low, 2);
    assert_int_equal(high, 4);
    len = enc_call(3, 2, 100099, 1, 0, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(dec_reply(&x, r.len, 3), PROG_UNAVAIL);
    len = enc_call(4, 2, MOUNT3_PROGRAM, MOUNT_V3, 6, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(dec_reply(&x, r.len, 4), PROC_UNAVAIL);
    len = enc_call(5, 2, NFS3_PROGRAM, NFS_V3, NFSPROC3_GETATTR, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(dec_reply(&x, r.len, 5), GARBAGE_ARGS);
    len = enc_call(6, 3, NFS3_PROGRAM, NFS_V3, 0, NULL, NULL);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(dec_reply(&x, r.len, 6), 100 + RPC_MISMATCH);
    /* a reply, not a call: nothing to answer */
    len = enc_call(7, 2, NFS3_PROGRAM, NFS_V3, 0, NULL, NULL);
    msg[7] = 1;
    r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 1);
    assert_int_equal(r.len, 0);
    for (size_t cut = 0; cut < 40; cut++) {
        len = enc_call(8, 2, NFS3_PROGRAM, NFS_V3, 0, NULL, NULL);
        r = sv_core_handle(c, msg, cut, out, sizeof(out), "unit", 1);
        assert_int_equal(r.len, 0);
    }
    assert_int_equal(getattr(c, 9, &r), NFS3_OK);
    assert_int_equal(sv_core_count(c, NFS3_PROGRAM, NFS_V3, NFSPROC3_GETATTR), 1);
    assert_int_equal(sv_core_count(c, NFS3_PROGRAM, NFS_V3, NFSPROC3_NULL), 1);
    sv_core_destroy(c);
}

/* A NULL call with an AUTH_SYS credential: stamp, a machine name of
 * namelen bytes, uid, gid and ngids groups (1, 2, ...), the body's length
 * as claimed (claim 0: the true one), and a verifier claiming verf_len
 * bytes.  Returns the message length. */
static size_t enc_auth_sys(uint32_t xid, u_int namelen, uint32_t uid, uint32_t gid,
                           u_int ngids, u_int claim, u_int verf_len)
{
    uint8_t *p = msg;
    u_int body = 4 + 4 + ((namelen + 3) & ~3u) + 12 + 4 * ngids;
    const uint32_t head[7] = {xid, 0, 2, NFS3_PROGRAM, NFS_V3, NFSPROC3_NULL, AUTH_SYS};

    for (int i = 0; i < 7; i++, p += 4)
        cm_be32_put(p, head[i]);
    cm_be32_put(p, claim ? claim : body);
    cm_be32_put(p + 4, 1); /* stamp */
    cm_be32_put(p + 8, namelen);
    p += 12;
    memset(p, 'h', (namelen + 3) & ~3u);
    p += (namelen + 3) & ~3u;
    cm_be32_put(p, uid);
    cm_be32_put(p + 4, gid);
    cm_be32_put(p + 8, ngids);
    p += 12;
    for (u_int i = 0; i < ngids; i++, p += 4)
        cm_be32_put(p, i + 1);
    cm_be32_put(p, AUTH_NONE);
    cm_be32_put(p + 4, verf_len);
    memset(p + 8, 0, verf_len <= 400 ? verf_len : 0);
    return (size_t)(p + 8 - msg) + (verf_len <= 400 ? verf_len : 0);
}

/* The reply's reject status and auth_stat: 0 for an accepted reply. */
static int auth_answer(struct sv_core *c, size_t len, uint32_t xid)
{
    struct sv_reply r = sv_core_handle(c, msg, len, out, sizeof(out), "unit", 0);
    XDR x;
    u_int why = 0;
    int st;

    assert_true(r.len > 0);
    st = dec_reply(&x, r.len, xid);
    if (st == 100 + AUTH_ERROR)
        assert_true(xdr_u_int(&x, &why));
    xdr_destroy(&x);
    return st == SUCCESS ? 0 : (int)why;
}

/* AUTH_SYS bodies are read in place (dispatch.c): the caller's ids and
 * groups; a machine name over 255 bytes, more than 16 groups or a body
 * shorter than it says is AUTH_BADCRED, a credential or verifier over
 * 400 bytes AUTH_BADCRED or AUTH_BADVERF; a message cut inside them is
 * dropped; --root-squash makes root nobody. */
static void auth_sys_credentials_are_read_or_refused(void **state)
{
    struct sv_core *c = core_with(NULL);
    size_t len;

    (void)state;
    assert_int_equal(auth_answer(c, enc_auth_sys(1, 4, 1000, 100, 3, 0, 0), 1), 0);
    assert_int_equal(c->cred_uid, 1000);
    assert_int_equal(c->cred_gid, 100);
    assert_int_equal(c->cred_ngids, 3);
    assert_int_equal(c->cred_gids[2], 3);
    assert_int_equal(auth_answer(c, enc_auth_sys(2, 255, 0, 0, 16, 0, 8), 2), 0);
    assert_int_equal(c->cred_ngids, 16);
    assert_int_equal(c->cred_gids[15], 16);
    assert_int_equal(auth_answer(c, enc_auth_sys(3, 256, 0, 0, 0, 0, 0), 3),
                     AUTH_BADCRED);
    assert_int_equal(auth_answer(c, enc_auth_sys(4, 4, 0, 0, 17, 0, 0), 4), AUTH_BADCRED);
    /* a body that claims three groups and holds two: the length says so */
    assert_int_equal(auth_answer(c, enc_auth_sys(5, 4, 0, 0, 3, 4 + 8 + 12 + 8, 0), 5),
                     AUTH_BADCRED);
    /* a body of 4 bytes (what follows it reads as an AUTH_NONE verifier) */
    assert_int_equal(auth_answer(c, enc_auth_sys(6, 0, 0, 0, 0, 4, 0), 6), AUTH_BADCRED);
    assert_int_equal(auth_answer(c, enc_auth_sys(7, 4, 0, 0, 0, 401, 0), 7),
                     AUTH_BADCRED);
    assert_int_equal(auth_answer(c, enc_auth_sys(8, 4, 0, 0, 0, 0, 401), 8),
                     AUTH_BADVERF);
    assert_int_equal(c->bad_creds, 6);
    len = enc_auth_sys(9, 4, 0, 0, 2, 0, 4);
    for (size_t cut = 24; cut < len; cut++)
        assert_int_equal(sv_core_handle(c, msg, cut, out, sizeof(out), "unit", 0).len, 0);
    /* a message that is not word-aligned in memory (a TCP record after an
     * odd-sized one) reads the same */
    len = enc_auth_sys(11, 4, 1001, 101, 1, 0, 0);
    memmove(msg + 1, msg, len);
    assert_true(sv_core_handle(c, msg + 1, len, out, sizeof(out), "unit", 0).len > 0);
    assert_int_equal(c->cred_uid, 1001);
    assert_int_equal(c->cred_gid, 101);
    sv_core_destroy(c);

    c = core_with(NULL);
    c->root_squash = 1;
    len = enc_auth_sys(10, 4, 0, 0, 2, 0, 0);
    cm_be32_put(msg + len - 16, 0); /* groups 0 and 2, then the verifier */
    assert_int_equal(auth_answer(c, len, 10), 0);
    assert_int_equal(c->cred_uid, SV_NOBODY);
    assert_int_equal(c->cred_gid, SV_NOBODY);
    assert_int_equal(c->cred_ngids, 1);
    assert_int_equal(c->cred_gids[0], 2);
    sv_core_destroy(c);
}

static void injected_errors_drops_and_delays(void **state)
{
    struct sv_fault f = {0};
    struct sv_core *c;
    struct sv_reply r;
    char err[256];

    (void)state;
    f.seed = 5;
    assert_int_equal(sv_fault_parse_error(&f, "GETATTR=jukebox:100", err, sizeof(err)),
                     0);
    assert_int_equal(f.errors[0].status, NFS3ERR_JUKEBOX);
    assert_string_equal(f.errors[0].op, "getattr");
    assert_int_not_equal(sv_fault_parse_error(&f, "getattr=NOPE:1", err, sizeof(err)), 0);
    assert_int_not_equal(sv_fault_parse_error(&f, "getattr:1", err, sizeof(err)), 0);
    assert_int_not_equal(sv_fault_parse_error(&f, "getattr=IO:101", err, sizeof(err)), 0);
    assert_int_equal(sv_fault_parse_delay(&f, "1000:500", err, sizeof(err)), 0);
    c = core_with(&f);
    assert_int_equal(getattr(c, 1, &r), NFS3ERR_JUKEBOX);
    assert_true(r.delay_ns >= 1000000 && r.delay_ns <= 1500000);
    sv_core_destroy(c);

    /* a rule with a count answers that many calls, then lets them be */
    memset(&f, 0, sizeof(f));
    assert_int_equal(sv_fault_parse_error(&f, "getattr=IO:100:2", err, sizeof(err)), 0);
    assert_int_equal(f.errors[0].max, 2);
    assert_int_not_equal(sv_fault_parse_error(&f, "getattr=IO:100:0", err, sizeof(err)),
                         0);
    assert_int_equal(f.nerrors, 1);
    c = core_with(&f);
    assert_int_equal(getattr(c, 20, &r), NFS3ERR_IO);
    assert_int_equal(getattr(c, 21, &r), NFS3ERR_IO);
    assert_int_equal(getattr(c, 22, &r), NFS3_OK);
    sv_core_destroy(c);

    memset(&f, 0, sizeof(f));
    f.drop_pct = 100;
    c = core_with(&f);
    assert_int_equal(getattr(c, 2, &r), -1);
    assert_int_equal(c->replies_dropped, 1);
    sv_core_destroy(c);

    memset(&f, 0, sizeof(f));
    f.exit_after = 3;
    c = core_with(&f);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(getattr(c, 10 + i, &r), NFS3_OK);
    assert_false(sv_core_exit_requested(c));
    assert_int_equal(getattr(c, 13, &r), -1);
    assert_true(sv_core_exit_requested(c));
    sv_core_destroy(c);
}

static void same_seed_same_faults(void **state)
{
    struct sv_fault f = {0};
    struct sv_core *a, *b;
    struct sv_reply ra, rb;

    (void)state;
    f.seed = 1234;
    f.drop_pct = 50;
    a = core_with(&f);
    b = core_with(&f);
    int drops = 0;
    for (uint32_t i = 0; i < 200; i++) {
        int sa = getattr(a, i, &ra), sb = getattr(b, i, &rb);
        assert_int_equal(sa, sb);
        drops += sa < 0;
    }
    assert_true(drops > 50 && drops < 150);
    sv_core_destroy(a);
    sv_core_destroy(b);
}

static void stats_file_written(void **state)
{
    struct sv_core *c = core_with(NULL);
    struct sv_reply r;
    char path[] = "/tmp/test_server_core.XXXXXX", err[256], text[8192];
    int fd;

    (void)state;
    assert_int_equal(getattr(c, 1, &r), NFS3_OK);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sv_core_write_stats(c, path, NULL, err, sizeof(err)), 0);
    assert_true(th_text_of_file(path, text, sizeof(text)) > 0);
    unlink(path);
    assert_non_null(strstr(text, "nfs_v3:"));
    assert_non_null(strstr(text, "  getattr: 1\n"));
    assert_non_null(strstr(text, "mount_v1:"));
    assert_non_null(strstr(text, "calls_answered: 1\n"));
    sv_core_destroy(c);
}

/* NFSv2 offsets and sizes are 32 bits (RFC 1094): a WRITE that would make
 * a file larger than 2^32 - 1 bytes is FBIG, not a size v2 cannot report. */
static void v2_write_stays_below_4gib(void **state)
{
    struct sv_core *c = core_with(NULL);
    const struct sv_handler *w = &sv__nfs2_version.handlers[NFSPROC_WRITE];
    char data[512] = {0};
    struct sv_node *n;
    writeargs a;
    attrstat res;

    (void)state;
    assert_int_equal(sv__fs_walk(c->fs, "/export", &n), 0);
    assert_int_equal(sv__fs_create(c->fs, n, "big", SV_REG, NULL, 0, 0, NULL, &n), 0);
    memset(&a, 0, sizeof(a));
    sv__fs_handle(c->fs, n, (uint8_t *)a.file.data);
    a.data.data_val = data;
    a.data.data_len = sizeof(data);
    a.offset = 0xffffffffu - sizeof(data); /* size 2^32 - 1: the v2 maximum */
    memset(&res, 0, sizeof(res));
    assert_int_equal(w->fn(c, &a, &res), NFS_OK);
    assert_int_equal(res.attrstat_u.attributes.size, 0xffffffffu);
    a.offset++; /* one byte further: beyond what v2 can address */
    memset(&res, 0, sizeof(res));
    assert_int_equal(w->fn(c, &a, &res), NFSERR_FBIG);
    assert_int_equal(n->size, 0xffffffffu); /* unchanged */
    sv_core_destroy(c);
}

/* RENAME3 and LINK3 with one good and one stale handle: the status is
 * STALE, and the object whose handle resolved still gets its attributes
 * (RFC 1813 defines them on the failure arm too). */
static void v3_wcc_for_the_handle_that_resolved(void **state)
{
    struct sv_core *c = core_with(NULL);
    const struct sv_handler *h = sv__nfs3_version.handlers;
    uint8_t good[SV_FH_LEN], stale[SV_FH_LEN], file[SV_FH_LEN];
    struct sv_node *dir, *f;
    RENAME3args ra;
    RENAME3res rr;
    LINK3args la;
    LINK3res lr;

    (void)state;
    assert_int_equal(sv__fs_walk(c->fs, "/export", &dir), 0);
    assert_int_equal(sv__fs_create(c->fs, dir, "f", SV_REG, NULL, 0, 0, NULL, &f), 0);
    sv__fs_handle(c->fs, dir, good);
    sv__fs_handle(c->fs, f, file);
    memcpy(stale, good, sizeof(stale));
    stale[23] ^= 1; /* another generation */

    memset(&ra, 0, sizeof(ra));
    ra.from.dir.data.data_len = ra.to.dir.data.data_len = SV_FH_LEN;
    ra.from.dir.data.data_val = (char *)good;
    ra.to.dir.data.data_val = (char *)stale;
    ra.from.name = "f";
    ra.to.name = "g";
    memset(&rr, 0, sizeof(rr));
    assert_int_equal(h[NFSPROC3_RENAME].fn(c, &ra, &rr), NFS3ERR_STALE);
    assert_true(rr.RENAME3res_u.resfail.fromdir_wcc.before.attributes_follow);
    assert_true(rr.RENAME3res_u.resfail.fromdir_wcc.after.attributes_follow);
    assert_false(rr.RENAME3res_u.resfail.todir_wcc.after.attributes_follow);

    memset(&la, 0, sizeof(la));
    la.file.data.data_len = la.link.dir.data.data_len = SV_FH_LEN;
    la.file.data.data_val = (char *)file;
    la.link.dir.data.data_val = (char *)stale;
    la.link.name = "h";
    memset(&lr, 0, sizeof(lr));
    assert_int_equal(h[NFSPROC3_LINK].fn(c, &la, &lr), NFS3ERR_STALE);
    assert_true(lr.LINK3res_u.resfail.file_attributes.attributes_follow);
    assert_int_equal(f->nlink, 1);
    sv_core_destroy(c);
}

/* MNT of a path through "." or ".." is refused: "/export/.." passes the
 * export prefix check but names the directory above the export. */
static void mnt_refuses_dot_components(void **state)
{
    struct sv_core *c = core_with(NULL);
    const struct sv_handler *m = &sv__mount3_version.handlers[MOUNTPROC3_MNT];
    static const char *const bad[] = {"/export/..", "/export/./..", "/export/."};
    char *path = "/export";
    mountres3 res;

    (void)state;
    c->peer = "unit";
    memset(&res, 0, sizeof(res));
    assert_int_equal(m->fn(c, &path, &res), MNT3_OK);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        path = (char *)bad[i];
        memset(&res, 0, sizeof(res));
        assert_int_equal(m->fn(c, &path, &res), MNT3ERR_INVAL);
    }
    sv_core_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables_are_complete),
        cmocka_unit_test(rpc_level_errors),
        cmocka_unit_test(auth_sys_credentials_are_read_or_refused),
        cmocka_unit_test(injected_errors_drops_and_delays),
        cmocka_unit_test(same_seed_same_faults),
        cmocka_unit_test(stats_file_written),
        cmocka_unit_test(v2_write_stays_below_4gib),
        cmocka_unit_test(v3_wcc_for_the_handle_that_resolved),
        cmocka_unit_test(mnt_refuses_dot_components),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
