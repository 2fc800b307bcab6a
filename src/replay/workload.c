/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workload.c - the replay of a block or POSIX trace as a workload
 * (workload.h, rl.h; docs/DECISIONS.md D11, docs/replay.md): its plan is the
 * first pass over the trace, printed as one line; it has no warm-up (a
 * trace brings its own timing) and its run lasts the trace's duration at
 * the replay's speed, cut by -t; its children prepare the trace's files in
 * INIT and replay their streams in RUN.  sfs_mgr's points are the speeds
 * of TRACE_SPEED, each client told its speed and the number of clients
 * (the trace's streams are shared out over every process of every client).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/opt.h"
#include "common/rc.h"
#include "load/options.h"
#include "replay/rl_int.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/num.h"

/* YES for a trace of a block format (named, or recognised by its first
 * bytes), MAYBE for another trace - one another workload may recognise,
 * else the plan says what is wrong with it - and UNREADABLE when the file
 * cannot be read here. */
static int accepts(const struct ld_config *cfg, char *why, size_t whylen)
{
    const struct rb_trace_opts *o = RB_TOPTS(cfg);
    unsigned char buf[4096];
    size_t n;
    FILE *fp;

    if (o->trace_file[0] == '\0')
        return LD_ACCEPT_NO;
    if (strcmp(o->trace_format, "auto") != 0 && o->trace_format[0])
        return tr_find_format(o->trace_format) ? LD_ACCEPT_YES : LD_ACCEPT_MAYBE;
    fp = fopen(o->trace_file, "rb");
    if (fp == NULL)
        return cm_errf(why, whylen, "%s: %s", o->trace_file, strerror(errno)),
               LD_ACCEPT_UNREADABLE;
    n = fread(buf, 1, sizeof(buf), fp);
    fclose(fp);
    return n > 0 && tr_probe(buf, n) ? LD_ACCEPT_YES : LD_ACCEPT_MAYBE;
}

/* The exit code of an option row (the one a bad value of it gives). */
static int exit_code_of(int short_flag)
{
    size_t n;
    const struct cm_opt *t = ld_options_table(&n);
    const struct cm_opt *row = cm_opt_by_short(t, n, short_flag);

    return row ? row->exit_code : CM_EXIT_SFS_USAGE;
}

static int plan(struct ld_setup *su, char *err, size_t errlen)
{
    const struct ld_config *cfg = su->cfg;
    struct rl_plan *p;
    int rc = rb_sched_check(cfg, err, errlen);

    if (rc != 0)
        return rc;
    if (cfg->client_num > RB_TOPTS(cfg)->nclients)
        return cm_errf(err, errlen, "-N %d: more than the %d clients of --clients",
                       cfg->client_num, RB_TOPTS(cfg)->nclients),
               exit_code_of('N');
    p = cm_calloc(1, sizeof(*p));
    if (p == NULL)
        return cm_errf(err, errlen, "out of memory"), CM_EXIT_FAILED;
    if (rl_plan_build(p, cfg, su->log, err, errlen) < 0) {
        free(p);
        /* printed now, as the mix and block-size parsers print theirs */
        fprintf(su->log, "%s\n", err);
        err[0] = '\0';
        return CM_EXIT_USAGE;
    }
    su->plan = p;
    rl_plan_describe(su->log, su->prog, p, RB_TOPTS(cfg)->trace_speed, rb_limit_s(cfg),
                     (unsigned)RB_TOPTS(cfg)->nclients * (unsigned)cfg->procs);
    { /* rl_owner: stream s goes to process s % nprocs; the others idle */
        unsigned procs = (unsigned)RB_TOPTS(cfg)->nclients * (unsigned)cfg->procs;

        (void)rb_spin_warn(
            su->log, su->prog, cfg,
            rl_rate(p->records, (uint64_t)p->trace_ns, RB_TOPTS(cfg)->trace_speed),
            "records", procs < p->nstreams ? procs : p->nstreams);
    }
    /* under sfs_mgr RUNTIME's STOP bounds it; -P replays nothing */
    if (!cfg->prime_host[0] && !cfg->populate_only &&
        rl_plan_check_time(p, RB_TOPTS(cfg)->trace_speed, rb_limit_s(cfg), err, errlen) <
            0)
        return CM_EXIT_SFS_USAGE;
    return 0;
}

static void plan_free(struct ld_setup *su)
{
    if (su->plan) {
        rl_plan_free(su->plan);
        free(su->plan);
    }
    su->plan = NULL;
}

static void schedule(const struct ld_setup *su, struct ld_schedule *s)
{
    const struct ld_config *cfg = su->cfg;
    const struct rl_plan *p = su->plan;
    double expect = rl_expected_s(p, RB_TOPTS(cfg)->trace_speed);
    int limit = rb_limit_s(cfg);

    snprintf(s->run_line, sizeof(s->run_line),
             "Starting replay of %s: %llu records, %.3f s of trace at speed %g.",
             RB_TOPTS(cfg)->trace_file, (unsigned long long)p->records,
             (double)p->trace_ns / 1e9, RB_TOPTS(cfg)->trace_speed);
    rb_schedule(s, expect, limit); /* -t ends it (docs/replay.md) */
}

/* ---- sfs_mgr's points: one per speed of TRACE_SPEED (replaybase) ---------- */

static void point_text(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned load, char *buf, size_t len)
{
    (void)load;
    snprintf(buf, len, "replay of %s at speed %g", RB_TOPTS(cfg)->trace_file,
             pt ? pt->v[0] : RB_TOPTS(cfg)->trace_speed);
}

/* A point whose trace lasts longer at its speed than RUNTIME is cut by
 * STOP: say so before the run (and in --check), once per such point.  The
 * prime reads the trace for its duration; a trace it cannot read is the
 * clients' to refuse, so that only costs the warning. */
static void rc_check(struct cm_rc *rc, const struct ld_config *cfg,
                     const struct ld_point *pts, unsigned n)
{
    struct rl_plan p;
    char err[CM_ERR_LEN];
    unsigned k;

    if (rl_plan_build(&p, cfg, NULL, err, sizeof(err)) < 0) {
        cm_rc_warning(rc, cm_rc_get(rc, "TRACE_FILE"),
                      "cannot tell whether RUNTIME cuts the replay: %s", err);
        return;
    }
    for (k = 0; k < n; k++) {
        double need = rl_expected_s(&p, pts[k].v[0]);

        if (need > cfg->runtime_s)
            cm_rc_warning(rc, cm_rc_get(rc, "RUNTIME"),
                          "%d s is shorter than point %u's replay (the trace's "
                          "%.3f s at speed %g = %.3f s): STOP cuts it, the records due "
                          "later are not replayed",
                          cfg->runtime_s, k + 1, (double)p.trace_ns / 1e9, pts[k].v[0],
                          need);
    }
    rl_plan_free(&p);
}

/* Records replayed of the whole trace's, records held back. */
static void child_live(struct ld_child *c)
{
    const struct rl_replay *rp = (const struct rl_replay *)c;

    rb_live(c, RB_STATS(c)->replay_records, rp->plan->records,
            RB_STATS(c)->replay_behind);
}

static int progress(const struct ld_live *sum, const struct ld_live *last, char *buf,
                    size_t len)
{
    (void)last;
    return rb_progress_text(sum, "records", "waits", buf, len);
}

static const struct ld_opt_group *const options[] = {&rb_trace_options, &rl_block_options,
                                                     NULL};

const struct ld_workload_ops rl_workload = {
    .name = "replay",
    .version = LD_WORKLOAD_VERSION,
    .options = options,
    .accepts = accepts,
    .nfs_versions = LD_NFS_V2 | LD_NFS_V3,
    .plan = plan,
    .plan_free = plan_free,
    .schedule = schedule,
    .child_size = sizeof(struct rl_replay),
    .child_init = rl_child_init,
    .child_phase = rl_child_phase,
    .child_results = rl_child_results,
    .child_free = rl_child_free,
    .report = &rl_report,
    .results = {rb_stats_fields, RB_STATS_NFIELDS, sizeof(struct rb_stats)},
    .rc_points = rb_speed_points,
    .rc_check = rc_check,
    .point_set = rb_speed_point_set,
    .client_args = rb_speed_client_args,
    .point_text = point_text,
    .child_live = child_live,
    .progress = progress,
};
