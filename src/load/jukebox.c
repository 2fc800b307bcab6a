/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jukebox.c - the state of a call sent again after NFS3ERR_JUKEBOX
 * (jukebox.h).
 */
#include <string.h>

#include "common/clock.h"
#include "load/jukebox.h"
#include "load/stats.h"
#include "nfs/nf.h"

int ld_jukebox_hold(struct ld_jukebox *j, struct rp_call *call, void *res, size_t res_len,
                    uint32_t delay_ms)
{
    if (j->again + 1 >= LD_JUKEBOX_TRIES)
        return 0;
    if (j->again++ == 0)
        j->first_send_ns = call->t_send_ns;
    nf_call_free(call);
    memset(res, 0, res_len);
    j->retry_at_ns = cm_now_ns() + (uint64_t)delay_ms * 1000000u;
    return 1;
}

uint64_t ld_jukebox_elapsed_ns(const struct ld_jukebox *j, const struct rp_call *call)
{
    uint64_t sent = j->again ? j->first_send_ns : call->t_send_ns;

    return call->t_reply_ns > sent ? call->t_reply_ns - sent : 0;
}

void ld_jukebox_count(const struct ld_jukebox *j, struct ld_stats *s, int op)
{
    uint32_t k;

    for (k = 0; k < j->again; k++)
        LD_STATS_COUNT(s, op, jukebox);
}
