/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs.c - the NFS trace reader's front end (tr_nfs.h): the table of
 * formats (docs/STYLE.md 2.5: each format is a struct tr__nfs_format the
 * core holds as data), opening a path or a caller's stream, detection from
 * the first bytes, the loop that feeds one line or packet at a time to the
 * pairing until an event may be released, the named counters, and the
 * error and damage helpers the formats call.  The formats live in
 * tr_nfs_text.c and tr_nfs_pcap.c, the pairing in tr_nfs_pair.c, the host
 * table in tr_nfs_hosts.c.
 */
#define _GNU_SOURCE /* fopencookie: a pipe's first bytes put back */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"

static const struct tr__nfs_format *const formats[] = {
    &tr__nfs_pcap_format,
    &tr__nfs_text_format,
};

static const char *const counter_names[TR__C_COUNT] = {
#define TR__NFS_CNAME(sym, name) name,
    TR__NFS_COUNTERS(TR__NFS_CNAME)
#undef TR__NFS_CNAME
};

/* ---- errors and warnings -------------------------------------------------- */

static void vformat(struct tr_nfs_reader *r, char *buf, size_t len, uint64_t where,
                    const char *sev, const char *fmt, va_list ap)
{
    int n;

    if (where == 0)
        n = snprintf(buf, len, "%s: %s: ", r->file, sev);
    else if (r->text)
        n = snprintf(buf, len, "%s:%llu: %s: ", r->file, (unsigned long long)where, sev);
    else
        n = snprintf(buf, len, "%s: frame %llu: %s: ", r->file, (unsigned long long)where,
                     sev);
    if (n >= 0 && (size_t)n < len)
        vsnprintf(buf + n, len - (size_t)n, fmt, ap);
}

int tr__nfs_error(struct tr_nfs_reader *r, uint64_t where, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vformat(r, r->last_error, sizeof(r->last_error), where, "error", fmt, ap);
    va_end(ap);
    return -EINVAL;
}

int tr__nfs_damage(struct tr_nfs_reader *r, enum tr__nfs_counter c)
{
    if (!r->opt.lenient)
        return -EINVAL;
    r->cnt[c]++;
    if (r->text)
        r->cnt[TR__C_SKIPPED]++;
    if (r->opt.warn)
        r->opt.warn(r->opt.warn_data, r->last_error);
    return 0;
}

/* ---- opening -------------------------------------------------------------- */

/* A stream that gives back the bytes detection read from a pipe, then the
 * rest of the pipe: libpcap and the text reader both start at byte 0. */
struct prefixed {
    FILE *fp;
    unsigned char head[8];
    size_t n, pos;
};

static ssize_t prefixed_read(void *cookie, char *buf, size_t size)
{
    struct prefixed *p = cookie;
    size_t k = 0;

    while (p->pos < p->n && k < size)
        buf[k++] = (char)p->head[p->pos++];
    if (k < size)
        k += fread(buf + k, 1, size - k, p->fp);
    return (ssize_t)k;
}

static int prefixed_close(void *cookie)
{
    free(cookie);
    return 0;
}

FILE *tr__stream_borrow(FILE *fp)
{
    cookie_io_functions_t io = {prefixed_read, NULL, NULL, prefixed_close};
    struct prefixed *p = cm_calloc(1, sizeof(*p));
    FILE *f;

    if (!p)
        return NULL;
    p->fp = fp;
    f = fopencookie(p, "rb", io);
    if (!f)
        free(p);
    return f;
}

/* Reads the first bytes of fp into magic and puts them back: by seeking,
 * or (a pipe) by a stream that replays them, returned in *wrapped.
 * Returns how many bytes were read, or -errno. */
static int peek_magic(FILE **fp, FILE **wrapped, unsigned char *magic, size_t want)
{
    cookie_io_functions_t io = {prefixed_read, NULL, NULL, prefixed_close};
    size_t n = fread(magic, 1, want, *fp);
    struct prefixed *p;

    *wrapped = NULL;
    if (n == 0)
        return ferror(*fp) ? -EIO : 0;
    if (fseek(*fp, -(long)n, SEEK_CUR) == 0)
        return (int)n;
    clearerr(*fp);
    p = cm_calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->fp = *fp;
    memcpy(p->head, magic, n);
    p->n = n;
    *wrapped = fopencookie(p, "rb", io);
    if (!*wrapped) {
        free(p);
        return -ENOMEM;
    }
    *fp = *wrapped;
    return (int)n;
}

static int open_common(struct tr_nfs_reader **out, FILE *fp, FILE *owned,
                       const char *name, const struct tr_nfs_options *opt, char *err,
                       size_t errlen)
{
    struct tr_nfs_reader *r = cm_calloc(1, sizeof(*r));
    const char *fmt = opt && opt->format && *opt->format ? opt->format : "auto";
    size_t i;
    int rc;

    if (!r || !(r->file = cm_strdup(name))) {
        free(r);
        if (owned)
            fclose(owned);
        return cm_report_nomem(NULL, name, err, errlen);
    }
    if (opt)
        r->opt = *opt;
    r->fp = fp;
    r->owned_fp = owned;
    if (r->opt.pair_window_ns <= 0)
        r->opt.pair_window_ns = TR_NFS_PAIR_WINDOW_NS;
    if (r->opt.max_pending == 0)
        r->opt.max_pending = 65536;
    {
        unsigned char magic[4];
        rc = peek_magic(&r->fp, &r->wrapped_fp, magic, sizeof(magic));
        if (rc <= 0) {
            if (rc == 0)
                rc = cm_errf(err, errlen, "%s: no records (empty file)", name);
            else
                cm_errf(err, errlen, "%s: %s", name, strerror(-rc));
            goto fail;
        }
        memcpy(r->magic, magic, (size_t)rc);
        /* text whose first line 4 bytes cannot tell is read as nfsdump */
        if (strcmp(fmt, "auto") == 0 && !tr_nfs_probe(magic, (size_t)rc, &fmt))
            fmt = "nfsdump";
    }
    if (strcmp(fmt, "pcapng") == 0)
        fmt = "pcap"; /* libpcap reads both */
    for (i = 0; i < CM_ARRAY_LEN(formats) && !r->fmt; i++)
        if (strcmp(fmt, formats[i]->name) == 0)
            r->fmt = formats[i];
    if (!r->fmt) {
        rc = cm_errf(err, errlen, "unknown NFS trace format '%s' (pcap, nfsdump or auto)",
                     fmt);
        goto fail;
    }
    rc = r->fmt->open(r, err, errlen);
    if (rc < 0)
        goto fail;
    rc = tr__pair_init(&r->pair, r->opt.pair_window_ns, r->opt.max_pending);
    if (rc < 0) {
        cm_report_nomem(NULL, name, err, errlen);
        goto fail;
    }
    *out = r;
    return 0;
fail:
    tr_nfs_close(r);
    return rc;
}

int tr_nfs_open(struct tr_nfs_reader **r, const char *path,
                const struct tr_nfs_options *opt, char *err, size_t errlen)
{
    FILE *fp;

    *r = NULL;
    if (strcmp(path, "-") == 0)
        return open_common(r, stdin, NULL, "-", opt, err, errlen);
    fp = fopen(path, "rb");
    if (!fp) {
        int rc = -errno;
        cm_errf(err, errlen, "%s: %s", path, strerror(errno));
        return rc;
    }
    return open_common(r, fp, fp, path, opt, err, errlen);
}

int tr_nfs_open_fp(struct tr_nfs_reader **r, FILE *fp, const char *name,
                   const struct tr_nfs_options *opt, char *err, size_t errlen)
{
    *r = NULL;
    return open_common(r, fp, NULL, name ? name : "-", opt, err, errlen);
}

int tr_nfs_open_live(struct tr_nfs_reader **out, const struct tr_nfs_live *live,
                     const struct tr_nfs_options *opt, char *err, size_t errlen)
{
    struct tr_nfs_reader *r;
    int rc;

    *out = NULL;
    if (!live->interface || !*live->interface)
        return cm_errf(err, errlen, "live capture: no interface given"), -EINVAL;
    r = cm_calloc(1, sizeof(*r));
    if (!r || !(r->file = cm_strdup(live->interface))) {
        free(r);
        return cm_report_nomem(NULL, live->interface, err, errlen);
    }
    if (opt)
        r->opt = *opt;
    if (r->opt.pair_window_ns <= 0)
        r->opt.pair_window_ns = TR_NFS_PAIR_WINDOW_NS;
    if (r->opt.max_pending == 0)
        r->opt.max_pending = 65536;
    r->fmt = &tr__nfs_pcap_format;
    rc = r->fmt->open_live(r, live, err, errlen);
    if (rc == 0 && tr__pair_init(&r->pair, r->opt.pair_window_ns, r->opt.max_pending) < 0)
        rc = cm_report_nomem(NULL, live->interface, err, errlen);
    if (rc < 0) {
        tr_nfs_close(r);
        return rc;
    }
    *out = r;
    return 0;
}

int tr_nfs_live_drops(const struct tr_nfs_reader *r, struct tr_nfs_drops *d)
{
    memset(d, 0, sizeof(*d));
    return r->fmt && r->fmt->drops ? r->fmt->drops(r, d) : -ENOTSUP;
}

void tr_nfs_close(struct tr_nfs_reader *r)
{
    if (!r)
        return;
    if (r->fmt)
        r->fmt->close(r);
    tr__pair_free(&r->pair);
    tr__hosts_free(&r->hosts);
    if (r->wrapped_fp)
        fclose(r->wrapped_fp);
    if (r->owned_fp)
        fclose(r->owned_fp);
    free(r->file);
    free(r);
}

int tr_nfs_probe(const unsigned char *buf, size_t len, const char **format)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(formats); i++)
        if (formats[i]->probe(buf, len)) {
            *format = formats[i]->name;
            return 2;
        }
    *format = NULL;
    return 0;
}

/* ---- reading -------------------------------------------------------------- */

int tr_nfs_next(struct tr_nfs_reader *r, struct tr_nfs_event *ev)
{
    int rc;

    if (r->failed)
        return r->failed;
    for (;;) {
        rc = tr__pair_next(r, r->eof, ev);
        if (rc > 0) {
            if (!r->origin_set) {
                r->origin_ns = ev->t_ns;
                r->origin_set = 1;
            }
            ev->t_ns -= r->origin_ns;
            if (ev->flags & TR_NFS_F_REPLY)
                ev->reply_t_ns -= r->origin_ns;
            else
                ev->reply_t_ns = 0;
            return 1;
        }
        if (rc < 0)
            break;
        if (r->eof)
            return 0;
        rc = r->fmt->step(r);
        if (rc < 0)
            break;
        if (rc == 0)
            r->eof = 1;
    }
    if (rc == -ENOMEM)
        tr__nfs_error(r, 0, "out of memory");
    else if (rc == -E2BIG)
        tr__nfs_error(r, 0, "more than %u hosts: not an NFS trace this reader can hold",
                      TR__HOSTS_MAX);
    r->failed = rc;
    return rc;
}

const char *tr_nfs_error(const struct tr_nfs_reader *r)
{
    return r->last_error;
}

const char *tr_nfs_format(const struct tr_nfs_reader *r)
{
    return r->format;
}

int64_t tr_nfs_origin_ns(const struct tr_nfs_reader *r)
{
    return r->origin_ns;
}

const struct tr_counter *tr_nfs_counters(const struct tr_nfs_reader *r, unsigned *n)
{
    struct tr_nfs_reader *w = (struct tr_nfs_reader *)r; /* the output cache */
    unsigned i, k = 0;

    for (i = 0; i < TR__C_COUNT; i++)
        if (r->cnt[i] || r->restored[i]) {
            snprintf(w->out[k].name, sizeof(w->out[k].name), "%s", counter_names[i]);
            w->out[k++].n = r->cnt[i] > r->restored[i] ? r->cnt[i] : r->restored[i];
        }
    *n = k;
    return w->out;
}

uint64_t tr_nfs_counter(const struct tr_nfs_reader *r, const char *name)
{
    unsigned i;

    for (i = 0; i < TR__C_COUNT; i++)
        if (strcmp(counter_names[i], name) == 0)
            return r->cnt[i] > r->restored[i] ? r->cnt[i] : r->restored[i];
    return 0;
}
