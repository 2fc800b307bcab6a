/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * child.c - one child of the SFS mix (sy_int.h): its set-up, its load
 * phases and what it does for each phase command (the workload table's
 * child hooks; the phase loop itself is workload.h's).  The load phases
 * draw a request's op from the selector, let ops.c pick the file and send
 * the calls, and let the pacer (pacing.c) sleep between requests; the
 * parent's socket is checked between requests for STOP (and EOF: a parent
 * that died ends its children), and a message on it ends the pacer's
 * sleep at once.
 *
 * Choices for docs/SFS30.md §22 item 11: results are reset when the run phase starts
 * (warm-up calls are never counted); the run time stored in the results is
 * the child's measured run-phase length.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/debug.h"
#include "synth/sy_int.h"
#include "ctl/ct.h"
#include "load/options.h"
#include "common/alloc.h"

#define CTL_CHECK_NS 50000000ull /* look at the parent's socket every 50 ms */
#define SPARE_DIRS   10u         /* mkdir/rmdir slots per child */

static void on_checkpoint(void *data, const struct ld_pace_checkpoint *cp)
{
    struct sy_child *c = data;

    if (ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_XPOINT, (int)c->cx.index))
        ld_child_log(&c->cx,
                     "%s checkpoint %.1f s: %llu calls, %.2f calls/s (phase %.2f), "
                     "work %.3f ms/call, sleep %.3f -> %.3f ms%s",
                     cp->phase == LD_PHASE_RUN ? "run" : "warm-up", cp->t_ns / 1e9,
                     (unsigned long long)cp->calls_interval, cp->rate_interval,
                     cp->rate_phase, cp->work_ms_per_call, cp->sleep_ms_old,
                     cp->sleep_ms_new, cp->capped ? " (capped)" : "");
}

/* The pacer's sleep in a child: a ppoll() on the parent's socket as well,
 * so that RUN or STOP (or the parent's end) cuts the sleep short.  A
 * request's sleep is calls / rate: a second or more at low rates, which
 * started the run that much late and shorter than the others (SFS's
 * children were woken by a signal).  Once woken the sleeps are plain
 * until the load phase has looked at the socket. */
static int ctl_sleep(void *data, uint64_t ns)
{
    struct sy_child *c = data;
    struct pollfd pf = {c->cx.ctl_fd, POLLIN, 0};
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    int n;

    if (c->cx.ctl_fd < 0 || c->cx.ctl_woken)
        return ld_select_sleeper.sleep_ns(NULL, ns);
    if (ns == 0)
        return 0;
    n = ppoll(&pf, 1, &ts, NULL);
    if (n < 0 && errno != EINTR)
        return -errno;
    if (n > 0)
        c->cx.ctl_woken = 1;
    return 0;
}

int sy_child_init(struct sy_child *c, const struct ld_setup *setup, unsigned index,
                  int ctl_fd)
{
    const struct ld_config *cfg = setup->cfg;
    const struct ld_sizing *sz = &setup->sizing;
    const struct sy_plan *plan = setup->plan;
    void *results = c->cx.results; /* ld_child_alloc's block behind c */
    struct sy_files_layout lay;
    uint32_t g;
    int rc;

    memset(c, 0, sizeof(*c));
    c->cx.results = results;
    ld_child_setup(&c->cx, setup, index, ctl_fd);
    c->opsel = &plan->opsel;
    cm_rng_seed(&c->rng, ld_child_seed(cfg, index));
    if (sy_biod_init(&c->biod, &c->cx.ses, sy_op_prepare, sy_op_done, c) < 0)
        return ld_child_fail(&c->cx, -ENOMEM, "out of memory");
    c->biod.jukebox_delay_ms = (uint32_t)cfg->jukebox_delay_ms;

    memset(&lay, 0, sizeof(lay));
    lay.n_io = sz->io_child;
    /* io x access% + 1 exceeds the io files when -a is 100 */
    lay.n_working = sz->working_io < sz->io_child ? sz->working_io : sz->io_child;
    lay.n_nonio = sz->nonio_child;
    lay.n_symlink = sz->symlinks_child;
    lay.n_dir = sz->dirs_child;
    lay.n_spare_dir = SPARE_DIRS;
    lay.files_per_dir = (uint32_t)cfg->files_per_dir;
    lay.append_pcnt = (uint32_t)cfg->append_pct;
    lay.delta_pcnt = (uint32_t)cfg->fss_delta_pct;
    rc = sy_files_init(&c->files, &lay, c->cx.last_error, sizeof(c->cx.last_error));
    if (rc < 0)
        return rc;
    if (sy_fstate_init(c) < 0) {
        sy_child_free(c);
        return ld_child_fail(&c->cx, -ENOMEM, "out of memory");
    }
    rc = ld_workset_init(&c->ws, c->files.n_working);
    if (rc == 0) {
        c->groups = cm_calloc(c->ws.ngroups, sizeof(*c->groups));
        if (c->groups == NULL)
            rc = -ENOMEM;
    }
    if (rc < 0) {
        cm_errf(c->cx.last_error, sizeof(c->cx.last_error), "working set: %s",
                strerror(-rc));
        sy_child_free(c);
        return rc;
    }
    for (g = 0; g < c->ws.ngroups; g++)
        ld_workset_group(&c->ws, g, &c->groups[g].first, &c->groups[g].count);
    ld_pacer_init(&c->pacer, NULL, &(struct ld_sleeper){ctl_sleep, c}, cfg->pace_mode,
                  sz->child_rate, ld_child_seed(cfg, index) + 1000003 * (index + 1));
    sy_op_decks_init(c);
    c->pacer.on_checkpoint = on_checkpoint;
    c->pacer.hook_data = c;
    return 0;
}

void sy_child_free(struct sy_child *c)
{
    sy_working_leave(c);
    ld_child_unmount(&c->cx);
    if (c->dump)
        (void)sy_dump_close(c->dump);
    c->dump = NULL;
    sy_files_free(&c->files);
    sy_biod_free(&c->biod);
    free(c->fstate);
    c->fstate = NULL;
    if (c->ws.range != NULL)
        ld_workset_free(&c->ws);
    free(c->groups);
    c->groups = NULL;
}

/* ---- the load phases ------------------------------------------------------ */

/* The run ends early: the server could not be reached again.  The line
 * goes to stderr whatever the DEBUG flags; the results keep the cause for
 * the report. */
static void end_early(struct sy_child *c, int cause)
{
    if (c->cx.measuring && (uint64_t)cause > c->cx.stats.ended_early)
        c->cx.stats.ended_early = (uint64_t)cause;
    ld_child_log(&c->cx, "the server at %s is unreachable: %s; the %s phase ended early",
                 ld_config_mount_for_child(c->cx.cfg, (int)c->cx.index),
                 rp_client_last_error(c->cx.ses.rpc),
                 c->cx.phase == LD_CPHASE_RUN ? "run" : "warm-up");
}

/* What the pacer and the clock need after a request of `calls` calls:
 * returns 0 to go on, 1 to end the phase (the run ended early, its
 * results stand), or -errno with last_error (the child fails). */
static int after_request(struct sy_child *c, int calls, uint64_t lag)
{
    int rc;

    if (c->stale_run >= SY_STALE_LIMIT) {
        cm_errf(c->cx.last_error, sizeof(c->cx.last_error),
                "the server's file handles went stale: was it restarted? (%u STALE "
                "replies in a row)",
                c->stale_run);
        return -ESTALE;
    }
    if (calls == -ENOTCONN || rp_client_state(c->cx.ses.rpc) == RP_STATE_DEAD) {
        end_early(c, LD_END_UNREACHABLE);
        return 1;
    }
    if (c->cx.measuring && c->pacer.mode != LD_PACE_SFS)
        c->cx.stats.lag_calls_ms += (double)lag / 1e6 * (double)(calls > 0 ? calls : 0);
    c->requests++;
    rc = ld_pacer_after(&c->pacer, (uint32_t)(calls > 0 ? calls : 0));
    if (rc == -ETIME) {
        /* a whole interval without a call: a server that is still away
         * after a lost connection ends the run with its report (SFS's rule
         * for a silent server stays: the child fails) */
        if (rp_client_state(c->cx.ses.rpc) != RP_STATE_UP) {
            end_early(c, LD_END_UNREACHABLE);
            return 1;
        }
        cm_errf(c->cx.last_error, sizeof(c->cx.last_error),
                "zero calls in a run interval: the server does not answer");
        return -ETIME;
    }
    return 0;
}

/* The pacer's results at the end of a measured phase. */
static void pacing_results(struct sy_child *c)
{
    struct ld_stats *s = &c->cx.stats;
    struct ld_pacer *p = &c->pacer;

    ld_pacer_note_lag(p, c->phase_start_ns + s->runtime_ns);
    s->carry_resets = p->carry_resets;
    s->zero_intervals = p->zero_intervals;
    s->catchup_skips = p->catchup_skips;
    s->ahead_sleeps = p->ahead_sleeps;
    s->behind_ns = ld_pacer_behind_ns(p, c->phase_start_ns + s->runtime_ns);
    s->dropped_ns = p->dropped_ns;
    s->max_lag_ns = p->max_lag_ns;
}

int sy_load_phase(struct sy_child *c, int phase, uint32_t seconds)
{
    uint64_t start = cm_now_ns(), end = start + (uint64_t)seconds * 1000000000ull;
    uint64_t next_check = start + CTL_CHECK_NS, now = start, lag, last_done = start;
    int rc = 0, measuring = phase == LD_CPHASE_RUN;
    struct rp_client_stats st;

    c->cx.phase = phase;
    c->cx.stop = 0;
    c->requests = 0;
    c->phase_start_ns = start;
    c->biod.requests = c->biod.calls = c->biod.max_in_flight = 0;
    c->stale_run = 0;
    /* SFS's fixed class timers from here on (population re-sends sooner) */
    rp_client_set_adaptive_rto(c->cx.ses.rpc, 0);
    if (measuring) {
        ld_child_results_reset(&c->cx); /* the protocol's counters start too */
        c->cx.stats.late_threshold_us = LD_LATE_THRESHOLD_US;
        sy_files_reset_accounting(&c->files);
    }
    c->cx.measuring = measuring;
    rp_client_stats(c->cx.ses.rpc, &st);
    c->cx.stats.reconnects = st.reconnects; /* until the end of the phase */
    ld_pacer_start_phase(&c->pacer, measuring ? LD_PHASE_RUN : LD_PHASE_WARMUP);
    while (!c->cx.stop && (seconds == 0 || now < end)) {
        int op, calls;

        if (now >= next_check || c->cx.ctl_woken) {
            c->cx.ctl_woken = 0;
            if (ld_child_check_parent(&c->cx) < 0) {
                rc = -EPIPE;
                break;
            }
            next_check = now + CTL_CHECK_NS;
            if (c->cx.stop)
                break;
        }
        rc = ld_pacer_before(&c->pacer, &lag);
        if (rc < 0)
            break;
        /* the pacer's sleep may have passed the end: a request sent now
         * would add calls to a phase that is over */
        if (seconds && cm_now_ns() >= end)
            break;
        /* A hold (no time of its own) ends on the parent's command: the
         * loop's check every 50 ms let a child behind its schedule send
         * the hold's calls for up to 50 ms after RUN, answered by the
         * server in the run and counted nowhere.  So a hold looks before
         * every request; a timed phase ends by its clock and keeps the
         * 50 ms check (no extra syscall per request in the run). */
        if (seconds == 0 && ld_child_parent_spoke(&c->cx)) {
            if (ld_child_check_parent(&c->cx) < 0) {
                rc = -EPIPE;
                break;
            }
            if (c->cx.stop)
                break;
        }
        if (measuring && c->pacer.mode != LD_PACE_SFS)
            ld_stats_lag(&c->cx.stats, lag);
        op = sy_op_next(c);
        if (ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_OPS, (int)c->cx.index))
            ld_child_log(&c->cx, "request %llu: %s", (unsigned long long)c->requests,
                         nf_op_name(op));
        calls = sy_op_request(c, op);
        /* its calls are answered (biod.c: a request returns with no slot
         * busy); the pacer's sleep in after_request is idle time, which a
         * window that ends past the run's end must not hold */
        last_done = cm_now_ns();
        rc = after_request(c, calls, lag);
        if (rc != 0) {
            rc = rc > 0 ? 0 : rc;
            break;
        }
        now = cm_now_ns();
    }
    c->cx.measuring = 0;
    ld_child_publish(&c->cx, 1);
    if (ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_BIOD, (int)c->cx.index))
        ld_child_log(&c->cx, "biod: %llu requests, %llu calls, at most %llu in flight",
                     (unsigned long long)c->biod.requests,
                     (unsigned long long)c->biod.calls,
                     (unsigned long long)c->biod.max_in_flight);
    if (ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_GENERAL, (int)c->cx.index))
        ld_child_log(&c->cx, "%s phase ended: %llu requests in %.3f s",
                     measuring ? "run" : "warm-up", (unsigned long long)c->requests,
                     (cm_now_ns() - start) / 1e9);
    if (measuring) {
        /* The run lasts its time, or until its last request's calls were
         * answered when that was later (they count, so the time they took
         * does too); an idle tail (the pacer's sleep past the end) does
         * not. */
        now = cm_now_ns();
        if (seconds && now > end)
            now = last_done > end ? last_done : end;
        ld_child_run_window(&c->cx, start, now);
        pacing_results(c);
        rp_client_stats(c->cx.ses.rpc, &st);
        c->cx.stats.reconnects = st.reconnects - c->cx.stats.reconnects;
    }
    return rc;
}

/* ---- the workload's child hooks ----------------------------------------------- */

void sy_child_live(struct ld_child *cx)
{
    struct sy_child *c = (struct sy_child *)cx;

    cx->live.behind_ns =
        cx->phase >= LD_CPHASE_WARMUP ? ld_pacer_behind_ns(&c->pacer, cm_now_ns()) : 0;
}

void sy_child_results(struct ld_child *cx)
{
    struct sy_child *c = (struct sy_child *)cx;
    const struct ld_sizing *sz = &cx->setup->sizing;
    struct ld_stats *s = &cx->stats;

    s->total_kb = sz->total_kb;
    s->base_kb = sz->base_kb;
    s->least_kb = c->files.least_bytes / 1024;
    s->most_kb = c->files.most_bytes / 1024;
    /* SFS reports the Base/Least/Most of the accessed set as KB of the
     * sizing formula; scale our measured bytes onto it. */
    if (c->files.base_bytes > 0) {
        s->least_kb = sz->base_kb * c->files.least_bytes / c->files.base_bytes;
        s->most_kb = sz->base_kb * c->files.most_bytes / c->files.base_bytes;
    }
    s->io_files = sz->io_child;
    s->working_files = sz->working_io;
    s->nonio_files = sz->nonio_child;
    s->symlinks = sz->symlinks_child;
    s->dirs = sz->dirs_child;
}

int sy_child_phase(struct ld_child *cx, uint32_t type, uint32_t arg)
{
    struct sy_child *c = (struct sy_child *)cx;
    char err[CM_ERR_LEN];
    int rc = 0;

    switch (type) {
    case CT_MSG_MOUNT:
        cx->phase = LD_CPHASE_MOUNT;
        return sy_init_mount(c);
    case CT_MSG_INIT:
        cx->phase = LD_CPHASE_INIT;
        return sy_init_populate(c);
    case CT_MSG_WARMUP:
        return sy_load_phase(c, LD_CPHASE_WARMUP, arg);
    case CT_MSG_RUN:
        if (cx->cfg->raw_dump) {
            c->dump =
                sy_dump_open((unsigned)cx->cfg->client_num, cx->index, err, sizeof(err));
            if (c->dump == NULL) {
                cm_errf(cx->last_error, sizeof(cx->last_error), "%s", err);
                return -EIO;
            }
        }
        rc = sy_load_phase(c, LD_CPHASE_RUN, arg);
        if (c->dump != NULL && sy_dump_close(c->dump) < 0 && rc == 0) {
            cm_errf(cx->last_error, sizeof(cx->last_error), "raw dump: write error");
            rc = -EIO;
        }
        c->dump = NULL;
        return rc;
    default:
        return 0;
    }
}

int sy_child_hold(struct ld_child *cx)
{
    return sy_load_phase((struct sy_child *)cx, LD_CPHASE_WARMUP, 0);
}
