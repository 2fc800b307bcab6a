/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * child.h - one load-generating child (sfs-reference §1, §9-§12): its
 * context and its phase loop.  A child owns one NFS client on the chosen
 * transport, its file table, working set, op selector, pacer and results.
 * The parent (parent.c) tells it which phase to run over its socket; the
 * child answers when the phase is done, or sends LD_MSG_ERROR with one line
 * and exits non-zero when it cannot go on (a failed mount or population).
 * A timeout or an NFS error during the load never ends a child: they are
 * counted (bad calls, NFS errors) and logged with DEBUG 4.
 *
 * ops.c (the 24 op generators), init.c (mount and population) and dump.c
 * (-z) work on struct ld_child; nothing outside the load layer sees it.
 */
#ifndef LD_CHILD_H
#define LD_CHILD_H

#include <stdint.h>
#include <stdio.h>

#include "load/biod.h"
#include "load/config.h"
#include "load/files.h"
#include "load/iodist.h"
#include "load/mix.h"
#include "load/pacing.h"
#include "load/sizing.h"
#include "load/stats.h"
#include "load/workset.h"
#include "nfs/nf.h"

#define LD_FAILED_LOOKUP_PCNT 35 /* DEFAULT_FAILED_LOOKUP (§2.4) */

/* Where the child is (sfs-reference §2.3 numbering). */
enum ld_child_phase {
    LD_CPHASE_MOUNT = 1,
    LD_CPHASE_INIT = 2,
    LD_CPHASE_WARMUP = 3,
    LD_CPHASE_RUN = 4,
    LD_CPHASE_RESULTS = 5
};

struct ld_dump;

/* A shuffled deck of op numbers or transfer rows (ops.c): dealt in order,
 * reshuffled when empty.  Deviation (§22 item 7): SFS drew every request
 * independently; dealing from decks keeps the same shares and a random
 * order but holds the CALL mix within a fraction of a point even in short
 * runs, where one 17-call read request would otherwise move the read share
 * by a point. */
#define LD_OP_DECK   400u /* requests per op deck */
#define LD_XFER_DECK 100u /* requests per transfer deck (rows are percent) */
struct ld_deck {
    uint16_t card[LD_OP_DECK];
    uint32_t n;    /* cards in the deck */
    uint32_t next; /* next card to deal */
};

/* One logical request: its op, the entries it works on and, for reads and
 * writes, the transfer split into calls of block bytes (ops.c). */
struct ld_req {
    int op;          /* enum nf_op */
    uint32_t file;   /* entry, LD_NO_FILE for none (null, root...) */
    uint32_t file2;  /* rename target, link/symlink new name */
    uint64_t offset; /* read/write start */
    uint32_t len;    /* read/write bytes */
    uint32_t block;  /* bytes per call */
    uint32_t ncalls;
    int append;
    int truncate;      /* setattr truncates file back to its init size */
    uint64_t new_size; /* truncate target */
    int expect_noent;  /* a lookup aimed at a non-existent name */
    int existed;       /* create: the slot already existed (dump tag) */
    int init;          /* population request: no stats, INIT timeouts */
    /* outcome of the last call (population reads these) */
    int rpc_status;      /* 0 or RP_ERR_* */
    uint32_t nfs_status; /* NFS status of the reply */
    int attr_type;       /* file type from the reply's attributes, -1 none */
    uint64_t attr_size;
};

/* What every child shares, built once by the parent before the fork. */
struct ld_setup {
    const struct ld_config *cfg;
    struct ld_mix mix;
    struct ld_iodist iodist;
    struct ld_opsel opsel;
    struct ld_sizing sizing;
    const char *prog; /* "sfs3", for messages */
    FILE *out;        /* the report (stdout) */
    FILE *log;        /* progress and DEBUG output (stderr) */
};

struct ld_child {
    const struct ld_setup *setup;
    const struct ld_config *cfg;
    unsigned index;  /* child number, 0-based */
    int nfs_version; /* 2 or 3 */
    int ctl_fd;      /* socket to the parent, -1 when standalone */
    FILE *log;
    uint32_t debug; /* the -d mask */

    struct nf_mount mnt;
    int mounted;
    struct rp_client *clnt; /* = mnt.nfs */
    struct ld_fh testdir;   /* CL<n>/testdir<k> */
    struct ld_files files;
    struct ld_workset ws;
    struct ld_group_span *groups;
    struct ld_biod biod;
    struct ld_pacer pacer;
    struct ld_stats stats;
    struct cm_rng rng;
    int phase;     /* enum ld_child_phase */
    int measuring; /* count results (run phase only) */
    int stop;      /* LD_MSG_STOP arrived */
    uint64_t phase_start_ns;
    uint64_t requests; /* in the current phase */
    uint64_t reconnects;
    struct ld_dump *dump; /* -z, run phase only */
    struct ld_req req;    /* the request being issued */
    struct ld_deck op_deck;
    struct ld_deck xfer_deck[2]; /* [0] reads, [1] writes: iodist rows */
    char last_error[CM_ERR_LEN];
};

/* The child's body for ld_parent_spawn: set up, then serve phase commands
 * from the parent on fd until the results are sent.  data is a const
 * struct ld_setup *.  Returns the process exit status (0 ok). */
int ld_child_main(int fd, unsigned child, void *data);

/* Set-up and tear-down of a child context (also used by tests). */
int ld_child_init(struct ld_child *c, const struct ld_setup *setup, unsigned index,
                  int ctl_fd);
void ld_child_free(struct ld_child *c);

/* One measured or warm-up phase of `seconds` (0 = until STOP): issue
 * requests paced by the pacer.  Returns 0, or -ETIME when a run interval
 * had zero calls (the run must stop, sfs-reference §9). */
int ld_child_load_phase(struct ld_child *c, int phase, uint32_t seconds);

/* Nonzero when the parent's end of the socket is closed (a parent killed
 * by SIGKILL): long phases check it so that no child outlives its run. */
int ld_child_parent_gone(const struct ld_child *c);

/* A line for DEBUG output, prefixed with the child number. */
void ld_child_log(struct ld_child *c, const char *fmt, ...) CM_PRINTF(2, 3);

#endif /* LD_CHILD_H */
