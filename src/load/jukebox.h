/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jukebox.h - a call the server answered NFS3ERR_JUKEBOX (RFC 1813: busy,
 * try later) is sent again after --jukebox-delay, as a real client does
 * (docs/sfs.md): the state one call slot keeps for it, shared by the
 * synthetic mix's request slots (synth/biod.c) and the trace replay's
 * window (replay/run.c).  The slot keeps its call and arguments, so that
 * sending again allocates nothing; the call stays one call, timed from its
 * first send to its final reply, its sends again counted per op.
 */
#ifndef LD_JUKEBOX_H
#define LD_JUKEBOX_H

#include <stddef.h>
#include <stdint.h>

#include "rpc/rp.h"

struct ld_stats;

/* Sends of one call after JUKEBOX replies, at most: a server that stays
 * busy longer has its JUKEBOX taken as the answer (every wait bounded). */
#define LD_JUKEBOX_TRIES 16u

struct ld_jukebox {
    uint32_t again;         /* sends again so far */
    uint64_t first_send_ns; /* the client's clock at the first send */
    uint64_t retry_at_ns;   /* cm_now_ns() when it goes out again */
};

/* A new call in the slot. */
static inline void ld_jukebox_reset(struct ld_jukebox *j)
{
    j->again = 0;
}

/* For a call that completed (call->status 0) with a reply that says busy
 * (NFS3ERR_JUKEBOX): when it may be sent again, frees the decoded result,
 * zeroes res (res_len bytes), sets the time it goes out again (delay_ms
 * from now) and returns 1; after LD_JUKEBOX_TRIES sends, 0 (the JUKEBOX is
 * the answer). */
int ld_jukebox_hold(struct ld_jukebox *j, struct rp_call *call, void *res, size_t res_len,
                    uint32_t delay_ms);

/* The call's time: from its first send to its final reply (0 when the
 * clocks say otherwise). */
uint64_t ld_jukebox_elapsed_ns(const struct ld_jukebox *j, const struct rp_call *call);

/* Counts the call's sends again in op's and TOTAL's jukebox. */
void ld_jukebox_count(const struct ld_jukebox *j, struct ld_stats *s, int op);

#endif /* LD_JUKEBOX_H */
