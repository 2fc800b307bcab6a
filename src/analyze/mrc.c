/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mrc.c - the miss-ratio analysis: turns records into block references
 * (trace-formats.md 2.5, 3.8, 4.6: every block of [offset, offset + length)
 * at the analysis granularity, ascending), keys them by (unit, block),
 * feeds the stack (stackdist.c) and accumulates the histograms, in total
 * and per unit.  Per-unit figures attribute each reference of the shared
 * cache to its unit (the cache is shared, as a server's would be); the
 * isolated option gives each unit a stack of its own as well (a cache per
 * unit).
 *
 * Sampled mode is fixed-rate SHARDS (Waldspurger et al., FAST 2015): a
 * reference is kept when the hash of its key is below R * 2^64, so a block
 * is either always or never sampled; depths measured on the sample are
 * scaled by 1/R.  With sample_check an exact twin runs on every reference
 * so that the error of the sample can be reported.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az.h"

static int run_init(struct az_mrc_run *r, enum az_sd_method method)
{
    memset(r, 0, sizeof(*r));
    r->sd = az_sd_new(method);
    return r->sd ? 0 : -ENOMEM;
}

static void run_free(struct az_mrc_run *r)
{
    uint32_t i;

    az_sd_free(r->sd);
    az_hist_free(&r->total);
    for (i = 0; i < r->nunits; i++)
        az_hist_free(&r->units[i]);
    free(r->units);
    for (i = 0; i < r->niso; i++) {
        az_sd_free(r->iso_sd[i]);
        az_hist_free(&r->iso[i]);
    }
    free(r->iso_sd);
    free(r->iso);
    memset(r, 0, sizeof(*r));
}

int az_mrc_init(struct az_mrc *m, const struct az_mrc_opts *opt, char *err, size_t errlen)
{
    memset(m, 0, sizeof(*m));
    m->opt = *opt;
    if (m->opt.block_size == 0)
        m->opt.block_size = 4096;
    if (m->opt.sample_rate < 0 || m->opt.sample_rate > 1)
        return cm_errf(err, errlen, "sample rate %g is not in (0, 1]",
                       m->opt.sample_rate);
    if (m->opt.sample_rate > 0)
        m->threshold = m->opt.sample_rate >= 1 ? UINT64_MAX
                                               : (uint64_t)ldexp(m->opt.sample_rate, 64);
    else
        m->opt.sample_check = 0;
    if (run_init(&m->main, m->opt.method) < 0 ||
        (m->opt.sample_check && run_init(&m->exact, m->opt.method) < 0)) {
        az_mrc_free(m);
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    return 0;
}

void az_mrc_free(struct az_mrc *m)
{
    run_free(&m->main);
    run_free(&m->exact);
}

/* Makes *h (n entries) hold index unit.  0 or -ENOMEM. */
static int unit_slot(struct az_hist **h, uint32_t *n, uint32_t unit)
{
    struct az_hist *u;

    if (unit < *n)
        return 0;
    u = realloc(*h, (unit + 1) * sizeof(*u));
    if (!u)
        return -ENOMEM;
    memset(u + *n, 0, (unit + 1 - *n) * sizeof(*u));
    *h = u;
    *n = unit + 1;
    return 0;
}

/* Adds depth to r's total and, with per_unit, to its unit. */
static int account(const struct az_mrc *m, struct az_mrc_run *r, uint32_t unit,
                   uint64_t depth)
{
    if (az_hist_add(&r->total, depth, 1) < 0)
        return -ENOMEM;
    if (!m->opt.per_unit)
        return 0;
    if (unit_slot(&r->units, &r->nunits, unit) < 0)
        return -ENOMEM;
    return az_hist_add(&r->units[unit], depth, 1);
}

/* Scales a depth measured on the sample back to the full trace: 1/R. */
static int64_t scaled(const struct az_mrc *m, int64_t d)
{
    if (m->threshold && d > 0)
        d = (int64_t)ceil((double)d / m->opt.sample_rate - 1e-9);
    return d;
}

/* The reference in the unit's own stack (isolated caches). */
static int isolated(struct az_mrc_run *r, const struct az_mrc *m, uint32_t unit,
                    uint64_t key)
{
    uint32_t old = r->niso;
    int64_t d;

    if (unit >= r->niso) {
        struct az_sd **sd = realloc(r->iso_sd, (unit + 1) * sizeof(*sd));
        if (!sd)
            return -ENOMEM;
        memset(sd + old, 0, (unit + 1 - old) * sizeof(*sd));
        r->iso_sd = sd;
        if (unit_slot(&r->iso, &r->niso, unit) < 0)
            return -ENOMEM;
    }
    if (!r->iso_sd[unit] && !(r->iso_sd[unit] = az_sd_new(m->opt.method)))
        return -ENOMEM;
    d = az_sd_ref(r->iso_sd[unit], key);
    if (d < 0)
        return -ENOMEM;
    return az_hist_add(&r->iso[unit], (uint64_t)scaled(m, d), 1);
}

int az_mrc_ref(struct az_mrc *m, uint32_t unit, uint64_t block)
{
    uint64_t key = az_key(unit, block);
    int64_t d;

    m->references++;
    if (unit + 1 > m->units_seen)
        m->units_seen = unit + 1;
    if (m->opt.sample_check) {
        d = az_sd_ref(m->exact.sd, key);
        if (d < 0 || account(m, &m->exact, unit, (uint64_t)d) < 0)
            return -ENOMEM;
    }
    if (m->threshold) {
        if (az_hash(key) >= m->threshold)
            return 0;
        m->main.sampled++;
    }
    d = az_sd_ref(m->main.sd, key);
    if (d < 0 || account(m, &m->main, unit, (uint64_t)scaled(m, d)) < 0)
        return -ENOMEM;
    return m->opt.isolated ? isolated(&m->main, m, unit, key) : 0;
}

int az_mrc_record(struct az_mrc *m, const struct tr_record *rec)
{
    uint64_t first, last, b, g = m->opt.block_size;
    int rc;

    if (rec->op != TR_OP_READ && rec->op != TR_OP_WRITE) {
        m->other_records++;
        return 0;
    }
    m->records++;
    if (rec->length == 0) {
        m->zero_size++;
        return 0;
    }
    first = rec->offset / g;
    if (rec->length - 1 > UINT64_MAX - rec->offset) {
        cm_errf(m->last_error, sizeof(m->last_error),
                "record at line/entry %ld: offset + length beyond 2^64", rec->line);
        return -ERANGE;
    }
    last = (rec->offset + (rec->length - 1)) / g;
    if (rec->unit >= (1u << AZ_KEY_UNIT_BITS) || last >> AZ_KEY_BLOCK_BITS) {
        cm_errf(m->last_error, sizeof(m->last_error),
                "record at line/entry %ld: unit %u block %llu does not fit the "
                "(unit, block) key (%d + %d bits); use a larger --block-size",
                rec->line, rec->unit, (unsigned long long)last, AZ_KEY_UNIT_BITS,
                AZ_KEY_BLOCK_BITS);
        return -ERANGE;
    }
    for (b = first; b <= last; b++)
        if ((rc = az_mrc_ref(m, rec->unit, b)) < 0) {
            cm_errf(m->last_error, sizeof(m->last_error), "out of memory");
            return rc;
        }
    return 0;
}
