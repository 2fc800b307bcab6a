/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * deck.c - the op and transfer-size decks (sy_int.h).  Each request's op is
 * dealt from a shuffled deck of SY_OP_DECK cards apportioned from the op
 * selector's request shares, and each read or write request's transfer
 * from a deck of the block-size rows, so that the realised shares meet the
 * targets even in short runs (the deviation is explained at struct
 * sy_deck).  Shuffles use the child's own generator; nothing allocates.
 *
 * Two corrections keep the CALL mix on target in the long run (the
 * realised mix docs/sfs.md reports):
 *  - re-weighting: the selector weighs a read or write request by the
 *    block-size distribution's calls per request (1.64, 2.0), but a small
 *    file set clips many transfers (no fit), so a request makes fewer
 *    calls; each new deck weighs reads and writes by the calls per request
 *    this child has really made (with the distribution's value as a prior
 *    worth LD_CPR_PRIOR requests);
 *  - what each op is owed: a share is rarely a whole number of cards, and
 *    a read or write request makes more or fewer calls than the average;
 *    each deck starts from every op's call deficit (its share of the calls
 *    dealt so far less its calls, in requests), so that the calls dealt
 *    stay within a few of every share at all times and any window of a
 *    run (a 15 s point) holds the call mix, not only the long run.  The
 *    deficit is capped at SY_DECK_OWED_MAX cards, so that an op whose
 *    requests make no calls cannot take over the decks.
 */
#include <assert.h>
#include <string.h>

#include "synth/sy_int.h"

/* Fills a deck of n cards from integer counts, then shuffles it. */
static void deal_counts(struct sy_deck *d, const uint32_t *count, unsigned nkinds,
                        struct cm_rng *rng)
{
    unsigned k;
    uint32_t i, j;

    d->n = 0;
    for (k = 0; k < nkinds; k++)
        for (j = 0; j < count[k] && d->n < SY_DECK_CARDS; j++)
            d->card[d->n++] = (uint16_t)k;
    for (i = d->n; i > 1; i--) { /* Fisher-Yates */
        uint32_t r = cm_rng_below(rng, i);
        uint16_t t = d->card[i - 1];
        d->card[i - 1] = d->card[r];
        d->card[r] = t;
    }
    d->next = 0;
}

#define LD_CPR_PRIOR 20.0 /* requests the distribution's calls/request count as */

/* Integer counts summing to total from shares plus what earlier decks
 * owe each kind (largest remainder); owed keeps what this deck still owes
 * (or gave too much, when negative). */
static void apportion(const double *share, unsigned nkinds, uint32_t total, double *owed,
                      uint32_t *count)
{
    double want[NF_NOPS];
    uint32_t sum = 0;
    unsigned k;

    for (k = 0; k < nkinds; k++) {
        want[k] = share[k] > 0 ? share[k] * total + owed[k] : 0;
        count[k] = want[k] > 0 ? (uint32_t)want[k] : 0;
        sum += count[k];
    }
    while (sum > total) { /* carried debts may add up past a deck */
        unsigned best = 0;
        for (k = 1; k < nkinds; k++)
            if (count[k] > 0 &&
                (count[best] == 0 || want[k] - count[k] < want[best] - count[best]))
                best = k;
        count[best]--;
        sum--;
    }
    while (sum < total) {
        unsigned best = nkinds;
        for (k = 0; k < nkinds; k++)
            if (share[k] > 0 &&
                (best == nkinds || want[k] - count[k] > want[best] - count[best]))
                best = k;
        if (best == nkinds)
            break;
        count[best]++;
        sum++;
    }
    for (k = 0; k < nkinds; k++)
        owed[k] = share[k] > 0 ? want[k] - count[k] : 0;
    /* a deck holds exactly total cards unless no kind has a share */
    assert(sum == total || sum == 0);
}

/* Calls per request of a read (0) or write (1) as this child makes them,
 * starting from the distribution's average. */
static double realised_cpr(const struct sy_child *c, int write)
{
    const struct ld_iodist *d = &c->cx.setup->iodist;
    double prior = write ? d->write.calls_per_req : d->read.calls_per_req;

    if (prior <= 0)
        return 0;
    return ((double)c->io_calls[write] + LD_CPR_PRIOR * prior) /
           ((double)c->io_reqs[write] + LD_CPR_PRIOR);
}

/* The selector's request shares with reads and writes re-weighted by the
 * calls per request they really make. */
static void deck_shares(const struct sy_child *c, double *share)
{
    const struct ld_opsel *o = c->opsel;
    const struct ld_iodist *d = &c->cx.setup->iodist;
    static const int io[2] = {NF_OP_READ, NF_OP_WRITE};
    double sum = 0;
    int op, w;

    memcpy(share, o->req_share, sizeof(o->req_share));
    for (w = 0; w < 2; w++) {
        double cpr = realised_cpr(c, w);
        double expect = w ? d->write.calls_per_req : d->read.calls_per_req;

        if (cpr > 0 && share[io[w]] > 0)
            share[io[w]] *= expect / cpr;
    }
    for (op = 0; op < NF_NOPS; op++)
        sum += share[op];
    for (op = 0; op < NF_NOPS && sum > 0; op++)
        share[op] /= sum;
}

#define SY_DECK_OWED_MAX 5.0 /* cards an op may be owed or ahead by */

/* Each op's call deficit in requests (the owed of apportion): its share of
 * the calls dealt so far (the selector's request shares weighed by the
 * distribution's calls per request) less the calls it was dealt. */
static void call_deficits(const struct sy_child *c, double *owed)
{
    const struct ld_opsel *o = c->opsel;
    const struct ld_iodist *d = &c->cx.setup->iodist;
    double want[NF_NOPS], wsum = 0, calls = 0;
    int op;

    for (op = 0; op < NF_NOPS; op++) {
        double cpr = op == NF_OP_READ    ? d->read.calls_per_req
                     : op == NF_OP_WRITE ? d->write.calls_per_req
                                         : 1.0;
        want[op] = o->req_share[op] * (cpr > 0 ? cpr : 1.0);
        wsum += want[op];
        calls += c->dealt_calls[op];
    }
    for (op = 0; op < NF_NOPS; op++) {
        double cpr = op == NF_OP_READ    ? realised_cpr(c, 0)
                     : op == NF_OP_WRITE ? realised_cpr(c, 1)
                                         : 1.0;
        double o_ =
            wsum > 0 && want[op] > 0
                ? (want[op] / wsum * calls - c->dealt_calls[op]) / (cpr > 0 ? cpr : 1.0)
                : 0;
        owed[op] = o_ > SY_DECK_OWED_MAX    ? SY_DECK_OWED_MAX
                   : o_ < -SY_DECK_OWED_MAX ? -SY_DECK_OWED_MAX
                                            : o_;
    }
}

static void shuffle_ops(struct sy_child *c)
{
    uint32_t count[NF_NOPS];
    double share[NF_NOPS];

    deck_shares(c, share);
    call_deficits(c, c->deck_owed);
    apportion(share, NF_NOPS, SY_OP_DECK, c->deck_owed, count);
    deal_counts(&c->op_deck, count, NF_NOPS, &c->rng);
    assert(c->op_deck.n == SY_OP_DECK || c->op_deck.n == 0);
}

static void shuffle_xfers(struct sy_child *c, int write)
{
    const struct ld_iodist_table *t =
        write ? &c->cx.setup->iodist.write : &c->cx.setup->iodist.read;
    uint32_t count[LD_IODIST_MAX_ROWS];
    int k;

    for (k = 0; k < t->nrows; k++)
        count[k] = t->row[k].pct > 0 ? (uint32_t)t->row[k].pct : 0;
    deal_counts(&c->xfer_deck[write], count, (unsigned)t->nrows, &c->rng);
    /* the rows' percentages sum to 100 (iodist.c checks it) */
    assert(c->xfer_deck[write].n == SY_XFER_DECK || c->xfer_deck[write].n == 0);
}

void sy_op_decks_init(struct sy_child *c)
{
    shuffle_ops(c);
    shuffle_xfers(c, 0);
    shuffle_xfers(c, 1);
}

int sy_op_next(struct sy_child *c)
{
    if (c->op_deck.next >= c->op_deck.n)
        shuffle_ops(c);
    if (c->op_deck.n == 0) /* cannot happen with a valid selector */
        return ld_opsel_draw(c->opsel, &c->rng);
    assert(c->op_deck.next < c->op_deck.n && c->op_deck.card[c->op_deck.next] < NF_NOPS);
    if (c->op_deck.card[c->op_deck.next] != NF_OP_READ &&
        c->op_deck.card[c->op_deck.next] != NF_OP_WRITE)
        c->dealt_calls[c->op_deck.card[c->op_deck.next]] += 1; /* pick.c: read, write */
    return c->op_deck.card[c->op_deck.next++];
}

/* The fragment size stays a random draw, as in ld_iodist_draw. */
void sy_deck_xfer(struct sy_child *c, int write, struct ld_xfer *x)
{
    const struct ld_iodist *d = &c->cx.setup->iodist;
    const struct ld_iodist_table *t = write ? &d->write : &d->read;
    struct sy_deck *dk = &c->xfer_deck[write];

    if (dk->next >= dk->n)
        shuffle_xfers(c, write);
    if (dk->n == 0) {
        ld_iodist_draw(d, write, &c->rng, x);
        return;
    }
    assert(dk->next < dk->n && dk->card[dk->next] < t->nrows);
    ld_iodist_row_xfer(d, &t->row[dk->card[dk->next++]], &c->rng, x);
}
