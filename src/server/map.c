/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * map.c - a 64-bit key -> pointer hash map for the server's in-memory file
 * system (server layer): open addressing with linear probing, load at most
 * one half, deletion by backward shift (no tombstones, so a table that sees
 * endless create/remove churn never degrades).  It indexes nodes by file id
 * and file data chunks by chunk number.  Judy would serve, but the layer
 * rules keep Judy in src/analyze (tests/integration/0001_layering.t).
 */
#include "server/sv_int.h"

#include <errno.h>
#include <stdlib.h>

#define MAP_MIN_CAP 16

static size_t slot_of(const struct sv_map *m, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (m->cap - 1);
}

static int grow(struct sv_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : MAP_MIN_CAP, old = m->cap;
    uint64_t *keys = calloc(cap, sizeof(*keys));
    void **vals = calloc(cap, sizeof(*vals));
    uint64_t *okeys = m->keys;
    void **ovals = m->vals;

    if (keys == NULL || vals == NULL) {
        free(keys);
        free(vals);
        return -ENOMEM;
    }
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    for (size_t i = 0; i < old; i++) {
        if (okeys[i] == 0)
            continue;
        size_t s = slot_of(m, okeys[i]);
        while (m->keys[s] != 0)
            s = (s + 1) & (m->cap - 1);
        m->keys[s] = okeys[i];
        m->vals[s] = ovals[i];
    }
    free(okeys);
    free(ovals);
    return 0;
}

/* Keys are stored plus one, so that 0 marks an empty slot.  Replacing the
 * value of a present key never allocates, so it cannot fail. */
int sv__map_put(struct sv_map *m, uint64_t key, void *val)
{
    size_t s;

    if (m->n > 0) {
        for (s = slot_of(m, key + 1); m->keys[s] != 0; s = (s + 1) & (m->cap - 1)) {
            if (m->keys[s] == key + 1) {
                m->vals[s] = val;
                return 0;
            }
        }
    }
    if (2 * (m->n + 1) > m->cap && grow(m) != 0)
        return -ENOMEM;
    key++;
    s = slot_of(m, key);
    while (m->keys[s] != 0 && m->keys[s] != key)
        s = (s + 1) & (m->cap - 1);
    if (m->keys[s] == 0)
        m->n++;
    m->keys[s] = key;
    m->vals[s] = val;
    return 0;
}

void *sv__map_get(const struct sv_map *m, uint64_t key)
{
    size_t s;

    if (m->n == 0)
        return NULL;
    key++;
    s = slot_of(m, key);
    while (m->keys[s] != 0) {
        if (m->keys[s] == key)
            return m->vals[s];
        s = (s + 1) & (m->cap - 1);
    }
    return NULL;
}

void *sv__map_del(struct sv_map *m, uint64_t key)
{
    size_t s, next;
    void *val;

    if (m->n == 0)
        return NULL;
    key++;
    s = slot_of(m, key);
    while (m->keys[s] != key) {
        if (m->keys[s] == 0)
            return NULL;
        s = (s + 1) & (m->cap - 1);
    }
    val = m->vals[s];
    /* backward shift: pull later members of the probe run into the hole */
    for (next = (s + 1) & (m->cap - 1); m->keys[next] != 0;
         next = (next + 1) & (m->cap - 1)) {
        size_t home = slot_of(m, m->keys[next]);
        /* move if home is cyclically outside (s, next] */
        if ((next > s && (home <= s || home > next)) ||
            (next < s && home <= s && home > next)) {
            m->keys[s] = m->keys[next];
            m->vals[s] = m->vals[next];
            s = next;
        }
    }
    m->keys[s] = 0;
    m->vals[s] = NULL;
    m->n--;
    return val;
}

void sv__map_free(struct sv_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}
