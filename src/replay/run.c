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
 * The window, the clock and the sleep to the next deadline are the replay
 * base's (replaybase/rb.h).  Nothing is allocated here.
 */
#include <errno.h>
#include <string.h>

#include "load/options.h"
#include "replay/rl_int.h"

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
    return rb_planned(&rp->loop, t_ns);
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
        RB_STATS(&rp->cx)->replay_records++;
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
            RB_STATS(&rp->cx)->replay_records += (uint64_t)counts; /* NFSv2: a no-op */
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
static void call_finished(struct rl_replay *rp, struct rb_slot *s)
{
    int32_t i = (int32_t)s->tag;
    struct rl_item *it = &rp->items[i];

    if (s->op == NF_OP_WRITE)
        rp->streams[it->stream].writes--;
    if (it->commit == 2 && s->op == NF_OP_COMMIT)
        it->commit = 3;
    it->pending--;
    rb_window_give(&rp->win, s);
    rp->loop.last_ns = s->call.t_reply_ns ? s->call.t_reply_ns : cm_now_ns();
    finish_item(rp, i);
}

/* The done callback of every replay call (data = the slot).  A v3 call
 * the server answered NFS3ERR_JUKEBOX keeps its slot (it stays in flight)
 * and waits on the window's waiting list to be sent again (send_again). */
static void call_done(struct rp_call *call, void *data)
{
    struct rb_slot *s = data;
    struct rl_replay *rp = s->owner;

    (void)call;
    if (rp->closing)
        return;
    if (rb_window_hold(&rp->win, s, rp->version, (uint32_t)rp->cx.cfg->jukebox_delay_ms))
        return;
    rl_call_account(s);
    call_finished(rp, s);
}

/* Sends again the JUKEBOX calls whose wait is over.  A call that cannot
 * be sent again is accounted as failed.  0, or -ENOTCONN when the client
 * broke. */
static int send_again(struct rl_replay *rp, uint64_t now)
{
    struct rb_slot *s;
    int rc = 0;

    while ((s = rb_window_due(&rp->win, now)) != NULL) {
        int r = rc < 0 ? rc : rp_call_start(rp->cx.ses.rpc, &s->call);

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
    struct rb_slot *s;

    while ((s = rb_window_due(&rp->win, UINT64_MAX)) != NULL) {
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
    struct rb_slot *s = rb_window_take(&rp->win, rl_call_bytes(rp, it, piece));
    int rc;

    s->tag = (uint32_t)i;
    it->pending++;
    rc = rl_call_start(rp, s, it, piece, call_done);
    if (rc < 0) { /* accounted as a bad call; nothing in flight */
        it->pending--;
        rb_window_give(&rp->win, s);
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
    return rb_window_room(&rp->win, rl_call_bytes(rp, it, piece));
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
    while (rp->chead != RL_NONE && rp->win.free != RB_NONE && rc == 0) {
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
    for (i = rp->qhead; i != RL_NONE && rp->win.free != RB_NONE && rc == 0;) {
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
                RB_STATS(&rp->cx)->replay_behind++;
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
    return rp->qhead == RL_NONE && rp->chead == RL_NONE && rp->win.in_flight == 0;
}

/* Waits for a reply or the next deadline, then services the client.
 * Returns the number of calls completed or -errno (a broken client). */
static int wait_and_service(struct rl_replay *rp, uint64_t now)
{
    struct rl_cursor *k = earliest(rp);
    uint64_t wake = rb_loop_wake(&rp->loop, now);

    if (k && rp->nitems > rp->items_used) {
        uint64_t due = planned_of(rp, k->rec.t_ns);
        if (due < wake)
            wake = due;
    }
    if (rb_window_wake(&rp->win) < wake)
        wake = rb_window_wake(&rp->win);
    return rb_wait_service(&rp->loop, rp->cx.ses.rpc, wake);
}

/* ---- the run ---------------------------------------------------------------------- */

static void finish_stats(struct rl_replay *rp)
{

    RB_STATS(&rp->cx)->replay_trace_records = rp->plan->records;
    if (rp->gproc == 0)
        RB_STATS(&rp->cx)->replay_skipped =
            rp->plan->skipped + rp->plan->v2_beyond + rp->plan->oversize;
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
            RB_STATS(&rp->cx)->replay_records--;
    RB_STATS(&rp->cx)->replay_cut = 1;
}

int rl_run(struct ld_child *c, uint32_t limit_s)
{
    struct rl_replay *rp = (struct rl_replay *)c;
    uint64_t now;
    int rc, stopped = 0;

    rc = cursors_open(rp);
    if (rc < 0)
        return rc;
    rc = rb_run_begin(c, &rp->loop, rp->speed, limit_s);
    if (rc < 0)
        return rc;
    while (!idle(rp)) {
        now = cm_now_ns();
        rc = rb_loop_check(&rp->loop, c, now);
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
                        rp_client_last_error(c->ses.rpc)[0]
                            ? rp_client_last_error(c->ses.rpc)
                            : strerror(-rc));
            return rc;
        }
    }
    if (stopped) { /* drain what is in flight: every call gets its answer */
        cut(rp);
        /* a call answered JUKEBOX meanwhile is not sent again either */
        for (give_up_waiting(rp); rp->win.in_flight > 0; give_up_waiting(rp))
            if (rp_poll(&c->ses.rpc, 1, -1) < 0)
                break;
    }
    rb_run_end(c, &rp->loop, cm_now_ns(), rp->plan->trace_ns);
    finish_stats(rp);
    return 0;
}
