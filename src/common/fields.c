/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fields.c - merge, wire form and YAML of a struct from its field table
 * (fields.h).  One walk over the table serves every use.
 */
#include <string.h>

#include "common/bytes.h"
#include "common/yaml.h"
#include "common/fields.h"
#include "common/hist.h"

static unsigned elements(const struct cm_field *f)
{
    return f->count ? f->count : 1;
}

static void merge_hist(struct cm_hist *a, const struct cm_hist *b)
{
    unsigned i;

    for (i = 0; i < CM_HIST_NB; i++)
        a->n[i] += b->n[i];
    if (b->count && (a->count == 0 || b->min_us < a->min_us))
        a->min_us = b->min_us;
    a->count += b->count;
    if (b->max_us > a->max_us)
        a->max_us = b->max_us;
}

/* a = a (op) b for one number of type T: the larger, the smaller set (not
 * 0), or the sum. */
#define MERGE_AS(T)                                                                      \
    do {                                                                                 \
        T x, y;                                                                          \
        memcpy(&x, a, sizeof(x));                                                        \
        memcpy(&y, b, sizeof(y));                                                        \
        if (f->merge == CM_MERGE_MAX)                                                    \
            x = y > x ? y : x;                                                           \
        else if (f->merge == CM_MERGE_MIN)                                               \
            x = x == 0 || (y != 0 && y < x) ? y : x;                                     \
        else                                                                             \
            x = x + y;                                                                   \
        memcpy(a, &x, sizeof(x));                                                        \
    } while (0)

static void merge_one(const struct cm_field *f, char *a, const char *b)
{
    switch (f->type) {
    case CM_FIELD_U64:
    case CM_FIELD_X100:
        MERGE_AS(uint64_t);
        break;
    case CM_FIELD_U32:
        MERGE_AS(uint32_t);
        break;
    case CM_FIELD_INT:
        MERGE_AS(int);
        break;
    case CM_FIELD_DOUBLE:
        MERGE_AS(double);
        break;
    case CM_FIELD_HIST:
        merge_hist((struct cm_hist *)(void *)a, (const struct cm_hist *)(const void *)b);
        break;
    case CM_FIELD_TABLE:
        cm_fields_merge(f->sub, f->nsub, a, b);
        break;
    case CM_FIELD_STR:
        break;
    }
}

void cm_top_insert(uint64_t *top, unsigned n, uint64_t v)
{
    unsigned i, j;

    for (i = 0; i < n && top[i] > v; i++)
        ;
    if (v == 0 || i == n || top[i] == v)
        return;
    for (j = n - 1; j > i; j--)
        top[j] = top[j - 1];
    top[i] = v;
}

void cm_fields_merge(const struct cm_field *t, size_t n, void *dst, const void *src)
{
    size_t i;
    unsigned k;

    for (i = 0; i < n; i++) {
        const struct cm_field *f = &t[i];

        if (f->merge == CM_MERGE_NONE)
            continue;
        if (f->merge == CM_MERGE_TOP) {
            uint64_t v;
            for (k = 0; k < elements(f); k++) {
                memcpy(&v, (const char *)src + f->offset + k * f->size, sizeof(v));
                cm_top_insert((uint64_t *)(void *)((char *)dst + f->offset), elements(f),
                              v);
            }
            continue;
        }
        for (k = 0; k < elements(f); k++)
            merge_one(f, (char *)dst + f->offset + k * f->size,
                      (const char *)src + f->offset + k * f->size);
    }
}

/* ---- differences ------------------------------------------------------------ */

/* a = a - b for one number of type T (0 when b is the larger). */
#define DIFF_AS(T)                                                                       \
    do {                                                                                 \
        T x, y;                                                                          \
        memcpy(&x, a, sizeof(x));                                                        \
        memcpy(&y, b, sizeof(y));                                                        \
        x = x > y ? x - y : 0;                                                           \
        memcpy(a, &x, sizeof(x));                                                        \
    } while (0)

static void diff_one(const struct cm_field *f, char *a, const char *b)
{
    struct cm_hist *h = (struct cm_hist *)(void *)a;
    const struct cm_hist *g = (const struct cm_hist *)(const void *)b;
    unsigned i;

    switch (f->type) {
    case CM_FIELD_U64:
    case CM_FIELD_X100:
        DIFF_AS(uint64_t);
        break;
    case CM_FIELD_U32:
        DIFF_AS(uint32_t);
        break;
    case CM_FIELD_INT:
        DIFF_AS(int);
        break;
    case CM_FIELD_DOUBLE:
        DIFF_AS(double);
        break;
    case CM_FIELD_HIST:
        for (i = 0; i < CM_HIST_NB; i++)
            h->n[i] = h->n[i] > g->n[i] ? h->n[i] - g->n[i] : 0;
        h->count = h->count > g->count ? h->count - g->count : 0;
        break;
    case CM_FIELD_TABLE:
        cm_fields_diff(f->sub, f->nsub, a, a, b);
        break;
    case CM_FIELD_STR:
        break;
    }
}

void cm_fields_diff(const struct cm_field *t, size_t n, void *dst, const void *now,
                    const void *before)
{
    size_t i;
    unsigned k;

    for (i = 0; i < n; i++) {
        const struct cm_field *f = &t[i];

        for (k = 0; k < elements(f); k++) {
            size_t off = f->offset + k * f->size;

            memmove((char *)dst + off, (const char *)now + off, f->size);
            if (f->merge == CM_MERGE_SUM)
                diff_one(f, (char *)dst + off, (const char *)before + off);
        }
    }
}

/* ---- wire form ----------------------------------------------------------------
 *
 * Compact, because most counters are small and most histogram cells empty
 * (a child of the SFS mix fills a few dozen of each op's 432): integers as
 * LEB128 varints (7 bits a byte, low bits first; an int zigzagged),
 * doubles as their IEEE-754 bits big-endian, a histogram as its count, its
 * max and its non-zero cells, each as the gap from the previous one and
 * the value.  The reader checks every byte against the end it is given.
 */

#define VARINT_MAX 10 /* bytes of a 64-bit varint */

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* NULL when [p, end) holds no whole varint of at most 64 bits. */
static const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
    unsigned shift = 0;

    *v = 0;
    while (p < end && shift <= 63) { /* 7-bit groups: shifts 0, 7 ... 63 */
        uint8_t b = *p++;

        if (shift == 63 && b > 1)
            return NULL; /* beyond 64 bits */
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return p;
        shift += 7;
    }
    return NULL;
}

static size_t one_max(const struct cm_field *f)
{
    switch (f->type) {
    case CM_FIELD_U64:
    case CM_FIELD_X100:
        return VARINT_MAX;
    case CM_FIELD_DOUBLE:
        return 8;
    case CM_FIELD_U32:
    case CM_FIELD_INT:
        return 5;
    case CM_FIELD_HIST: /* count, max, min, cells, then (gap, value) per cell */
        return 4 * VARINT_MAX + (size_t)CM_HIST_NB * (3 + 5);
    case CM_FIELD_TABLE:
        return cm_fields_wire_max(f->sub, f->nsub);
    case CM_FIELD_STR:
        return 0;
    }
    return 0;
}

size_t cm_fields_wire_max(const struct cm_field *t, size_t n)
{
    size_t i, bytes = 0;

    for (i = 0; i < n; i++)
        bytes += one_max(&t[i]) * elements(&t[i]);
    return bytes;
}

static uint8_t *put_hist(const struct cm_hist *h, uint8_t *p)
{
    unsigned i, cells = 0, last = 0;

    for (i = 0; i < CM_HIST_NB; i++)
        cells += h->n[i] != 0;
    p = put_varint(p, h->count);
    p = put_varint(p, h->max_us);
    p = put_varint(p, h->min_us);
    p = put_varint(p, cells);
    for (i = 0; i < CM_HIST_NB; i++)
        if (h->n[i]) {
            p = put_varint(p, i - last);
            p = put_varint(p, h->n[i]);
            last = i + 1;
        }
    return p;
}

static uint8_t *put_one(const struct cm_field *f, const char *a, uint8_t *p)
{
    uint64_t x;
    uint32_t w;
    int v;

    switch (f->type) {
    case CM_FIELD_U64:
    case CM_FIELD_X100:
        memcpy(&x, a, sizeof(x));
        return put_varint(p, x);
    case CM_FIELD_DOUBLE:
        memcpy(&x, a, sizeof(x));
        cm_be64_put(p, x);
        return p + 8;
    case CM_FIELD_U32:
        memcpy(&w, a, sizeof(w));
        return put_varint(p, w);
    case CM_FIELD_INT:
        memcpy(&v, a, sizeof(v));
        return put_varint(p, ((uint32_t)v << 1) ^ (uint32_t) - (v < 0));
    case CM_FIELD_HIST:
        return put_hist((const struct cm_hist *)(const void *)a, p);
    case CM_FIELD_TABLE:
        return cm_fields_put(f->sub, f->nsub, a, p);
    case CM_FIELD_STR:
        return p;
    }
    return p;
}

uint8_t *cm_fields_put(const struct cm_field *t, size_t n, const void *base, uint8_t *p)
{
    size_t i;
    unsigned k;

    for (i = 0; i < n; i++)
        for (k = 0; k < elements(&t[i]); k++)
            p = put_one(&t[i], (const char *)base + t[i].offset + k * t[i].size, p);
    return p;
}

static const uint8_t *get_hist(struct cm_hist *h, const uint8_t *p, const uint8_t *end)
{
    uint64_t cells, gap, v;
    unsigned at = 0;

    memset(h, 0, sizeof(*h));
    if ((p = get_varint(p, end, &h->count)) == NULL ||
        (p = get_varint(p, end, &h->max_us)) == NULL ||
        (p = get_varint(p, end, &h->min_us)) == NULL ||
        (p = get_varint(p, end, &cells)) == NULL || cells > CM_HIST_NB)
        return NULL;
    while (cells-- > 0) {
        if ((p = get_varint(p, end, &gap)) == NULL || gap >= CM_HIST_NB - at ||
            (p = get_varint(p, end, &v)) == NULL || v > UINT32_MAX)
            return NULL;
        at += (unsigned)gap;
        h->n[at++] = (uint32_t)v;
    }
    return p;
}

static const uint8_t *get_one(const struct cm_field *f, char *a, const uint8_t *p,
                              const uint8_t *end)
{
    uint64_t x;
    uint32_t w;
    int v;

    switch (f->type) {
    case CM_FIELD_U64:
    case CM_FIELD_X100:
        p = get_varint(p, end, &x);
        memcpy(a, &x, sizeof(x));
        return p;
    case CM_FIELD_DOUBLE:
        if (end - p < 8)
            return NULL;
        x = cm_be64_get(p);
        memcpy(a, &x, sizeof(x));
        return p + 8;
    case CM_FIELD_U32:
    case CM_FIELD_INT:
        p = get_varint(p, end, &x);
        if (p == NULL || x > UINT32_MAX)
            return NULL;
        w = (uint32_t)x;
        if (f->type == CM_FIELD_INT) {
            v = (int)(w >> 1) ^ -(int)(w & 1);
            memcpy(a, &v, sizeof(v));
        } else {
            memcpy(a, &w, sizeof(w));
        }
        return p;
    case CM_FIELD_HIST:
        return get_hist((struct cm_hist *)(void *)a, p, end);
    case CM_FIELD_TABLE:
        return cm_fields_get(f->sub, f->nsub, a, p, end);
    case CM_FIELD_STR:
        return p;
    }
    return p;
}

const uint8_t *cm_fields_get(const struct cm_field *t, size_t n, void *base,
                             const uint8_t *p, const uint8_t *end)
{
    size_t i;
    unsigned k;

    for (i = 0; i < n && p; i++)
        for (k = 0; k < elements(&t[i]) && p; k++)
            p = get_one(&t[i], (char *)base + t[i].offset + k * t[i].size, p, end);
    return p;
}

/* ---- YAML --------------------------------------------------------------------- */

void cm_fields_yaml(struct cm_yaml *y, const struct cm_field *t, size_t n,
                    const void *base, const char *group)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const struct cm_field *f = &t[i];
        const char *a = (const char *)base + f->offset;
        uint64_t x;
        uint32_t w;
        double d;
        int v;

        if (f->group == NULL || strcmp(f->group, group) != 0 || f->count > 1)
            continue;
        switch (f->type) {
        case CM_FIELD_U64:
            memcpy(&x, a, sizeof(x));
            cm_yaml_kv_uint(y, f->key, x);
            break;
        case CM_FIELD_X100:
            memcpy(&x, a, sizeof(x));
            cm_yaml_kv_double(y, f->key, (double)x / 100.0, 2);
            break;
        case CM_FIELD_U32:
            memcpy(&w, a, sizeof(w));
            cm_yaml_kv_uint(y, f->key, w);
            break;
        case CM_FIELD_INT:
            memcpy(&v, a, sizeof(v));
            cm_yaml_kv_int(y, f->key, v);
            break;
        case CM_FIELD_DOUBLE:
            memcpy(&d, a, sizeof(d));
            cm_yaml_kv_double(y, f->key, d, f->decimals);
            break;
        case CM_FIELD_STR:
            cm_yaml_kv_str(y, f->key, a);
            break;
        case CM_FIELD_HIST:
        case CM_FIELD_TABLE:
            break;
        }
    }
}
