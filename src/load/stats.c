/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - per-op result blocks (sfs-reference §4, §11): the hot-path
 * updates, the merge of children, SFS's mean / variance / CI formulas, the
 * histograms (common/hist.h) behind p50/p99, and one codec that both encodes and
 * decodes the fixed-size wire form (one field list, so the two directions
 * cannot drift apart).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/cm.h"
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

/* ---- one field list for merge and wire --------------------------------------- */

/* Visits every numeric field of s: u64 fields, doubles and the u32
 * histogram cells.  The visitor decides what to do (merge, encode, decode). */
struct visit {
    void (*u64)(struct visit *v, uint64_t *a, const uint64_t *b);
    void (*max64)(struct visit *v, uint64_t *a, const uint64_t *b); /* merge: max */
    void (*dbl)(struct visit *v, double *a, const double *b);
    void (*u32)(struct visit *v, uint32_t *a, const uint32_t *b);
    unsigned char *buf; /* codec cursor */
    const unsigned char *in;
    size_t len; /* bytes counted by the len* visitors */
};

static void visit_hist(struct visit *v, struct cm_hist *a, const struct cm_hist *b)
{
    unsigned i;

    for (i = 0; i < CM_HIST_NB; i++)
        v->u32(v, &a->n[i], &b->n[i]);
    v->u64(v, &a->count, &b->count);
}

static void visit_all(struct visit *v, struct ld_stats *a, const struct ld_stats *b)
{
    int op;

    for (op = 0; op <= NF_NOPS; op++) {
        struct ld_opstat *x = &a->op[op];
        const struct ld_opstat *y = &b->op[op];

        v->u64(v, &x->good, &y->good);
        v->u64(v, &x->bad, &y->bad);
        v->u64(v, &x->fast, &y->fast);
        v->u64(v, &x->nfs_errors, &y->nfs_errors);
        v->u64(v, &x->no_calls, &y->no_calls);
        v->u64(v, &x->unexpected, &y->unexpected);
        v->u64(v, &x->late, &y->late);
        v->u64(v, &x->retrans, &y->retrans);
        v->u64(v, &x->requests, &y->requests);
        v->u64(v, &x->nofit, &y->nofit);
        v->u64(v, &x->sum_us, &y->sum_us);
        v->dbl(v, &x->sum_ms, &y->sum_ms);
        v->dbl(v, &x->sumsq_ms, &y->sumsq_ms);
        visit_hist(v, &x->hist, &y->hist);
    }
    visit_hist(v, &a->lag, &b->lag);
    v->dbl(v, &a->lag_sum_ms, &b->lag_sum_ms);
    v->u64(v, &a->late_requests, &b->late_requests);
    v->u64(v, &a->nofit, &b->nofit);
    v->u64(v, &a->truncates, &b->truncates);
    v->u64(v, &a->appends, &b->appends);
    v->u64(v, &a->carry_resets, &b->carry_resets);
    v->u64(v, &a->zero_intervals, &b->zero_intervals);
    v->u64(v, &a->runtime_ns, &b->runtime_ns);
    v->u32(v, &a->nchildren, &b->nchildren);
    v->u64(v, &a->total_kb, &b->total_kb);
    v->u64(v, &a->base_kb, &b->base_kb);
    v->u64(v, &a->least_kb, &b->least_kb);
    v->u64(v, &a->most_kb, &b->most_kb);
    v->u64(v, &a->io_files, &b->io_files);
    v->u64(v, &a->working_files, &b->working_files);
    v->u64(v, &a->nonio_files, &b->nonio_files);
    v->u64(v, &a->symlinks, &b->symlinks);
    v->u64(v, &a->dirs, &b->dirs);
    v->u64(v, &a->catchup_skips, &b->catchup_skips);
    v->u64(v, &a->ahead_sleeps, &b->ahead_sleeps);
    v->u64(v, &a->behind_ns, &b->behind_ns);
    v->u64(v, &a->dropped_ns, &b->dropped_ns);
    v->max64(v, &a->max_lag_ns, &b->max_lag_ns);
    v->dbl(v, &a->lag_calls_ms, &b->lag_calls_ms);
    v->max64(v, &a->late_threshold_us, &b->late_threshold_us);
    for (op = 0; op < LD_NSTATUS; op++)
        v->u64(v, &a->err_status[op], &b->err_status[op]);
    v->u64(v, &a->reconnects, &b->reconnects);
    v->u64(v, &a->stale, &b->stale);
    v->max64(v, &a->ended_early, &b->ended_early);
    v->u64(v, &a->replay_records, &b->replay_records);
    v->u64(v, &a->replay_calls, &b->replay_calls);
    v->u64(v, &a->replay_skipped, &b->replay_skipped);
    v->u64(v, &a->replay_behind, &b->replay_behind);
    v->u64(v, &a->replay_bytes_read, &b->replay_bytes_read);
    v->u64(v, &a->replay_bytes_written, &b->replay_bytes_written);
    v->max64(v, &a->replay_run_ns, &b->replay_run_ns);
    v->max64(v, &a->replay_trace_ns, &b->replay_trace_ns);
    v->max64(v, &a->replay_trace_records, &b->replay_trace_records);
    v->u64(v, &a->replay_cut, &b->replay_cut);
    visit_hist(v, &a->replay_late, &b->replay_late);
    v->max64(v, &a->replay_late.max_us, &b->replay_late.max_us);
}

static void add64(struct visit *v, uint64_t *a, const uint64_t *b)
{
    (void)v;
    *a += *b;
}
static void max64(struct visit *v, uint64_t *a, const uint64_t *b)
{
    (void)v;
    if (*b > *a)
        *a = *b;
}
static void addd(struct visit *v, double *a, const double *b)
{
    (void)v;
    *a += *b;
}
static void add32(struct visit *v, uint32_t *a, const uint32_t *b)
{
    (void)v;
    *a += *b;
}

void ld_stats_merge(struct ld_stats *dst, const struct ld_stats *src)
{
    struct visit v = {add64, max64, addd, add32, NULL, NULL, 0};
    int op;

    for (op = 0; op <= NF_NOPS; op++)
        if (src->op[op].hist.max_us > dst->op[op].hist.max_us)
            dst->op[op].hist.max_us = src->op[op].hist.max_us;
    if (src->lag.max_us > dst->lag.max_us)
        dst->lag.max_us = src->lag.max_us;
    visit_all(&v, dst, src);
}

/* ---- wire form ------------------------------------------------------------- */

#define WIRE_MAGIC   0x4c445354u /* "LDST" */
#define WIRE_VERSION 4u

static void put64(struct visit *v, uint64_t *a, const uint64_t *b)
{
    int i;

    (void)a;
    for (i = 7; i >= 0; i--)
        *v->buf++ = (unsigned char)(*b >> (i * 8));
}
static void putd(struct visit *v, double *a, const double *b)
{
    uint64_t bits;

    memcpy(&bits, b, sizeof(bits));
    put64(v, NULL, &bits);
    (void)a;
}
static void put32(struct visit *v, uint32_t *a, const uint32_t *b)
{
    uint64_t x = *b;
    int i;

    (void)a;
    for (i = 3; i >= 0; i--)
        *v->buf++ = (unsigned char)(x >> (i * 8));
}
static void get64(struct visit *v, uint64_t *a, const uint64_t *b)
{
    uint64_t x = 0;
    int i;

    (void)b;
    for (i = 0; i < 8; i++)
        x = x << 8 | *v->in++;
    *a = x;
}
static void getd(struct visit *v, double *a, const double *b)
{
    uint64_t bits;

    get64(v, &bits, NULL);
    memcpy(a, &bits, sizeof(bits));
    (void)b;
}
static void get32(struct visit *v, uint32_t *a, const uint32_t *b)
{
    uint32_t x = 0;
    int i;

    (void)b;
    for (i = 0; i < 4; i++)
        x = x << 8 | *v->in++;
    *a = x;
}

/* Counts the bytes a full visit writes. */
static void len64(struct visit *v, uint64_t *a, const uint64_t *b)
{
    (void)a, (void)b;
    v->len += 8;
}
static void lend(struct visit *v, double *a, const double *b)
{
    (void)a, (void)b;
    v->len += 8;
}
static void len32(struct visit *v, uint32_t *a, const uint32_t *b)
{
    (void)a, (void)b;
    v->len += 4;
}

/* Header: magic, version, then the max_us fields the visitor skips. */
#define HDR_BYTES (8 + 8 * (NF_NOPS + 2))

size_t ld_stats_wire_bytes(void)
{
    static struct ld_stats dummy; /* only addresses are taken */
    struct visit v = {len64, len64, lend, len32, NULL, NULL, 0};

    visit_all(&v, &dummy, &dummy);
    return HDR_BYTES + v.len;
}

void ld_stats_encode(const struct ld_stats *s, unsigned char *buf)
{
    struct visit v = {put64, put64, putd, put32, buf, NULL, 0};
    uint64_t hdr = (uint64_t)WIRE_MAGIC << 32 | WIRE_VERSION;
    int op;

    put64(&v, NULL, &hdr);
    for (op = 0; op <= NF_NOPS; op++)
        put64(&v, NULL, &s->op[op].hist.max_us);
    put64(&v, NULL, &s->lag.max_us);
    /* the visitor only reads b; a is unused by put* */
    visit_all(&v, (struct ld_stats *)s, s);
}

int ld_stats_decode(struct ld_stats *s, const unsigned char *buf, size_t len)
{
    struct visit v = {get64, get64, getd, get32, NULL, buf, 0};
    uint64_t hdr;
    int op;

    if (len < ld_stats_wire_bytes())
        return -EPROTO;
    get64(&v, &hdr, NULL);
    if (hdr != ((uint64_t)WIRE_MAGIC << 32 | WIRE_VERSION))
        return -EPROTO;
    memset(s, 0, sizeof(*s));
    for (op = 0; op <= NF_NOPS; op++)
        get64(&v, &s->op[op].hist.max_us, NULL);
    get64(&v, &s->lag.max_us, NULL);
    visit_all(&v, s, s);
    return 0;
}

/* ---- §11 math ---------------------------------------------------------------- */

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
