/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.h - the client's results as an SFS 3.0 user reads them
 * (docs/SFS30.md §16.1-16.4): the "Client Test Parameters" block, the
 * "SFS Single Client (<host>) Results" per-op table, the "SINGLE CLIENT
 * RESULTS SUMMARY" box and the INVALID lines; the validity checks with
 * SFS's codes (docs/SFS30.md §17.1); and the YAML results file (cm_yaml) holding all of
 * that plus every effective parameter with its source, percentiles, no-fit
 * counts and the open-loop issue lag.  Writes only to the stream or path
 * its caller gives.
 */
#ifndef LD_REPORT_H
#define LD_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "common/cm.h"
#include "common/yaml.h"
#include "load/config.h"
#include "load/iodist.h"
#include "load/mix.h"
#include "load/sizing.h"
#include "load/stats.h"

struct cm_yaml;
struct ld_report_in;
struct ld_workload_ops;
struct ld_validity;

/*
 * A workload's part of the results (workload.h): what the report frame of
 * this file asks of the workload that ran, so that it never asks which one
 * it was.  flags say what the workload's request is made of; the hooks may
 * be NULL (nothing to add).
 */
#define LD_REPORT_LOAD                                                                   \
    0x1u                   /* it asks for -l's load: the requested load is               \
                              NFS operations per second (SFS's lines and keys) */
#define LD_REPORT_MIX 0x2u /* its mix is a target: the table's Target column */
struct ld_report_ops {
    unsigned flags; /* LD_REPORT_* */
    /* The requested load, as text, of a workload without LD_REPORT_LOAD
     * (a trace's rate): the whole run's (the parameter block: whole = 1),
     * or as a client's summary names it (whole = 0). */
    void (*requested)(const struct ld_report_in *in, int whole, char *buf, size_t len);
    /* The same request as a number, for the whole run (every client, every
     * copy), per second, in the unit load_column names: sfs_mgr's sfssum
     * Load column (rounded) and the point's requested_load in the YAML.
     * 0 when it asks for no rate (as fast as it may go).  NULL: the
     * workload has LD_REPORT_LOAD. */
    double (*requested_rate)(const struct ld_report_in *in);
    /* What that number is, under sfs_mgr's summary ("the trace's records/s
     * at the point's speed"). */
    const char *load_column;
    /* Its validity rules into v (zeroed by the caller); returns v->code.
     * NULL: a run of it is valid. */
    int (*validity)(const struct ld_report_in *in, struct ld_validity *v);
    /* Its FILE SET SIZE lines in the summary box (agg: the prime's
     * aggregate); NULL: SFS's created and accessed lines. */
    void (*fileset)(FILE *out, const struct ld_report_in *in);
    /* Its lines under SFS's summary, before the closing rule. */
    void (*lines)(FILE *out, const struct ld_report_in *in);
    /* Its section after the summary's block. */
    void (*section)(FILE *out, const struct ld_report_in *in);
    /* Its keys at the end of the YAML results' mapping. */
    void (*yaml)(struct cm_yaml *y, const struct ld_report_in *in);
    /* The duration its calls are counted over (the throughput, the test
     * time), in ns; 0 or NULL: the mean of the processes' run times
     * (SFS's, every process running the whole time). */
    uint64_t (*duration_ns)(const struct ld_report_in *in);
};

/* The ops/s a point asks for, load being its -l load (per client or in
 * all): load for a workload with LD_REPORT_LOAD, else 0 (it asks for no
 * rate of NFS operations: the progress lines compare with none). */
unsigned ld_report_requested_ops(const struct ld_report_ops *r, unsigned load);

/* The SFS 3.0 mix's part: -l's load, the target mix, the rules of docs/SFS30.md §17.1
 * (ld_validity_sfs), the realised mix and pacing lines (ld_report_sfs_lines). */
extern const struct ld_report_ops ld_sfs_report;

/* Validity codes (docs/SFS30.md §16.4). */
enum ld_invalid {
    LD_VALID = 0,
    LD_INV_UNKNOWN = 1,
    LD_INV_IODIST = 2,
    LD_INV_MIXFILE = 3,
    LD_INV_RUNTIME = 4,
    LD_INV_ACCESS = 5,
    LD_INV_APPEND = 6,
    LD_INV_KB_PER_BLOCK = 7,
    LD_INV_FILES_PER_DIR = 8,
    LD_INV_FSS_DELTA = 9,
    LD_INV_BIOD_READS = 10,
    LD_INV_SYMLINKS = 11,
    LD_INV_BIOD_WRITES = 12,
    LD_INV_WARMUP = 13,
    LD_INV_NO_GOOD = 14,
    LD_INV_FAILED_RPC = 15,
    LD_INV_MIX_MISSED = 16,
    /* FreeSFS's rules beyond SFS 3.0 (docs/sfs.md) */
    LD_INV_NFS_ERRORS = 17,      /* > 1 % of good calls got an unexpected NFS error */
    LD_INV_ENDED_EARLY = 18,     /* the server could not be reached again */
    LD_INV_FILE_COUNT = 19,      /* -F instead of 390 files per op/s */
    LD_INV_PACING = 20,          /* --open-loop */
    LD_INV_SEED = 21,            /* --seed other than 2231 */
    LD_INV_LOAD_MISSED = 22,     /* achieved less than 90 % of the requested load */
    LD_INV_STATUS_MISMATCH = 23, /* NFS trace replay: > 1 % of the compared
                                    calls answered otherwise than traced */
    LD_INV_NCODES = 24
};

/* SFS's tolerance on the achieved load: the run rules want the highest
 * point within 10 % of its request (docs/SFS30.md §17.2 rule 2); FreeSFS
 * holds every run to it (code 22). */
#define LD_LOAD_TOLERANCE_PCT 10

/* "No error", "Unknown", "IO distribution file", ... "Op mix missed". */
const char *ld_invalid_text(int code);

/* Whether code judges what a run measured (no good calls, failed calls,
 * the mix, the load, an early end...) rather than a setting. */
int ld_invalid_measured(int code);

/* Every reason a run is INVALID, as the client prints it (SFS's line) and
 * in plain words ("warm-up 5 s; SFS requires 300 s"), plus the code that
 * goes to the prime: the one SFS would have reported (counters before
 * parameters, the last failing parameter winning).  The prime's point
 * keeps its clients' reasons here too, each client's under a heading line
 * (lcode 0, no words). */
#define LD_VALIDITY_MAX_LINES (NF_NOPS + 40)
struct ld_validity {
    int code; /* enum ld_invalid: what goes to the prime */
    int nlines;
    int full;                               /* reasons beyond the room were left out */
    int lcode[LD_VALIDITY_MAX_LINES];       /* each line's code */
    char line[LD_VALIDITY_MAX_LINES][160];  /* without "<prog>: " and '\n' */
    char words[LD_VALIDITY_MAX_LINES][160]; /* the reason in plain words */
};

/* A workload's own reason (its report's validity hook): the INVALID line
 * (fmt) and the same reason in plain words; the code goes to the prime
 * when it outranks v's (SFS's order, with the counters' rank for an NFS
 * trace replay's status mismatches). */
void CM_PRINTF(4, 5) ld_validity_add(struct ld_validity *v, int code, const char *plain,
                                     const char *fmt, ...);

/* Whether line i of v says, in plain words, a reason no earlier line said. */
int ld_validity_new_words(const struct ld_validity *v, int i);
/* Every distinct reason of v in plain words, "; " between them ("" when
 * valid). */
void ld_validity_words(const struct ld_validity *v, char *buf, size_t len);

/*
 * The prime's aggregate of several clients (docs/SFS30.md §11): the report
 * shows the clients' merged stats (calls, errors, pooled std dev and CI,
 * file set sums) except for what SFS averages or sums per client instead.
 */
struct ld_report_agg {
    unsigned nclients;
    uint64_t requested_load; /* clients x per-client load */
    uint64_t ops_x100;       /* every client's calls over span_ns (SFS: the sum of the
                                clients' throughputs, kept when span_ns is 0) */
    uint64_t resp_x100;      /* unweighted mean of the clients' responses */
    uint64_t runtime_s;      /* span_ns in whole seconds (SFS: the mean of the clients'
                                test times, kept when span_ns is 0) */
    uint64_t span_ns;        /* the run as the prime saw it: from its RUN to the last
                                client's end of the run; 0 when not known */
    double mean_ms[NF_NOPS + 1];    /* unweighted mean of client means */
    double actual_pct[NF_NOPS + 1]; /* mean of the clients' actual mix */
    double pct_time[NF_NOPS + 1];   /* mean of the clients' % of time */
};

/* What the report shows.  All pointers are the caller's. */
struct ld_report_in {
    const char *prog; /* "sfs3" */
    const char *host; /* client host name */
    time_t when;      /* for the ctime stamps */
    const struct ld_config *cfg;
    const struct ld_mix *mix;
    const struct ld_iodist *iodist;
    const struct ld_sizing *sizing;  /* per child */
    const struct ld_stats *stats;    /* merged over the client's children */
    const void *wstats;              /* the workload's own counters (workload.h: results),
                                        merged the same way; NULL when it has none */
    const struct nf_proto *proto;    /* the protocol's, when it counts (nf_proto.h:
                                        counters) ... */
    const void *pstats;              /* ... merged the same way; NULL: none */
    const struct ld_report_agg *agg; /* NULL for one client; the prime's aggregate */
    const struct ld_report_ops *work; /* the workload's part (may not be NULL) */
    const struct ld_workload_ops *wl; /* the workload that ran: its options
                                         are echoed too (NULL: the load
                                         table's only) */
    const void *plan; /* the workload's plan (workload.h); NULL in the prime */
};

/* One op's figures as the table prints them (op = NF_OP_TOTAL for TOTAL). */
struct ld_op_figures {
    int target;    /* mix percent */
    double actual; /* op good / total good x 100 */
    uint64_t good, bad;
    uint64_t success, errors; /* the table's columns */
    double calls_per_req;     /* (good + bad) / requests, 0 without requests */
    double mean, stddev, ci;
    double pct_time; /* op ms / all ms x 100, ms as SFS's integer ms */
    double p50, p99, max_ms;
};
void ld_report_op_figures(const struct ld_report_in *in, int op, struct ld_op_figures *f);

/* The workload's validity rules (in->work): fills v (may not be NULL) and
 * returns v->code. */
int ld_validity_check(const struct ld_report_in *in, struct ld_validity *v);

/*
 * The SFS 3.0 mix's rules (docs/SFS30.md §17.1) in SFS's order: counters first (no good
 * calls -> 14; bad x 100 / good >= 1 -> 15; any op |actual - target| > 1.5
 * points -> 16; FreeSFS: more than 1 % unexpected NFS errors -> 17, less
 * than 90 % of the requested load -> 22, an early end -> 18), then the
 * parameters (iodist file 2, mix file 3, runtime 4 ... the last failing one
 * wins).  Every reason is listed; a counter's code outranks a parameter's.
 * Adds to v; returns v->code.
 */
int ld_validity_sfs(const struct ld_report_in *in, struct ld_validity *v);

/* Integer throughput and response as SFS prints them (docs/SFS30.md §11),
 * with FreeSFS's stricter time: runtime = the span of the run (from the
 * first child's start to the last child's end; SFS: TOTAL run seconds /
 * PROCS, kept when the span is not known); ops/s = calls / runtime with two
 * decimals.  Out values are x100 (e.g. 39987 = 399.87). */
uint64_t ld_report_runtime_s(const struct ld_report_in *in);
uint64_t ld_report_ops_x100(const struct ld_report_in *in);
uint64_t ld_report_resp_x100(const struct ld_report_in *in);

/* The "Client Test Parameters:" block (docs/SFS30.md §16.1), framed by 72 asterisks. */
void ld_report_params(FILE *out, const struct ld_report_in *in);

/* The per-op table (docs/SFS30.md §16.2), the summary box (§16.3), the accounting
 * lines beyond SFS (ld_report_details) and the INVALID lines (docs/SFS30.md §16.4, as
 * "<prog>: INVALID RUN ...") of v (NULL = none).  The table's Success
 * Count is the good calls less those answered with an unexpected NFS
 * error; its Error Count is the bad calls plus those errors. */
void ld_report_client(FILE *out, const struct ld_report_in *in,
                      const struct ld_validity *v);

/*
 * The lines FreeSFS adds under SFS's summary (docs/sfs.md): bad calls by
 * kind, retransmitted calls per op, unexpected NFS errors by status and
 * op, STALE replies and TCP reconnections (when any), then the
 * workload's lines (in->work->lines).  For the single-client report and
 * the prime's aggregate alike (pass the merged stats).
 */
void ld_report_details(FILE *out, const struct ld_report_in *in);

/* The SFS mix's lines among them: the realised mix (append share of
 * writes, truncations, calls per read/write request, no-fit transfers per
 * op), and pacing: seconds behind schedule, the largest lag and the
 * skipped sleeps (SFS pacing) or the issue lag and the response time
 * including it (open loop), with a WARNING line when the lag exceeded 1 s. */
void ld_report_sfs_lines(FILE *out, const struct ld_report_in *in);

/* The table's columns for one op: successes (good calls less unexpected
 * NFS errors) and errors (bad calls plus unexpected NFS errors). */
uint64_t ld_report_success(const struct ld_opstat *o);
uint64_t ld_report_errors(const struct ld_opstat *o);

/* The YAML results: parameters (value + source), file set, per-op table
 * (with p50/p99), totals, validity, pacing and file-choice counters, issue
 * lag.  Written atomically.  Returns 0 or -errno with the reason in err. */
int ld_report_yaml(const char *path, const struct ld_report_in *in,
                   const struct ld_validity *v, char *err, size_t errlen);
/* The same mapping's entries into a document the caller writes (the prime
 * puts one per load point into sfsres.SFX.yaml). */
void ld_report_yaml_emit(struct cm_yaml *y, const struct ld_report_in *in,
                         const struct ld_validity *v);

/* Checks before the run that the YAML results can be written to path
 * (the temporary file beside it is created and removed, path is not a
 * directory).  Returns 0 or -errno with one line in err. */
int ld_report_yaml_check(const char *path, char *err, size_t errlen);

#endif /* LD_REPORT_H */
