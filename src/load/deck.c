/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * deck.c - the op and transfer-size decks (ld_int.h).  Each request's op is
 * dealt from a shuffled deck of LD_OP_DECK cards apportioned from the op
 * selector's request shares, and each read or write request's transfer
 * from a deck of the block-size rows, so that the realised shares meet the
 * targets even in short runs (the deviation is explained at struct
 * ld_deck).  Shuffles use the child's own generator; nothing allocates.
 */
#include <string.h>

#include "load/ld_int.h"

/* Fills a deck of n cards from integer counts, then shuffles it. */
static void deal_counts(struct ld_deck *d, const uint32_t *count, unsigned nkinds,
                        struct cm_rng *rng)
{
    unsigned k;
    uint32_t i, j;

    d->n = 0;
    for (k = 0; k < nkinds; k++)
        for (j = 0; j < count[k] && d->n < LD_OP_DECK; j++)
            d->card[d->n++] = (uint16_t)k;
    for (i = d->n; i > 1; i--) { /* Fisher-Yates */
        uint32_t r = cm_rng_below(rng, i);
        uint16_t t = d->card[i - 1];
        d->card[i - 1] = d->card[r];
        d->card[r] = t;
    }
    d->next = 0;
}

/* Integer counts summing to total from shares (largest remainder). */
static void apportion(const double *share, unsigned nkinds, uint32_t total,
                      uint32_t *count)
{
    double rem[NF_NOPS];
    uint32_t sum = 0;
    unsigned k;

    for (k = 0; k < nkinds; k++) {
        double x = share[k] * total;
        count[k] = (uint32_t)x;
        rem[k] = x - count[k];
        sum += count[k];
    }
    while (sum < total) {
        unsigned best = 0;
        for (k = 1; k < nkinds; k++)
            if (rem[k] > rem[best])
                best = k;
        if (rem[best] <= 0)
            break;
        count[best]++;
        rem[best] = 0;
        sum++;
    }
}

static void shuffle_ops(struct ld_child *c)
{
    uint32_t count[NF_NOPS];

    apportion(c->setup->opsel.req_share, NF_NOPS, LD_OP_DECK, count);
    deal_counts(&c->op_deck, count, NF_NOPS, &c->rng);
}

static void shuffle_xfers(struct ld_child *c, int write)
{
    const struct ld_iodist_table *t =
        write ? &c->setup->iodist.write : &c->setup->iodist.read;
    uint32_t count[LD_IODIST_MAX_ROWS];
    int k;

    for (k = 0; k < t->nrows; k++)
        count[k] = t->row[k].pct > 0 ? (uint32_t)t->row[k].pct : 0;
    deal_counts(&c->xfer_deck[write], count, (unsigned)t->nrows, &c->rng);
}

void ld_op_decks_init(struct ld_child *c)
{
    shuffle_ops(c);
    shuffle_xfers(c, 0);
    shuffle_xfers(c, 1);
}

int ld_op_next(struct ld_child *c)
{
    if (c->op_deck.next >= c->op_deck.n)
        shuffle_ops(c);
    if (c->op_deck.n == 0) /* cannot happen with a valid selector */
        return ld_opsel_draw(&c->setup->opsel, &c->rng);
    return c->op_deck.card[c->op_deck.next++];
}

/* The fragment size stays a random draw, as in ld_iodist_draw. */
void ld_deck_xfer(struct ld_child *c, int write, struct ld_xfer *x)
{
    const struct ld_iodist *d = &c->setup->iodist;
    const struct ld_iodist_table *t = write ? &d->write : &d->read;
    struct ld_deck *dk = &c->xfer_deck[write];

    if (dk->next >= dk->n)
        shuffle_xfers(c, write);
    if (dk->n == 0) {
        ld_iodist_draw(d, write, &c->rng, x);
        return;
    }
    ld_iodist_row_xfer(d, &t->row[dk->card[dk->next++]], &c->rng, x);
}
