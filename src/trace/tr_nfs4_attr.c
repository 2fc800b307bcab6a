/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs4_attr.c - the pieces of NFSv4 calls and replies that both
 * directions decode (handles, strings, bitmaps, stateids, owners,
 * opaque data skipped) and the attributes of an fattr4, each through the
 * rpcgen codecs of src/nfs/proto/nfs4_prot.x into bounded buffers on the
 * stack, so that no message makes the reader allocate.
 *
 * An fattr4 is a bitmap and the attributes' values in bit order, each of
 * its own length: to reach one attribute every attribute before it must be
 * decoded.  The attributes FreeSFS keeps (type, size, fsid, fileid, mode,
 * numlinks, owner and group when numeric, space used, the times, the
 * handle of a READDIR entry) are read into a struct tr_nfs_attr; every
 * other known attribute is decoded with its codec and dropped (those with
 * lists - ACLs, locations - allocate inside libtirpc and are freed at
 * once); an attribute number past the XDR's stops the list there
 * (counted), and the fattr4 as a whole is still skipped by its length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_nfs_int.h"

/* Every attribute of nfs4_prot.x: X(NAME, name) for FATTR4_NAME, its type
 * fattr4_name and codec xdr_fattr4_name. */
#define ATTRS(X)                                                                         \
    X(SUPPORTED_ATTRS, supported_attrs)                                                  \
    X(TYPE, type)                                                                        \
    X(FH_EXPIRE_TYPE, fh_expire_type)                                                    \
    X(CHANGE, change)                                                                    \
    X(SIZE, size)                                                                        \
    X(LINK_SUPPORT, link_support)                                                        \
    X(SYMLINK_SUPPORT, symlink_support)                                                  \
    X(NAMED_ATTR, named_attr)                                                            \
    X(FSID, fsid)                                                                        \
    X(UNIQUE_HANDLES, unique_handles)                                                    \
    X(LEASE_TIME, lease_time)                                                            \
    X(RDATTR_ERROR, rdattr_error)                                                        \
    X(ACL, acl)                                                                          \
    X(ACLSUPPORT, aclsupport)                                                            \
    X(ARCHIVE, archive)                                                                  \
    X(CANSETTIME, cansettime)                                                            \
    X(CASE_INSENSITIVE, case_insensitive)                                                \
    X(CASE_PRESERVING, case_preserving)                                                  \
    X(CHOWN_RESTRICTED, chown_restricted)                                                \
    X(FILEHANDLE, filehandle)                                                            \
    X(FILEID, fileid)                                                                    \
    X(FILES_AVAIL, files_avail)                                                          \
    X(FILES_FREE, files_free)                                                            \
    X(FILES_TOTAL, files_total)                                                          \
    X(FS_LOCATIONS, fs_locations)                                                        \
    X(HIDDEN, hidden)                                                                    \
    X(HOMOGENEOUS, homogeneous)                                                          \
    X(MAXFILESIZE, maxfilesize)                                                          \
    X(MAXLINK, maxlink)                                                                  \
    X(MAXNAME, maxname)                                                                  \
    X(MAXREAD, maxread)                                                                  \
    X(MAXWRITE, maxwrite)                                                                \
    X(MIMETYPE, mimetype)                                                                \
    X(MODE, mode)                                                                        \
    X(NO_TRUNC, no_trunc)                                                                \
    X(NUMLINKS, numlinks)                                                                \
    X(OWNER, owner)                                                                      \
    X(OWNER_GROUP, owner_group)                                                          \
    X(QUOTA_AVAIL_HARD, quota_avail_hard)                                                \
    X(QUOTA_AVAIL_SOFT, quota_avail_soft)                                                \
    X(QUOTA_USED, quota_used)                                                            \
    X(RAWDEV, rawdev)                                                                    \
    X(SPACE_AVAIL, space_avail)                                                          \
    X(SPACE_FREE, space_free)                                                            \
    X(SPACE_TOTAL, space_total)                                                          \
    X(SPACE_USED, space_used)                                                            \
    X(SYSTEM, system)                                                                    \
    X(TIME_ACCESS, time_access)                                                          \
    X(TIME_ACCESS_SET, time_access_set)                                                  \
    X(TIME_BACKUP, time_backup)                                                          \
    X(TIME_CREATE, time_create)                                                          \
    X(TIME_DELTA, time_delta)                                                            \
    X(TIME_METADATA, time_metadata)                                                      \
    X(TIME_MODIFY, time_modify)                                                          \
    X(TIME_MODIFY_SET, time_modify_set)                                                  \
    X(MOUNTED_ON_FILEID, mounted_on_fileid)                                              \
    X(DIR_NOTIF_DELAY, dir_notif_delay)                                                  \
    X(DIRENT_NOTIF_DELAY, dirent_notif_delay)                                            \
    X(DACL, dacl)                                                                        \
    X(SACL, sacl)                                                                        \
    X(CHANGE_POLICY, change_policy)                                                      \
    X(FS_STATUS, fs_status)                                                              \
    X(FS_LAYOUT_TYPES, fs_layout_types)                                                  \
    X(LAYOUT_HINT, layout_hint)                                                          \
    X(LAYOUT_TYPES, layout_types)                                                        \
    X(LAYOUT_BLKSIZE, layout_blksize)                                                    \
    X(LAYOUT_ALIGNMENT, layout_alignment)                                                \
    X(FS_LOCATIONS_INFO, fs_locations_info)                                              \
    X(MDSTHRESHOLD, mdsthreshold)                                                        \
    X(RETENTION_GET, retention_get)                                                      \
    X(RETENTION_SET, retention_set)                                                      \
    X(RETENTEVT_GET, retentevt_get)                                                      \
    X(RETENTEVT_SET, retentevt_set)                                                      \
    X(RETENTION_HOLD, retention_hold)                                                    \
    X(MODE_SET_MASKED, mode_set_masked)                                                  \
    X(SUPPATTR_EXCLCREAT, suppattr_exclcreat)                                            \
    X(FS_CHARSET_CAP, fs_charset_cap)                                                    \
    X(CLONE_BLKSIZE, clone_blksize)                                                      \
    X(SPACE_FREED, space_freed)                                                          \
    X(CHANGE_ATTR_TYPE, change_attr_type)                                                \
    X(SEC_LABEL, sec_label)

/* Room for any attribute's value. */
union attr_value {
#define ATTR_MEMBER(sym, nm) fattr4_##nm nm;
    ATTRS(ATTR_MEMBER)
#undef ATTR_MEMBER
};

static const xdrproc_t attr_codec[] = {
#define ATTR_CODEC(sym, nm) [FATTR4_##sym] = (xdrproc_t)xdr_fattr4_##nm,
    ATTRS(ATTR_CODEC)
#undef ATTR_CODEC
};

/* ---- pieces --------------------------------------------------------------- */

/* An FNV-1a hash, the same for the same bytes in any trace. */
static uint64_t fnv64(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t i;

    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#define FNV_SEED 0xcbf29ce484222325ull

static void fh_keep(struct tr__x4 *d, const uint8_t *data, uint32_t len,
                    struct nf_fh *out)
{
    if (len <= NF_FH_MAX) {
        memcpy(out->data, data, len);
        out->len = len;
        return;
    }
    /* a key of NF_FH_MAX bytes: the head and a hash of the whole */
    {
        uint64_t h = fnv64(FNV_SEED, data, len);
        memcpy(out->data, data, NF_FH_MAX - 8);
        memcpy(out->data + NF_FH_MAX - 8, &h, 8);
        out->len = NF_FH_MAX;
        d->r->cnt[TR__C_NFSV4_LONG_FH]++;
    }
}

int tr__x4_fh(struct tr__x4 *d, struct nf_fh *out)
{
    char buf[NFS4_FHSIZE];
    nfs_fh4 f;

    f.nfs_fh4_val = buf;
    f.nfs_fh4_len = 0;
    if (!xdr_nfs_fh4(&d->x, &f))
        return 0;
    fh_keep(d, (const uint8_t *)buf, f.nfs_fh4_len, out);
    return 1;
}

int tr__x4_str(struct tr__x4 *d, uint32_t *off)
{
    char buf[NFS4_XDR_STRING];
    utf8string u;

    u.utf8string_val = buf;
    u.utf8string_len = 0;
    if (!xdr_utf8string(&d->x, &u))
        return 0;
    if (tr__slot_put(d->s, buf, u.utf8string_len, off) < 0) {
        d->nomem = 1;
        return 0;
    }
    return 1;
}

int tr__x4_bitmap(struct tr__x4 *d, uint32_t *words, uint32_t *n)
{
    bitmap4 b;

    b.bitmap4_val = words;
    b.bitmap4_len = 0;
    if (!xdr_bitmap4(&d->x, &b))
        return 0;
    *n = b.bitmap4_len;
    return 1;
}

void tr__x4_stateid_of(struct tr_nfs4_stateid *out, const stateid4 *st)
{
    out->seqid = st->seqid;
    memcpy(out->other, st->other, sizeof(out->other));
}

int tr__x4_stateid(struct tr__x4 *d, struct tr_nfs4_stateid *out)
{
    stateid4 st;

    if (!xdr_stateid4(&d->x, &st))
        return 0;
    tr__x4_stateid_of(out, &st);
    return 1;
}

int tr__x4_union(struct tr__x4 *d, u_int start, xdrproc_t codec, void *obj, size_t size)
{
    memset(obj, 0, size);
    return xdr_setpos(&d->x, start) && codec(&d->x, obj);
}

int tr__x4_skip_opaque(struct tr__x4 *d, uint32_t *n, int *all)
{
    u_int pos;

    if (!xdr_u_int(&d->x, n))
        return 0;
    pos = xdr_getpos(&d->x);
    *all = (uint64_t)pos + ((uint64_t)*n + 3) / 4 * 4 <= d->len;
    if (*all)
        xdr_setpos(&d->x, pos + (*n + 3) / 4 * 4);
    return 1;
}

int tr__x4_owner(struct tr__x4 *d, uint64_t *clientid, uint64_t *owner)
{
    char buf[NFS4_OPAQUE_LIMIT];
    state_owner4 o;

    o.owner.owner_val = buf;
    o.owner.owner_len = 0;
    if (!xdr_state_owner4(&d->x, &o))
        return 0;
    *clientid = o.clientid;
    *owner = tr__x4_owner_hash(o.clientid, buf, o.owner.owner_len);
    return 1;
}

uint64_t tr__x4_owner_hash(uint64_t clientid, const void *owner, size_t len)
{
    return fnv64(fnv64(FNV_SEED, &clientid, sizeof(clientid)), owner, len);
}

/* ---- attributes ----------------------------------------------------------- */

static int64_t ns4(const nfstime4 *t)
{
    return t->seconds * 1000000000 + (int64_t)t->nseconds;
}

static int64_t set_time(const settime4 *t)
{
    return t->set_it == SET_TO_SERVER_TIME4 ? TR_NFS_TIME_SERVER
                                            : ns4(&t->settime4_u.time);
}

/* An owner or group kept when it is a number ("1000"; "user@domain"
 * names no number). */
static int numeric_id(const utf8string *u, uint32_t *out)
{
    uint64_t v = 0;
    u_int i;

    if (u->utf8string_len == 0 || u->utf8string_len > 10)
        return 0;
    for (i = 0; i < u->utf8string_len; i++) {
        char c = u->utf8string_val[i];
        if (c < '0' || c > '9')
            return 0;
        v = v * 10 + (uint64_t)(c - '0');
    }
    if (v > UINT32_MAX)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* One attribute's value from x into a: 1, or 0 when it did not decode. */
static int one_attr(struct tr__x4 *d, XDR *x, uint32_t n, struct tr_nfs_attr *a,
                    struct nf_fh *fh)
{
    union attr_value v;
    char sbuf[NFS4_XDR_STRING], hbuf[NFS4_FHSIZE];
    int ok;

    memset(&v, 0, sizeof(v));
    if (n == FATTR4_OWNER || n == FATTR4_OWNER_GROUP)
        v.owner.utf8string_val = sbuf;
    else if (n == FATTR4_FILEHANDLE)
        v.filehandle.nfs_fh4_val = hbuf;
    ok = attr_codec[n](x, &v);
    if (!ok) {
        if (n != FATTR4_OWNER && n != FATTR4_OWNER_GROUP && n != FATTR4_FILEHANDLE)
            xdr_free(attr_codec[n], (char *)&v);
        return 0;
    }
    switch (n) {
    case FATTR4_TYPE:
        if (v.type >= NF4REG && v.type <= NF4FIFO) {
            a->type = (enum tr_nfs_ftype)v.type;
            a->have |= TR_NFS_A_TYPE;
        }
        break;
    case FATTR4_SIZE:
        a->size = v.size;
        a->have |= TR_NFS_A_SIZE;
        break;
    case FATTR4_FSID:
        a->fsid = v.fsid.major;
        a->have |= TR_NFS_A_FSID;
        break;
    case FATTR4_FILEID:
        a->fileid = v.fileid;
        a->have |= TR_NFS_A_FILEID;
        break;
    case FATTR4_MODE:
        a->mode = v.mode & 07777;
        a->have |= TR_NFS_A_MODE;
        break;
    case FATTR4_NUMLINKS:
        a->nlink = v.numlinks;
        a->have |= TR_NFS_A_NLINK;
        break;
    case FATTR4_OWNER:
        if (numeric_id(&v.owner, &a->uid))
            a->have |= TR_NFS_A_UID;
        return 1;
    case FATTR4_OWNER_GROUP:
        if (numeric_id(&v.owner_group, &a->gid))
            a->have |= TR_NFS_A_GID;
        return 1;
    case FATTR4_SPACE_USED:
        a->used = v.space_used;
        a->have |= TR_NFS_A_USED;
        break;
    case FATTR4_TIME_ACCESS:
        a->atime_ns = ns4(&v.time_access);
        a->have |= TR_NFS_A_ATIME;
        break;
    case FATTR4_TIME_MODIFY:
        a->mtime_ns = ns4(&v.time_modify);
        a->have |= TR_NFS_A_MTIME;
        break;
    case FATTR4_TIME_METADATA:
        a->ctime_ns = ns4(&v.time_metadata);
        a->have |= TR_NFS_A_CTIME;
        break;
    case FATTR4_TIME_ACCESS_SET:
        a->atime_ns = set_time(&v.time_access_set);
        a->have |= TR_NFS_A_ATIME;
        break;
    case FATTR4_TIME_MODIFY_SET:
        a->mtime_ns = set_time(&v.time_modify_set);
        a->have |= TR_NFS_A_MTIME;
        break;
    case FATTR4_FILEHANDLE:
        if (fh)
            fh_keep(d, (const uint8_t *)hbuf, v.filehandle.nfs_fh4_len, fh);
        return 1;
    default:
        break;
    }
    xdr_free(attr_codec[n], (char *)&v);
    return 1;
}

/* The values of the attributes of mask, in bit order, from p[0..len). */
static void attr_values(struct tr__x4 *d, const uint32_t *mask, uint32_t nwords, char *p,
                        u_int len, struct tr_nfs_attr *a, struct nf_fh *fh)
{
    XDR x;
    uint32_t w, b;

    xdrmem_create(&x, p, len, XDR_DECODE);
    for (w = 0; w < nwords; w++)
        for (b = 0; b < 32; b++) {
            uint32_t n = w * 32 + b;
            if (!(mask[w] & (1u << b)))
                continue;
            if (n >= CM_ARRAY_LEN(attr_codec) || !attr_codec[n]) {
                d->r->cnt[TR__C_NFSV4_ATTRS_UNKNOWN]++;
                goto out;
            }
            if (!one_attr(d, &x, n, a, fh))
                goto out; /* cut, or not as the bitmap says: the rest unknown */
        }
out:
    xdr_destroy(&x);
}

int tr__x4_fattr(struct tr__x4 *d, struct tr_nfs_attr *a, struct nf_fh *fh)
{
    uint32_t mask[NFS4_XDR_BITMAP], nwords, len;
    u_int pos, have, padded;
    char *p;

    if (!tr__x4_bitmap(d, mask, &nwords) || !xdr_u_int(&d->x, &len))
        return 0;
    if (len > NFS4_XDR_ATTRLIST)
        return 0;
    pos = xdr_getpos(&d->x);
    have = pos < d->len ? (u_int)(d->len - pos) : 0;
    padded = (len + 3) / 4 * 4;
    if (have > padded)
        have = padded;
    p = (char *)xdr_inline(&d->x, (int)have);
    if (!p)
        return 0;
    attr_values(d, mask, nwords, p, have < len ? have : len, a, fh);
    return have == padded;
}
