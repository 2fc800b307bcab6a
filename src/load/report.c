/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the client report in SFS 3.0's layout (sfs-reference §16.1 -
 * §16.4), the validity checks and codes of §17.1, and the YAML results.
 * Every number shown is computed once per op by op_figures(), which both
 * the text table and the YAML use, so the two can never disagree.
 *
 * Deviations (documented in the YAML as well):
 *  - throughput divides by the children's mean run time in nanoseconds, not
 *    by whole seconds, so a 60.4 s run does not read 0.7 % high; TEST TIME
 *    still prints whole seconds;
 *  - zero good calls gives code 14 ("No good calls"); SFS printed both
 *    messages and returned 16 there, a quirk that would make the prime say
 *    "Op mix missed".
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cm.h"
#include "common/opt.h"
#include "load/options.h"
#include "load/replay.h"
#include "load/report.h"

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
    "Failed RPC calls",  "Op mix missed",
};

const char *ld_invalid_text(int code)
{
    return code >= 0 && code < LD_INV_NCODES ? invalid_text[code] : "Unknown";
}

/* ---- figures ------------------------------------------------------------- */

struct op_figures {
    int target;    /* mix percent */
    double actual; /* op good / total good x 100 */
    uint64_t good, bad;
    double mean, stddev, ci;
    double pct_time; /* op ms / all ms x 100, ms as SFS's integer ms */
    double p50, p99, max_ms;
};

static void op_figures(const struct ld_report_in *in, int op, struct op_figures *f)
{
    const struct ld_opstat *o = &in->stats->op[op];
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];
    uint64_t all_ms = t->sum_us / 1000;

    memset(f, 0, sizeof(*f));
    f->target = op < NF_NOPS ? in->mix->pct[op] : 100;
    f->actual = t->good ? (double)o->good * 100.0 / (double)t->good : 0;
    f->good = o->good;
    f->bad = o->bad;
    f->mean = ld_stats_mean_ms(o);
    f->stddev = ld_stats_stddev(o);
    f->ci = ld_stats_ci(o);
    f->pct_time = all_ms ? (double)(o->sum_us / 1000) * 100.0 / (double)all_ms : 0;
    f->p50 = cm_hist_quantile_ms(&o->hist, 0.50);
    f->p99 = cm_hist_quantile_ms(&o->hist, 0.99);
    f->max_ms = (double)o->hist.max_us / 1000.0;
}

static uint64_t child_mean_runtime_ns(const struct ld_report_in *in)
{
    uint32_t n = in->stats->nchildren ? in->stats->nchildren : 1;

    return in->stats->runtime_ns / n;
}

uint64_t ld_report_runtime_s(const struct ld_report_in *in)
{
    return (child_mean_runtime_ns(in) + 500000000ull) / 1000000000ull;
}

uint64_t ld_report_ops_x100(const struct ld_report_in *in)
{
    uint64_t ns = child_mean_runtime_ns(in);
    double calls = (double)in->stats->op[NF_OP_TOTAL].good;

    return ns ? (uint64_t)(calls * 100.0 * 1e9 / (double)ns) : 0;
}

uint64_t ld_report_resp_x100(const struct ld_report_in *in)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];

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

static int check_counters(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];
    int op;

    if (t->good == 0) {
        add_line(v, LD_INV_NO_GOOD, "INVALID RUN No good calls");
        return -1;
    }
    if (t->bad * 100 / t->good >= 1) {
        add_line(v, LD_INV_FAILED_RPC, "INVALID RUN, %" PRIu64 "%% Failed RPC calls",
                 t->bad * 100 / t->good);
        return -1;
    }
    for (op = 0; op < NF_NOPS; op++) {
        struct op_figures f;

        op_figures(in, op, &f);
        if (fabs(f.actual - f.target) > 1.5)
            add_line(v, LD_INV_MIX_MISSED,
                     "INVALID RUN, %s target %d%% actual %.1f%% Op mix missed",
                     nf_op_name(op), f.target, f.actual);
    }
    return v->code ? -1 : 0;
}

int ld_validity_check(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_config *c = in->cfg;

    memset(v, 0, sizeof(*v));
    if (check_counters(in, v) < 0)
        return v->code;
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
    unsigned p = (unsigned)c->procs;

    fprintf(out, "%s\n", STARS);
    fprintf(out, "Client Test Parameters: \n");
    fprintf(out, "\tNumber of processes = %d\n", c->procs);
    fprintf(out, "\tRequested Load (NFS V%d operations/second) = %d\n", c->nfs_version,
            c->load);
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
        struct op_figures f;

        op_figures(in, op, &f);
        fprintf(out, ROW_FMT, nf_op_name(op), f.target, f.actual, f.good, f.bad, f.mean,
                f.stddev, f.ci, f.pct_time);
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
    fprintf(out, "\n        %s\n        %s\n        %s\n", BOX_RULE,
            "| SPEC SFS VERSION 3.0 SINGLE CLIENT RESULTS SUMMARY |", BOX_RULE);
    fprintf(out,
            "NFS V%d THROUGHPUT: %4" PRIu64 ".%02" PRIu64
            " Ops/Sec   AVG. RESPONSE TIME: "
            "%4" PRIu64 ".%02" PRIu64 " Msec/Op\n",
            in->cfg->nfs_version, ops / 100, ops % 100, resp / 100, resp % 100);
    fprintf(out, "%s PROTOCOL\n", in->cfg->tcp ? "TCP" : "UDP");
    fprintf(out, "FAST CALLS: %" PRIu64 "\n", t->fast);
    fprintf(out, "NFS MIXFILE: %s\n", mixname);
    fprintf(out, "CLIENT REQUESTED LOAD: %d Ops/Sec \n", in->cfg->load);
    fprintf(out, "TOTAL NFS OPERATIONS: %-8" PRIu64 "      TEST TIME: %" PRIu64 " Sec \n",
            t->good, ld_report_runtime_s(in));
    fprintf(out, "FILE SET SIZE CREATED: %" PRIu64 " KB\n", s->total_kb);
    fprintf(out,
            "FILE SET SIZE ACCESSED: %" PRIu64 " - %" PRIu64
            " KB  (%u%% to %u%% of Base)\n",
            s->least_kb, s->most_kb, pct_of(s->least_kb, s->base_kb),
            pct_of(s->most_kb, s->base_kb));
    fprintf(out, "%s\n", RULE);
}

void ld_report_client(FILE *out, const struct ld_report_in *in,
                      const struct ld_validity *v)
{
    char when[64];
    int i;

    stamp(in->when, when, sizeof(when));
    fprintf(out, "\nSFS Single Client (%s) Results, %s\n", in->host, when);
    fprintf(out, "NFS Protocol Version %d\n", in->cfg->nfs_version);
    op_table(out, in);
    summary(out, in);
    if (in->plan)
        ld_replay_report_text(out, in->plan, in->cfg->trace_speed, in->stats);
    for (i = 0; v && i < v->nlines; i++)
        fprintf(out, "%s: %s\n", in->prog, v->line[i]);
}

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
        struct op_figures f;

        op_figures(in, op, &f);
        cm_yaml_map_begin(y);
        cm_yaml_kv_str(y, "op", nf_op_name(op));
        cm_yaml_kv_int(y, "target_pct", f.target);
        cm_yaml_kv_double(y, "actual_pct", f.actual, 3);
        cm_yaml_kv_uint(y, "good", f.good);
        cm_yaml_kv_uint(y, "bad", f.bad);
        cm_yaml_kv_uint(y, "nfs_errors", o->nfs_errors);
        cm_yaml_kv_uint(y, "fast", o->fast);
        cm_yaml_kv_uint(y, "no_calls", o->no_calls);
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

static void yaml_totals(struct cm_yaml *y, const struct ld_report_in *in,
                        const struct ld_validity *v)
{
    const struct ld_stats *s = in->stats;
    int i;

    cm_yaml_key(y, "results");
    cm_yaml_map_begin(y);
    cm_yaml_kv_double(y, "throughput_ops", (double)ld_report_ops_x100(in) / 100.0, 2);
    cm_yaml_kv_double(y, "avg_response_ms", (double)ld_report_resp_x100(in) / 100.0, 2);
    cm_yaml_kv_int(y, "requested_load", in->cfg->load);
    cm_yaml_kv_uint(y, "total_ops", s->op[NF_OP_TOTAL].good);
    cm_yaml_kv_uint(y, "failed_calls", s->op[NF_OP_TOTAL].bad);
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
    cm_yaml_map_end(y);

    cm_yaml_key(y, "issue_lag");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "requests", s->lag.count);
    cm_yaml_kv_uint(y, "late_requests", s->late_requests);
    cm_yaml_kv_double(y, "mean_ms",
                      s->lag.count ? s->lag_sum_ms / (double)s->lag.count : 0, 3);
    cm_yaml_kv_double(y, "p50_ms", cm_hist_quantile_ms(&s->lag, 0.50), 3);
    cm_yaml_kv_double(y, "p99_ms", cm_hist_quantile_ms(&s->lag, 0.99), 3);
    cm_yaml_kv_double(y, "max_ms", (double)s->lag.max_us / 1000.0, 3);
    cm_yaml_map_end(y);
}

int ld_report_yaml(const char *path, const struct ld_report_in *in,
                   const struct ld_validity *v, char *err, size_t errlen)
{
    struct cm_yaml *y = cm_yaml_open(path, err, errlen);
    char when[64];

    if (!y)
        return -EIO;
    stamp(in->when, when, sizeof(when));
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "program", in->prog);
    cm_yaml_kv_str(y, "sfs_version", "3.0");
    cm_yaml_kv_str(y, "host", in->host);
    cm_yaml_kv_str(y, "time", when);
    yaml_params(y, in->cfg);
    yaml_fileset(y, in);
    yaml_ops(y, in);
    yaml_totals(y, in, v);
    if (in->plan)
        ld_replay_report_yaml(y, in->plan, in->cfg->trace_speed, in->stats);
    cm_yaml_map_end(y);
    return cm_yaml_close(y, err, errlen);
}
