/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nr_int.h - one child's NFS trace replay, shared by prep.c (mount, the
 * image created, handles), call.c (a call's arguments, result codecs,
 * accounting and the status comparison) and run.c (the timed loop).  Only
 * those files include it.  Everything is allocated in INIT, before the
 * clock starts.
 */
#ifndef NR_INT_H
#define NR_INT_H

#include <stdint.h>

#include "load/workload.h"
#include "nfs/nf.h"
#include "nreplay/nr.h"

#define NR_MAX_XFER     (1024u * 1024u) /* bytes per call over TCP */
#define NR_MAX_XFER_UDP (32u * 1024u)   /* over UDP */
#define NR_HELD_MAX     4096u           /* due calls waiting at once */

/* One call in flight. */
struct nr_slot {
    struct rp_call call;
    union {
        union nf2_args a2;
        union nf3_args a3;
    } args;
    union {
        union nf2_res r2;
        union nf3_res r3;
    } res;
    uint8_t fh[NF_FH_MAX]; /* handles of LOOKUP/CREATE... replies decode here */
    struct nr_replay *owner;
    uint32_t call_idx; /* the virtual call (nr_replay) */
    uint32_t piece;    /* of a READ or WRITE cut at the server's maximum */
    int32_t next_free;
    uint32_t count; /* bytes of a READ or WRITE */
};

/* A due call waiting for its dependencies or the window. */
struct nr_held {
    uint32_t idx;
    uint32_t sent;  /* pieces sent */
    uint8_t behind; /* found the window full when it could have gone */
    uint64_t since; /* its planned time (speed 0: when it became due) */
};

/*
 * One child's replay: the generic child (workload.h) first.  A process
 * replays ncopies copies of the trace (--scale), copy k on its own tree
 * with its own handles; the copies' calls are interleaved into one
 * sequence of "virtual" calls, v = i x ncopies + k for call i of copy k,
 * so that every per-call array below is indexed by v.
 */
struct nr_replay {
    struct ld_child cx;
    const struct nr_plan *plan;
    int version;
    double speed;
    uint32_t rtmax, wtmax;
    uint32_t ncopies;     /* copies this process replays (0: idle) */
    uint32_t copy0, step; /* the run's copy number of copy k: copy0 + k x step */
    uint32_t nobjs;       /* image objects (+1), per copy in fh_all */
    uint32_t total;       /* virtual calls: the plan's calls x ncopies */
    struct nf_fh base;    /* the copy being prepared: CL<N>/nreplay... */
    struct nf_fh *fh_all; /* per copy and image object: its handle here */
    struct nf_fh *fh;     /* the copy being prepared's part of fh_all */
    uint64_t *done_ns;    /* per virtual call: when it completed (0: not yet) */
    uint32_t *left;       /* per virtual call: pieces not yet answered */
    struct nr_held *held; /* due calls, in trace order */
    uint32_t nheld;
    uint32_t next; /* the next virtual call to become due */
    struct nr_slot *slots;
    uint32_t window, in_flight;
    int32_t free_slot;
    char *wdata; /* WRITE data */
    uint64_t start_ns, last_ns;
};

/* Virtual call v's call of the plan, and the handle of object obj in v's
 * copy. */
static inline const struct nr_call *nr_vcall(const struct nr_replay *rp, uint32_t v)
{
    return &rp->plan->calls[v / rp->ncopies];
}

static inline struct nf_fh *nr_fh(const struct nr_replay *rp, uint32_t v, uint32_t obj)
{
    return &rp->fh_all[(size_t)(v % rp->ncopies) * rp->nobjs + obj];
}

/* ---- prep.c ---------------------------------------------------------- */

/* A sync call of the child's client; 0 with *status, or -errno. */
int nr_sync(struct nr_replay *rp, uint32_t proc, const void *args, void *res,
            xdrproc_t free_codec, uint32_t *status);

/* The workload table's child hooks: set-up, a phase (MOUNT, INIT: the
 * image; RUN: the replay, at most arg seconds when arg > 0), the image's
 * file set into the results, the release of everything. */
int nr_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd);
int nr_child_phase(struct ld_child *c, uint32_t type, uint32_t arg);
void nr_child_results(struct ld_child *c);
void nr_child_free(struct ld_child *c);

/* ---- run.c ----------------------------------------------------------- */

/* RUN: replays the trace.  0 or -errno with last_error; STOP or limit_s
 * ends it early (replay_cut). */
int nr_run(struct ld_child *c, uint32_t limit_s);

/* ---- call.c ---------------------------------------------------------- */

/* Whether every handle virtual call v needs is known on the server under
 * test. */
int nr_call_ready(const struct nr_replay *rp, uint32_t v);

/* The calls virtual call v is sent as: a READ or WRITE longer than the
 * server's maximum is cut into pieces; 1 for every other call. */
uint32_t nr_call_pieces(const struct nr_replay *rp, uint32_t v);

/* Fills slot s for piece `piece` of virtual call v and starts it.  0, or -errno
 * when it could not be sent (accounted as a bad call; -ENOTCONN: the
 * client broke). */
int nr_call_start(struct nr_replay *rp, struct nr_slot *s, uint32_t v, uint32_t piece,
                  rp_done_fn done);

/* Accounts the slot's finished call (per-op table, traced time, the
 * status against the trace's) and takes the handle its reply names. */
void nr_call_account(struct nr_slot *s);

#endif /* NR_INT_H */
