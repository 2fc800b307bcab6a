/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stackdist.c - exact LRU stack distances (decisions.md D12) with Judy as
 * the application note describes: the "time" of a reference is its sequence
 * number, a JudyL array maps each block key to the time of its last
 * reference, and the depth of a reference is the number of live last-use
 * times from the previous one to now, counted from the cheaper side as
 * population - count(0, last - 1).
 *
 * Two ways to count, chosen at creation:
 *
 *  AZ_SD_JUDY1 keeps the live times in a Judy1 array and counts with
 *  Judy1Count: the note's method, kept as the reference and the benchmark
 *  baseline (about 1.7 M references/s at a million blocks).
 *
 *  AZ_SD_FENWICK (default) keeps the live times on a dense axis: one bit per
 *  time in 64-bit words, and a Fenwick tree over the popcounts of groups of
 *  8 words, so that a count is one short tree walk plus a few popcounts in
 *  one cache line, and fits in cache (W/8 + W/128 bytes for W times).  When the axis is
 * full, the live times are renumbered 0..n-1 in order by walking the JudyL array
 * (JudyLFirst / JudyLNext) and the axis is rebuilt; the axis is kept at least four times
 *  the live count, so renumbering costs well under one JudyL step per
 *  reference.  JudyL stays the sparse block map, which is what Judy is best
 *  at; see docs/PERFORMANCE.md for the measured ratio.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "analyze/az.h"

#define MIN_AXIS_WORDS 1024u /* 65536 times */

struct az_sd {
    enum az_sd_method method;
    Pvoid_t last; /* JudyL: key -> time of the last reference */
    Pvoid_t live; /* Judy1 of live times (AZ_SD_JUDY1) */
    uint64_t unique, now;
    /* AZ_SD_FENWICK: the dense time axis */
    uint64_t *bits;
    uint32_t *fen; /* 1-based Fenwick tree over the groups' popcounts */
    uint64_t words, groups, min_words, compactions;
};

/* The tree counts groups of 8 words (512 times, one cache line of bits):
 * a count walks a tree 8 times smaller (L1-resident at a million blocks)
 * and finishes with at most 8 popcounts in one line. */
#define GROUP_WORDS 8u

struct az_sd *az_sd_new(enum az_sd_method method)
{
    struct az_sd *sd = calloc(1, sizeof(*sd));

    if (sd) {
        sd->method = method;
        sd->min_words = MIN_AXIS_WORDS;
    }
    return sd;
}

void az_sd_set_min_axis(struct az_sd *sd, uint64_t words)
{
    sd->min_words = words ? words : MIN_AXIS_WORDS;
}

void az_sd_free(struct az_sd *sd)
{
    if (!sd)
        return;
    JudyLFreeArray(&sd->last, PJE0);
    Judy1FreeArray(&sd->live, PJE0);
    free(sd->bits);
    free(sd->fen);
    free(sd);
}

uint64_t az_sd_unique(const struct az_sd *sd)
{
    return sd->unique;
}

uint64_t az_sd_compactions(const struct az_sd *sd)
{
    return sd->compactions;
}

size_t az_sd_mem(const struct az_sd *sd, size_t *judy_bytes)
{
    size_t judy = (size_t)JudyLMemUsed(sd->last) + (size_t)Judy1MemUsed(sd->live);

    if (judy_bytes)
        *judy_bytes = judy;
    return judy + sd->words * sizeof(*sd->bits) + sd->groups * sizeof(*sd->fen);
}

/* ---- the dense axis ------------------------------------------------------ */

static void fen_add(struct az_sd *sd, uint64_t t, int32_t d)
{
    uint64_t i;

    for (i = t / 64 / GROUP_WORDS + 1; i <= sd->groups; i += i & (~i + 1))
        sd->fen[i - 1] = (uint32_t)((int32_t)sd->fen[i - 1] + d);
}

/* Live times before t (positions 0..t-1). */
static uint64_t fen_rank(const struct az_sd *sd, uint64_t t)
{
    uint64_t w = t / 64, g = w / GROUP_WORDS, i, sum = 0;
    unsigned b = (unsigned)(t % 64);

    for (i = g; i > 0; i &= i - 1)
        sum += sd->fen[i - 1];
    for (i = g * GROUP_WORDS; i < w; i++)
        sum += (uint64_t)__builtin_popcountll(sd->bits[i]);
    if (b)
        sum += (uint64_t)__builtin_popcountll(sd->bits[w] & ((1ull << b) - 1));
    return sum;
}

/* Builds the Fenwick tree over the current bits in O(words). */
static void fen_build(struct az_sd *sd)
{
    uint64_t i;

    memset(sd->fen, 0, sd->groups * sizeof(*sd->fen));
    for (i = 0; i < sd->words; i++)
        sd->fen[i / GROUP_WORDS] += (uint32_t)__builtin_popcountll(sd->bits[i]);
    for (i = 1; i <= sd->groups; i++) {
        uint64_t parent = i + (i & (~i + 1));
        if (parent <= sd->groups)
            sd->fen[parent - 1] += sd->fen[i - 1];
    }
}

/* Renumbers the live times 0..unique-1 and makes room for at least three
 * times as many new ones.  0 or -ENOMEM. */
static int compact(struct az_sd *sd)
{
    uint64_t need = (sd->unique * 4 + 63) / 64, words = sd->words;
    uint64_t *bits;
    uint32_t *fen;
    Word_t key = 0;
    PWord_t pv;

    if (need < sd->min_words)
        need = sd->min_words;
    need = (need + GROUP_WORDS - 1) / GROUP_WORDS * GROUP_WORDS;
    while (words < need)
        words = words ? words * 2 : need;
    bits = calloc(words, sizeof(*bits));
    fen = calloc(words / GROUP_WORDS, sizeof(*fen));
    if (!bits || !fen) {
        free(bits);
        free(fen);
        return -ENOMEM;
    }
    /* New time = rank of the old one among the live times, computed on the
     * old axis before it is replaced. */
    for (pv = (PWord_t)JudyLFirst(sd->last, &key, PJE0); pv;
         pv = (PWord_t)JudyLNext(sd->last, &key, PJE0)) {
        uint64_t t = fen_rank(sd, *pv - 1); /* stored as time + 1 */
        *pv = t + 1;
        bits[t / 64] |= 1ull << (t % 64);
    }
    free(sd->bits);
    free(sd->fen);
    sd->bits = bits;
    sd->fen = fen;
    sd->words = words;
    sd->groups = words / GROUP_WORDS;
    sd->now = sd->unique;
    fen_build(sd);
    sd->compactions++;
    return 0;
}

static int64_t ref_fenwick(struct az_sd *sd, uint64_t key)
{
    PWord_t pv;
    uint64_t t, s, depth = 0;

    if (sd->now >= sd->words * 64 && compact(sd) < 0)
        return -ENOMEM;
    pv = (PWord_t)JudyLIns(&sd->last, (Word_t)key, PJE0);
    if (pv == PJERR)
        return -ENOMEM;
    t = sd->now++;
    if (*pv == 0) {
        sd->unique++;
    } else {
        s = *pv - 1; /* stored as time + 1 so that 0 means "new" */
        depth = sd->unique - fen_rank(sd, s);
        sd->bits[s / 64] &= ~(1ull << (s % 64));
        fen_add(sd, s, -1);
    }
    sd->bits[t / 64] |= 1ull << (t % 64);
    fen_add(sd, t, 1);
    *pv = t + 1;
    return (int64_t)depth;
}

static int64_t ref_judy1(struct az_sd *sd, uint64_t key)
{
    PWord_t pv = (PWord_t)JudyLIns(&sd->last, (Word_t)key, PJE0);
    uint64_t t = ++sd->now, depth = 0;

    if (pv == PJERR)
        return -ENOMEM;
    if (*pv == 0) {
        sd->unique++;
    } else {
        Word_t s = *pv;
        /* The cheaper side: population minus the times before s. */
        depth = sd->unique - (s > 1 ? Judy1Count(sd->live, 0, s - 1, PJE0) : 0);
        Judy1Unset(&sd->live, s, PJE0);
    }
    if (Judy1Set(&sd->live, (Word_t)t, PJE0) == JERR)
        return -ENOMEM;
    *pv = t;
    return (int64_t)depth;
}

int64_t az_sd_ref(struct az_sd *sd, uint64_t key)
{
    return sd->method == AZ_SD_JUDY1 ? ref_judy1(sd, key) : ref_fenwick(sd, key);
}
