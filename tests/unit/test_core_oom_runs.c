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
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_config.h"
#include "helpers/th_core.h"
#include "helpers/th_nfsd.h"
#include "helpers/th_oom.h"
#include "ctl/ct.h"
#include "client/cl.h"
#include "synth/sy_int.h"
#include "load/options.h"
#include "replay/rl.h"
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

/* What sfs_ping does (src/nfs/ping_cli.c): mount, prepare, run 40 calls
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
    char *mounts[1];
    struct ld_child *c; /* ld_child_alloc's, each run */
};

/* A fresh server each run (the replay's tree made anew); the mount point
 * names its ports. */
static void replay_setup(void *ctx)
{
    struct replay *x = ctx;

    srv_start(&x->srv);
    x->mounts[0] = x->srv.url;
    x->c = ld_child_alloc(&x->su);
    assert_non_null(x->c);
}

static void replay_teardown(void *ctx)
{
    struct replay *x = ctx;

    x->su.wl->child_free(x->c);
    free(x->c);
    x->c = NULL;
    srv_stop(&x->srv);
}

/* A child's replay as its parent drives it: MOUNT (the session, the
 * replay's tables), INIT (the trace's files made), RUN (every record as
 * fast as possible); 0 or the child's -errno with its last error. */
static int replay_op(void *ctx, char *err, size_t errlen)
{
    struct replay *x = ctx;
    const struct ld_workload_ops *wl = x->su.wl;
    struct ld_child *c = x->c;
    int rc = wl->child_init(c, &x->su, 0, -1);

    if (rc == 0)
        rc = wl->child_phase(c, CT_MSG_MOUNT, 0);
    if (rc == 0)
        rc = wl->child_phase(c, CT_MSG_INIT, 0);
    if (rc == 0)
        rc = wl->child_phase(c, CT_MSG_RUN, 0);
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
    assert_int_equal(th_config_for(&x.cfg, 3, &rl_workload), 0);
    x.cfg.tcp = 1;
    x.cfg.procs = 1;
    RB_TOPTS_SET(&x.cfg)->trace_speed = 0; /* as fast as possible */
    snprintf(RB_TOPTS_SET(&x.cfg)->trace_file, LD_PATH_MAX, "%s",
             "tests/fixtures/spc/seed-example.spc");
    x.mounts[0] = "127.0.0.1:1:/export"; /* replay_setup's server's, each run */
    x.cfg.mounts = x.mounts;
    x.cfg.nmounts = 1;
    assert_int_equal(cl_setup(&x.su, &x.cfg, "sfs3", stdout, stderr, err, sizeof(err)),
                     0);
    assert_string_equal(x.su.wl->name, "replay");
    assert_true(th_oom_check(&c, &x) > 5);
    cl_setup_free(&x.su);
}

/* ---- a load client of a prime (sfs -M) ------------------------------------ */

/* The stand-in prime, in a thread of its own (outside the hook): accepts
 * the client, takes its HELLO, sends MOUNT and then RESULTS, and keeps the
 * client's results or its ERROR text.  Every wait is bounded. */
struct remote {
    struct th_nfsd srv;
    struct ld_config cfg;
    struct ld_setup su;
    char *mounts[1];
    int lfd, token_pipe[2], stdin_saved, wake[2];
    uint8_t token[CT_TOKEN_LEN];
    pthread_t prime;
    int results;            /* the prime got them */
    char error[CM_ERR_LEN]; /* ... or this ERROR */
    FILE *devnull;
};

/* The next frame from fd within 5 s: 1, or <= 0 when none came. */
static int prime_frame(struct ct_reader *rd, int fd)
{
    for (int i = 0; i < 50; i++) {
        struct pollfd pf = {fd, POLLIN, 0};
        int r;

        if (poll(&pf, 1, 100) < 0)
            return -1;
        while ((r = ct_read(rd, fd)) == 1)
            if (rd->h.type != CT_HEARTBEAT)
                return 1;
        if (r < 0)
            return r;
    }
    return 0;
}

static void *prime_main(void *arg)
{
    struct remote *x = arg;
    static const uint32_t phases[] = {CT_MSG_MOUNT, CT_MSG_RESULTS};
    struct ct_reader rd;
    struct pollfd pf[2] = {{x->lfd, POLLIN, 0}, {x->wake[0], POLLIN, 0}};
    int fd, ok;

    memset(&rd, 0, sizeof(rd));
    /* the client connects, or it is over (it failed before it did) */
    if (poll(pf, 2, 5000) <= 0 || !pf[0].revents || (fd = accept(x->lfd, NULL, NULL)) < 0)
        return NULL;
    ok = prime_frame(&rd, fd) == 1 && rd.h.type == CT_HELLO;
    for (size_t i = 0; ok && i < CM_ARRAY_LEN(phases); i++) {
        /* a client that failed may be gone already: its ERROR still waits */
        (void)ct_send(fd, x->token, phases[i], 0, 0, NULL, 0);
        ok = prime_frame(&rd, fd) == 1;
        if (ok && rd.h.type == CT_MSG_ERROR)
            snprintf(x->error, sizeof(x->error), "%s", (const char *)rd.payload);
        ok = ok && rd.h.type == phases[i];
    }
    x->results = ok;
    ct_reader_free(&rd);
    /* hung up whoever else holds the socket: the client's children, forked
     * in this same process, inherited it */
    shutdown(fd, SHUT_RDWR);
    close(fd);
    return NULL;
}

static void remote_setup(void *ctx)
{
    struct remote *x = ctx;
    struct sockaddr_in sin;
    socklen_t len = sizeof(sin);
    char hex[2 * CT_TOKEN_LEN + 2];

    srv_start(&x->srv);
    x->mounts[0] = x->srv.url;
    x->results = 0;
    x->error[0] = '\0';
    /* the prime's port */
    x->lfd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(x->lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
    assert_int_equal(listen(x->lfd, 4), 0);
    assert_int_equal(getsockname(x->lfd, (struct sockaddr *)&sin, &len), 0);
    snprintf(x->cfg.prime_host, sizeof(x->cfg.prime_host), "127.0.0.1:%u",
             ntohs(sin.sin_port));
    /* the token on standard input, as the prime's remote shell gives it */
    assert_int_equal(ct_token_new(x->token), 0);
    ct_token_hex(x->token, hex);
    strcat(hex, "\n");
    assert_int_equal(pipe(x->token_pipe), 0);
    assert_int_equal(write(x->token_pipe[1], hex, strlen(hex)), (ssize_t)strlen(hex));
    x->stdin_saved = dup(STDIN_FILENO);
    assert_int_equal(dup2(x->token_pipe[0], STDIN_FILENO), STDIN_FILENO);
    assert_int_equal(pipe(x->wake), 0);
    assert_int_equal(pthread_create(&x->prime, NULL, prime_main, x), 0);
}

static void remote_teardown(void *ctx)
{
    struct remote *x = ctx;

    close(x->wake[0]);
    close(x->wake[1]);
    assert_int_equal(dup2(x->stdin_saved, STDIN_FILENO), STDIN_FILENO);
    close(x->stdin_saved);
    close(x->token_pipe[0]);
    close(x->token_pipe[1]);
    close(x->lfd);
    srv_stop(&x->srv);
}

/* cl_remote_run with one child: CM_EXIT_OK with the results at the prime,
 * or a failure whose text says "memory" (-ENOMEM) and reached the prime as
 * its ERROR. */
static int remote_op(void *ctx, char *err, size_t errlen)
{
    struct remote *x = ctx;
    int code = cl_remote_run(&x->su, err, errlen);

    /* the client is gone: the prime has heard all it will hear */
    assert_int_equal(write(x->wake[1], "x", 1), 1);
    assert_int_equal(pthread_join(x->prime, NULL), 0);
    if (code == CM_EXIT_OK)
        return x->results ? 0 : cm_errf(err, errlen, "the prime got no results");
    /* the shortage named, not the prime blamed for it */
    if (strstr(err, "memory") == NULL || strstr(err, "prime closed") != NULL)
        return -EINVAL;
    if (x->results || strstr(x->error, "memory") == NULL) {
        char why[CM_ERR_LEN];

        snprintf(why, sizeof(why), "%s", err);
        return cm_errf(err, errlen, "%s; the prime was told \"%s\"", why, x->error);
    }
    return -ENOMEM;
}

/* A load client driven by a prime (sfs -M) with one child against
 * sfs_nfsd's server: the client's own allocations (the child table, its
 * poll table, the control-plane reader, the children's answers, the
 * results) fail in turn: the client ends with a message naming the
 * shortage, the prime hears it as the client's ERROR, every child is
 * stopped. */
static void a_prime_client_runs_out_of_memory_cleanly(void **state)
{
    static struct remote x;
    const struct th_oom_case c = {"remote",        remote_setup, remote_op,
                                  remote_teardown, -ENOMEM,      0};
    char err[CM_ERR_LEN];

    (void)state;
    memset(&x, 0, sizeof(x));
    x.devnull = fopen("/dev/null", "w");
    assert_non_null(x.devnull);
    ld_config_defaults(&x.cfg, 3);
    x.cfg.tcp = 1;
    x.cfg.procs = 1;
    x.cfg.load = 10;
    x.cfg.io_files = 60;
    x.cfg.client_num = 1;
    x.mounts[0] = "127.0.0.1:1:/export"; /* remote_setup's server's, each run */
    x.cfg.mounts = x.mounts;
    x.cfg.nmounts = 1;
    assert_int_equal(
        cl_setup(&x.su, &x.cfg, "sfs3", x.devnull, x.devnull, err, sizeof(err)), 0);
    /* the forked child runs without the hook (test_core_oom covers a
     * child's failures): the allocations counted are the client's own */
    assert_int_equal(pthread_atfork(NULL, NULL, cm_alloc_fail_off), 0);
    assert_true(th_oom_check(&c, &x) > 3);
    cl_setup_free(&x.su);
    fclose(x.devnull);
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
        cmocka_unit_test(a_prime_client_runs_out_of_memory_cleanly),
    };

    th_nfsd_signals();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
