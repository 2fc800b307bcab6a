/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * im_int.h - what the files of the image layer share and no one else
 * needs: an open-addressing hash index of dense ids (map.c)
 * that the handle map, the name map and the fileid map are made of, and
 * the image's own state (learn.c builds it, tree.c places and walks it).
 */
#ifndef IM_INT_H
#define IM_INT_H

#include "image/im.h"

/* ---- the hash index (map.c) --------------------------------------------- */

/* Slots hold (32-bit hash << 32 | id + 1); 0 is empty.  The keys live with
 * the caller, who compares them through eq.  Entries are never deleted (an
 * entry's id may be replaced). */
struct im__idx {
    uint64_t *slot;
    uint64_t mask; /* slots - 1 (0 with no table yet) */
    uint64_t used;
};

typedef int (*im__idx_eq)(const void *ctx, uint32_t id, const void *key, size_t len);

uint32_t im__idx_hash(const void *key, size_t len, uint64_t seed);
/* The id stored for key, or IM_NONE_ID. */
uint32_t im__idx_find(const struct im__idx *x, uint32_t hash, im__idx_eq eq,
                      const void *ctx, const void *key, size_t len);
/* Stores id for key, replacing the id of an equal key.  0 or -ENOMEM. */
int im__idx_set(struct im__idx *x, uint32_t hash, im__idx_eq eq, const void *ctx,
                const void *key, size_t len, uint32_t id);
void im__idx_free(struct im__idx *x);
size_t im__idx_mem(const struct im__idx *x);

/* A growable array of n elements of size sz: makes room for one more.  0
 * or -ENOMEM. */
int im__grow(void **arr, uint32_t *cap, uint32_t n, size_t sz);
/* Appends len bytes to a byte arena; *off gets where.  0 or -ENOMEM. */
struct im__arena {
    unsigned char *b;
    uint64_t len, cap;
};
int im__arena_add(struct im__arena *a, const void *p, size_t len, uint64_t *off);

/* ---- the image (learn.c, tree.c) ---------------------------------------- */

struct im_image {
    struct im_obj *obj;
    uint32_t nobj, cap_obj;
    struct im_link *link;
    uint32_t nlink, cap_link;
    struct im_fhmap *fh; /* handle -> fh id */
    uint32_t *fh_obj;    /* fh id -> object */
    uint32_t cap_fh_obj;
    struct im__idx names;   /* (dir, name) -> its latest link */
    struct im__idx fileids; /* fileid -> object (READDIR entries) */
    struct im__arena text;  /* names and symlink targets */
    uint32_t *roots;        /* MNT roots, then the inferred one */
    uint64_t *root_path;    /* offsets of their MNT paths in text (with len) */
    uint32_t *root_path_len;
    uint32_t nroots, cap_roots;
    /* after finish: each directory's links at start, ordered (CSR) */
    uint32_t *child_start; /* nobj + 1 */
    uint32_t *child;       /* link ids */
    uint32_t *orphan_tops;
    uint32_t norphan_tops;
    int finished;
    int root_inferred; /* no MNT: the root was inferred */
    struct im_counts counts;
};

int im__place(struct im_image *img);

#endif /* IM_INT_H */
