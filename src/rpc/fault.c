/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fault.c - fault injection on the reply path of a client (rpc layer,
 * style.md 2.5, after SQLite's test6.c): under a seeded Park-Miller
 * generator, replies are dropped, duplicated, cut in half or held back and
 * delivered after the next one.  It sits between the transports and the
 * reply decoder, so it exercises exactly what a lossy network or a
 * confused server would: UDP retransmission with the same XID, calls that
 * complete once, unknown-XID and garbage counting, TCP timeouts.  Off
 * unless struct rp_client_opts.fault asks for it.
 */
#include "rpc/rp_int.h"

#include <stdlib.h>
#include <string.h>

int rp__fault_init(struct rp_client *c, const struct rp_fault *f)
{
    if (!f)
        return 0;
    c->fault = *f;
    cm_rng_seed(&c->fault_rng, f->seed ? f->seed : CM_RNG_DEFAULT_SEED);
    c->held = malloc(c->opts.max_record_bytes);
    if (!c->held)
        return -ENOMEM;
    c->held_len = 0;
    c->fault_on = 1;
    return 0;
}

void rp__fault_free(struct rp_client *c)
{
    free(c->held);
    c->held = NULL;
    c->fault_on = 0;
}

void rp__fault_release(struct rp_client *c, uint64_t now)
{
    size_t len = c->held_len;

    if (!len)
        return;
    c->held_len = 0;
    rp__reply_direct(c, c->held, len, now);
}

void rp__fault_reply(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now)
{
    unsigned r = cm_rng_below(&c->fault_rng, 100);
    const struct rp_fault *f = &c->fault;

    if (r < f->drop_pct) {
        c->st.faults++;
        c->st.bytes_received += len;
        return;
    }
    r -= f->drop_pct;
    if (r < f->dup_pct) {
        c->st.faults++;
        rp__reply_direct(c, msg, len, now);
        rp__reply_direct(c, msg, len, now);
        rp__fault_release(c, now);
        return;
    }
    r -= f->dup_pct;
    if (r < f->truncate_pct) {
        c->st.faults++;
        rp__reply_direct(c, msg, len / 2, now);
        rp__fault_release(c, now);
        return;
    }
    r -= f->truncate_pct;
    if (r < f->reorder_pct && !c->held_len && len && len <= c->opts.max_record_bytes) {
        c->st.faults++;
        memcpy(c->held, msg, len);
        c->held_len = len;
        return;
    }
    rp__reply_direct(c, msg, len, now);
    rp__fault_release(c, now);
}
