/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_opens.c - the OPEN state of a load process's files (nf4_load.h), kept
 * in the caller's per-file storage: a file is OPENed before its first
 * READ or WRITE and CLOSEd when it leaves the working set, as an NFSv4
 * client does; the open's stateid is kept with the client's epoch, since a
 * new client (after STALE_CLIENTID or EXPIRED) has lost every open of the
 * old one: such a file is opened again, and leaves without a CLOSE.
 */
#include <string.h>

#include "nfs/nf4_load.h"

/* Whether f's open is of the client's present epoch. */
static int current(const struct nf4_open *f, uint32_t epoch)
{
    return f->state == NF4_OPEN && f->epoch == epoch;
}

enum nf4_open_state nf4_open_need(const struct nf4_open *f, uint32_t epoch,
                                  const stateid4 **sid)
{
    *sid = NULL;
    if (f == NULL || f->state == NF4_CLOSED)
        return NF4_CLOSED;
    if (f->state == NF4_OPENING)
        return NF4_OPENING;
    if (!current(f, epoch))
        return NF4_CLOSED; /* gone with its client: open again */
    *sid = &f->stateid;
    return NF4_OPEN;
}

int nf4_open_lost(const struct nf4_open *f, uint32_t epoch)
{
    return f != NULL && f->state == NF4_OPEN && f->epoch != epoch;
}

/* The files open now and the most at once. */
static void in_use(struct nf4_open_counts *c, int up)
{
    if (up)
        c->in_use++;
    else if (c->in_use > 0)
        c->in_use--;
    if (c->in_use > c->in_use_max)
        c->in_use_max = c->in_use;
}

void nf4_open_sending(struct nf4_open_counts *c, struct nf4_open *f)
{
    c->opens++;
    if (f->state == NF4_OPEN) { /* of an older epoch */
        c->reopens++;
        in_use(c, 0);
    }
    f->state = NF4_OPENING;
}

int nf4_open_done(struct nf4_open_counts *c, struct nf4_open *f, const struct nf4_res *r,
                  uint32_t epoch)
{
    const struct nf4_resop *op = r ? nf4_res_find(r, OP_OPEN, 0) : NULL;

    if (op == NULL || op->status != NFS4_OK) {
        c->open_errors++;
        f->state = NF4_CLOSED;
        return 0;
    }
    f->stateid = op->u.open.stateid;
    f->epoch = epoch;
    f->state = NF4_OPEN;
    in_use(c, 1);
    return 1;
}

int nf4_open_leave(struct nf4_open_counts *c, struct nf4_open *f, uint32_t epoch,
                   stateid4 *sid)
{
    int close;

    if (f->state != NF4_OPEN)
        return 0; /* never opened, or its OPEN still in flight */
    close = current(f, epoch);
    if (close) {
        *sid = f->stateid;
        c->closes++;
    } else {
        c->closes_gone++;
    }
    f->state = NF4_CLOSED;
    in_use(c, 0);
    return close;
}
