/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_call.c - what every NFSv4 operation handler shares (server layer):
 * the current and saved handles of the compound (kept as handle bytes and
 * resolved again at each use, since an earlier operation may have removed
 * the object), the pseudo file system's extent, statuses from the file
 * system's, component names, special stateids and the v4 clock.
 */
#include "server/nfs4_int.h"
#include "nfs3_prot.h"
#include "common/clock.h"

#include <string.h>

nfsstat4 sv4_status(int st3)
{
    switch (st3) {
    case NFS3ERR_NODEV:
        return NFS4ERR_NXIO;
    case NFS3ERR_NOT_SYNC:
        return NFS4ERR_INVAL;
    case NFS3ERR_REMOTE:
        return NFS4ERR_IO;
    case NFS3ERR_JUKEBOX:
        return NFS4ERR_DELAY;
    default:
        /* every other NFSv3 status has the same number in NFSv4 */
        return (nfsstat4)st3;
    }
}

static nfsstat4 resolve(struct sv4_call *x, const struct sv4_fh *h, struct sv_node **n)
{
    int st;

    *n = NULL;
    if (!h->set)
        return NFS4ERR_NOFILEHANDLE;
    st = sv__fs_from_handle(x->c->fs, h->fh, SV_FH_LEN, n);
    return st == 0 ? NFS4_OK : sv4_status(st);
}

nfsstat4 sv4_cur(struct sv4_call *x, struct sv_node **n)
{
    return resolve(x, &x->cur, n);
}

nfsstat4 sv4_saved(struct sv4_call *x, struct sv_node **n)
{
    nfsstat4 st = resolve(x, &x->saved, n);

    return st == NFS4ERR_NOFILEHANDLE ? NFS4ERR_RESTOREFH : st;
}

void sv4_set_cur(struct sv4_call *x, const struct sv_node *n)
{
    sv__fs_handle(x->c->fs, n, x->cur.fh);
    x->cur.set = 1;
    x->cur_sid_set = 0; /* RFC 8881 16.2.3.1.2: a new handle, no stateid */
}

/* The pseudo file system is the internal tree above the export roots:
 * the root and the directories sv_core_create made on the way to each
 * export.  An object is in it when no export root lies on its way up. */
int sv4_is_pseudo(struct sv4_call *x, const struct sv_node *n)
{
    struct sv_node *root = sv__fs_root(x->c->fs);
    struct sv_node *d = (struct sv_node *)n;

    if (n->type != SV_DIR)
        return 0; /* files are only ever made inside an export */
    for (int depth = 0; depth < 4096; depth++) {
        if (d->export_root)
            return 0;
        if (d == root)
            return 1;
        d = sv__fs_tree_parent(x->c->fs, d);
    }
    return 1;
}

/* RFC 3629 well-formed UTF-8 (no overlong forms, no surrogates). */
static int utf8_ok(const uint8_t *s, size_t len)
{
    size_t i = 0;

    while (i < len) {
        uint8_t b = s[i];
        size_t more;
        uint32_t cp;

        if (b < 0x80) {
            i++;
            continue;
        }
        if (b >= 0xc2 && b <= 0xdf)
            more = 1, cp = b & 0x1f;
        else if (b >= 0xe0 && b <= 0xef)
            more = 2, cp = b & 0x0f;
        else if (b >= 0xf0 && b <= 0xf4)
            more = 3, cp = b & 0x07;
        else
            return 0;
        if (i + more >= len)
            return 0;
        for (size_t k = 1; k <= more; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((more == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (more == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return 0;
        i += more + 1;
    }
    return 1;
}

nfsstat4 sv4_name(const component4 *comp, char name[SV_NAME_MAX + 1])
{
    u_int len = comp->utf8string_len;
    const char *s = comp->utf8string_val;

    if (len == 0)
        return NFS4ERR_INVAL;
    if (!utf8_ok((const uint8_t *)s, len))
        return NFS4ERR_INVAL;
    if (len > SV_NAME_MAX)
        return NFS4ERR_NAMETOOLONG;
    if (memchr(s, '/', len) != NULL || memchr(s, '\0', len) != NULL)
        return NFS4ERR_BADCHAR;
    if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
        return NFS4ERR_BADNAME;
    memcpy(name, s, len);
    name[len] = '\0';
    return NFS4_OK;
}

static int all_bytes(const stateid4 *s, uint8_t b, uint32_t seqid)
{
    if (s->seqid != seqid)
        return 0;
    for (int i = 0; i < NFS4_OTHER_SIZE; i++)
        if ((uint8_t)s->other[i] != b)
            return 0;
    return 1;
}

int sv4_sid_anonymous(const stateid4 *s)
{
    return all_bytes(s, 0, 0);
}

int sv4_sid_bypass(const stateid4 *s)
{
    return all_bytes(s, 0xff, UINT32_MAX);
}

uint64_t sv4_now(struct sv4 *v)
{
    return cm_clock_now(v->clock);
}

int sv4_in_grace(struct sv4_call *x)
{
    return x->v->grace_s &&
           x->now_ns - x->v->start_ns < (uint64_t)x->v->grace_s * 1000000000ull;
}
