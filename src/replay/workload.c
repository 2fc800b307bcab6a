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

int rl_limit_s(const struct ld_config *cfg)
{
    if (cfg->prime_host[0]) /* the prime's STOP comes RUNTIME s after RUN */
        return cfg->runtime_s;
    return ld_config_was_set(cfg, "runtime") ? cfg->runtime_s : 0;
}

/* YES for a trace of a block format (named, or recognised by its first
 * bytes), MAYBE for another trace - one another workload may recognise,
 * else the plan says what is wrong with it - and UNREADABLE when the file
 * cannot be read here. */
static int accepts(const struct ld_config *cfg, char *why, size_t whylen)
{
    const struct rl_trace_opts *o = RL_TOPTS(cfg);
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

    if (cfg->client_num > RL_TOPTS(cfg)->nclients)
        return cm_errf(err, errlen, "-N %d: more than the %d clients of --clients",
                       cfg->client_num, RL_TOPTS(cfg)->nclients),
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
    rl_plan_describe(su->log, su->prog, p, RL_TOPTS(cfg)->trace_speed, rl_limit_s(cfg),
                     (unsigned)RL_TOPTS(cfg)->nclients * (unsigned)cfg->procs);
    /* under sfs_mgr RUNTIME's STOP bounds it; -P replays nothing */
    if (!cfg->prime_host[0] && !cfg->populate_only &&
        rl_plan_check_time(p, RL_TOPTS(cfg)->trace_speed, rl_limit_s(cfg), err, errlen) <
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
    double expect = rl_expected_s(p, RL_TOPTS(cfg)->trace_speed);
    int limit = rl_limit_s(cfg);

    snprintf(s->run_line, sizeof(s->run_line),
             "Starting replay of %s: %llu records, %.3f s of trace at speed %g.",
             RL_TOPTS(cfg)->trace_file, (unsigned long long)p->records,
             (double)p->trace_ns / 1e9, RL_TOPTS(cfg)->trace_speed);
    if (limit > 0 && (expect == 0 || expect > limit)) /* -t ends it (docs/replay.md) */
        expect = limit;
    s->warmup_s = 0; /* a trace brings its own timing */
    s->run_arg = (uint32_t)limit;
    s->run_wait_s = expect > 0 ? (unsigned)expect + LD_PHASE_SLACK_S : LD_PHASE_INIT_S;
}

/* ---- sfs_mgr's points: one per speed of TRACE_SPEED ---------------------- */

int rl_rc_values(struct cm_rc *rc, const struct rl_rc_list *l, struct ld_point *pts,
                 unsigned max, unsigned var)
{
    const struct cm_rc_var *v = cm_rc_get(rc, l->name);
    const char *s = v && v->value[0] ? v->value : l->dflt;
    char word[64], err[CM_ERR_LEN];
    unsigned n = 0;

    while (*s) {
        size_t len = strcspn(s, " \t");
        double x;

        if (len > 0) {
            snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), s);
            if (n == max)
                return cm_rc_error(rc, v, "more than %u %s", max, l->many), -1;
            if (cm_parse_double(l->name, word, l->lo, l->hi, &x, err, sizeof(err)) < 0 ||
                (l->whole && x != (double)(long)x))
                return cm_rc_error(rc, v, "'%s' is not %s", word, l->what), -1;
            pts[n++].v[var] = x;
        }
        s += len;
        s += strspn(s, " \t");
    }
    return (int)n;
}

static int rc_points(struct cm_rc *rc, unsigned nloads, struct ld_point *pts,
                     unsigned max)
{
    static const struct rl_rc_list speeds = {
        "TRACE_SPEED",  "1", 0,
        1000000,        0,   "a speed (0..1000000; 0 = as fast as the window allows)",
        "replay speeds"};
    const struct cm_rc_var *v = cm_rc_get(rc, "TRACE_SPEED");
    int n;

    memset(pts, 0, sizeof(*pts) * max);
    n = rl_rc_values(rc, &speeds, pts, max, 0);
    if (n < 0)
        return -1;
    if (nloads > 1)
        cm_rc_warning(rc, cm_rc_get(rc, "LOAD"),
                      "a replay's points are its TRACE_SPEED values: LOAD is not a list");
    if (n == 0)
        return cm_rc_error(rc, v, "no speed given"), -1;
    return n;
}

static void point_set(struct ld_config *cfg, const struct ld_point *pt)
{
    RL_TOPTS_SET(cfg)->trace_speed = pt->v[0];
}

static int client_args(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned nclients, char (*word)[64], int max)
{
    if (max < 2)
        return 0;
    snprintf(word[0], sizeof(word[0]), "--clients=%u", nclients);
    snprintf(word[1], sizeof(word[1]), "--speed=%.17g",
             pt ? pt->v[0] : RL_TOPTS(cfg)->trace_speed);
    return 2;
}

static void point_text(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned load, char *buf, size_t len)
{
    (void)load;
    snprintf(buf, len, "replay of %s at speed %g", RL_TOPTS(cfg)->trace_file,
             pt ? pt->v[0] : RL_TOPTS(cfg)->trace_speed);
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

void rl_live(struct ld_child *c, uint64_t done, uint64_t total, uint64_t waits)
{
    const struct ld_opstat *t = &c->stats.op[NF_OP_TOTAL];

    if (!c->measuring) /* counted in the run, a replay's one load phase */
        return;
    c->live.good = t->good;
    c->live.bad = t->bad;
    c->live.sum_us = t->sum_us;
    c->live.hist = t->hist;
    c->live.done = done;
    c->live.total = total;
    c->live.waits = waits;
    c->live.late_us =
        (uint64_t)(cm_hist_quantile_ms(&RL_STATS(c)->replay_late, 0.99) * 1000.0);
}

int rl_progress_text(const struct ld_live *sum, const char *unit, const char *waits,
                     char *buf, size_t len)
{
    double late = (double)sum->late_us / 1000.0;

    return snprintf(buf, len, "%s %llu of %llu, late p99 %.*f ms, %s %llu", unit,
                    (unsigned long long)sum->done, (unsigned long long)sum->total,
                    ld_ms_decimals(late), late, waits, (unsigned long long)sum->waits);
}

/* Records replayed of the whole trace's, records held back. */
static void child_live(struct ld_child *c)
{
    const struct rl_replay *rp = (const struct rl_replay *)c;

    rl_live(c, RL_STATS(c)->replay_records, rp->plan->records,
            RL_STATS(c)->replay_behind);
}

static int progress(const struct ld_live *sum, const struct ld_live *last, char *buf,
                    size_t len)
{
    (void)last;
    return rl_progress_text(sum, "records", "waits", buf, len);
}

static const struct ld_opt_group *const options[] = {&rl_trace_options, &rl_block_options,
                                                     NULL};

const struct ld_workload_ops rl_workload = {
    .name = "replay",
    .version = LD_WORKLOAD_VERSION,
    .options = options,
    .accepts = accepts,
    .plan = plan,
    .plan_free = plan_free,
    .schedule = schedule,
    .child_size = sizeof(struct rl_replay),
    .child_init = rl_child_init,
    .child_phase = rl_child_phase,
    .child_results = rl_child_results,
    .child_free = rl_child_free,
    .report = &rl_report,
    .results = {rl_stats_fields, RL_STATS_NFIELDS, sizeof(struct rl_stats)},
    .rc_points = rc_points,
    .rc_check = rc_check,
    .point_set = point_set,
    .client_args = client_args,
    .point_text = point_text,
    .child_live = child_live,
    .progress = progress,
};
