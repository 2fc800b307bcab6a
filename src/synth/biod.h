/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * biod.h - the biod emulation of SFS 3.0 (docs/SFS30.md §10): one request's
 * calls go out through the rpc engine's async API with up to
 * BIOD_MAX_READS (reads) or BIOD_MAX_WRITES (writes) of them in flight; 0
 * means one at a time (synchronous).  Every other op is a request of one
 * call through the same path with a depth of 1.
 *
 * The calls go through the child's protocol (nfs/nf_proto.h): the slots
 * and their protocol calls are allocated once, at set-up, with room for
 * the names an op needs, so nothing is allocated per call.  The caller
 * supplies two functions: prepare fills slot i's version-neutral
 * arguments, done takes the finished call (status, times, neutral result)
 * and does the accounting; both run inside sy_biod_run.  A reply that
 * says "busy" and leaves the resend to the caller (v3 JUKEBOX) is sent
 * again after the jukebox delay.
 *
 * Policy (open item 10 of docs/SFS30.md §22, chosen here): biod applies in the warm-up
 * and run phases and during population writes; a timed-out call counts as
 * one bad call and the request's other calls still complete; the request
 * ends when every call has completed.
 */
#ifndef SY_BIOD_H
#define SY_BIOD_H

#include <stdint.h>

#include "synth/files.h"
#include "load/jukebox.h"
#include "nfs/nf_proto.h"

#define SY_BIOD_SLOTS 33   /* 32 (MAX_BIODS) + 1 */
#define SY_RBUF_BYTES 8192 /* a READ reply's data: one block (-B <= 8 KB) */

/* One call in flight: the protocol's call, its neutral arguments, the
 * names they refer to, and what the request needs to account for it. */
struct sy_slot {
    struct nf_call *call;       /* the biod's (nf_calls_alloc) */
    struct nf_op_args args;     /* args.c */
    char name[2][SY_NAME_MAX];  /* dir-op names (rename: from, to) */
    char text[SY_NAME_MAX + 4]; /* symlink text */
    char rbuf[SY_RBUF_BYTES];   /* call->buf: READ data, entries read over */
    int op;                     /* enum nf_op */
    uint32_t file;              /* entry index, SY_NO_FILE when none */
    uint32_t file2;             /* second entry (rename target, link name) */
    uint64_t offset;            /* read/write */
    uint32_t len;
    uint32_t index; /* call number within the request */
    uint32_t busy;
    struct sy_biod *owner;
    /* a busy reply the protocol leaves to the caller (v3 JUKEBOX): the
     * call is sent again at retry_at_ns (load/jukebox.h) */
    uint64_t retry_at_ns;
    uint32_t waiting; /* waiting for retry_at_ns to be sent again */
};

struct sy_biod;
/* Fills slot->args (and slot fields) for call i of the request.  Returns
 * 0, or -errno to count the call as failed without sending it. */
typedef int (*sy_biod_prepare_fn)(struct sy_slot *slot, uint32_t i, void *data);
/* Accounts a finished call (slot->call->status is 0 or an RP_ERR_*). */
typedef void (*sy_biod_done_fn)(struct sy_slot *slot, void *data);

struct sy_biod {
    struct nf_session *ses;
    struct nf_call *call_store; /* SY_BIOD_SLOTS of them, the slots' */
    struct sy_slot slot[SY_BIOD_SLOTS];
    unsigned in_flight;
    uint32_t timeout_ms; /* 0 = the op's class timeout */
    sy_biod_prepare_fn prepare;
    sy_biod_done_fn done;
    void *data;
    uint32_t jukebox_delay_ms; /* wait before a busy call is sent again */
    unsigned waiting;          /* busy slots waiting to be sent again */
    uint64_t max_in_flight;    /* the most calls ever outstanding (DEBUG 14) */
    uint64_t requests, calls;
};

/* Sets up the slots and their calls for the session's protocol (ses->proto
 * set; the session mounted later).  0, or -ENOMEM. */
int sy_biod_init(struct sy_biod *b, struct nf_session *ses, sy_biod_prepare_fn prepare,
                 sy_biod_done_fn done, void *data);
void sy_biod_free(struct sy_biod *b);

/*
 * Runs one request of ncalls calls with up to depth in flight (0 = one at a
 * time).  Blocks until every call has completed (each bounded by the
 * protocol's timeouts and retransmissions, and a call the server answered
 * busy by LD_JUKEBOX_TRIES waits of jukebox_delay_ms).  Returns the number
 * of calls that were sent (prepare failures excluded) or -errno when the
 * session is unusable (every call is then accounted as failed through
 * done).
 */
int sy_biod_run(struct sy_biod *b, uint32_t ncalls, uint32_t depth);

/* The slot no request uses (the last: at most SY_BIOD_SLOTS - 1 calls are
 * in flight), for one call outside a request - the mount's directories,
 * run with nf_call_run on slot->call and slot->args. */
struct sy_slot *sy_biod_spare(struct sy_biod *b);

#endif /* SY_BIOD_H */
