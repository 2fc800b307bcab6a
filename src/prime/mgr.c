/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mgr.c - sfs_mgr's run (docs/SFS30.md §15): WORK_DIR locked for this run,
 * the validation suite first when asked (-v: sfs -V LEVEL on the first
 * mount point, output in sfsval.SFX), the freshness of the benchmark trees,
 * then each load point in order - the date and "Executing run i of N ...
 * done" on the terminal, everything else in sfslog.SFX - and the result
 * files after each point.  A failed point stops the run; the points before
 * it are kept.  SIGINT/SIGTERM stop the point in progress and everything it
 * started.
 */
#define _GNU_SOURCE /* pipe2, accept4 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl/ct.h"
#include "prime/pr_int.h"
#include "common/alloc.h"

#define VALIDATE_WAIT_S 3600

static volatile sig_atomic_t interrupted;
static int sig_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    int e = errno;

    if (sig != SIGCHLD)
        interrupted = sig;
    if (write(sig_pipe[1], "x", 1) < 0)
        (void)0; /* the pipe is full: a wake-up is pending anyway */
    errno = e;
}

static int install_signals(void)
{
    struct sigaction sa;

    if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
        return -errno;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    return 0;
}

static int mkdirs(const char *path)
{
    char buf[LD_PATH_MAX];
    char *p;

    snprintf(buf, sizeof(buf), "%s", path);
    for (p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                return -errno;
            *p = '/';
        }
    if (mkdir(buf, 0755) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

static void stamp(char *buf, size_t len)
{
    time_t now = time(NULL);

    ctime_r(&now, buf);
    buf[len > 24 ? 24 : len - 1] = '\0';
}

/* -v LEVEL: sfs -V LEVEL [-Q] MOUNT on this host, output in sfsval.SFX. */
static int validate(struct pr_ctx *ctx)
{
    const struct pr_run *run = ctx->run;
    char path[LD_PATH_MAX + 64], prog[LD_PATH_MAX + 64], level[16], err[CM_ERR_LEN],
        st[64], when[32];
    char *argv[] = {prog, "-V", level, NULL, NULL, NULL};
    struct pr_proc p;
    int fd, waited = 0, a = 3;

    snprintf(prog, sizeof(prog), "%s/%s", run->sfs_dir, run->prog);
    snprintf(level, sizeof(level), "%d", ctx->opts->validate);
    if (run->cfg.tcp)
        argv[a++] = "-Q";
    argv[a] = run->clients[0].mounts[0];
    pr_result_path(run, "sfsval", path, sizeof(path));
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(ctx->opts->diag, "%s: %s: %s\n", ctx->opts->name, path, strerror(errno));
        return CM_EXIT_FAILED;
    }
    stamp(when, sizeof(when));
    fprintf(ctx->opts->out, ">>>>> STARTED SFS VALIDATION ON %s <<<<<\n", when);
    fflush(ctx->opts->out);
    dprintf(fd, "%s -V %s%s %s\n", prog, level, run->cfg.tcp ? " -Q" : "", argv[a]);
    if (pr_spawn(&p, argv, fd, NULL, err, sizeof(err)) < 0) {
        close(fd);
        fprintf(ctx->opts->diag, "%s: validation: %s\n", ctx->opts->name, err);
        return CM_EXIT_STOPPED;
    }
    close(p.in_fd);
    p.in_fd = -1;
    while (!pr_proc_poll(&p) && !interrupted && waited < VALIDATE_WAIT_S * 1000) {
        usleep(50000);
        waited += 50;
    }
    if (!p.exited) {
        struct pr_proc *one = &p;
        pr_procs_stop(&one, 1, 0);
        close(fd);
        fprintf(ctx->opts->diag, "%s: validation %s; see %s\n", ctx->opts->name,
                interrupted ? "interrupted" : "did not finish in time", path);
        return interrupted ? CM_EXIT_INTR : CM_EXIT_STOPPED;
    }
    close(fd);
    if (!WIFEXITED(p.status) || WEXITSTATUS(p.status) != 0) {
        pr_status_text(p.status, st, sizeof(st));
        fprintf(
            ctx->opts->diag,
            "sfs_mgr: VALIDATION FAILED: %s -V %s%s %s ended with %s; the server did not "
            "pass, no load point was run (details in %s)\n",
            run->prog, level, run->cfg.tcp ? " -Q" : "", argv[a], st, path);
        fprintf(ctx->log, "VALIDATION FAILED (%s); see %s\n", st, path);
        return CM_EXIT_STOPPED;
    }
    fprintf(ctx->opts->out, "Validation completed\n");
    fprintf(ctx->log, "Validation completed (see %s)\n", path);
    return CM_EXIT_OK;
}

/* The run's header in sfsres: what, when, and whether the trees were fresh. */
static void header(struct pr_ctx *ctx)
{
    char path[LD_PATH_MAX + 64], trees[600], when[32];
    FILE *f;

    pr_trees_state(ctx->run, trees, sizeof(trees));
    stamp(when, sizeof(when));
    pr_result_path(ctx->run, "sfsres", path, sizeof(path));
    f = fopen(path, "a");
    if (f) {
        fprintf(f,
                "\n#### FreeSFS sfs_mgr: %s, suffix %s, %u run(s) on %u client(s), "
                "started %s\n#### Test directories: %s\n",
                ctx->run->rc_path, ctx->run->suffix, ctx->run->npoints,
                ctx->run->nclients, when, trees);
        fclose(f);
    }
    fprintf(ctx->log, "Test directories: %s\n", trees);
}

/* LOAD=auto's search in sfsres, after the run's header. */
static void search_block(struct pr_ctx *ctx, const struct pr_search *s)
{
    char path[LD_PATH_MAX + 64];
    FILE *f;

    pr_result_path(ctx->run, "sfsres", path, sizeof(path));
    f = fopen(path, "a");
    if (f) {
        pr_search_report(s, f);
        fclose(f);
    }
}

/* sfssum.SFX is appended to, as SFS did: a second run with the same suffix
 * mixes its lines with the first run's, while the YAML and the curve show
 * the new run only.  Say so before the run, while it can still be changed. */
static void warn_reused_suffix(const struct pr_ctx *ctx)
{
    char path[LD_PATH_MAX + 64];
    unsigned lines = 0;
    FILE *f;
    int ch;

    pr_result_path(ctx->run, "sfssum", path, sizeof(path));
    f = fopen(path, "r");
    if (f == NULL)
        return;
    while ((ch = getc(f)) != EOF)
        lines += ch == '\n';
    fclose(f);
    if (lines > 0)
        fprintf(ctx->opts->diag,
                "%s: warning: %s already holds %u line(s) of an earlier run; this run's "
                "are appended after them (as SFS did): give -s a new suffix to keep "
                "the runs apart\n",
                ctx->opts->name, path, lines);
}

static int lock_work_dir(const struct pr_run *run, const char *name, FILE *diag)
{
    char path[LD_PATH_MAX + 64];
    int fd;

    snprintf(path, sizeof(path), "%s/.sfs_mgr.lock", run->work_dir);
    fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
        fprintf(diag, "%s: %s: %s\n", name, path,
                fd < 0 ? strerror(errno) : "another sfs_mgr runs in this WORK_DIR");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    pr_mgr_pidfile(run, path, sizeof(path));
    {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
    }
    return fd;
}

/* The terminal's "Executing run i of N ..." line begins (with the progress
 * lines of sfs_mgr after it) / ends with tail. */
static void point_begins(struct pr_ctx *ctx, unsigned i)
{
    const struct pr_run *run = ctx->run;
    char label[64], text[96];
    double after;

    snprintf(label, sizeof(label), "run %u of %u", i + 1, run->npoints);
    snprintf(text, sizeof(text), "Executing run %u of %u ...", i + 1, run->npoints);
    if (ctx->meter == NULL) {
        fprintf(ctx->opts->out, "%s%s", text, ctx->opts->launch ? "" : "\n");
        fflush(ctx->opts->out);
        return;
    }
    after = (run->npoints - i - 1) *
            pr_meter_point_s(ctx->meter, run->cfg.warmup_s, run->cfg.runtime_s);
    pr_meter_point(ctx->meter, label, text, after);
}

static void point_ends(struct pr_ctx *ctx, const char *tail)
{
    if (ctx->meter)
        pr_meter_point_end(ctx->meter, tail, ctx->run->cfg.warmup_s,
                           ctx->run->cfg.runtime_s);
    else
        fprintf(ctx->opts->out, "%s\n", tail);
    fflush(ctx->opts->out);
}

static int points(struct pr_ctx *ctx, struct pr_point *pts, unsigned *done)
{
    const struct pr_run *run = ctx->run;
    FILE *out = ctx->opts->out;
    unsigned i;

    for (i = 0; i < run->npoints; i++) {
        char when[32], what[LD_PATH_MAX + 64];
        int rc;

        stamp(when, sizeof(when));
        fprintf(out, "%s\n", when);
        point_begins(ctx, i);
        run->wl->point_text(&run->cfg, pr_point_values(run, i), run->points[i], what,
                            sizeof(what));
        fprintf(ctx->log, "%s Executing run %u of %u: %s\n", when, i + 1, run->npoints,
                what);
        fflush(ctx->log);
        if (ct_token_new(ctx->token) < 0) {
            point_ends(ctx, " FAILED");
            fprintf(ctx->opts->diag, "%s: no random token: %s\n", ctx->opts->name,
                    strerror(errno));
            return CM_EXIT_FAILED;
        }
        rc = pr_point_run(ctx, i, &pts[i]);
        *done = i + 1;
        pr_results_point(ctx, pts, i + 1);
        if (rc < 0) {
            point_ends(ctx, " FAILED");
            fprintf(ctx->opts->diag, "%s: run %u of %u failed: %s\n", ctx->opts->name,
                    i + 1, run->npoints, pts[i].error);
            return interrupted ? CM_EXIT_INTR : CM_EXIT_FAILED;
        }
        point_ends(ctx, run->populate_only ? " done (populated)"
                        : pts[i].val.code  ? " done (INVALID)"
                                           : " done");
    }
    return CM_EXIT_OK;
}

/* The clients say which workload the run is (the prime cannot read the
 * input that decides: pr_run.ask_clients), and the rc file is resolved
 * again as if WORKLOAD named it, into asked. */
static int ask_workload(struct pr_ctx *ctx, struct pr_run *asked)
{
    const struct pr_run *run = ctx->run;
    char name[32] = "", err[CM_ERR_LEN], when[32];

    stamp(when, sizeof(when));
    fprintf(ctx->log,
            "%s The prime cannot choose the workload (%s): asking the clients.\n", when,
            run->ask_why);
    if (ct_token_new(ctx->token) < 0 ||
        pr_workload_ask(ctx, name, sizeof(name), err, sizeof(err)) < 0) {
        fprintf(ctx->opts->diag, "%s: the clients could not say their workload: %s\n",
                ctx->opts->name, err);
        return interrupted ? CM_EXIT_INTR : CM_EXIT_FAILED;
    }
    fprintf(ctx->log, "%s The clients run the %s workload.\n", when, name);
    if (pr_run_load_as(asked, run->rc_path, run->suffix, ctx->opts->diag, name) < 0 ||
        asked->wl == NULL) {
        fprintf(ctx->opts->diag, "%s: %s: the rc file has errors for the %s workload\n",
                ctx->opts->name, run->rc_path, name);
        return CM_EXIT_USAGE;
    }
    return CM_EXIT_OK;
}

int pr_mgr_run(const struct pr_run *run, const struct pr_opts *o)
{
    char path[LD_PATH_MAX + 64];
    struct pr_point *pts;
    struct pr_meter meter;
    struct pr_ctx ctx;
    struct pr_search search = {0};
    struct pr_run real, asked;
    unsigned done = 0, i;
    int lock, code;

    struct rlimit rl;

    /* one descriptor per client (plus its log and stdin pipe): a large
     * run needs more than the usual soft limit of 1024 */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max < 1048576 ? rl.rlim_max : 1048576;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (mkdirs(run->work_dir) < 0) {
        fprintf(o->diag, "%s: WORK_DIR %s: %s\n", o->name, run->work_dir,
                strerror(errno));
        return CM_EXIT_FAILED;
    }
    lock = lock_work_dir(run, o->name, o->diag);
    if (lock < 0)
        return CM_EXIT_FAILED;
    memset(&ctx, 0, sizeof(ctx));
    ctx.run = run;
    ctx.opts = o;
    ctx.interrupted = &interrupted;
    pr_result_path(run, "sfslog", path, sizeof(path));
    ctx.log = fopen(path, "a");
    pts = cm_calloc(run->npoints, sizeof(*pts));
    if (ctx.log == NULL || pts == NULL || install_signals() < 0) {
        fprintf(o->diag, "%s: %s: %s\n", o->name, path, strerror(errno));
        code = CM_EXIT_FAILED;
        goto out;
    }
    ctx.sig_fd = sig_pipe[0];
    setvbuf(ctx.log, NULL, _IOLBF, 0);
    if (pr_meter_open(&meter, run, o->out, ctx.log, o->progress_s, !o->launch) == 0)
        ctx.meter = &meter;
    memset(&asked, 0, sizeof(asked));
    if (run->ask_clients) {
        code = ask_workload(&ctx, &asked);
        if (code != CM_EXIT_OK)
            goto out;
        ctx.run = &asked;
        if (ctx.meter)
            ctx.meter->run = &asked;
        free(pts);
        pts = cm_calloc(asked.npoints, sizeof(*pts));
        if (pts == NULL) {
            fprintf(o->diag, "%s: out of memory\n", o->name);
            code = CM_EXIT_FAILED;
            goto out;
        }
    }
    code = o->validate > 0 ? validate(&ctx) : CM_EXIT_OK;
    if (code == CM_EXIT_OK)
        warn_reused_suffix(&ctx);
    if (code == CM_EXIT_OK && run->auto_points) { /* the points come from a search */
        code = pr_search_run(&ctx, &search, &real);
        if (code == CM_EXIT_OK) {
            ctx.run = &real;
            ctx.search = &search;
            free(pts);
            pts = cm_calloc(real.npoints, sizeof(*pts));
            if (pts == NULL) {
                fprintf(o->diag, "%s: out of memory\n", o->name);
                code = CM_EXIT_FAILED;
            }
        }
    }
    if (code == CM_EXIT_OK) {
        header(&ctx);
        if (run->auto_points)
            search_block(&ctx, &search);
        code = points(&ctx, pts, &done);
        if (done > 0)
            pr_results_final(&ctx, pts, done, o->out);
    }
out:
    if (ctx.meter)
        pr_meter_close(ctx.meter);
    for (i = 0; pts && i < done; i++)
        pr_point_free(&pts[i]);
    free(pts);
    if (ctx.log)
        fclose(ctx.log);
    if (run->auto_points)
        free(search.points);
    pr_run_free(&asked);
    pr_mgr_pidfile(run, path, sizeof(path));
    unlink(path);
    close(lock);
    return code;
}
