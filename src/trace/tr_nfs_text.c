/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_text.c - the Harvard/SNIA "nfsdump" text format (docs/NFS_TRACES.md
 * section 3): one line per call or reply, a fixed head (time, source and
 * destination host.port in hex, U/T, C3/R3/C2/R2, XID, procedure number
 * and name, a reply's status), name/value pairs, and a diagnostic tail
 * (con = .. len = ..).  Lines are split in place (the buffered input of
 * input.c), values parsed exactly (hex, times to the nanosecond), and each
 * line handed to the pairing as one message.  Strict by default: the
 * first damaged line is a FILE:LINE error; lenient counts and skips it.
 * What nfsdump itself writes is read as it wrote it, not as damage: its
 * procedure names (readdirp), NULL replies without a status, hosts in
 * dotted decimal (nfsdump -v), directory entries as name-N keys, names
 * with \XX escapes, NFSv2 WRITE's size as tcount; the lines it marks as
 * not parsed (SHORT PACKET, v2's +|+ and +/+) and those with an unknown
 * stable_how (stable ?) are skipped and counted in any mode; the replies
 * at the start of an excerpt, whose calls came before it, are its edge.
 * FreeSFS's own extensions (MOUNT lines, directory entries, explicit
 * directory attributes, connection numbers, counters in comments) are
 * documented beside the format.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/num.h"

/* One token of a line: in place, NUL-terminated. */
struct tok {
    char *s;
    size_t len;
};

/* A directory entry while its line is parsed. */
struct pent {
    char *name;
    size_t len;
    struct tr_nfs_dirent d;
};

struct tr__text {
    struct tr_input in;
    long lineno;
    int64_t last_t, first_t; /* the last line's time, the first's */
    int have_t, have_first;
    struct tok *toks;
    size_t ntoks, tok_cap;
    int toks_fixed; /* toks is the caller's array: stop when it is full */
    struct pent *ents;
    uint32_t nents, ent_cap;
};

/* What one line says, before it meets the pairing. */
struct line {
    struct tr__msg m;
    int call;
    uint32_t prog, vers, proc;
    uint32_t rpc_status, status;
    struct tr_nfs_event ev; /* the fields the line sets */
    struct tok str[TR__S_N];
    int cut, retrans, datacut;
    int orphan;      /* a reply nfsdump had no call for ("unknown") */
    int have_count;  /* a count key was read */
    uint32_t tcount; /* NFSv2 WRITE's size as nfsdump writes it */
};

/* ---- small parsers ------------------------------------------------------- */

static int hex_u64(const struct tok *t, uint64_t *v)
{
    size_t i;

    if (t->len == 0 || t->len > 16)
        return -1;
    *v = 0;
    for (i = 0; i < t->len; i++) {
        int d = cm_hex_digit((unsigned char)t->s[i]);
        if (d < 0)
            return -1;
        *v = *v << 4 | (uint64_t)d;
    }
    return 0;
}

static int hex_u32(const struct tok *t, uint32_t *v)
{
    uint64_t x;

    if (hex_u64(t, &x) < 0 || x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int dec_u32(const struct tok *t, uint32_t *v)
{
    uint64_t x;

    if (tr__dec_u64(t->s, t->len, &x) < 0 || x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int hex_fh(const struct tok *t, struct nf_fh *fh)
{
    if (t->len % 2 || t->len / 2 > NF_FH_MAX ||
        cm_hex_decode(t->s, t->len / 2, fh->data) < 0)
        return -1;
    fh->len = (uint32_t)(t->len / 2);
    return 0;
}

/* "A.B.C.D.port": nfsdump -v writes an IPv4 host in dotted decimal, its
 * port still in hex. */
static int dotted_endpoint(const struct tok *t, struct tr__ep *ep)
{
    const char *p = t->s, *end = t->s + t->len;
    struct tok port;
    uint32_t v;
    int i;

    memset(ep, 0, sizeof(*ep));
    for (i = 0; i < 4; i++) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        struct tok d = {(char *)p, dot ? (size_t)(dot - p) : 0};
        if (!dot || d.len == 0 || d.len > 3 || dec_u32(&d, &v) < 0 || v > 255)
            return -1;
        ep->a[i] = (uint8_t)v;
        p = dot + 1;
    }
    port.s = (char *)p;
    port.len = (size_t)(end - p);
    if (port.len == 0 || port.len > 4 || hex_u32(&port, &v) < 0)
        return -1;
    ep->fam = TR__FAM_V4;
    ep->len = 4;
    ep->port = (uint16_t)v;
    return 0;
}

/* "host.port", both hex: an IPv4 host as 8 digits, IPv6 as 32, any other
 * length an nfsdump host number; or nfsdump -v's dotted decimal. */
static int endpoint(const struct tok *t, struct tr__ep *ep)
{
    const char *dot = memchr(t->s, '.', t->len);
    size_t hl, i, dots = 0;
    struct tok port;
    uint32_t p;

    if (!dot)
        return -1;
    for (i = 0; i < t->len; i++)
        dots += t->s[i] == '.';
    if (dots == 4)
        return dotted_endpoint(t, ep);
    hl = (size_t)(dot - t->s);
    port.s = (char *)dot + 1;
    port.len = t->len - hl - 1;
    if (hl == 0 || hl > 32 || port.len > 4 || hex_u32(&port, &p) < 0)
        return -1;
    memset(ep, 0, sizeof(*ep));
    for (i = 0; i < hl; i++) {
        int d = cm_hex_digit((unsigned char)t->s[i]);
        size_t nib = 32 - hl + i; /* right-aligned nibbles */
        if (d < 0)
            return -1;
        ep->a[nib / 2] |= (uint8_t)(nib % 2 ? d : d << 4);
    }
    ep->port = (uint16_t)p;
    if (hl == 8) {
        ep->fam = TR__FAM_V4;
        ep->len = 4;
        memmove(ep->a, ep->a + 12, 4);
        memset(ep->a + 4, 0, 12);
    } else if (hl == 32) {
        ep->fam = TR__FAM_V6;
        ep->len = 16;
    } else {
        ep->fam = TR__FAM_TEXT;
        ep->len = (uint8_t)hl;
    }
    return 0;
}

/* A quoted name, decoded in place: '%' and two hex digits are a byte
 * (FreeSFS writes blanks, '"', '%', backslashes and bytes outside
 * printable ASCII so), and so are a backslash and two hex digits (nfsdump
 * writes '"', backslashes and white space so). */
static int quoted(struct tok *t)
{
    size_t i, o = 0;

    if (t->len < 2 || t->s[0] != '"' || t->s[t->len - 1] != '"')
        return -1;
    for (i = 1; i + 1 < t->len; i++) {
        char c = t->s[i];
        if ((c == '%' || c == '\\') && i + 2 < t->len - 1 &&
            cm_hex_digit((unsigned char)t->s[i + 1]) >= 0 &&
            cm_hex_digit((unsigned char)t->s[i + 2]) >= 0) {
            c = (char)(cm_hex_digit((unsigned char)t->s[i + 1]) << 4 |
                       cm_hex_digit((unsigned char)t->s[i + 2]));
            i += 2;
        }
        t->s[o++] = c;
    }
    t->s[o] = '\0';
    t->len = o;
    return 0;
}

static int time_val(const struct tok *t, int64_t *ns)
{
    if (t->len == 6 && memcmp(t->s, "SERVER", 6) == 0) {
        *ns = TR_NFS_TIME_SERVER;
        return 0;
    }
    return tr__sec_frac_ns(t->s, t->len, ns);
}

/* ACCESS bits: hex, or one of nfsdump's letters. */
static int access_val(const struct tok *t, uint32_t *v)
{
    if (t->len == 1 &&
        (t->s[0] == 'R' || t->s[0] == 'L' || t->s[0] == 'X' || t->s[0] == 'U')) {
        *v = t->s[0] == 'R' ? 0x01 : t->s[0] == 'L' ? 0x02 : t->s[0] == 'X' ? 0x20 : 0x40;
        return 0;
    }
    return hex_u32(t, v);
}

static int letter(const struct tok *t, const char *set, uint32_t *v)
{
    const char *p;

    if (t->len != 1 || !(p = strchr(set, t->s[0])) || !*p)
        return -1;
    *v = (uint32_t)(p - set);
    return 0;
}

/* ---- attributes ------------------------------------------------------------ */

/* The attribute keys nfsdump writes, their bit and how their value reads. */
enum akind { AK_DEC, AK_HEX32, AK_HEX64, AK_TIME, AK_SKIP };
static const struct akey {
    const char *name;
    uint32_t bit;
    enum akind kind;
} akeys[] = {
    {"ftype", TR_NFS_A_TYPE, AK_DEC},
    {"mode", TR_NFS_A_MODE, AK_HEX32},
    {"nlink", TR_NFS_A_NLINK, AK_HEX32},
    {"uid", TR_NFS_A_UID, AK_HEX32},
    {"gid", TR_NFS_A_GID, AK_HEX32},
    {"size", TR_NFS_A_SIZE, AK_HEX64},
    {"used", TR_NFS_A_USED, AK_HEX64},
    {"fsid", TR_NFS_A_FSID, AK_HEX64},
    {"fileid", TR_NFS_A_FILEID, AK_HEX64},
    {"atime", TR_NFS_A_ATIME, AK_TIME},
    {"mtime", TR_NFS_A_MTIME, AK_TIME},
    {"ctime", TR_NFS_A_CTIME, AK_TIME},
    {"rdev", 0x10000, AK_SKIP},
    {"rdev2", 0x20000, AK_SKIP},
    {"blksize", 0x40000, AK_SKIP},
    {"blocks", 0x80000, AK_SKIP},
};

static const struct akey *attr_key(const char *name)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(akeys); i++)
        if (strcmp(akeys[i].name, name) == 0)
            return &akeys[i];
    return NULL;
}

/* Sets one attribute of a from value v; vers maps v2 file types. */
static int attr_set(struct tr_nfs_attr *a, const struct akey *k, const struct tok *v,
                    uint32_t vers)
{
    uint32_t x;
    uint64_t y;
    int64_t t;

    switch (k->kind) {
    case AK_SKIP:
        return 0;
    case AK_DEC:
        if (dec_u32(v, &x) < 0 || x > 8)
            return -1;
        /* v2: NFBAD is 7, NFFIFO 8 */
        a->type = (enum tr_nfs_ftype)(vers == 2 && x == 8   ? TR_NFS_FIFO
                                      : vers == 2 && x == 7 ? TR_NFS_NONE
                                      : x == 8              ? TR_NFS_NONE
                                                            : x);
        break;
    case AK_HEX32:
        if (hex_u32(v, &x) < 0)
            return -1;
        if (k->bit == TR_NFS_A_MODE)
            a->mode = x & 07777;
        else if (k->bit == TR_NFS_A_NLINK)
            a->nlink = x;
        else if (k->bit == TR_NFS_A_UID)
            a->uid = x;
        else
            a->gid = x;
        break;
    case AK_HEX64:
        if (hex_u64(v, &y) < 0)
            return -1;
        if (k->bit == TR_NFS_A_SIZE)
            a->size = y;
        else if (k->bit == TR_NFS_A_USED)
            a->used = y;
        else if (k->bit == TR_NFS_A_FSID)
            a->fsid = y;
        else
            a->fileid = y;
        break;
    case AK_TIME:
        if (time_val(v, &t) < 0)
            return -1;
        if (k->bit == TR_NFS_A_ATIME)
            a->atime_ns = t;
        else if (k->bit == TR_NFS_A_MTIME)
            a->mtime_ns = t;
        else
            a->ctime_ns = t;
        break;
    }
    a->have |= k->bit;
    return 0;
}

/* ---- one line --------------------------------------------------------------- */

static int tokenize(struct tr__text *x, char *s, size_t len)
{
    size_t i = 0;

    x->ntoks = 0;
    while (i < len) {
        size_t start;
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == len)
            break;
        start = i;
        if (s[i] == '"') {
            /* a quoted name ends at a quote followed by a blank or the end */
            i++;
            while (i < len && !(s[i] == '"' && (i + 1 == len || s[i + 1] == ' ')))
                i++;
            if (i < len)
                i++;
        } else {
            while (i < len && s[i] != ' ' && s[i] != '\t')
                i++;
        }
        if (x->ntoks == x->tok_cap) {
            size_t cap = x->tok_cap ? x->tok_cap * 2 : 64;
            if (x->toks_fixed)
                break;
            struct tok *t = cm_reallocarray(x->toks, cap, sizeof(*t));
            if (!t)
                return -ENOMEM;
            x->toks = t;
            x->tok_cap = cap;
        }
        x->toks[x->ntoks].s = s + start;
        x->toks[x->ntoks].len = i - start;
        x->ntoks++;
        if (i < len)
            s[i++] = '\0';
    }
    return 0;
}

static int tok_is(const struct tok *t, const char *s)
{
    return strcmp(t->s, s) == 0;
}

/* One "key = value" of the tail at token *i, as three tokens or (a later
 * nfsdump) as one, "key=value": 1 and *i past it, or 0. */
static int tail_field(const struct tr__text *x, size_t *i, const char *key)
{
    const struct tok *t = x->toks;
    size_t n = x->ntoks, k = strlen(key);

    if (*i + 3 <= n && tok_is(&t[*i], key) && tok_is(&t[*i + 1], "=")) {
        *i += 3;
        return 1;
    }
    if (*i < n && t[*i].len > k + 1 && strncmp(t[*i].s, key, k) == 0 &&
        t[*i].s[k] == '=') {
        *i += 1;
        return 1;
    }
    return 0;
}

/* The diagnostic tail from token i on: groups of "con = N len = N" (a
 * call's) or "status=X pl = N con = N len = N" (a reply's), then an
 * optional word for a packet longer than its message: FreeSFS's LONGPKT
 * says the message was cut; nfsdump's LONGPKT-N (N bytes past the
 * message), LONGPACKET and JUMBO say nothing is missing.  Returns 0 when
 * tokens i.. are exactly that. */
static int tail(const struct tr__text *x, size_t i, int *cut)
{
    const struct tok *t = x->toks;
    size_t n = x->ntoks;
    int groups = 0;

    for (;;) {
        size_t j = i;
        if (j < n && strncmp(t[j].s, "status=", 7) == 0) {
            j++;
            if (!tail_field(x, &j, "pl"))
                break;
        }
        if (!tail_field(x, &j, "con") || !tail_field(x, &j, "len"))
            break;
        i = j;
        groups++;
    }
    if (i + 1 == n && tok_is(&t[i], "LONGPKT")) {
        *cut = 1;
        i++;
    } else if (i + 1 == n && (strncmp(t[i].s, "LONGPKT-", 8) == 0 ||
                              tok_is(&t[i], "LONGPACKET") || tok_is(&t[i], "JUMBO"))) {
        i++;
    }
    return groups > 0 && i == n ? 0 : -1;
}

static int is_tail_start(const struct tr__text *x, size_t i)
{
    const struct tok *t = &x->toks[i];
    size_t j = i;

    return tail_field(x, &j, "con") || strncmp(t->s, "status=", 7) == 0;
}

/* nfsdump's own names of procedures whose name in the tables differs. */
static const struct {
    uint32_t vers, proc;
    const char *name;
} proc_aliases[] = {
    {3, NFSPROC3_READDIRPLUS, "readdirp"},
    {2, NFSPROC_WRITECACHE, "writecach"}, /* a call */
    {2, NFSPROC_WRITECACHE, "writecac"},  /* a reply */
};

static int proc_name_ok(const struct line *l, const struct nf_proc *row, const char *name)
{
    size_t i;

    if (strcmp(row->name, name) == 0)
        return 1;
    for (i = 0; l->prog == TR_NFS_PROG_NFS && i < CM_ARRAY_LEN(proc_aliases); i++)
        if (proc_aliases[i].vers == l->vers && proc_aliases[i].proc == l->proc &&
            strcmp(proc_aliases[i].name, name) == 0)
            return 1;
    return 0;
}

/* Procedures whose replies have no status: nfsdump writes none for them. */
static int statusless(const struct line *l)
{
    return l->proc == 0 || (l->prog == TR_NFS_PROG_NFS && l->vers == 2 &&
                            (l->proc == NFSPROC_ROOT || l->proc == NFSPROC_WRITECACHE));
}

/* The head: TIME SRC DST T KIND XID PROC NAME [STATUS].  Returns the index
 * of the first name/value token, or -1 with the reason in *why. */
static long head(struct tr_nfs_reader *r, struct line *l, const char **why)
{
    struct tr__text *x = r->text;
    const struct tok *t = x->toks;
    const struct nf_proc *row;
    const char *kind;
    uint64_t proc;

    if (x->ntoks < 8)
        return *why = "fewer than 8 fields (TIME SRC DST T KIND XID PROC NAME)", -1;
    if (tr__sec_frac_ns(t[0].s, t[0].len, &l->m.t_ns) < 0)
        return *why = "the time is not SECONDS.FRACTION", -1;
    if (endpoint(&t[1], &l->m.src) < 0 || endpoint(&t[2], &l->m.dst) < 0)
        return *why = "source or destination is not HOST.PORT in hex", -1;
    if (tok_is(&t[3], "U"))
        l->m.transport = TR_NFS_UDP;
    else if (tok_is(&t[3], "T"))
        l->m.transport = TR_NFS_TCP;
    else
        return *why = "transport is neither U nor T", -1;
    kind = t[4].s;
    if ((kind[0] != 'C' && kind[0] != 'R') || t[4].len < 2)
        return *why = "kind is not C3, R3, C2, R2 (or FreeSFS's CM1, RM1, CM3, RM3)", -1;
    l->call = kind[0] == 'C';
    if (t[4].len == 2 && (kind[1] == '2' || kind[1] == '3')) {
        l->prog = TR_NFS_PROG_NFS;
        l->vers = (uint32_t)(kind[1] - '0');
    } else if (t[4].len == 3 && kind[1] == 'M' && (kind[2] == '1' || kind[2] == '3')) {
        l->prog = TR_NFS_PROG_MOUNT;
        l->vers = (uint32_t)(kind[2] - '0');
    } else {
        return *why = "kind is not C3, R3, C2, R2 (or FreeSFS's CM1, RM1, CM3, RM3)", -1;
    }
    if (hex_u32(&t[5], &l->m.xid) < 0)
        return *why = "the XID is not hex", -1;
    if (!l->call && tok_is(&t[7], "unknown") && hex_u64(&t[6], &proc) == 0) {
        /* nfsdump's line for a reply whose call it never saw */
        l->orphan = 1;
        return 8;
    }
    if (hex_u64(&t[6], &proc) < 0 ||
        !(row = tr__proc_row(l->prog, l->vers, (uint32_t)proc)))
        return *why = "unknown procedure number", -1;
    l->proc = (uint32_t)proc;
    if (!proc_name_ok(l, row, t[7].s))
        return *why = "the procedure's name does not match its number", -1;
    if (l->call)
        return 8;
    if (x->ntoks < 9)
        return *why = "a reply without status", -1;
    if (statusless(l) && is_tail_start(x, 8))
        return 8; /* status 0 */
    if (tok_is(&t[8], "OK")) {
        l->status = 0;
    } else if (strncmp(t[8].s, "rpc-", 4) == 0) {
        struct tok n = {t[8].s + 4, t[8].len - 4};
        if (dec_u32(&n, &l->rpc_status) < 0 || l->rpc_status == 0 ||
            l->rpc_status > TR_NFS_RPC_AUTH_ERROR)
            return *why = "bad RPC status", -1;
    } else if (hex_u32(&t[8], &l->status) < 0) {
        return *why = "the status is neither OK nor hex", -1;
    }
    return 9;
}

/* Where the n-th unlabelled attribute set of a reply goes. */
static struct tr_nfs_attr *attr_dest(struct line *l, const struct tr__proc_fields *f,
                                     unsigned n, int explicit_dir)
{
    struct tr_nfs_attr *d[2];
    unsigned k = 0;

    if ((f->res & TR__R_ATTR) && (!(f->res & TR__R_ATTR_OK) || l->status == 0))
        d[k++] = &l->ev.attr;
    if ((f->res & TR__R_DIR) && !explicit_dir)
        d[k++] = &l->ev.dir_attr;
    if (!k && !(f->res & TR__R_DIR) && !l->call)
        d[k++] = &l->ev.attr; /* a v2 reply's attributes on a "0" row */
    return n < k ? d[n] : NULL;
}

static int key_string(struct line *l, int which, struct tok *v)
{
    if (quoted(v) < 0)
        return -1;
    l->str[which] = *v;
    return 0;
}

/* Keys that real nfsdump files carry and the event does not keep. */
static int ignored_key(const char *k)
{
    static const char *const ign[] = {"begoff", "tcount", "nfsstat", "tsize",   "bsize",
                                      "bfree",  "bavail", "verf",    "dircount"};
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(ign); i++)
        if (strcmp(ign[i], k) == 0)
            return 1;
    return 0;
}

/* One name/value pair of a call line. */
static int call_pair(struct line *l, const struct tr__proc_fields *f, const char *k,
                     struct tok *v)
{
    const struct akey *ak;

    if (!strcmp(k, "fh") || !strcmp(k, "file"))
        return hex_fh(v, &l->ev.fh);
    if (!strcmp(k, "fh2"))
        return hex_fh(v, &l->ev.fh2);
    if (!strcmp(k, "name") || !strcmp(k, "fn"))
        return key_string(l, TR__S_NAME, v);
    if (!strcmp(k, "name2") || !strcmp(k, "fn2"))
        /* nfsdump's NFSv2 SYMLINK writes its target as fn2 */
        return key_string(l, (f->args & TR__A_NAME2) ? TR__S_NAME2 : TR__S_TEXT, v);
    if (!strcmp(k, "sdata") || !strcmp(k, "path"))
        return key_string(l, TR__S_TEXT, v);
    if (!strcmp(k, "off") || !strcmp(k, "offset") || !strcmp(k, "cookie"))
        return hex_u64(v, &l->ev.offset);
    if (!strcmp(k, "count"))
        return (f->args & TR__A_MAXCNT) ? 0
                                        : (l->have_count = 1, hex_u32(v, &l->ev.count));
    if (!strcmp(k, "tcount"))
        /* NFSv2's totalcount: RFC 1094 leaves it unused, but nfsdump writes
         * it, not the data's length, as a WRITE's size (and counts it as
         * the bytes written); clients set it to that length */
        return hex_u32(v, &l->tcount);
    if (!strcmp(k, "maxcnt"))
        return hex_u32(v, &l->ev.count);
    if (!strcmp(k, "stable"))
        return letter(v, "UDF", &l->ev.stable);
    if (!strcmp(k, "how"))
        return letter(v, "UGX", &l->ev.stable);
    if (!strcmp(k, "acc"))
        return access_val(v, &l->ev.access);
    if (!strcmp(k, "euid"))
        return hex_u32(v, &l->ev.uid);
    if (!strcmp(k, "egid"))
        return hex_u32(v, &l->ev.gid);
    if (!strcmp(k, "conn"))
        return hex_u32(v, &l->m.conn);
    if (!strcmp(k, "retrans"))
        return (l->retrans = 1, tok_is(v, "1") ? 0 : -1);
    if (!strcmp(k, "datacut"))
        return (l->datacut = 1, tok_is(v, "1") ? 0 : -1);
    if ((ak = attr_key(k)) != NULL) {
        if (ak->bit == TR_NFS_A_CTIME && !(f->args & TR__A_SATTR))
            return 0; /* SETATTR's guard */
        return attr_set(&l->ev.sattr, ak, v, l->vers);
    }
    return ignored_key(k) ? 0 : -2;
}

/* A new directory entry, or -ENOMEM / -1 past TR_NFS_ENTRIES_MAX. */
static int entry_new(struct tr__text *x)
{
    if (x->nents == TR_NFS_ENTRIES_MAX)
        return -1;
    if (x->nents == x->ent_cap) {
        uint32_t cap = x->ent_cap ? x->ent_cap * 2 : 32;
        struct pent *p = cm_reallocarray(x->ents, cap, sizeof(*p));
        if (!p)
            return -ENOMEM;
        x->ents = p;
        x->ent_cap = cap;
    }
    memset(&x->ents[x->nents++], 0, sizeof(x->ents[0]));
    return 0;
}

static int entry_pair(struct tr__text *x, const char *k, struct tok *v, uint32_t vers)
{
    struct pent *e;
    const struct akey *ak;

    if (!strcmp(k, "e-name")) {
        int rc;
        if (quoted(v) < 0)
            return -1;
        if ((rc = entry_new(x)) < 0)
            return rc;
        e = &x->ents[x->nents - 1];
        e->name = v->s;
        e->len = v->len;
        return 0;
    }
    if (!x->nents)
        return -1;
    e = &x->ents[x->nents - 1];
    if (!strcmp(k, "e-fileid"))
        return hex_u64(v, &e->d.fileid);
    if (!strcmp(k, "e-fh"))
        return hex_fh(v, &e->d.fh);
    if (!strncmp(k, "ea-", 3) && (ak = attr_key(k + 3)) != NULL)
        return attr_set(&e->d.attr, ak, v, vers);
    return -2;
}

/* nfsdump's directory entries: KEY-N for entry N (0, 1, ...): name-N,
 * fileid-N, fh-N (a later nfsdump's READDIRPLUS), cookie-N (not kept),
 * and attribute keys, which nfsdump fills with the directory's
 * attributes, not the entry's (not kept).  1 when k is such a key (rc
 * set), 0 when it is not. */
static int numbered_entry(struct tr__text *x, const char *k, struct tok *v, int *rc)
{
    const char *dash = strrchr(k, '-');
    struct tok num;
    uint32_t n;
    size_t base;
    struct pent *e;

    if (!dash || !dash[1] || strspn(dash + 1, "0123456789") != strlen(dash + 1))
        return 0;
    base = (size_t)(dash - k);
    num.s = (char *)dash + 1;
    num.len = strlen(dash + 1);
    if (dec_u32(&num, &n) < 0)
        return *rc = -1, 1;
#define IS(w) (base == sizeof(w) - 1 && strncmp(k, w, base) == 0)
    if (!IS("name") && !IS("fileid") && !IS("fh")) {
        char a[16];
        *rc = 0;
        if (IS("cookie"))
            return 1;
        if (base < sizeof(a)) {
            memcpy(a, k, base);
            a[base] = '\0';
            if (attr_key(a))
                return 1;
        }
        return *rc = -2, 1;
    }
    if (n > x->nents) /* entries come in order */
        return *rc = -1, 1;
    if (n == x->nents && (*rc = entry_new(x)) < 0)
        return 1;
    e = &x->ents[n];
    if (IS("name")) {
        if (quoted(v) < 0)
            return *rc = -1, 1;
        e->name = v->s;
        e->len = v->len;
        *rc = 0;
    } else if (IS("fileid")) {
        *rc = hex_u64(v, &e->d.fileid);
    } else {
        *rc = hex_fh(v, &e->d.fh);
    }
#undef IS
    return 1;
}

static int bad_pair(struct tr_nfs_reader *r, int rc, const char *key, const char *value)
{
    if (rc == -2)
        return tr__nfs_error(r, (uint64_t)r->text->lineno, "unknown key '%s'", key);
    return tr__nfs_error(r, (uint64_t)r->text->lineno, "bad value '%s' for key '%s'",
                         value, key);
}

/* The name/value pairs of a reply line. */
static int reply_pairs(struct tr_nfs_reader *r, struct line *l,
                       const struct tr__proc_fields *f, size_t i, size_t end)
{
    struct tr__text *x = r->text;
    struct tok *t = x->toks;
    int explicit_dir = 0, rc;
    unsigned set = 0;
    uint32_t seen = 0;
    size_t j;

    for (j = i; j < end; j += 2)
        if (!strncmp(t[j].s, "dir-", 4))
            explicit_dir = 1;
    for (; i < end; i += 2) {
        const char *k = t[i].s;
        struct tok *v = &t[i + 1];
        const struct akey *ak;

        if (!strncmp(k, "e-", 2) || !strncmp(k, "ea-", 3)) {
            rc = entry_pair(x, k, v, l->vers);
        } else if (!strncmp(k, "dir-", 4) && (ak = attr_key(k + 4)) != NULL) {
            rc = attr_set(&l->ev.dir_attr, ak, v, l->vers);
        } else if (!strncmp(k, "pre-", 4) && (ak = attr_key(k + 4)) != NULL) {
            rc = attr_set(&l->ev.pre, ak, v, l->vers);
        } else if ((ak = attr_key(k)) != NULL) {
            struct tr_nfs_attr *d;
            if (seen & ak->bit) {
                set++;
                seen = 0;
            }
            seen |= ak->bit;
            d = attr_dest(l, f, set, explicit_dir);
            rc = d ? attr_set(d, ak, v, l->vers) : 0;
        } else if (!strcmp(k, "fh") || !strcmp(k, "file")) {
            rc = hex_fh(v, &l->ev.res_fh);
        } else if (!strcmp(k, "count")) {
            rc = hex_u32(v, &l->ev.res_count);
        } else if (!strcmp(k, "eof")) {
            rc = tok_is(v, "0") || tok_is(v, "1") ? (l->ev.eof = v->s[0] == '1', 0) : -1;
        } else if (!strcmp(k, "stable")) {
            rc = letter(v, "UDF", &l->ev.committed);
        } else if (!strcmp(k, "acc")) {
            rc = access_val(v, &l->ev.res_access);
        } else if (!strcmp(k, "sdata") || !strcmp(k, "name")) {
            rc = key_string(l, TR__S_TEXT, v);
        } else if (!strcmp(k, "datacut")) {
            rc = (l->datacut = 1, tok_is(v, "1") ? 0 : -1);
        } else if (!strcmp(k, "conn")) {
            rc = hex_u32(v, &l->m.conn);
        } else if (!strcmp(k, "fn")) {
            rc = key_string(l, TR__S_TEXT, v); /* nfsdump's NFSv2 READLINK */
        } else if (!numbered_entry(x, k, v, &rc)) {
            rc = ignored_key(k) ? 0 : -2;
        }
        if (rc == -ENOMEM)
            return rc;
        if (rc < 0)
            return bad_pair(r, rc, k, v->s);
    }
    return 0;
}

/* Copies a parsed call into its slot. */
static int fill_call(struct tr__slot *s, const struct line *l)
{
    struct tr_nfs_event *e = &s->ev;
    int i;

    e->fh = l->ev.fh;
    e->fh2 = l->ev.fh2;
    e->offset = l->ev.offset;
    e->count = l->ev.count;
    e->stable = l->ev.stable;
    e->access = l->ev.access;
    e->uid = l->ev.uid;
    e->gid = l->ev.gid;
    e->sattr = l->ev.sattr;
    if (l->prog == TR_NFS_PROG_NFS && l->vers == 2 && l->proc == NFSPROC_WRITE)
        e->stable = FILE_SYNC;
    if (l->cut)
        e->flags |= TR_NFS_F_CALL_CUT;
    if (l->datacut)
        e->flags |= TR_NFS_F_DATA_CUT;
    if (l->retrans)
        e->flags |= TR_NFS_F_RETRANS;
    for (i = 0; i < TR__S_N; i++)
        if (l->str[i].s && tr__slot_str(s, i, l->str[i].s, l->str[i].len) < 0)
            return -ENOMEM;
    return 0;
}

static int fill_reply(struct tr_nfs_reader *r, struct tr__slot *s, const struct line *l)
{
    struct tr__text *x = r->text;
    struct tr_nfs_event *e = &s->ev;
    uint32_t i;
    int rc;

    e->rpc_status = l->rpc_status;
    e->status = l->status;
    e->res_fh = l->ev.res_fh;
    e->attr = l->ev.attr;
    e->pre = l->ev.pre;
    e->dir_attr = l->ev.dir_attr;
    e->res_count = l->ev.res_count;
    e->res_access = l->ev.res_access;
    e->committed = l->ev.committed;
    e->eof = l->ev.eof;
    if (l->cut)
        e->flags |= TR_NFS_F_REPLY_CUT;
    if (l->datacut)
        e->flags |= TR_NFS_F_DATA_CUT;
    if (l->str[TR__S_TEXT].s &&
        tr__slot_str(s, TR__S_TEXT, l->str[TR__S_TEXT].s, l->str[TR__S_TEXT].len) < 0)
        return -ENOMEM;
    for (i = 0; i < x->nents; i++) {
        struct tr_nfs_dirent *d;
        if (!x->ents[i].name)
            continue; /* an nfsdump entry without its name-N */
        d = tr__slot_dirent(s, x->ents[i].name, x->ents[i].len, &rc);
        if (!d)
            return rc ? rc : -ENOMEM;
        *d = x->ents[i].d;
    }
    return 0;
}

/* #freesfs comment lines: "#freesfs counter NAME N" restores a capture's
 * counter; others are notes. */
static void comment(struct tr_nfs_reader *r, char *s)
{
    static const char *const names[TR__C_COUNT] = {
#define TR__NFS_CN(sym, name) name,
        TR__NFS_COUNTERS(TR__NFS_CN)
#undef TR__NFS_CN
    };
    char name[48];
    unsigned long long n;
    unsigned i;

    if (sscanf(s, "#freesfs counter %47s %llu", name, &n) != 2)
        return;
    for (i = 0; i < TR__C_COUNT; i++)
        if (strcmp(names[i], name) == 0)
            r->restored[i] = n;
}

/* nfsdump's mark of a line it could not parse whole: SHORT PACKET (v3),
 * +|+ (a v2 call), +/+ (a v2 reply), written just before the tail - so
 * right after a blank and before euid, con or status= (a name cannot hold
 * them so: nfsdump escapes a name's blanks). */
static int marked_unparsed(const char *s, size_t len)
{
    static const char *const marks[] = {"SHORT PACKET", "+|+", "+/+"};
    size_t i, k;

    for (k = 0; k < CM_ARRAY_LEN(marks); k++) {
        size_t m = strlen(marks[k]);
        for (i = 1; i + m <= len; i++) {
            const char *after = s + i + m;
            size_t rest = len - i - m;
            if (s[i - 1] != ' ' || memcmp(s + i, marks[k], m) != 0)
                continue;
            if (k == 0 || (rest >= 4 && !memcmp(after, "euid", 4)) ||
                (rest >= 3 && !memcmp(after, "con", 3)) ||
                (rest >= 7 && !memcmp(after, "status=", 7)))
                return 1;
        }
    }
    return 0;
}

/* A "stable ?" pair among tokens first..: nfsdump's stable_how it did
 * not know. */
static int stable_unknown(const struct tr__text *x, size_t first)
{
    size_t i;

    for (i = first; i + 1 < x->ntoks; i++)
        if (tok_is(&x->toks[i], "stable") && tok_is(&x->toks[i + 1], "?"))
            return 1;
    return 0;
}

/* A line of a kind nfsdump's notes say to ignore (counted under c, in
 * strict mode too).  A call's key is held as an undecodable call's, so
 * that its reply is not taken for one without its call. */
static int skip_known(struct tr_nfs_reader *r, const struct line *l,
                      enum tr__nfs_counter c)
{
    struct tr__slot *slot;
    int rc = 0;

    r->cnt[c]++;
    if (!l->call || l->orphan)
        return 0;
    slot = tr__pair_call(r, &l->m, l->prog, l->vers, l->proc, &rc);
    if (slot)
        tr__pair_drop(r, slot);
    return rc;
}

/* A reply whose call the trace lacks: at the start of an excerpt (within
 * the first pairing window) its call came before the excerpt began - the
 * excerpt's edge, counted; later, damage. */
static int reply_without_call(struct tr_nfs_reader *r, const struct line *l)
{
    struct tr__text *x = r->text;

    if (l->m.t_ns - x->first_t <= r->opt.pair_window_ns) {
        r->cnt[TR__C_NO_CALL]++;
        r->cnt[TR__C_EDGE_REPLIES]++;
        return 0;
    }
    tr__nfs_error(r, l->m.where, "a reply without its call (XID %x)", l->m.xid);
    return tr__nfs_damage(r, TR__C_NO_CALL);
}

static int text_line(struct tr_nfs_reader *r, char *s, size_t len)
{
    struct tr__text *x = r->text;
    const struct tr__proc_fields *f;
    struct tr__slot *slot;
    struct line l;
    const char *why = NULL;
    long first;
    size_t i, end;
    uint32_t kind;
    int rc, unparsed = marked_unparsed(s, len);

    memset(&l, 0, sizeof(l));
    l.m.where = (uint64_t)x->lineno;
    x->nents = 0;
    if (tokenize(x, s, len) < 0)
        return -ENOMEM;
    first = head(r, &l, &why);
    if (first < 0) {
        tr__nfs_error(r, l.m.where, "not an nfsdump line: %s", why);
        return tr__nfs_damage(r, TR__C_GARBAGE);
    }
    if (!x->have_first) {
        x->first_t = l.m.t_ns;
        x->have_first = 1;
    }
    if (unparsed)
        return skip_known(r, &l, TR__C_UNPARSED_LINES);
    if (stable_unknown(x, (size_t)first))
        return skip_known(r, &l, TR__C_STABLE_UNKNOWN);
    f = tr__proc_fields(l.prog, l.vers, l.proc);
    for (end = (size_t)first; end < x->ntoks && !is_tail_start(x, end); end++)
        ;
    if ((end - (size_t)first) % 2 || tail(x, end, &l.cut) < 0) {
        tr__nfs_error(r, l.m.where,
                      "not an nfsdump line: name/value pairs must end with the "
                      "con = .. len = .. tail");
        return tr__nfs_damage(r, TR__C_GARBAGE);
    }
    if (l.orphan) {
        if (end != (size_t)first) {
            tr__nfs_error(r, l.m.where,
                          "not an nfsdump line: an unknown reply with fields");
            return tr__nfs_damage(r, TR__C_GARBAGE);
        }
    } else if (l.call) {
        for (i = (size_t)first; i < end; i += 2) {
            rc = call_pair(&l, f, x->toks[i].s, &x->toks[i + 1]);
            if (rc < 0) {
                bad_pair(r, rc, x->toks[i].s, x->toks[i + 1].s);
                return tr__nfs_damage(r, TR__C_GARBAGE);
            }
        }
        if (!l.have_count && l.prog == TR_NFS_PROG_NFS && l.vers == 2 &&
            l.proc == NFSPROC_WRITE)
            l.ev.count = l.tcount;
    } else {
        rc = reply_pairs(r, &l, f, (size_t)first, end);
        if (rc == -ENOMEM)
            return rc;
        if (rc < 0)
            return tr__nfs_damage(r, TR__C_GARBAGE);
    }
    if (x->have_t && l.m.t_ns < x->last_t) {
        tr__nfs_error(r, l.m.where, "time goes backwards (%.6f after %.6f)",
                      (double)l.m.t_ns / 1e9, (double)x->last_t / 1e9);
        return tr__nfs_damage(r, TR__C_BACKWARD_LINES);
    }
    if (l.orphan) {
        /* nfsdump's own reply without a call: never paired with a call held */
        tr__pair_time(r, l.m.t_ns);
        rc = reply_without_call(r, &l);
        if (rc < 0)
            return rc;
    } else if (l.call) {
        slot = tr__pair_call(r, &l.m, l.prog, l.vers, l.proc, &rc);
        if (!slot)
            return rc;
        if (fill_call(slot, &l) < 0)
            return -ENOMEM;
        if (l.retrans)
            r->cnt[TR__C_RETRANS]++;
        if (l.cut)
            r->cnt[TR__C_CALL_CUT]++;
    } else {
        slot = tr__pair_reply(r, &l.m, &kind);
        if (!slot) {
            if (kind == TR__RECENT_DONE) {
                tr__nfs_error(r, l.m.where, "a second reply to XID %x", l.m.xid);
                return tr__nfs_damage(r, TR__C_DUP_REPLIES);
            }
            if (kind == TR__RECENT_DEAD)
                return 0; /* its call's line was skipped: so is it */
            rc = reply_without_call(r, &l);
            if (rc < 0)
                return rc;
            x->last_t = l.m.t_ns;
            x->have_t = 1;
            return 0;
        }
        if (slot->ev.prog != l.prog || slot->ev.vers != l.vers ||
            slot->ev.proc != l.proc) {
            /* undo: the line is not this call's reply */
            slot->answered = 0;
            slot->ev.flags &= ~TR_NFS_F_REPLY;
            tr__nfs_error(r, l.m.where, "the reply names %s, its call (line %llu) %s",
                          tr_nfs_proc_name(l.prog, l.vers, l.proc),
                          (unsigned long long)slot->ev.where,
                          tr_nfs_proc_name(slot->ev.prog, slot->ev.vers, slot->ev.proc));
            return tr__nfs_damage(r, TR__C_GARBAGE);
        }
        if (fill_reply(r, slot, &l) < 0)
            return -ENOMEM;
        if (l.rpc_status)
            r->cnt[TR__C_RPC_ERRORS]++;
        if (l.cut)
            r->cnt[TR__C_REPLY_CUT]++;
    }
    if (l.datacut)
        r->cnt[TR__C_DATA_CUT]++;
    x->last_t = l.m.t_ns;
    x->have_t = 1;
    return 0;
}

static int text_step(struct tr_nfs_reader *r)
{
    struct tr__text *x = r->text;
    char *s;
    size_t len, i;
    int rc;

    rc = tr__in_line(&x->in, &s, &len, &x->lineno);
    if (rc == 0)
        return 0;
    if (rc == -EIO)
        return tr__nfs_error(r, 0, "read error"), -EIO;
    if (rc == -E2BIG) {
        tr__nfs_error(r, (uint64_t)x->lineno, "line longer than %u bytes", TR_LINE_MAX);
        rc = tr__nfs_damage(r, TR__C_LONG_LINES);
        return rc < 0 ? rc : 1;
    }
    if (memchr(s, '\0', len)) {
        tr__nfs_error(r, (uint64_t)x->lineno, "NUL bytes in the line");
        rc = tr__nfs_damage(r, TR__C_NUL_LINES);
        return rc < 0 ? rc : 1;
    }
    for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
        ;
    if (i == len)
        return 1;
    if (s[i] == '#') {
        comment(r, s + i);
        return 1;
    }
    rc = text_line(r, s + i, len - i);
    return rc < 0 ? rc : 1;
}

static void text_free(struct tr_nfs_reader *r)
{
    struct tr__text *x = r->text;

    if (!x)
        return;
    tr__in_free(&x->in);
    free(x->toks);
    free(x->ents);
    free(x);
    r->text = NULL;
}

static int text_open(struct tr_nfs_reader *r, char *err, size_t errlen)
{
    struct tr__text *x = cm_calloc(1, sizeof(*x));

    if (!x || tr__in_init(&x->in, r->fp) < 0) {
        free(x);
        return cm_report_nomem(NULL, r->file, err, errlen);
    }
    r->text = x;
    r->format = "nfsdump";
    return 0;
}

/* The first line that is not blank or a comment, as the head of an
 * nfsdump line; or FreeSFS's own first line.  NULL when buf starts so, or
 * why it does not ("" when the bytes cannot tell yet). */
static const char *probe_why(const unsigned char *buf, size_t len)
{
    static const char mine[] = "#freesfs nfsdump";
    char line[512];
    struct tr__text x;
    struct tok toks[12];
    struct line l;
    size_t i = 0;

    if (len >= sizeof(mine) - 1 && memcmp(buf, mine, sizeof(mine) - 1) == 0)
        return NULL;
    while (i < len) {
        size_t e = i, n;
        struct tr_nfs_reader r;
        const char *why = "";
        while (e < len && buf[e] != '\n')
            e++;
        n = e - i < sizeof(line) - 1 ? e - i : sizeof(line) - 1;
        memcpy(line, buf + i, n);
        line[n] = '\0';
        i = e + 1;
        if (n == 0 || line[0] == '#' || strspn(line, " \t\r") == n)
            continue;
        if (e == len && len >= sizeof(line))
            return ""; /* a first line cut by the probe's bytes: not decided */
        /* the head's tokens in a fixed array: detection allocates nothing */
        memset(&x, 0, sizeof(x));
        x.toks = toks;
        x.tok_cap = CM_ARRAY_LEN(toks);
        x.toks_fixed = 1;
        memset(&l, 0, sizeof(l));
        memset(&r, 0, sizeof(r));
        r.text = &x;
        if (tokenize(&x, line, strcspn(line, "\r")) < 0)
            return "";
        return head(&r, &l, &why) > 0 ? NULL : why;
    }
    return "no line";
}

static int text_probe(const unsigned char *buf, size_t len)
{
    return probe_why(buf, len) ? 0 : 2;
}

const char *tr__nfs_text_why_not(const unsigned char *buf, size_t len)
{
    const char *why = probe_why(buf, len);

    return why && !*why ? "the first line is longer than the bytes looked at" : why;
}

const struct tr__nfs_format tr__nfs_text_format = {
    .name = "nfsdump",
    .probe = text_probe,
    .open = text_open,
    .step = text_step,
    .close = text_free,
};
