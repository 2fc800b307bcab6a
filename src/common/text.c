/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text.c - the FILE:LINE text reader of text.h: whole small files read into
 * memory, walked line by line with line numbers, and diagnostics in the
 * "NAME:LINE: error: message" form every input parser of the project uses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "common/alloc.h"

void cm_text_init(struct cm_text *t, const char *name, const char *text, size_t len,
                  FILE *diag, char *err, size_t errlen)
{
    t->name = name;
    t->p = text;
    t->end = text + len;
    t->line = 0;
    t->truncated = 0;
    t->buf[0] = '\0';
    t->diag = diag;
    t->err = err;
    t->errlen = errlen;
    t->errors = 0;
    if (err && errlen)
        err[0] = '\0';
}

static void text_report(struct cm_text *t, long line, enum cm_severity sev,
                        const char *fmt, va_list ap)
{
    struct cm_pos pos = {t->name, line, -1};
    char msg[512];

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (t->diag)
        cm_report(t->diag, &pos, sev, "%s", msg);
    if (sev == CM_ERROR && t->errors++ == 0 && t->err)
        cm_report_buf(t->err, t->errlen, &pos, sev, "%s", msg);
}

void cm_text_error(struct cm_text *t, long line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    text_report(t, line, CM_ERROR, fmt, ap);
    va_end(ap);
}

void cm_text_warning(struct cm_text *t, long line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    text_report(t, line, CM_WARNING, fmt, ap);
    va_end(ap);
}

long cm_text_nul(const char *text, size_t len, long *col)
{
    const char *nul = memchr(text, '\0', len), *p, *start = text;
    long line = 1;

    if (nul == NULL)
        return 0;
    for (p = text; p < nul; p++)
        if (*p == '\n') {
            line++;
            start = p + 1;
        }
    if (col)
        *col = (long)(nul - start) + 1;
    return line;
}

const char *cm_text_next(struct cm_text *t, long *line)
{
    const char *nl;
    size_t n;

    for (;;) {
        long col;

        if (t->p >= t->end)
            return NULL;
        nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
        n = (size_t)((nl ? nl : t->end) - t->p);
        if (cm_text_nul(t->p, n, &col) == 0)
            break;
        /* a NUL would silently cut the line: the line is an error, and
         * the parser never sees it */
        t->p = nl ? nl + 1 : t->end;
        t->line++;
        cm_text_error(t, t->line, "a NUL byte at column %ld (a text file holds none)",
                      col);
    }
    t->truncated = n >= sizeof(t->buf);
    if (t->truncated)
        n = sizeof(t->buf) - 1;
    memcpy(t->buf, t->p, n);
    if (n > 0 && t->buf[n - 1] == '\r')
        n--;
    t->buf[n] = '\0';
    t->p = nl ? nl + 1 : t->end;
    t->line++;
    if (line)
        *line = t->line;
    return t->buf;
}

int cm_text_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

static int text_read(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    const size_t max = 16u << 20;
    size_t cap = 4096, n = 0;
    char *buf;
    FILE *fp;
    int rc = 0;

    *text = NULL;
    *len = 0;
    fp = fopen(path, "rb");
    if (!fp) {
        rc = -errno;
        cm_errf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    buf = cm_malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, fp);

        n += got;
        if (n < cap)
            break;
        if (cap >= max) {
            rc = -EFBIG;
            cm_errf(err, errlen, "%s: file larger than %zu bytes", path, max);
            break;
        }
        cap *= 2;
        {
            char *nb = cm_realloc(buf, cap + 1);

            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    if (!buf) {
        rc = -ENOMEM;
        cm_errf(err, errlen, "%s: out of memory", path);
    } else if (ferror(fp) && rc == 0) {
        rc = -EIO;
        cm_errf(err, errlen, "%s: read error", path);
    }
    fclose(fp);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    {
        long col, line = cm_text_nul(buf, n, &col);

        if (line > 0) {
            /* every value after it would be cut at the NUL */
            cm_errf(err, errlen,
                    "%s:%ld: a NUL byte at column %ld: not a text file (a text "
                    "file holds none)",
                    path, line, col);
            free(buf);
            return -EILSEQ;
        }
    }
    *text = buf;
    *len = n;
    return 0;
}

int cm_text_read(const char *path, char **text, size_t *len, FILE *diag, char *err,
                 size_t errlen)
{
    char own[CM_ERR_LEN];
    int rc;

    if (err == NULL || errlen == 0) { /* the message still reaches diag */
        err = own;
        errlen = sizeof(own);
    }
    rc = text_read(path, text, len, err, errlen);
    if (rc < 0 && diag)
        fprintf(diag, "%s\n", err);
    return rc;
}

int cm_text_parse_file(const char *path, cm_text_parse_fn parse, void *ctx, FILE *diag,
                       char *err, size_t errlen)
{
    char *text;
    size_t len;
    int rc = cm_text_read(path, &text, &len, diag, err, errlen);

    if (rc < 0)
        return rc;
    rc = parse(ctx, path, text, len, diag, err, errlen);
    free(text);
    return rc;
}
