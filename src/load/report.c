/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the client report in SFS 3.0's layout (sfs-reference §16.1 -
 * §16.4), the validity checks and codes of §17.1, and the YAML results.
 * Every number shown is computed once per op by ld_report_op_figures(), which both
 * the text table and the YAML use, so the two can never disagree.
 *
 * Deviations (documented in the YAML as well):
 *  - throughput divides by the children's mean run time in nanoseconds, not
 *    by whole seconds, so a 60.4 s run does not read 0.7 % high; TEST TIME
 *    still prints whole seconds;
 *  - zero good calls gives code 14 ("No good calls"); SFS printed both
 *    messages and returned 16 there, a quirk that would make the prime say
 *    "Op mix missed";
 *  - the table's Success and Error counts leave out / add the NFS errors the
 *    workload did not expect (SFS counted every NFS error as a success);
 *  - rules beyond SFS 3.0 (codes 17-21): more than 1 % unexpected NFS
 *    errors, a run that ended early, and -F, --open-loop and --seed as
 *    non-standard parameters.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/cm.h"
#include "common/opt.h"
#include "load/options.h"
#include "load/report.h"
#include "nfs/nf.h"

#define STARS    "************************************************************************"
#define BOX_RULE "------------------------------------------------------"
#define RULE                                                                             \
    "------------------------------------------------------------------------------"

static const char *const invalid_text[LD_INV_NCODES] = {
    "No error",          "Unknown",        "IO distribution file",
    "Mix file",          "Runtime",        "Access percentage",
    "Append percentage", "KB per block",   "Number client directories",
    "Fileset delta",     "Max biod reads", "Number symlinks",
    "Max biod writes",   "Warmup time",    "No good calls",
    "Failed RPC calls",  "Op mix missed",  "Unexpected NFS errors",
    "Run ended early",   "File count",     "Pacing",
    "Random seed",
};

const char *ld_invalid_text(int code)
{
    return code >= 0 && code < LD_INV_NCODES ? invalid_text[code] : "Unknown";
}

/* ---- figures ------------------------------------------------------------- */

uint64_t ld_report_success(const struct ld_opstat *o)
{
    return o->good > o->unexpected ? o->good - o->unexpected : 0;
}

uint64_t ld_report_errors(const struct ld_opstat *o)
{
    return o->bad + o->unexpected;
}

void ld_report_op_figures(const struct ld_report_in *in, int op, struct ld_op_figures *f)
{
    const struct ld_opstat *o = &in->stats->op[op];
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];
    uint64_t all_ms = t->sum_us / 1000;

    memset(f, 0, sizeof(*f));
    /* a workload without a target mix (a replay: the trace is its own) has
     * 0 in the Target column */
    f->target = op >= NF_NOPS                        ? 100
                : !(in->work->flags & LD_REPORT_MIX) ? 0
                                                     : in->mix->pct[op];
    f->actual = t->good ? (double)o->good * 100.0 / (double)t->good : 0;
    f->good = o->good;
    f->bad = o->bad;
    f->success = ld_report_success(o);
    f->errors = ld_report_errors(o);
    f->calls_per_req = o->requests ? (double)(o->good + o->bad) / (double)o->requests : 0;
    f->mean = ld_stats_mean_ms(o);
    f->stddev = ld_stats_stddev(o);
    f->ci = ld_stats_ci(o);
    f->pct_time = all_ms ? (double)(o->sum_us / 1000) * 100.0 / (double)all_ms : 0;
    f->p50 = cm_hist_quantile_ms(&o->hist, 0.50);
    f->p99 = cm_hist_quantile_ms(&o->hist, 0.99);
    f->max_ms = (double)o->hist.max_us / 1000.0;
    if (in->agg) { /* §11: SFS averages these over the clients */
        f->actual = op < NF_NOPS ? in->agg->actual_pct[op] : 100.0;
        f->mean = in->agg->mean_ms[op];
        f->pct_time = in->agg->pct_time[op];
    }
}

static uint64_t child_mean_runtime_ns(const struct ld_report_in *in)
{
    uint32_t n = in->stats->nchildren ? in->stats->nchildren : 1;

    return in->stats->runtime_ns / n;
}

uint64_t ld_report_runtime_s(const struct ld_report_in *in)
{
    if (in->agg)
        return in->agg->runtime_s;
    return (child_mean_runtime_ns(in) + 500000000ull) / 1000000000ull;
}

uint64_t ld_report_ops_x100(const struct ld_report_in *in)
{
    uint64_t ns = child_mean_runtime_ns(in);
    double calls = (double)in->stats->op[NF_OP_TOTAL].good;

    if (in->agg)
        return in->agg->ops_x100;
    return ns ? (uint64_t)(calls * 100.0 * 1e9 / (double)ns) : 0;
}

uint64_t ld_report_resp_x100(const struct ld_report_in *in)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];

    if (in->agg)
        return in->agg->resp_x100;
    return t->good ? (uint64_t)(t->sum_ms * 100.0 / (double)t->good) : 0;
}

/* ---- validity (§17.1) --------------------------------------------------------- */

static void CM_PRINTF(3, 4)
    add_line(struct ld_validity *v, int code, const char *fmt, ...)
{
    va_list ap;

    v->code = code;
    if (v->nlines >= LD_VALIDITY_MAX_LINES)
        return;
    va_start(ap, fmt);
    vsnprintf(v->line[v->nlines++], sizeof(v->line[0]), fmt, ap);
    va_end(ap);
}

static void nonstd_int(struct ld_validity *v, int code, int actual, int standard)
{
    if (actual != standard)
        add_line(v, code, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d != %d",
                 ld_invalid_text(code), actual, standard);
}

static void min_int(struct ld_validity *v, int code, int actual, int minimum)
{
    if (actual < minimum)
        add_line(v, code, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d < %d",
                 ld_invalid_text(code), actual, minimum);
}

/* A run that ended before its time says why (its code wins: it is the
 * cause of the others). */
static void ended_early(const struct ld_report_in *in, struct ld_validity *v)
{
    if (in->stats->ended_early == LD_END_UNREACHABLE)
        add_line(v, LD_INV_ENDED_EARLY,
                 "INVALID RUN, the run ended early: the NFS server could not be reached "
                 "again after the connection was lost");
}

static int check_counters(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];
    int op;

    if (t->good == 0) {
        add_line(v, LD_INV_NO_GOOD, "INVALID RUN No good calls");
        ended_early(in, v);
        return -1;
    }
    if (t->bad * 100 / t->good >= 1)
        add_line(v, LD_INV_FAILED_RPC, "INVALID RUN, %" PRIu64 "%% Failed RPC calls",
                 t->bad * 100 / t->good);
    /* beyond SFS: an NFS error is a completed call for SFS, but a server
     * that answers more than 1 % of the calls with errors the workload
     * did not ask for is not doing the work */
    if (t->unexpected * 100 > t->good)
        add_line(v, LD_INV_NFS_ERRORS, "INVALID RUN, %.2f%% Unexpected NFS errors",
                 (double)t->unexpected * 100.0 / (double)t->good);
    if (v->code) {
        ended_early(in, v);
        return -1;
    }
    for (op = 0; op < NF_NOPS; op++) {
        struct ld_op_figures f;

        ld_report_op_figures(in, op, &f);
        if (fabs(f.actual - f.target) > 1.5)
            add_line(v, LD_INV_MIX_MISSED,
                     "INVALID RUN, %s target %d%% actual %.1f%% Op mix missed",
                     nf_op_name(op), f.target, f.actual);
    }
    ended_early(in, v);
    return v->code ? -1 : 0;
}

int ld_validity_check(const struct ld_report_in *in, struct ld_validity *v)
{
    memset(v, 0, sizeof(*v));
    return in->work->validity ? in->work->validity(in, v) : v->code;
}

int ld_validity_sfs(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_config *c = in->cfg;

    if (check_counters(in, v) < 0)
        return v->code;
    /* FreeSFS's non-standard settings first, so that SFS's own code wins
     * when both kinds fail */
    if (c->seed != CM_RNG_DEFAULT_SEED)
        add_line(v, LD_INV_SEED,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %lld != %d",
                 ld_invalid_text(LD_INV_SEED), (long long)c->seed, CM_RNG_DEFAULT_SEED);
    if (c->pace_mode != LD_PACE_SFS)
        add_line(v, LD_INV_PACING,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s open-loop (%s) != sfs",
                 ld_invalid_text(LD_INV_PACING),
                 c->pace_mode == LD_PACE_OPEN_POISSON ? "poisson" : "fixed");
    if (c->io_files > 0)
        add_line(v, LD_INV_FILE_COUNT,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d != %u x load (-F)",
                 ld_invalid_text(LD_INV_FILE_COUNT), c->io_files, LD_FILES_PER_OPS);
    /* parameters, in SFS's order: the last failing one gives the code */
    if (in->iodist && in->iodist->from_file)
        add_line(v, LD_INV_IODIST, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s",
                 ld_invalid_text(LD_INV_IODIST));
    if (in->mix->file_version != 0)
        add_line(v, LD_INV_MIXFILE, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s",
                 ld_invalid_text(LD_INV_MIXFILE));
    nonstd_int(v, LD_INV_RUNTIME, c->runtime_s, LD_STD_RUNTIME_S);
    nonstd_int(v, LD_INV_ACCESS, c->access_pct, LD_STD_ACCESS_PCT);
    nonstd_int(v, LD_INV_APPEND, c->append_pct, LD_STD_APPEND_PCT);
    nonstd_int(v, LD_INV_KB_PER_BLOCK, c->kb_per_block, LD_STD_KB_PER_BLK);
    nonstd_int(v, LD_INV_FILES_PER_DIR, c->files_per_dir, LD_STD_FILES_DIR);
    nonstd_int(v, LD_INV_FSS_DELTA, c->fss_delta_pct, LD_STD_FSS_DELTA);
    min_int(v, LD_INV_BIOD_READS, c->biod_reads, LD_STD_MIN_BIODS);
    nonstd_int(v, LD_INV_SYMLINKS, c->symlinks, LD_STD_SYMLINKS);
    min_int(v, LD_INV_BIOD_WRITES, c->biod_writes, LD_STD_MIN_BIODS);
    nonstd_int(v, LD_INV_WARMUP, c->warmup_s, LD_STD_WARMUP_S);
    return v->code;
}

/* ---- text ------------------------------------------------------------------ */

static void stamp(time_t when, char *buf, size_t len)
{
    struct tm tm;

    localtime_r(&when, &tm);
    strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm); /* ctime's 24 characters */
}

void ld_report_params(FILE *out, const struct ld_report_in *in)
{
    const struct ld_config *c = in->cfg;
    const struct ld_sizing *s = in->sizing;
    unsigned n = in->agg ? in->agg->nclients : 1, p = (unsigned)c->procs * n;

    fprintf(out, "%s\n", STARS);
    fprintf(out, "%s Test Parameters: \n", in->agg ? "Aggregate" : "Client");
    fprintf(out, "\tNumber of processes = %u\n", p);
    if (!(in->work->flags & LD_REPORT_LOAD)) { /* a trace's rate, not -l's */
        char req[128];

        in->work->requested(in, 1, req, sizeof(req));
        fprintf(out, "\tRequested Load = %s\n", req);
    } else {
        fprintf(out, "\tRequested Load (NFS V%d operations/second) = %llu\n",
                c->nfs_version,
                in->agg ? (unsigned long long)in->agg->requested_load
                        : (unsigned long long)c->load);
    }
    fprintf(out, "\tMaximum number of outstanding biod writes = %d\n", c->biod_writes);
    fprintf(out, "\tMaximum number of outstanding biod reads = %d\n", c->biod_reads);
    fprintf(out, "\tWarm-up time (seconds) = %d\n", c->warmup_s);
    fprintf(out, "\tRun time (seconds) = %d\n", c->runtime_s);
    if (c->mix_file[0])
        fprintf(out, "\tNFS Mixfile = %s\n", c->mix_file);
    if (c->iodist_file[0])
        fprintf(out, "\tBlock Size Distribution file = %s\n", c->iodist_file);
    fprintf(out, "File Set = %10u Files created for I/O operations\n", s->io_child * p);
    fprintf(out, "           %10u Files accessed for I/O operations\n",
            s->working_io * p);
    fprintf(out, "           %10u Files for non-I/O operations\n", s->nonio_child * p);
    fprintf(out, "           %10u Symlinks\n", s->symlinks_child * p);
    fprintf(out, "           %10u Directories\n", s->dirs_child * p);
    fprintf(out,
            "                      Additional non-I/O files created as necessary\n\n");
    fprintf(out, "%s\n", STARS);
}

/* Column widths of the per-op table; header words are right-aligned in the
 * same widths as the numbers below them. */
#define HDR_FMT "%-12s%7s%7s%8s%7s%9s%9s%12s%7s\n"
#define ROW_FMT "%-12s%6d%%%6.1f%%%8" PRIu64 "%7" PRIu64 "%9.2f%9.2f%12.2f%6.1f%%\n"

static void op_table(FILE *out, const struct ld_report_in *in)
{
    int op;

    fprintf(out, "%s\n", RULE);
    fprintf(out, HDR_FMT, "NFS", "Target", "Actual", "NFS", "NFS", "Mean", "Std Dev",
            "Std Error", "Pcnt");
    fprintf(out, HDR_FMT, "Op", "NFS", "NFS", "Op", "Op", "Response", "Response",
            "of Mean,95%", "of");
    fprintf(out, HDR_FMT, "Type", "Mix", "Mix", "Success", "Error", "Time", "Time",
            "Confidence", "Total");
    fprintf(out, HDR_FMT, "", "Pcnt", "Pcnt", "Count", "Count", "Msec/Op", "Msec/Op",
            "+- Msec/Op", "Time");
    fprintf(out, "%s\n", RULE);
    for (op = 0; op < NF_NOPS; op++) {
        struct ld_op_figures f;

        ld_report_op_figures(in, op, &f);
        if (in->agg && f.target == 0 && f.good == 0 && f.bad == 0)
            continue; /* the aggregate drops unused ops (§11) */
        fprintf(out, ROW_FMT, nf_op_name(op), f.target, f.actual, f.success, f.errors,
                f.mean, f.stddev, f.ci, f.pct_time);
    }
    fprintf(out, "%s\n", RULE);
}

static unsigned pct_of(uint64_t x, uint64_t base)
{
    return base ? (unsigned)(x * 100 / base) : 0;
}

static void summary(FILE *out, const struct ld_report_in *in)
{
    const struct ld_stats *s = in->stats;
    const struct ld_opstat *t = &s->op[NF_OP_TOTAL];
    uint64_t ops = ld_report_ops_x100(in), resp = ld_report_resp_x100(in);
    char mixname[1100];

    if (in->mix->file_version)
        snprintf(mixname, sizeof(mixname), "%s", in->mix->file);
    else
        snprintf(mixname, sizeof(mixname), "[ SFS Default ]");
    const struct ld_report_agg *agg = in->agg;

    fprintf(out, "\n        %s\n        %s\n        %s\n", BOX_RULE,
            agg ? "|   SPEC SFS VERSION 3.0 AGGREGATE RESULTS SUMMARY   |"
                : "| SPEC SFS VERSION 3.0 SINGLE CLIENT RESULTS SUMMARY |",
            BOX_RULE);
    if (agg)
        fprintf(out,
                "NFS V%d THROUGHPUT: %7.0f Ops/Sec   AVG. RESPONSE TIME: %7.1f Msec/Op\n",
                in->cfg->nfs_version, (double)ops / 100.0, (double)resp / 100.0);
    else
        fprintf(out,
                "NFS V%d THROUGHPUT: %4" PRIu64 ".%02" PRIu64
                " Ops/Sec   AVG. RESPONSE TIME: "
                "%4" PRIu64 ".%02" PRIu64 " Msec/Op\n",
                in->cfg->nfs_version, ops / 100, ops % 100, resp / 100, resp % 100);
    fprintf(out, "%s PROTOCOL\n", in->cfg->tcp ? "TCP" : "UDP");
    if (!agg)
        fprintf(out, "FAST CALLS: %" PRIu64 "\n", t->fast);
    fprintf(out, "NFS MIXFILE: %s\n", mixname);
    if (!(in->work->flags & LD_REPORT_LOAD)) { /* a trace's rate, not -l's */
        char req[128];

        in->work->requested(in, 0, req, sizeof(req));
        fprintf(out, "%s REQUESTED LOAD: %s\n", agg ? "AGGREGATE" : "CLIENT", req);
    } else if (agg) {
        fprintf(out, "AGGREGATE REQUESTED LOAD: %" PRIu64 " Ops/Sec \n",
                agg->requested_load);
    } else {
        fprintf(out, "CLIENT REQUESTED LOAD: %d Ops/Sec \n", in->cfg->load);
    }
    fprintf(out, "TOTAL NFS OPERATIONS: %-8" PRIu64 "      TEST TIME: %" PRIu64 " Sec \n",
            t->good, ld_report_runtime_s(in));
    if (agg) {
        fprintf(out, "NUMBER OF SFS CLIENTS: %u\n", agg->nclients);
        fprintf(out, "TOTAL FILE SET SIZE CREATED: %6.1f MB\n",
                (double)s->total_kb / 1024);
        fprintf(
            out,
            "TOTAL FILE SET SIZE ACCESSED: %6.1f - %6.1f MB  (%u%% to %u%% of Base)\n",
            (double)s->least_kb / 1024, (double)s->most_kb / 1024,
            pct_of(s->least_kb, s->base_kb), pct_of(s->most_kb, s->base_kb));
    } else {
        fprintf(out, "FILE SET SIZE CREATED: %" PRIu64 " KB\n", s->total_kb);
        fprintf(out,
                "FILE SET SIZE ACCESSED: %" PRIu64 " - %" PRIu64
                " KB  (%u%% to %u%% of Base)\n",
                s->least_kb, s->most_kb, pct_of(s->least_kb, s->base_kb),
                pct_of(s->most_kb, s->base_kb));
    }
    fprintf(out, "%s\n", RULE);
}

/* ---- the lines beyond SFS ------------------------------------------------- */

/* "name count, name count" for the ops whose field is nonzero. */
static void per_op_list(FILE *out, const struct ld_stats *s, size_t field)
{
    const char *sep = "";
    int op;

    for (op = 0; op < NF_NOPS; op++) {
        uint64_t n = *(const uint64_t *)((const char *)&s->op[op] + field);

        if (n) {
            fprintf(out, "%s%s %" PRIu64, sep, nf_op_name(op), n);
            sep = ", ";
        }
    }
}

static void details_calls(FILE *out, const struct ld_stats *s)
{
    const struct ld_opstat *t = &s->op[NF_OP_TOTAL];
    unsigned k;

    fprintf(out,
            "BAD CALLS: %" PRIu64 " (%" PRIu64
            " answered only after the call timeout, %" PRIu64
            " not answered or failed)\n",
            t->bad, t->late, t->bad - t->late);
    fprintf(out, "RETRANSMITTED CALLS: %" PRIu64, t->retrans);
    if (t->retrans) {
        fputs(" (", out);
        per_op_list(out, s, offsetof(struct ld_opstat, retrans));
        fputc(')', out);
    }
    fputc('\n', out);
    if (t->unexpected) {
        const char *sep = "";

        fprintf(out, "UNEXPECTED NFS ERRORS: %" PRIu64 " of %" PRIu64 " calls (%.2f%%): ",
                t->unexpected, t->good,
                t->good ? (double)t->unexpected * 100.0 / (double)t->good : 0);
        for (k = 0; k < LD_NSTATUS; k++)
            if (s->err_status[k]) {
                uint32_t st = ld_stats_slot_status(k);
                fprintf(out, "%s%s %" PRIu64, sep,
                        st == UINT32_MAX ? "other" : nf_status_name(st),
                        s->err_status[k]);
                sep = ", ";
            }
        fputs("; by op: ", out);
        per_op_list(out, s, offsetof(struct ld_opstat, unexpected));
        fputc('\n', out);
    }
    if (s->stale)
        fprintf(out, "STALE FILE HANDLES: %" PRIu64 " replies\n", s->stale);
    if (s->reconnects)
        fprintf(out, "TCP RECONNECTIONS: %" PRIu64 "\n", s->reconnects);
}

static double per_req(const struct ld_opstat *o)
{
    return o->requests ? (double)(o->good + o->bad) / (double)o->requests : 0;
}

static void details_mix(FILE *out, const struct ld_stats *s)
{
    const struct ld_opstat *rd = &s->op[NF_OP_READ], *wr = &s->op[NF_OP_WRITE];

    fprintf(out,
            "REALISED MIX: %.1f%% of %" PRIu64 " write requests appended, %" PRIu64
            " truncations; calls per request: read %.2f, write %.2f\n",
            wr->requests ? (double)s->appends * 100.0 / (double)wr->requests : 0,
            wr->requests, s->truncates, per_req(rd), per_req(wr));
    fprintf(out, "NO-FIT (CLIPPED) TRANSFERS: %" PRIu64, s->op[NF_OP_TOTAL].nofit);
    if (s->op[NF_OP_TOTAL].nofit) {
        fputs(" (", out);
        per_op_list(out, s, offsetof(struct ld_opstat, nofit));
        fputc(')', out);
    }
    fputc('\n', out);
}

static void details_pacing(FILE *out, const struct ld_report_in *in)
{
    const struct ld_stats *s = in->stats;
    uint32_t n = s->nchildren ? s->nchildren : 1;
    double max_lag = (double)s->max_lag_ns / 1e9;

    if (in->cfg->pace_mode == LD_PACE_SFS) {
        fprintf(out,
                "PACING: %.2f s behind schedule (mean of %u processes), largest lag %.3f "
                "s, %" PRIu64 " sleeps skipped to catch up\n",
                (double)s->behind_ns / 1e9 / n, n, max_lag, s->catchup_skips);
    } else {
        const struct ld_opstat *t = &s->op[NF_OP_TOTAL];
        double lag_resp = t->good ? (t->sum_ms + s->lag_calls_ms) / (double)t->good : 0;

        max_lag = (double)s->lag.max_us / 1e6;
        fprintf(out,
                "OPEN LOOP (%s arrivals, non-standard): issue lag p50 %.3f p99 %.3f max "
                "%.3f ms; %" PRIu64 " of %" PRIu64
                " requests late (more than %.0f ms after their deadline)\n",
                in->cfg->pace_mode == LD_PACE_OPEN_POISSON ? "Poisson" : "fixed",
                cm_hist_quantile_ms(&s->lag, 0.50), cm_hist_quantile_ms(&s->lag, 0.99),
                (double)s->lag.max_us / 1000.0, s->late_requests, s->lag.count,
                (double)s->late_threshold_us / 1000.0);
        fprintf(out, "AVG. RESPONSE TIME INCLUDING ISSUE LAG: %.2f Msec/Op\n", lag_resp);
    }
    if (max_lag > 1.0)
        fprintf(out,
                "WARNING: a process fell %.3f s behind its schedule (more than 1 s): the "
                "server stalled or the client could not keep up\n",
                max_lag);
}

void ld_report_sfs_lines(FILE *out, const struct ld_report_in *in)
{
    details_mix(out, in->stats);
    details_pacing(out, in);
}

void ld_report_details(FILE *out, const struct ld_report_in *in)
{
    details_calls(out, in->stats);
    if (in->work->lines)
        in->work->lines(out, in);
    fprintf(out, "%s\n", RULE);
}

void ld_report_client(FILE *out, const struct ld_report_in *in,
                      const struct ld_validity *v)
{
    char when[64];
    int i;

    stamp(in->when, when, sizeof(when));
    if (in->agg)
        fprintf(out, "\nSFS Aggregate Results for %u Client(s), %s\n", in->agg->nclients,
                when);
    else
        fprintf(out, "\nSFS Single Client (%s) Results, %s\n", in->host, when);
    fprintf(out, "NFS Protocol Version %d\n", in->cfg->nfs_version);
    op_table(out, in);
    summary(out, in);
    ld_report_details(out, in);
    if (in->work->section)
        in->work->section(out, in);
    for (i = 0; v && i < v->nlines; i++)
        fprintf(out, "%s: %s\n", in->prog, v->line[i]);
}

const struct ld_report_ops ld_sfs_report = {
    .flags = LD_REPORT_LOAD | LD_REPORT_MIX,
    .validity = ld_validity_sfs,
    .lines = ld_report_sfs_lines,
};

/* ---- YAML -------------------------------------------------------------------- */

static const char *src_name(unsigned char src)
{
    return src == CM_SRC_CLI ? "command line" : src == CM_SRC_RC ? "rc file" : "default";
}

static void yaml_params(struct cm_yaml *y, const struct ld_config *c)
{
    const struct cm_opt *t;
    size_t n, i;
    int k;

    t = ld_options_table(&n);
    cm_yaml_key(y, "parameters");
    cm_yaml_map_begin(y);
    cm_yaml_kv_int(y, "nfs_version", c->nfs_version);
    for (i = 0; i < n; i++) {
        char buf[LD_PATH_MAX + 32];

        if (t[i].short_flag == 'c')
            continue;
        cm_yaml_key(y, t[i].long_name);
        cm_yaml_map_begin(y);
        cm_yaml_key(y, "value");
        cm_opt_format(&t[i], c, buf, sizeof(buf));
        if (t[i].type == CM_OPT_INT || t[i].type == CM_OPT_I64 ||
            t[i].type == CM_OPT_FLAG)
            cm_yaml_int(y, strtoll(buf, NULL, 10));
        else if (t[i].type == CM_OPT_DOUBLE)
            cm_yaml_double(y, strtod(buf, NULL), -1);
        else
            cm_yaml_str(y, buf);
        cm_yaml_kv_str(y, "source", src_name(c->src[i]));
        cm_yaml_map_end(y);
    }
    cm_yaml_key(y, "mount_points");
    cm_yaml_seq_begin(y);
    for (k = 0; k < c->nmounts; k++)
        cm_yaml_str(y, c->mounts[k]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
}

static void yaml_fileset(struct cm_yaml *y, const struct ld_report_in *in)
{
    const struct ld_stats *s = in->stats;

    cm_yaml_key(y, "file_set");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "io_files", s->io_files);
    cm_yaml_kv_uint(y, "working_io_files", s->working_files);
    cm_yaml_kv_uint(y, "nonio_files", s->nonio_files);
    cm_yaml_kv_uint(y, "symlinks", s->symlinks);
    cm_yaml_kv_uint(y, "directories", s->dirs);
    cm_yaml_kv_uint(y, "created_kb", s->total_kb);
    cm_yaml_kv_uint(y, "base_kb", s->base_kb);
    cm_yaml_kv_uint(y, "accessed_least_kb", s->least_kb);
    cm_yaml_kv_uint(y, "accessed_most_kb", s->most_kb);
    cm_yaml_kv_uint(y, "nofit", s->nofit);
    cm_yaml_kv_uint(y, "truncates", s->truncates);
    cm_yaml_kv_uint(y, "appends", s->appends);
    cm_yaml_map_end(y);
}

static void yaml_ops(struct cm_yaml *y, const struct ld_report_in *in)
{
    int op;

    cm_yaml_key(y, "ops");
    cm_yaml_seq_begin(y);
    for (op = 0; op <= NF_NOPS; op++) {
        const struct ld_opstat *o = &in->stats->op[op];
        struct ld_op_figures f;

        ld_report_op_figures(in, op, &f);
        cm_yaml_map_begin(y);
        cm_yaml_kv_str(y, "op", nf_op_name(op));
        cm_yaml_kv_int(y, "target_pct", f.target);
        cm_yaml_kv_double(y, "actual_pct", f.actual, 3);
        cm_yaml_kv_uint(y, "good", f.good);
        cm_yaml_kv_uint(y, "bad", f.bad);
        cm_yaml_kv_uint(y, "nfs_errors", o->nfs_errors);
        cm_yaml_kv_uint(y, "fast", o->fast);
        cm_yaml_kv_uint(y, "no_calls", o->no_calls);
        cm_yaml_kv_uint(y, "success_count", f.success);
        cm_yaml_kv_uint(y, "error_count", f.errors);
        cm_yaml_kv_uint(y, "unexpected_nfs_errors", o->unexpected);
        cm_yaml_kv_uint(y, "late", o->late);
        cm_yaml_kv_uint(y, "retransmitted", o->retrans);
        cm_yaml_kv_uint(y, "requests", o->requests);
        cm_yaml_kv_double(y, "calls_per_request", f.calls_per_req, 3);
        cm_yaml_kv_uint(y, "nofit", o->nofit);
        cm_yaml_kv_double(y, "mean_ms", f.mean, 3);
        cm_yaml_kv_double(y, "stddev_ms", f.stddev, 3);
        cm_yaml_kv_double(y, "ci95_ms", f.ci, 3);
        cm_yaml_kv_double(y, "pct_time", f.pct_time, 2);
        cm_yaml_kv_double(y, "p50_ms", f.p50, 3);
        cm_yaml_kv_double(y, "p99_ms", f.p99, 3);
        cm_yaml_kv_double(y, "max_ms", f.max_ms, 3);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
}

/* The realised mix and the unexpected NFS errors by status. */
static void yaml_realised(struct cm_yaml *y, const struct ld_stats *s)
{
    const struct ld_opstat *wr = &s->op[NF_OP_WRITE];
    unsigned k;

    cm_yaml_key(y, "realised_mix");
    cm_yaml_map_begin(y);
    cm_yaml_kv_double(y, "append_share_of_writes",
                      wr->requests ? (double)s->appends / (double)wr->requests : 0, 4);
    cm_yaml_kv_uint(y, "appends", s->appends);
    cm_yaml_kv_uint(y, "truncations", s->truncates);
    cm_yaml_kv_double(y, "calls_per_read_request", per_req(&s->op[NF_OP_READ]), 3);
    cm_yaml_kv_double(y, "calls_per_write_request", per_req(wr), 3);
    cm_yaml_kv_uint(y, "nofit_read", s->op[NF_OP_READ].nofit);
    cm_yaml_kv_uint(y, "nofit_write", s->op[NF_OP_WRITE].nofit);
    cm_yaml_map_end(y);

    cm_yaml_key(y, "unexpected_nfs_errors");
    cm_yaml_map_begin(y);
    for (k = 0; k < LD_NSTATUS; k++)
        if (s->err_status[k]) {
            uint32_t st = ld_stats_slot_status(k);
            cm_yaml_kv_uint(y, st == UINT32_MAX ? "other" : nf_status_name(st),
                            s->err_status[k]);
        }
    cm_yaml_map_end(y);
}

static void yaml_totals(struct cm_yaml *y, const struct ld_report_in *in,
                        const struct ld_validity *v)
{
    const struct ld_stats *s = in->stats;
    int i;

    cm_yaml_key(y, "results");
    cm_yaml_map_begin(y);
    cm_yaml_kv_double(y, "throughput_ops", (double)ld_report_ops_x100(in) / 100.0, 2);
    cm_yaml_kv_double(y, "avg_response_ms", (double)ld_report_resp_x100(in) / 100.0, 2);
    if (in->work->flags & LD_REPORT_LOAD) /* else in the workload's section */
        cm_yaml_kv_int(y, "requested_load", in->cfg->load);
    cm_yaml_kv_uint(y, "total_ops", s->op[NF_OP_TOTAL].good);
    cm_yaml_kv_uint(y, "failed_calls", s->op[NF_OP_TOTAL].bad);
    cm_yaml_kv_uint(y, "late_calls", s->op[NF_OP_TOTAL].late);
    cm_yaml_kv_uint(y, "retransmitted_calls", s->op[NF_OP_TOTAL].retrans);
    cm_yaml_kv_uint(y, "unexpected_nfs_errors", s->op[NF_OP_TOTAL].unexpected);
    cm_yaml_kv_uint(y, "stale_replies", s->stale);
    cm_yaml_kv_uint(y, "tcp_reconnections", s->reconnects);
    cm_yaml_kv_str(y, "ended_early",
                   s->ended_early == LD_END_UNREACHABLE ? "server unreachable" : "no");
    cm_yaml_kv_uint(y, "fast_calls", s->op[NF_OP_TOTAL].fast);
    cm_yaml_kv_uint(y, "test_time_s", ld_report_runtime_s(in));
    cm_yaml_kv_double(y, "test_time_exact_s", (double)child_mean_runtime_ns(in) / 1e9, 3);
    cm_yaml_kv_uint(y, "children", s->nchildren);
    cm_yaml_kv_str(y, "protocol", in->cfg->tcp ? "TCP" : "UDP");
    cm_yaml_kv_str(y, "mix_file", in->mix->file_version ? in->mix->file : "SFS Default");
    cm_yaml_kv_str(y, "iodist_file",
                   in->iodist && in->iodist->from_file ? in->iodist->file
                                                       : "SFS Default");
    cm_yaml_map_end(y);

    cm_yaml_key(y, "validity");
    cm_yaml_map_begin(y);
    cm_yaml_kv_bool(y, "valid", v ? v->code == LD_VALID : 1);
    cm_yaml_kv_int(y, "code", v ? v->code : 0);
    cm_yaml_kv_str(y, "text", ld_invalid_text(v ? v->code : 0));
    cm_yaml_key(y, "messages");
    cm_yaml_seq_begin(y);
    for (i = 0; v && i < v->nlines; i++)
        cm_yaml_str(y, v->line[i]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);

    cm_yaml_key(y, "pacing");
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "mode",
                   in->cfg->pace_mode == LD_PACE_SFS            ? "sfs"
                   : in->cfg->pace_mode == LD_PACE_OPEN_POISSON ? "poisson"
                                                                : "fixed");
    cm_yaml_kv_uint(y, "carry_resets", s->carry_resets);
    cm_yaml_kv_uint(y, "zero_call_intervals", s->zero_intervals);
    cm_yaml_kv_uint(y, "catchup_skipped_sleeps", s->catchup_skips);
    cm_yaml_kv_uint(y, "ahead_lengthened_sleeps", s->ahead_sleeps);
    cm_yaml_kv_double(y, "behind_schedule_s",
                      (double)s->behind_ns / 1e9 / (s->nchildren ? s->nchildren : 1), 3);
    cm_yaml_kv_double(y, "dropped_after_stalls_s",
                      (double)s->dropped_ns / 1e9 / (s->nchildren ? s->nchildren : 1), 3);
    cm_yaml_kv_double(y, "largest_lag_s", (double)s->max_lag_ns / 1e9, 3);
    cm_yaml_kv_bool(y, "lag_over_1s", s->max_lag_ns > 1000000000ull);
    cm_yaml_map_end(y);

    yaml_realised(y, s);

    cm_yaml_key(y, "issue_lag");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "requests", s->lag.count);
    cm_yaml_kv_uint(y, "late_requests", s->late_requests);
    cm_yaml_kv_double(y, "mean_ms",
                      s->lag.count ? s->lag_sum_ms / (double)s->lag.count : 0, 3);
    cm_yaml_kv_double(y, "p50_ms", cm_hist_quantile_ms(&s->lag, 0.50), 3);
    cm_yaml_kv_double(y, "p99_ms", cm_hist_quantile_ms(&s->lag, 0.99), 3);
    cm_yaml_kv_double(y, "max_ms", (double)s->lag.max_us / 1000.0, 3);
    cm_yaml_kv_double(y, "late_threshold_ms", (double)s->late_threshold_us / 1000.0, 3);
    cm_yaml_kv_double(y, "response_including_lag_ms",
                      s->op[NF_OP_TOTAL].good
                          ? (s->op[NF_OP_TOTAL].sum_ms + s->lag_calls_ms) /
                                (double)s->op[NF_OP_TOTAL].good
                          : 0,
                      3);
    cm_yaml_map_end(y);
}

void ld_report_yaml_emit(struct cm_yaml *y, const struct ld_report_in *in,
                         const struct ld_validity *v)
{
    char when[64];

    stamp(in->when, when, sizeof(when));
    cm_yaml_kv_str(y, "program", in->prog);
    cm_yaml_kv_str(y, "sfs_version", "3.0");
    cm_yaml_kv_str(y, "host", in->host);
    cm_yaml_kv_str(y, "time", when);
    if (in->agg) {
        cm_yaml_kv_uint(y, "clients", in->agg->nclients);
        if (in->work->flags & LD_REPORT_LOAD)
            cm_yaml_kv_uint(y, "aggregate_requested_load", in->agg->requested_load);
    }
    yaml_params(y, in->cfg);
    yaml_fileset(y, in);
    yaml_ops(y, in);
    yaml_totals(y, in, v);
    if (in->work->yaml)
        in->work->yaml(y, in);
}

int ld_report_yaml(const char *path, const struct ld_report_in *in,
                   const struct ld_validity *v, char *err, size_t errlen)
{
    struct cm_yaml *y = cm_yaml_open(path, err, errlen);

    if (!y)
        return -EIO;
    cm_yaml_map_begin(y);
    ld_report_yaml_emit(y, in, v);
    cm_yaml_map_end(y);
    return cm_yaml_close(y, err, errlen);
}

int ld_report_yaml_check(const char *path, char *err, size_t errlen)
{
    struct cm_atomic_file af;
    char why[CM_ERR_LEN];
    struct stat st;

    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cm_errf(err, errlen, "--yaml %s: is a directory", path), -EISDIR;
    if (cm_atomic_open(&af, path, why, sizeof(why)) < 0)
        return cm_errf(err, errlen, "--yaml %s: cannot write the results there: %s", path,
                       why),
               -EACCES;
    cm_atomic_abort(&af);
    return 0;
}
