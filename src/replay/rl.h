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

#include "common/yaml.h"
#include "common/runs.h"
#include "load/config.h"
#include "load/options.h"
#include "load/stats.h"
#include "replaybase/rb.h"
#include "trace/tr.h"

struct cm_yaml;
struct ld_child;
struct ld_setup;
struct ld_stats;
struct ld_workload_ops;
struct ld_report_ops;

#define RL_DIR         "replay"   /* CL<N>/replay under the mount point */
#define RL_MAX_STREAMS (1u << 20) /* stream keys per trace */
#define RL_MAX_CURSORS 64u        /* sysio streams per process */

/* The block replay's own options (options.c), beside the trace's
 * (replaybase/rb.h). */
/* Stability of replayed v3 writes (--stable): FILE_SYNC (D11's default) or
 * UNSTABLE followed by one COMMIT per record. */
enum rl_stable { RL_FILE_SYNC = 0, RL_UNSTABLE = 1 };
struct rl_block_opts {
    int trace_block_size;     /* --block-size: bytes per SPC LBA (512) */
    int trace_stable;         /* --stable: enum rl_stable */
    int64_t trace_max_blocks; /* --max-record-blocks: longest record, 4 KiB blocks */
};
extern const struct ld_opt_group rl_block_options;
/* A config's values of them (registered by every program that may run a
 * replay, load/options.h). */
#define RL_BOPTS(cfg)                                                                    \
    ((const struct rl_block_opts *)ld_config_opts((cfg), &rl_block_options))
#define RL_BOPTS_SET(cfg)                                                                \
    ((struct rl_block_opts *)ld_config_opts_set((cfg), &rl_block_options))

/* The block replay's counters are the replays' own (rb.h: struct rb_stats,
 * its workload's results). */

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

/* Builds the plan of RB_TOPTS(cfg)->trace_file (RB_TOPTS(cfg)->trace_format, block size,
 * lenient, NFS version).  Reader warnings and lenient skips go to log as
 * they are found.  Returns 0, or -errno with one line in err ("FILE:LINE:
 * error: message" for a malformed record). */
int rl_plan_build(struct rl_plan *p, const struct ld_config *cfg, FILE *log, char *err,
                  size_t errlen);
void rl_plan_free(struct rl_plan *p);

/* The stream a record belongs to: the MaStA region, else the reader's
 * stream (the SPC ASU, the sysio process). */
uint32_t rl_stream_key(const struct rl_plan *p, const struct tr_record *rec);

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
void rl_requested(char *buf, size_t len, double speed, const struct rb_stats *s,
                  unsigned nclients);

/* A replay expected to take longer than RB_MAX_UNBOUNDED_S (a sysio
 * trace's streams may lie months apart), or to move more than this much
 * data (a trace whose records all fall at one instant lasts 0 s, whatever
 * it moves), without an explicit -t is refused before anything is
 * prepared. */
#define RL_MAX_UNBOUNDED_BYTES (1ull << 40)

/* The plan as the user sees it before anything is sent: the trace's
 * records, streams, files and duration, the processes that have no stream
 * to replay (of nprocs, every client's), the replay's expected time and
 * rate, and where limit_s (> 0: an explicit -t) cuts it.  One line on
 * log. */
void rl_plan_describe(FILE *log, const char *prog, const struct rl_plan *p, double speed,
                      int limit_s, unsigned nprocs);

/* Refuses (-E2BIG, one line in err) a replay expected to take longer than
 * RB_MAX_UNBOUNDED_S, or to move more than RL_MAX_UNBOUNDED_BYTES, when no
 * limit was given (limit_s 0); else 0. */
int rl_plan_check_time(const struct rl_plan *p, double speed, int limit_s, char *err,
                       size_t errlen);

/* The block and POSIX trace replay as a workload (workload.c). */
extern const struct ld_workload_ops rl_workload;

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

/* ---- results (report.c) ----------------------------------------- */

/* The replay's part of the results (report.h): the requested rate, the
 * replay's lines after the summary and its "replay:" YAML section
 * (docs/replay.md).  in->plan may be NULL (the prime's aggregate has no
 * plan): the plan's own figures are then left out. */
extern const struct ld_report_ops rl_report;

#endif /* RL_H */
