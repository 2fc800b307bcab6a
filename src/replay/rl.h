/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rl.h - trace replay in place of the synthetic mix (docs/DECISIONS.md D11,
 * docs/replay.md).  The readers of src/trace give one record type for SPC,
 * MaStA and sysio; this module turns records into NFS calls on the child's
 * own RPC client and issues them at start + timestamp / speed.
 *
 * Three steps, matching the SFS phases:
 *   plan     (parent, before any child exists): one pass over the trace
 *            finds the units (files) with their sizes, the streams and the
 *            trace's duration, and stops at the first malformed record
 *            with "FILE:LINE: message" (or skips and counts with
 *            --lenient).  Children inherit the plan through fork.
 *   prepare  (each child's INIT phase): the files of the child's streams
 *            are created with their final sizes through libnfs (D3), an
 *            existing tree is reused, then the child's RPC client looks up
 *            their handles.  Nothing is timed yet.
 *   run      (each child's RUN phase): the child re-reads the trace,
 *            keeps the records of the streams it owns and issues their
 *            calls with up to --window calls in flight.
 *
 * Streams (an SPC ASU, a MaStA region, a sysio nid.pid process) are shared
 * out over every process of every client: stream s belongs to global
 * process s mod (clients x procs), where client N's child k is global
 * process (N - 1) x procs + k.  A stream keeps its order; sysio streams are
 * closed loops (a call waits for its stream's previous call, as the traced
 * process did), SPC and MaStA streams are open loops except that a MaStA
 * sync waits for the writes of its region.
 */
#ifndef RL_H
#define RL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/cm.h"
#include "common/runs.h"
#include "load/config.h"
#include "load/options.h"
#include "load/stats.h"
#include "trace/tr.h"

struct cm_yaml;
struct ld_child;
struct ld_live;
struct rp_client;
struct ld_setup;
struct ld_stats;
struct ld_workload_ops;
struct ld_report_ops;

#define RL_DIR         "replay"   /* CL<N>/replay under the mount point */
#define RL_MAX_STREAMS (1u << 20) /* stream keys per trace */
#define RL_MAX_CURSORS 64u        /* sysio streams per process */

/* The trace replays' options (options.c): the trace's, which the block
 * replay and the NFS replay read, and the block replay's own. */
struct rl_trace_opts {
    char trace_file[LD_PATH_MAX]; /* --trace FILE */
    char trace_format[16];        /* --trace-format spc|masta|sysio|...|auto */
    double trace_speed;           /* --speed: 1 real time, 0 as fast as possible */
    int trace_window;             /* --window: calls in flight per process */
    int trace_lenient;            /* --lenient: skip and count bad records */
    int nclients;                 /* --clients: clients sharing the trace */
};
/* Stability of replayed v3 writes (--stable): FILE_SYNC (D11's default) or
 * UNSTABLE followed by one COMMIT per record. */
enum rl_stable { RL_FILE_SYNC = 0, RL_UNSTABLE = 1 };
struct rl_block_opts {
    int trace_block_size;     /* --block-size: bytes per SPC LBA (512) */
    int trace_stable;         /* --stable: enum rl_stable */
    int64_t trace_max_blocks; /* --max-record-blocks: longest record, 4 KiB blocks */
};
extern const struct ld_opt_group rl_trace_options, rl_block_options;
/* A config's values of them (registered by every program that may run a
 * replay, load/options.h). */
#define RL_TOPTS(cfg)                                                                    \
    ((const struct rl_trace_opts *)ld_config_opts((cfg), &rl_trace_options))
#define RL_BOPTS(cfg)                                                                    \
    ((const struct rl_block_opts *)ld_config_opts((cfg), &rl_block_options))
#define RL_TOPTS_SET(cfg)                                                                \
    ((struct rl_trace_opts *)ld_config_opts_set((cfg), &rl_trace_options))
#define RL_BOPTS_SET(cfg)                                                                \
    ((struct rl_block_opts *)ld_config_opts_set((cfg), &rl_block_options))

/* The block replay's own counters (its workload's results, load/workload.h:
 * merged, sent and printed as rl_stats_fields says; the NFS replay's
 * counters begin with them): counters add over processes; run_ns and
 * trace_ns keep the largest; late holds each call's lateness (actual minus
 * planned issue time, us); trace_records (the whole trace's, every
 * process knows it) keeps the largest; cut counts the processes whose
 * replay the run time (-t, sfs_mgr's STOP) ended early; the file set of
 * its streams: sparse_bytes as prepared (each file as large as its
 * highest byte used), touched_bytes the distinct bytes the trace's READ
 * and WRITE records touch. */
struct rl_stats {
    uint64_t replay_records, replay_calls, replay_skipped, replay_behind;
    uint64_t replay_bytes_read, replay_bytes_written;
    uint64_t replay_run_ns, replay_trace_ns;
    uint64_t replay_trace_records, replay_cut;
    uint64_t replay_sparse_bytes, replay_touched_bytes;
    struct cm_hist replay_late;
};
#define RL_STATS_NFIELDS 13
extern const struct cm_field rl_stats_fields[RL_STATS_NFIELDS];
/* A replay child's counters (struct ld_child's results). */
#define RL_STATS(c) ((struct rl_stats *)(c)->results)

/* One file of the replay tree. */
struct rl_unit {
    char *name;    /* relative to the replay directory: "asu0", "a/b/f" */
    uint64_t size; /* bytes preparation gives it (its highest byte used) */
    /* the distinct bytes its READ and WRITE records touch (count; the runs
     * themselves are released when the plan is built) */
    struct cm_runs touched;
};

/* What the first pass learnt; read-only after rl_plan_build. */
struct rl_plan {
    char file[LD_PATH_MAX];
    char format[16]; /* "spc", "masta" or "sysio" */
    struct tr_options topt;
    int nfs_version;
    struct rl_unit *units;
    uint32_t nunits;
    uint32_t nstreams;   /* stream keys are 0..nstreams-1 */
    uint64_t records;    /* records the reader returned */
    uint64_t skipped;    /* malformed records skipped (--lenient) */
    uint64_t warnings;   /* reader warnings */
    uint64_t v2_beyond;  /* records beyond NFSv2's 4 GiB, skipped (lenient) */
    uint64_t max_blocks; /* --max-record-blocks */
    uint64_t oversize;   /* records over it, skipped (lenient) */
    uint64_t bytes;      /* READ and WRITE data of the records replayed */
    int64_t trace_ns;    /* the largest planned time: the trace's duration */
    struct tr_counter counters[TR_MAX_COUNTERS]; /* the reader's counters */
    unsigned ncounters;
};

/* Nonzero for a READ or WRITE that ends beyond 4 GiB in an NFSv2 replay
 * (RFC 1094 offsets are 32-bit): refused by the plan, skipped with
 * --lenient. */
int rl_beyond_v2(const struct rl_plan *p, const struct tr_record *rec);

/* Blocks of RL_RECORD_BLOCK bytes a record's data spans, as sfs_trace
 * counts them (the first to the last block it touches); 0 for a record
 * without data. */
#define RL_RECORD_BLOCK 4096u
uint64_t rl_record_blocks(const struct tr_record *rec);

/* Nonzero for a record the plan skipped (lenient): beyond NFSv2's 4 GiB,
 * or longer than --max-record-blocks.  The children skip it too. */
int rl_plan_skips(const struct rl_plan *p, const struct tr_record *rec);

/* Builds the plan of RL_TOPTS(cfg)->trace_file (RL_TOPTS(cfg)->trace_format, block size,
 * lenient, NFS version).  Reader warnings and lenient skips go to log as
 * they are found.  Returns 0, or -errno with one line in err ("FILE:LINE:
 * error: message" for a malformed record). */
int rl_plan_build(struct rl_plan *p, const struct ld_config *cfg, FILE *log, char *err,
                  size_t errlen);
void rl_plan_free(struct rl_plan *p);

/* The stream a record belongs to: the MaStA region, else the reader's
 * stream (the SPC ASU, the sysio process). */
uint32_t rl_stream_key(const struct rl_plan *p, const struct tr_record *rec);

struct cm_rc;
struct ld_point;

/* A list of numbers in an rc variable, one sfs_mgr point each: its name,
 * the value when it is unset, the range (whole numbers only when whole),
 * what one value is ("a speed (0..1000000; ...)") and the values are
 * ("replay speeds"), for the messages. */
struct rl_rc_list {
    const char *name, *dflt;
    double lo, hi;
    int whole;
    const char *what, *many;
};

/* The values of l into pts[k].v[var] (at most max); how many (0: unset
 * and no default), or -1 with the error said on rc. */
int rl_rc_values(struct cm_rc *rc, const struct rl_rc_list *l, struct ld_point *pts,
                 unsigned max, unsigned var);

/* The global process (0-based) that replays stream s out of nprocs. */
static inline uint32_t rl_owner(uint32_t stream, uint32_t nprocs)
{
    return stream % nprocs;
}

/* This child's global process number and the number of processes. */
void rl_procs(const struct ld_config *cfg, unsigned child, uint32_t *gproc,
              uint32_t *nprocs);

/* Opens a reader on the plan's trace (the same options as the plan, no
 * warning callback: the plan printed them).  0 or -errno with err. */
int rl_open_reader(const struct rl_plan *p, struct tr_reader *r, char *err,
                   size_t errlen);

/* Seconds the replay is expected to take at the plan's speed (0 when it
 * cannot be told: speed 0). */
double rl_expected_s(const struct rl_plan *p, double speed);

/* What a replay asks of the server: records / (trace duration / speed)
 * records per second; 0 when it is "as fast as the window allows" (speed
 * 0, or every record at time 0). */
double rl_rate(uint64_t records, uint64_t trace_ns, double speed);

/* What a replay asks for, in place of SFS's requested load (-l): "4.49
 * records/s (the trace at speed 1)", or "as fast as the window allows
 * (speed 0)".  s carries the trace's records and duration; nclients > 1
 * says that the rate is the whole trace's, shared by that many clients. */
void rl_requested(char *buf, size_t len, double speed, const struct rl_stats *s,
                  unsigned nclients);

/* A replay expected to take longer than this (s) without an explicit -t
 * is refused before anything is prepared: a forgotten --speed must not run
 * for days (a sysio trace's streams may lie months apart). */
#define RL_MAX_UNBOUNDED_S 86400
/* ... nor move more than this much data (a trace whose records all fall at
 * one instant lasts 0 s, whatever it moves). */
#define RL_MAX_UNBOUNDED_BYTES (1ull << 40)

/* The plan as the user sees it before anything is sent: the trace's
 * records, streams, files and duration, the processes that have no stream
 * to replay (of nprocs, every client's), the replay's expected time and
 * rate, and where limit_s (> 0: an explicit -t) cuts it.  One line on
 * log. */
void rl_plan_describe(FILE *log, const char *prog, const struct rl_plan *p, double speed,
                      int limit_s, unsigned nprocs);

/* Refuses (-E2BIG, one line in err) a replay expected to take longer than
 * RL_MAX_UNBOUNDED_S, or to move more than RL_MAX_UNBOUNDED_BYTES, when no
 * limit was given (limit_s 0); else 0. */
int rl_plan_check_time(const struct rl_plan *p, double speed, int limit_s, char *err,
                       size_t errlen);

/* The block and POSIX trace replay as a workload (workload.c). */
extern const struct ld_workload_ops rl_workload;

/* The seconds a replay may run: -t when given (under -M: RUNTIME, after
 * which the prime's STOP comes), else 0 (until the trace ends). */
int rl_limit_s(const struct ld_config *cfg);

/* ---- the child's part (prep.c, run.c) -------------------- */

/* The workload table's child hooks: set-up (no allocation yet), a phase
 * command (CT_MSG_MOUNT: mount and learn the transfer maxima; INIT:
 * prepare; RUN: replay, for at most arg seconds when arg > 0; the warm-up
 * does nothing, a trace brings its own timing; 0 or -errno with
 * last_error), the results' file set (the files its streams use - the
 * SFS sizing formulas do not apply: created = base, the sparse sizes
 * preparation gave them; accessed, the distinct bytes the trace's records
 * touch in them; a sysio file that streams of two processes use counts in
 * both) and the release of everything. */
int rl_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd);
int rl_child_phase(struct ld_child *c, uint32_t type, uint32_t arg);
void rl_child_results(struct ld_child *c);
void rl_child_free(struct ld_child *c);

/* INIT phase: prepares the child's files and resolves their handles.  0 or
 * -errno with one line in c->last_error. */
int rl_prepare(struct ld_child *c);

/* RUN phase: replays the child's streams.  0 or -errno with
 * c->last_error.  STOP from the parent, or limit_s seconds after the
 * replay's start (limit_s > 0: -t, or sfs_mgr's safety margin), ends it
 * early: what was sent is counted and drained, the rest is not replayed
 * (stats.replay_cut). */
int rl_run(struct ld_child *c, uint32_t limit_s);

/* Sleeps until wake (ns, CLOCK_MONOTONIC), a reply, or the client's own
 * next timeout, whichever comes first (the last few microseconds polled
 * without sleeping), then services the client: the calls it completed,
 * or -errno (a broken client).  The NFS trace replay's loop uses it too. */
int rl_wait_service(struct rp_client *cl, uint64_t now, uint64_t wake);

/* The progress lines' counters of a replay (live.h), from its statistics:
 * its calls, done of total (records, or calls), waits (records held back,
 * or calls held by a dependency) and the p99 of its calls' lateness. */
void rl_live(struct ld_child *c, uint64_t done, uint64_t total, uint64_t waits);
/* A replay's part of a progress line: "<unit> D of T, late p99 X ms,
 * <waits> W" (snprintf's contract). */
int rl_progress_text(const struct ld_live *sum, const char *unit, const char *waits,
                     char *buf, size_t len);

/* A replay's run loop's clock: when -t ends it, and when the loop next
 * looks at the parent's socket (every 50 ms).  The NFS trace replay's loop
 * keeps one too. */
struct rl_loop {
    uint64_t end_ns, next_check_ns;
};

void rl_loop_start(struct rl_loop *l, uint64_t start_ns, uint32_t limit_s);
/* At now: 1 when the run is to stop (its time is over, or the parent said
 * STOP), -EPIPE when the parent is gone, else 0. */
int rl_loop_check(struct rl_loop *l, struct ld_child *c, uint64_t now);

/* Mounts the child's mount point for a replay: the program's transport for
 * MOUNT and NFS, room for window calls in flight and a 4 MiB send buffer;
 * reconnect_ms as rp_client_opts' (0: a lost TCP connection is fatal).
 * Sets c->mounted and c->clnt; on failure says why (ld_child_fail).  The
 * NFS trace replay mounts with it too. */
int rl_mount_window(struct ld_child *c, uint32_t window, uint32_t reconnect_ms);

/* ---- results (report.c) ----------------------------------------- */

/* The replay's part of the results (report.h): the requested rate, the
 * replay's lines after the summary and its "replay:" YAML section
 * (docs/replay.md).  in->plan may be NULL (the prime's aggregate has no
 * plan): the plan's own figures are then left out. */
extern const struct ld_report_ops rl_report;

#endif /* RL_H */
