/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_oom.c - the prime's out-of-memory paths under the failing-
 * allocator hook (helpers/th_oom.h): reading and resolving an rc file
 * (pr_run_load) ends in -EINVAL with a message on diag and frees all it
 * made; writing the results (pr_results_final) ends in -EIO with a message
 * and never leaves a half-written sfsres.yaml; one load point of
 * sfs_prime with a stand-in client over the control plane (the point's
 * tables, the control-plane readers, the decoding of the client's results)
 * fails naming the shortage, tells the client and leaves nothing behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "helpers/th_oom.h"
#include "helpers/th_text.h"
#include "ctl/ct.h"
#include "load/report.h"
#include "load/stats.h"
#include "prime/pr_int.h"

struct fix {
    char dir[64];
    char rc[128];
    char diagbuf[4096];
};

static void fix_make(struct fix *f)
{
    FILE *fp;

    snprintf(f->dir, sizeof(f->dir), "/tmp/test_prime_oom.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->rc, sizeof(f->rc), "%s/sfs_rc", f->dir);
    fp = fopen(f->rc, "w");
    assert_non_null(fp);
    fprintf(fp,
            "LOAD=\"100 200 300\"\n"
            "CLIENTS=\"c1 c2\"\n"
            "PROCS=2\n"
            "MNT_POINTS=\"s:/a s:/b\"\n"
            "WORK_DIR=%s\n"
            "SUFFIX=t\n"
            "RUNTIME=30\n",
            f->dir);
    assert_int_equal(fclose(fp), 0);
}

static void fix_remove(struct fix *f)
{
    char path[256];

    snprintf(path, sizeof(path), "%s/sfsres.t", f->dir);
    unlink(path);
    unlink(f->rc);
    assert_int_equal(rmdir(f->dir), 0);
}

/* Loads the rc with diag in memory; the first line of diag goes to err. */
static int load(struct fix *f, struct pr_run *run, char *err, size_t errlen)
{
    FILE *diag = fmemopen(f->diagbuf, sizeof(f->diagbuf), "w");
    int rc;

    assert_non_null(diag);
    rc = pr_run_load(run, f->rc, NULL, diag);
    fclose(diag);
    snprintf(err, errlen, "%.*s", (int)strcspn(f->diagbuf, "\n"), f->diagbuf);
    return rc;
}

static int run_load_op(void *ctx, char *err, size_t errlen)
{
    struct fix *f = ctx;
    struct pr_run run;
    int rc = load(f, &run, err, errlen);

    if (rc == 0 && (run.npoints != 3 || run.nclients != 2))
        rc = cm_errf(err, errlen, "%u points, %u clients", run.npoints, run.nclients);
    pr_run_free(&run);
    return rc;
}

static void rc_resolution_runs_out_of_memory_cleanly(void **state)
{
    struct fix f = {"", "", ""};

    (void)state;
    fix_make(&f);
    assert_true(th_oom_run("pr_run_load", run_load_op, &f, -EINVAL) > 10);
    fix_remove(&f);
}

struct results {
    struct fix f;
    struct pr_run run;
    struct pr_opts opts;
    struct pr_ctx ctx;
    struct pr_point pt;
    char yaml[256];
};

static int results_op(void *data, char *err, size_t errlen)
{
    struct results *r = data;
    FILE *diag = fmemopen(r->f.diagbuf, sizeof(r->f.diagbuf), "w");
    FILE *out = fopen("/dev/null", "w");
    struct stat st;
    int rc;

    r->opts.diag = diag;
    rc = pr_results_final(&r->ctx, &r->pt, 1, out);
    fclose(out);
    fclose(diag);
    snprintf(err, errlen, "%.*s", (int)strcspn(r->f.diagbuf, "\n"), r->f.diagbuf);
    if (rc < 0 && stat(r->yaml, &st) == 0)
        return cm_errf(err, errlen, "a failed write left %s", r->yaml);
    if (th_oom_dir_entries(r->f.dir) != 2 + (rc == 0)) /* rc, sfsres.t, the YAML */
        return cm_errf(err, errlen, "a temporary file is left in %s", r->f.dir);
    if (rc == 0 && stat(r->yaml, &st) != 0)
        return cm_errf(err, errlen, "no %s", r->yaml);
    unlink(r->yaml);
    return rc;
}

static void results_run_out_of_memory_without_a_half_file(void **state)
{
    static struct results r;
    char err[CM_ERR_LEN];

    (void)state;
    memset(&r, 0, sizeof(r));
    fix_make(&r.f);
    assert_int_equal(load(&r.f, &r.run, err, sizeof(err)), 0);
    r.opts.name = "sfs_mgr";
    r.ctx.run = &r.run;
    r.ctx.opts = &r.opts;
    r.pt.load = 100;
    snprintf(r.pt.error, sizeof(r.pt.error), "c1: no answer"); /* an unfinished point */
    snprintf(r.yaml, sizeof(r.yaml), "%s/sfsres.t.yaml", r.f.dir);
    assert_true(th_oom_run("pr_results_final", results_op, &r, -EIO) >= 1);
    pr_run_free(&r.run);
    fix_remove(&r.f);
}

/* ---- one load point with a client over the control plane ---------------- */

/* A stand-in client in a thread of its own (outside the hook): it reads
 * the control port from what sfs_prime prints, says HELLO with the run's
 * token, answers MOUNT and INIT, and sends its results (encoded stats and
 * "0\n", a valid run) when asked; it leaves at ABORT or when the prime
 * closes or never comes. */
struct point_fix {
    struct fix f;
    struct pr_run run;
    struct pr_opts opts;
    struct pr_ctx ctx;
    struct pr_point pt;
    volatile sig_atomic_t interrupted;
    int sig[2], port_pipe[2];
    char token_file[160];
    pthread_t client;
};

static int client_connect(FILE *in)
{
    struct sockaddr_in sin;
    char line[256];
    unsigned port = 0;
    int fd;

    while (port == 0 && fgets(line, sizeof(line), in))
        sscanf(line, "sfs_prime: control port %u", &port);
    if (port == 0)
        return -1; /* the point failed before it listened */
    fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void *client_main(void *arg)
{
    struct point_fix *x = arg;
    FILE *in = fdopen(x->port_pipe[0], "r");
    static unsigned char res[1 << 18];
    struct ct_reader rd;
    struct ld_stats st;
    size_t wire;
    int fd, r = 0;

    assert_non_null(in);
    fd = client_connect(in);
    fclose(in);
    if (fd < 0)
        return NULL;
    memset(&rd, 0, sizeof(rd));
    if (ct_send(fd, x->ctx.token, CT_HELLO, 1, 0, "host=c1\nworkload=mix\n", 21) < 0)
        goto out;
    ld_stats_reset(&st);
    ld_stats_good(&st, NF_OP_GETATTR, 1000000, 0);
    assert_true(ld_stats_wire_max(NULL) + 2 < sizeof(res));
    wire = ld_stats_encode(&st, NULL, NULL, res);
    memcpy(res + wire, "0\n", 2);
    while (r >= 0) {
        struct pollfd pfd = {fd, POLLIN, 0};

        if (poll(&pfd, 1, 10000) <= 0) /* bounded: the prime answers at once */
            break;
        while ((r = ct_read(&rd, fd)) == 1) {
            uint32_t t = rd.h.type;

            if (t == CT_MSG_MOUNT || t == CT_MSG_INIT)
                r = ct_send(fd, x->ctx.token, t, 1, 0, NULL, 0);
            else if (t == CT_MSG_RESULTS)
                r = ct_send(fd, x->ctx.token, t, 1, 0, res, (uint32_t)wire + 2);
            else if (t == CT_ABORT)
                r = -1;
            if (r < 0)
                break;
        }
    }
out:
    ct_reader_free(&rd);
    close(fd);
    return NULL;
}

static void point_setup(void *ctx)
{
    struct point_fix *x = ctx;

    assert_int_equal(pipe(x->port_pipe), 0);
    x->opts.out = fdopen(x->port_pipe[1], "w");
    assert_non_null(x->opts.out);
    assert_int_equal(pthread_create(&x->client, NULL, client_main, x), 0);
}

static void point_teardown(void *ctx)
{
    struct point_fix *x = ctx;

    fclose(x->opts.out); /* a client still waiting for the port gives up */
    assert_int_equal(pthread_join(x->client, NULL), 0);
    pr_point_free(&x->pt);
    unlink(x->token_file);
}

/* sfs_prime's point: -1 with "memory" in pt->error is the documented
 * failure (-ENOMEM here); any other text is a wrong diagnosis. */
static int point_op(void *ctx, char *err, size_t errlen)
{
    struct point_fix *x = ctx;
    int rc = pr_point_run(&x->ctx, 0, &x->pt);

    if (rc == 0) {
        if (!x->pt.finished || x->pt.clients[0].code != LD_VALID ||
            x->pt.agg.merged.op[NF_OP_GETATTR].good != 1)
            return cm_errf(err, errlen, "the client's results were not taken");
        return 0;
    }
    snprintf(err, errlen, "%s", x->pt.error);
    /* the shortage named, not the client blamed for it */
    if (strstr(x->pt.error, "memory") == NULL ||
        strstr(x->pt.error, "closed its control connection") != NULL)
        return -EINVAL;
    return -ENOMEM;
}

/* One point of sfs_prime (the clients started by hand) with one client
 * populating: HELLO, MOUNT, INIT, RESULTS over the control plane, each of
 * the prime's allocations failing in turn (the point's tables, the setup,
 * the control-plane readers, the decoded results): the point fails naming
 * the shortage, the client is told and goes, nothing leaks or hangs. */
static void a_point_runs_out_of_memory_cleanly(void **state)
{
    static struct point_fix x;
    const struct th_oom_case c = {"pr_point_run", point_setup, point_op,
                                  point_teardown, -ENOMEM,     0};
    char err[CM_ERR_LEN];
    FILE *fp;

    (void)state;
    memset(&x, 0, sizeof(x));
    fix_make(&x.f);
    fp = fopen(x.f.rc, "a");
    assert_non_null(fp);
    fprintf(fp, "CLIENTS=c1\nLOAD=10\nPOPULATE=1\nPRIME_TIMEOUT=20\n");
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(load(&x.f, &x.run, err, sizeof(err)), 0);
    assert_int_equal(x.run.nclients, 1);
    assert_int_equal(x.run.populate_only, 1);
    assert_int_equal(pipe(x.sig), 0);
    snprintf(x.token_file, sizeof(x.token_file), "%s/token", x.f.dir);
    x.opts.name = "sfs_prime";
    x.opts.launch = 0;
    x.opts.token_file = x.token_file;
    x.opts.diag = stderr;
    x.ctx.run = &x.run;
    x.ctx.opts = &x.opts;
    x.ctx.log = fopen("/dev/null", "w");
    x.ctx.sig_fd = x.sig[0];
    x.ctx.interrupted = &x.interrupted;
    assert_int_equal(ct_token_new(x.ctx.token), 0);
    assert_true(th_oom_check(&c, &x) > 4);
    fclose(x.ctx.log);
    close(x.sig[0]);
    close(x.sig[1]);
    pr_run_free(&x.run);
    fix_remove(&x.f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rc_resolution_runs_out_of_memory_cleanly),
        cmocka_unit_test(results_run_out_of_memory_without_a_half_file),
        cmocka_unit_test(a_point_runs_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
