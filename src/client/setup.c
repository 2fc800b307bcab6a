/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * setup.c - what a client does before its processes start and after they
 * answer, whether it runs alone (run.c) or for a prime (remote.c): the
 * set-up from the options (the mix and block-size files, the workload's
 * plan, the file set's sizing, the checks that can be made before the
 * load), the clock check and what the workload prints before the run, the
 * merge of the children's results, the report's inputs, and the progress
 * lines.  run.c and remote.c both call it; it calls neither.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/cl_int.h"
#include "client/parent.h"
#include "load/pacing.h"
#include "load/report.h"
#include "common/alloc.h"

void cl_progress(FILE *log, const char *fmt, ...)
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
    return CM_EXIT_USAGE;
}

/* The exit code of the --yaml option row. */
static int yaml_exit_code(void)
{
    size_t n;
    const struct cm_opt *t = ld_options_table(&n);
    const struct cm_opt *row = cm_opt_by_long(t, n, "yaml");

    return row ? row->exit_code : CM_EXIT_SFS_USAGE;
}

int cl_setup(struct ld_setup *su, const struct ld_config *cfg, const char *prog,
             FILE *out, FILE *log, char *err, size_t errlen)
{
    int rc;

    memset(su, 0, sizeof(*su));
    su->cfg = cfg;
    rc = cl_workload_choose(cfg, &su->wl, err, errlen);
    if (rc == CL_UNDECIDED) /* here, the input that decides cannot be read */
        return CM_EXIT_USAGE;
    if (rc == 0)
        rc = cl_workload_over(cfg, su->wl, err, errlen);
    if (rc != 0)
        return rc;
    ld_results_block_init(&su->results, &su->wl->results,
                          nf_proto_by_version(cfg->nfs_version));
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
        return CM_EXIT_SFS_USAGE;
    }
    if (rc < 0) {
        cm_errf(err, errlen, "the file set would be empty (load 0 without -F)");
        return CM_EXIT_SFS_USAGE;
    }
    /* everything that can be checked before the load starts */
    if (cfg->yaml_path[0] && ld_report_yaml_check(cfg->yaml_path, err, errlen) < 0)
        return yaml_exit_code();
    /* where the children publish their live counters (a run goes on
     * without progress lines when it cannot be had) */
    su->live = ld_live_map((unsigned)cfg->procs);
    return 0;
}

void cl_setup_free(struct ld_setup *su)
{
    if (su->wl)
        su->wl->plan_free(su);
    ld_live_unmap(su->live);
    su->live = NULL;
}

int cl_begin(const struct ld_setup *su, char *err, size_t errlen)
{
    struct ld_report_in in;
    struct ld_stats none;
    void *wnone = NULL;
    char host[256];
    double us;

    if (ld_clock_resolution(&cm_monotonic_clock, &us) < 0) {
        fprintf(su->out, "Clock resolution too poor to obtain valid results\n");
        cm_errf(err, errlen, "clock resolution %.1f us is worse than 100 us", us);
        return CM_EXIT_SFS_CLOCK;
    }
    fprintf(su->out, "Good clock resolution [ %g ] Micro seconds\n", us);
    if (su->wl->before_run) { /* SFS's Client Test Parameters */
        ld_stats_reset(&none);
        wnone = su->results.all.size ? cm_calloc(1, su->results.all.size) : NULL;
        if (su->results.all.size && wnone == NULL)
            return cm_errf(err, errlen, "out of memory"), CM_EXIT_FAILED;
        cl_report_in(su, &none, wnone, host, sizeof(host), &in);
        su->wl->before_run(su->out, &in);
        free(wnone);
    }
    fflush(su->out);
    return 0;
}

int cl_collect(struct cl_parent *p, const struct ld_setup *su, struct ld_stats *all,
               void **wall, char *err, size_t errlen)
{
    const struct ld_wstats *w = &su->results.all;
    struct ld_stats *one = cm_malloc(sizeof(*one));
    void *wone = w->size ? cm_malloc(w->size) : NULL;
    unsigned k;
    int rc = 0;

    *wall = w->size ? cm_calloc(1, w->size) : NULL;
    if (one == NULL || (w->size && (wone == NULL || *wall == NULL))) {
        rc = -ENOMEM;
        cm_errf(err, errlen, "out of memory for the results");
    }
    ld_stats_reset(all);
    all->nchildren = 0;
    for (k = 0; k < p->nprocs && rc == 0; k++) {
        if (ld_stats_decode(one, w, wone, p->procs[k].payload, p->procs[k].payload_len,
                            NULL) < 0) {
            rc = -EPROTO;
            cm_errf(err, errlen, "child %u sent undecodable results", k);
            break;
        }
        ld_stats_merge(all, one);
        ld_wstats_merge(w, *wall, wone);
    }
    free(one);
    free(wone);
    if (rc < 0) {
        free(*wall);
        *wall = NULL;
    }
    return rc;
}

void cl_report_in(const struct ld_setup *su, const struct ld_stats *stats,
                  const void *wstats, char *host, size_t hostlen, struct ld_report_in *in)
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
    in->wstats = wstats;
    in->proto = su->results.proto;
    in->pstats = ld_results_proto(&su->results, wstats);
    in->work = su->wl->report;
    in->wl = su->wl;
    in->plan = su->plan;
}
