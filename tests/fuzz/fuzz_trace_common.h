/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_trace_common.h - the body of the trace reader fuzz drivers: feeds
 * the input from memory (fmemopen) in strict and in lenient mode and reads
 * every record; the reader must end with a record count or a message, never
 * a crash, a leak or undefined behaviour.  Each fuzz_trace_<format>.c names
 * its format. */
#ifndef FUZZ_TRACE_COMMON_H
#define FUZZ_TRACE_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "trace/tr.h"

static int fuzz_trace(const char *format, const uint8_t *data, size_t size)
{
    int lenient;

    if (size == 0)
        return 0; /* fmemopen refuses empty buffers */
    for (lenient = 0; lenient < 2; lenient++) {
        struct tr_options o = {.format = format, .lenient = lenient};
        struct tr_reader r;
        struct tr_record rec;
        char err[CM_ERR_LEN];
        FILE *fp = fmemopen((void *)data, size, "rb");
        unsigned n = 0;

        if (!fp)
            return 0;
        if (tr_reader_open(&r, "fuzz", fp, &o, err, sizeof(err)) == 0) {
            while (n++ < 100000 && tr_reader_next(&r, &rec) > 0)
                ;
            tr_reader_close(&r);
        }
        fclose(fp);
    }
    return 0;
}

#endif
