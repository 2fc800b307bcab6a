/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save.c - a finished image written to a file and read back (im.h), for
 * the NFS trace replay's plan file: the replay prepares the tree and names
 * objects from the image without reading the trace again.  What is saved
 * is what a finished image answers from - objects, links, names and
 * targets, handles, roots, the walk's order, the orphan tops and the
 * counts; the maps that only learning uses (names, fileids) are not.
 * Every number is big-endian; a read checks every index it is given
 * against the sizes, so that a damaged file is refused, never followed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/alloc.h"
#include "common/binfile.h"
#include "common/bytes.h"
#include "image/im_int.h"

#define MAGIC 0x494d4731u /* "IMG1" */

/* ---- writing ------------------------------------------------------------- */

static void put_counts(FILE *f, const struct im_counts *c)
{
    cm_bin_put64(f, c->events);
    cm_bin_put64(f, c->assumed_ok);
    cm_bin_put64(f, c->name_only);
    cm_bin_put64(f, c->merged);
    cm_bin_put64(f, c->untraced_names);
    cm_bin_put64(f, c->dot_names);
    cm_bin_put64(f, c->dir_links);
    cm_bin_put64(f, c->cycles);
    cm_bin_put64(f, c->handle_conflicts);
}

int im_save(const struct im_image *img, FILE *f)
{
    uint32_t i, nfh = im_fhmap_count(img->fh), nchild;

    if (!img->finished)
        return -EINVAL;
    nchild = img->child_start[img->nobj];
    cm_bin_put32(f, MAGIC);
    cm_bin_put32(f, img->nobj);
    cm_bin_put32(f, img->nlink);
    cm_bin_put64(f, img->text.len);
    cm_bin_put32(f, nfh);
    cm_bin_put32(f, img->nroots);
    cm_bin_put32(f, img->norphan_tops);
    cm_bin_put32(f, nchild);
    cm_bin_put32(f, (uint32_t)img->root_inferred);
    put_counts(f, &img->counts);
    for (i = 0; i < img->nobj; i++) {
        const struct im_obj *o = &img->obj[i];

        cm_bin_put32(f, (uint32_t)o->type);
        cm_bin_put32(f, o->flags);
        cm_bin_put32(f, o->mode);
        cm_bin_put32(f, o->nlink);
        cm_bin_put64(f, o->size);
        cm_bin_put64(f, o->size_max);
        cm_bin_put64(f, o->fileid);
        cm_bin_put64(f, (uint64_t)o->created_ns);
        cm_bin_put64(f, (uint64_t)o->removed_ns);
        cm_bin_put32(f, o->fh_id);
        cm_bin_put32(f, o->parent_link);
        cm_bin_put32(f, o->top);
        cm_bin_put32(f, o->depth);
        cm_bin_put32(f, o->first_link);
        cm_bin_put32(f, o->nlinks);
        cm_bin_put64(f, o->target_off);
        cm_bin_put32(f, o->target_len);
    }
    for (i = 0; i < img->nlink; i++) {
        const struct im_link *l = &img->link[i];

        cm_bin_put32(f, l->dir);
        cm_bin_put32(f, l->obj);
        cm_bin_put32(f, l->flags);
        cm_bin_put32(f, l->next_of_obj);
        cm_bin_put64(f, (uint64_t)l->created_ns);
        cm_bin_put64(f, (uint64_t)l->removed_ns);
        cm_bin_put64(f, l->name_off);
        cm_bin_put32(f, l->name_len);
    }
    if (img->text.len > 0) /* an image without names has no text buffer */
        (void)fwrite(img->text.b, 1, (size_t)img->text.len, f);
    for (i = 0; i < nfh; i++) {
        struct nf_fh fh;

        im_fhmap_get(img->fh, i, &fh);
        cm_bin_put32(f, fh.len);
        (void)fwrite(fh.data, 1, fh.len, f);
        cm_bin_put32(f, img->fh_obj[i]);
    }
    for (i = 0; i < img->nroots; i++) {
        cm_bin_put32(f, img->roots[i]);
        cm_bin_put64(f, img->root_path[i]);
        cm_bin_put32(f, img->root_path_len[i]);
    }
    for (i = 0; i <= img->nobj; i++)
        cm_bin_put32(f, img->child_start[i]);
    for (i = 0; i < nchild; i++)
        cm_bin_put32(f, img->child[i]);
    for (i = 0; i < img->norphan_tops; i++)
        cm_bin_put32(f, img->orphan_tops[i]);
    return ferror(f) ? -EIO : 0;
}

/* ---- reading ------------------------------------------------------------- */

static void get_counts(struct cm_bin_reader *r, struct im_counts *c)
{
    c->events = cm_bin_get64(r);
    c->assumed_ok = cm_bin_get64(r);
    c->name_only = cm_bin_get64(r);
    c->merged = cm_bin_get64(r);
    c->untraced_names = cm_bin_get64(r);
    c->dot_names = cm_bin_get64(r);
    c->dir_links = cm_bin_get64(r);
    c->cycles = cm_bin_get64(r);
    c->handle_conflicts = cm_bin_get64(r);
}

/* An id below n, or IM_NONE_ID. */
static int id_ok(uint32_t id, uint32_t n)
{
    return id == IM_NONE_ID || id < n;
}

static int objects_in(struct cm_bin_reader *r, struct im_image *img, uint32_t nfh)
{
    uint32_t i;

    for (i = 0; i < img->nobj && !r->short_read; i++) {
        struct im_obj *o = &img->obj[i];

        o->type = (enum tr_nfs_ftype)cm_bin_get32(r);
        o->flags = cm_bin_get32(r);
        o->mode = cm_bin_get32(r);
        o->nlink = cm_bin_get32(r);
        o->size = cm_bin_get64(r);
        o->size_max = cm_bin_get64(r);
        o->fileid = cm_bin_get64(r);
        o->created_ns = (int64_t)cm_bin_get64(r);
        o->removed_ns = (int64_t)cm_bin_get64(r);
        o->fh_id = cm_bin_get32(r);
        o->parent_link = cm_bin_get32(r);
        o->top = cm_bin_get32(r);
        o->depth = cm_bin_get32(r);
        o->first_link = cm_bin_get32(r);
        o->nlinks = cm_bin_get32(r);
        o->target_off = cm_bin_get64(r);
        o->target_len = cm_bin_get32(r);
        if (!id_ok(o->fh_id, nfh) || !id_ok(o->parent_link, img->nlink) ||
            !id_ok(o->top, img->nobj) || !id_ok(o->first_link, img->nlink) ||
            o->target_off + o->target_len > img->text.len)
            return -EINVAL;
    }
    for (i = 0; i < img->nlink && !r->short_read; i++) {
        struct im_link *l = &img->link[i];

        l->dir = cm_bin_get32(r);
        l->obj = cm_bin_get32(r);
        l->flags = cm_bin_get32(r);
        l->next_of_obj = cm_bin_get32(r);
        l->created_ns = (int64_t)cm_bin_get64(r);
        l->removed_ns = (int64_t)cm_bin_get64(r);
        l->name_off = cm_bin_get64(r);
        l->name_len = cm_bin_get32(r);
        if (!id_ok(l->dir, img->nobj) || l->obj >= img->nobj ||
            !id_ok(l->next_of_obj, img->nlink) ||
            l->name_off + l->name_len > img->text.len)
            return -EINVAL;
    }
    return r->short_read ? -EIO : 0;
}

static int handles_in(struct cm_bin_reader *r, struct im_image *img, uint32_t nfh)
{
    uint32_t i;

    for (i = 0; i < nfh && !r->short_read; i++) {
        struct nf_fh fh;

        fh.len = cm_bin_get32(r);
        if (fh.len == 0 || fh.len > NF_FH_MAX ||
            fread(fh.data, 1, fh.len, r->f) != fh.len)
            return -EINVAL;
        if (im_fhmap_id(img->fh, &fh, 1, NULL) != (int64_t)i) /* a duplicate */
            return -EINVAL;
        img->fh_obj[i] = cm_bin_get32(r);
        if (!id_ok(img->fh_obj[i], img->nobj))
            return -EINVAL;
    }
    return r->short_read ? -EIO : 0;
}

static int tree_in(struct cm_bin_reader *r, struct im_image *img, uint32_t nchild)
{
    uint32_t i;

    for (i = 0; i < img->nroots && !r->short_read; i++) {
        img->roots[i] = cm_bin_get32(r);
        img->root_path[i] = cm_bin_get64(r);
        img->root_path_len[i] = cm_bin_get32(r);
        if (img->roots[i] >= img->nobj ||
            img->root_path[i] + img->root_path_len[i] > img->text.len)
            return -EINVAL;
    }
    for (i = 0; i <= img->nobj && !r->short_read; i++) {
        img->child_start[i] = cm_bin_get32(r);
        if (img->child_start[i] > nchild ||
            (i && img->child_start[i] < img->child_start[i - 1]))
            return -EINVAL;
    }
    if (img->child_start[img->nobj] != nchild)
        return -EINVAL;
    for (i = 0; i < nchild && !r->short_read; i++) {
        img->child[i] = cm_bin_get32(r);
        if (img->child[i] >= img->nlink)
            return -EINVAL;
    }
    for (i = 0; i < img->norphan_tops && !r->short_read; i++) {
        img->orphan_tops[i] = cm_bin_get32(r);
        if (img->orphan_tops[i] >= img->nobj)
            return -EINVAL;
    }
    return r->short_read ? -EIO : 0;
}

/* n elements of sz bytes (at least one, so that an empty array is not
 * NULL). */
static void *array(uint64_t n, size_t sz)
{
    return n > UINT32_MAX ? NULL : cm_calloc((size_t)n ? (size_t)n : 1, sz);
}

int im_load(struct im_image **out, FILE *f, char *err, size_t errlen)
{
    struct cm_bin_reader r = {f, 0};
    struct im_image *img = im_new();
    uint32_t nfh, nchild;
    int rc;

    *out = NULL;
    if (!img)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    if (cm_bin_get32(&r) != MAGIC) {
        im_free(img);
        return cm_errf(err, errlen, "no image where the plan puts it"), -EINVAL;
    }
    img->nobj = img->cap_obj = cm_bin_get32(&r);
    img->nlink = img->cap_link = cm_bin_get32(&r);
    img->text.len = img->text.cap = cm_bin_get64(&r);
    nfh = img->cap_fh_obj = cm_bin_get32(&r);
    img->nroots = img->cap_roots = cm_bin_get32(&r);
    img->norphan_tops = cm_bin_get32(&r);
    nchild = cm_bin_get32(&r);
    img->root_inferred = (int)cm_bin_get32(&r);
    get_counts(&r, &img->counts);
    img->obj = array(img->nobj, sizeof(*img->obj));
    img->link = array(img->nlink, sizeof(*img->link));
    img->text.b = array(img->text.len, 1);
    img->fh_obj = array(nfh, sizeof(*img->fh_obj));
    img->roots = array(img->nroots, sizeof(*img->roots));
    img->root_path = array(img->nroots, sizeof(*img->root_path));
    img->root_path_len = array(img->nroots, sizeof(*img->root_path_len));
    img->child_start = array((uint64_t)img->nobj + 1, sizeof(*img->child_start));
    img->child = array(nchild, sizeof(*img->child));
    img->orphan_tops = array(img->norphan_tops, sizeof(*img->orphan_tops));
    if (r.short_read)
        rc = -EIO;
    else if (!img->obj || !img->link || !img->text.b || !img->fh_obj || !img->roots ||
             !img->root_path || !img->root_path_len || !img->child_start || !img->child ||
             !img->orphan_tops)
        rc = -ENOMEM;
    else if ((rc = objects_in(&r, img, nfh)) == 0 &&
             fread(img->text.b, 1, (size_t)img->text.len, f) != img->text.len)
        rc = -EIO;
    if (rc == 0)
        rc = handles_in(&r, img, nfh);
    if (rc == 0)
        rc = tree_in(&r, img, nchild);
    if (rc < 0) {
        im_free(img);
        return cm_errf(err, errlen, "%s",
                       rc == -ENOMEM ? "out of memory"
                       : rc == -EIO  ? "the image is cut short"
                                     : "the image is damaged"),
               rc;
    }
    img->finished = 1;
    *out = img;
    return 0;
}
