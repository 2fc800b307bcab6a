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
 * completes at once so that the calls after it go on.
 *
 * The calls come from the plan's file (nr_stream), read as they become
 * due.  A due call is a live call until its last piece is answered: the
 * live calls are a ring in trace order, their names in a ring of bytes.
 * What a process keeps is bounded by the look-ahead: it reads a call only
 * while its oldest live call is less than NR_LOOKAHEAD calls before it,
 * and a call of a copy becomes due only once the call NR_LOOKAHEAD before
 * it in that copy has completed (whichever process of the client sent
 * it), so that every dependency (less than NR_LOOKAHEAD back) is found in
 * the client's ring of completions.  The window, the clock and the sleep
 * to the next deadline are the replay base's (replaybase/rb.h).  Nothing
 * is allocated here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/hist.h"
#include "common/error.h"
#include "common/clock.h"
#include "load/options.h"
#include "nreplay/nr_int.h"

#define FOREIGN_POLL_NS 100000ull /* a call held by another process's: look again */

/* ---- completions ---------------------------------------------------------- */

/* Call i of copy k completed at ns (the handles its reply named are
 * written before). */
static void done_set(const struct nr_replay *rp, uint32_t k, uint64_t i, uint64_t ns)
{
    struct nr_done *d = &nr_copy_done(rp, rp->copy_m[k])[i % NR_LOOKAHEAD];

    __atomic_store_n(&d->ns, ns ? ns : 1, __ATOMIC_RELAXED);
    __atomic_store_n(&d->idx1, i + 1, __ATOMIC_RELEASE);
}

/* Whether call j of copy k has completed, and when (*ns; 0: unknown, or
 * before): a call another client replays, or that a process of this
 * client that ended early did not send, counts as completed. */
static int done_of(const struct nr_replay *rp, uint32_t k, uint64_t j, uint64_t *ns)
{
    const struct nr_done *d = &nr_copy_done(rp, rp->copy_m[k])[j % NR_LOOKAHEAD];
    uint64_t idx1;
    uint32_t s;

    *ns = 0;
    if (nr_hosts_foreign(rp, k, j))
        return 1;
    s = rp->stream_of[j % (2 * NR_LOOKAHEAD)];
    if (!nr_mine(rp, k, s) &&
        __atomic_load_n(
            &nr_ended(rp)[nr_unit_proc(rp->cx.cfg, rp->copy_j[k], s, rp->nstreams)],
            __ATOMIC_ACQUIRE))
        return 1;
    idx1 = __atomic_load_n(&d->idx1, __ATOMIC_ACQUIRE);
    if (idx1 == j + 1)
        *ns = __atomic_load_n(&d->ns, __ATOMIC_RELAXED);
    return idx1 >= j + 1; /* a later call in its slot: it completed before */
}

/* When the last of live call l's dependencies completed (0: all before
 * the run, or unknown), or UINT64_MAX while one has not. */
static uint64_t deps_done(const struct nr_replay *rp, const struct nr_live *l)
{
    uint64_t last = 0, ns;
    unsigned k;

    for (k = 0; k < NR_DEPS && l->c.dep[k]; k++) {
        if (!done_of(rp, l->k, l->i - l->c.dep[k], &ns))
            return UINT64_MAX;
        if (ns > last)
            last = ns;
    }
    return last;
}

/* ---- live calls ----------------------------------------------------------- */

static struct nr_live *oldest(const struct nr_replay *rp)
{
    return rp->live_tail < rp->live_head ? &rp->live[rp->live_tail % rp->nlive] : NULL;
}

/* Live call ref has finished (its completion recorded): the ring's tail
 * and the names' move past the finished calls. */
static void live_finish(struct nr_replay *rp, uint32_t ref)
{
    const struct nr_live *o;

    rp->live[ref].done = 1;
    while ((o = oldest(rp)) != NULL && o->done)
        rp->live_tail++;
    rp->names_tail = (o = oldest(rp)) != NULL ? o->names_at : rp->names_head;
}

/* A copy of the name into the names ring at *at; NULL stays NULL. */
static const char *name_in(struct nr_replay *rp, const char *name, uint64_t *at)
{
    size_t n;
    char *to;

    if (!name)
        return NULL;
    n = strlen(name) + 1;
    to = rp->names + *at % NR_NAMES_BYTES;
    memcpy(to, name, n);
    *at += n;
    return to;
}

/* Makes the read call (cur) of copy k a live call due since `since`; its
 * names go into the names ring.  Its slot in the ring, or -1 when the ring
 * or the names have no room. */
static int32_t live_new(struct nr_replay *rp, uint32_t k, uint64_t since)
{
    const struct nr_call *c = &rp->cur;
    size_t need = (c->name ? strlen(c->name) + 1 : 0) +
                  (c->name2 ? strlen(c->name2) + 1 : 0) +
                  (c->text ? strlen(c->text) + 1 : 0);
    uint64_t at = rp->names_head, pos = at % NR_NAMES_BYTES;
    uint32_t ref;
    struct nr_live *l;

    if (rp->live_head - rp->live_tail >= rp->nlive)
        return -1;
    if (pos + need > NR_NAMES_BYTES) /* they do not wrap: the ring's end is left */
        at += NR_NAMES_BYTES - pos;
    if (at + need - rp->names_tail > NR_NAMES_BYTES)
        return -1;
    ref = (uint32_t)(rp->live_head++ % rp->nlive);
    l = &rp->live[ref];
    memset(l, 0, sizeof(*l));
    l->names_at = rp->names_head;
    l->c = *c;
    l->c.name = name_in(rp, c->name, &at);
    l->c.name2 = name_in(rp, c->name2, &at);
    l->c.text = name_in(rp, c->text, &at);
    rp->names_head = at;
    l->i = rp->cur_i;
    l->k = k;
    l->since = since;
    l->pieces = nr_call_pieces(rp, c);
    l->left = l->pieces;
    return (int32_t)ref;
}

/* ---- becoming due ---------------------------------------------------------- */

/* The next call of the plan into cur.  1, 0 when there is none (or the
 * look-ahead holds it back: the oldest live call is NR_LOOKAHEAD calls
 * before it), -EIO with last_error. */
static int read_next(struct nr_replay *rp)
{
    const struct nr_live *o = oldest(rp);
    int rc;

    if (rp->in_end || (o && rp->in.next >= o->i + NR_LOOKAHEAD))
        return 0;
    rc = nr_stream_next(&rp->in, &rp->cur, rp->cx.last_error, sizeof(rp->cx.last_error));
    if (rc < 0)
        return -EIO;
    if (rc == 0) {
        rp->in_end = 1;
        return 0;
    }
    rp->cur_i = rp->in.next - 1;
    rp->cur_k = 0;
    rp->have_cur = 1;
    rp->stream_of[rp->cur_i % (2 * NR_LOOKAHEAD)] = rp->cur.stream;
    return 1;
}

/* Due calls onto the held list.  0, or -EIO (a damaged plan). */
static int fill(struct nr_replay *rp, uint64_t now)
{
    uint64_t ns;
    int32_t ref;
    int rc;

    rp->fill_blocked = 0;
    for (;;) {
        uint64_t due;

        if (!rp->have_cur && (rc = read_next(rp)) <= 0)
            return rc;
        while (rp->cur_k < rp->ncopies && !nr_mine(rp, rp->cur_k, rp->cur.stream))
            rp->cur_k++;
        if (rp->cur_k == rp->ncopies) { /* another process's, or done */
            rp->have_cur = 0;
            continue;
        }
        due = rb_planned(&rp->loop, rp->cur.t_ns);
        if (rp->speed > 0 && due > now)
            return 0;
        /* the call NR_LOOKAHEAD before it in its copy has completed, and
         * the live calls have room: else a completion frees it */
        if ((rp->cur_i >= NR_LOOKAHEAD &&
             !done_of(rp, rp->cur_k, rp->cur_i - NR_LOOKAHEAD, &ns)) ||
            (ref = live_new(rp, rp->cur_k, rp->speed > 0 ? due : now)) < 0) {
            rp->fill_blocked = 1;
            return 0;
        }
        rp->held[rp->nheld++] = (uint32_t)ref;
        rp->taken += rp->cur.v4 == NR_V4_CALL; /* a state record is no call */
        rp->cur_k++;
    }
}

/* ---- sending ---------------------------------------------------------------- */

/* A piece of live call ref is answered, or failed, or will never be sent:
 * the call is complete when its last one is. */
static void piece_over(struct nr_replay *rp, uint32_t ref, uint64_t ns)
{
    struct nr_live *l = &rp->live[ref];

    if (--l->left > 0)
        return;
    done_set(rp, l->k, l->i, ns);
    live_finish(rp, ref);
}

/* Slot s's call finished (accounted: whether the transport took it): the
 * window and its live call move on. */
static void slot_over(struct rb_slot *s, int accounted, uint64_t t_send_ns,
                      uint64_t t_reply_ns)
{
    struct nr_replay *rp = s->owner;

    if (!accounted && s->piece == 0)
        NR_STATS(&rp->cx)->nr_not_sent++; /* the transport never took it */
    if (t_reply_ns) {
        rp->unanswered_since_ns = 0;
        rp->last_reply_ns = t_reply_ns;
    } else if (rp->unanswered_since_ns == 0) {
        /* the silence began when the call went out, not when its UDP
         * tries ran out (seconds later, perhaps after the trace's end) */
        uint64_t since = t_send_ns ? t_send_ns : cm_now_ns();

        rp->unanswered_since_ns = since > rp->last_reply_ns ? since : rp->last_reply_ns;
    }
    rp->loop.last_ns = t_reply_ns ? t_reply_ns : cm_now_ns();
    rb_window_give(&rp->win, s);
    piece_over(rp, s->tag, rp->loop.last_ns);
}

static void call_done(struct rp_call *call, void *data)
{
    struct rb_slot *s = data;
    struct nr_replay *rp = s->owner;

    if (rp->closing)
        return;
    slot_over(s, nr_call_account(s), call->t_send_ns, call->t_reply_ns);
}

/* The first time live call ref could go: its wait for a dependency and
 * whether its object exists here.  0 to send it, 1 when it is not sent
 * (complete at once). */
static int first_piece(struct nr_replay *rp, uint32_t ref, uint64_t ready)
{
    struct nr_live *l = &rp->live[ref];
    int rc;

    if (l->c.v4 != NR_V4_CALL) { /* a state record: the replay's own call */
        if ((rc = nr_state4_record(rp, l)) < 0)
            return rc;
        l->sent = l->pieces;
        l->left = 1;
        piece_over(rp, ref, cm_now_ns());
        return 1;
    }
    if (ready > l->since) {
        NR_STATS(&rp->cx)->nr_held++;
        cm_hist_add(&NR_STATS(&rp->cx)->nr_wait, (ready - l->since) / 1000);
    }
    if (nr_call_ready(rp, l))
        return rp->version == 4 && nr_state4_open(rp, l) == -ENOTCONN ? -ENOTCONN : 0;
    NR_STATS(&rp->cx)
        ->nr_unreplayable[NR_SKIP_NO_HANDLE]++; /* its object was never made here */
    l->sent = l->pieces;
    l->left = 1;
    piece_over(rp, ref, cm_now_ns());
    return 1;
}

/* Sends the next piece of live call ref, its dependencies done at ready.
 * 0, or -ENOTCONN. */
static int send_piece(struct nr_replay *rp, uint32_t ref, uint64_t ready)
{
    struct nr_live *l = &rp->live[ref];
    struct rb_slot *s = rb_window_take(&rp->win, 0);
    uint64_t from = ready > l->since ? ready : l->since, now;
    uint32_t piece = l->sent++;
    int rc;

    rc = nr_call_start(rp, s, ref, piece, call_done);
    if (rc == -ENOTCONN) { /* the client broke: not sent (not_sent counts it) */
        rb_window_give(&rp->win, s);
        l->sent--;
        return rc;
    }
    if (rc < 0) { /* accounted as a bad call: the piece is answered */
        rb_window_give(&rp->win, s);
        piece_over(rp, ref, cm_now_ns());
        return 0;
    }
    if (piece > 0)
        return 0;
    if (l->behind)
        RB_STATS(&rp->cx)->replay_behind++;
    /* a v4 compound waits for its slot in the client: sent now, as far as
     * the replay can tell */
    now = rp->version == 4 && l->c.op != NF_OP_NULL_OP ? cm_now_ns() : s->call.t_send_ns;
    if (rp->speed > 0)
        cm_hist_add(&RB_STATS(&rp->cx)->replay_late,
                    now > from ? (now - from) / 1000 : 0);
    return 0;
}

/* One pass over the held list.  0 or -ENOTCONN. */
static int issue(struct nr_replay *rp)
{
    uint32_t r, w = 0;
    int rc = 0;

    for (r = 0; r < rp->nheld; r++) {
        uint32_t ref = rp->held[r];
        struct nr_live *l = &rp->live[ref];
        uint64_t ready = rc == 0 ? deps_done(rp, l) : UINT64_MAX;

        if (ready != UINT64_MAX && rp->win.free == RB_NONE)
            l->behind = 1;
        if (ready == UINT64_MAX || rp->win.free == RB_NONE) {
            rp->held[w++] = ref;
            continue;
        }
        if (l->sent == 0 && (rc = first_piece(rp, ref, ready)) != 0) {
            if (rc < 0) /* the client broke while it opened the file */
                rp->held[w++] = ref;
            rc = rc < 0 ? rc : 0;
            continue;
        }
        while (rc == 0 && rp->win.free != RB_NONE && l->sent < l->pieces)
            rc = send_piece(rp, ref, ready);
        if (l->sent < l->pieces)
            rp->held[w++] = ref; /* the window filled between its pieces */
    }
    rp->nheld = w;
    return rc;
}

/* ---- waiting and the end ------------------------------------------------------ */

static int idle(const struct nr_replay *rp)
{
    return rp->in_end && !rp->have_cur && rp->nheld == 0 && rp->win.in_flight == 0;
}

/* Waits for a reply or the next deadline, then services the client. */
static int wait_and_service(struct nr_replay *rp, uint64_t now)
{
    uint64_t wake = rb_loop_wake(&rp->loop, now);

    if (rp->have_cur && rp->cur_k < rp->ncopies && !rp->fill_blocked) {
        uint64_t due = rb_planned(&rp->loop, rp->cur.t_ns);
        if (due < wake)
            wake = due;
    }
    if (rp->shares && (rp->nheld > 0 || rp->have_cur) && wake > now + FOREIGN_POLL_NS)
        wake = now + FOREIGN_POLL_NS; /* it may wait for another process's call */
    if (rp->version == 4)
        return nr_clients4_wait(rp, wake);
    return rb_wait_service(&rp->loop, rp->cx.ses.rpc, wake);
}

/* The replay ends early: its calls not sent yet (held, or not yet due)
 * are counted; those held are marked completed - those with some of their
 * pieces sent too - and the process's flag says it ended, so that another
 * process's calls that wait for them are not held for ever (they go on,
 * or find no handle). */
static uint64_t not_sent(struct nr_replay *rp)
{
    uint64_t n = 0, now = cm_now_ns();
    uint32_t r;

    for (r = 0; r < rp->nheld; r++) {
        struct nr_live *l = &rp->live[rp->held[r]];

        n += l->sent == 0 && l->c.v4 == NR_V4_CALL;
        done_set(rp, l->k, l->i, now);
    }
    rp->nheld = 0;
    __atomic_store_n(&nr_ended(rp)[rp->cx.index], 1, __ATOMIC_RELEASE);
    n += rp->unit_calls > rp->taken ? rp->unit_calls - rp->taken : 0;
    rp->taken = rp->unit_calls;
    rp->in_end = 1;
    rp->have_cur = 0;
    return n;
}

static void finish_stats(struct nr_replay *rp, int cut)
{
    unsigned k;

    RB_STATS(&rp->cx)->replay_trace_records =
        rp->plan->ncalls; /* one copy's (merged by maximum) */
    RB_STATS(&rp->cx)->replay_cut = (uint64_t)cut;
    if (cut)
        NR_STATS(&rp->cx)->nr_not_sent += not_sent(rp);
    for (k = 0; k < NR_SKIPS; k++) /* every copy's, once (its tree's maker) */
        NR_STATS(&rp->cx)->nr_unreplayable[k] += rp->plan->skipped[k] * rp->nprepared;
}

/* The server's handles went stale (it was restarted and lost the image):
 * said on stderr and in the results (ended_early, when). */
static void stale_end(struct nr_replay *rp)
{
    struct ld_stats *st = &rp->cx.stats;

    st->ended_early = LD_END_STALE;
    NR_STATS(&rp->cx)->nr_stale_ns = rp->stale_since_ns > rp->loop.start_ns
                                         ? rp->stale_since_ns - rp->loop.start_ns
                                         : 0;
    ld_child_log(&rp->cx,
                 "nfs replay: %s: the server's file handles went stale at %.3f s: was it "
                 "restarted? (%u STALE replies in a row where the trace had others); "
                 "%" PRIu64 " calls not replayed; the run ends early",
                 ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index),
                 (double)NR_STATS(&rp->cx)->nr_stale_ns / 1e9, rp->stale_run,
                 NR_STATS(&rp->cx)->nr_not_sent);
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
                 NR_STATS(&rp->cx)->nr_not_sent);
}

/* Over UDP: nothing answered for give_up_ms (the RPCs that finished since
 * then were refused or timed out), why says so. */
static int udp_gone(struct nr_replay *rp, uint64_t now, char *why, size_t len)
{
    if (rp->cx.cfg->tcp || rp->unanswered_since_ns == 0 ||
        now - rp->unanswered_since_ns < (uint64_t)rp->give_up_ms * 1000000u)
        return 0;
    snprintf(why, len, "no reply in %u ms (%s)", rp->give_up_ms,
             rp_client_last_error(rp->cx.ses.rpc)[0]
                 ? rp_client_last_error(rp->cx.ses.rpc)
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

    rc = nr_stream_open(&rp->in, rp->plan, 0, c->last_error, sizeof(c->last_error));
    if (rc < 0)
        return rc;
    rp->have_cur = rp->in_end = 0;
    rp->taken = 0;
    rp->live_head = rp->live_tail = rp->names_head = rp->names_tail = 0;
    rp->nheld = 0;
    memset(&rp->v4counts, 0, sizeof(rp->v4counts));
    rp->v4closes_traced = 0;
    rp->v4restates = 0;
    rc = rb_run_begin(c, &rp->loop, rp->speed, limit_s);
    if (rc < 0)
        return rc;
    nr_clients4_mark(rp);
    rp->stale_run = 0;
    rp->unanswered_since_ns = rp->last_reply_ns = 0;
    rp_client_stats(c->ses.rpc, &cs0);
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
        rc = fill(rp, now);
        if (rc < 0) /* a damaged plan: last_error says where */
            return rc;
        rc = issue(rp);
        if (rc == 0 && !idle(rp))
            rc = wait_and_service(rp, now);
        if (rc >= 0 && rp->v4restates > 0)
            rc = nr_call4_restates(rp);
        if (rc < 0) { /* the client gave up (its TCP reconnection included) */
            snprintf(why, sizeof(why), "%s",
                     rp_client_last_error(c->ses.rpc)[0]
                         ? rp_client_last_error(c->ses.rpc)
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
        int k, dead = rp_client_state(c->ses.rpc) == RP_STATE_DEAD;

        if (dead && rp_client_timeout_ms(c->ses.rpc) < 0)
            break; /* nothing left in the engine to complete them */
        k = rp->version == 4 ? nr_clients4_wait(rp, UINT64_MAX)
                             : rp_poll(&c->ses.rpc, 1, -1);
        if (k >= 0 && rp->v4restates > 0)
            k = nr_call4_restates(rp);
        if (k < 0 && k != -EINTR && !dead)
            break;
    }
    /* the trace's last calls sent to a server that had gone: their UDP
     * tries ran out after the loop had nothing left to send */
    if (!stopped && !stale && !gone && udp_gone(rp, cm_now_ns(), why, sizeof(why)))
        gone = 1;
    rb_run_end(c, &rp->loop, cm_now_ns(), rp->plan->trace_ns);
    nr_clients4_count(rp); /* the traced clients' clients beyond the session's */
    if (rp->version == 4 && !gone)
        nr_state4_close_all(rp); /* the opens it made, after the timed part */
    if (rp->version == 4) {
        NR_STATS(c)->nr_v4_opens = rp->v4counts.opens;
        NR_STATS(c)->nr_v4_open_errors = rp->v4counts.open_errors;
        NR_STATS(c)->nr_v4_closes = rp->v4counts.closes;
        NR_STATS(c)->nr_v4_closes_traced = rp->v4closes_traced;
        NR_STATS(c)->nr_v4_left = rp->v4counts.in_use;
        NR_STATS(c)->nr_v4_anonymous = rp->v4counts.anonymous_io;
    }
    rp_client_stats(c->ses.rpc, &cs1);
    c->stats.reconnects = cs1.reconnects - cs0.reconnects;
    finish_stats(rp, stopped || stale || gone);
    if (stale)
        stale_end(rp);
    if (gone)
        unreachable_end(rp, why);
    return 0;
}
