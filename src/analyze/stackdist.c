/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stackdist.c - exact LRU stack distances (docs/DECISIONS.md D12) as the Judy
 * application note describes: the "time" of a reference is its sequence
 * number, a map takes each block key to the time of its last reference, and
 * the depth of a reference is the number of live last-use
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
 *  one cache line, and fits in cache (W/8 + W/128 bytes for W times).  When
 *  the axis is full, the live times are renumbered 0..n-1 in order and the
 *  axis is rebuilt; the axis is kept at least AXIS_FACTOR times the live
 *  count, so renumbering costs well under one step per reference.  The
 *  block map is a hash table of chunks (chunkmap.h; it was a JudyL
 *  array); see docs/PERFORMANCE.md for the measured ratios.
 *
 * A record's blocks come as one range (az_sd_ref_range), which the Fenwick
 * method exploits (each kept because bench/trace.sh showed it faster):
 *  - when the previous times of consecutive blocks are close (a run read
 *    again in order), the rank of each is the previous block's rank plus the
 *    live bits in between: a few popcounts instead of a tree walk;
 *  - the tree updates of a range (one clear and one set per block, mostly in
 *    the same two groups) are collected per group and applied once;
 *  - the axis makes room for the whole range before it starts, so that no
 *    renumbering happens inside one.
 * On a trace with a large footprint (1.76 M blocks, three quarters of
 * them read at random over 1 TiB) the map's lookups and inserts, one per
 * block, were most of the time; so the map is keyed by chunks of CHUNK consecutive
 * blocks (one lookup per chunk a record touches), a chunk with a single
 * block referenced keeps that block's time in the map itself, and the
 * axis is kept 8 times the live count, not 4 (renumbering walked the map
 * 7 times on that trace; bench/trace.sh, docs/PERFORMANCE.md).  Even so
 * each lookup there is a cache miss, so callers that hold records ahead
 * hint them (az_sd_prefetch: the map's slot, then the chunk's times or
 * the axis word) and the misses of several records overlap.
 * popcount is compiled twice (x86-64): with the POPCNT instruction when the
 * CPU has it, else the portable builtin, chosen when a stack is made.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "common/alloc.h"
#include "analyze/az.h"
#include "analyze/chunkmap.h"

#define MIN_AXIS_WORDS 1024u /* 65536 times */
#define AXIS_FACTOR    8u    /* axis / live times after renumbering */

/* The block map (AZ_SD_FENWICK) is keyed by chunks of CHUNK consecutive
 * blocks, so that a record's blocks cost one map lookup per chunk, not
 * one each.  A chunk's value word is either one block's time inline, when
 * only one block of the chunk was ever referenced (time << INLINE_SHIFT |
 * offset << 1 | 1: a random 4 KiB reference costs what it cost with a map
 * per block), or the index of the chunk's CHUNK times (index << 1).  Four
 * blocks a chunk: 8 and 16 were no faster on the bench traces and took
 * 1.4 and 2.4 times the memory of 4 on the large-footprint one. */
#define CHUNK_BITS   2u
#define CHUNK        (1u << CHUNK_BITS)
#define NO_TIME      UINT64_MAX
#define INLINE_SHIFT (CHUNK_BITS + 1)
/* The chunks' times live in slabs that never move: slab 0 and 1 hold
 * SLAB0 chunks each, slab i > 1 twice as many as slab i - 1, so that a
 * small stack (a unit's isolated cache, the sampled block sample) stays
 * small and a large one makes few allocations. */
#define SLAB0_BITS 6u
#define SLAB0      (1ull << SLAB0_BITS)
#define SLABS      (64 - SLAB0_BITS)

/* Deferred tree updates: (group, delta) pairs applied at once. */
#define PENDING 8

struct az_sd {
    enum az_sd_method method;
    int (*range)(struct az_sd *sd, uint64_t key, uint64_t n, uint64_t *depth);
    uint64_t pend_group[PENDING];
    int32_t pend_delta[PENDING];
    unsigned npend;
    Pvoid_t last;       /* JudyL (AZ_SD_JUDY1): key -> time of its last reference + 1 */
    struct az_cmap map; /* AZ_SD_FENWICK: chunk (key / CHUNK) -> a value word */
    Pvoid_t live;       /* Judy1 of live times (AZ_SD_JUDY1) */
    uint64_t unique, now;
    /* AZ_SD_FENWICK: the chunks' times, CHUNK per chunk (NO_TIME where a
     * block was never referenced), in slabs (below) */
    uint64_t *slab[SLABS];
    uint64_t nslabs, nchunks, inline_words;
    /* AZ_SD_FENWICK: the dense time axis */
    uint64_t *bits;
    uint32_t *fen; /* 1-based Fenwick tree over the groups' popcounts */
    uint64_t words, groups, min_words, compactions;
};

/* The tree counts groups of 8 words (512 times, one cache line of bits):
 * a count walks a tree 8 times smaller (L1-resident at a million blocks)
 * and finishes with at most 8 popcounts in one line. */
#define GROUP_WORDS 8u

static int range_default(struct az_sd *sd, uint64_t key, uint64_t n, uint64_t *depth);
#if defined(__x86_64__) && defined(__GNUC__)
static int range_popcnt(struct az_sd *sd, uint64_t key, uint64_t n, uint64_t *depth);
#endif

struct az_sd *az_sd_new(enum az_sd_method method)
{
    struct az_sd *sd = cm_calloc(1, sizeof(*sd));

    if (sd) {
        sd->method = method;
        sd->min_words = MIN_AXIS_WORDS;
        sd->range = range_default;
#if defined(__x86_64__) && defined(__GNUC__)
        if (__builtin_cpu_supports("popcnt"))
            sd->range = range_popcnt;
#endif
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
    az_cm_free(&sd->map);
    free(sd->bits);
    free(sd->fen);
    while (sd->nslabs)
        free(sd->slab[--sd->nslabs]);
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
    return judy + az_cm_mem(&sd->map) + sd->words * sizeof(*sd->bits) +
           sd->groups * sizeof(*sd->fen) + sd->nchunks * CHUNK * sizeof(**sd->slab);
}

/* ---- the dense axis ------------------------------------------------------ */

#define ALWAYS_INLINE __attribute__((always_inline)) inline

static ALWAYS_INLINE void fen_add_group(struct az_sd *sd, uint64_t g, int32_t d)
{
    uint64_t i;

    for (i = g + 1; i <= sd->groups; i += i & (~i + 1))
        sd->fen[i - 1] = (uint32_t)((int32_t)sd->fen[i - 1] + d);
}

static ALWAYS_INLINE void pend_flush(struct az_sd *sd)
{
    unsigned i;

    for (i = 0; i < sd->npend; i++)
        if (sd->pend_delta[i])
            fen_add_group(sd, sd->pend_group[i], sd->pend_delta[i]);
    sd->npend = 0;
}

/* Records a +1/-1 at time t for the tree, coalesced by group. */
static ALWAYS_INLINE void pend_add(struct az_sd *sd, uint64_t t, int32_t d)
{
    uint64_t g = t / 64 / GROUP_WORDS;
    unsigned i;

    for (i = 0; i < sd->npend; i++)
        if (sd->pend_group[i] == g) {
            sd->pend_delta[i] += d;
            return;
        }
    if (sd->npend == PENDING)
        pend_flush(sd);
    sd->pend_group[sd->npend] = g;
    sd->pend_delta[sd->npend++] = d;
}

/* Live times before t (positions 0..t-1); the tree must be up to date. */
static ALWAYS_INLINE uint64_t fen_rank(const struct az_sd *sd, uint64_t t)
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

/* Live times in [a, b), a <= b, from the bits alone. */
static ALWAYS_INLINE uint64_t bits_between(const struct az_sd *sd, uint64_t a, uint64_t b)
{
    uint64_t wa = a / 64, wb = b / 64, sum;

    if (wa == wb)
        return (uint64_t)__builtin_popcountll(sd->bits[wa] & ((1ull << (b % 64)) - 1) &
                                              ~((1ull << (a % 64)) - 1));
    sum = (uint64_t)__builtin_popcountll(sd->bits[wa] & ~((1ull << (a % 64)) - 1));
    for (wa++; wa < wb; wa++)
        sum += (uint64_t)__builtin_popcountll(sd->bits[wa]);
    if (b % 64)
        sum += (uint64_t)__builtin_popcountll(sd->bits[wb] & ((1ull << (b % 64)) - 1));
    return sum;
}

/* Builds the Fenwick tree over the current bits in O(words). */
static ALWAYS_INLINE void fen_build(struct az_sd *sd)
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

/* The slab of chunk c and c's first chunk there. */
static ALWAYS_INLINE unsigned slab_of(uint64_t c, uint64_t *first)
{
    uint64_t h = c >> SLAB0_BITS;
    unsigned i = h ? 64u - (unsigned)__builtin_clzll(h) : 0;

    *first = i ? SLAB0 << (i - 1) : 0;
    return i;
}

/* Chunk c's CHUNK times. */
static ALWAYS_INLINE uint64_t *chunk_at(const struct az_sd *sd, uint64_t c)
{
    uint64_t first;
    unsigned i = slab_of(c, &first);

    return sd->slab[i] + (c - first) * CHUNK;
}

/* A new chunk, every block without a time: its index, or -ENOMEM. */
static int64_t chunk_new(struct az_sd *sd)
{
    uint64_t c = sd->nchunks, first, i;
    unsigned k = slab_of(c, &first);

    if (k == sd->nslabs) {
        uint64_t n = k ? SLAB0 << (k - 1) : SLAB0;
        if (!(sd->slab[k] = cm_malloc(n * CHUNK * sizeof(**sd->slab))))
            return -ENOMEM;
        sd->nslabs++;
    }
    for (i = 0; i < CHUNK; i++)
        sd->slab[k][(c - first) * CHUNK + i] = NO_TIME;
    sd->nchunks++;
    return (int64_t)c;
}

static ALWAYS_INLINE uint64_t inline_word(uint64_t t, unsigned off)
{
    return t << INLINE_SHIFT | (uint64_t)off << 1 | 1;
}

/* The new time of old: its rank among the live times on the old axis,
 * before[w] holding the live times in words 0..w-1. */
static ALWAYS_INLINE uint64_t renumbered(const struct az_sd *sd, const uint64_t *before,
                                         uint64_t old)
{
    return before[old / 64] + (uint64_t)__builtin_popcountll(sd->bits[old / 64] &
                                                             ((1ull << (old % 64)) - 1));
}

/* Renumbers the live times 0..unique-1 and makes room for AXIS_FACTOR - 1
 * times as many new ones, and for extra more.  0 or -ENOMEM. */
static ALWAYS_INLINE int compact(struct az_sd *sd, uint64_t extra)
{
    uint64_t need = (sd->unique * AXIS_FACTOR + extra + 63) / 64, words = sd->words;
    uint64_t *bits, *before, i, sum = 0;
    uint32_t *fen;

    pend_flush(sd);
    /* before[w] = live times in words 0..w-1: each time's new value is then
     * one lookup and one popcount, not a tree walk. */
    before = cm_malloc((sd->words + 1) * sizeof(*before));
    if (!before)
        return -ENOMEM;
    for (i = 0; i < sd->words; i++) {
        before[i] = sum;
        sum += (uint64_t)__builtin_popcountll(sd->bits[i]);
    }
    if (need < sd->min_words)
        need = sd->min_words;
    need = (need + GROUP_WORDS - 1) / GROUP_WORDS * GROUP_WORDS;
    while (words < need)
        words = words ? words * 2 : need;
    bits = cm_calloc(words, sizeof(*bits));
    fen = cm_calloc(words / GROUP_WORDS, sizeof(*fen));
    if (!bits || !fen) {
        free(bits);
        free(fen);
        free(before);
        return -ENOMEM;
    }
    /* Every live time once: the inline ones in the map, the others in the
     * slabs, in order (no map walk needed for those). */
    if (sd->inline_words)
        for (i = 0; i <= sd->map.mask && sd->map.slot; i++) {
            uint64_t *pv = &sd->map.slot[i].value;
            if (sd->map.slot[i].key1 && *pv & 1) {
                uint64_t t = renumbered(sd, before, *pv >> INLINE_SHIFT);
                *pv = inline_word(t, (unsigned)(*pv >> 1) % CHUNK);
                bits[t / 64] |= 1ull << (t % 64);
            }
        }
    for (i = 0; i < sd->nchunks; i++) {
        uint64_t *tp = chunk_at(sd, i), j;
        for (j = 0; j < CHUNK; j++)
            if (tp[j] != NO_TIME) {
                tp[j] = renumbered(sd, before, tp[j]);
                bits[tp[j] / 64] |= 1ull << (tp[j] % 64);
            }
    }
    free(before);
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

/* Previous times closer than this use the bits instead of the tree. */
#define NEAR_TIMES (64u * GROUP_WORDS)

/* The rank walk's memory: the previous reused block of the range. */
struct near {
    uint64_t s, rank;
    int have;
};

/* A reference at time t (the axis has room) to a block last referenced at
 * s (NO_TIME: never).  Returns its depth. */
static ALWAYS_INLINE uint64_t touch(struct az_sd *sd, uint64_t s, uint64_t t,
                                    struct near *nr)
{
    uint64_t rank, depth = 0;

    if (s == NO_TIME) {
        sd->unique++;
    } else {
        /* Since nr->rank was taken only nr->s was cleared and times after
         * now set, so the bits between give the rank. */
        if (nr->have && s > nr->s && s - nr->s < NEAR_TIMES) {
            rank = nr->rank + bits_between(sd, nr->s, s);
        } else {
            pend_flush(sd);
            rank = fen_rank(sd, s);
        }
        depth = sd->unique - rank;
        sd->bits[s / 64] &= ~(1ull << (s % 64));
        pend_add(sd, s, -1);
        nr->s = s;
        nr->rank = rank;
        nr->have = 1;
    }
    sd->bits[t / 64] |= 1ull << (t % 64);
    pend_add(sd, t, 1);
    return depth;
}

/* Blocks off..off + n - 1 of the chunk of key k (within one chunk).  The
 * value word stays where the map put it: nothing is added in between. */
static ALWAYS_INLINE int chunk_range(struct az_sd *sd, uint64_t k, unsigned off,
                                     unsigned n, uint64_t *depth, struct near *nr)
{
    uint64_t ck = k >> CHUNK_BITS;
    uint64_t *pv = az_cm_get(&sd->map, ck);
    uint64_t *times;
    unsigned i;

    if (pv && *pv & 1 && n == 1 && (unsigned)(*pv >> 1) % CHUNK == off) {
        /* the inline block again */
        *depth = touch(sd, *pv >> INLINE_SHIFT, sd->now, nr);
        *pv = inline_word(sd->now++, off);
        return 0;
    }
    if (!pv && n == 1) { /* one block of a chunk never seen: inline */
        if (!(pv = az_cm_put(&sd->map, ck)))
            return -ENOMEM;
        *depth = touch(sd, NO_TIME, sd->now, nr);
        *pv = inline_word(sd->now++, off);
        sd->inline_words++;
        return 0;
    }
    if (!pv || *pv & 1) { /* a chunk of times, made before the map changes */
        int64_t c = chunk_new(sd);

        if (c < 0)
            return -ENOMEM;
        if (!pv) {
            if (!(pv = az_cm_put(&sd->map, ck)))
                return -ENOMEM;
        } else { /* the inline block moves into it */
            chunk_at(sd, (uint64_t)c)[(*pv >> 1) % CHUNK] = *pv >> INLINE_SHIFT;
            sd->inline_words--;
        }
        *pv = (uint64_t)c << 1;
    }
    times = chunk_at(sd, *pv >> 1) + off;
    for (i = 0; i < n; i++) {
        depth[i] = touch(sd, times[i], sd->now, nr);
        times[i] = sd->now++;
    }
    return 0;
}

static ALWAYS_INLINE int fenwick_range(struct az_sd *sd, uint64_t key, uint64_t n,
                                       uint64_t *depth)
{
    struct near nr = {0, 0, 0};
    uint64_t i = 0;

    if (sd->now + n > sd->words * 64 && compact(sd, n) < 0)
        return -ENOMEM;
    while (i < n) {
        uint64_t k = key + i;
        unsigned off = (unsigned)(k & (CHUNK - 1));
        unsigned m = CHUNK - off < n - i ? CHUNK - off : (unsigned)(n - i);

        if (chunk_range(sd, k, off, m, depth + i, &nr) < 0) {
            pend_flush(sd);
            return -ENOMEM;
        }
        i += m;
    }
    pend_flush(sd);
    return 0;
}

/* The range code twice: as compiled for any x86-64, and with the POPCNT
 * instruction (libgcc's __popcountdi2 call was 5.6 % of an analysis), the
 * latter chosen once at az_sd_new when the CPU has it.  Plain dispatch, not
 * an ifunc (target_clones): ifunc resolvers run before sanitizer runtimes
 * and crash TSan builds. */
static int range_default(struct az_sd *sd, uint64_t key, uint64_t n, uint64_t *depth)
{
    return fenwick_range(sd, key, n, depth);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static int range_popcnt(struct az_sd *sd, uint64_t key,
                                                          uint64_t n, uint64_t *depth)
{
    return fenwick_range(sd, key, n, depth);
}
#endif

/* At most this many chunks of a range are hinted: a record of 32 KiB
 * spans 3. */
#define PREFETCH_CHUNKS 4u

void az_sd_prefetch(const struct az_sd *sd, uint64_t key, uint64_t n, int deep)
{
    uint64_t c = key >> CHUNK_BITS, end = (key + n - 1) >> CHUNK_BITS;

    if (sd->method != AZ_SD_FENWICK || !sd->map.slot)
        return;
    if (end - c >= PREFETCH_CHUNKS)
        end = c + PREFETCH_CHUNKS - 1;
    for (; c <= end; c++) {
        const uint64_t *pv;
        if (!deep) {
            __builtin_prefetch(&sd->map.slot[az_cm_home(&sd->map, c)]);
            continue;
        }
        if (!(pv = az_cm_get(&sd->map, c)))
            continue;
        if (!(*pv & 1))
            __builtin_prefetch(chunk_at(sd, *pv >> 1));
        else if ((*pv >> INLINE_SHIFT) / 64 < sd->words)
            __builtin_prefetch(&sd->bits[(*pv >> INLINE_SHIFT) / 64]);
    }
}

static int ref_judy1(struct az_sd *sd, uint64_t key, uint64_t *depth)
{
    PWord_t pv = (PWord_t)JudyLIns(&sd->last, (Word_t)key, PJE0);
    uint64_t t = ++sd->now;

    *depth = 0;
    if (pv == PJERR)
        return -ENOMEM;
    if (*pv == 0) {
        sd->unique++;
    } else {
        Word_t s = *pv;
        /* The cheaper side: population minus the times before s. */
        *depth = sd->unique - (s > 1 ? Judy1Count(sd->live, 0, s - 1, PJE0) : 0);
        Judy1Unset(&sd->live, s, PJE0);
    }
    if (Judy1Set(&sd->live, (Word_t)t, PJE0) == JERR)
        return -ENOMEM;
    *pv = t;
    return 0;
}

int az_sd_ref_range(struct az_sd *sd, uint64_t key, uint64_t n, uint64_t *depth)
{
    uint64_t i;

    if (sd->method == AZ_SD_FENWICK)
        return sd->range(sd, key, n, depth);
    for (i = 0; i < n; i++)
        if (ref_judy1(sd, key + i, &depth[i]) < 0)
            return -ENOMEM;
    return 0;
}

int64_t az_sd_ref(struct az_sd *sd, uint64_t key)
{
    uint64_t d;

    if (az_sd_ref_range(sd, key, 1, &d) < 0)
        return -ENOMEM;
    return (int64_t)d;
}
