/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fields.h - counters described once: a table of a struct's fields, each
 * with its type, how two copies merge (several children's, several
 * clients' results), and the YAML key and group it prints under.  The same
 * table drives the merge, a compact wire form (the load
 * generator's results from child to parent and client to prime) and the
 * YAML, so a counter added to the table reaches all three, and none of
 * them can leave one out.
 *
 * A field may be an array (count elements of stride bytes), and an array
 * of structs described by a table of their own (CM_FIELD_TABLE), such as
 * the per-op statistics of every op.  YAML prints the fields of one group
 * in table order: the code that lays a document out says where each group
 * goes and prints what is computed, never a counter by hand.
 */
#ifndef CM_FIELDS_H
#define CM_FIELDS_H

#include <stddef.h>
#include <stdint.h>

struct cm_yaml;

enum cm_field_type {
    CM_FIELD_U64,    /* uint64_t */
    CM_FIELD_U32,    /* uint32_t */
    CM_FIELD_INT,    /* int */
    CM_FIELD_DOUBLE, /* double */
    CM_FIELD_X100,   /* uint64_t hundredths: YAML prints value / 100, 2 decimals */
    CM_FIELD_STR,    /* char[size], NUL-terminated (YAML only) */
    CM_FIELD_HIST,   /* struct cm_hist: cells and count add, max_us and min_us keep
                        the larger and the smaller */
    CM_FIELD_TABLE   /* a struct described by sub[0..nsub) */
};

enum cm_field_merge {
    CM_MERGE_SUM,  /* add */
    CM_MERGE_MAX,  /* keep the larger */
    CM_MERGE_MIN,  /* keep the smaller of those set: 0 means not set (a moment on a
                      clock, the first of several) */
    CM_MERGE_NONE, /* not merged (names, labels) */
    CM_MERGE_TOP,  /* an array of uint64_t kept largest first (0: none): the
                      count largest of both arrays (cm_top_insert) */
};

struct cm_field {
    const char *name; /* the member, for messages */
    enum cm_field_type type;
    enum cm_field_merge merge;
    size_t offset;
    size_t size;       /* CM_FIELD_STR: the array; arrays: an element's (stride) */
    unsigned count;    /* elements of an array, 0 for one */
    const char *group; /* the YAML group that prints it; NULL: never printed as is */
    const char *key;   /* its YAML key */
    int decimals;      /* CM_FIELD_DOUBLE in YAML (-1: as many as needed) */
    const struct cm_field *sub; /* CM_FIELD_TABLE: the element's fields */
    size_t nsub;
};

/* Rows for the common cases: a scalar of struct st's member m. */
#define CM_FIELD_OF(st, m, type, merge, group, key)                                      \
    {                                                                                    \
#m, type, merge, offsetof(st, m), sizeof(((st *)0)->m), 0, group, key, 3, NULL,  \
            0                                                                            \
    }
/* An array member m of n elements. */
#define CM_FIELD_ARRAY(st, m, type, merge, n)                                            \
    {                                                                                    \
#m, type, merge, offsetof(st, m), sizeof(((st *)0)->m[0]), n, NULL, NULL, 3,     \
            NULL, 0                                                                      \
    }
/* An array member m of n structs described by sub. */
#define CM_FIELD_TABLE_OF(st, m, n, sub)                                                 \
    {                                                                                    \
#m, CM_FIELD_TABLE, CM_MERGE_SUM, offsetof(st, m), sizeof(((st *)0)->m[0]), n,   \
            NULL, NULL, 3, sub, sizeof(sub) / sizeof((sub)[0])                           \
    }

/* Puts v (not 0) into top[0..n), kept largest first with 0s after: the
 * smallest goes when it is full; a value already there is not repeated. */
void cm_top_insert(uint64_t *top, unsigned n, uint64_t v);

/* dst = the merge of dst and src, field by field. */
void cm_fields_merge(const struct cm_field *t, size_t n, void *dst, const void *src);

/* dst = what a later copy (now) holds beyond an earlier one (before) of
 * the same counters: SUM fields and histogram cells are subtracted
 * (never below 0), MAX fields and the rest are now's.  Live counters that
 * only grow give an interval's figures so. */
void cm_fields_diff(const struct cm_field *t, size_t n, void *dst, const void *now,
                    const void *before);

/* The most bytes the wire form of a struct takes (CM_FIELD_STR fields do
 * not travel).  The form is compact - varints, a histogram's non-zero
 * cells only - so its length depends on the values. */
size_t cm_fields_wire_max(const struct cm_field *t, size_t n);

/* Writes base's wire form at p (at most cm_fields_wire_max bytes);
 * returns the byte after it. */
uint8_t *cm_fields_put(const struct cm_field *t, size_t n, const void *base, uint8_t *p);

/* Reads a wire form from [p, end) into base; returns the byte after it,
 * or NULL when the bytes end early or hold no wire form of the table (a
 * value too large for its field, a histogram cell out of range). */
const uint8_t *cm_fields_get(const struct cm_field *t, size_t n, void *base,
                             const uint8_t *p, const uint8_t *end);

/* Prints the fields of group as "key: value" entries of the mapping being
 * written, in table order. */
void cm_fields_yaml(struct cm_yaml *y, const struct cm_field *t, size_t n,
                    const void *base, const char *group);

#endif /* CM_FIELDS_H */
