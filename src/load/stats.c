/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - per-op result blocks (docs/SFS30.md §4, §11): the hot-path
 * updates, the merge of children, SFS's mean / variance / CI formulas, the
 * histograms (common/hist.h) behind p50/p99; the merge, the fixed-size wire
 * form and the YAML keys of the counters all come from one field table
 * (common/fields.h), so none of them can leave a counter out.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/bytes.h"
#include "common/cm.h"
#include "common/fields.h"
#include "load/stats.h"
#include "nfs/nf.h"

/* ---- updates ------------------------------------------------------------- */

void ld_stats_reset(struct ld_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->nchildren = 1;
}

static void good_one(struct ld_opstat *o, uint64_t elapsed_ns, int nfs_error)
{
    double ms = (double)elapsed_ns / 1e6;
    uint64_t us = elapsed_ns / 1000;

    o->good++;
    /* SFS's clock had microseconds: a call under 1 us measured 0, "fast" */
    if (us == 0)
        o->fast++;
    if (nfs_error)
        o->nfs_errors++;
    o->sum_us += us;
    o->sum_ms += ms;
    o->sumsq_ms += ms * ms;
    cm_hist_add(&o->hist, us);
}

void ld_stats_good(struct ld_stats *s, int op, uint64_t elapsed_ns, int nfs_error)
{
    if (op >= 0 && op < NF_NOPS)
        good_one(&s->op[op], elapsed_ns, nfs_error);
    good_one(&s->op[NF_OP_TOTAL], elapsed_ns, nfs_error);
}

void ld_stats_bad(struct ld_stats *s, int op)
{
    if (op >= 0 && op < NF_NOPS)
        s->op[op].bad++;
    s->op[NF_OP_TOTAL].bad++;
}

void ld_stats_count(struct ld_stats *s, int op, size_t field)
{
    if (op >= 0 && op < NF_NOPS)
        (*(uint64_t *)((char *)&s->op[op] + field))++;
    (*(uint64_t *)((char *)&s->op[NF_OP_TOTAL] + field))++;
}

static const uint32_t status_of_slot[] = {
#define LD_STATUS_NUM(sym, num, err) num,
    NF_STATUS_MAP(LD_STATUS_NUM)
#undef LD_STATUS_NUM
};

unsigned ld_stats_status_slot(uint32_t nfs_status)
{
    unsigned i;

    for (i = 0; i < CM_ARRAY_LEN(status_of_slot) && i < LD_NSTATUS - 1; i++)
        if (status_of_slot[i] == nfs_status)
            return i;
    return LD_NSTATUS - 1;
}

uint32_t ld_stats_slot_status(unsigned slot)
{
    return slot < CM_ARRAY_LEN(status_of_slot) && slot < LD_NSTATUS - 1
               ? status_of_slot[slot]
               : UINT32_MAX;
}

void ld_stats_unexpected(struct ld_stats *s, int op, uint32_t nfs_status)
{
    LD_STATS_COUNT(s, op, unexpected);
    s->err_status[ld_stats_status_slot(nfs_status)]++;
}

void ld_stats_lag(struct ld_stats *s, uint64_t lag_ns)
{
    cm_hist_add(&s->lag, lag_ns / 1000);
    s->lag_sum_ms += (double)lag_ns / 1e6;
    if (lag_ns / 1000 > s->late_threshold_us)
        s->late_requests++;
}

/* ---- the one description of the counters --------------------------------- */

#define OPF(m, type, merge, group, key)                                                  \
    CM_FIELD_OF(struct ld_opstat, m, CM_FIELD_##type, CM_MERGE_##merge, group, key)
#define STF(m, type, merge, group, key)                                                  \
    CM_FIELD_OF(struct ld_stats, m, CM_FIELD_##type, CM_MERGE_##merge, group, key)

/* One op's counters.  Groups: where the YAML's per-op entries print them
 * (report's yaml.c), in this order. */
static const struct cm_field opstat_fields[] = {
    OPF(good, U64, SUM, "ops.counts", "good"),
    OPF(bad, U64, SUM, "ops.counts", "bad"),
    OPF(nfs_errors, U64, SUM, "ops.counts", "nfs_errors"),
    OPF(fast, U64, SUM, "ops.counts", "fast"),
    OPF(no_calls, U64, SUM, "ops.counts", "no_calls"),
    OPF(unexpected, U64, SUM, "ops.calls", "unexpected_nfs_errors"),
    OPF(late, U64, SUM, "ops.calls", "late"),
    OPF(retrans, U64, SUM, "ops.calls", "retransmitted"),
    OPF(jukebox, U64, SUM, "ops.calls", "jukebox_retries"),
    OPF(requests, U64, SUM, "ops.calls", "requests"),
    OPF(nofit, U64, SUM, "ops.nofit", "nofit"),
    OPF(sum_us, U64, SUM, NULL, NULL),
    OPF(sum_ms, DOUBLE, SUM, NULL, NULL),
    OPF(sumsq_ms, DOUBLE, SUM, NULL, NULL),
    OPF(hist, HIST, SUM, NULL, NULL),
};

/* A child's, a client's or an aggregate's results: every counter, how two
 * merge (a sum, or the larger for the most any process saw), and the YAML
 * key and group of those the results print as they are. */
static const struct cm_field stats_fields[] = {
    CM_FIELD_TABLE_OF(struct ld_stats, op, NF_NOPS + 1, opstat_fields),
    /* the file set (docs/SFS30.md §5.2): per-child values the parent and prime add */
    STF(io_files, U64, SUM, "file_set", "io_files"),
    STF(working_files, U64, SUM, "file_set", "working_io_files"),
    STF(nonio_files, U64, SUM, "file_set", "nonio_files"),
    STF(symlinks, U64, SUM, "file_set", "symlinks"),
    STF(dirs, U64, SUM, "file_set", "directories"),
    STF(total_kb, U64, SUM, "file_set", "created_kb"),
    STF(base_kb, U64, SUM, "file_set", "base_kb"),
    STF(least_kb, U64, SUM, "file_set", "accessed_least_kb"),
    STF(most_kb, U64, SUM, "file_set", "accessed_most_kb"),
    STF(nofit, U64, SUM, "file_set", "nofit"),
    STF(truncates, U64, SUM, "file_set", "truncates"),
    STF(appends, U64, SUM, "file_set", "appends"),
    /* pacing (the pacer's counters) */
    STF(carry_resets, U64, SUM, "pacing", "carry_resets"),
    STF(zero_intervals, U64, SUM, "pacing", "zero_call_intervals"),
    STF(catchup_skips, U64, SUM, "pacing", "catchup_skipped_sleeps"),
    STF(ahead_sleeps, U64, SUM, "pacing", "ahead_lengthened_sleeps"),
    STF(behind_ns, U64, SUM, NULL, NULL),
    STF(dropped_ns, U64, SUM, NULL, NULL),
    STF(max_lag_ns, U64, MAX, NULL, NULL),
    /* open-loop issue lag (D7) */
    STF(lag, HIST, SUM, NULL, NULL),
    STF(lag_sum_ms, DOUBLE, SUM, NULL, NULL),
    STF(late_requests, U64, SUM, "issue_lag", "late_requests"),
    STF(lag_calls_ms, DOUBLE, SUM, NULL, NULL),
    STF(late_threshold_us, U64, MAX, NULL, NULL),
    /* the run */
    STF(runtime_ns, U64, SUM, NULL, NULL),
    STF(run_start_ns, U64, MIN, NULL, NULL),
    STF(run_end_ns, U64, MAX, NULL, NULL),
    STF(nchildren, U32, SUM, "results.run", "children"),
    STF(run_cpu_us, U64, SUM, "results.run", "client_cpu_us"),
    CM_FIELD_ARRAY(struct ld_stats, err_status, CM_FIELD_U64, CM_MERGE_SUM, LD_NSTATUS),
    STF(stale, U64, SUM, "results", "stale_replies"),
    STF(reconnects, U64, SUM, "results", "tcp_reconnections"),
    STF(ended_early, U64, MAX, NULL, NULL),
};

const struct cm_field *ld_stats_fields(size_t *n)
{
    *n = CM_ARRAY_LEN(stats_fields);
    return stats_fields;
}

const struct cm_field *ld_opstat_fields(size_t *n)
{
    *n = CM_ARRAY_LEN(opstat_fields);
    return opstat_fields;
}

void ld_stats_merge(struct ld_stats *dst, const struct ld_stats *src)
{
    cm_fields_merge(stats_fields, CM_ARRAY_LEN(stats_fields), dst, src);
}

void ld_wstats_merge(const struct ld_wstats *w, void *dst, const void *src)
{
    if (w && w->size)
        cm_fields_merge(w->fields, w->n, dst, src);
}

/* ---- wire form ------------------------------------------------------------- */

/* 13: the protocol's counters after the workload's (in the block);
 * 12: run_cpu_us; 11: compact, the workload's counters after these */
#define WIRE_MAGIC   0x4c445354u /* "LDST" */
#define WIRE_VERSION 13u
#define HDR_BYTES    8u

static int has_block(const struct ld_wstats *w)
{
    return w && w->size > 0;
}

size_t ld_stats_wire_max(const struct ld_wstats *w)
{
    return HDR_BYTES + cm_fields_wire_max(stats_fields, CM_ARRAY_LEN(stats_fields)) +
           (has_block(w) ? cm_fields_wire_max(w->fields, w->n) : 0);
}

size_t ld_stats_encode(const struct ld_stats *s, const struct ld_wstats *w,
                       const void *wblock, unsigned char *buf)
{
    uint8_t *p;

    cm_be32_put(buf, WIRE_MAGIC);
    cm_be32_put(buf + 4, WIRE_VERSION);
    p = cm_fields_put(stats_fields, CM_ARRAY_LEN(stats_fields), s, buf + HDR_BYTES);
    if (has_block(w))
        p = cm_fields_put(w->fields, w->n, wblock, p);
    return (size_t)(p - buf);
}

int ld_stats_decode(struct ld_stats *s, const struct ld_wstats *w, void *wblock,
                    const unsigned char *buf, size_t len, size_t *used)
{
    const uint8_t *p, *end = buf + len;

    if (len < HDR_BYTES || cm_be32_get(buf) != WIRE_MAGIC ||
        cm_be32_get(buf + 4) != WIRE_VERSION)
        return -EPROTO;
    memset(s, 0, sizeof(*s));
    p = cm_fields_get(stats_fields, CM_ARRAY_LEN(stats_fields), s, buf + HDR_BYTES, end);
    if (p && has_block(w)) {
        memset(wblock, 0, w->size);
        p = cm_fields_get(w->fields, w->n, wblock, p, end);
    }
    if (p == NULL)
        return -EPROTO;
    if (used)
        *used = (size_t)(p - buf);
    return 0;
}

/* ---- docs/SFS30.md §11 math
 * ---------------------------------------------------------------- */

double ld_stats_mean_ms(const struct ld_opstat *o)
{
    return o->good ? o->sum_ms / (double)o->good : 0;
}

double ld_stats_variance(const struct ld_opstat *o)
{
    double n = (double)o->good, v;

    if (o->good <= 1)
        return 0;
    v = (o->sumsq_ms - o->sum_ms * o->sum_ms / n) / (n - 1);
    return v > 0 ? v : 0;
}

double ld_stats_stddev(const struct ld_opstat *o)
{
    return sqrt(ld_stats_variance(o));
}

double ld_stats_ci(const struct ld_opstat *o)
{
    if (o->good == 0)
        return 0;
    /* sic: stddev, not variance, under the root, as SFS prints it */
    return sqrt(3.84 * ld_stats_stddev(o) / (double)o->good);
}
