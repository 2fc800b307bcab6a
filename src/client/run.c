/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c - one standalone client run (cl.h: cl_run): fork the children,
 * drive the phases of docs/SFS30.md §12.2 through the parent (parent.c) as
 * the workload schedules them, collect and merge the children's results,
 * and print the SFS client report and write the YAML (load/report.h).  A
 * client of a prime drives the same phases from the control plane instead
 * (remote.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/cl_int.h"
#include "client/parent.h"
#include "load/debug.h"
#include "load/report.h"

static int wait_for_return(FILE *log)
{
    char line[64];

    fprintf(log, "Hit <return> when ready to start test run...");
    fflush(log);
    return fgets(line, sizeof(line), stdin) == NULL ? -EIO : 0;
}

/* The phases of docs/SFS30.md §12.2 in order; 0 or -errno with p->last_error.
 * The load phases print their progress lines through m. */
static int drive(struct cl_parent *p, const struct ld_setup *su, FILE *log,
                 struct cl_meter *m)
{
    const struct ld_config *cfg = su->cfg;
    struct ld_schedule sched;
    int rc;

    cl_progress(log, "Mounting %d remote test directories.", cfg->procs);
    rc = cl_parent_phase(p, CT_MSG_MOUNT, 0, LD_PHASE_MOUNT_S + (unsigned)cfg->procs);
    if (rc == 0) {
        cl_progress(log, "Completed.");
        cl_progress(log, "Initializing test directories.");
        rc = cl_parent_phase(p, CT_MSG_INIT, 0, LD_PHASE_INIT_S);
    }
    if (rc < 0)
        return rc;
    cl_progress(log, "Completed.");
    if (cfg->populate_only)
        return 0;
    memset(&sched, 0, sizeof(sched));
    su->wl->schedule(su, &sched);
    if (sched.warmup_s > 0) {
        cl_progress(log, "Performing %u seconds pretest warmup.", sched.warmup_s);
        cl_meter_begin(m, "warm-up", sched.warmup_s);
        rc = cl_parent_phase(p, CT_MSG_WARMUP, sched.warmup_s,
                             sched.warmup_s + LD_PHASE_SLACK_S);
        cl_meter_end(m);
        if (rc < 0)
            return rc;
    }
    if (cfg->interactive && wait_for_return(log) < 0)
        return cm_errf(p->last_error, sizeof(p->last_error), "no answer on stdin"), -EIO;
    cl_progress(log, "%s", sched.run_line);
    cl_meter_begin(m, "run", sched.run_arg);
    rc = cl_parent_phase(p, CT_MSG_RUN, sched.run_arg, sched.run_wait_s);
    cl_meter_end(m);
    if (rc == 0)
        cl_progress(log, "Completed.");
    return rc;
}

static void report(const struct ld_setup *su, const struct ld_stats *all,
                   const void *wall, char *err, size_t errlen, int *code)
{
    char host[256];
    struct ld_validity val;
    struct ld_report_in in;

    cl_report_in(su, all, wall, host, sizeof(host), &in);
    ld_validity_check(&in, &val);
    ld_report_client(su->out, &in, &val);
    fflush(su->out);
    if (su->cfg->yaml_path[0]) {
        if (ld_report_yaml(su->cfg->yaml_path, &in, &val, err, errlen) < 0)
            *code = CM_EXIT_FAILED;
        else
            fprintf(su->log, "%s: results written to %s\n", su->prog, su->cfg->yaml_path);
    }
}

int cl_run(const struct ld_setup *su, char *err, size_t errlen)
{
    const struct ld_config *cfg = su->cfg;
    FILE *log = su->log;
    struct cl_parent p;
    struct cl_meter m;
    struct ld_stats all;
    void *wall = NULL;
    int code = CM_EXIT_OK, rc;

    memset(&p, 0, sizeof(p));
    cl_meter_init(&m, su, log);
    p.log = log;
    p.tick = cl_meter_tick;
    p.tick_data = &m;
    p.debug_signals = ld_debug_on(cfg->debug_mask, LD_DBG_PARENT_SIGNAL);
    /* the children inherit su through fork */
    rc = cl_parent_spawn(&p, (unsigned)cfg->procs, ld_child_main, (void *)su);
    if (rc == 0 && ld_debug_on(cfg->debug_mask, LD_DBG_PARENT_GENERAL)) {
        unsigned k;
        for (k = 0; k < p.nprocs; k++)
            fprintf(log, "%s: child %u is pid %ld, mount point %s\n", su->prog, k,
                    (long)p.procs[k].pid, ld_config_mount_for_child(cfg, (int)k));
    }
    if (rc == 0)
        rc = drive(&p, su, log, &m);
    if (rc == 0)
        rc = cl_parent_phase(&p, CT_MSG_RESULTS, 0, LD_PHASE_SLACK_S);
    if (rc == 0)
        rc = cl_parent_reap(&p);
    if (rc < 0) {
        cm_errf(err, errlen, "%s", p.last_error);
        if (rc == -EINTR || cl_parent_interrupted())
            code = CM_EXIT_INTR;
        else
            code = rc == -ECHILD ? CM_EXIT_SFS_CHILD : CM_EXIT_FAILED;
        cl_parent_kill_all(&p);
        cl_parent_free(&p);
        return code;
    }
    if (!cfg->populate_only) {
        if (cl_collect(&p, su, &all, &wall, err, errlen) < 0)
            code = CM_EXIT_FAILED;
        else
            report(su, &all, wall, err, errlen, &code);
        free(wall);
    } else {
        cl_progress(log, "Populate only: done.");
    }
    cl_parent_free(&p);
    return code;
}
