/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text.c - the client report in SFS 3.0's layout (docs/SFS30.md §16.1 -
 * docs/SFS30.md §16.4): the parameter block, the per-op table, the summary box, the
 * lines FreeSFS adds under it (with the workload's own) and the INVALID
 * lines; the prime's aggregate uses the same functions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/opt.h"
#include "load/ld_int.h"
#include "load/options.h"
#include "load/live.h"
#include "load/report.h"
#include "nfs/nf_proto.h"
#include "nfs/nf.h"

#define STARS    "************************************************************************"
#define BOX_RULE "------------------------------------------------------"
#define RULE                                                                             \
    "------------------------------------------------------------------------------"

/* ---- text ------------------------------------------------------------------ */

void ld__stamp(time_t when, char *buf, size_t len)
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
#define ROW_NO_TARGET_FMT                                                                \
    "%-12s%7s%6.1f%%%8" PRIu64 "%7" PRIu64 "%9.2f%9.2f%12.2f%6.1f%%\n"

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
            continue; /* the aggregate drops unused ops (docs/SFS30.md §11) */
        if (in->work->flags & LD_REPORT_MIX)
            fprintf(out, ROW_FMT, nf_op_name(op), f.target, f.actual, f.success, f.errors,
                    f.mean, f.stddev, f.ci, f.pct_time);
        else /* no target mix (a trace's calls): "-" in the Target column */
            fprintf(out, ROW_NO_TARGET_FMT, nf_op_name(op), "-", f.actual, f.success,
                    f.errors, f.mean, f.stddev, f.ci, f.pct_time);
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
                "NFS V%d THROUGHPUT: %7.0f Ops/Sec   AVG. RESPONSE TIME: %7.*f Msec/Op\n",
                in->cfg->nfs_version, (double)ops / 100.0,
                ld_ms_decimals((double)resp / 100.0), (double)resp / 100.0);
    else
        fprintf(out,
                "NFS V%d THROUGHPUT: %4" PRIu64 ".%02" PRIu64
                " Ops/Sec   AVG. RESPONSE TIME: "
                "%4" PRIu64 ".%02" PRIu64 " Msec/Op\n",
                in->cfg->nfs_version, ops / 100, ops % 100, resp / 100, resp % 100);
    fprintf(out, "%s PROTOCOL\n", in->cfg->tcp ? "TCP" : "UDP");
    if (!agg)
        fprintf(out, "FAST CALLS: %" PRIu64 "\n", t->fast);
    if (in->work->flags & LD_REPORT_MIX) /* a workload without a target mix has none */
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
    if (agg)
        fprintf(out, "NUMBER OF SFS CLIENTS: %u\n", agg->nclients);
    if (in->work->fileset) {
        in->work->fileset(out, in);
    } else if (agg) {
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

static void details_calls(FILE *out, const struct ld_report_in *in)
{
    const struct ld_stats *s = in->stats;
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
    if (t->jukebox && in->cfg->nfs_version == 4) { /* the v4 client resends itself */
        fprintf(out, "SENT AGAIN: %" PRIu64 " (", t->jukebox);
        per_op_list(out, s, offsetof(struct ld_opstat, jukebox));
        fputs("), by the NFSv4.1 client after NFS4ERR_DELAY or GRACE, or after it made "
              "its session or client again; a call's time runs from its first send to "
              "its final reply\n",
              out);
    } else if (t->jukebox) {
        fprintf(out, "JUKEBOX RETRIES: %" PRIu64 " (", t->jukebox);
        per_op_list(out, s, offsetof(struct ld_opstat, jukebox));
        fprintf(out,
                "), each sent again %d ms after the server's JUKEBOX; a call's time "
                "runs from its first send to its final reply\n",
                in->cfg->jukebox_delay_ms);
    }
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

double ld__per_request(const struct ld_opstat *o)
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
            wr->requests, s->truncates, ld__per_request(rd), ld__per_request(wr));
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
    double max_lag = (double)s->max_lag_ns / 1e9, behind = (double)s->behind_ns / 1e9 / n;

    if (in->cfg->pace_mode == LD_PACE_SFS) {
        fprintf(out,
                "PACING: %.2f s behind schedule (mean of %u processes), largest lag %.3f "
                "s, %" PRIu64 " sleeps skipped to catch up\n",
                behind, n, max_lag, s->catchup_skips);
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
    /* a server slower than the request: each request is a little late,
     * none by much, and the time behind adds up */
    if (in->cfg->pace_mode == LD_PACE_SFS && behind > 1.0)
        fprintf(out,
                "WARNING: the processes ended %.2f s behind their schedule on average "
                "(more than 1 s): the server could not keep up with the requested load, "
                "or the client could not\n",
                behind);
}

void ld_report_sfs_lines(FILE *out, const struct ld_report_in *in)
{
    details_mix(out, in->stats);
    details_pacing(out, in);
}

/* The good calls' median and p99 (the YAML has them per op). */
static void response_percentiles(FILE *out, const struct ld_stats *s)
{
    const struct cm_hist *h = &s->op[NF_OP_TOTAL].hist;
    double p50 = cm_hist_quantile_ms(h, 0.5), p99 = cm_hist_quantile_ms(h, 0.99);

    if (h->count == 0)
        return;
    fprintf(out,
            "RESPONSE TIME PERCENTILES: p50 %.*f p99 %.*f Msec/Op (within %.1f %%)\n",
            ld_ms_decimals(p50), p50, ld_ms_decimals(p99), p99, cm_hist_resolution_pct());
}

/* What the protocol counted beyond the per-op table (NFSv4.1: its
 * operations, OPEN and CLOSE as a share of the SFS ops' calls). */
static void protocol_rows(FILE *out, const struct ld_report_in *in)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];

    if (in->proto && in->pstats && in->proto->counters.report_rows)
        in->proto->counters.report_rows(out, in->pstats, t->good + t->bad);
}

void ld_report_details(FILE *out, const struct ld_report_in *in)
{
    details_calls(out, in);
    if (in->work->lines)
        in->work->lines(out, in);
    response_percentiles(out, in->stats);
    protocol_rows(out, in);
    fprintf(out, "%s\n", RULE);
}

void ld_report_client(FILE *out, const struct ld_report_in *in,
                      const struct ld_validity *v)
{
    char when[64];
    int i;

    ld__stamp(in->when, when, sizeof(when));
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
