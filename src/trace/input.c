/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * input.c - buffered input for the trace readers.  One fixed buffer per
 * reader (TR_LINE_MAX plus a read chunk), filled with fread, so that a line
 * is handed out in place without copying and memory stays constant however
 * long the trace.  Lines longer than TR_LINE_MAX are consumed and reported,
 * never truncated silently.  Works on any FILE*: files, pipes, fmemopen.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_int.h"
#include "common/alloc.h"

#define IN_CHUNK (256u * 1024u)

int tr__in_init(struct tr_input *in, FILE *fp)
{
    memset(in, 0, sizeof(*in));
    in->fp = fp;
    in->cap = TR_LINE_MAX + IN_CHUNK + 2;
    in->buf = cm_malloc(in->cap);
    return in->buf ? 0 : -ENOMEM;
}

void tr__in_free(struct tr_input *in)
{
    free(in->buf);
    in->buf = NULL;
}

/* Moves the unread bytes to the front and reads more; returns bytes added. */
static size_t fill(struct tr_input *in)
{
    size_t n;

    if (in->eof || in->err)
        return 0;
    if (in->pos > 0) {
        memmove(in->buf, in->buf + in->pos, in->end - in->pos);
        in->end -= in->pos;
        in->pos = 0;
    }
    if (in->end + 1 >= in->cap)
        return 0;
    n = fread(in->buf + in->end, 1, in->cap - 1 - in->end, in->fp);
    if (n == 0) {
        if (ferror(in->fp))
            in->err = 1;
        else
            in->eof = 1;
    }
    in->end += n;
    return n;
}

size_t tr__in_peek(struct tr_input *in, size_t want)
{
    while (in->end - in->pos < want && fill(in) > 0)
        ;
    return in->end - in->pos < want ? in->end - in->pos : want;
}

static void advance(struct tr_input *in, size_t n)
{
    in->pos += n;
    in->consumed += n;
}

int tr__in_line(struct tr_input *in, char **line, size_t *len, long *lineno)
{
    size_t scanned = 0;

    for (;;) {
        char *start = (char *)in->buf + in->pos;
        size_t avail = in->end - in->pos;
        char *nl = memchr(start + scanned, '\n', avail - scanned);

        if (nl) {
            size_t n = (size_t)(nl - start);
            advance(in, n + 1);
            ++*lineno;
            if (n > TR_LINE_MAX)
                return -E2BIG;
            if (n > 0 && start[n - 1] == '\r')
                n--;
            start[n] = '\0';
            *line = start;
            *len = n;
            return 1;
        }
        scanned = avail;
        if (avail > TR_LINE_MAX) {
            /* Too long: drop what we have and skip to the next newline. */
            ++*lineno;
            for (;;) {
                advance(in, in->end - in->pos);
                if (fill(in) == 0)
                    return in->err ? -EIO : -E2BIG;
                start = (char *)in->buf + in->pos;
                nl = memchr(start, '\n', in->end - in->pos);
                if (nl) {
                    advance(in, (size_t)(nl - start) + 1);
                    return -E2BIG;
                }
            }
        }
        if (fill(in) == 0) {
            if (in->err)
                return -EIO;
            if (avail == 0)
                return 0;
            /* Last line without '\n': the buffer keeps one spare byte. */
            start = (char *)in->buf + in->pos;
            advance(in, avail);
            ++*lineno;
            if (avail > 0 && start[avail - 1] == '\r')
                avail--;
            start[avail] = '\0';
            *line = start;
            *len = avail;
            return 1;
        }
    }
}

size_t tr__in_read(struct tr_input *in, void *dst, size_t n)
{
    size_t got = tr__in_peek(in, n);

    memcpy(dst, in->buf + in->pos, got);
    advance(in, got);
    return got;
}
