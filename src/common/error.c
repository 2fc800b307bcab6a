/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * error.c - error text and the "FILE:LINE: message" reporter (common layer).
 * Every parser of user input reports through cm_report so that all of them
 * print positions the same way; library code formats into buffers instead.
 */
#include "common/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int cm_errf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;

    if (buf == NULL || len == 0)
        return -EINVAL;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

static int format_pos(char *buf, size_t len, const struct cm_pos *pos,
                      enum cm_severity sev)
{
    const char *tag = sev == CM_ERROR ? "error" : "warning";

    if (pos == NULL || pos->file == NULL)
        return snprintf(buf, len, "%s: ", tag);
    if (pos->line > 0)
        return snprintf(buf, len, "%s:%ld: %s: ", pos->file, pos->line, tag);
    if (pos->offset >= 0)
        return snprintf(buf, len, "%s: byte %ld: %s: ", pos->file, pos->offset, tag);
    return snprintf(buf, len, "%s: %s: ", pos->file, tag);
}

static void vreport_buf(char *buf, size_t len, const struct cm_pos *pos,
                        enum cm_severity sev, const char *fmt, va_list ap)
{
    int n = format_pos(buf, len, pos, sev);

    if (n < 0 || (size_t)n >= len)
        return;
    vsnprintf(buf + n, len - (size_t)n, fmt, ap);
}

void cm_report_buf(char *buf, size_t len, const struct cm_pos *pos, enum cm_severity sev,
                   const char *fmt, ...)
{
    va_list ap;

    if (buf == NULL || len == 0)
        return;
    va_start(ap, fmt);
    vreport_buf(buf, len, pos, sev, fmt, ap);
    va_end(ap);
}

void cm_report(FILE *out, const struct cm_pos *pos, enum cm_severity sev, const char *fmt,
               ...)
{
    char line[2048];
    va_list ap;

    va_start(ap, fmt);
    vreport_buf(line, sizeof(line), pos, sev, fmt, ap);
    va_end(ap);
    fprintf(out, "%s\n", line);
}

int cm_report_nomem(FILE *diag, const char *name, char *err, size_t errlen)
{
    struct cm_pos pos = {name, 0, -1};

    if (diag)
        cm_report(diag, &pos, CM_ERROR, "out of memory");
    cm_report_buf(err, errlen, &pos, CM_ERROR, "out of memory");
    return -ENOMEM;
}
