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
#include "replaybase/rb.h"

#define NR_HELD_MAX 4096u /* due calls waiting at once */

/* A due call waiting for its dependencies or the window. */
struct nr_held {
    uint32_t idx;
    uint32_t sent;  /* pieces sent */
    uint8_t behind; /* found the window full when it could have gone */
    uint64_t since; /* its planned time (speed 0: when it became due) */
};

/*
 * One child's replay: the generic child (workload.h) first.  A process
 * takes part in ncopies of its client's copies of the trace (--scale):
 * those with a stream (traced client host) it replays (nr_unit_proc).  The
 * copies' calls are interleaved into one sequence of "virtual" calls, v =
 * i x ncopies + k for call i of its copy k; the process sends those of its
 * streams.  Each copy's handles and completion stamps are in the area the
 * client's processes share (the plan's shm), so that a call waits for a
 * call another process sends, and uses the handle its reply named.  The
 * calls of a copy that another client replays are marked completed in
 * INIT: a dependency on them is kept by the schedule only.
 */
struct nr_replay {
    struct ld_child cx;
    const struct nr_plan *plan;
    int version;
    double speed;
    uint32_t rtmax, wtmax;
    uint32_t ncopies;     /* copies this process takes part in (0: idle) */
    uint32_t *copy_m;     /* copy k's slot in the client's shared area */
    uint32_t *copy_j;     /* copy k's number among the run's copies */
    uint8_t *prepares;    /* copy k's tree is this process's to make */
    uint8_t *learns;      /* copy k's tree is another client's: look it up */
    uint8_t *mine;        /* per copy k and stream: this process replays it */
    uint64_t unit_calls;  /* traced calls of its streams, every copy's */
    uint64_t cross_deps;  /* their dependencies on another client's calls */
    uint64_t cross_calls; /* its calls holding such a dependency */
    uint32_t nprepared;   /* copies whose tree this process makes */
    uint32_t nstreams;    /* the trace's streams (at least 1) */
    int shares;           /* another process sends calls of its copies */
    uint32_t total;       /* virtual calls: the plan's calls x ncopies */
    struct nf_fh base;    /* the copy being prepared: CL<N>/nreplay... */
    struct nf_fh *fh;     /* the copy being prepared's handles (shared) */
    uint32_t *left;       /* per virtual call: pieces not yet answered */
    struct nr_held *held; /* due calls, in trace order */
    uint32_t nheld;
    uint32_t next;        /* the next virtual call to become due */
    uint32_t window;      /* --window */
    struct rb_window win; /* the calls in flight (a slot's tag: its virtual
                             call, its piece of a READ or WRITE) */
    struct rb_loop loop;  /* the run's clock */
    /* STALE or BADHANDLE replies in a row where the trace had another
     * status, and when the first of them came (the server lost the
     * image: LD_STALE_LIMIT of them end the replay) */
    uint32_t stale_run;
    uint64_t stale_since_ns;
    /* how long the server may stay away (the TCP client's reconnect
     * time; over UDP, no answer for as long ends the replay), and since
     * when the RPCs that finished found no answer (0: the last one had
     * one) */
    uint32_t give_up_ms;
    uint64_t unanswered_since_ns;
    int closing; /* the client closes: a call it completes is not accounted */
};

/* Virtual call v's call of the plan. */
static inline const struct nr_call *nr_vcall(const struct nr_replay *rp, uint32_t v)
{
    return &rp->plan->calls[v / rp->ncopies];
}

/* The client's copy m's handles and completion stamps (shared). */
static inline struct nf_fh *nr_copy_fh(const struct nr_replay *rp, uint32_t m)
{
    return (struct nf_fh *)((char *)rp->plan->shm + (size_t)m * rp->plan->shm_copy_bytes);
}

static inline uint64_t *nr_copy_done(const struct nr_replay *rp, uint32_t m)
{
    return (uint64_t *)((char *)nr_copy_fh(rp, m) + rp->plan->shm_done_off);
}

/* The handle of object obj in virtual call v's copy. */
static inline struct nf_fh *nr_fh(const struct nr_replay *rp, uint32_t v, uint32_t obj)
{
    return &nr_copy_fh(rp, rp->copy_m[v % rp->ncopies])[obj];
}

/* When call i of virtual call v's copy completed (0: not yet); another
 * process may set it: the handles its reply named are written first. */
static inline uint64_t nr_done_get(const struct nr_replay *rp, uint32_t v, uint32_t i)
{
    return __atomic_load_n(&nr_copy_done(rp, rp->copy_m[v % rp->ncopies])[i],
                           __ATOMIC_ACQUIRE);
}

static inline void nr_done_set(const struct nr_replay *rp, uint32_t v, uint64_t ns)
{
    __atomic_store_n(&nr_copy_done(rp, rp->copy_m[v % rp->ncopies])[v / rp->ncopies],
                     ns ? ns : 1, __ATOMIC_RELEASE);
}

/* Whether virtual call v is one of this process's streams. */
static inline int nr_mine(const struct nr_replay *rp, uint32_t v)
{
    return rp->mine[(size_t)(v % rp->ncopies) * rp->nstreams + nr_vcall(rp, v)->stream];
}

/* ---- prep.c ---------------------------------------------------------- */

/* The workload table's child hooks: set-up, a phase (MOUNT, INIT: the
 * image; RUN: the replay, at most arg seconds when arg > 0), the image's
 * file set into the results, the release of everything. */
int nr_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd);
int nr_child_phase(struct ld_child *c, uint32_t type, uint32_t arg);
void nr_child_results(struct ld_child *c);
void nr_child_free(struct ld_child *c);

/* ---- hosts.c: a copy whose streams several clients replay --------------- */

/* Copy k's home client's directory (CL<N>) and its tree's directory there. */
void nr_copy_base(const struct nr_replay *rp, uint32_t k, char *cl, size_t cllen,
                  char *dir, size_t dirlen);

/* prepares[k]: the process makes copy k's tree for itself and its client's
 * processes (NR_PREP_OWN), or for other clients too (NR_PREP_SHARED: with
 * a marker made last). */
#define NR_PREP_OWN    1u
#define NR_PREP_SHARED 2u

/* MOUNT: the marker of each NR_PREP_SHARED copy's tree an earlier replay
 * left goes, before any client's INIT looks for it.  0 or -errno. */
int nr_hosts_unmark(struct nr_replay *rp);

/* INIT, the tree made: its marker (base: /CL<N>/nreplay...).  0 or -errno. */
int nr_hosts_mark(struct nr_replay *rp, const char *base);

/* INIT: waits (bounded; the parent still heard) for another client's
 * marker of CL<N>/dir, then gives the tree's handle in base.  0 or -errno. */
int nr_hosts_wait(struct nr_replay *rp, const char *cl, const char *dir,
                  struct nf_fh *base);

/* INIT, the trees known: the calls of this process's copies that other
 * clients replay are marked completed (their dependants keep them by the
 * schedule only) and counted (unit_calls, cross_deps, cross_calls). */
void nr_hosts_foreign_done(struct nr_replay *rp);

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
 * client broke, nothing accounted: the call is not sent). */
int nr_call_start(struct nr_replay *rp, struct rb_slot *s, uint32_t v, uint32_t piece,
                  rp_done_fn done);

/* Accounts the slot's finished call: an RPC the transport took (its
 * traced call replayed with its first piece), answered or not (per-op
 * table, traced time, the status against the trace's; a call answered
 * only after its timeout is a bad call, as in the SFS mix, its status
 * still compared; its sends again; a run of STALE replies), and takes the
 * handle its reply names.  1; 0 for a call that never left this host (a
 * connection down, a send refused: not sent, nothing counted). */
int nr_call_account(struct rb_slot *s);

#endif /* NR_INT_H */
