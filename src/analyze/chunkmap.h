/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chunkmap.h - the stack's block map (stackdist.c): a chunk key -> one value
 * word, an open-addressing table with linear probing.  Written by hand
 * rather than taken from Judy because the keys a trace's cold reads make
 * are random over a large space: there JudyLGet and JudyLIns walked three
 * or four nodes each (a cache miss apiece), most of the exact curve's time
 * on a trace of 1.8 M distinct blocks, where a probe here is one cache line
 * (docs/PERFORMANCE.md, "A large footprint").  Keys are below 2^63 (a block
 * key divided by the chunk size); a slot holds key + 1, 0 when empty.  The
 * table doubles when it is more than CM_LOAD_NUM / CM_LOAD_DEN full, so a
 * pointer from az_cm_get or az_cm_put stays valid only until the next put.
 */
#ifndef AZ_CHUNKMAP_H
#define AZ_CHUNKMAP_H

#include <stddef.h>
#include <stdint.h>

struct az_cm_slot {
    uint64_t key1; /* key + 1; 0: empty */
    uint64_t value;
};

struct az_cmap {
    struct az_cm_slot *slot;
    uint64_t mask;  /* slots - 1 (0 before the first put) */
    uint64_t n;     /* keys held */
    unsigned shift; /* 64 - log2(slots) */
};

/* Fibonacci hashing: consecutive chunks (a file read in order) land in
 * different lines, and the top bits are the well mixed ones. */
static inline uint64_t az_cm_home(const struct az_cmap *m, uint64_t key)
{
    return (key * 0x9e3779b97f4a7c15ull) >> m->shift;
}

/* The value of key, or NULL when key is absent. */
static inline uint64_t *az_cm_get(const struct az_cmap *m, uint64_t key)
{
    uint64_t i;

    if (!m->slot)
        return NULL;
    for (i = az_cm_home(m, key);; i = (i + 1) & m->mask) {
        struct az_cm_slot *s = &m->slot[i];
        if (s->key1 == key + 1)
            return &s->value;
        if (!s->key1)
            return NULL;
    }
}

/* Adds key, which must be absent, with value 0: its value's place, or NULL
 * when out of memory (the table is unchanged then). */
uint64_t *az_cm_put(struct az_cmap *m, uint64_t key);
/* Bytes the table holds. */
size_t az_cm_mem(const struct az_cmap *m);
void az_cm_free(struct az_cmap *m);

#endif
