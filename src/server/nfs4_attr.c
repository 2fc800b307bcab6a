/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_attr.c - NFSv4 attributes of sfs_nfsd (server layer, RFC 8881
 * section 5): which are supported, their values for a node encoded with
 * the rpcgen routines of each attribute's type, those a client sets
 * decoded into the file system's sv_sattr, and VERIFY/NVERIFY's
 * comparison (the attributes as the server would encode them, byte for
 * byte against the client's).  Owners and groups are numeric strings
 * ("1000"), as a Linux server without an id mapper writes them.
 */
#include "server/nfs4_int.h"

#include <string.h>
#include "common/bytes.h"

#define BIT(a) (1u << ((a) % 32))

/* The attributes this server supports, by word. */
static const uint32_t supported[SV4_ATTR_WORDS] = {
    BIT(FATTR4_SUPPORTED_ATTRS) | BIT(FATTR4_TYPE) | BIT(FATTR4_FH_EXPIRE_TYPE) |
        BIT(FATTR4_CHANGE) | BIT(FATTR4_SIZE) | BIT(FATTR4_LINK_SUPPORT) |
        BIT(FATTR4_SYMLINK_SUPPORT) | BIT(FATTR4_NAMED_ATTR) | BIT(FATTR4_FSID) |
        BIT(FATTR4_UNIQUE_HANDLES) | BIT(FATTR4_LEASE_TIME) | BIT(FATTR4_RDATTR_ERROR) |
        BIT(FATTR4_ACLSUPPORT) | BIT(FATTR4_CANSETTIME) | BIT(FATTR4_CASE_INSENSITIVE) |
        BIT(FATTR4_CASE_PRESERVING) | BIT(FATTR4_CHOWN_RESTRICTED) |
        BIT(FATTR4_FILEHANDLE) | BIT(FATTR4_FILEID) | BIT(FATTR4_FILES_AVAIL) |
        BIT(FATTR4_FILES_FREE) | BIT(FATTR4_FILES_TOTAL) | BIT(FATTR4_HOMOGENEOUS) |
        BIT(FATTR4_MAXFILESIZE) | BIT(FATTR4_MAXLINK) | BIT(FATTR4_MAXNAME) |
        BIT(FATTR4_MAXREAD) | BIT(FATTR4_MAXWRITE),
    BIT(FATTR4_MODE) | BIT(FATTR4_NO_TRUNC) | BIT(FATTR4_NUMLINKS) | BIT(FATTR4_OWNER) |
        BIT(FATTR4_OWNER_GROUP) | BIT(FATTR4_RAWDEV) | BIT(FATTR4_SPACE_AVAIL) |
        BIT(FATTR4_SPACE_FREE) | BIT(FATTR4_SPACE_TOTAL) | BIT(FATTR4_SPACE_USED) |
        BIT(FATTR4_TIME_ACCESS) | BIT(FATTR4_TIME_ACCESS_SET) | BIT(FATTR4_TIME_CREATE) |
        BIT(FATTR4_TIME_DELTA) | BIT(FATTR4_TIME_METADATA) | BIT(FATTR4_TIME_MODIFY) |
        BIT(FATTR4_TIME_MODIFY_SET) | BIT(FATTR4_MOUNTED_ON_FILEID),
    BIT(FATTR4_SUPPATTR_EXCLCREAT), /* NFSv4.1 only */
};

/* Those a client may set, and those it may only set (never read). */
static const uint32_t writable[SV4_ATTR_WORDS] = {
    BIT(FATTR4_SIZE),
    BIT(FATTR4_MODE) | BIT(FATTR4_OWNER) | BIT(FATTR4_OWNER_GROUP) |
        BIT(FATTR4_TIME_ACCESS_SET) | BIT(FATTR4_TIME_MODIFY_SET),
    0,
};
static const uint32_t write_only[SV4_ATTR_WORDS] = {
    0, BIT(FATTR4_TIME_ACCESS_SET) | BIT(FATTR4_TIME_MODIFY_SET), 0};

uint32_t sv4_attr_supported(uint32_t minor, int word)
{
    if (word < 0 || word >= SV4_ATTR_WORDS)
        return 0;
    return word == 2 && minor == 0 ? 0 : supported[word];
}

void sv4_bitmap(bitmap4 *b, uint32_t *w, u_int len)
{
    while (len > 0 && w[len - 1] == 0)
        len--;
    b->bitmap4_len = len;
    b->bitmap4_val = w;
}

static int has(const bitmap4 *b, u_int a)
{
    return a / 32 < b->bitmap4_len && (b->bitmap4_val[a / 32] & BIT(a));
}

uint64_t sv4_change(const struct sv_node *n)
{
    /* ctime changes with every change of the object, to the nanosecond */
    return (uint64_t)n->ctime.sec << 32 | n->ctime.nsec;
}

/* The attribute values are written by hand, word by word, rather than
 * through rpcgen's codec of each attribute's type over an xdrmem stream:
 * GETATTR is in most compounds and READDIR encodes a set per entry, and a
 * call through libtirpc per word (and snprintf per owner) cost most of a
 * GETATTR compound (docs/PERFORMANCE.md, "NFSv4 compounds").  The wire
 * form is RFC 8881's, checked against rpcgen's decoders by
 * test_server_nfs4's attribute test. */
struct attr_out {
    uint8_t *buf;
    u_int pos, cap;
    int ok;
};

static void put_u32(struct attr_out *o, uint32_t v)
{
    if (o->cap - o->pos < 4) {
        o->ok = 0;
        return;
    }
    cm_be32_put(o->buf + o->pos, v);
    o->pos += 4;
}

static void put_u64(struct attr_out *o, uint64_t v)
{
    put_u32(o, (uint32_t)(v >> 32));
    put_u32(o, (uint32_t)v);
}

static void put_time(struct attr_out *o, const struct sv_time *t)
{
    put_u64(o, t->sec); /* nfstime4: int64 seconds, uint32 nanoseconds */
    put_u32(o, t->nsec);
}

/* Variable-length opaque data: the length, the bytes, zeros to a word. */
static void put_opaque(struct attr_out *o, const void *p, u_int len)
{
    u_int padded = (len + 3) & ~3u;

    put_u32(o, len);
    if (!o->ok || o->cap - o->pos < padded) {
        o->ok = 0;
        return;
    }
    memcpy(o->buf + o->pos, p, len);
    memset(o->buf + o->pos + len, 0, padded - len);
    o->pos += padded;
}

/* An owner or group as its decimal number. */
static void put_id(struct attr_out *o, uint32_t id)
{
    char s[10];
    u_int n = sizeof(s);

    do
        s[--n] = (char)('0' + id % 10);
    while ((id /= 10) != 0);
    put_opaque(o, s + n, (u_int)sizeof(s) - n);
}

/* A bitmap4 without its trailing zero words. */
static void put_bitmap(struct attr_out *o, const uint32_t *w, u_int n)
{
    while (n > 0 && w[n - 1] == 0)
        n--;
    put_u32(o, n);
    for (u_int i = 0; i < n; i++)
        put_u32(o, w[i]);
}

/* One attribute of n. */
static void put_attr(struct sv4_call *x, struct attr_out *o, u_int a,
                     const struct sv_node *n, nfsstat4 rdattr)
{
    struct sv_fs_usage u;
    uint64_t size = n->size;
    uint32_t mode = n->mode;

    if (x->c->attrs_wrong) /* --wrong-attrs */
        sv__fault_attrs(&size, &mode);
    switch (a) {
    case FATTR4_SUPPORTED_ATTRS: {
        uint32_t w[SV4_ATTR_WORDS];
        for (int i = 0; i < SV4_ATTR_WORDS; i++)
            w[i] = sv4_attr_supported(x->minor, i);
        put_bitmap(o, w, SV4_ATTR_WORDS);
        return;
    }
    case FATTR4_TYPE:
        put_u32(o, (uint32_t)n->type); /* sv_type numbers are nfs_ftype4's */
        return;
    case FATTR4_FH_EXPIRE_TYPE:
        put_u32(o, FH4_PERSISTENT);
        return;
    case FATTR4_CHANGE:
        put_u64(o, sv4_change(n));
        return;
    case FATTR4_SIZE:
        put_u64(o, size);
        return;
    case FATTR4_LINK_SUPPORT:
    case FATTR4_SYMLINK_SUPPORT:
    case FATTR4_UNIQUE_HANDLES:
    case FATTR4_CANSETTIME:
    case FATTR4_CASE_PRESERVING:
    case FATTR4_CHOWN_RESTRICTED:
    case FATTR4_HOMOGENEOUS:
    case FATTR4_NO_TRUNC:
        put_u32(o, TRUE);
        return;
    case FATTR4_NAMED_ATTR:
    case FATTR4_CASE_INSENSITIVE:
        put_u32(o, FALSE);
        return;
    case FATTR4_FSID:
        put_u64(o, SV_FSID); /* major, minor */
        put_u64(o, 0);
        return;
    case FATTR4_LEASE_TIME:
        put_u32(o, x->v->lease_s);
        return;
    case FATTR4_RDATTR_ERROR:
        put_u32(o, (uint32_t)rdattr);
        return;
    case FATTR4_ACLSUPPORT:
        put_u32(o, 0); /* no ACLs */
        return;
    case FATTR4_FILEHANDLE: {
        uint8_t fh[SV_FH_LEN];
        sv__handle(x->c, n, fh);
        put_opaque(o, fh, SV_FH_LEN);
        return;
    }
    case FATTR4_FILEID:
    case FATTR4_MOUNTED_ON_FILEID:
        put_u64(o, n->fileid);
        return;
    case FATTR4_FILES_AVAIL:
    case FATTR4_FILES_FREE:
        sv__fs_usage(x->c->fs, &u);
        put_u64(o, (1ULL << 32) - u.files);
        return;
    case FATTR4_FILES_TOTAL:
        put_u64(o, 1ULL << 32); /* what FSSTAT says too */
        return;
    case FATTR4_MAXFILESIZE:
        put_u64(o, SV_FILE_MAX);
        return;
    case FATTR4_MAXLINK:
        put_u32(o, 32000);
        return;
    case FATTR4_MAXNAME:
        put_u32(o, SV_NAME_MAX);
        return;
    case FATTR4_MAXREAD:
    case FATTR4_MAXWRITE:
        put_u64(o, SV_IO_MAX);
        return;
    case FATTR4_MODE:
        put_u32(o, mode & 07777);
        return;
    case FATTR4_NUMLINKS:
        put_u32(o, n->nlink);
        return;
    case FATTR4_OWNER:
        put_id(o, n->uid);
        return;
    case FATTR4_OWNER_GROUP:
        put_id(o, n->gid);
        return;
    case FATTR4_RAWDEV:
        put_u32(o, n->rdev_major); /* specdata4 */
        put_u32(o, n->rdev_minor);
        return;
    case FATTR4_SPACE_AVAIL:
    case FATTR4_SPACE_FREE:
        sv__fs_usage(x->c->fs, &u);
        put_u64(o, u.total_bytes - u.used_bytes);
        return;
    case FATTR4_SPACE_TOTAL:
        sv__fs_usage(x->c->fs, &u);
        put_u64(o, u.total_bytes);
        return;
    case FATTR4_SPACE_USED:
        put_u64(o, n->type == SV_REG ? n->used : n->size);
        return;
    case FATTR4_TIME_ACCESS:
        put_time(o, &n->atime);
        return;
    case FATTR4_TIME_CREATE:
        put_time(o, &n->btime);
        return;
    case FATTR4_TIME_DELTA: {
        struct sv_time ns = {0, 1}; /* times are kept to the nanosecond */
        put_time(o, &ns);
        return;
    }
    case FATTR4_TIME_METADATA:
        put_time(o, &n->ctime);
        return;
    case FATTR4_TIME_MODIFY:
        put_time(o, &n->mtime);
        return;
    case FATTR4_SUPPATTR_EXCLCREAT:
        put_bitmap(o, writable, SV4_ATTR_WORDS);
        return;
    default:
        o->ok = 0; /* not reached: only supported attributes get here */
        return;
    }
}

nfsstat4 sv4_attr_encode_into(struct sv4_call *x, const struct sv_node *n,
                              const bitmap4 *mask, nfsstat4 rdattr, uint8_t *buf,
                              u_int cap, uint32_t *out_words, fattr4 *out)
{
    struct attr_out o = {buf, 0, cap, 1};

    memset(out_words, 0, SV4_ATTR_WORDS * sizeof(*out_words));
    for (u_int w = 0; w < mask->bitmap4_len && w < SV4_ATTR_WORDS; w++) {
        if (mask->bitmap4_val[w] & write_only[w])
            return NFS4ERR_INVAL;
        out_words[w] = mask->bitmap4_val[w] & sv4_attr_supported(x->minor, (int)w);
    }
    /* in attribute order: each word's set bits, lowest first */
    for (u_int w = 0; o.ok && w < SV4_ATTR_WORDS; w++)
        for (uint32_t bits = out_words[w]; o.ok && bits != 0; bits &= bits - 1)
            put_attr(x, &o, 32 * w + (u_int)__builtin_ctz(bits), n, rdattr);
    if (!o.ok)
        return NFS4ERR_RESOURCE;
    out->attr_vals.attrlist4_len = o.pos;
    out->attr_vals.attrlist4_val = (char *)buf;
    sv4_bitmap(&out->attrmask, out_words, SV4_ATTR_WORDS);
    return NFS4_OK;
}

nfsstat4 sv4_attr_encode(struct sv4_call *x, const struct sv_node *n, const bitmap4 *mask,
                         nfsstat4 rdattr, uint32_t *out_words, fattr4 *out)
{
    return sv4_attr_encode_into(x, n, mask, rdattr, x->v->attrs, sizeof(x->v->attrs),
                                out_words, out);
}

/* ---- attributes a client sets --------------------------------------------- */

/* A numeric owner or group ("1000", or "1000@domain"): 0 or BADOWNER. */
static nfsstat4 get_id(XDR *in, uint32_t *id)
{
    char buf[NFS4_OPAQUE_LIMIT + 1];
    utf8string u = {0, buf};
    uint64_t v = 0;
    u_int i;

    if (!xdr_bytes(in, &u.utf8string_val, &u.utf8string_len, NFS4_OPAQUE_LIMIT))
        return NFS4ERR_BADXDR;
    if (u.utf8string_len == 0)
        return NFS4ERR_INVAL; /* no owner at all */
    for (i = 0; i < u.utf8string_len && buf[i] >= '0' && buf[i] <= '9'; i++) {
        v = v * 10 + (uint64_t)(buf[i] - '0');
        if (v > UINT32_MAX)
            return NFS4ERR_BADOWNER;
    }
    if (i == 0 || (i < u.utf8string_len && buf[i] != '@'))
        return NFS4ERR_BADOWNER;
    *id = (uint32_t)v;
    return NFS4_OK;
}

/* settime4 into one of sv_sattr's time settings (1 server, 2 client). */
static nfsstat4 get_settime(XDR *in, int *how, struct sv_time *t)
{
    settime4 s;

    memset(&s, 0, sizeof(s));
    if (!xdr_settime4(in, &s))
        return NFS4ERR_BADXDR;
    if (s.set_it == SET_TO_SERVER_TIME4) {
        *how = 1;
        return NFS4_OK;
    }
    if (s.settime4_u.time.nseconds >= 1000000000u || s.settime4_u.time.seconds < 0 ||
        s.settime4_u.time.seconds > UINT32_MAX)
        return NFS4ERR_INVAL;
    *how = 2;
    t->sec = (uint32_t)s.settime4_u.time.seconds;
    t->nsec = s.settime4_u.time.nseconds;
    return NFS4_OK;
}

static nfsstat4 get_attr(XDR *in, u_int a, struct sv_sattr *sa)
{
    switch (a) {
    case FATTR4_SIZE:
        sa->set_size = 1;
        return xdr_uint64_t(in, &sa->size) ? NFS4_OK : NFS4ERR_BADXDR;
    case FATTR4_MODE:
        sa->set_mode = 1;
        if (!xdr_uint32_t(in, &sa->mode))
            return NFS4ERR_BADXDR;
        sa->mode &= 07777;
        return NFS4_OK;
    case FATTR4_OWNER:
        sa->set_uid = 1;
        return get_id(in, &sa->uid);
    case FATTR4_OWNER_GROUP:
        sa->set_gid = 1;
        return get_id(in, &sa->gid);
    case FATTR4_TIME_ACCESS_SET:
        return get_settime(in, &sa->set_atime, &sa->atime);
    case FATTR4_TIME_MODIFY_SET:
        return get_settime(in, &sa->set_mtime, &sa->mtime);
    default:
        return NFS4ERR_INVAL;
    }
}

/* Every bit of mask supported (else ATTRNOTSUPP). */
static nfsstat4 check_supported(struct sv4_call *x, const bitmap4 *mask)
{
    for (u_int w = 0; w < mask->bitmap4_len; w++)
        if (mask->bitmap4_val[w] & ~sv4_attr_supported(x->minor, (int)w))
            return NFS4ERR_ATTRNOTSUPP;
    return NFS4_OK;
}

nfsstat4 sv4_attr_decode(struct sv4_call *x, const fattr4 *fa, struct sv_sattr *sa,
                         uint32_t set[SV4_ATTR_WORDS])
{
    const bitmap4 *m = &fa->attrmask;
    nfsstat4 st = check_supported(x, m);
    XDR in;

    memset(sa, 0, sizeof(*sa));
    memset(set, 0, SV4_ATTR_WORDS * sizeof(*set));
    if (st != NFS4_OK)
        return st;
    for (u_int w = 0; w < m->bitmap4_len; w++)
        if (m->bitmap4_val[w] & ~writable[w])
            return NFS4ERR_INVAL; /* a read-only attribute */
    xdrmem_create(&in, fa->attr_vals.attrlist4_val, fa->attr_vals.attrlist4_len,
                  XDR_DECODE);
    for (u_int a = 0; st == NFS4_OK && a < 32 * m->bitmap4_len; a++) {
        if (!(m->bitmap4_val[a / 32] & BIT(a)))
            continue;
        st = get_attr(&in, a, sa);
        set[a / 32] |= BIT(a);
    }
    if (st == NFS4_OK && xdr_getpos(&in) != fa->attr_vals.attrlist4_len)
        st = NFS4ERR_BADXDR; /* values the bitmap does not account for */
    xdr_destroy(&in);
    return st;
}

nfsstat4 sv4_attr_verify(struct sv4_call *x, const struct sv_node *n, const fattr4 *fa,
                         int want_same)
{
    const bitmap4 *m = &fa->attrmask;
    uint32_t words[SV4_ATTR_WORDS];
    fattr4 mine;
    nfsstat4 st = check_supported(x, m);
    int same;

    if (st != NFS4_OK)
        return st;
    if (has(m, FATTR4_RDATTR_ERROR))
        return NFS4ERR_INVAL;
    st = sv4_attr_encode(x, n, m, NFS4_OK, words, &mine);
    if (st != NFS4_OK)
        return st;
    same = mine.attr_vals.attrlist4_len == fa->attr_vals.attrlist4_len &&
           memcmp(mine.attr_vals.attrlist4_val, fa->attr_vals.attrlist4_val,
                  fa->attr_vals.attrlist4_len) == 0;
    if (want_same)
        return same ? NFS4_OK : NFS4ERR_NOT_SAME;
    return same ? NFS4ERR_SAME : NFS4_OK;
}
