/* SPDX-License-Identifier: BSD-2-Clause */
/* test_core_oom_runs.c - out-of-memory paths of the entry points that run
 * against a server: `sfs -V`'s validation suite (vd_run) against sfs_nfsd's
 * server on loopback (its read-back goes through libnfs, which needs a real
 * socket), and sfs_ping's loop (nf_ping_prepare, nf_ping_run) against the
 * server core on socketpairs (helpers/th_core.h).  Each allocation of the
 * test's thread fails in turn, once and for good (helpers/th_oom.h,
 * common/alloc.h); the server runs in its own thread, outside the hook.
 * Every run must end with the documented error and a message: the
 * validation with an E line and "validation terminated with errors" (never
 * a W, which would blame the server), the ping with -ENOMEM or its text,
 * a trace replay (a load child's MOUNT, INIT and RUN, against sfs_nfsd's
 * server: its tree is made through libnfs) with -ENOMEM and the child's
 * last error.
 * The ASan build checks that nothing leaks.  Network safety: loopback
 * only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_core.h"
#include "helpers/th_nfsd.h"
#include "helpers/th_oom.h"
#include "load/ld_int.h"
#include "load/options.h"
#include "load/replay.h"
#include "nfs/nf_ping.h"
#include "validate/vd.h"

/* A fresh sfs_nfsd server on 127.0.0.1 in a thread (helpers/th_nfsd.h). */
static void srv_start(struct th_nfsd *v)
{
    struct sv_config cfg;

    th_nfsd_config(&cfg, "127.0.0.1");
    if (th_nfsd_start(v, &cfg) != 0)
        fail_msg("server: %s", v->err);
}

static void srv_stop(struct th_nfsd *v)
{
    assert_int_equal(th_nfsd_stop(v), 0);
}

/* ---- the validation suite ------------------------------------------------ */

struct val {
    struct th_nfsd srv;
    int version;
};

/* A fresh server each run: an earlier run's leftovers would change the
 * allocations of the next (validatedir emptied or made). */
static void val_setup(void *ctx)
{
    struct val *x = ctx;

    srv_start(&x->srv);
}

static void val_teardown(void *ctx)
{
    struct val *x = ctx;

    srv_stop(&x->srv);
}

/* vd_run at level 1 into a memory stream: 0 when it passed; -ENOMEM with
 * the E line in err when it failed as it must (an E saying "memory", the
 * final line, no W);
 * -EINVAL with the text otherwise. */
static int val_op(void *ctx, char *err, size_t errlen)
{
    struct val *x = ctx;
    struct vd_opts o;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    const char *e, *end = "validation terminated with errors\n";
    int result, rc;

    assert_non_null(out);
    vd_opts_init(&o);
    o.nfs_version = x->version;
    o.tcp = x->version == 3;
    o.mount = x->srv.url;
    o.prog = x->version == 3 ? "sfs3" : "sfs";
    result = vd_run(&o, out, NULL);
    fclose(out);
    e = strstr(text, "E: ");
    if (result == VD_PASSED)
        rc = 0;
    else if (e == NULL || strstr(text, "W: ") != NULL || len < strlen(end) ||
             strcmp(text + len - strlen(end), end) != 0)
        rc = cm_errf(err, errlen, "not an E and the final line: %s", text);
    else {
        snprintf(err, errlen, "%.*s", (int)strcspn(e, "\n"), e);
        rc = -ENOMEM;
        if (strstr(err, "memory") == NULL) /* the reason, not a symptom */
            rc = cm_errf(err, errlen, "E line without the reason: %s", text);
    }
    free(text);
    return rc;
}

/* The allocations of nf_umount at the end of a session of this version
 * (its UMNT client): a courtesy whose failure is ignored by design. */
static long umount_allocations(struct val *x)
{
    struct nf_mount_opts mo;
    struct nf_mount m;
    char err[CM_ERR_LEN];
    unsigned long before;

    srv_start(&x->srv);
    nf_mount_opts_init(&mo, x->version);
    mo.transport = mo.mount_transport = x->version == 3 ? RP_TCP : RP_UDP;
    if (nf_mount(&m, x->srv.url, &mo, err, sizeof(err)) < 0)
        fail_msg("mount: %s", err);
    before = cm_alloc_count();
    nf_umount(&m);
    srv_stop(&x->srv);
    return (long)(cm_alloc_count() - before);
}

/* A whole validation makes a few dozen allocations in this thread (its
 * context, the mount session's clients, the I/O buffers, the read-back's
 * libnfs context), each failing in turn: VD_FAILED with an E line, never a
 * W that blames the server, never a pass (but for the UMNT at the end). */
static void validation_runs_out_of_memory_with_an_error_line(void **state)
{
    struct val x = {.version = *(int *)*state};
    struct th_oom_case c = {"vd_run", val_setup, val_op, val_teardown, -ENOMEM, 0};

    c.courtesy_tail = umount_allocations(&x);
    assert_true(c.courtesy_tail >= 1);
    assert_true(th_oom_check(&c, &x) > 10);
}

/* ---- sfs_ping's loop ------------------------------------------------------ */

struct ping {
    struct th_core t;
    int version;
    int op;
};

static void ping_setup(void *ctx)
{
    struct ping *x = ctx;

    assert_int_equal(th_core_start_pairs(&x->t, NULL, x->version == 3 ? 4 : 0,
                                         x->version == 3 ? 0 : 4),
                     0);
}

static void ping_teardown(void *ctx)
{
    struct ping *x = ctx;

    th_core_stop(&x->t);
}

/* What sfs_ping does (src/bin/sfs_ping.c): mount, prepare, run 40 calls
 * with 4 in flight, unmount; the error text as it makes it. */
static int ping_op(void *ctx, char *err, size_t errlen)
{
    struct ping *x = ctx;
    static struct nf_ping p;
    struct nf_ping_cfg cfg;
    struct nf_mount_opts mo;
    struct nf_mount m;
    char why[CM_ERR_LEN];
    int rc;

    nf_mount_opts_init(&mo, x->version);
    mo.transport = mo.mount_transport = x->version == 3 ? RP_TCP : RP_UDP;
    mo.connect = th_core_connect;
    mo.connect_data = &x->t;
    rc = nf_mount(&m, "core:/export", &mo, err, errlen);
    if (rc < 0)
        return rc;
    memset(&cfg, 0, sizeof(cfg));
    cfg.op = x->op;
    cfg.count = 40;
    cfg.outstanding = 4;
    rc = nf_ping_prepare(&p, &cfg, &m, m.nfs, why, sizeof(why));
    if (rc < 0)
        cm_errf(err, errlen, "prepare: %s", why);
    if (rc == 0 && (rc = nf_ping_run(&p)) < 0)
        cm_errf(err, errlen, "run: %s", rp_status_text(rc));
    if (rc == 0 && (p.completed != 40 || p.rpc_errors != 0 || p.nfs_errors != 0))
        rc = cm_errf(err, errlen, "%lld calls, %lld failed (%s), %lld NFS errors",
                     (long long)p.completed, (long long)p.rpc_errors, p.first_error,
                     (long long)p.nfs_errors);
    nf_umount(&m);
    return rc;
}

/* Each allocation of a whole ping (mount, prepare, loop) fails in turn:
 * -ENOMEM with its text, never a short count taken for a result. */
static void ping_runs_out_of_memory_cleanly(void **state)
{
    const int *arg = *state; /* version, op */
    struct ping x = {.version = arg[0], .op = arg[1]};
    struct th_oom_case c = {"ping", ping_setup, ping_op, ping_teardown, -ENOMEM, 0};
    struct nf_mount_opts mo;
    struct nf_mount m;
    char err[CM_ERR_LEN];
    unsigned long before;

    /* the UMNT at the end is a courtesy (nf_umount ignores its failure) */
    ping_setup(&x);
    nf_mount_opts_init(&mo, x.version);
    mo.transport = mo.mount_transport = x.version == 3 ? RP_TCP : RP_UDP;
    mo.connect = th_core_connect;
    mo.connect_data = &x.t;
    assert_int_equal(nf_mount(&m, "core:/export", &mo, err, sizeof(err)), 0);
    before = cm_alloc_count();
    nf_umount(&m);
    c.courtesy_tail = (long)(cm_alloc_count() - before);
    ping_teardown(&x);
    assert_true(th_oom_check(&c, &x) > 5);
}

/* ---- a running trace replay ------------------------------------------------ */

struct replay {
    struct th_nfsd srv;
    struct ld_config cfg;
    struct ld_setup su;
    struct ld_replay_plan plan;
    char *mounts[1];
    struct ld_child c;
};

/* A fresh server each run (the replay's tree made anew); the mount point
 * names its ports. */
static void replay_setup(void *ctx)
{
    struct replay *x = ctx;

    srv_start(&x->srv);
    x->mounts[0] = x->srv.url;
}

static void replay_teardown(void *ctx)
{
    struct replay *x = ctx;

    ld_child_free(&x->c);
    srv_stop(&x->srv);
}

/* A child's replay as its parent drives it: MOUNT (the session, the
 * replay's tables), INIT (the trace's files made), RUN (every record as
 * fast as possible); 0 or the child's -errno with its last error. */
static int replay_op(void *ctx, char *err, size_t errlen)
{
    struct replay *x = ctx;
    struct ld_child *c = &x->c;
    int rc = ld_child_init(c, &x->su, 0, -1);

    if (rc == 0)
        rc = ld_replay_phase(c, LD_MSG_MOUNT);
    if (rc == 0)
        rc = ld_replay_phase(c, LD_MSG_INIT);
    if (rc == 0)
        rc = ld_replay_phase(c, LD_MSG_RUN);
    if (rc == 0 && c->stats.op[NF_OP_TOTAL].good < 10)
        rc = cm_errf(err, errlen, "%llu calls replayed",
                     (unsigned long long)c->stats.op[NF_OP_TOTAL].good);
    if (rc < 0 && err[0] == '\0')
        snprintf(err, errlen, "%s", c->last_error);
    return rc;
}

/* The SPC example replayed by one child over NFSv3/TCP against sfs_nfsd's
 * server (the replay's tree is made through libnfs), each allocation of the child failing
 * in turn (its mount session and the replay's tables; the timed run itself allocates
 * nothing): -ENOMEM with the child's last error. */
static void a_replay_runs_out_of_memory_cleanly(void **state)
{
    static struct replay x;
    const struct th_oom_case c = {"replay",        replay_setup, replay_op,
                                  replay_teardown, -ENOMEM,      0};
    char err[CM_ERR_LEN];

    (void)state;
    memset(&x, 0, sizeof(x));
    ld_config_defaults(&x.cfg, 3);
    x.cfg.tcp = 1;
    x.cfg.procs = 1;
    x.cfg.trace_speed = 0; /* as fast as possible */
    snprintf(x.cfg.trace_file, sizeof(x.cfg.trace_file), "%s",
             "tests/fixtures/spc/seed-example.spc");
    x.mounts[0] = "127.0.0.1:1:/export"; /* replay_setup's server's, each run */
    x.cfg.mounts = x.mounts;
    x.cfg.nmounts = 1;
    assert_int_equal(
        ld_run_setup(&x.su, &x.cfg, "sfs3", stdout, stderr, err, sizeof(err)), 0);
    assert_int_equal(ld_replay_plan_build(&x.plan, &x.cfg, NULL, err, sizeof(err)), 0);
    x.su.plan = &x.plan;
    assert_true(th_oom_check(&c, &x) > 5);
    ld_replay_plan_free(&x.plan);
}

static int v2 = 2, v3 = 3;
static int ping_v3_getattr[] = {3, NF_PING_GETATTR},
           ping_v2_lookup[] = {2, NF_PING_LOOKUP}, ping_v3_null[] = {3, NF_PING_NULL};

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(validation_runs_out_of_memory_with_an_error_line, &v3),
        cmocka_unit_test_prestate(validation_runs_out_of_memory_with_an_error_line, &v2),
        cmocka_unit_test_prestate(ping_runs_out_of_memory_cleanly, ping_v3_getattr),
        cmocka_unit_test_prestate(ping_runs_out_of_memory_cleanly, ping_v2_lookup),
        cmocka_unit_test_prestate(ping_runs_out_of_memory_cleanly, ping_v3_null),
        cmocka_unit_test(a_replay_runs_out_of_memory_cleanly),
    };

    th_nfsd_signals();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
