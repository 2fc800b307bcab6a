/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay_int.h - the state of one child's trace replay, shared by
 * replay_prep.c (mount, preparation, handles), replay_call.c (the calls of
 * a record: arguments, result codecs, accounting) and replay_run.c (the
 * timed loop).  Only those files include it.  Everything is allocated once
 * before timing starts: items (records on their way), call slots (the
 * window), per-unit handles and per-stream counters.
 */
#ifndef LD_REPLAY_INT_H
#define LD_REPLAY_INT_H

#include <stdint.h>

#include "load/replay.h"
#include "load/workload.h"
#include "nfs/nf.h"

#define LD_REPLAY_MAX_XFER     (1024u * 1024u) /* bytes per call, any transport */
#define LD_REPLAY_MAX_XFER_UDP (32u * 1024u)   /* bytes per call over UDP */
#define LD_REPLAY_UDP_BYTES                                                              \
    (256u * 1024u)    /* READ/WRITE bytes in flight over UDP:                            \
                         more overflow a default socket                                  \
                         buffer, and a lost datagram costs                               \
                         a retransmission timeout */
#define LD_RNONE (-1) /* end of an index list */

/* What an item asks for. */
enum ld_rkind { LD_RK_READ, LD_RK_WRITE, LD_RK_COMMIT, LD_RK_OPEN, LD_RK_GETATTR };

/* One record (or, for a MaStA sync of several regions, one region of it)
 * from the moment it is due until its last call has completed. */
struct ld_ritem {
    uint64_t planned_ns; /* absolute CLOCK_MONOTONIC issue time */
    uint64_t offset, length;
    uint32_t unit, stream, flags, mode;
    uint32_t pieces;  /* calls of the record itself (READ/WRITE split) */
    uint32_t issued;  /* of those, sent */
    uint32_t pending; /* calls in flight */
    uint32_t round;   /* issue pass in which it was first due */
    int32_t next;     /* queue, commit list or free list */
    uint8_t kind;     /* enum ld_rkind */
    uint8_t behind;   /* held back: counts in could_not_keep_up */
    uint8_t commit;   /* an UNSTABLE write: COMMIT after its pieces */
    uint8_t counted;  /* counts as a record (once per record) */
};

/* Per stream: what a stream waits for before its next item may go. */
struct ld_rstream {
    uint32_t inflight; /* items issued and not complete */
    uint32_t writes;   /* WRITE calls in flight */
    uint32_t seen;     /* issue pass that found it blocked */
};

/* One call in flight. */
struct ld_rslot {
    struct rp_call call;
    union {
        union nf2_args a2;
        union nf3_args a3;
    } args;
    union {
        union nf2_res r2;
        union nf3_res r3;
    } res;
    uint8_t fh[NF_FH_MAX]; /* LOOKUP3/CREATE3 handles decode here */
    struct ld_replay *owner;
    int32_t item;
    int32_t next_free;
    int op;         /* enum nf_op, for the per-op table */
    uint32_t count; /* bytes of a READ or WRITE */
    uint32_t bytes; /* of those, counted in bytes_in_flight */
};

/* A reader over the trace: every owned stream (SPC, MaStA), or one sysio
 * stream (sysio streams follow each other in the file but ran at once). */
struct ld_rcursor {
    struct tr_reader r;
    struct tr_record rec;
    int open, have, done;
    int held;       /* the record was due while every item was taken */
    int64_t stream; /* -1: every stream this process owns */
};

/* One child's replay: the generic child (workload.h) first. */
struct ld_replay {
    struct ld_child cx;
    const struct ld_replay_plan *plan;
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
    struct ld_rstream *streams;
    struct ld_ritem *items;
    uint32_t nitems, items_used;
    int32_t free_item;
    int32_t qhead, qtail; /* items with calls still to send, in due order */
    int32_t chead, ctail; /* items whose COMMIT is to be sent */
    struct ld_rslot *slots;
    uint32_t window, in_flight;
    uint64_t bytes_in_flight, byte_budget; /* READ/WRITE data in flight */
    int32_t free_slot;
    struct ld_rcursor *cur;
    uint32_t ncur;
    char *sink;  /* READ data lands here (never looked at) */
    char *wdata; /* WRITE data */
    uint64_t start_ns, last_ns;
    uint32_t round;
};

/* ---- replay_prep.c ------------------------------------------------------ */

/* MOUNT phase: mounts the child's mount point with room for the window and
 * learns the transfer maxima (FSINFO).  0 or -errno with last_error. */
int ld_replay_mount(struct ld_child *c);

/* ---- replay_call.c ------------------------------------------------------ */

/* Number of calls item it makes by itself (its pieces). */
uint32_t ld_rcall_pieces(const struct ld_replay *rp, const struct ld_ritem *it);

/* Data bytes call `piece` of item it carries (0 but for READ and WRITE). */
uint32_t ld_rcall_bytes(const struct ld_replay *rp, const struct ld_ritem *it,
                        uint32_t piece);

/* Fills slot s for call `piece` of item it (piece == it->pieces: its
 * COMMIT) and starts it.  Returns 0, or -errno when it could not be sent
 * (the call is then accounted as failed; -ENOTCONN: the client broke). */
int ld_rcall_start(struct ld_replay *rp, struct ld_rslot *s, struct ld_ritem *it,
                   uint32_t piece);

/* The done callback of every replay call (data = the slot). */
void ld_rcall_done(struct rp_call *call, void *data);

/* Called by ld_rcall_done when a slot's call has been accounted: the run
 * loop's bookkeeping (replay_run.c). */
void ld_replay_call_finished(struct ld_replay *rp, struct ld_rslot *s);

#endif /* LD_REPLAY_INT_H */
