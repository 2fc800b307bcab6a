/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_opens.c - the OPEN state of a load process's files (nf4_load.h): a
 * file is OPENed before its first READ or WRITE and CLOSEd when it leaves
 * the working set, as an NFSv4 client does; the open's stateid is kept
 * with the client's epoch, since a new client (after STALE_CLIENTID or
 * EXPIRED) has lost every open of the old one: such a file is opened
 * again before its next READ or WRITE, and leaves without a CLOSE.  One
 * slot per file, allocated once; nothing per call.
 */
#include <errno.h>
#include <string.h>

#include "nfs/nf4_load.h"
#include "common/alloc.h"

int nf4_opens_init(struct nf4_opens *o, size_t n, struct nf4_open_counts *counts)
{
    o->f = n ? cm_calloc(n, sizeof(*o->f)) : NULL;
    o->n = o->f ? n : 0;
    o->counts = counts;
    return n && o->f == NULL ? -ENOMEM : 0;
}

void nf4_opens_free(struct nf4_opens *o)
{
    free(o->f);
    o->f = NULL;
    o->n = 0;
}

/* Whether file i's open is of the client's present epoch. */
static int current(const struct nf4_open *f, uint32_t epoch)
{
    return f->state != NF4_CLOSED && f->epoch == epoch;
}

enum nf4_open_state nf4_opens_need(const struct nf4_opens *o, size_t i, uint32_t epoch,
                                   const stateid4 **sid)
{
    const struct nf4_open *f;

    *sid = NULL;
    if (i >= o->n || o->f[i].state == NF4_CLOSED)
        return NF4_CLOSED;
    f = &o->f[i];
    if (f->state == NF4_OPENING)
        return NF4_OPENING;
    if (!current(f, epoch))
        return NF4_CLOSED; /* gone with its client: open again */
    *sid = &f->stateid;
    return NF4_OPEN;
}

/* The files open now and the most at once. */
static void in_use(struct nf4_open_counts *c, int delta)
{
    c->in_use = delta < 0 && c->in_use == 0 ? 0 : c->in_use + (uint64_t)(int64_t)delta;
    if (c->in_use > c->in_use_max)
        c->in_use_max = c->in_use;
}

void nf4_opens_sending(struct nf4_opens *o, size_t i)
{
    struct nf4_open *f;

    if (i >= o->n)
        return;
    f = &o->f[i];
    o->counts->opens++;
    if (f->state == NF4_OPEN) { /* of an older epoch */
        o->counts->reopens++;
        in_use(o->counts, -1);
    }
    f->state = NF4_OPENING;
}

int nf4_opens_done(struct nf4_opens *o, size_t i, const struct nf4_res *r, uint32_t epoch)
{
    const struct nf4_resop *op = r ? nf4_res_find(r, OP_OPEN, 0) : NULL;
    struct nf4_open *f;

    if (i >= o->n)
        return 0;
    f = &o->f[i];
    if (op == NULL || op->status != NFS4_OK) {
        o->counts->open_errors++;
        f->state = NF4_CLOSED;
        return 0;
    }
    f->stateid = op->u.open.stateid;
    f->epoch = epoch;
    f->state = NF4_OPEN;
    in_use(o->counts, 1);
    return 1;
}

int nf4_opens_leave(struct nf4_opens *o, size_t i, uint32_t epoch, stateid4 *sid)
{
    struct nf4_open *f;
    int close;

    if (i >= o->n || o->f[i].state != NF4_OPEN)
        return 0; /* never opened, or its OPEN still in flight: nothing to close yet */
    f = &o->f[i];
    close = current(f, epoch);
    if (close) {
        *sid = f->stateid;
        o->counts->closes++;
    } else {
        o->counts->closes_gone++;
    }
    f->state = NF4_CLOSED;
    in_use(o->counts, -1);
    return close;
}
