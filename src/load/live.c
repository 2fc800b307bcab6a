/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.c - the live counters behind the progress lines (live.h): the hot
 * path's update, the field table that merges, subtracts and encodes them,
 * the area a parent shares with its children, and the line itself.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "common/bytes.h"
#include "common/clock.h"
#include "common/cm.h"
#include "load/live.h"
#include "load/workload.h"

#define LIVE_MAGIC   0x4c444c56u /* "LDLV" */
#define LIVE_VERSION 3u          /* 3: the compact wire form */
#define READ_TRIES   8

#define LV(m, merge) CM_FIELD_OF(struct ld_live, m, CM_FIELD_U64, merge, NULL, #m)
static const struct cm_field live_fields[] = {
    LV(good, CM_MERGE_SUM),
    LV(bad, CM_MERGE_SUM),
    LV(sum_us, CM_MERGE_SUM),
    LV(behind_ns, CM_MERGE_MAX),
    LV(done, CM_MERGE_SUM),
    LV(total, CM_MERGE_MAX),
    LV(waits, CM_MERGE_SUM),
    LV(late_us, CM_MERGE_MAX),
    LV(at_ms, CM_MERGE_MAX),
    LV(first_ms, CM_MERGE_MIN),
    CM_FIELD_OF(struct ld_live, hist, CM_FIELD_HIST, CM_MERGE_SUM, NULL, "hist"),
};

void ld_live_reset(struct ld_live *l)
{
    memset(l, 0, sizeof(*l));
}

void ld_live_call(struct ld_live *l, uint64_t elapsed_ns, int good)
{
    if (!good) {
        l->bad++;
        return;
    }
    l->good++;
    l->sum_us += elapsed_ns / 1000;
    cm_hist_add(&l->hist, elapsed_ns / 1000);
}

void ld_live_merge(struct ld_live *dst, const struct ld_live *src)
{
    cm_fields_merge(live_fields, CM_ARRAY_LEN(live_fields), dst, src);
}

void ld_live_diff(struct ld_live *dst, const struct ld_live *now,
                  const struct ld_live *before)
{
    cm_fields_diff(live_fields, CM_ARRAY_LEN(live_fields), dst, now, before);
}

size_t ld_live_wire_max(void)
{
    return 8 + cm_fields_wire_max(live_fields, CM_ARRAY_LEN(live_fields));
}

size_t ld_live_encode(const struct ld_live *l, unsigned char *buf)
{
    cm_be32_put(buf, LIVE_MAGIC);
    cm_be32_put(buf + 4, LIVE_VERSION);
    return (size_t)(cm_fields_put(live_fields, CM_ARRAY_LEN(live_fields), l, buf + 8) -
                    buf);
}

int ld_live_decode(struct ld_live *l, const unsigned char *buf, size_t len)
{
    if (len < 8 || cm_be32_get(buf) != LIVE_MAGIC || cm_be32_get(buf + 4) != LIVE_VERSION)
        return -EPROTO;
    ld_live_reset(l);
    if (cm_fields_get(live_fields, CM_ARRAY_LEN(live_fields), l, buf + 8, buf + len) ==
        NULL)
        return -EPROTO;
    return 0;
}

/* ---- the shared area --------------------------------------------------------------- */

struct ld_live_slot {
    atomic_uint_fast64_t seq; /* odd while the child writes */
    struct ld_live v;
    /* the parent's: the last whole reading of v, and its calls and time
     * as each reader last saw them */
    struct ld_live last_read;
    uint64_t seen_calls[LD_LIVE_READERS], seen_at_ms[LD_LIVE_READERS];
};

struct ld_live_area {
    unsigned n;
    size_t bytes;
    uint64_t read_ms[LD_LIVE_READERS]; /* each reader's last reading (cm_now_ms) */
    struct ld_live_slot slot[];
};

struct ld_live_area *ld_live_map(unsigned n)
{
    size_t bytes = sizeof(struct ld_live_area) + (size_t)n * sizeof(struct ld_live_slot);
    struct ld_live_area *a;
    unsigned k;

    a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        return NULL;
    a->n = n;
    a->bytes = bytes;
    for (k = 0; k < n; k++)
        atomic_init(&a->slot[k].seq, 0);
    return a;
}

void ld_live_unmap(struct ld_live_area *a)
{
    if (a)
        munmap(a, a->bytes);
}

void ld_live_publish(struct ld_live_area *a, unsigned k, const struct ld_live *l)
{
    struct ld_live_slot *s;

    if (a == NULL || k >= a->n)
        return;
    s = &a->slot[k];
    atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    memcpy(&s->v, l, sizeof(*l));
    atomic_fetch_add_explicit(&s->seq, 1, memory_order_release);
}

/* One slot read whole: 0, or -EAGAIN when the child kept writing. */
static int read_slot(const struct ld_live_slot *s, struct ld_live *out)
{
    int i;

    for (i = 0; i < READ_TRIES; i++) {
        uint_fast64_t before = atomic_load_explicit(&s->seq, memory_order_acquire), after;

        if (before & 1u)
            continue;
        memcpy(out, &s->v, sizeof(*out));
        atomic_thread_fence(memory_order_acquire);
        after = atomic_load_explicit(&s->seq, memory_order_relaxed);
        if (after == before)
            return 0;
    }
    return -EAGAIN;
}

void ld_live_sum(struct ld_live_area *a, struct ld_live *out)
{
    struct ld_live one;
    unsigned k;

    ld_live_reset(out);
    for (k = 0; a && k < a->n; k++) {
        struct ld_live_slot *s = &a->slot[k];

        if (read_slot(s, &one) == 0) /* else the last whole one stands */
            s->last_read = one;
        ld_live_merge(out, &s->last_read);
    }
}

void ld_live_sum_since(struct ld_live_area *a, unsigned reader, struct ld_live *out)
{
    uint64_t now = cm_now_ms(), from = 0;
    unsigned k;

    ld_live_sum(a, out);
    if (a == NULL || reader >= LD_LIVE_READERS)
        return;
    for (k = 0; k < a->n; k++) {
        struct ld_live_slot *s = &a->slot[k];
        uint64_t calls = s->last_read.good + s->last_read.bad;
        /* a child first seen publishing: its calls since the last reading
         * at most (the phase's first interval) */
        uint64_t since =
            s->seen_at_ms[reader] ? s->seen_at_ms[reader] : a->read_ms[reader];

        if (calls > s->seen_calls[reader] && since && (from == 0 || since < from))
            from = since;
        s->seen_calls[reader] = calls;
        s->seen_at_ms[reader] = s->last_read.at_ms;
    }
    a->read_ms[reader] = now;
    out->first_ms = from;
}

double ld_live_rate(const struct ld_live *now, const struct ld_live *before,
                    uint64_t from_ms)
{
    /* the answered calls: a failed one is no throughput (the line's bad
     * count says it), or a dead server's refusals read as the load */
    uint64_t calls = now->good, was = before->good;

    if (calls <= was || from_ms == 0 || now->at_ms <= from_ms)
        return 0;
    return (double)(calls - was) * 1000.0 / (double)(now->at_ms - from_ms);
}

/* ---- the line -------------------------------------------------------------- */

int ld_ms_decimals(double ms)
{
    return ms < 9.995 ? 2 : 1;
}

/* The line's fields, in order, each with how much it matters (0 most):
 * what a line may drop to fit a terminal.  A zero count or delay matters
 * least. */
#define FIELDS    8
#define FIELD_MAX 160
struct field {
    char text[FIELD_MAX];
    int rank;
};

static int fields(const struct ld_workload_ops *wl, const struct ld_live_view *v,
                  struct field *f)
{
    const struct ld_live *d = v->last;
    double mean = d->good ? (double)d->sum_us / 1000.0 / (double)d->good : 0;
    double p99 = cm_hist_quantile_ms(&d->hist, 0.99);
    double behind = (double)v->sum->behind_ns / 1e9;
    int n = 0;

    if (v->total_s > 0)
        snprintf(f[n].text, FIELD_MAX, "%s %.0f/%u s:", v->phase, v->elapsed_s,
                 v->total_s);
    else
        snprintf(f[n].text, FIELD_MAX, "%s %.0f s:", v->phase, v->elapsed_s);
    f[n++].rank = 0;
    if (v->requested > 0)
        snprintf(f[n].text, FIELD_MAX, " %.1f of %.0f ops/s", v->rate, v->requested);
    else
        snprintf(f[n].text, FIELD_MAX, " %.1f ops/s", v->rate);
    f[n++].rank = 0;
    snprintf(f[n].text, FIELD_MAX, ", mean %.*f ms", ld_ms_decimals(mean), mean);
    f[n++].rank = 1;
    snprintf(f[n].text, FIELD_MAX, ", p99 %.*f ms", ld_ms_decimals(p99), p99);
    f[n++].rank = 2;
    snprintf(f[n].text, FIELD_MAX, ", bad %llu", (unsigned long long)v->sum->bad);
    f[n++].rank = v->sum->bad ? 1 : 6;
    snprintf(f[n].text, FIELD_MAX, ", behind %.1f s", behind);
    f[n++].rank = behind >= 0.05 ? 3 : 7;
    if (wl && wl->progress) {
        f[n].text[0] = ';';
        f[n].text[1] = ' ';
        wl->progress(v->sum, v->last, f[n].text + 2, FIELD_MAX - 2);
        f[n++].rank = 4;
    }
    return n;
}

/* Joins before, the fields and after (a field of rank 2: a terminal's
 * line may lose it) into buf; with width > 0, drops the fields that matter
 * least (the last of them first) until the whole fits in width columns,
 * never cutting one. */
static int join(struct field *f, int n, const char *before, const char *after,
                size_t width, char *buf, size_t len)
{
    size_t total = strlen(before), used;
    int i, rank, keep[FIELDS + 1];

    if (after[0] && n < FIELDS + 1) {
        snprintf(f[n].text, FIELD_MAX, "%s", after);
        f[n++].rank = 2;
    }
    for (i = 0; i < n; i++) {
        keep[i] = 1;
        total += strlen(f[i].text);
    }
    for (rank = 7; width > 0 && total > width && rank > 0; rank--)
        for (i = n; i-- > 0 && total > width;)
            if (keep[i] && f[i].rank == rank) {
                keep[i] = 0;
                total -= strlen(f[i].text);
            }
    used = (size_t)snprintf(buf, len, "%s", before);
    for (i = 0; i < n && used < len; i++)
        if (keep[i])
            used += (size_t)snprintf(buf + used, len - used, "%s", f[i].text);
    return (int)(used < len ? used : len - 1);
}

int ld_live_line(const struct ld_workload_ops *wl, const struct ld_live_view *v,
                 char *buf, size_t len)
{
    struct field f[FIELDS + 1];

    memset(f, 0, sizeof(f));
    return join(f, fields(wl, v, f), "", "", 0, buf, len);
}

int ld_live_line_fit(const struct ld_workload_ops *wl, const struct ld_live_view *v,
                     const char *before, const char *after, size_t width, char *buf,
                     size_t len)
{
    struct field f[FIELDS + 1];

    memset(f, 0, sizeof(f));
    return join(f, fields(wl, v, f), before, after, width, buf, len);
}
