/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_int.h - declarations shared by the trace readers and not part of the
 * layer's interface: the buffered input (input.c), exact decimal parsing,
 * and the error, warning and counter helpers every reader uses (reader.c).
 */
#ifndef TR_INT_H
#define TR_INT_H

#include "trace/tr.h"

/* ---- buffered input (input.c) ------------------------------------------- */

int tr__in_init(struct tr_input *in, FILE *fp);
void tr__in_free(struct tr_input *in);
/* Makes up to want bytes available at in->buf + in->pos; returns how many
 * are (fewer only at end of input). */
size_t tr__in_peek(struct tr_input *in, size_t want);
/* Next line, without '\n' and a '\r' before it, NUL-terminated in place.
 * Returns 1, 0 at end of input, -E2BIG for a line over TR_LINE_MAX (the
 * line is consumed), -EIO on a read error.  *lineno counts every line. */
int tr__in_line(struct tr_input *in, char **line, size_t *len, long *lineno);
/* Reads up to n bytes; returns how many were read. */
size_t tr__in_read(struct tr_input *in, void *dst, size_t n);

/* ---- parsing helpers (parse.c) ------------------------------------------ */

/* Parses exactly s[0..len) as decimal digits into *out; 0 or -ERANGE/-EINVAL. */
int tr__dec_u64(const char *s, size_t len, uint64_t *out);
/* Parses "S.F" (both parts required) into nanoseconds exactly; at most 9
 * fraction digits are kept, further digits dropped.  0 or -EINVAL/-ERANGE. */
int tr__sec_frac_ns(const char *s, size_t len, int64_t *ns);

/* A printable excerpt of s[0..len) (at most 24 characters, other bytes as
 * \xNN) into out, for messages about input that is not what it should be. */
const char *tr__excerpt(const void *s, size_t len, char *out, size_t outlen);

/* tr_nfs_text.c: why buf (a file's first bytes) is not nfsdump text
 * ("the procedure's name does not match its number"...), or NULL when it
 * is - for the hint of a trace whose format no probe recognised. */
const char *tr__nfs_text_why_not(const unsigned char *buf, size_t len);

/* ---- errors, warnings, counters (reader.c) ------------------------------ */

/* Sets r->last_error to "FILE:LINE: message" (line 0: "FILE: message").
 * Returns -EINVAL. */
int tr__error(struct tr_reader *r, long line, const char *fmt, ...) CM_PRINTF(3, 4);
/* "FILE:LINE: error: out of memory" (line 0: no line) into last_error;
 * returns -ENOMEM, so that callers tell it from bad input. */
int tr__nomem(struct tr_reader *r, long line);
/* Sets r->last_error to "FILE: entry N (offset O): message".  -EINVAL. */
int tr__error_entry(struct tr_reader *r, uint64_t entry, uint64_t offset, const char *fmt,
                    ...) CM_PRINTF(4, 5);
/* A malformed record: in lenient mode counts it, passes the message to the
 * warning callback and returns 0 (skip); in strict mode returns -EINVAL
 * with last_error kept. */
int tr__malformed(struct tr_reader *r);
/* Formats a warning "FILE:LINE: message", counts it, calls opt.warn. */
void tr__warn(struct tr_reader *r, long line, const char *fmt, ...) CM_PRINTF(3, 4);
void tr__warn_text(struct tr_reader *r, const char *msg);
/* Adds n to the counter called name (created on first use). */
void tr__count(struct tr_reader *r, const char *name, uint64_t n);
/* Raises the counter called name to v if it is lower (a maximum). */
void tr__count_max(struct tr_reader *r, const char *name, uint64_t v);

extern const struct tr_reader_ops tr__spc_ops;
extern const struct tr_reader_ops tr__masta_ops;
extern const struct tr_reader_ops tr__sysio_ops;

#endif /* TR_INT_H */
