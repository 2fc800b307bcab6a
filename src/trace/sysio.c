/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysio.c - the reader for Sandia sysio / Catamount text traces
 * (docs/TRACE_FORMATS.md section 4).  A header line starts a stream (nid.pid);
 * event lines are "tracetype(ENTER|EXIT)time:(s)time:(us)str(name)items".
 * ENTER and EXIT pair per stream by name, last in first out; I/O calls are
 * completed by iowait on their id, which gives the bytes moved.  Records
 * come out when an I/O completes (or, without completion, when its stream
 * ends, with the requested length).  Paths become file numbers in order of
 * first open, shared by all streams.  State grows per file, per descriptor
 * and per outstanding call, never per record.
 *
 * Choices where the format is silent (documented in docs/sfs_trace.md):
 * I/O on a descriptor the stream never opened is skipped and counted; the
 * trace origin is the first event's time (earlier events are planned at 0
 * and counted); a forward gap above TR_SYSIO_MAX_GAP_S within a stream is
 * malformed (lenient: clamped).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_int.h"
#include "common/alloc.h"

#define TR_SYSIO_MAX_ITEMS 32
#define TR_SYSIO_MAX_CALLS 64 /* pending ENTERs per stream */
#define TR_SYSIO_MAX_FD    65536
#define TR_SYSIO_MAX_GAP_S 86400 /* one day */
#define US                 1000000

struct tr_sysio_item {
    const char *name, *val;
    size_t nlen, vlen;
};

struct tr_sysio_ext {
    uint64_t off, len;
};

enum tr_sysio_kind {
    K_OTHER,
    K_OPEN,
    K_CLOSE,
    K_FXSTAT,
    K_IOV,
    K_IOX,
    K_IOWAIT,
    K_IODONE,
    K_LSEEK
};

/* A call between its ENTER and its EXIT, or an I/O waiting for iowait. */
struct tr_sysio_call {
    char name[24];
    enum tr_sysio_kind kind;
    enum tr_op op;
    int64_t t_ns;
    long line;
    int fd;
    uint32_t unit, flags, mode;
    uint64_t id, req;
    char *path;
    struct tr_sysio_ext *ext;
    size_t next, cap;
    int skip; /* I/O on a descriptor the stream never opened */
};

struct tr_sysio_fd {
    int bound;
    uint32_t unit;
    uint64_t offset;
};

struct sysio {
    long lineno;
    int have_stream, have_origin, done;
    uint32_t stream;
    char stream_id[48];
    int64_t origin_us, prev_us;
    struct tr_sysio_call calls[TR_SYSIO_MAX_CALLS]; /* ENTER stack */
    unsigned ncalls;
    struct tr_sysio_call *ios; /* I/O calls waiting for iowait */
    size_t nios, capios;
    struct tr_sysio_fd *fds; /* by descriptor number, grown to the largest bound */
    size_t capfds;
    /* file table: paths by number, and an open-addressing index */
    char **paths;
    uint32_t npaths;
    size_t cappaths;
    uint32_t *index; /* path number + 1, 0 = empty */
    uint32_t capindex;
    /* records waiting to be returned */
    struct tr_record *q;
    size_t qhead, qtail, qcap;
};

/* ---- small helpers ------------------------------------------------------- */

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int prefix(const char *s, size_t len, const char *p)
{
    size_t n = strlen(p);
    return len >= n && memcmp(s, p, n) == 0;
}

static int span_eq(const char *s, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* Parses a decimal (optionally negative) or 0x hexadecimal number. */
static int num(const char *s, size_t len, int64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    int neg = 0;

    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (i = 2; i < len; i++) {
            int c = (unsigned char)s[i], d;
            if (is_digit(c))
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                return -EINVAL;
            if (v >> 60)
                return -ERANGE;
            v = v << 4 | (unsigned)d;
        }
        *out = (int64_t)v;
        return 0;
    }
    if (len > 0 && s[0] == '-') {
        neg = 1;
        s++;
        len--;
    }
    if (tr__dec_u64(s, len, &v) < 0 || v > INT64_MAX)
        return -EINVAL;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* The next item name(value) of s[0..len) from *p: 1 with *it, 0 at the
 * end, -1 when the text at *p is not an item.  In a list, items may be
 * separated by ',' and blanks; a value runs to its matching ')'. */
static int next_item(const char *s, size_t len, size_t *p, int list,
                     struct tr_sysio_item *it)
{
    size_t q, depth = 0;

    while (list && *p < len && (s[*p] == ',' || s[*p] == ' ' || s[*p] == '\t'))
        ++*p;
    if (*p >= len)
        return 0;
    for (q = *p; q < len && s[q] != '(' && s[q] != ')' && s[q] != ',' && s[q] != ' '; q++)
        ;
    if (q == *p || q >= len || s[q] != '(')
        return -1;
    it->name = s + *p;
    it->nlen = q - *p;
    it->val = s + q + 1;
    for (; q < len; q++) {
        if (s[q] == '(')
            depth++;
        else if (s[q] == ')' && --depth == 0)
            break;
    }
    if (q >= len)
        return -1;
    it->vlen = (size_t)(s + q - it->val);
    *p = q + 1;
    return 1;
}

/* Parses the top-level items of an event into it[0..max).  Returns the
 * count, -1 at text that is not an item (*bad = its offset), or -2 when
 * there are more than max. */
static int items(const char *s, size_t len, struct tr_sysio_item *it, int max,
                 size_t *bad)
{
    size_t p = 0;
    int n = 0, rc;

    while ((rc = next_item(s, len, &p, 0, &it[n < max ? n : max - 1])) == 1)
        if (++n > max)
            return -2;
    *bad = p;
    return rc < 0 ? -1 : n;
}

static const struct tr_sysio_item *find(const struct tr_sysio_item *it, int n,
                                        const char *name, int skip)
{
    int i;

    for (i = 0; i < n; i++)
        if (span_eq(it[i].name, it[i].nlen, name) && skip-- == 0)
            return &it[i];
    return NULL;
}

static const struct tr_sysio_item *find_suffix(const struct tr_sysio_item *it, int n,
                                               const char *suffix)
{
    size_t sl = strlen(suffix);
    int i;

    for (i = 0; i < n; i++)
        if (it[i].nlen >= sl && memcmp(it[i].name + it[i].nlen - sl, suffix, sl) == 0)
            return &it[i];
    return NULL;
}

static int get_num(const struct tr_sysio_item *it, int n, const char *name, int64_t *out)
{
    const struct tr_sysio_item *x = find(it, n, name, 0);
    return x ? num(x->val, x->vlen, out) : -ENOENT;
}

/* Doubles the array at *p (cap elements of size elem; first when empty).
 * 0 or -ENOMEM, leaving the array as it was. */
static int grow(void *p, size_t *cap, size_t elem, size_t first)
{
    size_t n = *cap ? *cap * 2 : first;
    void *np = cm_realloc(*(void **)p, n * elem);

    if (!np)
        return -ENOMEM;
    *(void **)p = np;
    *cap = n;
    return 0;
}

/* The descriptor fd if it is bound in this stream, else NULL. */
static struct tr_sysio_fd *fd_bound(struct sysio *s, int64_t fd)
{
    return fd >= 0 && (size_t)fd < s->capfds && s->fds[fd].bound ? &s->fds[fd] : NULL;
}

/* Binds fd to unit at offset 0.  0 or -ENOMEM. */
static int fd_bind(struct sysio *s, int64_t fd, uint32_t unit)
{
    while ((size_t)fd >= s->capfds) {
        size_t old = s->capfds;
        if (grow(&s->fds, &s->capfds, sizeof(*s->fds), 16) < 0)
            return -ENOMEM;
        memset(s->fds + old, 0, (s->capfds - old) * sizeof(*s->fds));
    }
    s->fds[fd].bound = 1;
    s->fds[fd].unit = unit;
    s->fds[fd].offset = 0;
    return 0;
}

/* ---- the file table ----------------------------------------------------- */

static uint32_t hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The file number of path (added on first use); -ENOSPC past TR_MAX_UNITS. */
static int64_t file_number(struct sysio *s, const char *path, size_t len)
{
    uint32_t h, i;

    if (s->npaths * 2 >= s->capindex) {
        uint32_t cap = s->capindex ? s->capindex * 2 : 64, j;
        uint32_t *idx = cm_calloc(cap, sizeof(*idx));
        if (!idx)
            return -ENOMEM;
        for (j = 0; j < s->npaths; j++) {
            const char *p = s->paths[j];
            for (i = hash(p, strlen(p)) & (cap - 1); idx[i]; i = (i + 1) & (cap - 1))
                ;
            idx[i] = j + 1;
        }
        free(s->index);
        s->index = idx;
        s->capindex = cap;
    }
    h = hash(path, len);
    for (i = h & (s->capindex - 1); s->index[i]; i = (i + 1) & (s->capindex - 1)) {
        const char *p = s->paths[s->index[i] - 1];
        if (strlen(p) == len && memcmp(p, path, len) == 0)
            return s->index[i] - 1;
    }
    if (s->npaths >= TR_MAX_UNITS)
        return -ENOSPC;
    if (s->npaths == s->cappaths &&
        grow(&s->paths, &s->cappaths, sizeof(*s->paths), 32) < 0)
        return -ENOMEM;
    s->paths[s->npaths] = cm_strndup(path, len);
    if (!s->paths[s->npaths])
        return -ENOMEM;
    s->index[i] = s->npaths + 1;
    return s->npaths++;
}

/* ---- output queue ------------------------------------------------------- */

static int emit(struct sysio *s, const struct tr_record *rec)
{
    if (s->qtail == s->qcap) {
        if (s->qhead > 0) {
            memmove(s->q, s->q + s->qhead, (s->qtail - s->qhead) * sizeof(*s->q));
            s->qtail -= s->qhead;
            s->qhead = 0;
        } else if (grow(&s->q, &s->qcap, sizeof(*s->q), 16) < 0) {
            return -ENOMEM;
        }
    }
    s->q[s->qtail++] = *rec;
    return 0;
}

/* Emits the transfers of a completed I/O call: done bytes moved. */
static int emit_io(struct sysio *s, struct tr_sysio_call *c, uint64_t done)
{
    struct tr_record rec = {0};
    int rc = 0;

    rec.stream = s->stream;
    rec.unit = c->unit;
    rec.t_ns = c->t_ns;
    rec.op = c->op;
    rec.line = c->line;
    rec.flags = c->flags;
    if (c->kind == K_IOV) {
        struct tr_sysio_fd *f = fd_bound(s, c->fd);
        if (f && f->unit != c->unit)
            f = NULL; /* closed and reused meanwhile */
        rec.offset = f ? f->offset : 0;
        rec.length = done;
        if (f)
            f->offset += done;
        return emit(s, &rec);
    }
    for (c->next = 0; c->next < c->cap && done > 0 && rc == 0; c->next++) {
        uint64_t n = c->ext[c->next].len < done ? c->ext[c->next].len : done;
        rec.offset = c->ext[c->next].off;
        rec.length = n;
        done -= n;
        rc = emit(s, &rec);
    }
    return rc;
}

static void call_free(struct tr_sysio_call *c)
{
    free(c->path);
    free(c->ext);
    c->path = NULL;
    c->ext = NULL;
}

/* End of a stream: calls without EXIT and I/O without iowait are replayed
 * with their requested length; everything is counted. */
static int flush_stream(struct tr_reader *r, struct sysio *s)
{
    unsigned i;
    size_t j;
    int rc = 0;

    for (i = 0; i < s->ncalls; i++) {
        struct tr_sysio_call *c = &s->calls[i];
        tr__count(r, "enter_without_exit", 1);
        if ((c->kind == K_IOV || c->kind == K_IOX) && c->fd >= 0 && rc == 0) {
            c->flags |= TR_F_NO_EXIT;
            rc = emit_io(s, c, c->req);
        }
        call_free(c);
    }
    s->ncalls = 0;
    for (j = 0; j < s->nios; j++) {
        if (s->ios[j].skip) {
            call_free(&s->ios[j]);
            continue;
        }
        tr__count(r, "io_without_iowait", 1);
        if (rc == 0)
            rc = emit_io(s, &s->ios[j], s->ios[j].req);
        call_free(&s->ios[j]);
    }
    s->nios = 0;
    if (s->capfds) /* descriptors belong to the stream */
        memset(s->fds, 0, s->capfds * sizeof(*s->fds));
    return rc;
}

/* ---- events ------------------------------------------------------------- */

/* The calls the reader understands; anything else is counted and skipped. */
static const struct {
    const char *name;
    enum tr_sysio_kind kind;
    enum tr_op op;
} calls[] = {
    {"open", K_OPEN, TR_OP_OPEN},        {"close", K_CLOSE, TR_OP_OPEN},
    {"fxstat", K_FXSTAT, TR_OP_GETATTR}, {"iowait", K_IOWAIT, TR_OP_READ},
    {"iodone", K_IODONE, TR_OP_READ},    {"lseek", K_LSEEK, TR_OP_READ},
    {"ireadv", K_IOV, TR_OP_READ},       {"iwritev", K_IOV, TR_OP_WRITE},
    {"ireadx", K_IOX, TR_OP_READ},       {"iwritex", K_IOX, TR_OP_WRITE},
};

static enum tr_sysio_kind kind_of(const char *n, size_t len, enum tr_op *op)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(calls); i++)
        if (span_eq(n, len, calls[i].name)) {
            *op = calls[i].op;
            return calls[i].kind;
        }
    *op = TR_OP_READ;
    return K_OTHER;
}

/* Adds the non-negative number in x's value to *total.  0 or -EINVAL. */
static int add_len(const struct tr_sysio_item *x, uint64_t *total, int64_t *v)
{
    if (num(x->val, x->vlen, v) < 0 || *v < 0 || *total > UINT64_MAX - (uint64_t)*v)
        return -EINVAL;
    *total += (uint64_t)*v;
    return 0;
}

/* Sums the len() items of an I/O vector (any length); counts them. */
static int vec_total(const struct tr_sysio_item *v, uint64_t *total, int64_t *elems)
{
    struct tr_sysio_item x;
    size_t p = 0;
    int64_t n;
    int rc;

    *total = 0;
    *elems = 0;
    while ((rc = next_item(v->val, v->vlen, &p, 1, &x)) == 1)
        if (span_eq(x.name, x.nlen, "len")) {
            if (add_len(&x, total, &n) < 0)
                return -EINVAL;
            ++*elems;
        }
    return rc < 0 ? -EINVAL : 0;
}

/* Fills c->ext from an extent list (off(..)len(..) pairs, any length). */
static int vec_extents(const struct tr_sysio_item *v, struct tr_sysio_call *c,
                       uint64_t *total)
{
    struct tr_sysio_item x;
    uint64_t count = 0;
    size_t p = 0;
    int64_t off = 0, n;
    int rc;

    if (vec_total(v, &count, &n) < 0)
        return -EINVAL;
    c->ext = cm_calloc((size_t)n + 1, sizeof(*c->ext));
    if (!c->ext)
        return -ENOMEM;
    c->cap = 0;
    *total = 0;
    while ((rc = next_item(v->val, v->vlen, &p, 1, &x)) == 1) {
        if (span_eq(x.name, x.nlen, "off")) {
            if (num(x.val, x.vlen, &off) < 0 || off < 0)
                return -EINVAL;
        } else if (span_eq(x.name, x.nlen, "len")) {
            if (add_len(&x, total, &n) < 0)
                return -EINVAL;
            c->ext[c->cap].off = (uint64_t)off;
            c->ext[c->cap++].len = (uint64_t)n;
        }
    }
    return rc < 0 ? -EINVAL : 0;
}

/* An ENTER event.  0 or -EINVAL with last_error. */
/* I/O or fxstat on a descriptor the stream never opened (or closed): it is
 * skipped, so that the replay touches only files the trace opened
 * (docs/TRACE_FORMATS.md 4.4), counted and reported with its line. */
static void unopened_fd(struct tr_reader *r, struct sysio *s,
                        const struct tr_sysio_call *c, int64_t fd)
{
    tr__count(r, "io_on_unopened_fd", 1);
    tr__warn(r, s->lineno, "%s on descriptor %lld, not opened in stream %s; skipped",
             c->name, (long long)fd, s->stream_id);
}

static int on_enter(struct tr_reader *r, struct sysio *s, struct tr_sysio_call *c,
                    const struct tr_sysio_item *it, int n)
{
    int64_t fd = -1, v;
    const struct tr_sysio_item *x;

    if (get_num(it, n, "fd", &fd) == 0 && (fd < 0 || fd >= TR_SYSIO_MAX_FD))
        return tr__error(r, s->lineno, "descriptor %lld out of range", (long long)fd);
    c->fd = (int)fd;
    switch (c->kind) {
    case K_OPEN:
        x = find(it, n, "str", 0);
        if (!x || x->vlen == 0)
            return tr__error(r, s->lineno, "open without a path");
        if (!(c->path = cm_strndup(x->val, x->vlen)))
            return -ENOMEM;
        if (get_num(it, n, "flags", &v) == 0) {
            c->flags |= (v & 0x40) ? TR_F_CREATE : 0;
            c->flags |= (v & 0x200) ? TR_F_TRUNC : 0;
        }
        if (get_num(it, n, "mode", &v) == 0)
            c->mode = (uint32_t)v;
        return 0;
    case K_CLOSE:
        if (fd_bound(s, fd))
            s->fds[fd].bound = 0;
        return 0;
    case K_FXSTAT:
        if (fd_bound(s, fd)) {
            struct tr_record rec = {0};
            rec.stream = s->stream;
            rec.unit = s->fds[fd].unit;
            rec.t_ns = c->t_ns;
            rec.op = TR_OP_GETATTR;
            rec.line = s->lineno;
            return emit(s, &rec);
        }
        unopened_fd(r, s, c, fd);
        return 0;
    case K_IOV:
    case K_IOX:
        if (!fd_bound(s, fd)) {
            unopened_fd(r, s, c, fd);
            c->fd = -1; /* paired, never replayed */
            return 0;
        }
        c->unit = s->fds[fd].unit;
        x = find_suffix(it, n, "iovec");
        if (!x || vec_total(x, &c->req, &v) < 0)
            return tr__error(r, s->lineno, "%s without a valid I/O vector", c->name);
        if (c->kind == K_IOX) {
            uint64_t ext_total, mem = c->req;
            int64_t cnt;
            int rc;
            x = find_suffix(it, n, "xtvec");
            if (!x)
                return tr__error(r, s->lineno, "%s without an extent list", c->name);
            rc = vec_extents(x, c, &ext_total);
            if (rc == -ENOMEM) /* not the trace's fault */
                return rc;
            if (rc < 0)
                return tr__error(r, s->lineno, "%s: bad extent list", c->name);
            c->req = mem < ext_total ? mem : ext_total;
            if (get_num(it, n, "count", &cnt) == 0 && cnt != v)
                tr__warn(r, s->lineno,
                         "count(%lld) disagrees with the %lld "
                         "memory elements; the list wins",
                         (long long)cnt, (long long)v);
        }
        return 0;
    default:
        if (get_num(it, n, "ptr", &v) == 0)
            c->id = (uint64_t)v;
        return 0;
    }
}

static struct tr_sysio_call *find_io(struct sysio *s, uint64_t id)
{
    size_t i;

    for (i = 0; i < s->nios; i++)
        if (s->ios[i].id == id)
            return &s->ios[i];
    return NULL;
}

/* An EXIT event paired with its ENTER c.  0 or -errno. */
static int on_exit_ev(struct tr_reader *r, struct sysio *s, struct tr_sysio_call *c,
                      const struct tr_sysio_item *it, int n)
{
    int64_t ret = 0, id;
    int has_ret = get_num(it, n, "return", &ret) == 0;
    struct tr_sysio_call *io;
    struct tr_record rec = {0};

    switch (c->kind) {
    case K_OPEN:
        if (!has_ret || ret < 0) {
            tr__count(r, "failed_opens", 1);
            return 0;
        }
        if (ret >= TR_SYSIO_MAX_FD)
            return tr__error(r, s->lineno, "descriptor %lld out of range",
                             (long long)ret);
        id = file_number(s, c->path, strlen(c->path));
        if (id < 0)
            return id == -ENOSPC
                       ? tr__error(r, s->lineno, "more than %u files", TR_MAX_UNITS)
                       : (int)id;
        if (c->path[0] != '/')
            tr__count(r, "relative_paths", 1);
        if (fd_bind(s, ret, (uint32_t)id) < 0)
            return -ENOMEM;
        rec.stream = s->stream;
        rec.unit = (uint32_t)id;
        rec.t_ns = c->t_ns;
        rec.op = TR_OP_OPEN;
        rec.flags = c->flags;
        rec.mode = c->mode;
        rec.line = c->line;
        return emit(s, &rec);
    case K_IOV:
    case K_IOX:
        c->skip = c->fd < 0;
        if (get_num(it, n, "ptr", &id) < 0) {
            if (c->skip)
                return 0;
            tr__count(r, "io_without_id", 1);
            return emit_io(s, c, c->req);
        }
        if (s->nios == s->capios && grow(&s->ios, &s->capios, sizeof(*s->ios), 8) < 0)
            return -ENOMEM;
        c->id = (uint64_t)id;
        s->ios[s->nios++] = *c;
        c->ext = NULL; /* moved */
        return 0;
    case K_IOWAIT:
        io = find_io(s, c->id);
        if (!io) {
            tr__count(r, "unknown_ioid", 1);
            tr__warn(r, s->lineno, "iowait on unknown I/O id 0x%llx",
                     (unsigned long long)c->id);
            return 0;
        }
        if (io->skip) {
            /* counted when the call was seen */
        } else if (has_ret && ret < 0) {
            tr__count(r, "failed_io", 1);
        } else {
            uint64_t done = has_ret ? (uint64_t)ret : io->req;
            int rc = emit_io(s, io, done < io->req || io->kind == K_IOV ? done : io->req);
            if (rc < 0)
                return rc;
        }
        call_free(io);
        *io = s->ios[--s->nios];
        return 0;
    case K_LSEEK:
        if (has_ret && ret >= 0 && fd_bound(s, c->fd))
            s->fds[c->fd].offset = (uint64_t)ret;
        else
            tr__count(r, "lseek_without_result", 1);
        return 0;
    default:
        return 0;
    }
}

/* ---- lines -------------------------------------------------------------- */

/* Reads "time:(digits)" at *p.  0, or -1 (missing) / -2 (not digits). */
static int time_field(const char *line, size_t len, size_t *p, uint64_t *v)
{
    const char *close;

    if (!prefix(line + *p, len - *p, "time:("))
        return -1;
    *p += 6;
    close = memchr(line + *p, ')', len - *p);
    if (!close || tr__dec_u64(line + *p, (size_t)(close - line) - *p, v) < 0)
        return -2;
    *p = (size_t)(close - line) + 1;
    return 0;
}

static int on_header(struct tr_reader *r, struct sysio *s, const char *line, size_t len)
{
    size_t i, j;
    int rc = flush_stream(r, s);

    if (rc < 0)
        return rc;
    s->stream += s->have_stream;
    s->have_stream = 1;
    s->have_origin &= 1;
    s->prev_us = -1;
    snprintf(s->stream_id, sizeof(s->stream_id), "?");
    for (i = 0; i < len; i++) {
        if (!is_digit((unsigned char)line[i]) ||
            (i > 0 && is_digit((unsigned char)line[i - 1])))
            continue;
        for (j = i; j < len && is_digit((unsigned char)line[j]); j++)
            ;
        if (j + 1 < len && line[j] == '.' && is_digit((unsigned char)line[j + 1])) {
            for (j++; j < len && is_digit((unsigned char)line[j]); j++)
                ;
            snprintf(s->stream_id, sizeof(s->stream_id), "%.*s", (int)(j - i), line + i);
            break;
        }
    }
    tr__count(r, "streams", 1);
    return 0;
}

/* One event line.  0 or -errno with last_error. */
static int on_event(struct tr_reader *r, struct sysio *s, const char *line, size_t len)
{
    struct tr_sysio_item it[TR_SYSIO_MAX_ITEMS];
    const char *close, *name;
    size_t p = 10, nlen, bad;
    uint64_t sec, usec;
    int64_t t_us;
    int exit_ev, n, rc;
    struct tr_sysio_call call, *c;
    unsigned i;

    close = memchr(line + p, ')', len - p);
    if (!close)
        return tr__error(r, s->lineno, "not an event or header line");
    if (span_eq(line + p, (size_t)(close - line) - p, "ENTER"))
        exit_ev = 0;
    else if (span_eq(line + p, (size_t)(close - line) - p, "EXIT"))
        exit_ev = 1;
    else
        return tr__error(r, s->lineno, "unknown tracetype '%.*s'",
                         (int)((size_t)(close - line) - p), line + p);
    p = (size_t)(close - line) + 1;
    if ((rc = time_field(line, len, &p, &sec)) < 0)
        return tr__error(r, s->lineno,
                         rc == -1 ? "missing seconds field" : "bad seconds field");
    if ((rc = time_field(line, len, &p, &usec)) < 0)
        return tr__error(r, s->lineno,
                         rc == -1 ? "missing microseconds field"
                                  : "bad microseconds field");
    if (usec >= US)
        return tr__error(r, s->lineno, "microseconds out of range");
    if (sec > (uint64_t)INT64_MAX / US / 1000 - 1)
        return tr__error(r, s->lineno, "seconds out of range");
    if (!prefix(line + p, len - p, "str("))
        return tr__error(r, s->lineno, "missing event name");
    name = line + p + 4;
    close = memchr(name, ')', len - p - 4);
    if (!close)
        return tr__error(r, s->lineno, "missing event name");
    nlen = (size_t)(close - name);
    if (nlen == 0)
        return tr__error(r, s->lineno, "empty event name");
    p = (size_t)(close - line) + 1;
    n = items(line + p, len - p, it, TR_SYSIO_MAX_ITEMS, &bad);
    if (n == -2)
        return tr__error(r, s->lineno, "more than %d items", TR_SYSIO_MAX_ITEMS);
    if (n < 0)
        return tr__error(r, s->lineno, "text that is not name(value): '%.20s'",
                         line + p + bad);
    if (!s->have_stream)
        return tr__error(r, s->lineno, "event before any header line");

    t_us = (int64_t)(sec * US + usec);
    if (!s->have_origin) {
        s->origin_us = t_us;
        s->have_origin = 1;
    }
    if (s->prev_us >= 0 && t_us < s->prev_us) {
        tr__count(r, "time_backwards", 1);
        if (!r->opt.lenient)
            return tr__error(r, s->lineno, "time goes backwards in stream %s",
                             s->stream_id);
        tr__warn(r, s->lineno, "time goes backwards in stream %s", s->stream_id);
        t_us = s->prev_us;
    } else if (s->prev_us >= 0 && t_us - s->prev_us > (int64_t)TR_SYSIO_MAX_GAP_S * US) {
        tr__count(r, "time_gaps_clamped", 1);
        if (!r->opt.lenient)
            return tr__error(
                r, s->lineno, "time jumps forward by %lld s in stream %s (limit %d s)",
                (long long)((t_us - s->prev_us) / US), s->stream_id, TR_SYSIO_MAX_GAP_S);
        tr__warn(r, s->lineno, "time jumps forward in stream %s; clamped", s->stream_id);
        t_us = s->prev_us;
    }
    if (s->prev_us >= 0) /* reported: the largest forward gap of any stream */
        tr__count_max(r, "largest_gap_us", (uint64_t)(t_us - s->prev_us));
    s->prev_us = t_us;
    if (t_us < s->origin_us) {
        tr__count(r, "before_origin", 1);
        t_us = s->origin_us;
    }

    memset(&call, 0, sizeof(call));
    snprintf(call.name, sizeof(call.name), "%.*s", (int)nlen, name);
    call.kind = kind_of(name, nlen, &call.op);
    call.t_ns = (t_us - s->origin_us) * 1000;
    call.line = s->lineno;
    call.fd = -1;
    if (!exit_ev) {
        if (call.kind == K_OTHER) {
            char cn[40];
            snprintf(cn, sizeof(cn), "unknown:%s", call.name);
            tr__count(r, cn, 1);
        } else if (call.kind == K_IODONE) {
            tr__count(r, "iodone_polls", 1);
        }
        rc = on_enter(r, s, &call, it, n);
        if (rc < 0) {
            call_free(&call);
            return rc;
        }
        if (s->ncalls == TR_SYSIO_MAX_CALLS) {
            /* Deep nesting means lost EXITs: drop the oldest. */
            tr__count(r, "enter_without_exit", 1);
            call_free(&s->calls[0]);
            memmove(s->calls, s->calls + 1, (TR_SYSIO_MAX_CALLS - 1) * sizeof(call));
            s->ncalls--;
        }
        s->calls[s->ncalls++] = call;
        return 0;
    }
    for (i = s->ncalls; i > 0; i--)
        if (strcmp(s->calls[i - 1].name, call.name) == 0)
            break;
    if (i == 0) {
        tr__count(r, "exit_without_enter", 1);
        tr__warn(r, s->lineno, "EXIT of %s without its ENTER in stream %s; skipped",
                 call.name, s->stream_id);
        return 0;
    }
    c = &s->calls[i - 1];
    rc = on_exit_ev(r, s, c, it, n);
    call_free(c);
    memmove(c, c + 1, (s->ncalls - i) * sizeof(*c));
    s->ncalls--;
    return rc;
}

/* ---- reader ops ----------------------------------------------------------- */

static int sysio_probe(const unsigned char *buf, size_t len)
{
    size_t i = 0;

    while (i < len && (buf[i] == '\n' || buf[i] == '\r' || buf[i] == ' '))
        i++;
    if (prefix((const char *)buf + i, len - i, "header(") ||
        prefix((const char *)buf + i, len - i, "tracetype("))
        return 2;
    return 0;
}

static void sysio_explain(const unsigned char *buf, size_t len, char *why, size_t whylen)
{
    const unsigned char *nl = memchr(buf, '\n', len);
    char ex[128];

    tr__excerpt(buf, nl ? (size_t)(nl - buf) : len, ex, sizeof(ex));
    snprintf(why, whylen, "'%s' starts with neither header( nor tracetype(", ex);
}

static int sysio_open(struct tr_reader *r)
{
    struct sysio *s = cm_calloc(1, sizeof(*s));

    if (!s)
        return tr__nomem(r, 0);
    s->prev_us = -1;
    r->priv = s;
    return 0;
}

static void sysio_close(struct tr_reader *r)
{
    struct sysio *s = r->priv;
    size_t i;

    if (!s)
        return;
    for (i = 0; i < s->ncalls; i++)
        call_free(&s->calls[i]);
    for (i = 0; i < s->nios; i++)
        call_free(&s->ios[i]);
    for (i = 0; i < s->npaths; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->index);
    free(s->ios);
    free(s->fds);
    free(s->q);
    free(s);
    r->priv = NULL;
}

static const char *sysio_unit_name(const struct tr_reader *r, uint32_t unit, char *buf,
                                   size_t len)
{
    const struct sysio *s = r->priv;

    snprintf(buf, len, "%s", unit < s->npaths ? s->paths[unit] : "?");
    return buf;
}

static int sysio_next(struct tr_reader *r, struct tr_record *rec)
{
    struct sysio *s = r->priv;

    for (;;) {
        char *line;
        size_t len;
        int rc;

        if (s->qhead < s->qtail) {
            *rec = s->q[s->qhead++];
            if (rec->op == TR_OP_OPEN)
                rec->path = s->paths[rec->unit];
            return 1;
        }
        s->qhead = s->qtail = 0;
        if (s->done)
            return 0;
        rc = tr__in_line(&r->in, &line, &len, &s->lineno);
        if (rc == 0) {
            s->done = 1;
            if (!s->have_stream)
                return tr__error(r, 0, "no records");
            if ((rc = flush_stream(r, s)) < 0)
                return tr__nomem(r, 0);
            continue;
        }
        if (rc == -EIO)
            return tr__error(r, s->lineno, "read error");
        if (rc == -E2BIG)
            rc = tr__error(r, s->lineno, "line longer than %u bytes", TR_LINE_MAX);
        else if (len == 0)
            continue;
        else if (memchr(line, '\0', len))
            rc = tr__error(r, s->lineno, "NUL byte in line");
        else if (prefix(line, len, "header("))
            rc = on_header(r, s, line, len);
        else if (prefix(line, len, "tracetype("))
            rc = on_event(r, s, line, len);
        else
            rc = tr__error(r, s->lineno, "not an event or header line");
        if (rc == -ENOMEM)
            return tr__nomem(r, s->lineno);
        /* every branch above that found a bad line set rc < 0 */
        if (rc < 0 && (rc = tr__malformed(r)) < 0)
            return rc;
    }
}

const struct tr_reader_ops tr__sysio_ops = {
    .name = "sysio",
    .probe = sysio_probe,
    .open = sysio_open,
    .next = sysio_next,
    .close = sysio_close,
    .unit_name = sysio_unit_name,
    .explain = sysio_explain,
};
