/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reader.c - the reader front end: the table of formats, detection from the
 * first bytes, opening on a path, stdin or a caller's FILE*, and the
 * helpers that give every reader the same error, warning and counter
 * behaviour (docs/TRACE_FORMATS.md section 1: strict and lenient modes, counted
 * never silent).  Format code lives in spc.c, masta.c and sysio.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace/tr_int.h"

static const struct tr_reader_ops *const formats[] = {
    &tr__spc_ops,
    &tr__masta_ops,
    &tr__sysio_ops,
};

/* How many bytes detection looks at. */
#define PROBE_BYTES 4096

const struct tr_reader_ops *tr_find_format(const char *name)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(formats); i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

const struct tr_reader_ops *tr_probe(const unsigned char *buf, size_t len)
{
    const struct tr_reader_ops *best = NULL;
    int best_score = 0, tie = 0;
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(formats); i++) {
        int s = formats[i]->probe(buf, len);
        if (s > best_score) {
            best = formats[i];
            best_score = s;
            tie = 0;
        } else if (s == best_score && s > 0) {
            tie = 1;
        }
    }
    return tie ? NULL : best;
}

void tr_probe_explain(const unsigned char *buf, size_t len, char *why, size_t whylen)
{
    static const char *const titles[CM_ARRAY_LEN(formats)] = {"SPC", "MaStA", "sysio"};
    size_t i, used, skip = 0;
    long line = 1;

    /* The first non-blank line, as the text formats' probes see it. */
    for (i = 0;
         i < len && (buf[i] == '\n' || buf[i] == '\r' || buf[i] == ' ' || buf[i] == '\t');
         i++) {
        if (buf[i] == '\n') {
            line++;
            skip = i + 1;
        }
    }
    used = (size_t)snprintf(why, whylen, "line %ld:", line);
    for (i = 0; i < CM_ARRAY_LEN(formats) && used < whylen; i++) {
        char one[256];
        /* MaStA is binary: its first entry is at offset 0, blank or not */
        int binary = formats[i] == &tr__masta_ops;

        formats[i]->explain(binary ? buf : buf + skip, binary ? len : len - skip, one,
                            sizeof(one));
        used += (size_t)snprintf(why + used, whylen - used, "%s not %s: %s", i ? ";" : "",
                                 titles[i], one);
    }
    if (used < whylen) {
        const char *nfs = tr__nfs_text_why_not(buf + skip, len - skip);
        snprintf(why + used, whylen - used, "; not nfsdump: %s", nfs ? nfs : "?");
    }
}

const char *tr_op_name(enum tr_op op)
{
    static const char *const names[TR_OP__COUNT] = {
        [TR_OP_READ] = "read", [TR_OP_WRITE] = "write",     [TR_OP_SYNC] = "sync",
        [TR_OP_OPEN] = "open", [TR_OP_GETATTR] = "getattr",
    };
    return (unsigned)op < TR_OP__COUNT ? names[op] : "?";
}

int tr_reader_open(struct tr_reader *r, const char *path, FILE *fp,
                   const struct tr_options *opt, char *err, size_t errlen)
{
    const struct tr_reader_ops *ops = NULL;
    int rc;

    memset(r, 0, sizeof(*r));
    if (opt)
        r->opt = *opt;
    if (r->opt.spc_lba_size == 0)
        r->opt.spc_lba_size = 512;
    r->file = path ? path : "-";
    if (r->opt.format && *r->opt.format && strcmp(r->opt.format, "auto") != 0) {
        ops = tr_find_format(r->opt.format);
        if (!ops)
            return cm_errf(err, errlen, "unknown trace format '%s' (spc, masta or sysio)",
                           r->opt.format);
    }
    if (!fp) {
        if (strcmp(r->file, "-") == 0) {
            fp = stdin;
        } else {
            fp = fopen(r->file, "rb");
            if (!fp) {
                rc = -errno;
                cm_errf(err, errlen, "%s: %s", r->file, strerror(errno));
                return rc;
            }
            r->owned_fp = fp;
        }
    }
    rc = tr__in_init(&r->in, fp);
    if (rc < 0) {
        cm_errf(err, errlen, "%s: out of memory", r->file);
        goto fail;
    }
    if (!ops) {
        size_t n = tr__in_peek(&r->in, PROBE_BYTES);
        if (n == 0) {
            rc = cm_errf(err, errlen, "%s: no records (empty file)", r->file);
            goto fail;
        }
        ops = tr_probe(r->in.buf + r->in.pos, n);
        if (!ops) {
            char why[CM_ERR_LEN];
            tr_probe_explain(r->in.buf + r->in.pos, n, why, sizeof(why));
            rc = cm_errf(err, errlen,
                         "%s: cannot tell the trace format (use --format "
                         "spc|masta|sysio|nfsdump|pcap): %s",
                         r->file, why);
            goto fail;
        }
    }
    r->ops = ops;
    rc = ops->open(r);
    if (rc < 0) {
        cm_errf(err, errlen, "%s", r->last_error);
        goto fail;
    }
    return 0;
fail:
    tr__in_free(&r->in);
    if (r->owned_fp)
        fclose(r->owned_fp);
    r->owned_fp = NULL;
    return rc;
}

int tr_reader_next(struct tr_reader *r, struct tr_record *rec)
{
    int rc;

    memset(rec, 0, sizeof(*rec));
    rc = r->ops->next(r, rec);
    if (rc > 0)
        r->records++;
    return rc;
}

void tr_reader_close(struct tr_reader *r)
{
    if (!r->ops)
        return;
    r->ops->close(r);
    tr__in_free(&r->in);
    if (r->owned_fp)
        fclose(r->owned_fp);
    r->owned_fp = NULL;
    r->ops = NULL;
}

const char *tr_reader_format(const struct tr_reader *r)
{
    return r->ops ? r->ops->name : "?";
}

const char *tr_reader_unit_name(const struct tr_reader *r, uint32_t unit, char *buf,
                                size_t len)
{
    return r->ops->unit_name(r, unit, buf, len);
}

const char *tr_reader_where(const struct tr_reader *r, long line, char *buf, size_t len)
{
    if (r->ops == &tr__masta_ops)
        snprintf(buf, len, "%s: entry %ld (offset %llu)", r->file, line,
                 (unsigned long long)line * 8);
    else
        snprintf(buf, len, "%s:%ld", r->file, line);
    return buf;
}

/* ---- errors, warnings, counters ----------------------------------------- */

int tr__error(struct tr_reader *r, long line, const char *fmt, ...)
{
    char msg[CM_ERR_LEN];
    struct cm_pos pos = {r->file, line, -1};
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cm_report_buf(r->last_error, sizeof(r->last_error), &pos, CM_ERROR, "%s", msg);
    return -EINVAL;
}

int tr__nomem(struct tr_reader *r, long line)
{
    tr__error(r, line, "out of memory");
    return -ENOMEM;
}

int tr__error_entry(struct tr_reader *r, uint64_t entry, uint64_t offset, const char *fmt,
                    ...)
{
    char msg[CM_ERR_LEN];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cm_errf(r->last_error, sizeof(r->last_error),
            "%s: entry %llu (offset %llu): error: %s", r->file, (unsigned long long)entry,
            (unsigned long long)offset, msg);
    return -EINVAL;
}

int tr__malformed(struct tr_reader *r)
{
    if (!r->opt.lenient)
        return -EINVAL;
    r->skipped++;
    if (r->opt.warn)
        r->opt.warn(r->opt.warn_data, r->last_error);
    return 0;
}

void tr__warn_text(struct tr_reader *r, const char *msg)
{
    r->warnings++;
    if (r->opt.warn)
        r->opt.warn(r->opt.warn_data, msg);
}

void tr__warn(struct tr_reader *r, long line, const char *fmt, ...)
{
    char msg[CM_ERR_LEN], full[CM_ERR_LEN + 64];
    struct cm_pos pos = {r->file, line, -1};
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cm_report_buf(full, sizeof(full), &pos, CM_WARNING, "%s", msg);
    tr__warn_text(r, full);
}

void tr__count_max(struct tr_reader *r, const char *name, uint64_t v)
{
    unsigned i;

    for (i = 0; i < r->ncounters; i++)
        if (strcmp(r->counters[i].name, name) == 0) {
            if (v > r->counters[i].n)
                r->counters[i].n = v;
            return;
        }
    tr__count(r, name, v);
}

void tr__count(struct tr_reader *r, const char *name, uint64_t n)
{
    unsigned i;

    for (i = 0; i < r->ncounters; i++)
        if (strcmp(r->counters[i].name, name) == 0) {
            r->counters[i].n += n;
            return;
        }
    if (r->ncounters == TR_MAX_COUNTERS) {
        /* Table full (many distinct unknown names): fold into one row. */
        i = TR_MAX_COUNTERS - 1;
        snprintf(r->counters[i].name, sizeof(r->counters[i].name), "other");
        r->counters[i].n += n;
        return;
    }
    snprintf(r->counters[i].name, sizeof(r->counters[i].name), "%s", name);
    r->counters[i].n = n;
    r->ncounters++;
}
