/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text.h - reading small text input files (rc files, mix files, block-size
 * files) for parsers that report "FILE:LINE: message": read the whole file
 * (bounded), walk it line by line with 1-based numbers, report errors and
 * warnings with their position, and cm_text_parse_file, the one
 * read-parse-free wrapper every file parser uses.
 */
#ifndef CM_TEXT_H
#define CM_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "common/cm.h"

/* Walks a text buffer line by line with 1-based line numbers, for parsers
 * that report "FILE:LINE: message".  Lines are copied into a fixed buffer
 * (longer lines are cut; the cut is reported through `truncated`); the
 * trailing '\r' of CRLF files is dropped.  No allocation. */
#define CM_TEXT_LINE_MAX 4096
struct cm_text {
    const char *name; /* the file as the user named it */
    const char *p, *end;
    long line;
    int truncated; /* the last line returned was longer than the buffer */
    char buf[CM_TEXT_LINE_MAX];
    /* diagnostics (cm_text_error / cm_text_warning) */
    FILE *diag; /* every message, through cm_report; may be NULL */
    char *err;  /* the first error's text; may be NULL */
    size_t errlen;
    int errors; /* how many errors were reported */
};

/* Starts reading text; diag, err and errlen say where messages go (all may
 * be NULL/0).  err is cleared. */
void cm_text_init(struct cm_text *t, const char *name, const char *text, size_t len,
                  FILE *diag, char *err, size_t errlen);
/* Reports "NAME:LINE: error: message" to diag, keeps the first one in err
 * and counts it; parsers go on and fail at the end (docs/STYLE.md 2.4). */
void cm_text_error(struct cm_text *t, long line, const char *fmt, ...) CM_PRINTF(3, 4);
/* Reports "NAME:LINE: warning: message" (line 0: "NAME: warning: ..."). */
void cm_text_warning(struct cm_text *t, long line, const char *fmt, ...) CM_PRINTF(3, 4);
/* The next line (NUL-terminated, without its newline) or NULL at the end;
 * *line gets its number.  A line holding a NUL byte is reported as an
 * error ("NAME:LINE: a NUL byte at column C") and skipped, so that no
 * parser ever reads a value cut short at the NUL. */
const char *cm_text_next(struct cm_text *t, long *line);
/* Whether a line holds only blanks. */
int cm_text_blank(const char *s);
/* The 1-based line of the first NUL byte of text (*col, when not NULL,
 * its 1-based column), or 0 when text holds none. */
long cm_text_nul(const char *text, size_t len, long *col);
/* Reads a whole file (at most 16 MB) into a malloc'ed, NUL-terminated
 * buffer the caller frees.  Returns 0 or -errno with "FILE: reason" in err,
 * the same line also written to diag when diag is not NULL.  A text file
 * holds no NUL byte: one gives -EILSEQ and "FILE:LINE: a NUL byte at column
 * C ..." (every reader of rc, mount-point, mix, block-size, sfssum and YAML
 * files goes through here, so none of them sees a value cut at a NUL). */
int cm_text_read(const char *path, char **text, size_t *len, FILE *diag, char *err,
                 size_t errlen);

/* A parser of a whole text held in memory: ctx is the parser's own state
 * (the struct it fills and its settings), name the file as the user named
 * it (for FILE:LINE messages). */
typedef int (*cm_text_parse_fn)(void *ctx, const char *name, const char *text, size_t len,
                                FILE *diag, char *err, size_t errlen);

/* Reads path (cm_text_read), hands it to parse, frees it.  Returns what
 * parse returned, or cm_text_read's -errno with "FILE: reason" in err. */
int cm_text_parse_file(const char *path, cm_text_parse_fn parse, void *ctx, FILE *diag,
                       char *err, size_t errlen);

#endif /* CM_TEXT_H */
