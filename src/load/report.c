/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the numbers of the client report (report.h): every figure
 * shown is computed once per op by ld_report_op_figures(), which the text
 * (text.c), the YAML (yaml.c), the validity rules (validity.c) and the
 * prime's aggregate all use, so they can never disagree.
 *
 * Deviations (documented in the YAML as well):
 *  - throughput divides by the run's span in nanoseconds - from the first
 *    child's start to the last child's end, on the client's clock - rather
 *    than by the children's mean run time in whole seconds: children whose
 *    windows are shifted against each other (one woke late to RUN, or its
 *    last request ended after the others') each count the server's calls
 *    over their own window, and the mean of those windows credited the
 *    server with calls it never answered in it (docs/SFS30.md §11); the
 *    mean stays the fallback when the span is not known; TEST TIME prints
 *    the span in whole seconds;
 *  - the table's Success and Error counts leave out / add the NFS errors the
 *    workload did not expect (SFS counted every NFS error as a success).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/opt.h"
#include "load/ld_int.h"
#include "load/options.h"
#include "load/report.h"
#include "nfs/nf.h"

/* ---- figures ------------------------------------------------------------- */

unsigned ld_report_requested_ops(const struct ld_report_ops *r, unsigned load)
{
    return r->flags & LD_REPORT_LOAD ? load : 0;
}

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
    if (in->agg) { /* docs/SFS30.md §11: SFS averages these over the clients */
        f->actual = op < NF_NOPS ? in->agg->actual_pct[op] : 100.0;
        f->mean = in->agg->mean_ms[op];
        f->pct_time = in->agg->pct_time[op];
    }
}

uint64_t ld__runtime_ns(const struct ld_report_in *in)
{
    const struct ld_stats *s = in->stats;
    uint32_t n = s->nchildren ? s->nchildren : 1;
    uint64_t ns;

    if (in->agg) /* the prime's: the clients' clocks cannot be compared */
        return in->agg->span_ns ? in->agg->span_ns : s->runtime_ns / n;
    ns = in->work && in->work->duration_ns ? in->work->duration_ns(in) : 0;
    if (ns)
        return ns;
    if (s->run_start_ns && s->run_end_ns > s->run_start_ns)
        return s->run_end_ns - s->run_start_ns;
    return s->runtime_ns / n;
}

uint64_t ld_report_runtime_s(const struct ld_report_in *in)
{
    if (in->agg)
        return in->agg->runtime_s;
    return (ld__runtime_ns(in) + 500000000ull) / 1000000000ull;
}

uint64_t ld_report_ops_x100(const struct ld_report_in *in)
{
    uint64_t ns = ld__runtime_ns(in);
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
