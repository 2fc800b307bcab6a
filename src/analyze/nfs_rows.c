/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_rows.c - one procedure's (or NFSv4 operation's, or COMPOUND
 * shape's) figures: a reply's response time added, an error's (row,
 * status) pair counted, and the row in the text table and as a YAML map,
 * shared by the NFSv2/v3 statistics and report (nfs_stats.c,
 * nfs_report.c) and the NFSv4 ones (nfs4_stats.c, nfs4_report.c):
 * calls, replies, errors, unanswered, retransmitted, bytes and the
 * response time in milliseconds (mean, minimum and maximum exact, the
 * percentiles from common/hist.c within its resolution).
 */
#include <inttypes.h>

#include "analyze/az_nfs.h"
#include "common/yaml.h"

static double ms(int64_t ns)
{
    return (double)ns / 1e6;
}

double az__nfs_quantile_ms(const struct cm_hist *h, double q, int64_t min_ns,
                           int64_t max_ns)
{
    double v = cm_hist_quantile_ms(h, q);

    if (v < ms(min_ns))
        v = ms(min_ns);
    if (v > ms(max_ns))
        v = ms(max_ns);
    return v;
}

static double rt_quantile_ms(const struct az_nfs_proc *p, double q)
{
    return az__nfs_quantile_ms(&p->rt, q, p->rt_min_ns, p->rt_max_ns);
}

void az__nfs_proc_reply(struct az_nfs_proc *p, int64_t rt_ns)
{
    if (rt_ns < 0)
        rt_ns = 0;
    p->replies++;
    p->rt_sum_ns += rt_ns;
    if (rt_ns < p->rt_min_ns)
        p->rt_min_ns = rt_ns;
    if (rt_ns > p->rt_max_ns)
        p->rt_max_ns = rt_ns;
    cm_hist_add(&p->rt, (uint64_t)(rt_ns + 500) / 1000);
}

void az__nfs_err_count(struct az_nfs_err *err, uint32_t *nerr, uint64_t *other,
                       uint32_t row, uint32_t status)
{
    uint32_t i;

    for (i = 0; i < *nerr; i++)
        if (err[i].row == row && err[i].status == status) {
            err[i].n++;
            return;
        }
    if (*nerr == AZ_NFS_ERR_PAIRS) {
        (*other)++;
        return;
    }
    err[(*nerr)++] = (struct az_nfs_err){row, status, 1};
}

void az__nfs_proc_row(FILE *out, int width, const char *name, const struct az_nfs_proc *p)
{
    fprintf(out,
            "%-*s %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
            " %14" PRIu64,
            width, name, p->calls, p->replies, p->errors + p->rpc_errors, p->unanswered,
            p->retransmitted, p->bytes);
    if (p->replies)
        fprintf(out, " %9.3f %9.3f %9.3f %9.3f %9.3f\n",
                ms(p->rt_sum_ns) / (double)p->replies, ms(p->rt_min_ns),
                rt_quantile_ms(p, 0.5), rt_quantile_ms(p, 0.99), ms(p->rt_max_ns));
    else
        fprintf(out, " %9s %9s %9s %9s %9s\n", "-", "-", "-", "-", "-");
}

void az__nfs_proc_header(FILE *out, int width, const char *what)
{
    fprintf(out, "\n%-*s %10s %10s %8s %8s %8s %14s %9s %9s %9s %9s %9s\n", width, what,
            "calls", "replies", "errors", "unansw", "retrans", "bytes", "mean_ms",
            "min_ms", "p50_ms", "p99_ms", "max_ms");
}

void az__nfs_proc_yaml(struct cm_yaml *y, const char *name, const struct az_nfs_proc *p,
                       double share)
{
    cm_yaml_str(y, name); /* quoted: "null" is a procedure, not a null */
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "calls", p->calls);
    if (share >= 0)
        cm_yaml_kv_double(y, "share_pct", share, 3);
    cm_yaml_kv_uint(y, "replies", p->replies);
    cm_yaml_kv_uint(y, "errors", p->errors);
    cm_yaml_kv_uint(y, "rpc_errors", p->rpc_errors);
    cm_yaml_kv_uint(y, "unanswered", p->unanswered);
    cm_yaml_kv_uint(y, "retransmitted", p->retransmitted);
    cm_yaml_kv_uint(y, "bytes", p->bytes);
    cm_yaml_key(y, "response_ms");
    if (!p->replies) {
        cm_yaml_null(y);
    } else {
        cm_yaml_map_begin(y);
        cm_yaml_kv_double(y, "mean", ms(p->rt_sum_ns) / (double)p->replies, 6);
        cm_yaml_kv_double(y, "min", ms(p->rt_min_ns), 6);
        cm_yaml_kv_double(y, "p50", rt_quantile_ms(p, 0.5), 6);
        cm_yaml_kv_double(y, "p99", rt_quantile_ms(p, 0.99), 6);
        cm_yaml_kv_double(y, "max", ms(p->rt_max_ns), 6);
        cm_yaml_kv_double(y, "sum", ms(p->rt_sum_ns), 6);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
}
