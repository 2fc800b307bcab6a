/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_early.c - replies that reach the reader before their calls.  The
 * two directions of a TCP connection are reassembled apart: when the
 * capture lost a segment of the calls' direction, the calls behind the
 * hole wait (out of order) until it is filled or declared a gap, while
 * the server's replies to them - the server did get the calls - go on
 * being delivered.  Such a reply is held here, as its message's bytes,
 * until its call comes (tr_nfs_rpc.c then decodes it into the call's
 * slot), or the pairing window passes, or the capture ends: then it is a
 * reply without its call after all (counted).  Held in arrival order with
 * a hash of the pairing's key; bounded in replies and in bytes (past
 * either the oldest goes, counted), so that a capture of nothing but
 * replies cannot make the reader grow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"

#define EARLY_MAX   65536u      /* replies held at once */
#define EARLY_BYTES (64u << 20) /* their bytes together */
#define EARLY_MIN   256u        /* the first table's size */

struct ent {
    uint64_t h; /* the pairing's key (tr__pair_key), 0: taken */
    struct tr__early_reply r;
    uint32_t hnext; /* hash chain: slot + 1 */
};

struct tr__early {
    struct ent *e; /* a ring of cap slots in arrival order */
    uint32_t head, n, cap;
    uint32_t *bucket; /* cap buckets: slot + 1 */
    uint64_t bytes;
};

static uint32_t bucket_of(const struct tr__early *q, uint64_t h)
{
    return (uint32_t)(h ^ h >> 32) & (q->cap - 1);
}

static void unlink_slot(struct tr__early *q, uint32_t slot)
{
    uint32_t *k = &q->bucket[bucket_of(q, q->e[slot].h)];

    while (*k) {
        if (*k == slot + 1) {
            *k = q->e[slot].hnext;
            return;
        }
        k = &q->e[*k - 1].hnext;
    }
}

/* Drops the oldest slot: a reply still held is one without its call. */
static void pop(struct tr_nfs_reader *r, struct tr__early *q)
{
    struct ent *x = &q->e[q->head];

    if (x->h) {
        unlink_slot(q, q->head);
        q->bytes -= x->r.len;
        free(x->r.buf);
        r->cnt[TR__C_NO_CALL]++;
    }
    memset(x, 0, sizeof(*x));
    q->head = (q->head + 1) & (q->cap - 1);
    q->n--;
}

/* A table twice as large (or the first), the slots kept in order. */
static int grow(struct tr__early *q)
{
    uint32_t cap = q->cap ? q->cap * 2 : EARLY_MIN, i;
    struct ent *e = cm_calloc(cap, sizeof(*e));
    uint32_t *b = cm_calloc(cap, sizeof(*b));

    if (!e || !b) {
        free(e);
        free(b);
        return -ENOMEM;
    }
    for (i = 0; i < q->n; i++)
        e[i] = q->e[(q->head + i) & (q->cap - 1)];
    free(q->e);
    free(q->bucket);
    q->e = e;
    q->bucket = b;
    q->cap = cap;
    q->head = 0;
    for (i = 0; i < q->n; i++)
        if (e[i].h) {
            uint32_t k = bucket_of(q, e[i].h);
            e[i].hnext = b[k];
            b[k] = i + 1;
        }
    return 0;
}

static struct ent *find(struct tr__early *q, uint64_t h)
{
    uint32_t k;

    if (!q || !q->cap)
        return NULL;
    for (k = q->bucket[bucket_of(q, h)]; k; k = q->e[k - 1].hnext)
        if (q->e[k - 1].h == h)
            return &q->e[k - 1];
    return NULL;
}

void tr__early_expire(struct tr_nfs_reader *r, int all)
{
    struct tr__early *q = r->cap ? r->cap->early : NULL;

    while (q && q->n &&
           (all || !q->e[q->head].h ||
            r->pair.now - q->e[q->head].r.m.t_ns > r->pair.window_ns))
        pop(r, q);
}

int tr__early_put(struct tr_nfs_reader *r, uint64_t h, const struct tr__msg *m,
                  const uint8_t *buf, size_t len, size_t wire)
{
    struct tr__early *q = r->cap->early;
    struct ent *x;
    uint32_t slot, k;

    if (!q) {
        q = r->cap->early = cm_calloc(1, sizeof(*q));
        if (!q)
            return -ENOMEM;
    }
    tr__early_expire(r, 0);
    if (find(q, h))
        return 0; /* a second reply to the same call: the first one stays */
    while (q->n && q->bytes + len > EARLY_BYTES)
        pop(r, q);
    if (q->n == q->cap) {
        if (q->cap < EARLY_MAX) {
            if (grow(q) < 0)
                return -ENOMEM;
        } else {
            pop(r, q);
        }
    }
    slot = (q->head + q->n) & (q->cap - 1);
    x = &q->e[slot];
    memset(x, 0, sizeof(*x));
    x->r.buf = cm_malloc(len ? len : 1);
    if (!x->r.buf)
        return -ENOMEM;
    memcpy(x->r.buf, buf, len);
    x->r.m = *m;
    x->r.len = (uint32_t)len;
    x->r.wire = (uint32_t)wire;
    x->h = h;
    k = bucket_of(q, h);
    x->hnext = q->bucket[k];
    q->bucket[k] = slot + 1;
    q->n++;
    q->bytes += len;
    return 1;
}

int tr__early_take(struct tr_nfs_reader *r, uint64_t h, struct tr__early_reply *out)
{
    struct tr__early *q = r->cap ? r->cap->early : NULL;
    struct ent *x = find(q, h);

    if (!x)
        return 0;
    unlink_slot(q, (uint32_t)(x - q->e));
    q->bytes -= x->r.len;
    *out = x->r; /* the caller frees out->buf */
    x->h = 0;    /* the slot goes when it is the oldest */
    x->r.buf = NULL;
    return 1;
}

void tr__early_free(struct tr__cap *c)
{
    struct tr__early *q = c->early;
    uint32_t i;

    if (!q)
        return;
    for (i = 0; i < q->cap; i++)
        free(q->e[i].r.buf);
    free(q->e);
    free(q->bucket);
    free(q);
    c->early = NULL;
}
