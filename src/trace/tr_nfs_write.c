/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_write.c - events written as nfsdump text (docs/NFS_TRACES.md
 * section 3), so that a capture can be read, grepped, anonymised and
 * shared, and read back by tr_nfs_text.c to the same events.  A call's line
 * is written when its event comes; its reply's line waits in a small heap
 * until no later call can come before it, so the file stays in time order
 * (the text reader checks that).  Memory: the reply lines of the calls in
 * flight.  What the nfsdump format has no key for is written with
 * FreeSFS's own keys (dir-, e-, conn, retrans, datacut, MOUNT kinds) and
 * the reader's counters go into "#freesfs counter" comment lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"

/* Past this, a reply's directory entries are left out (counted), so that
 * the line stays readable by tr_nfs_text.c (TR_LINE_MAX). */
#define LINE_SOFT_MAX (TR_LINE_MAX - 65536)

struct held {
    int64_t t;
    uint64_t seq;
    char *line;
    size_t len;
};

struct sbuf {
    char *s;
    size_t len, cap;
    int nomem;
};

struct tr_nfs_writer {
    FILE *out;
    const struct tr_nfs_reader *r;
    struct tr__anon *anon;
    struct held *heap;
    size_t nheld, heap_cap;
    uint64_t seq;
    struct sbuf b;
    int err;
};

/* ---- a growing line ------------------------------------------------------ */

static void sb_reserve(struct sbuf *b, size_t more)
{
    char *s;
    size_t cap;

    if (b->nomem || b->len + more + 1 <= b->cap)
        return;
    cap = b->cap ? b->cap : 1024;
    while (cap < b->len + more + 1)
        cap *= 2;
    s = cm_realloc(b->s, cap);
    if (!s) {
        b->nomem = 1;
        return;
    }
    b->s = s;
    b->cap = cap;
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) CM_PRINTF(2, 3);
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    /* one formatting in the common case: most fields fit in 64 bytes */
    sb_reserve(b, 64);
    if (b->nomem)
        return;
    va_start(ap, fmt);
    n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= b->cap - b->len) {
        sb_reserve(b, (size_t)n);
        if (b->nomem)
            return;
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

static void sb_hex(struct sbuf *b, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i;

    sb_reserve(b, 2 * n);
    if (b->nomem)
        return;
    for (i = 0; i < n; i++) {
        b->s[b->len++] = hex[p[i] >> 4];
        b->s[b->len++] = hex[p[i] & 15];
    }
    b->s[b->len] = '\0';
}

/* A number in hex or decimal (zero-padded to width digits), without
 * printf: the writer's hot path. */
static void sb_num(struct sbuf *b, uint64_t v, unsigned base, unsigned width)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[24];
    unsigned n = 0;

    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    while (n < width && n < sizeof(tmp))
        tmp[n++] = '0';
    sb_reserve(b, n);
    if (b->nomem)
        return;
    while (n)
        b->s[b->len++] = tmp[--n];
    b->s[b->len] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
    size_t n = strlen(s);

    sb_reserve(b, n);
    if (b->nomem)
        return;
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

/* " key "name"", with space, quote, '%' and bytes outside printable ASCII
 * written as %XX. */
static void sb_name(struct sbuf *b, const char *key, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, n = strlen(s);

    sb_printf(b, " %s \"", key);
    sb_reserve(b, 3 * n + 1);
    if (b->nomem)
        return;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        /* a backslash too: nfsdump's files escape with one (\XX) */
        if (c <= ' ' || c > '~' || c == '"' || c == '%' || c == '\\') {
            b->s[b->len++] = '%';
            b->s[b->len++] = hex[c >> 4];
            b->s[b->len++] = hex[c & 15];
        } else {
            b->s[b->len++] = (char)c;
        }
    }
    b->s[b->len++] = '"';
    b->s[b->len] = '\0';
}

/* A time since the epoch: 6 decimals when whole microseconds, else 9. */
static void sb_time(struct sbuf *b, int64_t ns)
{
    int64_t sec = ns / 1000000000, frac = ns % 1000000000;

    if (frac < 0) {
        sec--;
        frac += 1000000000;
    }
    if (sec < 0) {
        sb_str(b, "-");
        sec = -sec;
    }
    sb_num(b, (uint64_t)sec, 10, 1);
    sb_str(b, ".");
    if (frac % 1000 == 0)
        sb_num(b, (uint64_t)frac / 1000, 10, 6);
    else
        sb_num(b, (uint64_t)frac, 10, 9);
}

static void sb_fh(struct sbuf *b, const char *key, const struct nf_fh *fh)
{
    sb_printf(b, " %s ", key);
    sb_hex(b, fh->data, fh->len);
}

/* ---- fields ------------------------------------------------------------- */

/* Attributes as nfsdump keys; an NFSv2 line gives v2's file type numbers
 * (NFFIFO is 8 there), as nfsdump wrote them. */
static void sb_attr(struct sbuf *b, const char *pfx, const struct tr_nfs_attr *a,
                    uint32_t vers)
{
    static const struct {
        uint32_t bit;
        const char *key;
    } order[] = {
        {TR_NFS_A_TYPE, "ftype"},  {TR_NFS_A_MODE, "mode"},   {TR_NFS_A_NLINK, "nlink"},
        {TR_NFS_A_UID, "uid"},     {TR_NFS_A_GID, "gid"},     {TR_NFS_A_SIZE, "size"},
        {TR_NFS_A_USED, "used"},   {TR_NFS_A_FSID, "fsid"},   {TR_NFS_A_FILEID, "fileid"},
        {TR_NFS_A_ATIME, "atime"}, {TR_NFS_A_MTIME, "mtime"}, {TR_NFS_A_CTIME, "ctime"}};
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(order); i++) {
        uint32_t bit = order[i].bit;
        int64_t t;
        if (!(a->have & bit))
            continue;
        sb_str(b, " ");
        sb_str(b, pfx);
        sb_str(b, order[i].key);
        sb_str(b, " ");
        switch (bit) {
        case TR_NFS_A_TYPE:
            sb_num(b, vers == 2 && a->type == TR_NFS_FIFO ? 8u : (unsigned)a->type, 10,
                   1);
            break;
        case TR_NFS_A_MODE:
            sb_num(b, a->mode, 16, 1);
            break;
        case TR_NFS_A_NLINK:
            sb_num(b, a->nlink, 16, 1);
            break;
        case TR_NFS_A_UID:
            sb_num(b, a->uid, 16, 1);
            break;
        case TR_NFS_A_GID:
            sb_num(b, a->gid, 16, 1);
            break;
        case TR_NFS_A_SIZE:
            sb_num(b, a->size, 16, 1);
            break;
        case TR_NFS_A_USED:
            sb_num(b, a->used, 16, 1);
            break;
        case TR_NFS_A_FSID:
            sb_num(b, a->fsid, 16, 1);
            break;
        case TR_NFS_A_FILEID:
            sb_num(b, a->fileid, 16, 1);
            break;
        default:
            t = bit == TR_NFS_A_ATIME   ? a->atime_ns
                : bit == TR_NFS_A_MTIME ? a->mtime_ns
                                        : a->ctime_ns;
            if (t == TR_NFS_TIME_SERVER)
                sb_str(b, "SERVER");
            else
                sb_time(b, t);
        }
    }
}

/* Host "hex.port": 8 hex digits for IPv4, 32 for IPv6, an nfsdump host's
 * own digits. */
static void sb_ep(struct tr_nfs_writer *w, uint32_t host, uint16_t port)
{
    const struct tr__ep *h = tr__host(w->r, host);
    struct tr__ep e;
    char name[64];

    if (!h) {
        sb_printf(&w->b, " 0.%04x", port);
        return;
    }
    e = *h;
    if (w->anon)
        tr__anon_ep(w->anon, &e);
    if (e.fam == TR__FAM_TEXT)
        sb_printf(&w->b, " %s", tr__ep_name(&e, name, sizeof(name)));
    else {
        sb_printf(&w->b, " ");
        sb_hex(&w->b, e.a, e.len);
    }
    sb_printf(&w->b, ".%04x", port);
}

static void head(struct tr_nfs_writer *w, const struct tr_nfs_event *ev, int call)
{
    struct sbuf *b = &w->b;
    const char *name = tr_nfs_proc_name(ev->prog, ev->vers, ev->proc);

    b->len = 0;
    sb_time(b, (call ? ev->t_ns : ev->reply_t_ns) + tr_nfs_origin_ns(w->r));
    if (call) {
        sb_ep(w, ev->client, ev->client_port);
        sb_ep(w, ev->server, ev->server_port);
    } else {
        sb_ep(w, ev->server, ev->server_port);
        sb_ep(w, ev->client, ev->client_port);
    }
    sb_printf(b, " %c %c%s%u %x %x %s", ev->transport == TR_NFS_TCP ? 'T' : 'U',
              call ? 'C' : 'R', ev->prog == TR_NFS_PROG_MOUNT ? "M" : "",
              (unsigned)ev->vers, ev->xid, ev->proc, name);
}

static void fh_out(struct tr_nfs_writer *w, const char *key, const struct nf_fh *fh)
{
    struct nf_fh c = *fh;

    if (!fh->len)
        return;
    if (w->anon)
        tr__anon_fh(w->anon, &c);
    sb_fh(&w->b, key, &c);
}

static void name_out(struct tr_nfs_writer *w, const char *key, const char *s, int path)
{
    char anon[TR_NFS_PATH_MAX + 64];

    if (!s)
        return;
    if (w->anon) {
        if (path)
            tr__anon_path(w->anon, s, anon, sizeof(anon));
        else
            tr__anon_name(w->anon, s, anon, sizeof(anon));
        s = anon;
    }
    sb_name(&w->b, key, s);
}

static void call_line(struct tr_nfs_writer *w, const struct tr_nfs_event *ev,
                      const struct tr__proc_fields *f)
{
    struct sbuf *b = &w->b;

    head(w, ev, 1);
    if (f->args & TR__A_FH)
        fh_out(w, "fh", &ev->fh);
    if (f->args & TR__A_NAME)
        name_out(w, "name", ev->name, 0);
    if (f->args & TR__A_FH2)
        fh_out(w, "fh2", &ev->fh2);
    if (f->args & TR__A_NAME2)
        name_out(w, "name2", ev->name2, 0);
    if (f->args & TR__A_TEXT)
        name_out(w, ev->prog == TR_NFS_PROG_MOUNT ? "path" : "sdata", ev->text, 1);
    if (f->args & TR__A_OFFSET)
        sb_printf(b, " off %" PRIx64, ev->offset);
    if (f->args & TR__A_COOKIE)
        sb_printf(b, " cookie %" PRIx64, ev->offset);
    if (f->args & TR__A_COUNT)
        sb_printf(b, " count %x", ev->count);
    if (f->args & TR__A_MAXCNT)
        sb_printf(b, " maxcnt %x", ev->count);
    if ((f->args & TR__A_STABLE) && ev->stable <= 2)
        sb_printf(b, " stable %c", "UDF"[ev->stable]);
    if ((f->args & TR__A_HOW) && ev->stable <= 2)
        sb_printf(b, " how %c", "UGX"[ev->stable]);
    if (f->args & TR__A_ACCESS)
        sb_printf(b, " acc %x", ev->access);
    if (f->args & (TR__A_SATTR | TR__A_FTYPE))
        sb_attr(b, "", &ev->sattr, ev->vers);
    if (ev->uid || ev->gid)
        sb_printf(b, " euid %x egid %x", ev->uid, ev->gid);
    if (ev->conn)
        sb_printf(b, " conn %x", ev->conn);
    if (ev->flags & TR_NFS_F_RETRANS)
        sb_printf(b, " retrans 1");
    if ((ev->flags & TR_NFS_F_DATA_CUT) && (f->args & TR__A_STABLE))
        sb_printf(b, " datacut 1");
    if ((ev->flags & TR_NFS_F_DATA_CUT) && ev->prog == TR_NFS_PROG_NFS && ev->vers == 2 &&
        ev->proc == NFSPROC_WRITE)
        sb_printf(b, " datacut 1");
    sb_printf(b, " con = XXX len = XXX%s\n",
              ev->flags & TR_NFS_F_CALL_CUT ? " LONGPKT" : "");
}

static void reply_line(struct tr_nfs_writer *w, const struct tr_nfs_event *ev,
                       const struct tr__proc_fields *f, uint64_t *ents_cut)
{
    struct sbuf *b = &w->b;
    int ok = ev->status == 0;
    uint32_t i;

    head(w, ev, 0);
    if (ev->rpc_status)
        sb_printf(b, " rpc-%u", ev->rpc_status);
    else if (ok)
        sb_printf(b, " OK");
    else
        sb_printf(b, " %x", ev->status);
    if (ev->rpc_status == 0) {
        fh_out(w, "fh", &ev->res_fh);
        sb_attr(b, "", &ev->attr, ev->vers);
        sb_attr(b, "pre-", &ev->pre, ev->vers);
        sb_attr(b, "dir-", &ev->dir_attr, ev->vers);
        if ((f->res & TR__R_COUNT) && ok)
            sb_printf(b, " count %x", ev->res_count);
        if ((f->res & TR__R_EOF) && ok)
            sb_printf(b, " eof %d", ev->eof ? 1 : 0);
        if ((f->res & TR__R_COMMIT) && ok && ev->committed <= 2)
            sb_printf(b, " stable %c", "UDF"[ev->committed]);
        if ((f->res & TR__R_ACCESS) && ok)
            sb_printf(b, " acc %x", ev->res_access);
        if (f->res & TR__R_TEXT)
            name_out(w, "sdata", ev->text, 1);
        for (i = 0; i < ev->nentries; i++) {
            const struct tr_nfs_dirent *d = &ev->entries[i];
            if (b->len > LINE_SOFT_MAX) {
                *ents_cut += ev->nentries - i;
                break;
            }
            name_out(w, "e-name", d->name, 0);
            sb_printf(b, " e-fileid %" PRIx64, d->fileid);
            fh_out(w, "e-fh", &d->fh);
            sb_attr(b, "ea-", &d->attr, ev->vers);
        }
        if ((ev->flags & TR_NFS_F_DATA_CUT) && (f->res & TR__R_COUNT))
            sb_printf(b, " datacut 1");
    }
    if (ev->conn)
        sb_printf(b, " conn %x", ev->conn);
    sb_printf(b, " status=XXX pl = XXX con = XXX len = XXX%s\n",
              ev->flags & TR_NFS_F_REPLY_CUT ? " LONGPKT" : "");
}

/* ---- the held reply lines ------------------------------------------------- */

static int held_less(const struct held *a, const struct held *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int hold(struct tr_nfs_writer *w, int64_t t)
{
    struct held h;
    size_t i;

    if (w->nheld == w->heap_cap) {
        size_t cap = w->heap_cap ? w->heap_cap * 2 : 64;
        struct held *v = cm_reallocarray(w->heap, cap, sizeof(*v));
        if (!v)
            return -ENOMEM;
        w->heap = v;
        w->heap_cap = cap;
    }
    h.t = t;
    h.seq = w->seq++;
    h.len = w->b.len;
    h.line = cm_malloc(w->b.len);
    if (!h.line)
        return -ENOMEM;
    memcpy(h.line, w->b.s, w->b.len);
    i = w->nheld++;
    while (i > 0 && held_less(&h, &w->heap[(i - 1) / 2])) {
        w->heap[i] = w->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = h;
    return 0;
}

static int put(struct tr_nfs_writer *w, const char *s, size_t n)
{
    if (fwrite(s, 1, n, w->out) != n)
        return w->err = -EIO;
    return 0;
}

/* Writes the held lines up to time t (all with t = INT64_MAX). */
static int flush_until(struct tr_nfs_writer *w, int64_t t)
{
    while (w->nheld && w->heap[0].t <= t) {
        struct held top = w->heap[0], last = w->heap[--w->nheld];
        size_t i = 0;
        int rc = put(w, top.line, top.len);
        free(top.line);
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= w->nheld)
                break;
            if (c + 1 < w->nheld && held_less(&w->heap[c + 1], &w->heap[c]))
                c++;
            if (!held_less(&w->heap[c], &last))
                break;
            w->heap[i] = w->heap[c];
            i = c;
        }
        if (w->nheld)
            w->heap[i] = last;
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ---- interface -------------------------------------------------------------- */

int tr_nfs_writer_open(struct tr_nfs_writer **wp, FILE *out,
                       const struct tr_nfs_reader *r,
                       const struct tr_nfs_write_options *o, char *err, size_t errlen)
{
    struct tr_nfs_writer *w = cm_calloc(1, sizeof(*w));

    *wp = NULL;
    if (!w)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    w->out = out;
    w->r = r;
    if (o && o->anon_key && *o->anon_key && tr__anon_new(&w->anon, o->anon_key) < 0) {
        free(w);
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    if (fprintf(out, "#freesfs nfsdump 1%s\n", w->anon ? " anonymised" : "") < 0) {
        tr__anon_free(w->anon);
        free(w);
        return cm_errf(err, errlen, "write error"), -EIO;
    }
    *wp = w;
    return 0;
}

int tr_nfs_write(struct tr_nfs_writer *w, const struct tr_nfs_event *ev)
{
    const struct tr__proc_fields *f = tr__proc_fields(ev->prog, ev->vers, ev->proc);
    uint64_t ents_cut = 0;
    int rc;

    if (w->err)
        return w->err;
    if (!f)
        return -EINVAL;
    rc = flush_until(w, ev->t_ns);
    if (rc < 0)
        return rc;
    call_line(w, ev, f);
    if (w->b.nomem)
        return w->err = -ENOMEM;
    rc = put(w, w->b.s, w->b.len);
    if (rc < 0 || !(ev->flags & TR_NFS_F_REPLY))
        return rc;
    reply_line(w, ev, f, &ents_cut);
    if (w->b.nomem)
        return w->err = -ENOMEM;
    if (ents_cut)
        ((struct tr_nfs_reader *)w->r)->cnt[TR__C_ENTRIES_CUT] += ents_cut;
    if (ev->reply_t_ns <= ev->t_ns)
        return put(w, w->b.s, w->b.len);
    rc = hold(w, ev->reply_t_ns);
    return rc < 0 ? (w->err = rc) : 0;
}

int tr_nfs_writer_close(struct tr_nfs_writer *w, char *err, size_t errlen)
{
    const struct tr_counter *c;
    unsigned n, i;
    int rc;

    if (!w)
        return 0;
    rc = w->err ? w->err : flush_until(w, INT64_MAX);
    c = tr_nfs_counters(w->r, &n);
    for (i = 0; rc == 0 && i < n; i++)
        if (fprintf(w->out, "#freesfs counter %s %" PRIu64 "\n", c[i].name, c[i].n) < 0)
            rc = -EIO;
    if (rc == 0 && fflush(w->out) != 0)
        rc = -EIO;
    if (rc < 0)
        cm_errf(err, errlen, "%s", rc == -ENOMEM ? "out of memory" : "write error");
    while (w->nheld)
        free(w->heap[--w->nheld].line);
    free(w->heap);
    free(w->b.s);
    tr__anon_free(w->anon);
    free(w);
    return rc;
}
