/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * planfile.c - the NFS trace replay's plan file (nr.h, docs/nfs_replay.md
 * "Plans"): what plan.c learnt from a capture, written once and read by
 * every replay of it, on every client and at every point.
 *
 *   "FSNRPLAN" and the version (12 bytes);
 *   the image (image/save.c);
 *   the calls, one record each, in the order they are replayed: unsigned
 *     LEB128 numbers (the time as a zigzag difference from the call before,
 *     ids and statuses + 1 so that "none" is 0, the dependencies as
 *     distances back) and each name as its length + 1 and its bytes; from
 *     version 4 also the NFSv4 state (the record's kind, the slots it uses
 *     and makes, its owner), and an NFSv4 plan's state records among them;
 *   the index: every NR_INDEX_STEP-th call's offset and the time before it;
 *   the trailer: the capture it was made from (path, size and a hash of its
 *     first and last 64 KiB, which a replay checks when the capture is
 *     there), the figures of the plan line and the report, the streams'
 *     calls, the traced response times, where each part starts;
 *   the trailer's offset (8 bytes, last).
 *
 * Every number is big-endian; a read checks what it reads (ids against
 * the image, names against their bounds, offsets against the file), so
 * that a damaged plan is refused with its name, never followed.
 */
#define _GNU_SOURCE /* pread */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hist.h"
#include "common/error.h"
#include "common/alloc.h"
#include "common/binfile.h"
#include "common/bytes.h"
#include "image/im.h"
#include "nreplay/nr_int.h"

#define MAGIC       "FSNRPLAN"
#define VERSION     4u /* 4: the NFSv4 open state (slots, owners, state records) */
#define OLDEST      3u /* 3: a change waits for the reads since the last (plan.c) */
#define HEAD_BYTES  12u
#define ID_BYTES    65536u  /* of the capture's start and end, hashed */
#define STREAM_READ 262144u /* bytes a stream reads at a time */
#define NAMES_MAX   (3u * TR_NFS_PATH_MAX)

/* ---- numbers ------------------------------------------------------------- */

static void put_str(FILE *f, const char *s)
{
    size_t n = strlen(s);

    cm_bin_put32(f, (uint32_t)n);
    (void)fwrite(s, 1, n, f);
}

/* Unsigned LEB128 into b; the bytes written. */
static size_t leb(uint8_t *b, uint64_t v)
{
    size_t n = 0;

    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

static uint64_t zigzag(int64_t v)
{
    uint64_t u = (uint64_t)v;

    return (u << 1) ^ (0 - (u >> 63));
}

static int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* ---- the capture's identity ---------------------------------------------- */

static uint64_t fnv(uint64_t h, const uint8_t *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

int nr__capture_id(const char *path, uint64_t *size, uint64_t *hash)
{
    uint8_t buf[4096];
    struct stat st;
    uint64_t h = 0xcbf29ce484222325ull, off;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int rc = 0;

    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) < 0) {
        rc = -errno;
        close(fd);
        return rc;
    }
    *size = (uint64_t)st.st_size;
    for (off = 0; off < *size && off < ID_BYTES && rc == 0; off += sizeof(buf)) {
        ssize_t n = pread(fd, buf, sizeof(buf), (off_t)off);
        if (n < 0)
            rc = -errno;
        else
            h = fnv(h, buf, (size_t)n);
    }
    off = *size > ID_BYTES ? *size - ID_BYTES : *size;
    for (; off < *size && rc == 0; off += sizeof(buf)) {
        ssize_t n = pread(fd, buf, sizeof(buf), (off_t)off);
        if (n <= 0)
            rc = n < 0 ? -errno : -EIO;
        else
            h = fnv(h, buf, (size_t)n);
    }
    close(fd);
    *hash = h;
    return rc;
}

/* ---- writing --------------------------------------------------------------- */

int nr__file_begin(struct nr__writer *w, FILE *f, const struct nr_plan *p)
{
    memset(w, 0, sizeof(*w));
    w->f = f;
    (void)fwrite(MAGIC, 1, 8, f);
    cm_bin_put32(f, VERSION);
    w->image_off = HEAD_BYTES;
    if (im_save(p->img, f) < 0)
        return -EIO;
    w->calls_off = (uint64_t)ftello(f);
    return ferror(f) ? -EIO : 0;
}

static size_t put_name(uint8_t *b, const char *s)
{
    size_t n = s ? strlen(s) : 0, k;

    k = leb(b, s ? n + 1 : 0);
    if (s)
        memcpy(b + k, s, n);
    return k + n;
}

int nr__file_call(struct nr__writer *w, const struct nr_call *c)
{
    uint8_t b[64 + 20 * 10 + NAMES_MAX + 16];
    size_t n = 0;
    unsigned k, nd = 0;

    if (w->ncalls % NR_INDEX_STEP == 0) {
        if (w->nindex == w->cap_index) {
            uint32_t cap = w->cap_index ? w->cap_index * 2 : 64;
            uint64_t *o = cm_reallocarray(w->index_off, cap, sizeof(*o));
            int64_t *t;

            if (!o)
                return -ENOMEM;
            w->index_off = o;
            t = cm_reallocarray(w->index_t, cap, sizeof(*t));
            if (!t)
                return -ENOMEM;
            w->index_t = t;
            w->cap_index = cap;
        }
        w->index_off[w->nindex] = (uint64_t)ftello(w->f);
        w->index_t[w->nindex++] = w->t;
    }
    n += leb(b + n, zigzag(c->t_ns - w->t));
    n += leb(b + n, (uint64_t)(c->op + 1));
    n += leb(b + n, c->proc);
    n += leb(b + n, c->obj == NR_NONE ? 0 : (uint64_t)c->obj + 1);
    n += leb(b + n, c->obj2 == NR_NONE ? 0 : (uint64_t)c->obj2 + 1);
    n += leb(b + n, c->res_obj == NR_NONE ? 0 : (uint64_t)c->res_obj + 1);
    n += leb(b + n, c->status == NR_NO_REPLY ? 0 : (uint64_t)c->status + 1);
    n += leb(b + n, c->rt_us);
    n += leb(b + n, c->offset);
    n += leb(b + n, c->size);
    n += leb(b + n, c->count);
    n += leb(b + n, c->access);
    n += leb(b + n, c->how);
    n += leb(b + n, c->sattr);
    n += leb(b + n, c->mode);
    n += leb(b + n, c->uid);
    n += leb(b + n, c->gid);
    n += leb(b + n, c->ftype);
    n += leb(b + n, c->stream);
    n += leb(b + n, c->v4);
    n += leb(b + n, c->sid == NR_NONE ? 0 : (uint64_t)c->sid + 1);
    n += leb(b + n, c->res_sid == NR_NONE ? 0 : (uint64_t)c->res_sid + 1);
    n += leb(b + n, c->owner);
    n += leb(b + n, c->share);
    while (nd < NR_DEPS && c->dep[nd])
        nd++;
    n += leb(b + n, nd);
    for (k = 0; k < nd; k++)
        n += leb(b + n, c->dep[k]);
    n += put_name(b + n, c->name);
    n += put_name(b + n, c->name2);
    n += put_name(b + n, c->text);
    if (fwrite(b, 1, n, w->f) != n)
        return -EIO;
    w->t = c->t_ns;
    w->ncalls++;
    return 0;
}

static void put_hist(FILE *f, const struct cm_hist *h)
{
    unsigned i;

    for (i = 0; i < CM_HIST_NB; i++)
        cm_bin_put32(f, h->n[i]);
    cm_bin_put64(f, h->count);
    cm_bin_put64(f, h->max_us);
}

int nr__file_end(struct nr__writer *w, const struct nr_plan *p)
{
    FILE *f = w->f;
    uint64_t calls_end = (uint64_t)ftello(f), index_off = calls_end, trailer;
    uint32_t i;

    for (i = 0; i < w->nindex; i++) {
        cm_bin_put64(f, w->index_off[i]);
        cm_bin_put64(f, (uint64_t)w->index_t[i]);
    }
    trailer = (uint64_t)ftello(f);
    put_str(f, p->capture);
    cm_bin_put64(f, w->capture_size);
    cm_bin_put64(f, w->capture_hash);
    put_str(f, p->format);
    cm_bin_put32(f, (uint32_t)p->nfs_version);
    cm_bin_put64(f, p->ncalls);
    cm_bin_put64(f, p->nrecords);
    cm_bin_put32(f, p->nsids);
    cm_bin_put32(f, p->nowners);
    cm_bin_put32(f, p->nstreams);
    for (i = 0; i < p->nstreams; i++)
        cm_bin_put64(f, p->stream_calls[i]);
    cm_bin_put64(f, p->events);
    for (i = 0; i < NR_SKIPS; i++)
        cm_bin_put64(f, p->skipped[i]);
    cm_bin_put64(f, p->readdir_restarted);
    cm_bin_put64(f, p->v4_opens_in_use);
    cm_bin_put64(f, (uint64_t)p->trace_ns);
    cm_bin_put32(f, p->ncounters);
    for (i = 0; i < p->ncounters; i++) {
        put_str(f, p->counters[i].name);
        cm_bin_put64(f, p->counters[i].n);
    }
    for (i = 0; i <= NF_NOPS; i++)
        put_hist(f, &p->traced[i]);
    cm_bin_put64(f, w->image_off);
    cm_bin_put64(f, w->calls_off);
    cm_bin_put64(f, calls_end);
    cm_bin_put64(f, index_off);
    cm_bin_put32(f, w->nindex);
    cm_bin_put32(f, NR_LOOKAHEAD);
    cm_bin_put64(f, trailer);
    free(w->index_off);
    free(w->index_t);
    w->index_off = NULL;
    w->index_t = NULL;
    return ferror(f) ? -EIO : 0;
}

void nr__file_abort(struct nr__writer *w)
{
    free(w->index_off);
    free(w->index_t);
    w->index_off = NULL;
    w->index_t = NULL;
}

/* ---- reading the trailer and the image --------------------------------------- */

static void get_str(struct cm_bin_reader *r, char *buf, size_t len)
{
    uint32_t n = cm_bin_get32(r);

    if (r->short_read || n >= len || fread(buf, 1, n, r->f) != n) {
        r->short_read = 1;
        buf[0] = '\0';
        return;
    }
    buf[n] = '\0';
}

static void get_hist(struct cm_bin_reader *r, struct cm_hist *h)
{
    unsigned i;

    for (i = 0; i < CM_HIST_NB; i++)
        h->n[i] = cm_bin_get32(r);
    h->count = cm_bin_get64(r);
    h->max_us = cm_bin_get64(r);
}

int nr_plan_is_file(const char *path)
{
    char b[8];
    FILE *f = fopen(path, "rb");
    int yes;

    if (!f)
        return 0;
    yes = fread(b, 1, 8, f) == 8 && memcmp(b, MAGIC, 8) == 0;
    fclose(f);
    return yes;
}

/* The trailer's figures into p; 0 or -EINVAL (damaged). */
static int trailer_in(struct cm_bin_reader *r, struct nr_plan *p, uint64_t *image_off,
                      uint64_t *capture_size, uint64_t *capture_hash, uint64_t size)
{
    uint64_t index_off;
    uint32_t i, lookahead;

    get_str(r, p->capture, sizeof(p->capture));
    *capture_size = cm_bin_get64(r);
    *capture_hash = cm_bin_get64(r);
    get_str(r, p->format, sizeof(p->format));
    p->nfs_version = (int)cm_bin_get32(r);
    if (!r->short_read && p->version < 4 && p->nfs_version == 4)
        return -EPROTONOSUPPORT; /* the same place in both formats' trailers */
    p->ncalls = cm_bin_get64(r);
    p->nrecords = p->ncalls;
    if (p->version >= 4) {
        p->nrecords = cm_bin_get64(r);
        p->nsids = cm_bin_get32(r);
        p->nowners = cm_bin_get32(r);
    }
    p->nstreams = cm_bin_get32(r);
    if (r->short_read || p->nstreams > (1u << 24))
        return -EINVAL;
    p->stream_calls = cm_calloc((size_t)p->nstreams + 1, sizeof(*p->stream_calls));
    if (!p->stream_calls)
        return -ENOMEM;
    for (i = 0; i < p->nstreams; i++)
        p->stream_calls[i] = cm_bin_get64(r);
    p->events = cm_bin_get64(r);
    for (i = 0; i < NR_SKIPS; i++)
        p->skipped[i] = cm_bin_get64(r);
    p->readdir_restarted = cm_bin_get64(r);
    p->v4_opens_in_use = cm_bin_get64(r);
    p->trace_ns = (int64_t)cm_bin_get64(r);
    p->ncounters = cm_bin_get32(r);
    if (p->ncounters > TR_MAX_COUNTERS)
        return -EINVAL;
    for (i = 0; i < p->ncounters; i++) {
        get_str(r, p->counters[i].name, sizeof(p->counters[i].name));
        p->counters[i].n = cm_bin_get64(r);
    }
    for (i = 0; i <= NF_NOPS; i++)
        get_hist(r, &p->traced[i]);
    *image_off = cm_bin_get64(r);
    p->calls_off = cm_bin_get64(r);
    p->calls_end = cm_bin_get64(r);
    index_off = cm_bin_get64(r);
    p->nindex = cm_bin_get32(r);
    lookahead = cm_bin_get32(r);
    if (r->short_read || lookahead != NR_LOOKAHEAD || *image_off != HEAD_BYTES ||
        p->calls_off > p->calls_end || p->calls_end != index_off || index_off > size ||
        p->nindex != (p->nrecords + NR_INDEX_STEP - 1) / NR_INDEX_STEP ||
        p->ncalls > p->nrecords || p->nsids > (1u << 30) || p->nowners > (1u << 30) ||
        (p->nfs_version < 2 || p->nfs_version > 4))
        return -EINVAL;
    p->index_off = cm_calloc((size_t)p->nindex + 1, sizeof(*p->index_off));
    p->index_t = cm_calloc((size_t)p->nindex + 1, sizeof(*p->index_t));
    if (!p->index_off || !p->index_t)
        return -ENOMEM;
    if (fseeko(r->f, (off_t)index_off, SEEK_SET) < 0)
        return -EIO;
    for (i = 0; i < p->nindex; i++) {
        p->index_off[i] = cm_bin_get64(r);
        p->index_t[i] = (int64_t)cm_bin_get64(r);
        if (p->index_off[i] < p->calls_off || p->index_off[i] > p->calls_end)
            return -EINVAL;
    }
    return r->short_read ? -EINVAL : 0;
}

/* The capture the plan was made from, when it is there, must be the same
 * file: its size and the hash of its start and end. */
static int check_capture(const struct nr_plan *p, uint64_t size, uint64_t hash, char *err,
                         size_t errlen)
{
    uint64_t s, h;
    int rc = nr__capture_id(p->capture, &s, &h);

    if (rc == -ENOENT)
        return 0; /* copied without its capture: the plan stands alone */
    if (rc < 0)
        return cm_errf(err, errlen, "%s: its capture %s: %s", p->file, p->capture,
                       strerror(-rc)),
               rc;
    if (s != size || h != hash)
        return cm_errf(err, errlen,
                       "%s was planned from %s as it was (%llu bytes); the file there "
                       "now (%llu bytes) is another: plan it again (sfs_trace plan)",
                       p->file, p->capture, (unsigned long long)size,
                       (unsigned long long)s),
               -ESTALE;
    return 0;
}

int nr__file_read(struct nr_plan *p, int fd, int check, char *err, size_t errlen)
{
    struct cm_bin_reader r;
    struct stat st;
    uint8_t head[HEAD_BYTES];
    uint64_t trailer, image_off = 0, csize = 0, chash = 0;
    int rc, fd2 = dup(fd);

    if (fd2 < 0)
        return cm_errf(err, errlen, "%s: %s", p->file, strerror(errno)), -errno;
    r.f = fdopen(fd2, "rb");
    r.short_read = 0;
    if (!r.f) {
        close(fd2);
        return cm_errf(err, errlen, "%s: %s", p->file, strerror(errno)), -EIO;
    }
    if (fstat(fd, &st) < 0 || (uint64_t)st.st_size < HEAD_BYTES + 8 ||
        pread(fd, head, HEAD_BYTES, 0) != (ssize_t)HEAD_BYTES ||
        memcmp(head, MAGIC, 8) != 0) {
        fclose(r.f);
        return cm_errf(err, errlen, "%s: not a plan file (sfs_trace plan writes them)",
                       p->file),
               -EINVAL;
    }
    p->version = cm_be32_get(head + 8);
    if (p->version < OLDEST || p->version > VERSION) {
        fclose(r.f);
        return cm_errf(
                   err, errlen,
                   "%s: a plan of version %u; this FreeSFS reads versions %u to %u: plan "
                   "the capture again",
                   p->file, p->version, OLDEST, VERSION),
               -EINVAL;
    }
    rc = fseeko(r.f, st.st_size - 8, SEEK_SET) < 0 ? -EIO : 0;
    trailer = rc == 0 ? cm_bin_get64(&r) : 0;
    if (rc == 0 && (r.short_read || trailer >= (uint64_t)st.st_size ||
                    fseeko(r.f, (off_t)trailer, SEEK_SET) < 0))
        rc = -EINVAL;
    if (rc == 0)
        rc = trailer_in(&r, p, &image_off, &csize, &chash, (uint64_t)st.st_size);
    if (rc == -EPROTONOSUPPORT) {
        fclose(r.f);
        return cm_errf(err, errlen,
                       "%s: an NFSv4 plan of version %u, made before the replay followed "
                       "the traced opens and CLOSEs: plan the capture again "
                       "(sfs_trace plan --nfs-version 4)",
                       p->file, p->version),
               -EINVAL;
    }
    if (rc == 0 && fseeko(r.f, (off_t)image_off, SEEK_SET) < 0)
        rc = -EIO;
    if (rc < 0) {
        fclose(r.f);
        return cm_errf(err, errlen, "%s: %s", p->file,
                       rc == -ENOMEM ? "out of memory" : "a damaged plan file"),
               rc;
    }
    rc = im_load(&p->img, r.f, err, errlen);
    fclose(r.f);
    if (rc < 0) {
        char why[CM_ERR_LEN];

        snprintf(why, sizeof(why), "%s", err);
        return cm_errf(err, errlen, "%s: %s", p->file, why), rc;
    }
    p->fd = fd;
    return check ? check_capture(p, csize, chash, err, errlen) : 0;
}

/* ---- the call stream -------------------------------------------------------- */

int nr_stream_open(struct nr_stream *s, const struct nr_plan *p, uint64_t from, char *err,
                   size_t errlen)
{
    uint32_t k = (uint32_t)(from / NR_INDEX_STEP);
    struct nr_call c;
    int rc = 0;

    memset(s, 0, sizeof(*s));
    s->p = p;
    s->cap = STREAM_READ + NAMES_MAX + 64;
    s->buf = cm_malloc(s->cap);
    s->names = cm_malloc(NAMES_MAX);
    if (!s->buf || !s->names) {
        nr_stream_close(s);
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    if (from > 0 && k < p->nindex) {
        s->off = p->index_off[k];
        s->t = p->index_t[k];
        s->next = (uint64_t)k * NR_INDEX_STEP;
    } else {
        s->off = p->calls_off;
    }
    while (s->next < from && (rc = nr_stream_next(s, &c, err, errlen)) > 0)
        ;
    return rc < 0 ? rc : 0;
}

void nr_stream_close(struct nr_stream *s)
{
    free(s->buf);
    free(s->names);
    s->buf = NULL;
    s->names = NULL;
}

/* At least `want` bytes undecoded in the buffer (fewer at the end). */
static int fill(struct nr_stream *s, size_t want)
{
    uint64_t at, left;
    ssize_t n;

    if (s->len - s->pos >= want)
        return 0;
    memmove(s->buf, s->buf + s->pos, s->len - s->pos);
    s->off += s->pos;
    s->len -= s->pos;
    s->pos = 0;
    at = s->off + s->len;
    left = s->p->calls_end > at ? s->p->calls_end - at : 0;
    while (s->len < want && left > 0) {
        size_t room = s->cap - s->len < left ? s->cap - s->len : (size_t)left;

        n = pread(s->p->fd, s->buf + s->len, room, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -EIO;
        s->len += (size_t)n;
        at += (uint64_t)n;
        left -= (uint64_t)n;
    }
    return 0;
}

/* The next LEB128 number; sets *bad at the buffer's end or past 64 bits. */
static uint64_t num(struct nr_stream *s, int *bad)
{
    uint64_t v = 0;
    unsigned shift = 0;

    for (;;) {
        uint8_t b;

        if (s->pos >= s->len || shift > 63) {
            *bad = 1;
            return 0;
        }
        b = s->buf[s->pos++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
        shift += 7;
    }
}

/* An id + 1 below n, or 0 (NR_NONE). */
static uint32_t id_of(uint64_t v, uint64_t n, int *bad)
{
    if (v == 0)
        return NR_NONE;
    if (v > n)
        *bad = 1;
    return (uint32_t)(v - 1);
}

static const char *name_of(struct nr_stream *s, char *at, size_t max, int *bad)
{
    uint64_t n = num(s, bad);

    if (*bad || n == 0)
        return NULL;
    if (n - 1 >= max || s->len - s->pos < n - 1) {
        *bad = 1;
        return NULL;
    }
    memcpy(at, s->buf + s->pos, (size_t)(n - 1));
    at[n - 1] = '\0';
    s->pos += (size_t)(n - 1);
    return at;
}

int nr_stream_next(struct nr_stream *s, struct nr_call *c, char *err, size_t errlen)
{
    const struct nr_plan *p = s->p;
    uint64_t nobj = im_nobjs(p->img), v, nd;
    int bad = 0, rc;
    unsigned k;

    if (s->next >= p->nrecords)
        return 0;
    rc = fill(s, STREAM_READ / 2);
    if (rc < 0)
        return cm_errf(err, errlen, "%s: %s", p->file, strerror(-rc)), rc;
    memset(c, 0, sizeof(*c));
    c->t_ns = s->t + unzigzag(num(s, &bad));
    v = num(s, &bad);
    c->op = (int8_t)(v - 1);
    if (v == 0 || v > NF_NOPS)
        bad = 1;
    c->proc = (uint16_t)num(s, &bad);
    c->obj = id_of(num(s, &bad), nobj, &bad);
    c->obj2 = id_of(num(s, &bad), nobj, &bad);
    c->res_obj = id_of(num(s, &bad), nobj, &bad);
    v = num(s, &bad);
    c->status = v == 0 ? NR_NO_REPLY : (uint32_t)(v - 1);
    c->rt_us = (uint32_t)num(s, &bad);
    c->offset = num(s, &bad);
    c->size = num(s, &bad);
    c->count = (uint32_t)num(s, &bad);
    c->access = (uint32_t)num(s, &bad);
    c->how = (uint32_t)num(s, &bad);
    c->sattr = (uint8_t)num(s, &bad);
    c->mode = (uint32_t)num(s, &bad);
    c->uid = (uint32_t)num(s, &bad);
    c->gid = (uint32_t)num(s, &bad);
    c->ftype = (uint8_t)num(s, &bad);
    v = num(s, &bad);
    c->stream = (uint32_t)v;
    if (v >= p->nstreams)
        bad = 1;
    c->sid = c->res_sid = NR_NONE;
    if (p->version >= 4) {
        v = num(s, &bad);
        c->v4 = (uint8_t)v;
        if (v > NR_V4_DOWNGRADE || (v != NR_V4_CALL && c->op != NF_OP_NULL_OP))
            bad = 1;
        c->sid = id_of(num(s, &bad), p->nsids, &bad);
        c->res_sid = id_of(num(s, &bad), p->nsids, &bad);
        v = num(s, &bad);
        c->owner = (uint32_t)v;
        if (v > p->nowners)
            bad = 1;
        v = num(s, &bad);
        c->share = (uint8_t)v;
        if (v > 15)
            bad = 1;
    }
    nd = num(s, &bad);
    if (nd > NR_DEPS)
        bad = 1;
    for (k = 0; k < nd && !bad; k++) {
        v = num(s, &bad);
        if (v == 0 || v >= NR_LOOKAHEAD || v > s->next)
            bad = 1;
        c->dep[k] = (uint32_t)v;
    }
    c->name = name_of(s, s->names, TR_NFS_NAME_MAX, &bad);
    c->name2 = name_of(s, s->names + TR_NFS_PATH_MAX, TR_NFS_NAME_MAX, &bad);
    c->text = name_of(s, s->names + 2 * TR_NFS_PATH_MAX, TR_NFS_PATH_MAX, &bad);
    if (bad)
        return cm_errf(err, errlen, "%s: a damaged plan file (call %llu)", p->file,
                       (unsigned long long)s->next),
               -EINVAL;
    s->t = c->t_ns;
    s->next++;
    return 1;
}
