/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * learn.c - building the file-system image from NFS trace events
 * (im.h).  Each event teaches the image something:
 *
 *  - every handle a call or reply carries is an object; one first seen in
 *    a creating reply (CREATE, MKDIR, SYMLINK, MKNOD) was created during
 *    the trace, any other existed at its start;
 *  - names come from LOOKUP, the creating calls, LINK, RENAME, REMOVE,
 *    RMDIR and READDIR(PLUS) entries; a name first seen existing (LOOKUP,
 *    a listing, the name a REMOVE or RENAME acts on) existed at the start,
 *    unless its directory was itself created in the trace or the name was
 *    removed before (then something the trace does not show made it:
 *    counted as untraced);
 *  - types come from attributes, else from the calls made on the object
 *    (LOOKUP in a directory, READ of a file, READLINK of a symlink);
 *  - the size at the start is the largest size seen in attributes, READ
 *    replies (offset + bytes returned, when no attributes said it) and
 *    the wcc pre-operation
 *    attributes of the first call that may change it (a WRITE past the
 *    known end, a SETATTR of the size, a truncating CREATE), and nothing
 *    after that call; a READ the capture has no reply for counts offset +
 *    count;
 *  - a namespace call whose reply the capture lacks is assumed to have
 *    succeeded (the replay will make it), and counted.
 *
 * A name seen before its handle (a READDIR entry, a REMOVE of a name never
 * looked up, a CREATE whose reply had no handle) makes a name-only object;
 * when the name's handle turns up later the object takes it, or, when that
 * handle already named an object, is merged into it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "image/im_int.h"

#define NAME_SEED   0x51ed270b27c6b3a1ull
#define FILEID_SEED 0x2b992ddfa23249d6ull

/* ---- objects ------------------------------------------------------------ */

static uint32_t obj_new(struct im_image *img, uint32_t flags)
{
    struct im_obj *o;

    if (img->nobj == IM_NONE_ID - 1 ||
        im__grow((void **)&img->obj, &img->cap_obj, img->nobj, sizeof(*o)) < 0)
        return IM_NONE_ID;
    o = &img->obj[img->nobj];
    memset(o, 0, sizeof(*o));
    o->flags = flags;
    o->fh_id = o->parent_link = o->top = o->first_link = IM_NONE_ID;
    return img->nobj++;
}

/* The object behind fh, made (existing at the start) when new; *id is
 * IM_NONE_ID for an empty handle.  0 or -ENOMEM. */
static int obj_of_fh(struct im_image *img, const struct nf_fh *fh, uint32_t *id)
{
    int64_t f;
    int added;

    *id = IM_NONE_ID;
    if (fh->len == 0)
        return 0;
    f = im_fhmap_id(img->fh, fh, 1, &added);
    if (f == -EINVAL)
        return 0;
    if (f < 0)
        return -ENOMEM;
    if (!added) {
        *id = img->fh_obj[f];
        return 0;
    }
    if (im__grow((void **)&img->fh_obj, &img->cap_fh_obj, (uint32_t)f,
                 sizeof(*img->fh_obj)) < 0 ||
        (*id = obj_new(img, IM_O_AT_START)) == IM_NONE_ID)
        return -ENOMEM;
    img->fh_obj[f] = *id;
    img->obj[*id].fh_id = (uint32_t)f;
    return 0;
}

/* Gives the name-only object id the handle fh (which no object has). */
static int give_handle(struct im_image *img, uint32_t id, const struct nf_fh *fh)
{
    int64_t f = im_fhmap_id(img->fh, fh, 1, NULL);

    if (f < 0 || im__grow((void **)&img->fh_obj, &img->cap_fh_obj, (uint32_t)f,
                          sizeof(*img->fh_obj)) < 0)
        return -ENOMEM;
    img->fh_obj[f] = id;
    img->obj[id].fh_id = (uint32_t)f;
    img->obj[id].flags &= ~IM_O_NO_HANDLE;
    return 0;
}

static void set_type(struct im_image *img, uint32_t id, enum tr_nfs_ftype t, int guessed)
{
    struct im_obj *o;

    if (id == IM_NONE_ID || t == TR_NFS_NONE)
        return;
    o = &img->obj[id];
    if (guessed) {
        if (o->type == TR_NFS_NONE) {
            o->type = t;
            o->flags |= IM_O_TYPE_GUESSED;
        }
        return;
    }
    if (o->type != TR_NFS_NONE && o->type != t && !(o->flags & IM_O_TYPE_GUESSED))
        img->counts.handle_conflicts++;
    o->type = t;
    o->flags &= ~IM_O_TYPE_GUESSED;
}

/* A size seen while the start size can still be learnt. */
static void size_seen(struct im_obj *o, uint64_t s, int exact)
{
    if (s > o->size_max)
        o->size_max = s;
    if (o->flags & (IM_O_SIZE_CHANGED | IM_O_CREATED))
        return;
    if (!exact && (o->flags & IM_O_SIZE_EXACT))
        return; /* attributes said it: a READ asked past the end */
    if (s > o->size)
        o->size = s;
    if (exact)
        o->flags |= IM_O_SIZE_EXACT;
}

static int fileid_eq(const void *ctx, uint32_t id, const void *key, size_t len)
{
    const struct im_image *img = ctx;
    uint64_t f;

    (void)len;
    memcpy(&f, key, sizeof(f));
    return img->obj[id].fileid == f;
}

static uint32_t fileid_find(const struct im_image *img, uint64_t f)
{
    return im__idx_find(&img->fileids, im__idx_hash(&f, sizeof(f), FILEID_SEED),
                        fileid_eq, img, &f, sizeof(f));
}

static int fileid_set(struct im_image *img, uint64_t f, uint32_t id)
{
    return im__idx_set(&img->fileids, im__idx_hash(&f, sizeof(f), FILEID_SEED), fileid_eq,
                       img, &f, sizeof(f), id);
}

static int merge(struct im_image *img, uint32_t from, uint32_t to);

/* Applies the attributes a message showed for object id. */
static int attr_apply(struct im_image *img, uint32_t id, const struct tr_nfs_attr *a)
{
    struct im_obj *o;

    if (id == IM_NONE_ID || !a->have)
        return 0;
    o = &img->obj[id];
    if (a->have & TR_NFS_A_TYPE)
        set_type(img, id, a->type, 0);
    if (a->have & TR_NFS_A_SIZE)
        size_seen(o, a->size, 1);
    if ((a->have & TR_NFS_A_MODE) && !(o->flags & (IM_O_MODE | IM_O_MODE_CHANGED))) {
        o->mode = a->mode & 07777;
        o->flags |= IM_O_MODE;
    }
    if ((a->have & TR_NFS_A_NLINK) && !o->nlink)
        o->nlink = a->nlink;
    if ((a->have & TR_NFS_A_FILEID) && !(o->flags & IM_O_FILEID)) {
        uint32_t other = fileid_find(img, a->fileid);
        o->fileid = a->fileid;
        o->flags |= IM_O_FILEID;
        if (other != IM_NONE_ID && other != id &&
            (img->obj[other].flags & IM_O_NO_HANDLE) && !(o->flags & IM_O_NO_HANDLE))
            return merge(img, other, id); /* a listed name's object */
        if (other == IM_NONE_ID)
            return fileid_set(img, a->fileid, id);
    }
    return 0;
}

/* ---- links -------------------------------------------------------------- */

struct name_key {
    uint32_t dir;
    const char *name;
};

static int name_eq(const void *ctx, uint32_t id, const void *key, size_t len)
{
    const struct im_image *img = ctx;
    const struct name_key *k = key;
    const struct im_link *l = &img->link[id];

    return l->dir == k->dir && l->name_len == len &&
           memcmp(img->text.b + l->name_off, k->name, len) == 0;
}

static uint32_t name_hash(uint32_t dir, const char *name, size_t len)
{
    return im__idx_hash(name, len, NAME_SEED + dir * 0x9e3779b97f4a7c15ull);
}

/* The latest link of (dir, name), live or removed, or IM_NONE_ID. */
static uint32_t name_find(const struct im_image *img, uint32_t dir, const char *name,
                          size_t len)
{
    struct name_key k = {dir, name};

    return im__idx_find(&img->names, name_hash(dir, name, len), name_eq, img, &k, len);
}

static int live(const struct im_image *img, uint32_t l)
{
    return l != IM_NONE_ID && !(img->link[l].flags & IM_L_REMOVED);
}

/* A new link, the latest of (dir, name).  Its id, or IM_NONE_ID when
 * out of memory. */
static uint32_t link_new(struct im_image *img, uint32_t dir, uint32_t obj,
                         const char *name, size_t len, uint32_t flags, int64_t t)
{
    struct name_key k = {dir, name};
    struct im_link *l;
    uint64_t off;

    if (img->nlink == IM_NONE_ID - 1 ||
        im__grow((void **)&img->link, &img->cap_link, img->nlink, sizeof(*l)) < 0 ||
        im__arena_add(&img->text, name, len, &off) < 0)
        return IM_NONE_ID;
    l = &img->link[img->nlink];
    memset(l, 0, sizeof(*l));
    l->dir = dir;
    l->obj = obj;
    l->flags = flags;
    l->name_off = off;
    l->name_len = (uint32_t)len;
    l->created_ns = (flags & IM_L_CREATED) ? t : 0;
    l->next_of_obj = img->obj[obj].first_link;
    if (im__idx_set(&img->names, name_hash(dir, name, len), name_eq, img, &k, len,
                    img->nlink) < 0)
        return IM_NONE_ID;
    img->obj[obj].first_link = img->nlink;
    img->obj[obj].nlinks++;
    return img->nlink++;
}

/* Removes link l at t; its object is removed with its last live link. */
static void link_remove(struct im_image *img, uint32_t l, int64_t t, uint32_t flags)
{
    struct im_obj *o = &img->obj[img->link[l].obj];
    uint32_t k;

    img->link[l].flags |= IM_L_REMOVED | flags;
    img->link[l].removed_ns = t;
    for (k = o->first_link; k != IM_NONE_ID; k = img->link[k].next_of_obj)
        if (live(img, k))
            return;
    o->flags |= IM_O_REMOVED;
    o->removed_ns = t;
}

/* Merges the name-only object from into to (whose handle its name turned
 * out to have). */
static int merge(struct im_image *img, uint32_t from, uint32_t to)
{
    struct im_obj *f = &img->obj[from], *o = &img->obj[to];
    uint32_t k, last = IM_NONE_ID;

    for (k = f->first_link; k != IM_NONE_ID; k = img->link[k].next_of_obj) {
        img->link[k].obj = to;
        last = k;
    }
    if (last != IM_NONE_ID) {
        img->link[last].next_of_obj = o->first_link;
        o->first_link = f->first_link;
    }
    o->nlinks += f->nlinks;
    if (o->type == TR_NFS_NONE)
        o->type = f->type;
    if ((f->flags & IM_O_CREATED) && !(o->flags & IM_O_CREATED)) {
        o->flags = (o->flags & ~IM_O_AT_START) | IM_O_CREATED;
        o->created_ns = f->created_ns;
        o->size = 0;
    }
    o->flags |= f->flags & (IM_O_RENAMED | IM_O_ROOT);
    f->first_link = IM_NONE_ID;
    f->nlinks = 0;
    f->flags |= IM_O_DEAD;
    img->counts.merged++;
    if ((f->flags & IM_O_FILEID) && !(o->flags & IM_O_FILEID)) {
        o->fileid = f->fileid;
        o->flags |= IM_O_FILEID;
    }
    if (f->flags & IM_O_FILEID)
        return fileid_set(img, f->fileid, to);
    return 0;
}

/* A name-only object (IM_NONE_ID when out of memory). */
static uint32_t name_only(struct im_image *img, uint32_t flags)
{
    img->counts.name_only++;
    return obj_new(img, flags | IM_O_NO_HANDLE);
}

/* How a message shows a name. */
enum name_how {
    SEEN,   /* it exists (LOOKUP, a listing, the name a call acts on) */
    CREATED /* a creating call made it */
};

/* The name in dir as a message shows it: *obj gets its object, the one fh
 * names (when fh is not NULL) or, for a listing without handles, the one
 * with that fileid (when have_fileid).  Makes what is new.  0 or
 * -ENOMEM. */
static int name_at(struct im_image *img, uint32_t dir, const char *name,
                   enum name_how how, const struct nf_fh *fh, int have_fileid,
                   uint64_t fileid, int64_t t, uint32_t new_flags, uint32_t *obj)
{
    size_t len = strlen(name);
    uint32_t l = name_find(img, dir, name, len), x, k = IM_NONE_ID, lf;

    *obj = IM_NONE_ID;
    if (fh && fh->len) {
        int64_t f = im_fhmap_id(img->fh, fh, 0, NULL);
        if (f >= 0)
            k = img->fh_obj[f];
    }
    if (live(img, l)) {
        x = img->link[l].obj;
        if (!fh || !fh->len) {
            *obj = x;
            if (have_fileid && !(img->obj[x].flags & IM_O_FILEID)) {
                struct tr_nfs_attr a = {.have = TR_NFS_A_FILEID, .fileid = fileid};
                return attr_apply(img, x, &a);
            }
            return 0;
        }
        if (img->obj[x].flags & IM_O_NO_HANDLE) {
            *obj = k == IM_NONE_ID ? x : k;
            return k == IM_NONE_ID ? give_handle(img, x, fh) : merge(img, x, k);
        }
        if (k == x) {
            *obj = x;
            return 0;
        }
        /* the name now names another object: no traced call did that (the
         * new name is counted below) */
        link_remove(img, l, t, IM_L_UNTRACED);
    }
    /* a new name */
    if (how == CREATED) {
        lf = IM_L_CREATED;
        if (k != IM_NONE_ID) {
            x = k; /* the handle was used before its creation (a lossy capture) */
        } else {
            if (fh && fh->len) {
                if (obj_of_fh(img, fh, &x) < 0 || x == IM_NONE_ID)
                    return -ENOMEM;
            } else if ((x = name_only(img, 0)) == IM_NONE_ID) {
                return -ENOMEM;
            }
            img->obj[x].flags = (img->obj[x].flags & ~IM_O_AT_START) | IM_O_CREATED;
            img->obj[x].created_ns = t;
        }
    } else {
        /* existing: at the start, unless the name was removed earlier or its
         * directory was created in the trace */
        lf = IM_L_AT_START;
        if (l != IM_NONE_ID || (img->obj[dir].flags & IM_O_CREATED)) {
            lf = IM_L_CREATED | IM_L_UNTRACED;
            img->counts.untraced_names++;
        }
        if (k != IM_NONE_ID)
            x = k;
        else if (fh && fh->len) {
            if (obj_of_fh(img, fh, &x) < 0)
                return -ENOMEM;
            if (lf & IM_L_UNTRACED) { /* made by something the trace lacks */
                img->obj[x].flags = (img->obj[x].flags & ~IM_O_AT_START) | IM_O_CREATED;
                img->obj[x].created_ns = t;
            }
        } else if (have_fileid && (x = fileid_find(img, fileid)) != IM_NONE_ID) {
            /* a listed name whose object is known by its fileid */
        } else {
            uint32_t of = (lf & IM_L_CREATED) ? IM_O_CREATED : IM_O_AT_START;
            if ((x = name_only(img, of)) == IM_NONE_ID)
                return -ENOMEM;
            img->obj[x].created_ns = t;
            if (have_fileid) {
                struct tr_nfs_attr a = {.have = TR_NFS_A_FILEID, .fileid = fileid};
                if (attr_apply(img, x, &a) < 0)
                    return -ENOMEM;
            }
        }
        if ((img->obj[x].flags & IM_O_CREATED) && (lf & IM_L_AT_START)) {
            lf = IM_L_CREATED | IM_L_UNTRACED; /* a created object's name */
            img->counts.untraced_names++;
        }
    }
    if (link_new(img, dir, x, name, len, lf | new_flags, t) == IM_NONE_ID)
        return -ENOMEM;
    *obj = x;
    return 0;
}

static int is_dot(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* ---- events ------------------------------------------------------------- */

struct im_image *im_new(void)
{
    struct im_image *img = cm_calloc(1, sizeof(*img));

    if (img && !(img->fh = im_fhmap_new())) {
        free(img);
        img = NULL;
    }
    return img;
}

void im_free(struct im_image *img)
{
    if (!img)
        return;
    im_fhmap_free(img->fh);
    im__idx_free(&img->names);
    im__idx_free(&img->fileids);
    free(img->obj);
    free(img->link);
    free(img->fh_obj);
    free(img->text.b);
    free(img->roots);
    free(img->root_path);
    free(img->root_path_len);
    free(img->child_start);
    free(img->child);
    free(img->orphan_tops);
    free(img);
}

static int add_root(struct im_image *img, uint32_t id, const char *path)
{
    uint32_t i, c = img->cap_roots;
    uint64_t off;
    size_t len = path ? strlen(path) : 0;

    if (!path)
        path = "";
    for (i = 0; i < img->nroots; i++)
        if (img->roots[i] == id)
            return 0;
    if (im__grow((void **)&img->roots, &c, img->nroots, sizeof(*img->roots)) < 0)
        return -ENOMEM;
    c = img->cap_roots;
    if (im__grow((void **)&img->root_path, &c, img->nroots, sizeof(*img->root_path)) < 0)
        return -ENOMEM;
    c = img->cap_roots;
    if (im__grow((void **)&img->root_path_len, &c, img->nroots,
                 sizeof(*img->root_path_len)) < 0 ||
        im__arena_add(&img->text, path, len + 1, &off) < 0) /* with its NUL */
        return -ENOMEM;
    img->cap_roots = c;
    img->roots[img->nroots] = id;
    img->root_path[img->nroots] = off;
    img->root_path_len[img->nroots++] = (uint32_t)len;
    img->obj[id].flags |= IM_O_ROOT;
    set_type(img, id, TR_NFS_DIR, 1);
    return 0;
}

static int set_target(struct im_image *img, uint32_t id, const char *text)
{
    struct im_obj *o = &img->obj[id];
    size_t len;

    if (id == IM_NONE_ID || !text || o->target_len)
        return 0;
    len = strlen(text);
    if (len == 0 || len > TR_NFS_PATH_MAX)
        return 0;
    o->target_len = (uint32_t)len;
    return im__arena_add(&img->text, text, len, &o->target_off);
}

/* The READDIR(PLUS) entries of directory dir. */
static int entries(struct im_image *img, uint32_t dir, const struct tr_nfs_event *ev)
{
    uint32_t i, x;

    for (i = 0; i < ev->nentries; i++) {
        const struct tr_nfs_dirent *e = &ev->entries[i];
        if (!e->name || !*e->name || is_dot(e->name))
            continue;
        if (name_at(img, dir, e->name, SEEN, &e->fh, e->fileid != 0, e->fileid, ev->t_ns,
                    0, &x) < 0 ||
            attr_apply(img, x, &e->attr) < 0)
            return -ENOMEM;
    }
    return 0;
}

/* The creating calls: CREATE, MKDIR, SYMLINK, MKNOD. */
static int create(struct im_image *img, uint32_t dir, const struct tr_nfs_event *ev,
                  enum tr_nfs_ftype type, uint32_t *res)
{
    uint32_t l = name_find(img, dir, ev->name, strlen(ev->name));
    int existed = live(img, l);
    uint32_t x;

    if (name_at(img, dir, ev->name, existed ? SEEN : CREATED, &ev->res_fh, 0, 0, ev->t_ns,
                0, &x) < 0)
        return -ENOMEM;
    *res = x;
    if (!(img->obj[x].flags & IM_O_CREATED)) {
        /* an existing object (UNCHECKED CREATE): a size set truncates it */
        if (ev->sattr.have & TR_NFS_A_SIZE)
            img->obj[x].flags |= IM_O_SIZE_CHANGED;
        return 0;
    }
    set_type(img, x, type, 0);
    if (ev->sattr.have & TR_NFS_A_MODE) {
        img->obj[x].mode = ev->sattr.mode & 07777;
        img->obj[x].flags |= IM_O_MODE;
    }
    return type == TR_NFS_LNK ? set_target(img, x, ev->text) : 0;
}

/* RENAME (fh, name) -> (fh2, name2). */
static int rename_(struct im_image *img, uint32_t d1, uint32_t d2,
                   const struct tr_nfs_event *ev)
{
    size_t len2 = strlen(ev->name2);
    uint32_t src, dst, x;

    if (d1 == d2 && strcmp(ev->name, ev->name2) == 0)
        return 0;
    if (name_at(img, d1, ev->name, SEEN, NULL, 0, 0, ev->t_ns, 0, &x) < 0)
        return -ENOMEM;
    src = name_find(img, d1, ev->name, strlen(ev->name));
    dst = name_find(img, d2, ev->name2, len2);
    if (live(img, dst))
        link_remove(img, dst, ev->t_ns, IM_L_RENAME);
    if (link_new(img, d2, x, ev->name2, len2, IM_L_CREATED | IM_L_RENAME, ev->t_ns) ==
        IM_NONE_ID)
        return -ENOMEM;
    link_remove(img, src, ev->t_ns, IM_L_RENAME);
    img->obj[x].flags |= IM_O_RENAMED;
    return 0;
}

/* REMOVE and RMDIR. */
static int remove_(struct im_image *img, uint32_t dir, const struct tr_nfs_event *ev,
                   enum tr_nfs_ftype guess)
{
    uint32_t x;

    if (name_at(img, dir, ev->name, SEEN, NULL, 0, 0, ev->t_ns, 0, &x) < 0)
        return -ENOMEM;
    set_type(img, x, guess, 1);
    link_remove(img, name_find(img, dir, ev->name, strlen(ev->name)), ev->t_ns, 0);
    return 0;
}

static int nfs_event(struct im_image *img, const struct tr_nfs_event *ev)
{
    int reply = (ev->flags & TR_NFS_F_REPLY) != 0;
    int ok = reply && ev->rpc_status == TR_NFS_RPC_SUCCESS && ev->status == 0;
    /* a namespace call the capture has no reply for is assumed done */
    int done = ok || !reply;
    uint32_t o = IM_NONE_ID, o2 = IM_NONE_ID, res = IM_NONE_ID;
    struct im_obj *p;
    uint64_t end;

    if (obj_of_fh(img, &ev->fh, &o) < 0 || obj_of_fh(img, &ev->fh2, &o2) < 0)
        return -ENOMEM;
    if (o == IM_NONE_ID)
        return 0; /* a call cut before its handle */
    switch (ev->op) {
    case NF_OP_LOOKUP:
        set_type(img, o, TR_NFS_DIR, 1);
        if (ok && ev->name && is_dot(ev->name)) {
            img->counts.dot_names++;
            if (obj_of_fh(img, &ev->res_fh, &res) < 0)
                return -ENOMEM;
        } else if (ok && ev->name &&
                   name_at(img, o, ev->name, SEEN, &ev->res_fh, 0, 0, ev->t_ns, 0, &res) <
                       0)
            return -ENOMEM;
        break;
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
    case NF_OP_SYMLINK:
    case NF_OP_MKNOD: {
        enum tr_nfs_ftype t =
            ev->op == NF_OP_CREATE  ? TR_NFS_REG
            : ev->op == NF_OP_MKDIR ? TR_NFS_DIR
            : ev->op == NF_OP_SYMLINK
                ? TR_NFS_LNK
                : ((ev->sattr.have & TR_NFS_A_TYPE) ? ev->sattr.type : TR_NFS_NONE);
        set_type(img, o, TR_NFS_DIR, 1);
        if (!done || !ev->name || is_dot(ev->name))
            break;
        img->counts.assumed_ok += !reply;
        if (create(img, o, ev, t, &res) < 0)
            return -ENOMEM;
        break;
    }
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        set_type(img, o, TR_NFS_DIR, 1);
        if (!done || !ev->name || is_dot(ev->name))
            break;
        img->counts.assumed_ok += !reply;
        if (remove_(img, o, ev, ev->op == NF_OP_RMDIR ? TR_NFS_DIR : TR_NFS_REG) < 0)
            return -ENOMEM;
        break;
    case NF_OP_RENAME:
        set_type(img, o, TR_NFS_DIR, 1);
        set_type(img, o2, TR_NFS_DIR, 1);
        if (!done || !ev->name || !ev->name2 || o2 == IM_NONE_ID || is_dot(ev->name) ||
            is_dot(ev->name2))
            break;
        img->counts.assumed_ok += !reply;
        if (rename_(img, o, o2, ev) < 0)
            return -ENOMEM;
        break;
    case NF_OP_LINK:
        set_type(img, o2, TR_NFS_DIR, 1);
        if (!done || !ev->name2 || o2 == IM_NONE_ID || is_dot(ev->name2))
            break;
        img->counts.assumed_ok += !reply;
        {
            size_t len = strlen(ev->name2);
            uint32_t l = name_find(img, o2, ev->name2, len);
            if (live(img, l) && img->link[l].obj == o)
                break;
            if (live(img, l)) {
                img->counts.untraced_names++;
                link_remove(img, l, ev->t_ns, IM_L_UNTRACED);
            }
            if (link_new(img, o2, o, ev->name2, len, IM_L_CREATED, ev->t_ns) ==
                IM_NONE_ID)
                return -ENOMEM;
        }
        if (reply && attr_apply(img, o2, &ev->dir_attr) < 0)
            return -ENOMEM;
        break;
    case NF_OP_READDIR:
    case NF_OP_READDIRPLUS:
        set_type(img, o, TR_NFS_DIR, 1);
        if (ok && entries(img, o, ev) < 0)
            return -ENOMEM;
        break;
    case NF_OP_READLINK:
        set_type(img, o, TR_NFS_LNK, 1);
        if (ok && set_target(img, o, ev->text) < 0)
            return -ENOMEM;
        break;
    case NF_OP_READ:
        set_type(img, o, TR_NFS_REG, 1);
        if (ok)
            size_seen(&img->obj[o], ev->offset + ev->res_count, 0);
        else if (!reply)
            size_seen(&img->obj[o], ev->offset + ev->count, 0);
        break;
    case NF_OP_WRITE:
        set_type(img, o, TR_NFS_REG, 1);
        if (!done)
            break;
        p = &img->obj[o];
        if (reply && (ev->pre.have & TR_NFS_A_SIZE))
            size_seen(p, ev->pre.size, 1);
        end = ev->offset + ev->count;
        if (end > p->size)
            p->flags |= IM_O_SIZE_CHANGED;
        if (end > p->size_max)
            p->size_max = end;
        break;
    case NF_OP_SETATTR:
        if (!done)
            break;
        p = &img->obj[o];
        if (reply && (ev->pre.have & TR_NFS_A_SIZE))
            size_seen(p, ev->pre.size, 1);
        if (ev->sattr.have & TR_NFS_A_SIZE)
            p->flags |= IM_O_SIZE_CHANGED;
        if (ev->sattr.have & TR_NFS_A_MODE)
            p->flags |= IM_O_MODE_CHANGED;
        break;
    case NF_OP_COMMIT:
        set_type(img, o, TR_NFS_REG, 1);
        break;
    default:
        break;
    }
    if (!reply)
        return 0;
    /* the attributes after the call: res's for the calls that return a
     * handle, else fh's; the directory's of a call that names a name */
    if (attr_apply(img, res != IM_NONE_ID ? res : o, &ev->attr) < 0)
        return -ENOMEM;
    if (ev->op != NF_OP_LINK && ev->name && attr_apply(img, o, &ev->dir_attr) < 0)
        return -ENOMEM;
    return 0;
}

int im_event(struct im_image *img, const struct tr_nfs_event *ev)
{
    uint32_t root;

    if (img->finished)
        return -EINVAL;
    img->counts.events++;
    if (ev->prog == TR_NFS_PROG_MOUNT) {
        /* MNT (procedure 1 in MOUNT v1 and v3): the export and its root */
        if (ev->proc != 1 || !(ev->flags & TR_NFS_F_REPLY) ||
            ev->rpc_status != TR_NFS_RPC_SUCCESS || ev->status != 0)
            return 0;
        if (obj_of_fh(img, &ev->res_fh, &root) < 0)
            return -ENOMEM;
        return root == IM_NONE_ID ? 0 : add_root(img, root, ev->text);
    }
    if (ev->prog != TR_NFS_PROG_NFS)
        return 0;
    return nfs_event(img, ev);
}
