/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fault.c - fault injection on the reply path of a client (rpc layer,
 * docs/STYLE.md 2.5, after SQLite's test6.c): under a seeded Park-Miller
 * generator, replies are dropped, duplicated, cut in half or held back and
 * delivered after the next one.  It sits between the transports and the
 * reply decoder, so it exercises exactly what a lossy network or a
 * confused server would: UDP retransmission with the same XID, calls that
 * complete once, unknown-XID and garbage counting, TCP timeouts.  Off
 * unless struct rp_client_opts.fault asks for it; rp_fault_parse reads the
 * text form programs take on their command line.  What survives goes on
 * through the deliver function the engine passes in, so this file calls
 * nothing of the engine's.
 */
#include "rpc/rp_int.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>
#include "common/cm.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/num.h"

int rp__fault_init(struct rp_client *c, const struct rp_fault *f)
{
    if (!f)
        return 0;
    c->fault = *f;
    cm_rng_seed(&c->fault_rng, f->seed ? f->seed : CM_RNG_DEFAULT_SEED);
    c->held = cm_malloc(c->opts.max_record_bytes);
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

void rp__fault_release(struct rp_client *c, uint64_t now, rp__deliver_fn deliver)
{
    size_t len = c->held_len;

    if (!len)
        return;
    c->held_len = 0;
    deliver(c, c->held, len, now);
}

void rp__fault_reply(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now,
                     rp__deliver_fn deliver)
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
        deliver(c, msg, len, now);
        deliver(c, msg, len, now);
        rp__fault_release(c, now, deliver);
        return;
    }
    r -= f->dup_pct;
    if (r < f->truncate_pct) {
        c->st.faults++;
        deliver(c, msg, len / 2, now);
        rp__fault_release(c, now, deliver);
        return;
    }
    r -= f->truncate_pct;
    if (r < f->reorder_pct && !c->held_len && len && len <= c->opts.max_record_bytes) {
        c->st.faults++;
        memcpy(c->held, msg, len);
        c->held_len = len;
        return;
    }
    deliver(c, msg, len, now);
    rp__fault_release(c, now, deliver);
}

int rp_fault_parse(const char *what, const char *spec, struct rp_fault *f, char *err,
                   size_t errlen)
{
    static const char *const keys[] = {"drop", "dup", "trunc", "reorder", "seed"};
    unsigned *pct[] = {&f->drop_pct, &f->dup_pct, &f->truncate_pct, &f->reorder_pct};
    char buf[256], *tok, *save = NULL;
    int64_t v;
    size_t k;

    memset(f, 0, sizeof(*f));
    if (strlen(spec) >= sizeof(buf))
        return cm_errf(err, errlen, "%s: too long", what);
    strcpy(buf, spec);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');

        for (k = 0; eq && k < CM_ARRAY_LEN(keys); k++)
            if (strlen(keys[k]) == (size_t)(eq - tok) &&
                strncmp(tok, keys[k], (size_t)(eq - tok)) == 0)
                break;
        if (!eq || k == CM_ARRAY_LEN(keys))
            return cm_errf(err, errlen,
                           "%s: '%s' is not drop=, dup=, trunc=, reorder= or seed=", what,
                           tok);
        if (cm_parse_i64(what, eq + 1, 0, k == 4 ? 2147483646 : 100, &v, err, errlen) < 0)
            return -EINVAL;
        if (k == 4)
            f->seed = (uint32_t)v;
        else
            *pct[k] = (unsigned)v;
    }
    if (f->drop_pct + f->dup_pct + f->truncate_pct + f->reorder_pct > 100)
        return cm_errf(err, errlen, "%s: the percentages add up to more than 100", what);
    return 0;
}
