/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.h - per-op results (docs/SFS30.md §4, §11): for each op and TOTAL,
 * good and bad calls, fast calls (zero measured time), the sum and sum of
 * squares of milliseconds, and a response-time histogram (common/hist.h)
 * for p50/p99; per child the open-loop issue lag, no-fit counts, run time and
 * file-set sizes.  Fixed-size structs (no allocation per call or ever), a
 * merge for the parent, the docs/SFS30.md §11 math (mean, variance, CI column), and a
 * fixed-size binary encoding for child -> parent pipes and, later, the
 * prime.
 */
#ifndef LD_STATS_H
#define LD_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "common/fields.h"
#include "common/hist.h"
#include "nfs/nf_ops.h"

struct ld_opstat {
    uint64_t good;       /* RPC answered within its class timeout (any NFS
                            status) */
    uint64_t bad;        /* no reply within the class timeout (late replies
                            included), or an RPC failure: no time recorded */
    uint64_t fast;       /* good calls with a measured time of exactly 0 */
    uint64_t nfs_errors; /* good calls whose NFS status was not OK */
    uint64_t no_calls;   /* requests dropped: no suitable file (docs/SFS30.md §2.1) */
    uint64_t unexpected; /* good calls with an NFS error the workload did
                            not expect (not NOENT of its own failed lookups,
                            not EXIST/NOENT after a re-sent call) */
    uint64_t late;       /* bad calls whose reply came after the timeout */
    uint64_t retrans;    /* calls sent more than once */
    uint64_t jukebox;    /* sends again after an NFS3ERR_JUKEBOX answer (the
                            server was busy: the call was retried later) */
    uint64_t requests;   /* requests of this op (calls per request) */
    uint64_t nofit;      /* read/write transfers clipped (D6 no-fit) */
    uint64_t sum_us;     /* sum of response times, microseconds (exact) */
    double sum_ms;       /* S = sum of ms */
    double sumsq_ms;     /* Q = sum of ms^2 */
    struct cm_hist hist;
};

/* NFS statuses counted apart (the unexpected errors listed under the
 * table): the statuses of NF_STATUS_MAP, the last slot for any other. */
#define LD_NSTATUS 32

/* Why a run ended before its time (ld_stats.ended_early). */
enum ld_end_cause {
    LD_END_FULL = 0,        /* ran its full time */
    LD_END_UNREACHABLE = 1, /* the TCP connection was lost and not
                               re-established in time */
    LD_END_STALE = 2,       /* NFS trace replay: the server's file handles
                               went stale (it lost the prepared image) */
};

/* STALE (or BADHANDLE) replies in a row, where the workload expected
 * another status, that tell a server which lost its files (an in-memory
 * server restarted): they stop the SFS mix and an NFS trace replay
 * (docs/sfs.md, "STALE"; docs/nfs_replay.md, "Faults"). */
#define LD_STALE_LIMIT 16

struct ld_stats {
    struct ld_opstat op[NF_NOPS + 1]; /* [NF_OP_TOTAL] = TOTAL */
    /* open-loop issue lag (D7), one sample per request */
    struct cm_hist lag;
    double lag_sum_ms;
    uint64_t late_requests;
    /* file choice (D6) */
    uint64_t nofit;     /* transfers clipped to the largest file */
    uint64_t truncates; /* setattr ops that truncated back to the base size */
    uint64_t appends;
    /* pacing */
    uint64_t carry_resets, zero_intervals;
    /* per-child values summed over children by ld_stats_merge */
    uint64_t runtime_ns; /* the run phase's length, summed over children */
    uint32_t nchildren;  /* how many children were merged (1 for one) */
    /* the run phase's window on this host's monotonic clock: the first
     * child's start (kept the smallest) and the last child's end (kept the
     * largest); 0 when not known.  The throughput's time (report.c). */
    uint64_t run_start_ns, run_end_ns;
    uint64_t total_kb, base_kb, least_kb, most_kb; /* file set (docs/SFS30.md §5.2) */
    uint64_t io_files, working_files, nonio_files, symlinks, dirs;
    /* pacing, added after the first version: struct ld_pacer's counters */
    uint64_t catchup_skips, ahead_sleeps;
    /* the run's own accounting: schedule kept, errors, connections */
    uint64_t behind_ns;              /* schedule not met at the end (sum) */
    uint64_t dropped_ns;             /* schedule time given up after stalls (sum) */
    uint64_t max_lag_ns;             /* the most a child was ever behind (max) */
    double lag_calls_ms;             /* open loop: sum over calls of their request's
                                        issue lag (response including lag) */
    uint64_t late_threshold_us;      /* open loop: "late" means lag above this */
    uint64_t err_status[LD_NSTATUS]; /* unexpected NFS errors by status */
    uint64_t reconnects;             /* TCP connections re-established */
    uint64_t stale;                  /* STALE / BADHANDLE replies */
    uint64_t ended_early;            /* enum ld_end_cause (max) */
    uint64_t run_cpu_us;             /* user + system CPU of the run phase,
                                        summed over children (the client's
                                        CPU per call, bench/client_cpu.sh) */
};

/* The slot of an NFS status in err_status. */
unsigned ld_stats_status_slot(uint32_t nfs_status);
/* The status a slot stands for (UINT32_MAX for the "other" slot). */
uint32_t ld_stats_slot_status(unsigned slot);

/* Zeroes everything and sets nchildren = 1. */
void ld_stats_reset(struct ld_stats *s);

/* Hot path (no allocation, O(1)): a completed call of op taking elapsed_ns;
 * nfs_error nonzero when the NFS status was not OK.  Updates op and TOTAL. */
void ld_stats_good(struct ld_stats *s, int op, uint64_t elapsed_ns, int nfs_error);
/* A call that failed at the RPC level (op and TOTAL). */
void ld_stats_bad(struct ld_stats *s, int op);
/* One more of a per-op counter (a field of struct ld_opstat, given by its
 * offset) for op and TOTAL. */
void ld_stats_count(struct ld_stats *s, int op, size_t field);
#define LD_STATS_COUNT(s, op, field)                                                     \
    ld_stats_count((s), (op), offsetof(struct ld_opstat, field))
/* A good call of op answered with an NFS status the workload did not
 * expect (op, TOTAL and the status's slot). */
void ld_stats_unexpected(struct ld_stats *s, int op, uint32_t nfs_status);
/* An open-loop request issued lag_ns after its deadline (0 = on time). */
void ld_stats_lag(struct ld_stats *s, uint64_t lag_ns);

/* Adds src into dst as the field table says: counters and sums add,
 * histograms add, max keeps the larger (histogram maxima, max_lag_ns,
 * ended_early, late_threshold_us, the replay's durations, run_end_ns), min
 * the earlier run_start_ns, nchildren adds;
 * least/most/base/total KB add (the parent and prime sum them, docs/SFS30.md §5.2). */
void ld_stats_merge(struct ld_stats *dst, const struct ld_stats *src);

/* docs/SFS30.md §11 math for one op: n = good, S, Q as above. */
double ld_stats_mean_ms(const struct ld_opstat *o);
/* (Q - S^2/n) / (n - 1), 0 when n <= 1 (and never negative). */
double ld_stats_variance(const struct ld_opstat *o);
double ld_stats_stddev(const struct ld_opstat *o);
/* The SFS "Std Error of Mean, 95% Confidence" column: sqrt(3.84 x stddev /
 * n) - stddev, not variance, exactly as SFS prints it (docs/SFS30.md §11). */
double ld_stats_ci(const struct ld_opstat *o);

/* The field tables of struct ld_stats and struct ld_opstat (common/fields.h):
 * every counter's type, merge rule and YAML key and group.  The merge, the
 * wire form and the YAML use them. */
const struct cm_field *ld_stats_fields(size_t *n);
const struct cm_field *ld_opstat_fields(size_t *n);

/* A workload's own counters beyond struct ld_stats (workload.h: its
 * results): a block of size bytes its field table describes, merged, sent
 * and printed as the table says.  size 0: none. */
struct ld_wstats {
    const struct cm_field *fields;
    size_t n;
    size_t size;
};

/* The results a child sends its parent and a client its prime: magic
 * "LDST", version, then the compact wire form (common/fields.h) of s and
 * of the workload's block w (NULL or of size 0: none).  encode writes at
 * most ld_stats_wire_max(w) bytes and returns how many; decode fills s and
 * wblock (w->size bytes) from buf and returns 0 with *used the bytes it
 * read (may be NULL), or -EPROTO for a bad magic, version or form. */
size_t ld_stats_wire_max(const struct ld_wstats *w);
size_t ld_stats_encode(const struct ld_stats *s, const struct ld_wstats *w,
                       const void *wblock, unsigned char *buf);
int ld_stats_decode(struct ld_stats *s, const struct ld_wstats *w, void *wblock,
                    const unsigned char *buf, size_t len, size_t *used);

/* dst += src for a workload's block (w may be NULL: nothing). */
void ld_wstats_merge(const struct ld_wstats *w, void *dst, const void *src);

/*
 * The block of counters beyond struct ld_stats that a run's results carry
 * (resblock.c): the workload's own (ld_workload_ops.results), then its
 * protocol's (nf_proto.counters: NFSv4.1's operations, opens, recoveries),
 * as one block that all describes - two rows, each a table of its own -
 * so that every path the workload's block takes (a child's RESULTS, the
 * parent's merge, a client's results to the prime, the prime's aggregate)
 * carries the protocol's with it.  The workload's starts the block (the
 * workload reads it as before); the protocol's is at proto_at.  A
 * protocol that counts nothing (NFSv2, NFSv3) adds nothing: the block and
 * its wire form are the workload's.  Set up once and not moved (all
 * points into rows).
 */
struct nf_proto;
struct ld_results_block {
    struct cm_field rows[2];
    struct ld_wstats all;         /* what the results paths take */
    size_t proto_at;              /* the protocol's counters' offset */
    const struct nf_proto *proto; /* NULL: none counted */
};

/* Describes the block of workload counters w (NULL: none) and protocol p
 * (NULL: none). */
void ld_results_block_init(struct ld_results_block *b, const struct ld_wstats *w,
                           const struct nf_proto *p);
/* The protocol's counters in a block described by b; NULL when none. */
const void *ld_results_proto(const struct ld_results_block *b, const void *block);

#endif /* LD_STATS_H */
