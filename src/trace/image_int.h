/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * image_int.h - what the files of the NFS file-system image share and no
 * one else needs: an open-addressing hash index of dense ids (image_map.c)
 * that the handle map, the name map and the fileid map are made of, and
 * the image's own state (image.c builds it, image_tree.c places and walks
 * it).
 */
#ifndef TR_IMAGE_INT_H
#define TR_IMAGE_INT_H

#include "trace/tr_nfs_image.h"

/* ---- the hash index (image_map.c) --------------------------------------- */

/* Slots hold (32-bit hash << 32 | id + 1); 0 is empty.  The keys live with
 * the caller, who compares them through eq.  Entries are never deleted (an
 * entry's id may be replaced). */
struct tr__idx {
    uint64_t *slot;
    uint64_t mask; /* slots - 1 (0 with no table yet) */
    uint64_t used;
};

typedef int (*tr__idx_eq)(const void *ctx, uint32_t id, const void *key, size_t len);

uint32_t tr__idx_hash(const void *key, size_t len, uint64_t seed);
/* The id stored for key, or TR_NFS_NONE_ID. */
uint32_t tr__idx_find(const struct tr__idx *x, uint32_t hash, tr__idx_eq eq,
                      const void *ctx, const void *key, size_t len);
/* Stores id for key, replacing the id of an equal key.  0 or -ENOMEM. */
int tr__idx_set(struct tr__idx *x, uint32_t hash, tr__idx_eq eq, const void *ctx,
                const void *key, size_t len, uint32_t id);
void tr__idx_free(struct tr__idx *x);
size_t tr__idx_mem(const struct tr__idx *x);

/* A growable array of n elements of size sz: makes room for one more.  0
 * or -ENOMEM. */
int tr__grow(void **arr, uint32_t *cap, uint32_t n, size_t sz);
/* Appends len bytes to a byte arena; *off gets where.  0 or -ENOMEM. */
struct tr__arena {
    unsigned char *b;
    uint64_t len, cap;
};
int tr__arena_add(struct tr__arena *a, const void *p, size_t len, uint64_t *off);

/* ---- the image (image.c, image_tree.c) ---------------------------------- */

struct tr_nfs_image {
    struct tr_nfs_obj *obj;
    uint32_t nobj, cap_obj;
    struct tr_nfs_link *link;
    uint32_t nlink, cap_link;
    struct tr_nfs_fhmap *fh; /* handle -> fh id */
    uint32_t *fh_obj;        /* fh id -> object */
    uint32_t cap_fh_obj;
    struct tr__idx names;   /* (dir, name) -> its latest link */
    struct tr__idx fileids; /* fileid -> object (READDIR entries) */
    struct tr__arena text;  /* names and symlink targets */
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
    struct tr_nfs_image_counts counts;
};

int tr__image_place(struct tr_nfs_image *img);

#endif /* TR_IMAGE_INT_H */
