/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workload.c - the SFS 3.0 mix as a workload (workload.h): its plan is
 * the op selector of the mix and block-size distribution (or -T's single
 * op), it prints SFS's Client Test Parameters before the run, warms up for
 * -w seconds and keeps its load on until the run, runs for -t seconds, and
 * reports by SFS's rules (report.h: ld_sfs_report).  sfs_mgr's points are
 * LOAD's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "load/options.h"
#include "synth/sy_int.h"
#include "common/alloc.h"

static int accepts(const struct ld_config *cfg, char *why, size_t whylen)
{
    (void)cfg, (void)why, (void)whylen;
    return LD_ACCEPT_DEFAULT; /* whatever no other workload asks for */
}

static int plan(struct ld_setup *su, char *err, size_t errlen)
{
    const struct ld_config *cfg = su->cfg;
    struct sy_plan *p = cm_calloc(1, sizeof(*p));

    if (p == NULL)
        return cm_errf(err, errlen, "out of memory"), CM_EXIT_FAILED;
    su->plan = p;
    if (cfg->test_op >= 0) {
        ld_opsel_single(&p->opsel, cfg->test_op);
    } else if (ld_opsel_init(&p->opsel, &su->mix, &su->iodist,
                             nf_proto_by_version(cfg->nfs_version)->sfs_ops, 0) < 0) {
        cm_errf(err, errlen, "the op mix has no op with a non-zero share");
        return CM_EXIT_USAGE;
    }
    return 0;
}

static void plan_free(struct ld_setup *su)
{
    free(su->plan);
    su->plan = NULL;
}

static void schedule(const struct ld_setup *su, struct ld_schedule *s)
{
    const struct ld_config *cfg = su->cfg;

    ld_schedule_timed(cfg, s);
    snprintf(s->run_line, sizeof(s->run_line), "Starting %d seconds test run.",
             cfg->runtime_s);
}

static int child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                      int ctl_fd)
{
    return sy_child_init((struct sy_child *)c, su, index, ctl_fd);
}

static void child_free(struct ld_child *c)
{
    sy_child_free((struct sy_child *)c);
}

static void point_text(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned load, char *buf, size_t len)
{
    (void)cfg, (void)pt;
    snprintf(buf, len, "%u ops/s", load);
}

const struct ld_workload_ops sy_workload = {
    .name = "mix",
    .version = LD_WORKLOAD_VERSION,
    .accepts = accepts,
    .nfs_versions = LD_NFS_V2 | LD_NFS_V3 | LD_NFS_V(4),
    .plan = plan,
    .plan_free = plan_free,
    .before_run = ld_report_params,
    .schedule = schedule,
    .child_size = sizeof(struct sy_child),
    .child_init = child_init,
    .child_phase = sy_child_phase,
    .child_hold = sy_child_hold,
    .child_results = sy_child_results,
    .child_live = sy_child_live,
    .child_free = child_free,
    .report = &ld_sfs_report,
    .point_text = point_text,
};
