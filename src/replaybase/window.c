/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * window.c - a replay's window of calls in flight (rb.h): every slot, the
 * READ sink and the WRITE data are allocated before the clock starts, so
 * that taking a slot, starting its call and giving it back allocate
 * nothing.  A call the server answers NFS3ERR_JUKEBOX keeps its slot on a
 * waiting list (one delay for all: the list stays in time order) until it
 * is sent again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "replaybase/rb.h"

int rb_window_init(struct rb_window *w, uint32_t size, void *owner, uint32_t rmax,
                   uint32_t wmax)
{
    uint32_t i;

    memset(w, 0, sizeof(*w));
    w->slot = cm_calloc(size ? size : 1, sizeof(*w->slot));
    w->sink = rmax ? cm_malloc(rmax) : NULL;
    w->wdata = cm_malloc(wmax ? wmax : 1);
    if (!w->slot || (rmax && !w->sink) || !w->wdata)
        return -ENOMEM;
    for (i = 0; i < wmax; i++) /* SFS's write pattern */
        w->wdata[i] = (char)(0xdeadbeefu >> (24 - 8 * (i % 4)));
    w->size = size;
    for (i = 0; i < size; i++) {
        w->slot[i].owner = owner;
        w->slot[i].res.data = w->sink;
        w->slot[i].res.data_max = rmax;
        w->slot[i].next = i + 1 < size ? (int32_t)i + 1 : RB_NONE;
    }
    w->free = size ? 0 : RB_NONE;
    w->whead = w->wtail = RB_NONE;
    w->budget = UINT64_MAX;
    return 0;
}

void rb_window_free(struct rb_window *w)
{
    free(w->slot);
    free(w->sink);
    free(w->wdata);
    memset(w, 0, sizeof(*w));
    w->free = w->whead = w->wtail = RB_NONE;
}

int rb_window_room(const struct rb_window *w, uint32_t bytes)
{
    return w->free != RB_NONE && (w->bytes == 0 || w->bytes + bytes <= w->budget);
}

struct rb_slot *rb_window_take(struct rb_window *w, uint32_t bytes)
{
    struct rb_slot *s;

    if (w->free == RB_NONE)
        return NULL;
    s = &w->slot[w->free];
    w->free = s->next;
    s->next = RB_NONE;
    s->bytes = bytes;
    w->bytes += bytes;
    w->in_flight++;
    return s;
}

void rb_window_give(struct rb_window *w, struct rb_slot *s)
{
    w->bytes -= s->bytes;
    s->bytes = 0;
    w->in_flight--;
    s->next = w->free;
    w->free = (int32_t)(s - w->slot);
}

int rb_slot_start(struct rb_slot *s, struct rp_client *c, int version, uint32_t proc,
                  unsigned how, rp_done_fn done)
{
    int rc;

    memset(&s->res, 0, NF_RES_BYTES);
    ld_jukebox_reset(&s->jb);
    rc = nf_call_init(&s->call, c, proc, &s->args, &s->res.r3, done, s);
    if (rc < 0)
        return rc;
    s->call.res_codec = nf_res_codec(version, s->op, how, s->call.res_codec);
    return rp_call_start(c, &s->call);
}

int rb_window_hold(struct rb_window *w, struct rb_slot *s, int version, uint32_t delay_ms)
{
    int32_t k = (int32_t)(s - w->slot);

    if (s->call.status != 0 || version != 3 ||
        nf_call_nfs_status(&s->call) != NF_ST_JUKEBOX ||
        !ld_jukebox_hold(&s->jb, &s->call, &s->res, NF_RES_BYTES, delay_ms))
        return 0;
    s->next = RB_NONE;
    if (w->wtail == RB_NONE)
        w->whead = k;
    else
        w->slot[w->wtail].next = k;
    w->wtail = k;
    return 1;
}

struct rb_slot *rb_window_due(struct rb_window *w, uint64_t now)
{
    struct rb_slot *s;

    if (w->whead == RB_NONE || w->slot[w->whead].jb.retry_at_ns > now)
        return NULL;
    s = &w->slot[w->whead];
    w->whead = s->next;
    if (w->whead == RB_NONE)
        w->wtail = RB_NONE;
    s->next = RB_NONE;
    return s;
}

uint64_t rb_window_wake(const struct rb_window *w)
{
    return w->whead == RB_NONE ? UINT64_MAX : w->slot[w->whead].jb.retry_at_ns;
}
