/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workload.h - the workload interface.  What a FreeSFS client generates is
 * one workload - the SFS 3.0 mix, the replay of a block or POSIX trace, and
 * whatever comes next - each one table of functions, in the style of the
 * rpc layer's transports (rp_transport_ops) and the trace readers
 * (tr_reader_ops).  The processes, their phases, the control plane, the
 * frame of the report and the prime's load points are the same for every
 * workload; what differs is in its table:
 *
 *   before any process     plan: read and check the workload's input (the
 *   starts (the client's   op selector, a trace), print its plan line;
 *   parent)                before_run: what the standalone client prints
 *                          before the run; schedule: the warm-up and run
 *                          phases as the parent drives them;
 *   in each child          child_init / child_phase (MOUNT, INIT: the files
 *                          it prepares, WARMUP, RUN) / child_hold (the load
 *                          kept on after the warm-up) / child_results (its
 *                          file set into the results) / child_free;
 *   its results            report (report.h: the requested load, the
 *                          validity rules, its text lines and YAML keys);
 *   sfs_mgr's points       rc_points, point_set, client_args, point_text,
 *                          rc_check: what varies from one load point to the
 *                          next, and what the clients are told of it.
 *
 * One place chooses the workload from the options (cl_workload_choose in
 * src/client/workloads.c);
 * no other code asks which workload runs.  A new workload is one more
 * table and one more line there.  Hooks documented "may be NULL" are
 * optional; the others must be set.
 */
#ifndef LD_WORKLOAD_H
#define LD_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/cm.h"
#include "common/error.h"
#include "load/config.h"
#include "load/iodist.h"
#include "load/live.h"
#include "load/mix.h"
#include "ctl/ct.h"
#include "load/report.h"
#include "load/sizing.h"
#include "load/stats.h"
#include "nfs/nf.h"
#include "nfs/nf_proto.h"

struct cm_rc;

#define LD_WORKLOAD_VERSION 1

/* Phase limits the parent keeps (D8 keeps SFS's generous ones): mount,
 * population (SFS's 400 + 3600 s), and the slack beyond a timed phase. */
#define LD_PHASE_MOUNT_S 120u
#define LD_PHASE_INIT_S  4000u
#define LD_PHASE_SLACK_S 120u

/* Where a child is (docs/SFS30.md §2.3 numbering). */
enum ld_child_phase {
    LD_CPHASE_MOUNT = 1,
    LD_CPHASE_INIT = 2,
    LD_CPHASE_WARMUP = 3,
    LD_CPHASE_RUN = 4,
    LD_CPHASE_RESULTS = 5
};

struct ld_workload_ops;

#define LD_NFS_V(v)                                                                      \
    ((v) > 0 && (v) < 32 ? 1u << (v) : 0u) /* ld_workload_ops.nfs_versions */
#define LD_NFS_V2 LD_NFS_V(2)
#define LD_NFS_V3 LD_NFS_V(3)

/* What a workload's accepts says of the options (--workload auto). */
enum ld_accept {
    LD_ACCEPT_NO = 0,         /* not for it */
    LD_ACCEPT_DEFAULT = 1,    /* what runs when nothing else is asked for (the mix) */
    LD_ACCEPT_MAYBE = 2,      /* its input is given but not recognised: its plan
                                 will say what is wrong with it */
    LD_ACCEPT_YES = 3,        /* its input, recognised */
    LD_ACCEPT_UNREADABLE = -1 /* its input is given but cannot be read here
                                 (a trace only the clients can read) */
};

/*
 * One client's run as its parent builds it before any process starts, and
 * as every child inherits it through fork: the options, the mix and
 * block-size distribution they name and the file set they size (the
 * report shows them for every workload), and the workload with its plan.
 */
struct ld_setup {
    const struct ld_config *cfg;
    const struct ld_workload_ops *wl;
    void *plan; /* the workload's (wl->plan; freed by wl->plan_free) */
    struct ld_mix mix;
    struct ld_iodist iodist;
    struct ld_sizing sizing;
    const char *prog; /* "sfs3", for messages */
    FILE *out;        /* the report (stdout) */
    FILE *log;        /* progress and DEBUG output (stderr) */
    /* How a child's mount session reaches the server (nf_mount_opts):
     * NULL in the programs (by address); the unit tests serve the server
     * core over socketpairs through it. */
    nf_connect_fn connect;
    void *connect_data;
    /* Where the children publish their live counters (live.h): mapped by
     * cl_setup, one slot per child; NULL: no progress lines. */
    struct ld_live_area *live;
    /* The block of counters beyond struct ld_stats the results carry: the
     * workload's (wl->results), then the protocol's (stats.h; set by
     * cl_setup).  A child's c->results is one. */
    struct ld_results_block results;
};

/* The warm-up and run phases of one client as its parent drives them. */
struct ld_schedule {
    uint32_t warmup_s;                /* 0: no warm-up phase */
    uint32_t run_arg;                 /* RUN's argument (ctl/ct.h) */
    unsigned run_wait_s;              /* how long the parent waits for RUN */
    char run_line[LD_PATH_MAX + 160]; /* the progress line before RUN */
};

/* The schedule of a workload timed by the rc (WARMUP_TIME, then RUNTIME,
 * the parent waiting the run time and the slack for its end); the caller
 * writes its own run_line. */
static inline void ld_schedule_timed(const struct ld_config *cfg, struct ld_schedule *s)
{
    s->warmup_s = cfg->warmup_s > 0 ? (uint32_t)cfg->warmup_s : 0;
    s->run_arg = (uint32_t)cfg->runtime_s;
    s->run_wait_s = (unsigned)cfg->runtime_s + LD_PHASE_SLACK_S;
}

/* One sfs_mgr load point's values of the workload's point variables
 * (what rc_points reads; TRACE_SPEED's speed is v[0] of a replay). */
#define LD_POINT_VARS 4
struct ld_point {
    double v[LD_POINT_VARS];
};

/*
 * What every child has, whatever its workload: the first member of the
 * workload's own child state (child_size bytes, zeroed, then child_init).
 * The parent tells it which phase to run over its socket (ctl/ct.h); the child
 * answers when the phase is done, or sends CT_MSG_ERROR with one line and
 * exits non-zero when it cannot go on.
 */
struct ld_child {
    const struct ld_setup *setup;
    const struct ld_config *cfg;
    unsigned index; /* child number, 0-based */
    int ctl_fd;     /* socket to the parent, -1 when standalone */
    FILE *log;
    uint32_t debug; /* the -d mask */
    /* The child's session with the server, through its protocol's table
     * (nfs/nf_proto.h): ses.proto is the run's NFS version's from
     * ld_child_setup; ses.mnt.root the export and ses.rpc the rpc client
     * while mounted. */
    struct nf_session ses;
    struct ld_stats stats;
    void *results;             /* the workload's own counters (wl->results.size bytes,
                                  zeroed), then the protocol's (ses.stats points
                                  there): setup->results describes the block;
                                  NULL when it has none */
    int phase;                 /* enum ld_child_phase */
    int measuring;             /* count results (run phase only) */
    int stop;                  /* CT_MSG_STOP arrived, or another command (pending) */
    int has_pending;           /* a command arrived during a load phase */
    int ctl_woken;             /* a sleep ended: the parent's socket is readable */
    struct ct_msg_hdr pending; /* ... this one, run next by the phase loop */
    char last_error[CM_ERR_LEN];
    /* the counters of the progress lines (live.h): the workload adds each
     * call of a load phase; published to setup->live every
     * LD_LIVE_PUBLISH_NS by ld_child_check_parent */
    struct ld_live live;
    uint64_t live_at_ns;
};

/* Every 50 ms: a reading's window starts at the stalest busy child's last
 * publication (live.h), so a longer period made the progress lines read
 * low by up to that period per interval. */
#define LD_LIVE_PUBLISH_NS 50000000ull

struct ld_workload_ops {
    const char *name; /* "mix", "replay", "nfs-replay", "null" */
    unsigned version; /* LD_WORKLOAD_VERSION */

    /* Its own options: the groups of rows it reads (config.h: struct
     * ld_opt_group), NULL-terminated; NULL: none.  Every program that may
     * run it parses them; an option of a group it does not read is refused
     * when it runs (options.h: ld_config_foreign). */
    const struct ld_opt_group *const *options;

    /* How strongly the options ask for this workload under --workload
     * auto (LD_ACCEPT_*): the chooser takes the one that claims them
     * most, whatever the order of the tables.  UNREADABLE says why in
     * why. */
    int (*accepts)(const struct ld_config *cfg, char *why, size_t whylen);
    /* The NFS versions it runs over (nf_proto.h): bit v for NFSv<v>
     * (LD_NFS_V2 | LD_NFS_V3); the chooser refuses it over any other. */
    unsigned nfs_versions;

    /* ---- the client's parent, before any process starts ---- */

    /* Reads and checks the workload's input into su->plan (su->cfg, mix,
     * iodist and prog are set); may print its plan line on su->log.
     * Returns 0, or an exit code (CM_EXIT_*, common/exit.h) with err (emptied when the
     * message was printed already). */
    int (*plan)(struct ld_setup *su, char *err, size_t errlen);
    /* Frees su->plan (may be NULL). */
    void (*plan_free)(struct ld_setup *su);
    /* What the standalone client prints on out before the run, after the
     * clock check.  May be NULL. */
    void (*before_run)(FILE *out, const struct ld_report_in *in);
    /* The warm-up and run phases for this setup. */
    void (*schedule)(const struct ld_setup *su, struct ld_schedule *s);

    /* ---- each child ---- */

    /* Bytes of the workload's child state; struct ld_child is its first
     * member. */
    size_t child_size;
    /* Sets the state up (ld_child_setup first); 0, or -errno with
     * c->last_error.  child_free follows either way. */
    int (*child_init)(struct ld_child *c, const struct ld_setup *su, unsigned index,
                      int ctl_fd);
    /* One phase command (CT_MSG_MOUNT, INIT, WARMUP, RUN: arg as ctl/ct.h
     * says).  0 or -errno with c->last_error (-EPIPE: the parent is gone). */
    int (*child_phase)(struct ld_child *c, uint32_t type, uint32_t arg);
    /* After the warm-up is answered: the load kept on, unmeasured, until
     * the next command arrives (SFS).  May be NULL. */
    int (*child_hold)(struct ld_child *c);
    /* The file set (or whatever else is the child's but not counted by the
     * calls) into c->stats before they are sent. */
    void (*child_results)(struct ld_child *c);
    /* Releases everything child_init and the phases made (not c itself). */
    void (*child_free)(struct ld_child *c);

    /* ---- the results ---- */
    const struct ld_report_ops *report;
    /* Its own counters beyond struct ld_stats (stats.h): the block each
     * child fills (c->results), merged, sent to the parent and the prime
     * and handed to the report (ld_report_in.wstats) as the field table
     * says.  Size 0: none. */
    struct ld_wstats results;

    /* ---- sfs_mgr's load points (src/prime) ---- */

    /* The points of a workload whose points are not LOAD's: reads its rc
     * variable(s) into pts[0..max) and returns how many (errors and
     * warnings reported on rc at their FILE:LINE; -1 after an error).
     * nloads is the number of LOAD's points.  May be NULL: the points are
     * LOAD's. */
    int (*rc_points)(struct cm_rc *rc, unsigned nloads, struct ld_point *pts,
                     unsigned max);
    /* Warnings before the run about the points (a replay cut by RUNTIME).
     * May be NULL. */
    void (*rc_check)(struct cm_rc *rc, const struct ld_config *cfg,
                     const struct ld_point *pts, unsigned n);
    /* A point's values into its options.  May be NULL (LOAD's points). */
    void (*point_set)(struct ld_config *cfg, const struct ld_point *pt);
    /* The words every client of a point gets beyond the rc's options and
     * its share of LOAD (cfg: the run's options, pt the point's values or
     * NULL, nclients the run's clients): returns how many of max it wrote
     * into word.  May be NULL. */
    int (*client_args)(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned nclients, char (*word)[64], int max);
    /* What a point runs, for sfslog ("600 ops/s"); load is its aggregate
     * load, pt as above. */
    void (*point_text)(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned load, char *buf, size_t len);

    /* ---- while it runs (the progress lines, live.h) ---- */

    /* Brings c->live up to date with what the workload counts elsewhere
     * (its schedule, its own counters) just before it is published.  May
     * be NULL. */
    void (*child_live)(struct ld_child *c);
    /* Its part of a progress line, from the live counters of the phase so
     * far (sum) and of the last interval (last): snprintf's contract.
     * May be NULL (nothing beyond the calls). */
    int (*progress)(const struct ld_live *sum, const struct ld_live *last, char *buf,
                    size_t len);
};

/* ---- child.c: every child's context and phase loop ----------------------- */

/* The child's body for cl_parent_spawn: set up (su->wl->child_init), then
 * serve phase commands from the parent on fd until the results are sent.
 * data is a const struct ld_setup *.  Returns the process exit status (0
 * ok). */
int ld_child_main(int fd, unsigned child, void *data);

/* A child's state (su->wl->child_size bytes) with the results' block
 * behind it (c->results: su->results), zeroed, in one allocation that
 * free() releases; NULL when out of memory.  What ld_child_main runs the
 * phases on. */
struct ld_child *ld_child_alloc(const struct ld_setup *su);

/* Fills the generic part of a child (child_init calls it first). */
void ld_child_setup(struct ld_child *c, const struct ld_setup *su, unsigned index,
                    int ctl_fd);

/* The seed of child index of this client: --seed + 1024 x (-N - 1) + index,
 * so that no two children of a run, on one client or on several, draw the
 * same stream, and a re-run of the same client draws the same one again. */
int64_t ld_child_seed(const struct ld_config *cfg, unsigned index);

/* Records the run phase's window [start_ns, end_ns] (cm_now_ns) in the
 * child's results (and ends the protocol's counting: ld_child_count_stop): its length
 * (runtime_ns) and the moments themselves, whose earliest start and latest end over the
 * children are the time the client's throughput is counted over (report.c).  end_ns is
 * when the phase's last counted call was answered, or the phase's end when the process
 * was idle then. */
void ld_child_run_window(struct ld_child *c, uint64_t start_ns, uint64_t end_ns);

/* Reads any command the parent sent without blocking: STOP ends the
 * phase (c->stop); any other command ends it too and is kept for the phase
 * loop (the run that ends the warm-up's hold).  Returns 0, or -EPIPE when
 * the parent is gone. */
int ld_child_check_parent(struct ld_child *c);

/* Nonzero when a command of the parent waits to be read (or its end is
 * closed): a load phase looks before each request, so that no call goes
 * out once RUN or STOP came (a hold's call sent after RUN is counted in
 * no phase, though the server answered it during the run). */
int ld_child_parent_spoke(const struct ld_child *c);

/* Nonzero when the parent's end of the socket is closed (a parent killed
 * by SIGKILL): long phases check it so that no child outlives its run. */
int ld_child_parent_gone(const struct ld_child *c);

/* Zeroes the child's results (c->stats, c->results): what the run counts
 * starts from nothing; the protocol's counters start counting
 * (nf_proto.counters.start). */
void ld_child_results_reset(struct ld_child *c);

/* The run phase's counting ends: the protocol adds what its session did
 * since ld_child_results_reset to its counters (counters.stop).  Called
 * by ld_child_run_window. */
void ld_child_count_stop(struct ld_child *c);

/* Publishes c->live (after wl->child_live) into the setup's live area
 * when LD_LIVE_PUBLISH_NS passed since the last time, or now when force. */
void ld_child_publish(struct ld_child *c, int force);

/* Ends the child's session: its client state, then the mount (best
 * effort, bounded; no-op when none). */
void ld_child_unmount(struct ld_child *c);

/* Sets c->last_error from fmt and returns rc (a failed step's one line). */
int ld_child_fail(struct ld_child *c, int rc, const char *fmt, ...) CM_PRINTF(3, 4);

/* A line for DEBUG output, prefixed with the child number. */
void ld_child_log(struct ld_child *c, const char *fmt, ...) CM_PRINTF(2, 3);

#endif /* LD_WORKLOAD_H */
