/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.c - the NFS file-system image as a tree at the start of the trace:
 * im_finish chooses each object's place (the first name it had at the
 * start), the roots (the MNT exports, or when the trace has no MNT the
 * parentless directory with the largest tree under it), and the orphans
 * (objects present at the start that no root reaches: each parentless one
 * tops a tree of its own, named by its handle; an export mounted inside
 * another export's tree is placed there); then im_walk hands the tree out
 * depth first for the replay to create, and im_path names one object.  The
 * queries of im.h are here too.  Every walk is iterative with an explicit
 * stack: a deep tree cannot exhaust the C stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "image/im_int.h"

/* An object the tree at the start holds. */
static int at_start(const struct im_obj *o)
{
    return (o->flags & (IM_O_AT_START | IM_O_DEAD | IM_O_CREATED)) == IM_O_AT_START;
}

/* A link that places l.obj in l.dir at the start. */
static int start_link(const struct im_image *img, const struct im_link *l)
{
    return (l->flags & IM_L_AT_START) && at_start(&img->obj[l->obj]) &&
           at_start(&img->obj[l->dir]);
}

/* Each object's first name at the start; its other names are hard links
 * (or, for a directory, ignored and counted). */
static void choose_places(struct im_image *img)
{
    uint32_t i;

    for (i = 0; i < img->nlink; i++) {
        struct im_link *l = &img->link[i];
        struct im_obj *o = &img->obj[l->obj];
        if (!start_link(img, l) || l->dir == l->obj)
            continue;
        if (o->parent_link == IM_NONE_ID)
            o->parent_link = i;
        else if (o->type == TR_NFS_DIR)
            img->counts.dir_links++;
        else
            l->flags |= IM_L_HARD_LINK;
    }
}

/* Each directory's entries at the start (the links that place objects), in
 * link order, as CSR arrays child_start / child. */
static int build_children(struct im_image *img)
{
    uint32_t i, n = img->nobj;

    if (!(img->child_start = cm_calloc((size_t)n + 2, sizeof(uint32_t))) ||
        !(img->child = cm_calloc((size_t)img->nlink + 1, sizeof(uint32_t))))
        return -ENOMEM;
    for (i = 0; i < n; i++)
        if (img->obj[i].parent_link != IM_NONE_ID)
            img->child_start[img->link[img->obj[i].parent_link].dir + 2]++;
    for (i = 0; i < n; i++)
        img->child_start[i + 2] += img->child_start[i + 1];
    for (i = 0; i < img->nlink; i++)
        if (img->obj[img->link[i].obj].parent_link == i)
            img->child[img->child_start[img->link[i].dir + 1]++] = i;
    return 0;
}

/* Places the tree under top (depth first, iterative): top and depth of
 * every object reached; returns how many, or -ENOMEM. */
static int64_t place(struct im_image *img, uint32_t top, uint32_t *stack, uint32_t flags)
{
    uint32_t sp = 0, k;
    int64_t n = 0;

    if (img->obj[top].top != IM_NONE_ID)
        return 0;
    img->obj[top].top = top;
    img->obj[top].depth = 0;
    img->obj[top].flags |= flags;
    stack[sp++] = top;
    while (sp) {
        uint32_t d = stack[--sp];
        n++;
        for (k = img->child_start[d]; k < img->child_start[d + 1]; k++) {
            struct im_obj *c = &img->obj[img->link[img->child[k]].obj];
            if (c->top != IM_NONE_ID)
                continue; /* a loop at the start: placed already */
            c->top = top;
            c->depth = img->obj[d].depth + 1;
            c->flags |= flags;
            stack[sp++] = img->link[img->child[k]].obj;
        }
    }
    return n;
}

/* The size of the tree under o (without placing it): for choosing a root. */
static uint64_t tree_size(const struct im_image *img, uint32_t o, uint32_t *stack,
                          uint8_t *seen)
{
    uint32_t sp = 0, k;
    uint64_t n = 0;

    stack[sp++] = o;
    seen[o] = 1;
    while (sp) {
        uint32_t d = stack[--sp];
        n++;
        for (k = img->child_start[d]; k < img->child_start[d + 1]; k++) {
            uint32_t c = img->link[img->child[k]].obj;
            if (!seen[c]) {
                seen[c] = 1;
                stack[sp++] = c;
            }
        }
    }
    return n;
}

/* Without MNT: the parentless directory present at the start with the
 * largest tree (the first one on a tie), when it has entries. */
static int infer_root(struct im_image *img, uint32_t *stack)
{
    uint8_t *seen = cm_calloc((size_t)img->nobj + 1, 1);
    uint32_t i, best = IM_NONE_ID;
    uint64_t best_n = 1, n;
    int rc = 0;

    if (!seen)
        return -ENOMEM;
    for (i = 0; i < img->nobj; i++) {
        const struct im_obj *o = &img->obj[i];
        if (!at_start(o) || o->parent_link != IM_NONE_ID || o->type != TR_NFS_DIR)
            continue;
        n = tree_size(img, i, stack, seen);
        if (n > best_n) {
            best_n = n;
            best = i;
        }
    }
    free(seen);
    if (best != IM_NONE_ID) {
        uint32_t c = img->cap_roots;
        uint64_t off;
        if (im__grow((void **)&img->roots, &c, 0, sizeof(*img->roots)) < 0 ||
            (c = img->cap_roots,
             im__grow((void **)&img->root_path, &c, 0, sizeof(*img->root_path)) < 0) ||
            (c = img->cap_roots, im__grow((void **)&img->root_path_len, &c, 0,
                                          sizeof(*img->root_path_len)) < 0) ||
            im__arena_add(&img->text, "", 1, &off) < 0)
            return -ENOMEM;
        img->cap_roots = c;
        img->roots[0] = best;
        img->root_path[0] = off;
        img->root_path_len[0] = 0;
        img->nroots = 1;
        img->root_inferred = 1;
        img->obj[best].flags |= IM_O_ROOT;
    }
    return rc;
}

/* The objects present at the start that no root reaches: climbs from each
 * to the top of its orphan tree (breaking a loop of parents where it
 * closes), and places that tree. */
static int place_orphans(struct im_image *img, uint32_t *stack)
{
    uint32_t *mark = cm_calloc((size_t)img->nobj + 1, sizeof(uint32_t));
    uint32_t i, c = 0;

    if (!mark)
        return -ENOMEM;
    for (i = 0; i < img->nobj; i++) {
        uint32_t o = i, pl;
        if (!at_start(&img->obj[i]) || img->obj[i].top != IM_NONE_ID)
            continue;
        while ((pl = img->obj[o].parent_link) != IM_NONE_ID &&
               img->obj[img->link[pl].dir].top == IM_NONE_ID) {
            mark[o] = i + 1;
            o = img->link[pl].dir;
            if (mark[o] == i + 1) { /* a loop: o's place closes it */
                img->counts.cycles++;
                img->obj[o].parent_link = IM_NONE_ID;
                break;
            }
        }
        if (img->obj[o].top != IM_NONE_ID)
            continue;
        if (im__grow((void **)&img->orphan_tops, &c, img->norphan_tops,
                     sizeof(*img->orphan_tops)) < 0) {
            free(mark);
            return -ENOMEM;
        }
        img->orphan_tops[img->norphan_tops++] = o;
        img->obj[o].flags |= IM_O_ORPHAN_TOP;
        place(img, o, stack, IM_O_ORPHAN);
    }
    free(mark);
    return 0;
}

int im_finish(struct im_image *img)
{
    uint32_t *stack, i;
    int rc = 0;

    if (img->finished)
        return 0;
    img->finished = 1;
    choose_places(img);
    if (build_children(img) < 0 ||
        !(stack = cm_calloc((size_t)img->nobj + 1, sizeof(uint32_t))))
        return -ENOMEM;
    if (img->nroots == 0)
        rc = infer_root(img, stack);
    /* roots whose place is unknown first: one mounted inside another
     * (an export's subdirectory mounted too) is placed in that one's tree */
    for (i = 0; rc == 0 && i < img->nroots; i++)
        if (img->obj[img->roots[i]].parent_link == IM_NONE_ID)
            place(img, img->roots[i], stack, 0);
    for (i = 0; rc == 0 && i < img->nroots; i++)
        place(img, img->roots[i], stack, 0);
    if (rc == 0)
        rc = place_orphans(img, stack);
    free(stack);
    return rc;
}

/* ---- paths -------------------------------------------------------------- */

/* The link that gives o its path: its place at the start, or for an object
 * the trace creates, the name it was created with (its first link). */
static uint32_t path_link(const struct im_image *img, uint32_t o)
{
    const struct im_obj *x = &img->obj[o];
    uint32_t k, first = IM_NONE_ID;

    if (x->top == o)
        return IM_NONE_ID; /* a root or an orphan top */
    if (x->parent_link != IM_NONE_ID)
        return x->parent_link;
    for (k = x->first_link; k != IM_NONE_ID; k = img->link[k].next_of_obj)
        if (img->link[k].flags & IM_L_CREATED)
            first = k; /* the chain runs newest first */
    return first;
}

/* A top's own name: "" for a root, "h<hex>" (or "n<id>" without handle)
 * for an orphan top. */
static int top_name(const struct im_image *img, uint32_t o, char *buf, size_t len)
{
    struct nf_fh fh;
    int n;

    if (img->obj[o].flags & IM_O_ROOT) {
        buf[0] = 0;
        return 0;
    }
    im_fh(img, o, &fh);
    if (fh.len == 0)
        n = snprintf(buf, len, "n%u", o);
    else if (len < (size_t)fh.len * 2 + 2)
        n = -1;
    else {
        buf[0] = 'h';
        im_fh_hex(&fh, buf + 1, len - 1);
        n = (int)strlen(buf);
    }
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

const char *im_path(const struct im_image *img, uint32_t obj, char *buf, size_t len)
{
    size_t end = len, n;
    uint32_t o = obj, steps = 0, l;
    char top[2 * NF_FH_MAX + 16];
    int tn;

    if (len == 0 || obj >= img->nobj || (img->obj[obj].flags & IM_O_DEAD)) {
        errno = ENOENT;
        return NULL;
    }
    buf[--end] = 0;
    /* names from the object up, written right to left */
    while ((l = path_link(img, o)) != IM_NONE_ID) {
        const struct im_link *k = &img->link[l];
        n = k->name_len + (end < len - 1 ? 1 : 0);
        if (n > end || ++steps > img->nobj) {
            errno = n > end ? ENAMETOOLONG : ENOENT;
            return NULL;
        }
        if (end < len - 1)
            buf[--end] = '/';
        end -= k->name_len;
        memcpy(buf + end, img->text.b + k->name_off, k->name_len);
        o = k->dir;
    }
    if (img->obj[o].top != o) {
        errno = ENOENT; /* a created object whose directory has no place */
        return NULL;
    }
    if ((tn = top_name(img, o, top, sizeof(top))) < 0) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    if (tn) {
        n = (size_t)tn + (end < len - 1 ? 1 : 0);
        if (n > end) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        if (end < len - 1)
            buf[--end] = '/';
        end -= (size_t)tn;
        memcpy(buf + end, top, (size_t)tn);
    }
    memmove(buf, buf + end, len - end);
    return buf;
}

/* ---- the walk ----------------------------------------------------------- */

struct frame {
    uint32_t obj, next, path_len;
};

/* Walks the tree under top: the top, then each directory before its
 * entries. */
static int walk_tree(const struct im_image *img, uint32_t top, enum im_walk_kind kind,
                     struct frame *st, char *path, im_walk_fn fn, void *data,
                     uint64_t *too_long)
{
    struct im_walk_item w = {kind, top, IM_NONE_ID, top, IM_NONE_ID, path, 0, path, 0};
    uint32_t sp = 0;
    int tn, rc;

    if ((tn = top_name(img, top, path, TR_NFS_PATH_MAX)) < 0) {
        (*too_long)++;
        return 0;
    }
    w.name_len = (size_t)tn;
    if (kind == IM_W_ROOT) {
        w.name = im_root_path(img, top);
        w.name_len = strlen(w.name);
    }
    if ((rc = fn(data, &w)) != 0)
        return rc;
    st[sp++] = (struct frame){top, img->child_start[top], (uint32_t)tn};
    while (sp) {
        struct frame *f = &st[sp - 1];
        const struct im_link *l;
        size_t at;
        if (f->next >= img->child_start[f->obj + 1]) {
            sp--;
            continue;
        }
        l = &img->link[img->child[f->next++]];
        at = f->path_len + (f->path_len ? 1 : 0);
        if (at + l->name_len >= TR_NFS_PATH_MAX) {
            (*too_long)++;
            continue;
        }
        if (f->path_len)
            path[f->path_len] = '/';
        memcpy(path + at, img->text.b + l->name_off, l->name_len);
        path[at + l->name_len] = 0;
        w.kind = IM_W_ENTRY;
        w.obj = l->obj;
        w.dir = l->dir;
        w.link = (uint32_t)(l - img->link);
        w.name = path + at;
        w.name_len = l->name_len;
        w.depth = img->obj[l->obj].depth;
        if ((rc = fn(data, &w)) != 0)
            return rc;
        st[sp++] = (struct frame){l->obj, img->child_start[l->obj],
                                  (uint32_t)(at + l->name_len)};
    }
    return 0;
}

int im_walk(const struct im_image *img, im_walk_fn fn, void *data, uint64_t *too_long)
{
    struct frame *st = cm_calloc((size_t)img->nobj + 1, sizeof(*st));
    char *path = cm_malloc(TR_NFS_PATH_MAX), *dpath = cm_malloc(TR_NFS_PATH_MAX);
    uint64_t skipped = 0;
    uint32_t i;
    int rc = 0;

    if (!too_long)
        too_long = &skipped;
    if (!st || !path || !dpath || !img->finished) {
        rc = img->finished ? -ENOMEM : -EINVAL;
        goto out;
    }
    for (i = 0; rc == 0 && i < img->nroots; i++)
        if (img->obj[img->roots[i]].top == img->roots[i]) /* not inside another */
            rc = walk_tree(img, img->roots[i], IM_W_ROOT, st, path, fn, data, too_long);
    for (i = 0; rc == 0 && i < img->norphan_tops; i++)
        rc = walk_tree(img, img->orphan_tops[i], IM_W_ORPHAN, st, path, fn, data,
                       too_long);
    for (i = 0; rc == 0 && i < img->nlink; i++) {
        const struct im_link *l = &img->link[i];
        struct im_walk_item w;
        size_t n;
        if (!(l->flags & IM_L_HARD_LINK) || img->obj[l->dir].top == IM_NONE_ID ||
            img->obj[l->obj].top == IM_NONE_ID)
            continue;
        if (!im_path(img, l->dir, dpath, TR_NFS_PATH_MAX) ||
            (n = strlen(dpath)) + 1 + l->name_len >= TR_NFS_PATH_MAX) {
            (*too_long)++;
            continue;
        }
        memcpy(path, dpath, n);
        if (n)
            path[n++] = '/';
        memcpy(path + n, img->text.b + l->name_off, l->name_len);
        path[n + l->name_len] = 0;
        w = (struct im_walk_item){
            IM_W_HARD_LINK, l->obj,      l->dir, img->obj[l->dir].top,      i,
            path + n,       l->name_len, path,   img->obj[l->dir].depth + 1};
        rc = fn(data, &w);
    }
out:
    free(st);
    free(path);
    free(dpath);
    return rc;
}

uint32_t im_nobjs(const struct im_image *img)
{
    return img->nobj;
}

const struct im_obj *im_obj(const struct im_image *img, uint32_t id)
{
    return id < img->nobj ? &img->obj[id] : NULL;
}

uint32_t im_nlinks(const struct im_image *img)
{
    return img->nlink;
}

const struct im_link *im_link(const struct im_image *img, uint32_t id)
{
    return id < img->nlink ? &img->link[id] : NULL;
}

const char *im_link_name(const struct im_image *img, uint32_t id, size_t *len)
{
    if (id >= img->nlink) {
        *len = 0;
        return "";
    }
    *len = img->link[id].name_len;
    return (const char *)img->text.b + img->link[id].name_off;
}

const char *im_target(const struct im_image *img, uint32_t id, size_t *len)
{
    *len = 0;
    if (id >= img->nobj || !img->obj[id].target_len)
        return NULL;
    *len = img->obj[id].target_len;
    return (const char *)img->text.b + img->obj[id].target_off;
}

uint32_t im_find(const struct im_image *img, const struct nf_fh *fh)
{
    int64_t f = im_fhmap_id(img->fh, fh, 0, NULL);

    return f < 0 ? IM_NONE_ID : img->fh_obj[f];
}

void im_fh(const struct im_image *img, uint32_t id, struct nf_fh *fh)
{
    fh->len = 0;
    if (id < img->nobj && img->obj[id].fh_id != IM_NONE_ID)
        im_fhmap_get(img->fh, img->obj[id].fh_id, fh);
}

uint32_t im_nlive(const struct im_image *img)
{
    return img->nobj - (uint32_t)img->counts.merged;
}

const struct im_counts *im_counts(const struct im_image *img)
{
    return &img->counts;
}

size_t im_mem(const struct im_image *img)
{
    return (size_t)img->cap_obj * sizeof(*img->obj) +
           (size_t)img->cap_link * sizeof(*img->link) + im_fhmap_mem(img->fh) +
           (size_t)img->cap_fh_obj * sizeof(*img->fh_obj) + im__idx_mem(&img->names) +
           im__idx_mem(&img->fileids) + (size_t)img->text.cap +
           (img->finished ? ((size_t)img->nobj + 1 + img->nlink) * sizeof(uint32_t) : 0);
}

uint32_t im_roots(const struct im_image *img, const uint32_t **ids)
{
    *ids = img->roots;
    return img->nroots;
}

const char *im_root_path(const struct im_image *img, uint32_t obj)
{
    static const char empty[] = "";
    uint32_t i;

    for (i = 0; i < img->nroots; i++)
        if (img->roots[i] == obj && img->root_path_len[i])
            return (const char *)img->text.b + img->root_path[i];
    return empty;
}

int im_root_inferred(const struct im_image *img)
{
    return img->root_inferred;
}

uint32_t im_orphan_tops(const struct im_image *img, const uint32_t **ids)
{
    *ids = img->orphan_tops;
    return img->norphan_tops;
}
