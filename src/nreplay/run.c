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
 * completes at once so that the calls after it go on.  The window, the
 * clock and the sleep to the next deadline are the replay base's
 * (replaybase/rb.h).  Nothing is allocated here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "load/options.h"
#include "nreplay/nr_int.h"

#define FOREIGN_POLL_NS 100000ull /* a call held by another process's: look again */

static uint64_t planned_of(const struct nr_replay *rp, uint32_t v)
{
    return rb_planned(&rp->loop, nr_vcall(rp, v)->t_ns);
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
    struct rb_slot *s = data;
    struct nr_replay *rp = s->owner;

    if (rp->closing)
        return;
    if (!nr_call_account(s) && s->piece == 0)
        rp->cx.stats.nr_not_sent++; /* the transport never took it */
    if (call->t_reply_ns)
        rp->unanswered_since_ns = 0;
    else if (rp->unanswered_since_ns == 0)
        rp->unanswered_since_ns = cm_now_ns();
    rp->loop.last_ns = s->call.t_reply_ns ? s->call.t_reply_ns : cm_now_ns();
    if (--rp->left[s->tag] == 0)
        nr_done_set(rp, s->tag, rp->loop.last_ns);
    rb_window_give(&rp->win, s);
}

/* The first time a call could go: its wait for a dependency and whether
 * its object exists here.  0 to send it, 1 when it is not sent (done). */
static int first_piece(struct nr_replay *rp, const struct nr_held *h, uint64_t ready)
{
    struct ld_stats *st = &rp->cx.stats;

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
    struct ld_stats *st = &rp->cx.stats;
    struct rb_slot *s = rb_window_take(&rp->win, 0);
    uint64_t from = ready > h->since ? ready : h->since, now;
    uint32_t piece = h->sent++;
    int rc;

    rc = nr_call_start(rp, s, h->idx, piece, call_done);
    if (rc == -ENOTCONN) { /* the client broke: not sent (not_sent counts it) */
        rb_window_give(&rp->win, s);
        h->sent--;
        return rc;
    }
    if (rc < 0) { /* accounted as a bad call: the piece is answered */
        rb_window_give(&rp->win, s);
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

        if (ready != UINT64_MAX && rp->win.free == RB_NONE)
            h->behind = 1;
        if (ready == UINT64_MAX || rp->win.free == RB_NONE) {
            rp->held[w++] = *h;
            continue;
        }
        n = nr_call_pieces(rp, h->idx);
        if (h->sent == 0) {
            rp->left[h->idx] = n;
            if (first_piece(rp, h, ready))
                continue;
        }
        while (rc == 0 && rp->win.free != RB_NONE && h->sent < n)
            rc = send_piece(rp, h, ready);
        if (h->sent < n)
            rp->held[w++] = *h; /* the window filled between its pieces */
    }
    rp->nheld = w;
    return rc;
}

static int idle(const struct nr_replay *rp)
{
    return rp->next >= rp->total && rp->nheld == 0 && rp->win.in_flight == 0;
}

/* Waits for a reply or the next deadline, then services the client. */
static int wait_and_service(struct nr_replay *rp, uint64_t now)
{
    uint64_t wake = rb_loop_wake(&rp->loop, now);

    if (rp->next < rp->total && rp->nheld < NR_HELD_MAX) {
        uint64_t due = planned_of(rp, rp->next);
        if (due < wake)
            wake = due;
    }
    if (rp->win.in_flight == 0 && rp->nheld > 0 && rp->win.free != RB_NONE)
        wake = now; /* a held call was released by a call that never went */
    if (rp->shares && rp->nheld > 0 && wake > now + FOREIGN_POLL_NS)
        wake = now + FOREIGN_POLL_NS; /* it may wait for another process's call */
    return rb_wait_service(rp->cx.clnt, now, wake);
}

/* The replay ends early: its calls not sent yet (held, or not yet due)
 * are counted, and marked completed - those held with some of their
 * pieces sent too - so that another process's calls that wait for them
 * are not held for ever (they go on, or find no handle). */
static uint64_t not_sent(struct nr_replay *rp)
{
    uint64_t n = 0, now = cm_now_ns();
    uint32_t r, v;

    for (r = 0; r < rp->nheld; r++) {
        nr_done_set(rp, rp->held[r].idx, now);
        n += rp->held[r].sent == 0;
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

static void finish_stats(struct nr_replay *rp, int cut)
{
    struct ld_stats *st = &rp->cx.stats;
    unsigned k;

    st->replay_trace_records = rp->plan->ncalls; /* one copy's (merged by maximum) */
    st->replay_cut = (uint64_t)cut;
    if (cut)
        st->nr_not_sent += not_sent(rp);
    for (k = 0; k < LD_NR_SKIPS; k++) /* every copy's, once (its tree's maker) */
        st->nr_unreplayable[k] += rp->plan->skipped[k] * rp->nprepared;
}

/* The server's handles went stale (it was restarted and lost the image):
 * said on stderr and in the results (ended_early, when). */
static void stale_end(struct nr_replay *rp)
{
    struct ld_stats *st = &rp->cx.stats;

    st->ended_early = LD_END_STALE;
    st->nr_stale_ns = rp->stale_since_ns > rp->loop.start_ns
                          ? rp->stale_since_ns - rp->loop.start_ns
                          : 0;
    ld_child_log(&rp->cx,
                 "nfs replay: %s: the server's file handles went stale at %.3f s: was it "
                 "restarted? (%u STALE replies in a row where the trace had others); "
                 "%" PRIu64 " calls not replayed; the run ends early",
                 ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index),
                 (double)st->nr_stale_ns / 1e9, rp->stale_run, st->nr_not_sent);
}

/* The server could not be reached for give_up_ms: over TCP the client
 * gave the connection up (why: its error), over UDP nothing was answered
 * for as long.  Said on stderr as the mix says it (docs/sfs.md). */
static void unreachable_end(struct nr_replay *rp, const char *why)
{
    rp->cx.stats.ended_early = LD_END_UNREACHABLE;
    ld_child_log(&rp->cx,
                 "nfs replay: the server at %s is unreachable: %s; %" PRIu64
                 " calls not replayed; the run ends early",
                 ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index), why,
                 rp->cx.stats.nr_not_sent);
}

/* Over UDP: nothing answered for give_up_ms (the RPCs that finished since
 * then were refused or timed out), why says so. */
static int udp_gone(struct nr_replay *rp, uint64_t now, char *why, size_t len)
{
    if (rp->cx.cfg->tcp || rp->unanswered_since_ns == 0 ||
        now - rp->unanswered_since_ns < (uint64_t)rp->give_up_ms * 1000000u)
        return 0;
    snprintf(why, len, "no reply in %u ms (%s)", rp->give_up_ms,
             rp_client_last_error(rp->cx.clnt)[0] ? rp_client_last_error(rp->cx.clnt)
                                                  : "no answer");
    return 1;
}

int nr_run(struct ld_child *c, uint32_t limit_s)
{
    struct nr_replay *rp = (struct nr_replay *)c;
    uint64_t now;
    int rc = 0, stopped = 0, stale = 0, gone = 0;
    struct rp_client_stats cs0, cs1;
    char why[CM_ERR_LEN];

    rb_run_begin(c, &rp->loop, rp->speed, limit_s);
    rp->stale_run = 0;
    rp->unanswered_since_ns = 0;
    rp_client_stats(c->clnt, &cs0);
    while (!idle(rp)) {
        now = cm_now_ns();
        rc = rb_loop_check(&rp->loop, c, now);
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
            snprintf(why, sizeof(why), "%s",
                     rp_client_last_error(c->clnt)[0] ? rp_client_last_error(c->clnt)
                                                      : strerror(-rc));
            gone = 1;
            break;
        }
        if (udp_gone(rp, cm_now_ns(), why, sizeof(why))) {
            gone = 1;
            break;
        }
        if (rp->stale_run >= LD_STALE_LIMIT) { /* the server lost the image */
            stale = 1;
            break;
        }
    }
    /* drain: every call in flight gets its answer, its timeout or its
     * failure (a broken client's calls wait on its done list) */
    while (rp->win.in_flight > 0) {
        int k, dead = rp_client_state(c->clnt) == RP_STATE_DEAD;

        if (dead && rp_client_timeout_ms(c->clnt) < 0)
            break; /* nothing left in the engine to complete them */
        k = rp_poll(&c->clnt, 1, -1);
        if (k < 0 && k != -EINTR && !dead)
            break;
    }
    rb_run_end(c, &rp->loop, cm_now_ns(), rp->plan->trace_ns);
    rp_client_stats(c->clnt, &cs1);
    c->stats.reconnects = cs1.reconnects - cs0.reconnects;
    finish_stats(rp, stopped || stale || gone);
    if (stale)
        stale_end(rp);
    if (gone)
        unreachable_end(rp, why);
    return 0;
}
