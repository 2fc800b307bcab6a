/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xid.c - the XID table of a client (rpc layer): a chained hash from XID to
 * the caller's struct rp_call, sized once at open so that the hot path never
 * allocates.  XIDs are handed out sequentially from a random start, so
 * "xid & mask" spreads the calls in flight evenly over the buckets.  The
 * table knows deadlines only to find expired calls; what to do with them
 * (retransmit or time out) is the core's decision (client.c).
 */
#include "rpc/rp_int.h"
#include "common/alloc.h"

#include <assert.h>
#include <stdlib.h>
#include <unistd.h>
#include "common/cm.h"
#include "common/clock.h"

int rp__xid_init(struct rp_client *c)
{
    uint32_t size = 16;

    while (size < 2u * c->opts.max_in_flight && size < (1u << 24))
        size <<= 1;
    c->buckets = cm_calloc(size, sizeof(*c->buckets));
    if (!c->buckets)
        return -ENOMEM;
    c->mask = size - 1;
    /* A random start keeps XIDs of a restarted client apart from those of
     * its previous life, whose late replies might still arrive. */
    c->next_xid =
        (uint32_t)(cm_now_ns() ^ ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)c);
    c->next_deadline_ns = UINT64_MAX;
    return 0;
}

void rp__xid_free(struct rp_client *c)
{
    free(c->buckets);
    c->buckets = NULL;
}

void rp__xid_insert(struct rp_client *c, struct rp_call *call)
{
    struct rp_call **b = &c->buckets[call->xid & c->mask];

    /* only a call in flight is in the table, and never twice (a second
     * entry would make its chain a loop); XIDs are unique in the table */
    assert(rp__call_in_flight(call));
    CM_ASSERT_DEBUG(rp__xid_find(c, call->xid) == NULL);
    call->rp_next = *b;
    *b = call;
    if (call->rp_deadline_ns < c->next_deadline_ns)
        c->next_deadline_ns = call->rp_deadline_ns;
}

struct rp_call *rp__xid_find(const struct rp_client *c, uint32_t xid)
{
    struct rp_call *call = c->buckets[xid & c->mask];

    while (call && call->xid != xid)
        call = call->rp_next;
    return call;
}

void rp__xid_remove(struct rp_client *c, struct rp_call *call)
{
    struct rp_call **pp = &c->buckets[call->xid & c->mask];

    /* callers remove only calls they know to be in the table */
    assert(rp__call_in_flight(call));
    while (*pp && *pp != call)
        pp = &(*pp)->rp_next;
    assert(*pp != NULL);
    if (*pp)
        *pp = call->rp_next;
    call->rp_next = NULL;
}

struct rp_call *rp__xid_expire(struct rp_client *c, uint64_t now)
{
    struct rp_call *list = NULL, **tail = &list;
    uint64_t next = UINT64_MAX;
    uint32_t i;

    for (i = 0; i <= c->mask; i++) {
        struct rp_call **pp = &c->buckets[i];

        while (*pp) {
            struct rp_call *call = *pp;

            if (call->rp_deadline_ns <= now) {
                *pp = call->rp_next;
                call->rp_next = NULL;
                *tail = call;
                tail = &call->rp_next;
                continue;
            }
            if (call->rp_deadline_ns < next)
                next = call->rp_deadline_ns;
            pp = &call->rp_next;
        }
    }
    c->next_deadline_ns = next;
    return list;
}

struct rp_call *rp__xid_drain(struct rp_client *c)
{
    struct rp_call *list = NULL, **tail = &list;
    uint32_t i;

    for (i = 0; i <= c->mask; i++) {
        while (c->buckets[i]) {
            struct rp_call *call = c->buckets[i];

            c->buckets[i] = call->rp_next;
            call->rp_next = NULL;
            *tail = call;
            tail = &call->rp_next;
        }
    }
    c->next_deadline_ns = UINT64_MAX;
    return list;
}
