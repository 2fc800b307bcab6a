/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_util.h - the one helper the trace reader tests share: read a
 * whole trace from a file or from memory (fmemopen) into an array. */
#ifndef TEST_TRACE_UTIL_H
#define TEST_TRACE_UTIL_H

#include <stdio.h>
#include <string.h>

#include "trace/tr.h"

/* Reads a whole input (path, or len bytes of text when path is NULL, read
 * as format); returns the final rc of tr_reader_next (or of the open) and
 * leaves the reader open in *r for inspection: close it with
 * tr_reader_close.  On an open failure r->last_error holds the message. */
static inline int read_all(struct tr_reader *r, const char *format, const char *path,
                           const void *text, size_t len, int lenient,
                           struct tr_record *recs, int max, int *n)
{
    struct tr_options o = {.format = path ? NULL : format, .lenient = lenient};
    struct tr_record rec;
    char err[CM_ERR_LEN];
    FILE *fp = path ? NULL : fmemopen((void *)text, len, "rb");
    int rc;

    *n = 0;
    rc = tr_reader_open(r, path ? path : "mem", fp, &o, err, sizeof(err));
    if (rc < 0) {
        memset(r, 0, sizeof(*r));
        snprintf(r->last_error, sizeof(r->last_error), "%s", err);
        if (fp)
            fclose(fp);
        return rc;
    }
    while ((rc = tr_reader_next(r, &rec)) > 0)
        if (*n < max)
            recs[(*n)++] = rec;
    if (fp)
        r->owned_fp = fp; /* closed with the reader */
    return rc;
}

#endif
