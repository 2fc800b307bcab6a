/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c - the timed part of a child's trace replay (rl.h,
 * docs/DECISIONS.md D11).  Readers (cursors) give the records of the streams
 * this process owns; a record becomes an item when its planned time
 * start + timestamp / speed has come, and the item's calls go out on the
 * child's RPC client as soon as the window and its stream allow:
 *
 *   - items wait in one queue in due order; a pass over the queue issues
 *     every item whose stream is free, so a stream that waits never holds
 *     up the others, and an item never overtakes an earlier one of its own
 *     stream;
 *   - a sysio stream is a closed loop (its next item waits for the
 *     previous one), a MaStA sync waits for the writes of its region, an
 *     UNSTABLE record sends its COMMIT once its writes are answered;
 *   - lateness (the call's send stamp minus the planned time) goes into a
 *     histogram; an item that was due while the window or its stream held
 *     it back counts as "could not keep up".
 *
 * Sleeping is ppoll() on the client's socket with a nanosecond timeout to
 * the next absolute deadline, under a 1 ns timer slack; the last few
 * microseconds are polled without sleeping.  Nothing is allocated here.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "load/options.h"
#include "replay/rl_int.h"

#define CTL_CHECK_NS 50000000ull /* look at the parent's socket every 50 ms */
#define SPIN_NS      20000ull    /* poll without sleeping this close to a deadline */
#define START_NS     2000000ull  /* the clock starts this long after RUN arrives */

/* ---- cursors ----------------------------------------------------------------- */

/* Whether this process replays (some region of) a MaStA sync, and whether
 * it is the one that counts the record: the owner of its lowest region. */
static int sync_regions(const struct rl_replay *rp, const struct tr_record *rec,
                        uint32_t *mask, int *counts)
{
    uint32_t u, all = 0;

    for (u = 0; u < rp->plan->nunits && u < 32; u++)
        if ((rec->flags & TR_F_ALL_UNITS) ||
            ((rec->flags & TR_F_UNIT_MASK) && (rec->unit_mask >> u & 1u)) ||
            (!(rec->flags & (TR_F_ALL_UNITS | TR_F_UNIT_MASK)) && rec->unit == u))
            all |= 1u << u;
    *mask = 0;
    for (u = 0; u < 32; u++)
        if ((all >> u & 1u) && rl_owner(u, rp->nprocs) == rp->gproc)
            *mask |= 1u << u;
    *counts =
        all && *mask && rl_owner((uint32_t)__builtin_ctz(all), rp->nprocs) == rp->gproc;
    return *mask != 0;
}

static int mine(const struct rl_replay *rp, const struct tr_record *rec)
{
    uint32_t mask;
    int counts;

    if (rec->op == TR_OP_SYNC)
        return sync_regions(rp, rec, &mask, &counts);
    return rl_owner(rl_stream_key(rp->plan, rec), rp->nprocs) == rp->gproc;
}

static void cursor_close(struct rl_cursor *k)
{
    if (k->open)
        tr_reader_close(&k->r);
    k->open = 0;
    k->done = 1;
    k->have = 0;
}

/* Reads the cursor's next record of this process.  0 or -errno. */
static int cursor_peek(struct rl_replay *rp, struct rl_cursor *k)
{
    int rc;

    while (!k->have && !k->done) {
        rc = tr_reader_next(&k->r, &k->rec);
        if (rc < 0) {
            cm_errf(rp->cx.last_error, sizeof(rp->cx.last_error), "%s", k->r.last_error);
            return rc;
        }
        if (rc == 0 || (k->stream >= 0 && k->rec.stream > (uint32_t)k->stream)) {
            cursor_close(k);
            break;
        }
        if (k->stream >= 0 && k->rec.stream != (uint32_t)k->stream)
            continue;
        if (rl_plan_skips(rp->plan, &k->rec) || !mine(rp, &k->rec))
            continue;
        if (k->rec.op != TR_OP_SYNC && k->rec.unit >= rp->plan->nunits)
            continue;
        k->have = 1;
    }
    return 0;
}

static int cursors_open(struct rl_replay *rp)
{
    char err[CM_ERR_LEN];
    uint32_t s;
    int rc;

    rp->ncur = 0;
    if (strcmp(rp->plan->format, "sysio") != 0) {
        rp->cur[0].stream = -1;
        rp->ncur = 1;
    } else {
        for (s = rp->gproc; s < rp->plan->nstreams; s += rp->nprocs) {
            if (rp->ncur == RL_MAX_CURSORS)
                return cm_errf(rp->cx.last_error, sizeof(rp->cx.last_error),
                               "%s: more than %u sysio streams for one process; use more "
                               "processes (-p) or clients",
                               rp->plan->file, RL_MAX_CURSORS),
                       -E2BIG;
            rp->cur[rp->ncur++].stream = s;
        }
    }
    for (s = 0; s < rp->ncur; s++) {
        struct rl_cursor *k = &rp->cur[s];
        k->have = k->done = 0;
        rc = rl_open_reader(rp->plan, &k->r, err, sizeof(err));
        if (rc < 0)
            return cm_errf(rp->cx.last_error, sizeof(rp->cx.last_error), "%s", err), rc;
        k->open = 1;
        rc = cursor_peek(rp, k);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The cursor whose record is planned first, or NULL. */
static struct rl_cursor *earliest(struct rl_replay *rp)
{
    struct rl_cursor *best = NULL;
    uint32_t i;

    for (i = 0; i < rp->ncur; i++)
        if (rp->cur[i].have && (!best || rp->cur[i].rec.t_ns < best->rec.t_ns))
            best = &rp->cur[i];
    return best;
}

static uint64_t planned_of(const struct rl_replay *rp, int64_t t_ns)
{
    if (rp->speed <= 0 || t_ns <= 0)
        return rp->start_ns;
    return rp->start_ns + (uint64_t)((double)t_ns / rp->speed);
}

/* ---- items ---------------------------------------------------------------------- */

static int32_t item_get(struct rl_replay *rp)
{
    int32_t i = rp->free_item;

    rp->free_item = rp->items[i].next;
    rp->items_used++;
    return i;
}

static void item_put(struct rl_replay *rp, int32_t i)
{
    rp->items[i].next = rp->free_item;
    rp->free_item = i;
    rp->items_used--;
}

static void list_push(struct rl_replay *rp, int32_t *head, int32_t *tail, int32_t i)
{
    rp->items[i].next = RL_NONE;
    if (*tail == RL_NONE)
        *head = i;
    else
        rp->items[*tail].next = i;
    *tail = i;
}

static void enqueue(struct rl_replay *rp, const struct tr_record *rec, uint64_t planned,
                    uint32_t unit, int kind, int counted, int behind)
{
    int32_t i = item_get(rp);
    struct rl_item *it = &rp->items[i];

    memset(it, 0, sizeof(*it));
    it->planned_ns = planned;
    it->offset = rec->offset;
    it->length = rec->length;
    it->unit = unit;
    it->stream = kind == RL_K_COMMIT ? unit : rl_stream_key(rp->plan, rec);
    it->flags = rec->flags;
    it->mode = rec->mode;
    it->kind = (uint8_t)kind;
    it->pieces = rl_call_pieces(rp, it);
    it->round = rp->round + 1;
    it->behind = (uint8_t)behind;
    it->counted = (uint8_t)counted;
    it->commit =
        rp->unstable && kind == RL_K_WRITE && strcmp(rp->plan->format, "masta") != 0;
    if (counted)
        RL_STATS(&rp->cx)->replay_records++;
    list_push(rp, &rp->qhead, &rp->qtail, i);
}

static int kind_of(enum tr_op op)
{
    switch (op) {
    case TR_OP_READ:
        return RL_K_READ;
    case TR_OP_WRITE:
        return RL_K_WRITE;
    case TR_OP_OPEN:
        return RL_K_OPEN;
    case TR_OP_GETATTR:
        return RL_K_GETATTR;
    default:
        return RL_K_COMMIT;
    }
}

/* Turns the due records into items.  0 or -errno. */
static int fill(struct rl_replay *rp, uint64_t now)
{
    struct rl_cursor *k;

    while ((k = earliest(rp)) != NULL) {
        uint64_t planned = planned_of(rp, k->rec.t_ns);
        uint32_t mask = 0, need = 1, u;
        int counts = 1, behind = k->held;

        if (rp->speed > 0 && planned > now)
            break;
        if (k->rec.op == TR_OP_SYNC) {
            (void)sync_regions(rp, &k->rec, &mask, &counts);
            need = rp->version == 3 ? (uint32_t)__builtin_popcount(mask) : 0;
        }
        if (rp->nitems - rp->items_used < need) {
            k->held = rp->speed > 0;
            break;
        }
        if (k->rec.op != TR_OP_SYNC) {
            enqueue(rp, &k->rec, planned, k->rec.unit, kind_of(k->rec.op), 1, behind);
        } else if (need == 0) {
            RL_STATS(&rp->cx)->replay_records += (uint64_t)counts; /* NFSv2: a no-op */
        } else {
            for (u = 0; u < 32; u++)
                if (mask >> u & 1u) {
                    enqueue(rp, &k->rec, planned, u, RL_K_COMMIT, counts, behind);
                    counts = 0;
                }
        }
        k->have = 0;
        k->held = 0;
        if (cursor_peek(rp, k) < 0)
            return -EIO;
    }
    return 0;
}

/* ---- issuing ----------------------------------------------------------------------- */

static void finish_item(struct rl_replay *rp, int32_t i)
{
    struct rl_item *it = &rp->items[i];

    if (it->issued < it->pieces || it->pending > 0)
        return;
    if (it->commit == 1) { /* writes answered: the COMMIT is next */
        it->commit = 2;
        list_push(rp, &rp->chead, &rp->ctail, i);
        return;
    }
    if (it->commit == 2)
        return; /* on the commit list */
    rp->streams[it->stream].inflight--;
    item_put(rp, i);
}

/* A slot's call has been accounted: the loop's bookkeeping. */
static void call_finished(struct rl_replay *rp, struct rl_slot *s)
{
    struct rl_item *it = &rp->items[s->item];
    int32_t k = (int32_t)(s - rp->slots);

    if (s->op == NF_OP_WRITE)
        rp->streams[it->stream].writes--;
    if (it->commit == 2 && s->op == NF_OP_COMMIT)
        it->commit = 3;
    it->pending--;
    rp->in_flight--;
    rp->bytes_in_flight -= s->bytes;
    s->next_free = rp->free_slot;
    rp->free_slot = k;
    rp->last_ns = s->call.t_reply_ns ? s->call.t_reply_ns : cm_now_ns();
    finish_item(rp, s->item);
}

/* The done callback of every replay call (data = the slot).  A v3 call
 * the server answered NFS3ERR_JUKEBOX keeps its slot (it stays in flight)
 * and waits on the waiting list to be sent again (send_again). */
static void call_done(struct rp_call *call, void *data)
{
    struct rl_slot *s = data;
    struct rl_replay *rp = s->owner;

    if (call->status == 0 && rp->version == 3 &&
        nf_call_nfs_status(call) == NF_ST_JUKEBOX &&
        ld_jukebox_hold(&s->jb, call, &s->res, sizeof(s->res),
                        (uint32_t)rp->cx.cfg->jukebox_delay_ms)) {
        int32_t k = (int32_t)(s - rp->slots);

        s->next_wait = RL_NONE; /* one delay for all: the list stays in time order */
        if (rp->wtail == RL_NONE)
            rp->whead = k;
        else
            rp->slots[rp->wtail].next_wait = k;
        rp->wtail = k;
        return;
    }
    rl_call_account(s);
    call_finished(rp, s);
}

/* The first waiting slot, off the list. */
static struct rl_slot *wait_pop(struct rl_replay *rp)
{
    struct rl_slot *s = &rp->slots[rp->whead];

    rp->whead = s->next_wait;
    if (rp->whead == RL_NONE)
        rp->wtail = RL_NONE;
    return s;
}

/* Sends again the JUKEBOX calls whose wait is over.  A call that cannot
 * be sent again is accounted as failed.  0, or -ENOTCONN when the client
 * broke. */
static int send_again(struct rl_replay *rp, uint64_t now)
{
    int rc = 0;

    while (rp->whead != RL_NONE && rp->slots[rp->whead].jb.retry_at_ns <= now) {
        struct rl_slot *s = wait_pop(rp);
        int r = rc < 0 ? rc : rp_call_start(rp->cx.clnt, &s->call);

        if (r == 0)
            continue;
        s->call.status = r; /* never started: the engine calls no done */
        rl_call_account(s);
        call_finished(rp, s);
        if (r == -ENOTCONN)
            rc = r;
    }
    return rc;
}

/* The run time ended while calls waited to be sent again after a
 * JUKEBOX: they are not sent again, their last answer (JUKEBOX) is their
 * answer, an NFS error, timed from the first send to that answer. */
static void give_up_waiting(struct rl_replay *rp)
{
    while (rp->whead != RL_NONE) {
        struct rl_slot *s = wait_pop(rp);

        s->jb.again--; /* the send again that did not happen */
        ld_jukebox_count(&s->jb, &rp->cx.stats, s->op);
        ld_stats_good(&rp->cx.stats, s->op, ld_jukebox_elapsed_ns(&s->jb, &s->call), 1);
        call_finished(rp, s);
    }
}

/* Starts one call of item i (piece == pieces: its COMMIT).  1 when it
 * went out, 0 when it failed at once (accounted as a bad call), -ENOTCONN
 * when the client broke. */
static int start(struct rl_replay *rp, int32_t i, uint32_t piece)
{
    struct rl_item *it = &rp->items[i];
    int32_t k = rp->free_slot;
    struct rl_slot *s = &rp->slots[k];
    int rc;

    rp->free_slot = s->next_free;
    s->item = i;
    s->bytes = rl_call_bytes(rp, it, piece);
    rp->bytes_in_flight += s->bytes;
    it->pending++;
    rp->in_flight++;
    rc = rl_call_start(rp, s, it, piece, call_done);
    if (rc < 0) { /* accounted as a bad call; nothing in flight */
        it->pending--;
        rp->in_flight--;
        rp->bytes_in_flight -= s->bytes;
        s->next_free = rp->free_slot;
        rp->free_slot = k;
        return rc == -ENOTCONN ? rc : 0;
    }
    if (s->op == NF_OP_WRITE)
        rp->streams[it->stream].writes++;
    return 1;
}

/* Whether call `piece` of it may go now: a free slot, and room in the
 * byte budget (a call always goes when nothing else is in flight). */
static int room(const struct rl_replay *rp, const struct rl_item *it, uint32_t piece)
{
    return rp->free_slot != RL_NONE &&
           (rp->bytes_in_flight == 0 ||
            rp->bytes_in_flight + rl_call_bytes(rp, it, piece) <= rp->byte_budget);
}

/* Whether the stream keeps item it back now. */
static int blocked(const struct rl_replay *rp, const struct rl_stream *st,
                   const struct rl_item *it)
{
    if (it->issued > 0)
        return 0;
    if (it->kind == RL_K_COMMIT) /* a MaStA sync: after the region's writes */
        return st->writes > 0;
    return strcmp(rp->plan->format, "sysio") == 0 && st->inflight > 0;
}

static int issue(struct rl_replay *rp)
{
    int32_t i, prev = RL_NONE;
    int rc = 0, r, first;

    rp->round++;
    rc = send_again(rp, cm_now_ns()); /* the oldest calls first */
    while (rp->chead != RL_NONE && rp->free_slot != RL_NONE && rc == 0) {
        i = rp->chead;
        rp->chead = rp->items[i].next;
        if (rp->chead == RL_NONE)
            rp->ctail = RL_NONE;
        r = start(rp, i, rp->items[i].pieces);
        if (r <= 0) { /* the COMMIT failed at once: the item is done */
            rp->items[i].commit = 3;
            finish_item(rp, i);
            rc = r;
        }
    }
    for (i = rp->qhead; i != RL_NONE && rp->free_slot != RL_NONE && rc == 0;) {
        struct rl_item *it = &rp->items[i];
        struct rl_stream *st = &rp->streams[it->stream];
        int32_t next = it->next;

        if (st->seen == rp->round || blocked(rp, st, it)) {
            st->seen = rp->round;
            prev = i;
            i = next;
            continue;
        }
        first = it->issued == 0;
        while (it->issued < it->pieces && room(rp, it, it->issued) && rc == 0) {
            r = start(rp, i, it->issued++);
            rc = r < 0 ? r : 0;
        }
        /* in flight once a call went out, not before: an item the byte
         * budget kept back would otherwise block its own (sysio) stream */
        if (first && (it->issued > 0 || it->pieces == 0)) {
            st->inflight++;
            if (rp->speed > 0 && (it->behind || it->round != rp->round) && it->counted)
                RL_STATS(&rp->cx)->replay_behind++;
        }
        if (it->issued < it->pieces) {
            st->seen = rp->round;
            prev = i;
        } else { /* every call sent: off the queue */
            if (prev == RL_NONE)
                rp->qhead = next;
            else
                rp->items[prev].next = next;
            if (rp->qtail == i)
                rp->qtail = prev;
            finish_item(rp, i);
        }
        i = next;
    }
    return rc;
}

/* ---- waiting ------------------------------------------------------------------------
 */

static int idle(const struct rl_replay *rp)
{
    uint32_t i;

    for (i = 0; i < rp->ncur; i++)
        if (rp->cur[i].have || !rp->cur[i].done)
            return 0;
    return rp->qhead == RL_NONE && rp->chead == RL_NONE && rp->in_flight == 0;
}

int rl_wait_service(struct rp_client *cl, uint64_t now, uint64_t wake)
{
    struct pollfd pf;
    struct timespec ts;
    int ms, n;

    ms = rp_client_timeout_ms(cl);
    if (ms >= 0 && now + (uint64_t)ms * 1000000ull < wake)
        wake = now + (uint64_t)ms * 1000000ull;
    pf.fd = rp_client_fd(cl);
    pf.events = rp_client_events(cl);
    pf.revents = 0;
    if (wake > now + SPIN_NS) {
        uint64_t d = wake - now - SPIN_NS / 2;
        ts.tv_sec = (time_t)(d / 1000000000ull);
        ts.tv_nsec = (long)(d % 1000000000ull);
    } else {
        ts.tv_sec = 0;
        ts.tv_nsec = 0;
    }
    n = ppoll(&pf, 1, &ts, NULL);
    if (n < 0 && errno != EINTR)
        return -errno;
    return rp_client_service(cl, n > 0 ? pf.revents : 0);
}

/* Waits for a reply or the next deadline, then services the client.
 * Returns the number of calls completed or -errno (a broken client). */
static int wait_and_service(struct rl_replay *rp, uint64_t now)
{
    struct rl_cursor *k = earliest(rp);
    uint64_t wake = now + CTL_CHECK_NS;

    if (k && rp->nitems > rp->items_used) {
        uint64_t due = planned_of(rp, k->rec.t_ns);
        if (due < wake)
            wake = due;
    }
    if (rp->whead != RL_NONE && rp->slots[rp->whead].jb.retry_at_ns < wake)
        wake = rp->slots[rp->whead].jb.retry_at_ns;
    return rl_wait_service(rp->cx.clnt, now, wake);
}

/* ---- the run ---------------------------------------------------------------------- */

static void finish_stats(struct rl_replay *rp, uint64_t end)
{
    struct ld_stats *st = &rp->cx.stats;
    struct rl_stats *rs = RL_STATS(&rp->cx);

    st->runtime_ns = end > rp->start_ns ? end - rp->start_ns : 0;
    rs->replay_run_ns = rp->last_ns > rp->start_ns ? rp->last_ns - rp->start_ns : 0;
    rs->replay_trace_ns = (uint64_t)rp->plan->trace_ns;
    rs->replay_trace_records = rp->plan->records;
    if (rp->gproc == 0)
        rs->replay_skipped = rp->plan->skipped + rp->plan->v2_beyond + rp->plan->oversize;
}

/* 1 ns, so that a sleep ends at its deadline rather than up to 50 us
 * later (the default slack).  FREESFS_REPLAY_TIMERSLACK_NS overrides it
 * for bench/replay.sh, which measures the difference. */
static unsigned long timer_slack_ns(void)
{
    const char *e = getenv("FREESFS_REPLAY_TIMERSLACK_NS");
    unsigned long v = e ? strtoul(e, NULL, 10) : 1;

    return v > 0 ? v : 1;
}

/* The run time ended the replay with records still to send: the items
 * with calls not sent yet were not replayed, whether none of their calls
 * went out or only some (a record of millions of READs cut after a few
 * thousand is not replayed), so they do not count. */
static void cut(struct rl_replay *rp)
{
    int32_t i;

    for (i = rp->qhead; i != RL_NONE; i = rp->items[i].next)
        if (rp->items[i].issued < rp->items[i].pieces && rp->items[i].counted)
            RL_STATS(&rp->cx)->replay_records--;
    RL_STATS(&rp->cx)->replay_cut = 1;
}

void rl_loop_start(struct rl_loop *l, uint64_t start_ns, uint32_t limit_s)
{
    l->end_ns = limit_s > 0 ? start_ns + (uint64_t)limit_s * 1000000000ull : UINT64_MAX;
    l->next_check_ns = start_ns + CTL_CHECK_NS;
}

int rl_loop_check(struct rl_loop *l, struct ld_child *c, uint64_t now)
{
    if (now >= l->end_ns)
        return 1;
    if (now < l->next_check_ns)
        return 0;
    if (ld_child_check_parent(c) < 0)
        return -EPIPE;
    if (c->stop)
        return 1;
    l->next_check_ns = now + CTL_CHECK_NS;
    return 0;
}

int rl_run(struct ld_child *c, uint32_t limit_s)
{
    struct rl_replay *rp = (struct rl_replay *)c;
    struct rl_loop loop;
    uint64_t now;
    int rc, stopped = 0;

    c->phase = LD_CPHASE_RUN;
    c->stop = 0;
    ld_child_results_reset(c);
    c->measuring = 1;
    (void)prctl(PR_SET_TIMERSLACK, timer_slack_ns(), 0, 0, 0);
    rc = cursors_open(rp);
    if (rc < 0)
        return rc;
    /* At speed 0 nothing waits for the clock: the calls leave at once, so
     * the clock starts now, or the run would end before its own start
     * and report no duration and no throughput. */
    rp->start_ns = cm_now_ns() + (rp->speed > 0 ? START_NS : 0);
    rp->last_ns = rp->start_ns;
    rl_loop_start(&loop, rp->start_ns, limit_s);
    while (!idle(rp)) {
        now = cm_now_ns();
        rc = rl_loop_check(&loop, c, now);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            stopped = 1;
            break;
        }
        rc = fill(rp, now);
        if (rc == 0)
            rc = issue(rp);
        if (rc == 0 && !idle(rp))
            rc = wait_and_service(rp, now);
        if (rc < 0) {       /* the client gave up (its TCP reconnection included) */
            if (rc != -EIO) /* -EIO: a reader error, already in last_error */
                cm_errf(c->last_error, sizeof(c->last_error), "replay: %s: %s",
                        ld_config_mount_for_child(c->cfg, (int)c->index),
                        rp_client_last_error(c->clnt)[0] ? rp_client_last_error(c->clnt)
                                                         : strerror(-rc));
            return rc;
        }
    }
    if (stopped) { /* drain what is in flight: every call gets its answer */
        cut(rp);
        /* a call answered JUKEBOX meanwhile is not sent again either */
        for (give_up_waiting(rp); rp->in_flight > 0; give_up_waiting(rp))
            if (rp_poll(&c->clnt, 1, -1) < 0)
                break;
    }
    ld_child_publish(c, 1); /* the progress lines' last reading */
    c->measuring = 0;
    finish_stats(rp, cm_now_ns());
    return 0;
}
