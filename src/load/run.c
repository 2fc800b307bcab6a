/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c - one standalone client run (ld.h: ld_run): build the children's
 * setup from the options, drive the phases of sfs-reference §12.2 through
 * the parent (parent.c), collect and merge the children's results, and
 * print the SFS client report and write the YAML (report.c).  The later
 * prime issue drives the same phases from its control plane instead.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "load/debug.h"
#include "load/ld.h"
#include "load/ld_int.h"
#include "load/parent.h"
#include "load/report.h"
#include "load/workload.h"
#include "common/alloc.h"

void ld_progress(FILE *log, const char *fmt, ...)
{
    char stamp[32];
    time_t now = time(NULL);
    va_list ap;

    ctime_r(&now, stamp);
    stamp[24] = '\0';
    fprintf(log, "%s ", stamp);
    va_start(ap, fmt);
    vfprintf(log, fmt, ap);
    va_end(ap);
    fputc('\n', log);
    fflush(log);
}

/* The parsers print every "FILE:LINE:" diagnostic to stderr themselves:
 * err is emptied so that main prints nothing twice. */
static int input_error(char *err)
{
    err[0] = '\0';
    return LD_EXIT_INPUT;
}

/* The exit code of the --yaml option row. */
static int yaml_exit_code(void)
{
    size_t n;
    const struct cm_opt *t = ld_options_table(&n);
    const struct cm_opt *row = cm_opt_by_long(t, n, "yaml");

    return row ? row->exit_code : LD_EXIT_USAGE;
}

int ld_run_setup(struct ld_setup *su, const struct ld_config *cfg, const char *prog,
                 FILE *out, FILE *log, char *err, size_t errlen)
{
    int rc;

    memset(su, 0, sizeof(*su));
    su->cfg = cfg;
    su->wl = ld_workload_choose(cfg);
    su->prog = prog;
    su->out = out;
    su->log = log;
    if (cfg->mix_file[0]) {
        if (ld_mix_load(&su->mix, cfg->nfs_version, cfg->mix_file, log, err, errlen) < 0)
            return input_error(err);
    } else {
        ld_mix_default(&su->mix, cfg->nfs_version);
    }
    if (cfg->iodist_file[0]) {
        if (ld_iodist_load(&su->iodist, (uint32_t)cfg->kb_per_block, cfg->iodist_file,
                           log, err, errlen) < 0)
            return input_error(err);
    } else {
        ld_iodist_default(&su->iodist, (uint32_t)cfg->kb_per_block);
    }
    rc = su->wl->plan(su, err, errlen);
    if (rc != 0)
        return rc;
    rc = ld_sizing_compute(cfg, &su->sizing);
    if (rc == -E2BIG) {
        cm_errf(err, errlen,
                "-l %d%s: %u io files per process, more than the %u a process can hold "
                "(use more processes or clients, or -F)",
                cfg->load, cfg->io_files > 0 ? " -F" : "", su->sizing.io_child,
                LD_MAX_IO_CHILD);
        return LD_EXIT_USAGE;
    }
    if (rc < 0) {
        cm_errf(err, errlen, "the file set would be empty (load 0 without -F)");
        return LD_EXIT_USAGE;
    }
    /* issue 10: everything that can be checked before the load starts */
    if (cfg->yaml_path[0] && ld_report_yaml_check(cfg->yaml_path, err, errlen) < 0)
        return yaml_exit_code();
    return 0;
}

void ld_run_setup_free(struct ld_setup *su)
{
    if (su->wl)
        su->wl->plan_free(su);
}

int ld_run_collect(struct ld_parent *p, struct ld_stats *all, char *err, size_t errlen)
{
    struct ld_stats one;
    unsigned k;

    ld_stats_reset(all);
    all->nchildren = 0;
    for (k = 0; k < p->nprocs; k++) {
        if (ld_stats_decode(&one, p->procs[k].payload, p->procs[k].payload_len) < 0)
            return cm_errf(err, errlen, "child %u sent undecodable results", k), -EPROTO;
        ld_stats_merge(all, &one);
    }
    return 0;
}

static int wait_for_return(FILE *log)
{
    char line[64];

    fprintf(log, "Hit <return> when ready to start test run...");
    fflush(log);
    return fgets(line, sizeof(line), stdin) == NULL ? -EIO : 0;
}

/* The phases of §12.2 in order; 0 or -errno with p->last_error. */
static int drive(struct ld_parent *p, const struct ld_setup *su, FILE *log)
{
    const struct ld_config *cfg = su->cfg;
    struct ld_schedule sched;
    int rc;

    ld_progress(log, "Mounting %d remote test directories.", cfg->procs);
    rc = ld_parent_phase(p, LD_MSG_MOUNT, 0, LD_PHASE_MOUNT_S + (unsigned)cfg->procs);
    if (rc == 0) {
        ld_progress(log, "Completed.");
        ld_progress(log, "Initializing test directories.");
        rc = ld_parent_phase(p, LD_MSG_INIT, 0, LD_PHASE_INIT_S);
    }
    if (rc < 0)
        return rc;
    ld_progress(log, "Completed.");
    if (cfg->populate_only)
        return 0;
    memset(&sched, 0, sizeof(sched));
    su->wl->schedule(su, &sched);
    if (sched.warmup_s > 0) {
        ld_progress(log, "Performing %u seconds pretest warmup.", sched.warmup_s);
        rc = ld_parent_phase(p, LD_MSG_WARMUP, sched.warmup_s,
                             sched.warmup_s + LD_PHASE_SLACK_S);
        if (rc < 0)
            return rc;
    }
    if (cfg->interactive && wait_for_return(log) < 0)
        return cm_errf(p->last_error, sizeof(p->last_error), "no answer on stdin"), -EIO;
    ld_progress(log, "%s", sched.run_line);
    rc = ld_parent_phase(p, LD_MSG_RUN, sched.run_arg, sched.run_wait_s);
    if (rc == 0)
        ld_progress(log, "Completed.");
    return rc;
}

void ld_run_report_in(const struct ld_setup *su, const struct ld_stats *stats, char *host,
                      size_t hostlen, struct ld_report_in *in)
{
    snprintf(host, hostlen, "localhost");
    gethostname(host, hostlen - 1);
    memset(in, 0, sizeof(*in));
    in->prog = su->prog;
    in->host = host;
    in->when = time(NULL);
    in->cfg = su->cfg;
    in->mix = &su->mix;
    in->iodist = &su->iodist;
    in->sizing = &su->sizing;
    in->stats = stats;
    in->work = su->wl->report;
    in->plan = su->plan;
}

static void report(const struct ld_setup *su, const struct ld_stats *all, char *err,
                   size_t errlen, int *code)
{
    char host[256];
    struct ld_validity val;
    struct ld_report_in in;

    ld_run_report_in(su, all, host, sizeof(host), &in);
    ld_validity_check(&in, &val);
    ld_report_client(su->out, &in, &val);
    fflush(su->out);
    if (su->cfg->yaml_path[0]) {
        if (ld_report_yaml(su->cfg->yaml_path, &in, &val, err, errlen) < 0)
            *code = LD_EXIT_FAILED;
        else
            fprintf(su->log, "%s: results written to %s\n", su->prog, su->cfg->yaml_path);
    }
}

/* What the workload prints before the run (SFS's Client Test Parameters). */
static void before_run(const struct ld_setup *su)
{
    struct ld_report_in in;
    struct ld_stats none;
    char host[256];

    if (!su->wl->before_run)
        return;
    ld_stats_reset(&none);
    ld_run_report_in(su, &none, host, sizeof(host), &in);
    su->wl->before_run(su->out, &in);
    fflush(su->out);
}

/* The standalone run of a set-up client; returns the exit code. */
static int run_here(const struct ld_setup *su, char *err, size_t errlen)
{
    const struct ld_config *cfg = su->cfg;
    FILE *log = su->log;
    struct ld_parent p;
    struct ld_stats all;
    int code = LD_EXIT_OK, rc;

    memset(&p, 0, sizeof(p));
    p.log = log;
    p.debug_signals = ld_debug_on(cfg->debug_mask, LD_DBG_PARENT_SIGNAL);
    /* the children inherit su through fork */
    rc = ld_parent_spawn(&p, (unsigned)cfg->procs, ld_child_main, (void *)su);
    if (rc == 0 && ld_debug_on(cfg->debug_mask, LD_DBG_PARENT_GENERAL)) {
        unsigned k;
        for (k = 0; k < p.nprocs; k++)
            fprintf(log, "%s: child %u is pid %ld, mount point %s\n", su->prog, k,
                    (long)p.procs[k].pid, ld_config_mount_for_child(cfg, (int)k));
    }
    if (rc == 0)
        rc = drive(&p, su, log);
    if (rc == 0)
        rc = ld_parent_phase(&p, LD_MSG_RESULTS, 0, LD_PHASE_SLACK_S);
    if (rc == 0)
        rc = ld_parent_reap(&p);
    if (rc < 0) {
        cm_errf(err, errlen, "%s", p.last_error);
        if (rc == -EINTR || ld_parent_interrupted())
            code = LD_EXIT_INTR;
        else
            code = rc == -ECHILD ? LD_EXIT_CHILD : LD_EXIT_FAILED;
        ld_parent_kill_all(&p);
        ld_parent_free(&p);
        return code;
    }
    if (!cfg->populate_only) {
        if (ld_run_collect(&p, &all, err, errlen) < 0)
            code = LD_EXIT_FAILED;
        else
            report(su, &all, err, errlen, &code);
    } else {
        ld_progress(log, "Populate only: done.");
    }
    ld_parent_free(&p);
    return code;
}

int ld_run(const struct ld_config *cfg, const char *prog, FILE *out, FILE *log, char *err,
           size_t errlen)
{
    struct ld_setup *su;
    double us;
    int code, rc;

    if (cfg->validate > 0)
        return ld_validate(cfg, prog, out, stdin, err, errlen);
    if (cfg->kill_run[0]) {
        rc = ld_pidfile_kill(cfg->kill_run, err, errlen);
        fprintf(log, "%s: %s\n", prog, err);
        err[0] = '\0';
        return rc < 0 ? LD_EXIT_FAILED : LD_EXIT_OK;
    }
    su = cm_calloc(1, sizeof(*su));
    if (su == NULL)
        return cm_errf(err, errlen, "out of memory"), LD_EXIT_FAILED;
    code = ld_run_setup(su, cfg, prog, out, log, err, errlen);
    if (code == 0 && ld_clock_resolution(&cm_monotonic_clock, &us) < 0) {
        fprintf(out, "Clock resolution too poor to obtain valid results\n");
        cm_errf(err, errlen, "clock resolution %.1f us is worse than 100 us", us);
        code = LD_EXIT_CLOCK;
    }
    if (code == 0) {
        fprintf(out, "Good clock resolution [ %g ] Micro seconds\n", us);
        before_run(su);
        code = cfg->prime_host[0] ? ld_remote_run(cfg, su, log, err, errlen)
                                  : run_here(su, err, errlen);
    }
    ld_run_setup_free(su);
    free(su);
    return code;
}
