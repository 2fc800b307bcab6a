/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * yaml.c - the YAML results (report.h): every effective parameter with its
 * source, the file set, the per-op table with percentiles, the totals,
 * validity, pacing, the realised mix and the issue lag, then the
 * workload's own section; written atomically, or emitted into the prime's
 * document.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/error.h"
#include "common/atomic.h"
#include "common/yaml.h"
#include "common/opt.h"
#include "load/ld_int.h"
#include "load/options.h"
#include "load/report.h"
#include "load/workload.h"
#include "nfs/nf.h"

/* ---- YAML -------------------------------------------------------------------- */

/* Every option's value and source: the load table's, then those of the
 * workload that ran (its option groups, workload.h). */
static void yaml_params(struct cm_yaml *y, const struct ld_config *c,
                        const struct ld_workload_ops *wl)
{
    const struct cm_opt *t;
    size_t n;
    unsigned g;
    int k;

    t = ld_options_table(&n);
    cm_yaml_key(y, "parameters");
    cm_yaml_map_begin(y);
    cm_yaml_kv_int(y, "nfs_version", c->nfs_version);
    cm_opt_yaml(y, t, n, c, c->src);
    for (g = 0; g < c->ngroups && wl; g++)
        if (ld_workload_reads(wl, c->group[g].g))
            cm_opt_yaml(y, c->group[g].g->rows, c->group[g].g->nrows,
                        c->wl_opts + c->group[g].offset, c->wl_src + c->group[g].src0);
    cm_yaml_key(y, "mount_points");
    cm_yaml_seq_begin(y);
    for (k = 0; k < c->nmounts; k++)
        cm_yaml_str(y, c->mounts[k]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
}

/* The counters of the results' field table (stats.c) in group. */
static void counters(struct cm_yaml *y, const struct ld_stats *s, const char *group)
{
    size_t n;
    const struct cm_field *t = ld_stats_fields(&n);

    cm_fields_yaml(y, t, n, s, group);
}

static void yaml_fileset(struct cm_yaml *y, const struct ld_report_in *in)
{
    const struct ld_stats *s = in->stats;

    cm_yaml_key(y, "file_set");
    cm_yaml_map_begin(y);
    counters(y, s, "file_set");
    cm_yaml_map_end(y);
}

static void yaml_ops(struct cm_yaml *y, const struct ld_report_in *in)
{
    size_t n;
    const struct cm_field *t = ld_opstat_fields(&n);
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
        cm_fields_yaml(y, t, n, o, "ops.counts");
        cm_yaml_kv_uint(y, "success_count", f.success);
        cm_yaml_kv_uint(y, "error_count", f.errors);
        cm_fields_yaml(y, t, n, o, "ops.calls");
        cm_yaml_kv_double(y, "calls_per_request", f.calls_per_req, 3);
        cm_fields_yaml(y, t, n, o, "ops.nofit");
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
    cm_yaml_kv_double(y, "calls_per_read_request", ld__per_request(&s->op[NF_OP_READ]),
                      3);
    cm_yaml_kv_double(y, "calls_per_write_request", ld__per_request(wr), 3);
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
    cm_yaml_kv_uint(y, "jukebox_retries", s->op[NF_OP_TOTAL].jukebox);
    cm_yaml_kv_uint(y, "unexpected_nfs_errors", s->op[NF_OP_TOTAL].unexpected);
    counters(y, s, "results");
    cm_yaml_kv_str(y, "ended_early",
                   s->ended_early == LD_END_UNREACHABLE ? "server unreachable"
                   : s->ended_early == LD_END_STALE     ? "stale file handles"
                                                        : "no");
    cm_yaml_kv_uint(y, "fast_calls", s->op[NF_OP_TOTAL].fast);
    cm_yaml_kv_uint(y, "test_time_s", ld_report_runtime_s(in));
    cm_yaml_kv_double(y, "test_time_exact_s", (double)ld__runtime_ns(in) / 1e9, 3);
    counters(y, s, "results.run");
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
    /* each reason once, in plain words */
    cm_yaml_key(y, "reasons");
    cm_yaml_seq_begin(y);
    for (i = 0; v && i < v->nlines; i++)
        if (ld_validity_new_words(v, i))
            cm_yaml_str(y, v->words[i]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);

    cm_yaml_key(y, "pacing");
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "mode",
                   in->cfg->pace_mode == LD_PACE_SFS            ? "sfs"
                   : in->cfg->pace_mode == LD_PACE_OPEN_POISSON ? "poisson"
                                                                : "fixed");
    counters(y, s, "pacing");
    cm_yaml_kv_double(y, "behind_schedule_s",
                      (double)s->behind_ns / 1e9 / (s->nchildren ? s->nchildren : 1), 3);
    cm_yaml_kv_double(y, "dropped_after_stalls_s",
                      (double)s->dropped_ns / 1e9 / (s->nchildren ? s->nchildren : 1), 3);
    cm_yaml_kv_double(y, "largest_lag_s", (double)s->max_lag_ns / 1e9, 3);
    cm_yaml_kv_bool(y, "lag_over_1s", s->max_lag_ns > 1000000000ull);
    cm_yaml_kv_bool(y, "behind_over_1s",
                    s->behind_ns > 1000000000ull * (s->nchildren ? s->nchildren : 1));
    cm_yaml_map_end(y);

    yaml_realised(y, s);

    cm_yaml_key(y, "issue_lag");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "requests", s->lag.count);
    counters(y, s, "issue_lag");
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

    ld__stamp(in->when, when, sizeof(when));
    cm_yaml_kv_str(y, "program", in->prog);
    cm_yaml_kv_str(y, "sfs_version", "3.0");
    cm_yaml_kv_str(y, "host", in->host);
    cm_yaml_kv_str(y, "time", when);
    if (in->agg) {
        cm_yaml_kv_uint(y, "clients", in->agg->nclients);
        if (in->work->flags & LD_REPORT_LOAD)
            cm_yaml_kv_uint(y, "aggregate_requested_load", in->agg->requested_load);
    }
    yaml_params(y, in->cfg, in->wl);
    yaml_fileset(y, in);
    yaml_ops(y, in);
    yaml_totals(y, in, v);
    if (in->proto && in->pstats && in->proto->counters.report_yaml) {
        cm_yaml_key(y, "protocol");
        cm_yaml_map_begin(y);
        cm_yaml_kv_str(y, "name", in->proto->name);
        in->proto->counters.report_yaml(y, in->pstats);
        cm_yaml_map_end(y);
    }
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
