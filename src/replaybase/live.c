/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.c - a replay's part of the progress lines (rb.h, load/live.h): the
 * calls its per-op table counted, what it replayed of what it will, what
 * waited, and its lateness's p99 so far.
 */
#include <stdio.h>

#include "common/hist.h"
#include "load/live.h"
#include "replaybase/rb.h"

void rb_live(struct ld_child *c, uint64_t done, uint64_t total, uint64_t waits)
{
    const struct ld_stats *st = &c->stats;
    const struct ld_opstat *t = &st->op[NF_OP_TOTAL];

    if (!c->measuring) /* counted in the run, a replay's one load phase */
        return;
    c->live.good = t->good;
    c->live.bad = t->bad;
    c->live.sum_us = t->sum_us;
    c->live.hist = t->hist;
    c->live.done = done;
    c->live.total = total;
    c->live.waits = waits;
    c->live.late_us =
        (uint64_t)(cm_hist_quantile_ms(&RB_STATS(c)->replay_late, 0.99) * 1000.0);
}

int rb_progress_text(const struct ld_live *sum, const char *unit, const char *waits,
                     char *buf, size_t len)
{
    double late = (double)sum->late_us / 1000.0;

    return snprintf(buf, len, "%s %llu of %llu, late p99 %.*f ms, %s %llu", unit,
                    (unsigned long long)sum->done, (unsigned long long)sum->total,
                    ld_ms_decimals(late), late, waits, (unsigned long long)sum->waits);
}
