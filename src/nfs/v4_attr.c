/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_attr.c - NFSv4 attributes (nf4_client.h): the masks FreeSFS asks with, the
 * decode of a fattr4's values into struct nf4_attrs, and the encode of the
 * attributes a call sets.  A fattr4 is a bitmap and an opaque holding the
 * values of the set bits in number order, each in its own XDR type
 * (RFC 8881 5.6-5.7); rpcgen sees only the opaque, so the values are read
 * here by hand, from one table of the attributes FreeSFS knows (number,
 * XDR shape, field), straight out of the reply's bytes: nothing is
 * allocated or copied.
 */
#include <stddef.h>
#include <string.h>

#include "common/bytes.h"
#include "common/cm.h"
#include "nfs/nf4_int.h"

/* ---- the masks ----------------------------------------------------------- */

#define W0(n) (1u << (n))
#define W1(n) (1u << ((n)-32))

/* stat(2): what a Linux client's GETATTR asks after most operations */
#define STAT_W0                                                                          \
    (W0(FATTR4_TYPE) | W0(FATTR4_CHANGE) | W0(FATTR4_SIZE) | W0(FATTR4_FSID) |           \
     W0(FATTR4_FILEID))
#define STAT_W1                                                                          \
    (W1(FATTR4_MODE) | W1(FATTR4_NUMLINKS) | W1(FATTR4_OWNER) | W1(FATTR4_OWNER_GROUP) | \
     W1(FATTR4_RAWDEV) | W1(FATTR4_SPACE_USED) | W1(FATTR4_TIME_ACCESS) |                \
     W1(FATTR4_TIME_METADATA) | W1(FATTR4_TIME_MODIFY) | W1(FATTR4_MOUNTED_ON_FILEID))

static const uint32_t mask_words[NF4_NMASKS][2] = {
    [NF4_MASK_GETATTR] = {STAT_W0, STAT_W1},
    /* ls: the names with their type and file id */
    [NF4_MASK_READDIR] = {W0(FATTR4_RDATTR_ERROR) | W0(FATTR4_TYPE) | W0(FATTR4_FILEID),
                          W1(FATTR4_MOUNTED_ON_FILEID)},
    /* ls -l: every entry's stat, and its handle */
    [NF4_MASK_READDIR_PLUS] = {STAT_W0 | W0(FATTR4_RDATTR_ERROR) | W0(FATTR4_FILEHANDLE),
                               STAT_W1},
    [NF4_MASK_FSSTAT] = {W0(FATTR4_FILES_AVAIL) | W0(FATTR4_FILES_FREE) |
                             W0(FATTR4_FILES_TOTAL),
                         W1(FATTR4_SPACE_AVAIL) | W1(FATTR4_SPACE_FREE) |
                             W1(FATTR4_SPACE_TOTAL)},
    [NF4_MASK_FSINFO] = {W0(FATTR4_LEASE_TIME) | W0(FATTR4_MAXFILESIZE) |
                             W0(FATTR4_MAXREAD) | W0(FATTR4_MAXWRITE),
                         W1(FATTR4_TIME_DELTA)},
    [NF4_MASK_PATHCONF] = {W0(FATTR4_CASE_INSENSITIVE) | W0(FATTR4_CASE_PRESERVING) |
                               W0(FATTR4_CHOWN_RESTRICTED) | W0(FATTR4_MAXLINK) |
                               W0(FATTR4_MAXNAME),
                           W1(FATTR4_NO_TRUNC)},
    [NF4_MASK_SERVER] = {W0(FATTR4_SUPPORTED_ATTRS) | W0(FATTR4_TYPE) |
                             W0(FATTR4_FH_EXPIRE_TYPE) | W0(FATTR4_FSID) |
                             W0(FATTR4_LEASE_TIME) | W0(FATTR4_MAXREAD) |
                             W0(FATTR4_MAXWRITE),
                         0},
    [NF4_MASK_TYPE] = {W0(FATTR4_TYPE) | W0(FATTR4_FILEID), 0},
};

/* rpcgen's bitmap4 holds a non-const pointer; its encoder only reads
 * through it. */
static const bitmap4 masks[NF4_NMASKS] = {
#define MASK(m) [m] = {2, (uint32_t *)mask_words[m]}
    MASK(NF4_MASK_GETATTR), MASK(NF4_MASK_READDIR), MASK(NF4_MASK_READDIR_PLUS),
    MASK(NF4_MASK_FSSTAT),  MASK(NF4_MASK_FSINFO),  MASK(NF4_MASK_PATHCONF),
    MASK(NF4_MASK_SERVER),  MASK(NF4_MASK_TYPE),
#undef MASK
};

const bitmap4 *nf4_mask_bitmap(enum nf4_mask m)
{
    return m < NF4_NMASKS ? &masks[m] : NULL;
}

/* ---- decoding values ----------------------------------------------------- */

/* The XDR shapes of the attributes FreeSFS reads. */
enum shape {
    S_NONE,   /* unknown to FreeSFS (or write-only): the decode ends there */
    S_U32,    /* uint32_t and enums */
    S_U64,    /* uint64_t */
    S_BOOL,   /* into a uint8_t */
    S_PAIR64, /* fsid4 */
    S_PAIR32, /* specdata4 */
    S_TIME,   /* nfstime4 */
    S_BITMAP, /* bitmap4 (supported_attrs) */
    S_STRLEN, /* utf8str: its length kept */
    S_OWNER,  /* utf8str (owner, owner_group): its length, and its value
                 when it is a decimal number (AUTH_SYS ids without an id
                 mapping), else UINT32_MAX */
    S_SKIP,   /* an opaque or string read over (filehandle, mimetype) */
};

#define NOFIELD UINT16_MAX

struct attr_row {
    uint8_t shape;  /* enum shape */
    uint16_t field; /* offsetof in struct nf4_attrs, NOFIELD: read over */
};

/* The bytes of each fixed-size shape (0: its length is in the value). */
static const uint8_t fixed_bytes[] = {
    [S_U32] = 4,     [S_U64] = 8,    [S_BOOL] = 4,
    [S_PAIR64] = 16, [S_PAIR32] = 8, [S_TIME] = 12,
};

#define F(f) offsetof(struct nf4_attrs, f)
/* every attribute a bitmap of NF4_ATTR_WORDS words can name (S_NONE: not
 * known), so that the decode needs no bound check */
static const struct attr_row rows[32 * NF4_ATTR_WORDS] = {
    [FATTR4_SUPPORTED_ATTRS] = {S_BITMAP, F(supported)},
    [FATTR4_TYPE] = {S_U32, F(type)},
    [FATTR4_FH_EXPIRE_TYPE] = {S_U32, F(fh_expire_type)},
    [FATTR4_CHANGE] = {S_U64, F(change)},
    [FATTR4_SIZE] = {S_U64, F(size)},
    [FATTR4_LINK_SUPPORT] = {S_BOOL, F(link_support)},
    [FATTR4_SYMLINK_SUPPORT] = {S_BOOL, F(symlink_support)},
    [FATTR4_NAMED_ATTR] = {S_BOOL, F(named_attr)},
    [FATTR4_FSID] = {S_PAIR64, F(fsid_major)},
    [FATTR4_UNIQUE_HANDLES] = {S_BOOL, F(unique_handles)},
    [FATTR4_LEASE_TIME] = {S_U32, F(lease_time)},
    [FATTR4_RDATTR_ERROR] = {S_U32, F(rdattr_error)},
    [FATTR4_ACLSUPPORT] = {S_U32, F(aclsupport)},
    [FATTR4_ARCHIVE] = {S_BOOL, NOFIELD},
    [FATTR4_CANSETTIME] = {S_BOOL, F(cansettime)},
    [FATTR4_CASE_INSENSITIVE] = {S_BOOL, F(case_insensitive)},
    [FATTR4_CASE_PRESERVING] = {S_BOOL, F(case_preserving)},
    [FATTR4_CHOWN_RESTRICTED] = {S_BOOL, F(chown_restricted)},
    [FATTR4_FILEHANDLE] = {S_SKIP, NOFIELD},
    [FATTR4_FILEID] = {S_U64, F(fileid)},
    [FATTR4_FILES_AVAIL] = {S_U64, F(files_avail)},
    [FATTR4_FILES_FREE] = {S_U64, F(files_free)},
    [FATTR4_FILES_TOTAL] = {S_U64, F(files_total)},
    [FATTR4_HIDDEN] = {S_BOOL, NOFIELD},
    [FATTR4_HOMOGENEOUS] = {S_BOOL, F(homogeneous)},
    [FATTR4_MAXFILESIZE] = {S_U64, F(maxfilesize)},
    [FATTR4_MAXLINK] = {S_U32, F(maxlink)},
    [FATTR4_MAXNAME] = {S_U32, F(maxname)},
    [FATTR4_MAXREAD] = {S_U64, F(maxread)},
    [FATTR4_MAXWRITE] = {S_U64, F(maxwrite)},
    [FATTR4_MIMETYPE] = {S_SKIP, NOFIELD},
    [FATTR4_MODE] = {S_U32, F(mode)},
    [FATTR4_NO_TRUNC] = {S_BOOL, F(no_trunc)},
    [FATTR4_NUMLINKS] = {S_U32, F(numlinks)},
    [FATTR4_OWNER] = {S_OWNER, F(owner_len)},
    [FATTR4_OWNER_GROUP] = {S_OWNER, F(owner_group_len)},
    [FATTR4_QUOTA_AVAIL_HARD] = {S_U64, NOFIELD},
    [FATTR4_QUOTA_AVAIL_SOFT] = {S_U64, NOFIELD},
    [FATTR4_QUOTA_USED] = {S_U64, NOFIELD},
    [FATTR4_RAWDEV] = {S_PAIR32, F(rawdev_major)},
    [FATTR4_SPACE_AVAIL] = {S_U64, F(space_avail)},
    [FATTR4_SPACE_FREE] = {S_U64, F(space_free)},
    [FATTR4_SPACE_TOTAL] = {S_U64, F(space_total)},
    [FATTR4_SPACE_USED] = {S_U64, F(space_used)},
    [FATTR4_SYSTEM] = {S_BOOL, NOFIELD},
    [FATTR4_TIME_ACCESS] = {S_TIME, F(time_access)},
    [FATTR4_TIME_BACKUP] = {S_TIME, NOFIELD},
    [FATTR4_TIME_CREATE] = {S_TIME, F(time_create)},
    [FATTR4_TIME_DELTA] = {S_TIME, F(time_delta)},
    [FATTR4_TIME_METADATA] = {S_TIME, F(time_metadata)},
    [FATTR4_TIME_MODIFY] = {S_TIME, F(time_modify)},
    [FATTR4_MOUNTED_ON_FILEID] = {S_U64, F(mounted_on_fileid)},
};
#undef F

/* A cursor over the value bytes. */
struct cur {
    const uint8_t *p;
    u_int left;
};

/* A fixed-size value of shape s at at into dst. */
static void fixed_value(enum shape s, const uint8_t *at, void *dst)
{
    switch (s) {
    case S_U32:
        *(uint32_t *)dst = cm_be32_get(at);
        break;
    case S_BOOL:
        *(uint8_t *)dst = cm_be32_get(at) != 0;
        break;
    case S_U64:
        *(uint64_t *)dst = cm_be64_get(at);
        break;
    case S_PAIR64:
        ((uint64_t *)dst)[0] = cm_be64_get(at);
        ((uint64_t *)dst)[1] = cm_be64_get(at + 8);
        break;
    case S_PAIR32:
        ((uint32_t *)dst)[0] = cm_be32_get(at);
        ((uint32_t *)dst)[1] = cm_be32_get(at + 4);
        break;
    case S_TIME:
        ((struct nf4_time *)dst)->sec = (int64_t)cm_be64_get(at);
        ((struct nf4_time *)dst)->nsec = cm_be32_get(at + 8);
        break;
    default:
        break;
    }
}

/* An owner string's value when it is a decimal number below UINT32_MAX
 * (at most 10 digits), else UINT32_MAX. */
static uint32_t owner_id(const uint8_t *s, uint32_t n)
{
    uint64_t id = 0;
    uint32_t i;

    for (i = 0; i < n && i < 11 && s[i] >= '0' && s[i] <= '9'; i++)
        id = id * 10 + (uint64_t)(s[i] - '0');
    return n == 0 || i < n || id >= UINT32_MAX ? UINT32_MAX : (uint32_t)id;
}

/* A value of variable length (a string's length, an opaque, a bitmap)
 * into dst (NULL: read over). */
static int variable_value(struct cur *c, enum shape s, void *dst)
{
    uint32_t n, i, need;

    if (c->left < 4)
        return -EPROTO;
    n = cm_be32_get(c->p);
    c->p += 4;
    c->left -= 4;
    if (s == S_BITMAP) {
        if (n > c->left / 4)
            return -EPROTO;
        for (i = 0; i < n; i++)
            if (dst && i < NF4_ATTR_WORDS)
                ((uint32_t *)dst)[i] = cm_be32_get(c->p + 4 * i);
        need = 4 * n;
    } else { /* S_STRLEN, S_OWNER, S_SKIP: the bytes, padded to a word */
        if (dst && (s == S_STRLEN || s == S_OWNER))
            *(uint32_t *)dst = n;
        if (dst && s == S_OWNER && n <= c->left)
            ((uint32_t *)dst)[1] = owner_id(c->p, n);
        if (n > c->left)
            return -EPROTO;
        need = (n + 3u) & ~3u;
        if (need > c->left)
            return -EPROTO;
    }
    c->p += need;
    c->left -= need;
    return 0;
}

int nf4_attrs_decode(struct nf4_attrs *a, const uint32_t *mask, u_int nwords,
                     const char *vals, u_int len)
{
    struct cur c = {(const uint8_t *)vals, len};
    unsigned w;

    /* the set bits only, lowest first (the values' order): a GETATTR
     * reply sets about 15 of the 96, and testing every bit was a quarter
     * of an NFSv4 GETATTR loop's instructions; the fixed-size values (all
     * but owner and group in that reply) are one bound check each */
    for (w = 0; w < nwords && w < NF4_ATTR_WORDS; w++) {
        uint32_t bits = mask[w], done = 0;

        while (bits) {
            unsigned b = (unsigned)__builtin_ctz(bits);
            const struct attr_row *r = &rows[32u * w + b];
            unsigned size = r->shape < sizeof(fixed_bytes) ? fixed_bytes[r->shape] : 0;
            void *dst = r->field == NOFIELD ? NULL : (char *)a + r->field;

            if (r->shape == S_NONE) {
                a->have[w] |= done;
                return 0; /* the values after an unknown one cannot be placed */
            }
            if (size) {
                if (c.left < size)
                    return -EPROTO;
                if (dst)
                    fixed_value((enum shape)r->shape, c.p, dst);
                c.p += size;
                c.left -= size;
            } else if (variable_value(&c, (enum shape)r->shape, dst) < 0) {
                return -EPROTO;
            }
            done |= 1u << b;
            bits &= bits - 1u;
        }
        a->have[w] |= done;
    }
    return 0;
}

/* ---- encoding what a call sets ------------------------------------------- */

/* A settime4: SET_TO_CLIENT_TIME4 and the time (seconds) with set_times,
 * else SET_TO_SERVER_TIME4 with no time. */
static uint8_t *settime(uint8_t *p, const struct nf4_sattr *sa)
{
    if (!sa->set_times) {
        cm_be32_put(p, SET_TO_SERVER_TIME4);
        return p + 4;
    }
    cm_be32_put(p, SET_TO_CLIENT_TIME4);
    cm_be64_put(p + 4, (uint64_t)sa->time_s);
    cm_be32_put(p + 12, 0);
    return p + 16;
}

int nf4__sattr_encode(const struct nf4_sattr *sa, uint32_t words[2], char *buf,
                      size_t cap)
{
    uint8_t *p = (uint8_t *)buf;

    words[0] = words[1] = 0;
    if (!sa)
        return 0;
    if (cap < 8 + 4 + 16 + 16) /* the largest set below */
        return -ENOSPC;
    if (sa->set_size) { /* FATTR4_SIZE, word 0: first in number order */
        words[0] |= W0(FATTR4_SIZE);
        cm_be64_put(p, sa->size);
        p += 8;
    }
    if (sa->set_mode) {
        words[1] |= W1(FATTR4_MODE);
        cm_be32_put(p, sa->mode);
        p += 4;
    }
    if (sa->set_atime_now || sa->set_times) { /* settime4 */
        words[1] |= W1(FATTR4_TIME_ACCESS_SET);
        p = settime(p, sa);
    }
    if (sa->set_mtime_now || sa->set_times) {
        words[1] |= W1(FATTR4_TIME_MODIFY_SET);
        p = settime(p, sa);
    }
    return (int)(p - (uint8_t *)buf);
}
