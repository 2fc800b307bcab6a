/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sy_int.h - the synth layer's private header: the state of one child of
 * the SFS mix (docs/SFS30.md §1, §9-§12) and the functions the layer's
 * files call on it.  Nothing outside src/synth includes it but the layer's
 * unit tests; the rest of the program reaches the mix through its workload
 * table (sy.h).  One private header instead of a header per file keeps the
 * child's files (child.c, init.c, the op files, dump.c) from including
 * each other in a circle: each includes this and nothing of its siblings.
 *
 * A child owns one NFS client on the chosen transport, its file table,
 * working set, op decks, pacer and results.  A timeout or an NFS error
 * during the load never ends a child: they are counted (bad calls, NFS
 * errors) and logged with DEBUG 4; a failed mount or population does
 * (workload.h: the phase loop sends its last error).
 *
 * Who does what to a request (struct sy_req):
 *   deck.c    deals the op and the transfer size from shuffled decks;
 *   pick.c    chooses the file(s) by (state, category) and best fit (D6);
 *   args.c    builds the version-neutral arguments of each call into a
 *             biod slot (the protocol, nfs/nf_proto.h, builds its own from
 *             them and decodes the result into its storage: no allocation);
 *   reply.c   reads a reply's neutral result (status, attributes, handle)
 *             and keeps the file table in step with it;
 *   ops.c     issues the request through biod and accounts its calls.
 */
#ifndef SY_INT_H
#define SY_INT_H

#include <stdint.h>
#include <stdio.h>

#include "ctl/ct.h"
#include "load/config.h"
#include "load/iodist.h"
#include "load/mix.h"
#include "load/pacing.h"
#include "load/sizing.h"
#include "load/stats.h"
#include "load/workload.h"
#include "load/workset.h"
#include "nfs/nf.h"
#include "synth/biod.h"
#include "synth/files.h"
#include "synth/sy.h"

struct sy_dump; /* dump.c */

#define SY_FAILED_LOOKUP_PCNT 35 /* DEFAULT_FAILED_LOOKUP (docs/SFS30.md §2.4) */
#define SY_STALE_LIMIT        LD_STALE_LIMIT /* STALE replies in a row that stop a run */
#define SY_UNCOMMITTED_MAX    128            /* files a child remembers for COMMIT */

/* A shuffled deck of op numbers or transfer rows (deck.c): dealt in order,
 * reshuffled when empty.  Deviation (docs/SFS30.md §22 item 7): SFS drew every request
 * independently; dealing from decks keeps the same shares and a random
 * order but holds the CALL mix within a fraction of a point even in short
 * runs, where one 17-call read request would otherwise move the read share
 * by a point.  The op deck is short: each deck is apportioned from the
 * shares plus what earlier decks owed (so any run of whole decks is
 * within a card of every share), and each is weighed by the calls per
 * request the child has made so far, so a run of a few hundred requests
 * per process holds the call mix; a deck of 400 left a 15 s point with
 * part of one deck (several points off by sampling) and the first deck's
 * weights (reads short by 4 points with a small file set). */
#define SY_OP_DECK    20u  /* requests per op deck */
#define SY_XFER_DECK  100u /* requests per transfer deck (rows are percent) */
#define SY_DECK_CARDS 100u /* the larger of the two */
struct sy_deck {
    uint16_t card[SY_DECK_CARDS];
    uint32_t n;    /* cards in the deck */
    uint32_t next; /* next card to deal */
};

/* One logical request: its op, the entries it works on and, for reads and
 * writes, the transfer split into calls of block bytes (pick.c). */
struct sy_req {
    int op;          /* enum nf_op */
    uint32_t file;   /* entry, SY_NO_FILE for none (null, root...) */
    uint32_t file2;  /* rename target, link/symlink new name */
    uint64_t offset; /* read/write start */
    uint32_t len;    /* read/write bytes */
    uint32_t block;  /* bytes per call */
    uint32_t ncalls;
    int append;
    int truncate;                    /* setattr truncates file back to its init size */
    uint64_t new_size;               /* truncate target */
    int expect_noent;                /* a lookup aimed at a non-existent name */
    uint8_t pick_state, pick_state2; /* the entries' states when picked: an
                                        error they imply is expected */
    int existed;                     /* create: the slot already existed (dump tag) */
    int init; /* population request: no stats, INIT class timeouts */
    /* outcome of the last call (population reads these) */
    int rpc_status;      /* 0 or RP_ERR_* */
    uint32_t nfs_status; /* NFS status of the reply */
    int attr_type;       /* file type from the reply's attributes, -1 none */
    uint64_t attr_size;
    int fh_forgotten; /* the reply made the entry and named no handle (v2
                         SYMLINK): it is looked up at once */
};

/* The SFS mix's plan (the parent's, inherited by the children): the op
 * selector of the mix and block sizes, or -T's single op. */
struct sy_plan {
    struct ld_opsel opsel;
};

/* One child of the SFS mix: the generic child (workload.h) first, then its
 * NFS client's file table, working set, op decks, pacer and biod. */
struct sy_child {
    struct ld_child cx;
    const struct ld_opsel *opsel; /* the plan's */
    struct nf_fh testdir;         /* CL<n>/testdir<k> */
    struct sy_files files;
    struct ld_workset ws;
    struct sy_group_span *groups;
    struct sy_biod biod;
    struct ld_pacer pacer;
    struct cm_rng rng;
    uint64_t phase_start_ns;
    uint64_t requests;    /* in the current phase */
    struct sy_dump *dump; /* -z, run phase only */
    struct sy_req req;    /* the request being issued */
    struct sy_deck op_deck;
    struct sy_deck xfer_deck[2]; /* [0] reads, [1] writes: iodist rows */
    /* Realised calls per read [0] and write [1] request since the first
     * load phase, and what each op is owed from earlier decks (deck.c). */
    uint64_t io_reqs[2], io_calls[2];
    double deck_owed[NF_NOPS];
    double dealt_calls[NF_NOPS]; /* calls of the requests dealt (deck.c) */
    /* STALE or BADHANDLE replies in a row (sy_load_phase stops at
     * SY_STALE_LIMIT: the server lost the file set) */
    uint32_t stale_run;
    /* Files with UNSTABLE data not yet committed (v3): COMMIT goes to one
     * of them (pick.c); reply.c adds and removes them. */
    uint32_t uncommitted[SY_UNCOMMITTED_MAX];
    uint32_t n_uncommitted;
    /* The protocol's state of each entry (its file_bytes each, files.n of
     * them; NULL when it keeps none): nf_op_args.fstate (files.c). */
    unsigned char *fstate;
    int ws_entered; /* the working set entered the protocol (file_enter) */
};

/* ---- child.c: set-up, the load phases, the phase hooks -------------------- */

/* Set-up and tear-down of a child (the table's child_init and child_free;
 * also used by tests). */
int sy_child_init(struct sy_child *c, const struct ld_setup *setup, unsigned index,
                  int ctl_fd);
void sy_child_free(struct sy_child *c);

/* One measured or warm-up phase of `seconds` (0 = until STOP): issue
 * requests paced by the pacer.  Returns 0, or -ETIME when a run interval
 * had zero calls (the run must stop, docs/SFS30.md §9). */
int sy_load_phase(struct sy_child *c, int phase, uint32_t seconds);

/* The table's child_phase, child_hold and child_results. */
int sy_child_phase(struct ld_child *cx, uint32_t type, uint32_t arg);
int sy_child_hold(struct ld_child *cx);
void sy_child_results(struct ld_child *cx);
/* The schedule into cx->live before it is published (child_live). */
void sy_child_live(struct ld_child *cx);

/* ---- working.c: the working set's files and the protocol ------------------ */

/* The protocol's state of every entry (proto->file_bytes each; none when
 * 0).  0 or -ENOMEM. */
int sy_fstate_init(struct sy_child *c);
/* Entry i's protocol state, NULL when the protocol keeps none. */
void *sy_fstate(const struct sy_child *c, uint32_t i);
/* The working set's files enter the protocol's view once population made
 * them (file_enter: a stateful protocol opens them, now or at their first
 * read or write), and leave it at the child's end (file_leave).  Enter
 * returns 0 or -errno with last_error. */
int sy_working_enter(struct sy_child *c);
void sy_working_leave(struct sy_child *c);

/* ---- init.c: mount and population (docs/SFS30.md §4, §5.3, §5.4) ------------ */

/*
 * Mount: wait child x 200 ms, MOUNT (v1 for NFSv2, v3 for NFSv3) with up to
 * 10 retries after a timeout (each adding a random 0-1999 ms pause), then
 * look up or make CL<client>/testdir<child> (open item 8: the child's own
 * number, 0-based, as SFS passed it).  Returns 0, or -errno with one line
 * in c->last_error.
 */
int sy_init_mount(struct sy_child *c);

/*
 * Populate: idempotent.  Every entry is looked up first; what is missing is
 * created, what is too long is truncated with SETATTR, what is too short is
 * filled with 0xDEADBEEF writes, what should not exist (the non-io slots and
 * spare dirs left empty for creates and mkdirs) is removed, an entry of the
 * wrong type is removed and made again.  So a re-run on an existing tree
 * restores the base set instead of failing.  Sizes come from a generator
 * seeded by --seed and the child number only, so a re-run asks for the same
 * sizes.  Every call uses the INIT class timeout and is retried (bounded)
 * after an RPC failure.  Returns 0, or -errno with one line in
 * c->last_error.
 */
int sy_init_populate(struct sy_child *c);

/* ---- deck.c: ops and transfer sizes dealt from shuffled decks ---------------- */

/* Builds the child's op and transfer decks from the selector's request
 * shares and the block-size rows (no allocation). */
void sy_op_decks_init(struct sy_child *c);

/* Deals the next request's op. */
int sy_op_next(struct sy_child *c);

/* Deals one read (write = 0) or write request's transfer. */
void sy_deck_xfer(struct sy_child *c, int write, struct ld_xfer *x);

/* ---- pick.c: file choice (docs/SFS30.md §2.4, §7; D6; open item 9) ---------- */

/*
 * Chooses the file(s) of a load-phase request of op into c->req (D6 best
 * fit for reads and writes).  Returns 0, or -ENOENT when the op has
 * nothing to work on (counted as a "no_calls" pick by the caller).
 *
 * Choices for the open points of docs/SFS30.md §22 item 9 (see docs/sfs.md):
 *  - getattr, setattr, access, commit, pathconf, fsstat: a working io file
 *    drawn from the cyclical Poisson groups; fsinfo: the testdir;
 *  - lookup: 35 % (DEFAULT_FAILED_LOOKUP) at a non-existent non-io name,
 *    else a working io file by its parent and name;
 *  - readdir / readdirplus: the directory holding a working io file;
 *  - create, mknod, symlink, link (new name): a non-existent non-io slot;
 *    remove, rename source, link source: an existing non-io entry; rename
 *    target: a free non-io slot in the same directory;
 *  - mkdir / rmdir: the spare directories;
 *  - readlink: a symlink.
 */
int sy_op_pick(struct sy_child *c, int op);

/* ---- args.c: the version-neutral arguments of one call ----------------------- */

/*
 * Fills slot s with the version-neutral arguments of call i of the request
 * in c->req.  Arguments point into the slot (names, symlink text) and the
 * file table (handles), never into fresh memory.  readdir and readdirplus
 * ask for 8192 bytes.
 */
void sy_args_build(struct sy_child *c, struct sy_slot *s, uint32_t i);

/* The 0xDEADBEEF pattern writes carry (docs/SFS30.md §3), one buffer of
 * the largest transfer shared by every call. */
const char *sy_op_write_data(void);

/* ---- reply.c: what a reply says, and the file table after it ---------------- */

/*
 * Reads the NFS status of the neutral result of s's call, its attributes
 * (type, size, into c->req) and any new handle (into the slot's file
 * entry), and
 * updates the file table as the reply says (created, removed, renamed,
 * grown, truncated; EXIST and NOENT of retransmissions included).
 * Returns the NFS status (0 = OK).
 */
uint32_t sy_reply_apply(struct sy_child *c, struct sy_slot *s);

/*
 * Whether NFS status st (not OK) in reply to s is an answer the workload
 * expects: NOENT of a lookup aimed at a missing name, the error an entry's
 * state at pick time implies (EXIST for a create over an existing name,
 * NOENT for a remove of a missing one, NOTEMPTY for an rmdir of a full
 * spare dir), and EXIST or NOENT after a re-sent call the server had
 * already done.  Anything else is counted as an unexpected error.
 */
int sy_reply_expected(const struct sy_child *c, const struct sy_slot *s, uint32_t st);

/* ---- ops.c: issuing requests (docs/SFS30.md §2-§4) ----------------------------- */

/*
 * Sends the request in c->req and accounts its calls.  Calls go through
 * biod.c (reads and writes keep up to BIOD_MAX_READS/WRITES in flight,
 * every other op is one synchronous call).  Accounting (docs/SFS30.md §4): a completed
 * RPC is a good call whatever its NFS status (an NFS error is logged with
 * DEBUG 4); an RPC failure (timeout, send error) is a bad call without a
 * time.  Returns the number of calls it made (for the pacer; an op the NFS
 * version lacks counts one bad call and returns 1), or -ENOTCONN when the
 * client is unusable.
 */
int sy_op_issue(struct sy_child *c);

/* sy_op_pick then sy_op_issue (plus the v2 symlink's follow-up lookup).
 * Returns the number of calls made, 0 when nothing was picked, or
 * -ENOTCONN. */
int sy_op_request(struct sy_child *c, int op);

/* The biod callbacks of a child (data = the struct sy_child). */
int sy_op_prepare(struct sy_slot *s, uint32_t i, void *data);
void sy_op_done(struct sy_slot *s, void *data);

/* ---- dump.c: the -z raw dump (docs/SFS30.md §16.6) ------------------------------ */

/*
 * One text file per child, "c<client>-p<child>" (three digits each) in
 * $TMPDIR or /tmp, with one row per call of the measured run: op name,
 * response and start time in ms, the file's unique number, and
 * length/offset/count for reads and writes or a TRUNCATE / CREATE_EXISTING
 * tag.  Buffered stdio: -z is a diagnostic mode, not the hot path.
 */
/* Creates (truncates) the child's dump file and writes the header.
 * Returns NULL with the reason in err. */
struct sy_dump *sy_dump_open(unsigned client, unsigned child, char *err, size_t errlen);

/* One row for a finished call (ns = response time; 0 for a failed call). */
void sy_dump_call(struct sy_dump *d, const struct sy_child *c, const struct sy_slot *s,
                  uint64_t ns);

/* The file's path (for messages). */
const char *sy_dump_path(const struct sy_dump *d);

/* Flushes and closes; returns 0 or -errno (a write error). */
int sy_dump_close(struct sy_dump *d);

#endif /* SY_INT_H */
