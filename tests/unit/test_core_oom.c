/* SPDX-License-Identifier: BSD-2-Clause */
/* test_core_oom.c - out-of-memory paths of a load child and of the server
 * core, against each other on socketpairs (helpers/th_core.h): each
 * allocation fails in turn (helpers/th_oom.h, common/alloc.h), once and for
 * good.  In the child (its setup, the mount session with its rp_clients,
 * the file table, population) every run must end in -ENOMEM with a line
 * naming the step; in the server thread (the core serving mount and
 * population) every failure must reach the child as an error reply, never
 * a crash or a hang; sfs_nfsd's server comes up whole or not at all.  The
 * ASan build checks that nothing leaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "helpers/th_core.h"
#include "helpers/th_oom.h"
#include "client/cl.h"
#include "synth/sy_int.h"
#include "load/options.h"

struct fix {
    struct th_core t;
    struct ld_config cfg;
    struct ld_setup su;
    char *mounts[1];
    char mount[64];
    int v;
    struct sy_child c;
};

/* The smallest SFS configuration of test_core_child (60 io files): NFSv3
 * over TCP, or NFSv2 over UDP, so that both transports of the RPC engine
 * are under the hook. */
static void fix_config(struct fix *f, int v)
{
    char err[CM_ERR_LEN];

    memset(f, 0, sizeof(*f));
    f->v = v;
    ld_config_defaults(&f->cfg, v);
    f->cfg.load = 50;
    f->cfg.procs = 1;
    f->cfg.io_files = 60;
    f->cfg.tcp = v != 2; /* v2 over UDP (datagram pairs), v3 over TCP */
    f->cfg.warmup_s = f->cfg.runtime_s = 1;
    snprintf(f->mount, sizeof(f->mount), "core:/export");
    f->mounts[0] = f->mount;
    f->cfg.mounts = f->mounts;
    f->cfg.nmounts = 1;
    assert_int_equal(cl_setup(&f->su, &f->cfg, v == 3 ? "sfs3" : "sfs", stdout, stderr,
                              err, sizeof(err)),
                     0);
    f->su.connect = th_core_connect;
    f->su.connect_data = &f->t;
}

static void fix_free(struct fix *f)
{
    cl_setup_free(&f->su);
}

/* A child (f->c) that mounts and populates: 0 or its -errno with its
 * last error in err.  sy_child_free (child_end) is left to the caller: its
 * UMNT is a courtesy whose failure is ignored by design (nf_umount). */
static int child_session(struct fix *f, char *err, size_t errlen)
{
    struct sy_child *c = &f->c;
    int rc = sy_child_init(c, &f->su, 0, -1);

    if (rc == 0) {
        rc = sy_init_mount(c);
        if (rc == 0)
            rc = sy_init_populate(c);
        if (rc == 0 && c->files.base_bytes == 0)
            rc = cm_errf(err, errlen, "population made nothing");
    }
    if (rc < 0 && err[0] == '\0')
        snprintf(err, errlen, "%s", c->cx.last_error);
    return rc;
}

static void core_start(void *ctx)
{
    struct fix *f = ctx;

    assert_int_equal(
        th_core_start_pairs(&f->t, NULL, f->cfg.tcp ? 6 : 0, f->cfg.tcp ? 0 : 6), 0);
}

static void child_end(void *ctx)
{
    struct fix *f = ctx;

    sy_child_free(&f->c);
    th_core_stop(&f->t);
}

static int child_op(void *ctx, char *err, size_t errlen)
{
    return child_session(ctx, err, errlen);
}

static void child_setup_and_population_run_out_of_memory_cleanly(void **state)
{
    struct fix f;
    const struct th_oom_case c = {"child", core_start, child_op, child_end, -ENOMEM, 0};

    fix_config(&f, *(int *)*state);
    assert_true(th_oom_check(&c, &f) > 10);
    fix_free(&f);
}

/* The server thread's allocations fail in turn, for good: the child must
 * fail with a message, the server must not crash, and the run after the
 * last failure must succeed.  Population makes some 600 allocations in the
 * server, most of them the same few kinds again (a node, a directory
 * entry, a file's data growing): each of the first 100 fails in turn (the
 * mount, the first directories and files of every kind), then every 10th,
 * to keep the test well under a second. */
static void server_core_runs_out_of_memory_cleanly(void **state)
{
    struct fix f;
    char err[CM_ERR_LEN];
    long n;

    fix_config(&f, *(int *)*state);
    for (n = 1;; n += n < 100 ? 1 : 10) {
        int rc;

        assert_int_equal(
            th_core_start_failing(&f.t, NULL, f.cfg.tcp ? 6 : 0, f.cfg.tcp ? 0 : 6, n, 1),
            0);
        err[0] = '\0';
        rc = child_session(&f, err, sizeof(err));
        child_end(&f);
        if (f.t.failed == 0) {
            assert_int_equal(rc, 0);
            break;
        }
        if (rc >= 0 || err[0] == '\0')
            fail_msg("server allocation %ld failing: child returned %d (%s)", n, rc, err);
    }
    assert_true(n > 100); /* population reached the server */
    fix_free(&f);
}

/* ---- the RPC engine on its own ------------------------------------------- */

#define BIG_ARGS (200 * 1024) /* more than the send buffer starts with */

/* A NULL call's arguments: n bytes of opaque data that the server's NULL
 * procedure ignores; they make the engine grow its send buffer. */
static bool_t xdr_big(XDR *x, void *arg)
{
    static char data[BIG_ARGS];
    char *p = data;
    u_int n = *(const u_int *)arg;

    return xdr_bytes(x, &p, &n, BIG_ARGS);
}

static int rpc_op(void *ctx, char *err, size_t errlen)
{
    struct fix *f = ctx;
    struct rp_client_opts o;
    struct rp_fault fault = {7, 0, 20, 0, 20}; /* duplicated and reordered replies */
    struct rp_client *c;
    u_int sizes[] = {0, BIG_ARGS - 64, 16};
    int rc;

    rp_client_opts_init(&o);
    o.transport = RP_TCP;
    o.fault = &fault;
    rc = th_core_client(&f->t, 0, NFS_PROGRAM, 3, &o, &c);
    if (rc < 0)
        return cm_errf(err, errlen, "open: %s", f->t.err), rc;
    for (size_t i = 0; i < CM_ARRAY_LEN(sizes); i++) {
        struct rp_call call = {.proc = 0,
                               .args_codec = (xdrproc_t)xdr_big,
                               .args = &sizes[i],
                               .res_codec = (xdrproc_t)rp_xdr_void,
                               .timeout_ms = 2000};

        rc = rp_call_sync(c, &call);
        if (rc == 0)
            rc = call.status;
        if (rc < 0) { /* the engine's own text, or no message */
            snprintf(err, errlen, "%s", rp_client_last_error(c));
            return rc;
        }
    }
    return 0;
}

static void core_start_one(void *ctx)
{
    struct fix *f = ctx;

    assert_int_equal(th_core_start(&f->t, NULL, 1), 0);
}

static void core_stop(void *ctx)
{
    struct fix *f = ctx;

    th_core_stop(&f->t);
}

/* An rp_client over a pair, with the fault transport, making calls that
 * grow its send buffer: -ENOMEM with the client's last error. */
static void rpc_client_runs_out_of_memory_cleanly(void **state)
{
    struct fix f;
    const struct th_oom_case c = {"rpc client", core_start_one, rpc_op,
                                  core_stop,    -ENOMEM,        0};

    (void)state;
    memset(&f, 0, sizeof(f));
    assert_true(th_oom_check(&c, &f) >= 4);
}

/* The rule that makes the hook cheap to keep: the load phase (pacing, op
 * choice, file choice, the engine, accounting) allocates nothing per call.
 * A populated child runs a one-second measured phase with every
 * allocation failing; it must make its calls, all of them answered and
 * none with an error, and attempt no allocation at all. */
static void the_load_phase_allocates_nothing(void **state)
{
    struct fix f;
    char err[CM_ERR_LEN] = "";
    unsigned long before;
    int rc;

    fix_config(&f, *(int *)*state);
    core_start(&f);
    assert_int_equal(child_session(&f, err, sizeof(err)), 0);
    before = cm_alloc_count();
    cm_alloc_fail_nth(1, 1);
    rc = sy_load_phase(&f.c, LD_CPHASE_RUN, 1);
    cm_alloc_fail_off();
    assert_int_equal(rc, 0);
    assert_true(f.c.requests >= 20); /* 50 ops/s for a second */
    assert_true(f.c.cx.stats.op[NF_OP_TOTAL].good >= 20);
    assert_int_equal(f.c.cx.stats.op[NF_OP_TOTAL].bad, 0);
    assert_int_equal(f.c.cx.stats.op[NF_OP_TOTAL].unexpected, 0);
    assert_int_equal(cm_alloc_count() - before, 0);
    assert_int_equal(cm_alloc_failed(), 0);
    child_end(&f);
    fix_free(&f);
}

/* sfs_nfsd's server (sockets on free loopback ports, the core, its
 * buffers): NULL with a message, whatever allocation fails. */
static int server_create_op(void *ctx, char *err, size_t errlen)
{
    struct sv_config cfg;
    struct sv_server *s;

    (void)ctx;
    sv_config_defaults(&cfg);
    cfg.instance = 1;
    cfg.nfs_port = cfg.mount_port = 0;
    s = sv_server_create(&cfg, err, errlen);
    if (s == NULL)
        return -ENOMEM;
    sv_server_destroy(s);
    return 0;
}

static void server_creation_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("sv_server_create", server_create_op, NULL, -ENOMEM) > 5);
}

static int v2 = 2, v3 = 3;

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(child_setup_and_population_run_out_of_memory_cleanly,
                                  &v3),
        cmocka_unit_test_prestate(child_setup_and_population_run_out_of_memory_cleanly,
                                  &v2),
        /* the server's allocations are the same for v2 and v3 (fs.c) */
        cmocka_unit_test_prestate(server_core_runs_out_of_memory_cleanly, &v3),
        cmocka_unit_test(server_creation_runs_out_of_memory_cleanly),
        cmocka_unit_test(rpc_client_runs_out_of_memory_cleanly),
        cmocka_unit_test_prestate(the_load_phase_allocates_nothing, &v3),
        cmocka_unit_test_prestate(the_load_phase_allocates_nothing, &v2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
