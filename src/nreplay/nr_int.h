/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nr_int.h - what the files of the NFS trace replay share and no one else
 * needs: the plan file's writer and reader (planfile.c, for plan.c) and one
 * child's replay, shared by prep.c (mount, the image created, handles),
 * hosts.c (a copy over several clients), call.c (a call's arguments,
 * accounting and the status comparison) and run.c (the timed loop).
 * Everything a child uses is allocated in INIT, before the clock starts,
 * and bounded by its window and the look-ahead, not by the trace.
 */
#ifndef NR_INT_H
#define NR_INT_H

#include <stdint.h>
#include <stdio.h>

#include "load/workload.h"
#include "nfs/nf.h"
#include "nfs/nf4_load.h"
#include "nreplay/nr.h"
#include "replaybase/rb.h"

/* ---- planfile.c ---------------------------------------------------------- */

/* Writing a plan file: the image, then the calls one by one, then the
 * index and the trailer. */
struct nr__writer {
    FILE *f;
    uint64_t ncalls, image_off, calls_off;
    int64_t t; /* the last call's time */
    uint64_t *index_off;
    int64_t *index_t;
    uint32_t nindex, cap_index;
    uint64_t capture_size, capture_hash; /* the capture's identity */
};

int nr__file_begin(struct nr__writer *w, FILE *f, const struct nr_plan *p);
int nr__file_call(struct nr__writer *w, const struct nr_call *c);
/* The index and the trailer (p's figures).  0 or -EIO. */
int nr__file_end(struct nr__writer *w, const struct nr_plan *p);
void nr__file_abort(struct nr__writer *w);
/* A file's size and the hash of its first and last 64 KiB.  0 or -errno. */
int nr__capture_id(const char *path, uint64_t *size, uint64_t *hash);
/* Reads the plan file open on fd (p->file names it) into p: the trailer's
 * figures, the index and the image; with check, the capture it names must
 * be the one it was made from when it is there.  0 or -errno with err. */
int nr__file_read(struct nr_plan *p, int fd, int check, char *err, size_t errlen);

/* ---- plan4.c ------------------------------------------------------------ */

/* A map of 64-bit keys (never 0) to numbers, whose entries may be dropped
 * (value NR_NONE; a growth leaves them out): plan4.c's stateids and owners. */
struct nr__v4_map {
    uint64_t *key;
    uint32_t *val;
    uint64_t mask, used;
};

/* What an NFSv4 plan learns of the traced state as it reads: the stateids
 * the trace showed made or used (a set of their hashes), and how many it
 * showed used before any reply made them (in_use: opens and locks from
 * before the capture); the open state slots the records name (a traced
 * stateid's slot from its OPEN, or its first use, to its CLOSE, then free
 * for the next: the slots in use at once, not the trace's opens), each
 * slot's open owner, the owners numbered.  Zeroed to start. */
struct nr__v4_state {
    uint64_t *seen;
    uint64_t mask, used;
    uint64_t in_use;
    struct nr__v4_map sids;   /* a traced stateid's hash -> its slot */
    struct nr__v4_map owners; /* an open owner's hash -> its number */
    uint32_t *slot_owner;     /* per slot, its owner (0: unknown) */
    uint32_t *free;           /* the slots free again */
    uint32_t nslots, nfree, cap_slots, nowners;
    uint64_t unnamed; /* OPENs with no stateid in their reply */
    /* the traced clients, numbered 1, 2, ...: a client id's number, a
     * session's (its CREATE_SESSION's client id's; a session whose
     * CREATE_SESSION the capture missed is a client of its own), and a
     * TCP connection's first (for what names neither: NFSv4.0's I/O, the
     * NULL procedure) */
    struct nr__v4_map clients, sessions, conns;
    uint32_t nclients;
    uint32_t client;             /* the COMPOUND being planned's (0: none known) */
    const struct tr_nfs4_op *op; /* the operation the call being planned is */
    /* its state: the record's kind, the slot it uses and the one it makes,
     * its owner */
    uint8_t kind, share;
    uint32_t sid, res_sid, owner;
};

/* The calls of NFSv4 COMPOUND ev (an NFSv4 plan's): fn on each of its
 * operations the plan replays, as the NFSv3-shaped event of the same SFS op
 * (a GETATTR after another call of the COMPOUND is that call's
 * attributes, no call), and on each state record (a CLOSE, an OPEN by
 * handle: st->kind set, counted in skipped[] as NR_SKIP_V4_STATE too); the
 * others that ran counted in skipped[] by reason (NR_SKIP_V4_STATE,
 * NR_SKIP_PROC, NR_SKIP_CUT); the stateids followed in st.  0, -ENOMEM,
 * or fn's first negative return. */
int nr__v4_calls(struct nr__v4_state *st, const struct tr_nfs_event *ev,
                 uint64_t *skipped,
                 int (*fn)(void *data, const struct tr_nfs_event *call), void *data);
void nr__v4_state_free(struct nr__v4_state *st);
/* The first pass: which client id each traced session and TCP connection
 * is (CREATE_SESSION, the first COMPOUND naming a client on it), so that
 * nr__v4_calls knows each COMPOUND's traced client (st->client) from the
 * first.  0 or -ENOMEM. */
int nr__v4_learn(struct nr__v4_state *st, const struct tr_nfs_event *ev);
/* The record being planned's state (st; none outside nr__v4_calls) into c:
 * its kind, slots, owner and an OPEN's share modes. */
void nr__v4_call_state(const struct nr__v4_state *st, struct nr_call *c);
/* The dependency keys of the record being planned beside its objects' and
 * names' (st; none outside nr__v4_calls): the slot it makes and the slot
 * it uses (an OPEN and a CLOSE change it, so what uses a slot waits for
 * its OPEN, its CLOSE for what used it, and the next OPEN into the slot
 * for that CLOSE; a READ, WRITE or SETATTR only reads it), and its open
 * owner's (an OPEN and a CLOSE change it: an owner's OPENs and CLOSEs go
 * in the traced order, its I/O after its last OPEN or CLOSE).  Keys never
 * those of an object or a name.  How many (at most 4). */
unsigned nr__v4_dep_keys(const struct nr__v4_state *st, uint64_t *keys, int *changes);

/* ---- one child's replay ---------------------------------------------------- */

#define NR_HELD_MAX    4096u      /* calls of a process due at once, and waiting */
#define NR_NAMES_BYTES (1u << 20) /* the names of those calls */

/* The completion of a call of a copy, in the ring of its last
 * NR_LOOKAHEAD calls the client's processes share: index + 1 of the call
 * that completed in this slot last, and when. */
struct nr_done {
    uint64_t idx1;
    uint64_t ns;
};

/* A call of this process from the moment it is due until its last piece
 * is answered (the live calls: a ring in trace order). */
struct nr_live {
    struct nr_call c;  /* its names in the process's names ring */
    uint64_t i;        /* its index in the plan */
    uint64_t names_at; /* where its names start in the names ring */
    uint64_t since;    /* its planned time (speed 0: when it became due) */
    uint32_t k;        /* its copy, of this process's */
    uint32_t pieces;   /* the RPCs it is sent as */
    uint32_t sent;     /* of those, sent */
    uint32_t left;     /* sent and not yet answered, or not yet sent */
    uint8_t behind;    /* found the window full when it could have gone */
    uint8_t done;      /* finished: its slot of the ring is free */
};

/*
 * One child's replay: the generic child (workload.h) first.  A process
 * takes part in ncopies of its client's copies of the trace (--scale):
 * those with a stream (traced client host) it replays (nr_unit_proc).  It
 * reads the plan's calls in order (its own stream of the file); call i is
 * due in each copy k whose stream is its at start + t_i / speed, and
 * becomes a live call.  Each copy's handles and the completions of its
 * last NR_LOOKAHEAD calls are in the area the client's processes share
 * (the plan's shm), so that a call waits for a call another process
 * sends and uses the handle its reply named; a call of a copy that
 * another client replays, or of a process of this client that ended
 * early, counts as completed (a dependency on it is kept by the schedule
 * only).
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
    struct nf_fh base;    /* the copy being prepared: CL<N>/nreplay... */
    struct nf_fh *fh;     /* the copy being prepared's handles (shared) */
    /* the plan's calls as this process reads them: the call read last
     * (cur, its index cur_i, the next copy to look at cur_k), and the
     * streams of the last 2 x NR_LOOKAHEAD calls (a dependency's owner) */
    struct nr_stream in;
    struct nr_call cur;
    uint64_t cur_i;
    uint32_t cur_k;
    int have_cur, in_end;
    int fill_blocked; /* cur is due but waits for room or the look-ahead */
    uint32_t *stream_of;
    uint64_t taken; /* its calls taken from the stream (every copy's) */
    /* the live calls: a ring of NR_HELD_MAX + window, in trace order
     * (head: the next, tail: the oldest not finished), their names in a
     * ring of NR_NAMES_BYTES */
    struct nr_live *live;
    uint32_t nlive;
    uint64_t live_head, live_tail;
    char *names;
    uint64_t names_head, names_tail;
    /* the due calls waiting for their dependencies or the window, in
     * trace order: live calls' slots in the ring */
    uint32_t *held;
    uint32_t nheld;
    uint32_t window;      /* --window */
    struct rb_window win; /* the calls in flight (a slot's tag: its live call,
                             its piece of a READ or WRITE) */
    struct rb_loop loop;  /* the run's clock */
    /* STALE or BADHANDLE replies in a row where the trace had another
     * status, and when the first of them came (the server lost the
     * image: LD_STALE_LIMIT of them end the replay) */
    uint32_t stale_run;
    uint64_t stale_since_ns;
    /* how long the server may stay away (the TCP client's reconnect
     * time; over UDP, no answer for as long ends the replay), and since
     * when nothing was answered: the first send of an RPC that finished
     * unanswered, or the last reply if that came later (0: the last RPC
     * to finish had its answer) */
    uint32_t give_up_ms;
    uint64_t unanswered_since_ns;
    uint64_t last_reply_ns;
    int closing; /* the client closes: a call it completes is not accounted */
    /* NFSv4 (call4.c): a protocol call per window slot (the slot's index),
     * and the replayed open of each of the plan's open state slots per copy
     * (a traced stateid's, from its OPEN to its CLOSE), the process's own
     * OPEN and CLOSE call, and what the opens did */
    void *v4calls;
    void *v4open;
    struct nf4_call v4sync;
    struct nf4_open_counts v4counts;
    uint64_t v4closes_traced;   /* CLOSEs sent at the traced CLOSE */
    char v4owner[48];           /* the open owner of v4sync's OPEN */
    struct nr_v4clients *v4cls; /* a client per traced client (clients4.c) */
    uint32_t v4restates;        /* calls waiting to go again (call4.c) */
};

/* The client's copy m's handles, its completions, and the flags of the
 * client's processes that ended early (shared). */
static inline struct nf_fh *nr_copy_fh(const struct nr_replay *rp, uint32_t m)
{
    return (struct nf_fh *)((char *)rp->plan->shm + (size_t)m * rp->plan->shm_copy_bytes);
}

static inline struct nr_done *nr_copy_done(const struct nr_replay *rp, uint32_t m)
{
    return (struct nr_done *)((char *)nr_copy_fh(rp, m) + rp->plan->shm_done_off);
}

static inline uint32_t *nr_ended(const struct nr_replay *rp)
{
    return (uint32_t *)((char *)rp->plan->shm + rp->plan->shm_ended_off);
}

/* The handle of object obj in copy k (of this process's). */
static inline struct nf_fh *nr_fh(const struct nr_replay *rp, uint32_t k, uint32_t obj)
{
    return &nr_copy_fh(rp, rp->copy_m[k])[obj];
}

/* Whether stream s of copy k is one of this process's. */
static inline int nr_mine(const struct nr_replay *rp, uint32_t k, uint32_t s)
{
    return rp->mine[(size_t)k * rp->nstreams + s];
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

/* INIT, the trees known: the traced calls of this process's streams
 * (unit_calls) and, when its copies' streams are spread over clients,
 * their dependencies on calls another client replays (cross_deps,
 * cross_calls: one read of the plan's calls).  0 or -errno. */
int nr_hosts_count(struct nr_replay *rp);

/* Whether call j of copy k is another client's (its stream, the process's
 * record of the calls it read, says so). */
int nr_hosts_foreign(const struct nr_replay *rp, uint32_t k, uint64_t j);

/* ---- run.c ----------------------------------------------------------- */

/* RUN: replays the trace.  0 or -errno with last_error; STOP or limit_s
 * ends it early (replay_cut). */
int nr_run(struct ld_child *c, uint32_t limit_s);

/* ---- call.c ---------------------------------------------------------- */

/* Whether every handle live call l needs is known on the server under
 * test. */
int nr_call_ready(const struct nr_replay *rp, const struct nr_live *l);

/* The calls a traced call is sent as: a READ or WRITE longer than the
 * server's maximum is cut into pieces; 1 for every other call. */
uint32_t nr_call_pieces(const struct nr_replay *rp, const struct nr_call *c);

/* Fills slot s for piece `piece` of live call l (its slot in the ring:
 * ref) and starts it.  0, or -errno when it could not be sent (accounted
 * as a bad call; -ENOTCONN: the client broke, nothing accounted: the call
 * is not sent). */
int nr_call_start(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                  rp_done_fn done);

/* Accounts the slot's finished call: an RPC the transport took (its
 * traced call replayed with its first piece), answered or not (per-op
 * table, traced time, the status against the trace's; a call answered
 * only after its timeout is a bad call, as in the SFS mix, its status
 * still compared; its sends again; a run of STALE replies), and takes the
 * handle its reply names.  1; 0 for a call that never left this host (a
 * connection down, a send refused: not sent, nothing counted). */
int nr_call_account(struct rb_slot *s);

/* The replayed status against the traced one (traced: the plan's, in the
 * replayed numbering), counted and the first mismatches kept; a run of
 * STALE replies followed (compare.c). */
void nr__compare(struct nr_replay *rp, const struct nr_live *l, uint32_t traced,
                 uint32_t status);
void nr__stale_run(struct nr_replay *rp, const struct nr_call *c, uint32_t nfs,
                   uint64_t at);

/* ---- call4.c: a call over NFSv4.1 ------------------------------------------ */

/* Starts piece `piece` of live call l on slot s through the session's
 * NFSv4.1 client (the compound nf4_sfs_compound builds for its op; NULL
 * as the RPC NULL procedure); every completion goes to done, as a v2/v3
 * call's does.  0 or -errno as nr_call_start. */
int nr_call4_start(struct nr_replay *rp, struct rb_slot *s, uint32_t ref, uint32_t piece,
                   rp_done_fn done);
/* The calls answered STALE_STATEID, BAD_STATEID or EXPIRED for the stateid
 * of an open their client lost since (made anew while they were built or
 * in flight) go again, after each new client and at most 4 times: their
 * file's OPEN first (state4.c), then the call with the new open's stateid
 * (counted: nr_v4_stale_resends; its time from its first send), as a
 * client retries its application's I/O once it has recovered.  Outside any completion
 * callback (run.c's loop). 0, or -ENOTCONN when the client is gone. */
int nr_call4_restates(struct nr_replay *rp);
/* Bytes of one slot's v4 call (rp->v4calls holds one per slot). */
size_t nr_call4_bytes(void);
/* Accounts a finished v4 compound of slot s as nr_call_account does.  1;
 * 0 for a call that never left this host. */
int nr_call4_account(struct rb_slot *s);

/* ---- clients4.c: an NFSv4.1 client per traced client ------------------------- */

/* At most this many NFSv4 clients in one process (copies x traced clients
 * it replays): more is refused, naming -p. */
#define NR_V4_CLIENTS_MAX 64u

/* INIT, the image made: each unit (copy k, stream s: a traced client) the
 * process replays gets its own client on the server under test (its own
 * client id, EXCHANGE_ID with an owner of its own, and session, each on its
 * own connection); the first the session's.  0 or -errno with last_error. */
int nr_clients4_open(struct nr_replay *rp);
/* The client of copy k's stream s (the session's when there is one unit),
 * NULL once it is gone. */
struct nf4_client *nr_client4(const struct nr_replay *rp, uint32_t k, uint32_t s);
/* Waits until wake (ns) or a reply on any of the clients, then services
 * each: the calls completed, or -errno. */
int nr_clients4_wait(struct nr_replay *rp, uint64_t wake);
/* The run's start (what each client had counted noted) and end (what the
 * clients beyond the session's counted since, into the session's figures). */
void nr_clients4_mark(struct nr_replay *rp);
void nr_clients4_count(struct nr_replay *rp);
/* The clients beyond the session's ended (DESTROY_SESSION,
 * DESTROY_CLIENTID; bounded) and freed. */
void nr_clients4_close(struct nr_replay *rp);

/* ---- state4.c: the traced open and lock state over NFSv4.1 ------------------ */

/* Bytes of one open state slot of a copy (rp->v4open holds nsids + 1 per
 * copy). */
size_t nr_state4_bytes(void);
/* The stateid a call of copy k using the plan's slot sid goes with: its
 * replayed open's (or lock's); the stateid of one closed since, or
 * refused (the server says what it thinks of it, as of the traced one);
 * NULL for the anonymous one (a traced special stateid, or an open from
 * before the capture not opened here). */
const stateid4 *nr_state4_sid(const struct nr_replay *rp, uint32_t k, uint32_t sid);
/* The client's epoch of the open a call of copy k using slot sid carries
 * the stateid of (UINT32_MAX: none open, the anonymous stateid or a closed
 * one's). */
uint32_t nr_state4_epoch(const struct nr_replay *rp, uint32_t k, uint32_t sid);
/* The OPEN of compound c goes with traced owner `owner` of copy k (an
 * owner of its own, named into buf; 0: the client's) and the traced share
 * modes (share: nr_call's; 0: reading and writing, denying nothing). */
void nr_state4_owner(struct nf4_compound *c, char *buf, size_t len, uint32_t k,
                     uint32_t owner, uint8_t share);
/* Traced OPEN l's replayed reply (res; NULL: none; fh: the file its GETFH
 * named): the state of its slot, counted. */
void nr_state4_opened(struct nr_replay *rp, const struct nr_live *l,
                      const struct nf4_res *res, uint32_t epoch, const struct nf4_fh *fh);
/* Before the first piece of l: a READ, WRITE or SETATTR whose traced
 * stateid no replayed OPEN made (an open from before the capture), or
 * whose open a new client lost, OPENs its file into the stateid's slot
 * (synchronously, the client's other calls going on).  0, or -ENOTCONN
 * when the client is gone. */
int nr_state4_open(struct nr_replay *rp, const struct nr_live *l);
/* State record l (a traced CLOSE, an OPEN by handle, a LOCK, LOCKU or
 * LOCKT) sent as the replay's own call, synchronously.  0, or -ENOTCONN
 * when the client is gone. */
int nr_state4_record(struct nr_replay *rp, const struct nr_live *l);
/* The end of the run: every open still open is CLOSEd (bounded: once the
 * client is gone, nothing more is sent). */
void nr_state4_close_all(struct nr_replay *rp);

/* ---- prep4.c: the image over NFSv4.1 ----------------------------------------- */

/* The largest READ and WRITE (rtmax, wtmax): the server's, within what
 * the session's compounds carry. */
void nr_prep4_maxima(struct nr_replay *rp);
/* LOOKUP of name in dir (its handle into out); object obj made as name in
 * dir (its handle into rp->fh[obj]; target: a symlink's); obj linked as
 * name in dir.  0 or -errno (an NFS status as nf_status_errno's). */
int nr_prep4_lookup(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                    struct nf_fh *out);
int nr_prep4_make(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                  uint32_t obj, const char *target);
int nr_prep4_link(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                  uint32_t obj);

/* LOOKUP of name in dir with the child's client, whatever its version:
 * 0 or -errno with last_error (lookup.c). */
int nr_lookup(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
              struct nf_fh *out);

#endif /* NR_INT_H */
