/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * attr.c - attribute bookkeeping and comparison (vd_int.h;
 * docs/SFS30.md §19, "attributes compared"): type, mode bits, nlink, uid, gid, size
 * (not while writing), rdev of devices, fsid and fileid.  What an object
 * should look like is kept per attribute record (a hard link shares its
 * file's); a stored value of all ones is not known yet and the first reply
 * supplies it (an I note).  Root may come back as nobody (65534 or -2): the
 * server squashes root, which is allowed, and the uid is adopted.
 */
#include <stdio.h>
#include <string.h>

#include "validate/vd_int.h"

#define NOBODY_16 65534u
#define NOBODY_32 4294967294u /* -2 */

void vd_attr_expect(struct vd_ctx *v, struct vd_attr *a, enum vd_kind kind)
{
    memset(a, 0xff, sizeof(*a)); /* everything unknown */
    a->uid = v->uid;
    a->gid = v->gid == 0 ? VD_UNKNOWN32 : v->gid; /* root's group may be mapped */
    a->fsid = v->workdir_attr.fsid;
    switch (kind) {
    case VD_FILE:
    case VD_LINK:
        a->type = VD_T_REG;
        a->mode = 0666;
        a->nlink = 1;
        a->size = 0;
        break;
    case VD_DIR:
        a->type = VD_T_DIR;
        a->mode = 0777;
        break;
    case VD_SYMLINK:
        a->type = VD_T_LNK;
        a->nlink = 1;
        break;
    case VD_NKINDS:
        break;
    }
}

/* The differences and the adopted values of one comparison, as text. */
struct cmp {
    char diff[400];
    size_t len;
    char adopted[400];
    size_t alen;
};

static void append(char *buf, size_t size, size_t *len, const char *fmt, const char *what,
                   uint64_t got, uint64_t want)
{
    int n;

    if (*len >= size)
        return;
    n = snprintf(buf + *len, size - *len, fmt, *len ? ", " : "", what,
                 (unsigned long long)got, (unsigned long long)want);
    if (n > 0)
        *len += (size_t)n;
}

/* One field: adopt an unknown, else compare. */
static void field(struct cmp *c, const char *what, uint64_t *stored, uint64_t got,
                  uint64_t unknown, int octal)
{
    if (*stored == unknown) {
        *stored = got;
        append(c->adopted, sizeof(c->adopted), &c->alen,
               octal ? "%s%s %#llo" : "%s%s %llu", what, got, 0);
    } else if (*stored != got) {
        append(c->diff, sizeof(c->diff), &c->len,
               octal ? "%s%s %#llo, expected %#llo" : "%s%s %llu, expected %llu", what,
               got, *stored);
    }
}

static void field32(struct cmp *c, const char *what, uint32_t *stored, uint32_t got,
                    int octal)
{
    uint64_t s = *stored == VD_UNKNOWN32 ? VD_UNKNOWN64 : *stored;

    field(c, what, &s, got, VD_UNKNOWN64, octal);
    *stored = s == VD_UNKNOWN64 ? VD_UNKNOWN32 : (uint32_t)s;
}

int vd_attr_check(struct vd_ctx *v, const struct vd_obj *o, const struct vd_attr *got,
                  unsigned flags, const char *via, int op)
{
    struct vd_attr *want = &v->attrs[o->ino];
    struct cmp c;

    memset(&c, 0, sizeof(c));
    field32(&c, "type", &want->type, got->type, 0);
    field32(&c, "mode", &want->mode, got->mode & 07777, 1);
    field32(&c, "nlink", &want->nlink, got->nlink, 0);
    if (want->uid == 0 && want->uid != got->uid &&
        (got->uid == NOBODY_16 || got->uid == NOBODY_32)) {
        vd_info(v, "%s: root is mapped to uid %u by the server", o->name, got->uid);
        want->uid = got->uid;
    }
    if (got->uid != VD_UNKNOWN32) /* v4 owner names are not compared */
        field32(&c, "uid", &want->uid, got->uid, 0);
    if (got->gid != VD_UNKNOWN32)
        field32(&c, "gid", &want->gid, got->gid, 0);
    if (!(flags & VD_CMP_NO_SIZE))
        field(&c, "size", &want->size, got->size, VD_UNKNOWN64, 0);
    if (got->type == VD_T_CHR || got->type == VD_T_BLK) {
        field32(&c, "rdev major", &want->rdev1, got->rdev1, 0);
        field32(&c, "rdev minor", &want->rdev2, got->rdev2, 0);
    }
    field(&c, "fsid", &want->fsid, got->fsid, VD_UNKNOWN64, 0);
    field(&c, "fileid", &want->fileid, got->fileid, VD_UNKNOWN64, 0);
    if (c.alen)
        vd_info(v, "%s: %s attributes taken as they came: %s", o->name, via, c.adopted);
    if (c.len == 0)
        return 0;
    return vd_warn(v, "%s: %s attributes differ: %s (%s)", o->name, via, c.diff,
                   vd_rfc(v, op));
}
