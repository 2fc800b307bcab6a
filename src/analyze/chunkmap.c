/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chunkmap.c - the growing part of the stack's block map (chunkmap.h says
 * why it is not a JudyL array).
 */
#include <stdlib.h>

#include "common/alloc.h"
#include "analyze/chunkmap.h"

#define MIN_BITS 12u /* 4096 slots, 64 KiB */
/* Doubles past 5/8 full: at 3/4 the lookups of absent keys (every cold
 * read) probed long runs; at 1/2 the table took a third more memory for no
 * measurable gain (bench/trace.sh). */
#define CM_LOAD_NUM 5u
#define CM_LOAD_DEN 8u

static void place(struct az_cmap *m, uint64_t key1, uint64_t value)
{
    uint64_t i;

    for (i = az_cm_home(m, key1 - 1); m->slot[i].key1; i = (i + 1) & m->mask)
        ;
    m->slot[i].key1 = key1;
    m->slot[i].value = value;
}

static int grow(struct az_cmap *m)
{
    unsigned bits = m->slot ? 64u - m->shift + 1 : MIN_BITS;
    struct az_cmap g = {NULL, 0, m->n, 64u - bits};
    uint64_t i;

    if (bits > 62 || !(g.slot = cm_calloc((size_t)1 << bits, sizeof(*g.slot))))
        return -1;
    cm_advise_huge(g.slot, ((size_t)1 << bits) * sizeof(*g.slot));
    g.mask = ((uint64_t)1 << bits) - 1;
    if (m->slot)
        for (i = 0; i <= m->mask; i++)
            if (m->slot[i].key1)
                place(&g, m->slot[i].key1, m->slot[i].value);
    free(m->slot);
    *m = g;
    return 0;
}

uint64_t *az_cm_put(struct az_cmap *m, uint64_t key)
{
    uint64_t i;

    if ((!m->slot || (m->n + 1) * CM_LOAD_DEN > (m->mask + 1) * CM_LOAD_NUM) &&
        grow(m) < 0)
        return NULL;
    for (i = az_cm_home(m, key); m->slot[i].key1; i = (i + 1) & m->mask)
        ;
    m->slot[i].key1 = key + 1;
    m->slot[i].value = 0;
    m->n++;
    return &m->slot[i].value;
}

size_t az_cm_mem(const struct az_cmap *m)
{
    return m->slot ? (size_t)(m->mask + 1) * sizeof(*m->slot) : 0;
}

void az_cm_free(struct az_cmap *m)
{
    free(m->slot);
    m->slot = NULL;
    m->mask = m->n = 0;
}
