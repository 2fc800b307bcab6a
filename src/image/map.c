/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * map.c - the hash index the NFS file-system image is made of, and
 * the handle map (handle bytes -> dense ids) on top of it.  An index slot
 * is 8 bytes (a 32-bit hash and an id), probed linearly and doubled at half
 * load, so a lookup is one hash of the key and, nearly always, one key
 * comparison; the keys themselves stay in the caller's arrays and arenas,
 * stored once.  Nothing is ever deleted: the image only learns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "image/im_int.h"

#define IDX_BITS0 10 /* 1024 slots to start with */

uint32_t im__idx_hash(const void *key, size_t len, uint64_t seed)
{
    const unsigned char *p = key;
    uint64_t h = seed ^ (len * 0x9e3779b97f4a7c15ull), w;

    while (len >= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    w = 0;
    memcpy(&w, p, len);
    h = (h ^ w) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (uint32_t)h;
}

static uint32_t slot_id(uint64_t s)
{
    return (uint32_t)(s & 0xffffffffu) - 1;
}

uint32_t im__idx_find(const struct im__idx *x, uint32_t hash, im__idx_eq eq,
                      const void *ctx, const void *key, size_t len)
{
    uint64_t i;

    if (!x->slot)
        return IM_NONE_ID;
    for (i = hash & x->mask; x->slot[i]; i = (i + 1) & x->mask)
        if ((uint32_t)(x->slot[i] >> 32) == hash &&
            eq(ctx, slot_id(x->slot[i]), key, len))
            return slot_id(x->slot[i]);
    return IM_NONE_ID;
}

static int grow(struct im__idx *x)
{
    uint64_t n = x->slot ? (x->mask + 1) * 2 : 1u << IDX_BITS0, i, j;
    uint64_t *s;

    if (n > (1ull << 32)) /* the hash picks the slot: 2^32 at most */
        return -ENOMEM;
    if (!(s = cm_calloc((size_t)n, sizeof(*s))))
        return -ENOMEM;
    for (i = 0; x->slot && i <= x->mask; i++) {
        if (!x->slot[i])
            continue;
        for (j = (x->slot[i] >> 32) & (n - 1); s[j]; j = (j + 1) & (n - 1))
            ;
        s[j] = x->slot[i];
    }
    free(x->slot);
    x->slot = s;
    x->mask = n - 1;
    return 0;
}

int im__idx_set(struct im__idx *x, uint32_t hash, im__idx_eq eq, const void *ctx,
                const void *key, size_t len, uint32_t id)
{
    uint64_t i;

    if ((!x->slot || (x->used + 1) * 2 > x->mask + 1) && grow(x) < 0)
        return -ENOMEM;
    for (i = hash & x->mask; x->slot[i]; i = (i + 1) & x->mask)
        if ((uint32_t)(x->slot[i] >> 32) == hash &&
            eq(ctx, slot_id(x->slot[i]), key, len))
            break;
    if (!x->slot[i])
        x->used++;
    x->slot[i] = (uint64_t)hash << 32 | ((uint64_t)id + 1);
    return 0;
}

void im__idx_free(struct im__idx *x)
{
    free(x->slot);
    memset(x, 0, sizeof(*x));
}

size_t im__idx_mem(const struct im__idx *x)
{
    return x->slot ? (size_t)(x->mask + 1) * sizeof(*x->slot) : 0;
}

int im__grow(void **arr, uint32_t *cap, uint32_t n, size_t sz)
{
    uint32_t c;
    void *p;

    if (n < *cap)
        return 0;
    if (*cap >= UINT32_MAX / 2)
        return -ENOMEM;
    c = *cap ? *cap * 2 : 64;
    if (!(p = cm_reallocarray(*arr, c, sz)))
        return -ENOMEM;
    *arr = p;
    *cap = c;
    return 0;
}

int im__arena_add(struct im__arena *a, const void *p, size_t len, uint64_t *off)
{
    if (a->len + len > a->cap) {
        uint64_t c = a->cap ? a->cap : 4096;
        unsigned char *b;
        while (c < a->len + len)
            c *= 2;
        if (c > SIZE_MAX || !(b = cm_realloc(a->b, (size_t)c)))
            return -ENOMEM;
        a->b = b;
        a->cap = c;
    }
    if (len)
        memcpy(a->b + a->len, p, len);
    *off = a->len;
    a->len += len;
    return 0;
}

/* ---- the handle map ----------------------------------------------------- */

struct im_fhmap {
    struct im__idx idx;
    struct im__arena bytes; /* the handles, back to back */
    uint64_t *off;          /* id -> offset in bytes */
    uint8_t *len;           /* id -> length */
    uint32_t n, cap;
};

struct im_fhmap *im_fhmap_new(void)
{
    return cm_calloc(1, sizeof(struct im_fhmap));
}

void im_fhmap_free(struct im_fhmap *m)
{
    if (!m)
        return;
    im__idx_free(&m->idx);
    free(m->bytes.b);
    free(m->off);
    free(m->len);
    free(m);
}

static int fh_eq(const void *ctx, uint32_t id, const void *key, size_t len)
{
    const struct im_fhmap *m = ctx;

    return m->len[id] == len && memcmp(m->bytes.b + m->off[id], key, len) == 0;
}

int64_t im_fhmap_id(struct im_fhmap *m, const struct nf_fh *fh, int add, int *added)
{
    uint32_t h, id, c = m->cap;
    uint64_t off;

    if (added)
        *added = 0;
    if (fh->len == 0 || fh->len > NF_FH_MAX)
        return -EINVAL;
    h = im__idx_hash(fh->data, fh->len, 0);
    id = im__idx_find(&m->idx, h, fh_eq, m, fh->data, fh->len);
    if (id != IM_NONE_ID)
        return id;
    if (!add)
        return -ENOENT;
    if (m->n == UINT32_MAX - 1)
        return -ENOMEM;
    if (m->n >= m->cap) {
        if (im__grow((void **)&m->off, &c, m->n, sizeof(*m->off)) < 0)
            return -ENOMEM;
        c = m->cap;
        if (im__grow((void **)&m->len, &c, m->n, sizeof(*m->len)) < 0)
            return -ENOMEM;
        m->cap = c;
    }
    if (im__arena_add(&m->bytes, fh->data, fh->len, &off) < 0)
        return -ENOMEM;
    m->off[m->n] = off;
    m->len[m->n] = (uint8_t)fh->len;
    if (im__idx_set(&m->idx, h, fh_eq, m, fh->data, fh->len, m->n) < 0) {
        m->bytes.len = off;
        return -ENOMEM;
    }
    if (added)
        *added = 1;
    return m->n++;
}

uint32_t im_fhmap_count(const struct im_fhmap *m)
{
    return m->n;
}

void im_fhmap_get(const struct im_fhmap *m, uint32_t id, struct nf_fh *fh)
{
    fh->len = 0;
    if (id >= m->n)
        return;
    fh->len = m->len[id];
    memcpy(fh->data, m->bytes.b + m->off[id], fh->len);
}

size_t im_fhmap_mem(const struct im_fhmap *m)
{
    return im__idx_mem(&m->idx) + (size_t)m->bytes.cap +
           (size_t)m->cap * (sizeof(*m->off) + sizeof(*m->len));
}

const char *im_fh_hex(const struct nf_fh *fh, char *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t i;

    if (len == 0)
        return buf;
    buf[0] = 0;
    if ((size_t)fh->len * 2 + 1 > len)
        return buf;
    for (i = 0; i < fh->len; i++) {
        buf[2 * i] = hex[fh->data[i] >> 4];
        buf[2 * i + 1] = hex[fh->data[i] & 15];
    }
    buf[2 * fh->len] = 0;
    return buf;
}
