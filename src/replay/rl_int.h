/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rl_int.h - the state of one child's trace replay, shared by
 * prep.c (mount, preparation, handles), call.c (the calls of
 * a record: arguments, result codecs, accounting) and run.c (the
 * timed loop).  Only those files include it.  Everything is allocated once
 * before timing starts: items (records on their way), the window's slots
 * (replaybase/rb.h), per-unit handles and per-stream counters.
 */
#ifndef RL_INT_H
#define RL_INT_H

#include <stdint.h>

#include "replay/rl.h"
#include "replaybase/rb.h"

#define RL_UDP_BYTES                                                                     \
    (256u * 1024u)      /* READ/WRITE bytes in flight over UDP:                          \
                           more overflow a default socket                                \
                           buffer, and a lost datagram costs                             \
                           a retransmission timeout */
#define RL_NONE RB_NONE /* end of an index list */

/* What an item asks for. */
enum rl_kind { RL_K_READ, RL_K_WRITE, RL_K_COMMIT, RL_K_OPEN, RL_K_GETATTR };

/* One record (or, for a MaStA sync of several regions, one region of it)
 * from the moment it is due until its last call has completed. */
struct rl_item {
    uint64_t planned_ns; /* absolute CLOCK_MONOTONIC issue time */
    uint64_t offset, length;
    uint32_t unit, stream, flags, mode;
    uint32_t pieces;  /* calls of the record itself (READ/WRITE split) */
    uint32_t issued;  /* of those, sent */
    uint32_t pending; /* calls in flight */
    uint32_t round;   /* issue pass in which it was first due */
    int32_t next;     /* queue, commit list or free list */
    uint8_t kind;     /* enum rl_kind */
    uint8_t behind;   /* held back: counts in could_not_keep_up */
    uint8_t commit;   /* an UNSTABLE write: COMMIT after its pieces */
    uint8_t counted;  /* counts as a record (once per record) */
};

/* Per stream: what a stream waits for before its next item may go. */
struct rl_stream {
    uint32_t inflight; /* items issued and not complete */
    uint32_t writes;   /* WRITE calls in flight */
    uint32_t seen;     /* issue pass that found it blocked */
};

/* A reader over the trace: every owned stream (SPC, MaStA), or one sysio
 * stream (sysio streams follow each other in the file but ran at once). */
struct rl_cursor {
    struct tr_reader r;
    struct tr_record rec;
    int open, have, done;
    int held;       /* the record was due while every item was taken */
    int64_t stream; /* -1: every stream this process owns */
};

/* One child's replay: the generic child (workload.h) first. */
struct rl_replay {
    struct ld_child cx;
    const struct rl_plan *plan;
    uint32_t gproc, nprocs;
    int version;
    double speed;
    int unstable;
    uint32_t rtmax, wtmax; /* bytes per READ / WRITE call */
    struct nf_fh dir;      /* CL<N>/replay */
    struct nf_fh *fh;      /* per unit: the file */
    struct nf_fh *dirfh;   /* per unit: its directory (sysio opens) */
    const char **leaf;     /* per unit: its last path component */
    uint8_t *mine;         /* per unit: a stream of this process uses it */
    struct rl_stream *streams;
    struct rl_item *items;
    uint32_t nitems, items_used;
    int32_t free_item;
    int32_t qhead, qtail; /* items with calls still to send, in due order */
    int32_t chead, ctail; /* items whose COMMIT is to be sent */
    uint32_t window;      /* --window */
    struct rb_window win; /* the calls in flight (a slot's tag: its item) */
    struct rl_cursor *cur;
    uint32_t ncur;
    struct rb_loop loop; /* the run's clock */
    uint32_t round;
    int closing; /* the client closes: a call it completes is not accounted */
};

/* ---- prep.c ------------------------------------------------------ */

/* MOUNT phase: mounts the child's mount point with room for the window and
 * learns the transfer maxima (FSINFO).  0 or -errno with last_error. */
int rl_mount(struct ld_child *c);

/* ---- call.c ------------------------------------------------------ */

/* Number of calls item it makes by itself (its pieces). */
uint32_t rl_call_pieces(const struct rl_replay *rp, const struct rl_item *it);

/* Data bytes call `piece` of item it carries (0 but for READ and WRITE). */
uint32_t rl_call_bytes(const struct rl_replay *rp, const struct rl_item *it,
                       uint32_t piece);

/* Fills slot s for call `piece` of item it (piece == it->pieces: its
 * COMMIT) and starts it.  Returns 0, or -errno when it could not be sent
 * (the call is then accounted as failed; -ENOTCONN: the client broke). */
int rl_call_start(struct rl_replay *rp, struct rb_slot *s, struct rl_item *it,
                  uint32_t piece, rp_done_fn done);

/* Accounts the slot's finished call in the child's per-op table and takes
 * the handle a LOOKUP or CREATE answer carries (later calls use it); frees
 * the decoded result.  The run loop's done callback calls it first. */
void rl_call_account(struct rb_slot *s);

#endif /* RL_INT_H */
