/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * biod.c - keeps up to `depth` calls of one request in flight on the
 * child's client (biod.h, docs/SFS30.md §10).  The engine does the
 * matching by XID, the timeouts and the same-XID retransmissions (D2); this
 * file only refills free slots as calls complete and waits with rp_poll.
 * Slot ownership (asserted): a slot is busy exactly while its call is the
 * engine's, from a successful rp_call_start to its one callback; in_flight
 * counts the busy slots; a request returns with none busy.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "synth/biod.h"

void sy_biod_init(struct sy_biod *b, struct rp_client *clnt, sy_biod_prepare_fn prepare,
                  sy_biod_done_fn done, void *data)
{
    unsigned k;

    memset(b, 0, sizeof(*b));
    b->clnt = clnt;
    b->prepare = prepare;
    b->done = done;
    b->data = data;
    for (k = 0; k < SY_BIOD_SLOTS; k++) {
        b->slot[k].owner = b;
        b->slot[k].res.data = b->slot[k].rbuf;
        b->slot[k].res.data_max = SY_RBUF_BYTES;
    }
}

void sy_biod_set_client(struct sy_biod *b, struct rp_client *clnt)
{
    b->clnt = clnt;
}

static void on_done(struct rp_call *call, void *data)
{
    struct sy_slot *s = data;
    struct sy_biod *b = s->owner;

    assert(s->busy && !s->waiting && &s->call == call && b->in_flight > 0);
    if (call->status == 0 && b->busy && b->busy(s, b->data) &&
        ld_jukebox_hold(&s->jb, call, &s->res, NF_RES_BYTES, b->jukebox_delay_ms)) {
        /* the server is busy: the slot keeps the call and sends it again
         * later (send_again) */
        s->waiting = 1;
        b->waiting++;
        return;
    }
    b->done(s, b->data);
    if (call->status == 0)
        nf_call_free(call);
    s->busy = 0;
    b->in_flight--;
}

/* A free slot: there always is one, since at most SY_BIOD_SLOTS - 1 calls
 * are in flight (sy_biod_run clamps the depth). */
static struct sy_slot *free_slot(struct sy_biod *b)
{
    unsigned k;

    for (k = 0; k < SY_BIOD_SLOTS - 1; k++)
        if (!b->slot[k].busy)
            break;
    assert(k < SY_BIOD_SLOTS - 1 && b->in_flight < SY_BIOD_SLOTS - 1);
    return &b->slot[k];
}

/* Accounts call i as failed with status without sending it (the engine
 * never calls done for a call it did not start). */
static void account_failed(struct sy_biod *b, struct sy_slot *s, int status)
{
    s->call.status = status;
    s->call.t_send_ns = s->call.t_reply_ns = 0;
    b->done(s, b->data);
}

static struct sy_slot *claim(struct sy_biod *b, uint32_t i)
{
    struct sy_slot *s = free_slot(b);

    memset(&s->res, 0, NF_RES_BYTES);
    s->index = i;
    s->file = s->file2 = SY_NO_FILE;
    ld_jukebox_reset(&s->jb);
    s->waiting = 0;
    return s;
}

/* Sends again the calls whose JUKEBOX wait is over; returns the ms until
 * the next one is due (-1: none waits).  A call that cannot be sent again
 * is accounted as failed; *fatal gets -ENOTCONN when the client is
 * unusable. */
static int send_again(struct sy_biod *b, int *fatal)
{
    uint64_t now, next = UINT64_MAX;
    unsigned k;

    if (b->waiting == 0)
        return -1;
    now = cm_now_ns();
    for (k = 0; k < SY_BIOD_SLOTS; k++) {
        struct sy_slot *s = &b->slot[k];
        int rc;

        if (!s->waiting)
            continue;
        if (s->jb.retry_at_ns > now) {
            next = s->jb.retry_at_ns < next ? s->jb.retry_at_ns : next;
            continue;
        }
        s->waiting = 0;
        b->waiting--;
        rc = *fatal ? *fatal : rp_call_start(b->clnt, &s->call);
        if (rc == 0)
            continue;
        s->busy = 0;
        b->in_flight--;
        account_failed(b, s, rc);
        if (rc == -ENOTCONN)
            *fatal = rc;
    }
    if (next == UINT64_MAX)
        return -1;
    return (int)((next - now + 999999u) / 1000000u);
}

/* Prepares and starts call i in a free slot.  Returns 1 when it went out,
 * 0 when it was accounted as failed at once, -ENOTCONN when the client is
 * unusable. */
static int start_one(struct sy_biod *b, uint32_t i)
{
    struct sy_slot *s = claim(b, i);
    int rc = b->prepare(s, i, b->data);

    if (rc == 0) {
        s->call.done = on_done;
        s->call.data = s;
        if (b->timeout_ms)
            s->call.timeout_ms = b->timeout_ms;
        s->busy = 1;
        b->in_flight++;
        rc = rp_call_start(b->clnt, &s->call);
        if (rc == 0) {
            b->calls++;
            if (b->in_flight > b->max_in_flight)
                b->max_in_flight = b->in_flight;
            return 1;
        }
        s->busy = 0;
        b->in_flight--;
    }
    account_failed(b, s, rc);
    return rc == -ENOTCONN ? rc : 0;
}

int sy_biod_run(struct sy_biod *b, uint32_t ncalls, uint32_t depth)
{
    uint32_t next = 0, sent = 0;
    int fatal = 0;

    if (depth == 0)
        depth = 1;
    if (depth > SY_BIOD_SLOTS - 1)
        depth = SY_BIOD_SLOTS - 1;
    b->requests++;
    while (next < ncalls || b->in_flight > 0) {
        for (; next < ncalls && b->in_flight < depth; next++) {
            if (fatal) { /* the rest fail without being sent */
                struct sy_slot *s = claim(b, next);
                (void)b->prepare(s, next, b->data);
                account_failed(b, s, fatal);
                continue;
            }
            int rc = start_one(b, next);
            if (rc < 0)
                fatal = rc;
            else
                sent += (uint32_t)rc;
        }
        int wait_ms = send_again(b, &fatal);

        if (b->in_flight > b->waiting) {
            /* rp_poll waits at most until the earliest call deadline (or
             * the next JUKEBOX retry); the engine's timeouts complete
             * every call, so this ends. */
            struct rp_client *c = b->clnt;
            (void)rp_poll(&c, 1, wait_ms);
        } else if (wait_ms > 0) {
            struct timespec ts = {wait_ms / 1000, (long)(wait_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    assert(b->in_flight == 0);
    return fatal ? fatal : (int)sent;
}
