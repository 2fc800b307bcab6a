/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * error.h - error text and "FILE:LINE: message" reports (common layer,
 * error.c).  Library code formats its detail text into a caller-owned buffer
 * (docs/STYLE.md 2.4); parsers of input files report every problem through
 * cm_report, so that all of them print positions the same way.
 */
#ifndef CM_ERROR_H
#define CM_ERROR_H

#include <stddef.h>
#include <stdio.h>

#include "common/cm.h"

/* Size of the error buffers that contexts carry (one line of text). */
#define CM_ERR_LEN 512

/* Formats into buf (len bytes, always terminated); buf may be NULL.  Returns
 * -EINVAL so that callers can write `return cm_err(e, n, "...")`-style code
 * when they want a generic failure; most pass their own -errno instead. */
int cm_errf(char *buf, size_t len, const char *fmt, ...) CM_PRINTF(3, 4);

/* A position in an input file, for "FILE:LINE: message" reports. */
struct cm_pos {
    const char *file; /* as the user named it */
    long line;        /* 1-based; 0 = no line (whole file) */
    long offset;      /* byte offset for binary files, -1 when unused */
};

enum cm_severity { CM_WARNING, CM_ERROR };

/* Prints "FILE:LINE: error: message" (or "warning:") to the stream, the GNU
 * form editors jump to.  With pos->line == 0 and offset >= 0 it prints
 * "FILE: byte OFFSET: ...".  This is the one reporter for input files: the
 * rc parser, mix and block-size files and the trace readers all use it. */
void cm_report(FILE *out, const struct cm_pos *pos, enum cm_severity sev, const char *fmt,
               ...) CM_PRINTF(4, 5);

/* Formats the same text as cm_report into a buffer, without the newline. */
void cm_report_buf(char *buf, size_t len, const struct cm_pos *pos, enum cm_severity sev,
                   const char *fmt, ...) CM_PRINTF(5, 6);

/* "NAME: error: out of memory" to diag (may be NULL) and into err (may be
 * NULL): a parser's answer when an allocation fails.  Returns -ENOMEM. */
int cm_report_nomem(FILE *diag, const char *name, char *err, size_t errlen);

#endif /* CM_ERROR_H */
