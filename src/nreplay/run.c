/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c - the timed part of the NFS trace replay (nr.h).  Call i is due
 * at start + t_i / speed (speed 0: at once); due calls join the held list
 * in trace order, and a pass over the list sends every call whose
 * dependencies have completed while the window has room, so a call that
 * waits never holds up the calls after it that do not depend on it.
 *
 *   lateness  the send stamp minus the time the call could go: its planned
 *             time, or when its last dependency completed if that was
 *             later (a dependency's wait is not lateness);
 *   held      calls whose dependencies had not completed at their planned
 *             time, with the wait (the last dependency's completion minus
 *             the planned time) in a histogram of its own;
 *   behind    calls that could have gone but found the window full
 *             ("could not keep up").
 *
 * A call whose object has no handle on the server under test (its
 * creation failed) is not sent and is counted (no_replayed_handle); it
 * completes at once so that the calls after it go on.  Sleeping is the
 * block replay's (rl_wait_service: ppoll() on the client's socket to the
 * next deadline).  Nothing is allocated here.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "load/options.h"
#include "nreplay/nr_int.h"
#include "replay/rl.h"

#define CTL_CHECK_NS    50000000ull /* look at the parent's socket every 50 ms */
#define START_NS        2000000ull  /* the clock starts this long after RUN arrives */
#define FOREIGN_POLL_NS 100000ull   /* a call held by another process's: look again */

static uint64_t planned_of(const struct nr_replay *rp, uint32_t v)
{
    int64_t t = nr_vcall(rp, v)->t_ns;

    if (rp->speed <= 0 || t <= 0)
        return rp->start_ns;
    return rp->start_ns + (uint64_t)((double)t / rp->speed);
}

/* Due calls onto the held list. */
static void fill(struct nr_replay *rp, uint64_t now)
{
    while (rp->next < rp->total && rp->nheld < NR_HELD_MAX) {
        uint64_t due = planned_of(rp, rp->next);
        struct nr_held *h;

        if (!nr_mine(rp, rp->next)) { /* another process's stream */
            rp->next++;
            continue;
        }
        if (rp->speed > 0 && due > now)
            break;
        h = &rp->held[rp->nheld++];
        h->idx = rp->next++;
        h->sent = 0;
        h->behind = 0;
        h->since = rp->speed > 0 ? due : now;
    }
}

/* When the last of virtual call v's dependencies (the same copy's calls)
 * completed (0: all before the run), or UINT64_MAX while one has not. */
static uint64_t deps_done(const struct nr_replay *rp, uint32_t v)
{
    const struct nr_call *c = nr_vcall(rp, v);
    uint64_t last = 0;
    unsigned k;

    for (k = 0; k < NR_DEPS && c->dep[k] != NR_NONE; k++) {
        uint64_t d = nr_done_get(rp, v, c->dep[k]);

        if (d == 0)
            return UINT64_MAX;
        if (d > last)
            last = d;
    }
    return last;
}

static void call_done(struct rp_call *call, void *data)
{
    struct nr_slot *s = data;
    struct nr_replay *rp = s->owner;

    (void)call;
    if (rp->closing)
        return;
    nr_call_account(s);
    rp->last_ns = s->call.t_reply_ns ? s->call.t_reply_ns : cm_now_ns();
    if (--rp->left[s->call_idx] == 0)
        nr_done_set(rp, s->call_idx, rp->last_ns);
    rp->in_flight--;
    s->next_free = rp->free_slot;
    rp->free_slot = (int32_t)(s - rp->slots);
}

/* The first time a call could go: its wait for a dependency and whether
 * its object exists here.  0 to send it, 1 when it is not sent (done). */
static int first_piece(struct nr_replay *rp, const struct nr_held *h, uint64_t ready)
{
    struct nr_stats *st = NR_STATS(&rp->cx);

    if (ready > h->since) {
        st->nr_held++;
        cm_hist_add(&st->nr_wait, (ready - h->since) / 1000);
    }
    if (nr_call_ready(rp, h->idx))
        return 0;
    st->nr_unreplayable[NR_SKIP_NO_HANDLE]++; /* its object was never made here */
    nr_done_set(rp, h->idx, cm_now_ns());
    return 1;
}

/* Sends the next piece of held call h, its dependencies done at ready.
 * 0, or -ENOTCONN. */
static int send_piece(struct nr_replay *rp, struct nr_held *h, uint64_t ready)
{
    struct rl_stats *st = RL_STATS(&rp->cx);
    struct nr_slot *s = &rp->slots[rp->free_slot];
    uint64_t from = ready > h->since ? ready : h->since, now;
    uint32_t piece = h->sent++;
    int rc;

    rp->free_slot = s->next_free;
    rp->in_flight++;
    rc = nr_call_start(rp, s, h->idx, piece, call_done);
    if (rc < 0) { /* accounted as a bad call: the piece is answered */
        rp->in_flight--;
        s->next_free = rp->free_slot;
        rp->free_slot = (int32_t)(s - rp->slots);
        if (--rp->left[h->idx] == 0)
            nr_done_set(rp, h->idx, cm_now_ns());
        return rc == -ENOTCONN ? rc : 0;
    }
    if (piece > 0)
        return 0;
    if (h->behind)
        st->replay_behind++;
    now = s->call.t_send_ns;
    if (rp->speed > 0)
        cm_hist_add(&st->replay_late, now > from ? (now - from) / 1000 : 0);
    return 0;
}

/* One pass over the held list.  0 or -ENOTCONN. */
static int issue(struct nr_replay *rp)
{
    uint32_t r, w = 0, n;
    int rc = 0;

    for (r = 0; r < rp->nheld; r++) {
        struct nr_held *h = &rp->held[r];
        uint64_t ready = rc == 0 ? deps_done(rp, h->idx) : UINT64_MAX;

        if (ready != UINT64_MAX && rp->free_slot < 0)
            h->behind = 1;
        if (ready == UINT64_MAX || rp->free_slot < 0) {
            rp->held[w++] = *h;
            continue;
        }
        n = nr_call_pieces(rp, h->idx);
        if (h->sent == 0) {
            rp->left[h->idx] = n;
            if (first_piece(rp, h, ready))
                continue;
        }
        while (rc == 0 && rp->free_slot >= 0 && h->sent < n)
            rc = send_piece(rp, h, ready);
        if (h->sent < n)
            rp->held[w++] = *h; /* the window filled between its pieces */
    }
    rp->nheld = w;
    return rc;
}

static int idle(const struct nr_replay *rp)
{
    return rp->next >= rp->total && rp->nheld == 0 && rp->in_flight == 0;
}

/* Waits for a reply or the next deadline, then services the client. */
static int wait_and_service(struct nr_replay *rp, uint64_t now)
{
    uint64_t wake = now + CTL_CHECK_NS;

    if (rp->next < rp->total && rp->nheld < NR_HELD_MAX) {
        uint64_t due = planned_of(rp, rp->next);
        if (due < wake)
            wake = due;
    }
    if (rp->in_flight == 0 && rp->nheld > 0 && rp->free_slot >= 0)
        wake = now; /* a held call was released by a call that never went */
    if (rp->shares && rp->nheld > 0 && wake > now + FOREIGN_POLL_NS)
        wake = now + FOREIGN_POLL_NS; /* it may wait for another process's call */
    return rl_wait_service(rp->cx.clnt, now, wake);
}

/* The replay ends early: its calls not sent yet (held, or not yet due)
 * are counted, and marked completed so that another process's calls that
 * wait for them are not held for ever (they go on, or find no handle). */
static uint64_t not_sent(struct nr_replay *rp)
{
    uint64_t n = 0, now = cm_now_ns();
    uint32_t r, v;

    for (r = 0; r < rp->nheld; r++)
        if (rp->held[r].sent == 0) {
            nr_done_set(rp, rp->held[r].idx, now);
            n++;
        }
    rp->nheld = 0;
    for (v = rp->next; v < rp->total; v++)
        if (nr_mine(rp, v)) {
            nr_done_set(rp, v, now);
            n++;
        }
    rp->next = rp->total;
    return n;
}

static void finish_stats(struct nr_replay *rp, uint64_t end, int cut)
{
    struct nr_stats *ns = NR_STATS(&rp->cx);
    unsigned k;

    rp->cx.stats.runtime_ns = end > rp->start_ns ? end - rp->start_ns : 0;
    ns->rl.replay_run_ns = rp->last_ns > rp->start_ns ? rp->last_ns - rp->start_ns : 0;
    ns->rl.replay_trace_ns = (uint64_t)rp->plan->trace_ns;
    ns->rl.replay_trace_records = rp->plan->ncalls; /* one copy's (merged by maximum) */
    ns->rl.replay_cut = (uint64_t)cut;
    if (cut)
        ns->nr_not_sent += not_sent(rp);
    for (k = 0; k < NR_SKIPS; k++) /* every copy's, once (its tree's maker) */
        ns->nr_unreplayable[k] += rp->plan->skipped[k] * rp->nprepared;
}

/* The server's handles went stale (it was restarted and lost the image):
 * said on stderr and in the results (ended_early, when). */
static void stale_end(struct nr_replay *rp)
{
    struct nr_stats *st = NR_STATS(&rp->cx);

    rp->cx.stats.ended_early = LD_END_STALE;
    st->nr_stale_ns =
        rp->stale_since_ns > rp->start_ns ? rp->stale_since_ns - rp->start_ns : 0;
    ld_child_log(&rp->cx,
                 "nfs replay: %s: the server's file handles went stale at %.3f s: was it "
                 "restarted? (%u STALE replies in a row where the trace had others); "
                 "%" PRIu64 " calls not replayed; the run ends early",
                 ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index),
                 (double)st->nr_stale_ns / 1e9, rp->stale_run, st->nr_not_sent);
}

int nr_run(struct ld_child *c, uint32_t limit_s)
{
    struct nr_replay *rp = (struct nr_replay *)c;
    struct rl_loop loop;
    uint64_t now;
    int rc = 0, stopped = 0, stale = 0;
    struct rp_client_stats cs0, cs1;

    c->phase = LD_CPHASE_RUN;
    c->stop = 0;
    ld_child_results_reset(c);
    c->measuring = 1;
    rp->start_ns = cm_now_ns() + (rp->speed > 0 ? START_NS : 0);
    rp->last_ns = rp->start_ns;
    rp->stale_run = 0;
    rp_client_stats(c->clnt, &cs0);
    rl_loop_start(&loop, rp->start_ns, limit_s);
    while (!idle(rp)) {
        now = cm_now_ns();
        rc = rl_loop_check(&loop, c, now);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            stopped = 1;
            rc = 0;
            break;
        }
        fill(rp, now);
        rc = issue(rp);
        if (rc == 0 && !idle(rp))
            rc = wait_and_service(rp, now);
        if (rc < 0) { /* the client gave up (its TCP reconnection included) */
            ld_child_log(c, "nfs replay: %s: %s: the run ends early",
                         ld_config_mount_for_child(c->cfg, (int)c->index),
                         rp_client_last_error(c->clnt)[0] ? rp_client_last_error(c->clnt)
                                                          : strerror(-rc));
            c->stats.ended_early = LD_END_UNREACHABLE;
            break;
        }
        if (rp->stale_run >= LD_STALE_LIMIT) { /* the server lost the image */
            stale = 1;
            break;
        }
    }
    if ((stopped || stale) &&
        rc == 0) /* drain: every call in flight gets its answer or its timeout */
        while (rp->in_flight > 0) {
            int k = rp_poll(&c->clnt, 1, -1);

            if (k < 0 && k != -EINTR)
                break;
        }
    ld_child_publish(c, 1); /* the progress lines' last reading */
    c->measuring = 0;
    rp_client_stats(c->clnt, &cs1);
    c->stats.reconnects = cs1.reconnects - cs0.reconnects;
    finish_stats(rp, cm_now_ns(), stopped || stale || rc < 0);
    if (stale)
        stale_end(rp);
    return 0;
}
