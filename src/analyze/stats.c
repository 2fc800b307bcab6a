/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - trace statistics for `sfs_trace stats`: records by operation,
 * bytes, a request-size histogram in powers of two, per-unit figures,
 * duration, rate over time, the sequential fraction (a read or write that
 * starts where the previous one of its unit ended) and the footprint (the
 * distinct (unit, block) pairs, kept as runs of consecutive keys:
 * common/runs.h).  Every record costs the same whatever its length; memory grows
 * with units and runs, never with records or bytes; the rate table has a
 * fixed length and doubles its bucket width when the trace outlasts it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/runs.h"
#include "analyze/az.h"

#define RATE_WIDTH0_NS 1000000000LL /* 1 s buckets to start with */

int az_stats_init(struct az_stats *s, uint64_t block_size)
{
    memset(s, 0, sizeof(*s));
    s->block_size = block_size ? block_size : 4096;
    s->rate_width_ns = RATE_WIDTH0_NS;
    return 0;
}

void az_stats_free(struct az_stats *s)
{
    cm_runs_free(&s->footprint);
    free(s->units);
    memset(s, 0, sizeof(*s));
}

unsigned az_size_bucket(uint64_t bytes)
{
    unsigned k = 0;

    if (bytes == 0)
        return 0;
    while (k < AZ_SIZE_BUCKETS - 2 && (1ull << k) < bytes)
        k++;
    return k + 1;
}

uint64_t az_size_bucket_max(unsigned bucket)
{
    if (bucket == 0)
        return 0;
    if (bucket == AZ_SIZE_BUCKETS - 1)
        return UINT64_MAX;
    return 1ull << (bucket - 1);
}

static void rate_add(struct az_stats *s, int64_t t_ns)
{
    int64_t rel = t_ns - s->first_ns;
    unsigned i;

    if (rel < 0)
        rel = 0;
    while (rel / s->rate_width_ns >= AZ_RATE_BUCKETS) {
        for (i = 0; i < AZ_RATE_BUCKETS / 2; i++)
            s->rate[i] = s->rate[2 * i] + s->rate[2 * i + 1];
        memset(s->rate + AZ_RATE_BUCKETS / 2, 0,
               AZ_RATE_BUCKETS / 2 * sizeof(s->rate[0]));
        s->rate_width_ns *= 2;
    }
    s->rate[rel / s->rate_width_ns]++;
}

static struct az_unit_stats *unit_of(struct az_stats *s, uint32_t unit)
{
    if (unit >= s->nunits) {
        uint32_t n = unit + 1 > s->nunits * 2 ? unit + 1 : s->nunits * 2;
        struct az_unit_stats *u = cm_realloc(s->units, n * sizeof(*u));
        if (!u)
            return NULL;
        memset(u + s->nunits, 0, (n - s->nunits) * sizeof(*u));
        s->units = u;
        s->nunits = n;
    }
    return &s->units[unit];
}

int az_stats_record(struct az_stats *s, const struct tr_record *rec)
{
    struct az_unit_stats *u;
    uint64_t end, first, last;

    if (!s->any) {
        s->first_ns = s->last_ns = rec->t_ns;
        s->any = 1;
    }
    if (rec->t_ns < s->first_ns)
        s->first_ns = rec->t_ns;
    if (rec->t_ns > s->last_ns)
        s->last_ns = rec->t_ns;
    s->records++;
    s->by_op[rec->op]++;
    rate_add(s, rec->t_ns);
    if (rec->op != TR_OP_READ && rec->op != TR_OP_WRITE)
        return 0;
    u = unit_of(s, rec->unit);
    if (!u)
        return cm_errf(s->last_error, sizeof(s->last_error), "out of memory"), -ENOMEM;
    end = rec->length > UINT64_MAX - rec->offset ? UINT64_MAX : rec->offset + rec->length;
    if (u->seen && rec->offset == u->last_end) {
        u->sequential++;
        s->sequential++;
    }
    u->seen = 1;
    u->last_end = end;
    u->records++;
    if (end > u->max_end)
        u->max_end = end;
    if (rec->op == TR_OP_READ) {
        u->reads++;
        u->bytes_read += rec->length;
        s->bytes_read += rec->length;
    } else {
        u->writes++;
        u->bytes_written += rec->length;
        s->bytes_written += rec->length;
    }
    s->size_hist[az_size_bucket(rec->length)]++;
    if (rec->length == 0) {
        s->zero_size++;
        return 0;
    }
    first = rec->offset / s->block_size;
    last = (end - 1) / s->block_size;
    if (rec->unit >= (1u << AZ_KEY_UNIT_BITS) || last >> AZ_KEY_BLOCK_BITS)
        return cm_errf(s->last_error, sizeof(s->last_error),
                       "record at line/entry %ld: block %llu of unit %u does "
                       "not fit the (unit, block) key; use a larger "
                       "--block-size",
                       rec->line, (unsigned long long)last, rec->unit),
               -ERANGE;
    if (cm_runs_add(&s->footprint, az_key(rec->unit, first), az_key(rec->unit, last)) < 0)
        return cm_errf(s->last_error, sizeof(s->last_error), "out of memory"), -ENOMEM;
    return 0;
}
