/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aggregate.c - the prime's aggregate of its clients (docs/SFS30.md §11)
 * and the sfssum line (docs/SFS30.md §16.5).  Each client's figures come from the load
 * layer's report functions on that client's merged results, so the
 * aggregate and the client reports can never compute a number two ways:
 *   per op: calls and errors summed, std dev and CI from the pooled sums
 *   (the merged ld_stats), the mean the unweighted mean of the client
 *   means (over the clients that made calls of the op), actual mix and %
 *   time averaged;
 *   response the unweighted mean of the client responses, file set the sum;
 *   throughput every client's calls over the run as the prime saw it, from
 *   its RUN to the last client's end of the run, and test time that span
 *   (FreeSFS is stricter than SFS here: SFS summed the client throughputs
 *   and averaged their times, which credits the server with more than it
 *   answered whenever the clients' windows are shifted against each
 *   other - one client alone at the end of its window gets all of the
 *   server; without a span, as SFS).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "load/live.h"
#include "prime/pr_int.h"

/* A client's figures as the results list them, each once. */
#define CS(m, type, key)                                                                 \
    CM_FIELD_OF(struct pr_client_sum, m, CM_FIELD_##type, CM_MERGE_NONE, "", key)
static const struct cm_field client_sum_fields[] = {
    CS(num, U32, "client"),
    CS(host, STR, "host"),
    CS(ops_x100, X100, "throughput_ops"),
    CS(resp_x100, X100, "avg_response_ms"),
    CS(calls, U64, "total_ops"),
    CS(runtime_s, U64, "test_time_s"),
    CS(code, INT, "invalid_code"),
    CS(reasons, STR, "invalid_reasons"),
};

const struct cm_field *pr_client_sum_fields(size_t *n)
{
    *n = CM_ARRAY_LEN(client_sum_fields);
    return client_sum_fields;
}

int pr_agg_init(struct pr_agg *a, const struct ld_wstats *w)
{
    memset(a, 0, sizeof(*a));
    ld_stats_reset(&a->merged);
    a->merged.nchildren = 0;
    a->w = w;
    if (w->size == 0)
        return 0;
    a->wmerged = cm_calloc(1, w->size);
    return a->wmerged ? 0 : -ENOMEM;
}

void pr_agg_free(struct pr_agg *a)
{
    free(a->wmerged);
    a->wmerged = NULL;
}

void pr_agg_add(struct pr_agg *a, const struct ld_report_in *in, struct pr_client_sum *cs)
{
    int op;

    for (op = 0; op <= NF_NOPS; op++) {
        struct ld_op_figures f;

        ld_report_op_figures(in, op, &f);
        a->agg.actual_pct[op] += f.actual;
        a->agg.pct_time[op] += f.pct_time;
        if (f.good > 0) {
            a->sum_mean[op] += f.mean;
            a->n_mean[op]++;
        }
    }
    cs->ops_x100 = ld_report_ops_x100(in);
    cs->resp_x100 = ld_report_resp_x100(in);
    cs->runtime_s = ld_report_runtime_s(in);
    cs->calls = in->stats->op[NF_OP_TOTAL].good;
    a->ops_sum += cs->ops_x100;
    a->resp_sum += cs->resp_x100;
    a->time_sum += cs->runtime_s;
    ld_stats_merge(&a->merged, in->stats);
    ld_wstats_merge(a->w, a->wmerged, in->wstats);
    a->n++;
}

void pr_agg_finish(struct pr_agg *a, uint64_t requested, uint64_t span_ns)
{
    unsigned n = a->n ? a->n : 1;
    int op;

    a->agg.nclients = a->n;
    a->agg.requested_load = requested;
    a->agg.ops_x100 = a->ops_sum;
    a->agg.resp_x100 = a->resp_sum / n;
    a->agg.runtime_s = (a->time_sum + n / 2) / n;
    a->agg.span_ns = span_ns;
    if (span_ns > 0) {
        a->agg.ops_x100 = (uint64_t)((double)a->merged.op[NF_OP_TOTAL].good * 100.0 *
                                     1e9 / (double)span_ns);
        a->agg.runtime_s = (span_ns + 500000000ull) / 1000000000ull;
    }
    for (op = 0; op <= NF_NOPS; op++) {
        a->agg.actual_pct[op] /= n;
        a->agg.pct_time[op] /= n;
        a->agg.mean_ms[op] = a->n_mean[op] ? a->sum_mean[op] / a->n_mean[op] : 0;
    }
}

/* One sfssum line, its response time with decimals decimals. */
static int sum_line(const struct pr_sum *s, int decimals, char *buf, size_t len)
{
    return snprintf(buf, len,
                    "%7s%7" PRIu64 " %7.0f %7.*f %8" PRIu64 " %4" PRIu64
                    " %1d %c %10" PRIu64 " %3u %2u %2u %2u %s\n",
                    s->invalid ? "INVALID" : "", s->requested, s->ops, decimals, s->resp,
                    s->total_ops, s->time_s, s->nfs_version, s->tcp ? 'T' : 'U',
                    s->fileset_kb, s->clients, s->procs, s->biod_reads, s->biod_writes,
                    "3.0");
}

int pr_sfssum_format(const struct pr_sum *s, char *buf, size_t len)
{
    return sum_line(s, 1, buf, len);
}

int pr_summary_format(const struct pr_sum *s, char *buf, size_t len)
{
    return sum_line(s, ld_ms_decimals(s->resp), buf, len);
}

const char *pr_summary_header(void)
{
    return "          Load   Ops/s    Msec      Ops  Sec V P  FileSetKB Cli Pr BR BW "
           "Ver\n";
}
