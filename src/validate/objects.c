/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * objects.c - the validation suite's object set (vd_int.h;
 * docs/SFS30.md §19): NFSv3 21 files, 10 directories, 10 hard links and 10
 * symbolic links (51 objects), NFSv2 7/5/5/5 (22).  Files are file_en.N, directories
 * dir_ent.N, hard links hardlink.N (link N names file N, counted from the
 * top) and symlinks symlink.N ("./<file N counted from the end>").  A hard
 * link shares its file's attribute record, so the link count and the size
 * are kept once.
 */
#include <stdio.h>
#include <string.h>

#include "validate/vd_int.h"

static const int counts_v3[VD_NKINDS] = {21, 10, 10, 10};
static const int counts_v2[VD_NKINDS] = {7, 5, 5, 5};
static const char *const patterns[VD_NKINDS] = {"file_en.%d", "dir_ent.%d", "hardlink.%d",
                                                "symlink.%d"};
static const char *const kind_names[VD_NKINDS] = {"file", "directory", "hard link",
                                                  "symbolic link"};

const char *vd_kind_name(enum vd_kind k)
{
    return (unsigned)k < VD_NKINDS ? kind_names[k] : "object";
}

void vd_objects_init(struct vd_ctx *v)
{
    const int *counts = v->p->version == 2 ? counts_v2 : counts_v3;
    int k, i;

    v->nobj = 0;
    for (k = 0; k < VD_NKINDS; k++) {
        v->nkind[k] = counts[k];
        for (i = 0; i < counts[k]; i++) {
            struct vd_obj *o = &v->obj[v->nobj];

            memset(o, 0, sizeof(*o));
            snprintf(o->name, sizeof(o->name), patterns[k], i);
            o->kind = (enum vd_kind)k;
            o->ino = v->nobj;
            o->target = -1;
            if (k == VD_LINK) {
                o->target = i % counts[VD_FILE];
                o->ino = o->target; /* files come first: index = ino */
            } else if (k == VD_SYMLINK) {
                o->target = counts[VD_FILE] - 1 - i % counts[VD_FILE];
            }
            v->nobj++;
        }
    }
}

struct vd_obj *vd_object_add(struct vd_ctx *v, const char *name, enum vd_kind kind)
{
    struct vd_obj *o;

    if (v->nobj >= VD_MAX_OBJS)
        return NULL;
    o = &v->obj[v->nobj];
    memset(o, 0, sizeof(*o));
    snprintf(o->name, sizeof(o->name), "%s", name);
    o->kind = kind;
    o->ino = v->nobj;
    o->target = -1;
    v->nobj++;
    return o;
}

struct vd_obj *vd_object_named(struct vd_ctx *v, const char *name)
{
    int i;

    for (i = 0; i < v->nobj; i++)
        if (strcmp(v->obj[i].name, name) == 0)
            return &v->obj[i];
    return NULL;
}

void vd_symlink_text(const struct vd_ctx *v, const struct vd_obj *o, char *buf,
                     size_t len)
{
    snprintf(buf, len, "./file_en.%d",
             o->target >= 0 && o->target < v->nobj ? o->target : 0);
}
