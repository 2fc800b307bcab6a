/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * biod.c - keeps up to `depth` calls of one request in flight on the
 * child's session (biod.h, docs/SFS30.md §10).  The protocol matches the
 * replies, times the calls out and retransmits them (D2); this file only
 * refills free slots as calls complete and services the session while it
 * waits.  Slot ownership (asserted): a slot is busy exactly while its call
 * is the protocol's, from a successful start to its one done, or waiting
 * to be sent again after a busy reply; in_flight counts the busy slots; a
 * request returns with none busy.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "synth/biod.h"

int sy_biod_init(struct sy_biod *b, struct nf_session *ses, sy_biod_prepare_fn prepare,
                 sy_biod_done_fn done, void *data)
{
    unsigned k;

    memset(b, 0, sizeof(*b));
    b->ses = ses;
    b->prepare = prepare;
    b->done = done;
    b->data = data;
    b->call_store = nf_calls_alloc(ses->proto, SY_BIOD_SLOTS);
    if (b->call_store == NULL)
        return -ENOMEM;
    for (k = 0; k < SY_BIOD_SLOTS; k++) {
        struct sy_slot *s = &b->slot[k];
        s->owner = b;
        s->call = &b->call_store[k];
        s->call->buf = s->rbuf;
        s->call->buf_max = SY_RBUF_BYTES;
    }
    return 0;
}

void sy_biod_free(struct sy_biod *b)
{
    nf_calls_free(b->call_store);
    b->call_store = NULL;
}

struct sy_slot *sy_biod_spare(struct sy_biod *b)
{
    return &b->slot[SY_BIOD_SLOTS - 1];
}

static void on_done(struct nf_call *call, void *data)
{
    struct sy_slot *s = data;
    struct sy_biod *b = s->owner;

    assert(s->busy && !s->waiting && s->call == call && b->in_flight > 0);
    if (call->status == 0 && call->res.busy && call->again + 1 < LD_JUKEBOX_TRIES) {
        /* the server is busy: the slot keeps the call and sends it again
         * later (send_again) */
        s->retry_at_ns = cm_now_ns() + (uint64_t)b->jukebox_delay_ms * 1000000u;
        s->waiting = 1;
        b->waiting++;
        return;
    }
    b->done(s, b->data);
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

/* Accounts call i as failed with status without sending it (the protocol
 * never calls done for a call it did not start). */
static void account_failed(struct sy_biod *b, struct sy_slot *s, int status)
{
    s->call->status = status;
    s->call->t_send_ns = s->call->t_reply_ns = 0;
    b->done(s, b->data);
}

static struct sy_slot *claim(struct sy_biod *b, uint32_t i)
{
    struct sy_slot *s = free_slot(b);

    s->index = i;
    s->file = s->file2 = SY_NO_FILE;
    s->call->retransmits = s->call->again = 0;
    s->waiting = 0;
    return s;
}

/* Sends again the calls whose JUKEBOX wait is over; returns the ms until
 * the next one is due (-1: none waits).  A call that cannot be sent again
 * is accounted as failed; *fatal gets -ENOTCONN when the session is
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
        if (s->retry_at_ns > now) {
            next = s->retry_at_ns < next ? s->retry_at_ns : next;
            continue;
        }
        s->waiting = 0;
        b->waiting--;
        rc = *fatal ? *fatal : nf_call_again(b->ses, s->call);
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
 * 0 when it was accounted as failed at once, -ENOTCONN when the session
 * is unusable. */
static int start_one(struct sy_biod *b, uint32_t i)
{
    struct sy_slot *s = claim(b, i);
    int rc = b->prepare(s, i, b->data);

    if (rc == 0) {
        s->call->done = on_done;
        s->call->data = s;
        s->call->timeout_ms = b->timeout_ms;
        s->busy = 1;
        b->in_flight++;
        rc = nf_call_start(b->ses, s->call, &s->args);
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
            /* the poll waits at most until the earliest call deadline (or
             * the next JUKEBOX retry); the protocol's timeouts complete
             * every call, so this ends. */
            (void)nf_session_poll(b->ses, wait_ms);
        } else if (wait_ms > 0) {
            struct timespec ts = {wait_ms / 1000, (long)(wait_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    assert(b->in_flight == 0);
    return fatal ? fatal : (int)sent;
}
