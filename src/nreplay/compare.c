/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare.c - a replayed call's status against the traced one, for both
 * protocols' accounting (call.c for NFSv2/v3, call4.c for NFSv4): a
 * mismatch counted by op and by pair of status classes, the first few in
 * trace order kept for the report; and the run of STALE or BADHANDLE
 * replies that says the server lost the image.  A file of its own so that
 * call.c and call4.c both call down into it, never each other both ways.
 * Nothing here allocates.
 */
#include "common/hist.h"
#include "nreplay/nr_int.h"

void nr__compare(struct nr_replay *rp, const struct nr_live *l, uint32_t traced,
                 uint32_t status)
{
    const struct nr_call *c = &l->c;
    uint64_t i = l->i;
    struct ld_stats *st = &rp->cx.stats;
    unsigned tc, rc;
    uint64_t ex;

    if (c->status == NR_NO_REPLY)
        return;
    NR_STATS(&rp->cx)->nr_compared++;
    if (status == traced)
        return;
    tc = nr_class_of(traced);
    rc = nr_class_of(status);
    NR_STATS(&rp->cx)->nr_mismatches++;
    NR_STATS(&rp->cx)->nr_mismatch[c->op]++;
    NR_STATS(&rp->cx)->nr_mismatch[NF_OP_TOTAL]++;
    NR_STATS(&rp->cx)->nr_pair[((unsigned)c->op * NR_CLASSES + tc) * NR_CLASSES + rc]++;
    if (status != 0)
        ld_stats_unexpected(st, c->op, status);
    /* the earliest in the trace, whatever order they completed in (at
     * speed 0 a later call may be answered first) */
    ex = ~(((uint64_t)i << 16) | (status < 0xffffu ? status : 0xffffu));
    cm_top_insert(NR_STATS(&rp->cx)->nr_example, NR_EXAMPLES, ex);
}

/* A run of STALE or BADHANDLE replies where the trace had another
 * status: the server lost the image (run.c ends the replay). */
void nr__stale_run(struct nr_replay *rp, const struct nr_call *c, uint32_t nfs,
                   uint64_t at)
{
    int stale = nfs == NF_ST_STALE || nfs == NF_ST_BADHANDLE;

    if (!stale) {
        rp->stale_run = 0;
        return;
    }
    if (c->status == NF_ST_STALE || c->status == NF_ST_BADHANDLE)
        return; /* as traced */
    if (rp->stale_run++ == 0)
        rp->stale_since_ns = at;
}
