/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr.h - the trace layer's public interface: one normalised record type for
 * every trace format (SPC, MaStA, sysio; docs/TRACE_FORMATS.md) and one reader
 * interface in the docs/STYLE.md 2.5 shape (struct tr_reader_ops: name, probe,
 * open, next, close).  Readers stream in constant memory: the only state
 * that grows is per unit (ASU, region, file) or per stream, never per record.
 * The analyser (src/analyze) and the trace replay consume the same records;
 * this layer knows nothing about either.  No reader prints: errors go into
 * the reader's last_error ("FILE:LINE: message", MaStA "FILE: entry N
 * (offset O): message"), warnings through a caller-supplied callback.
 */
#ifndef TR_H
#define TR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

/* Operations a record can carry.  Only READ and WRITE move data. */
enum tr_op {
    TR_OP_READ,
    TR_OP_WRITE,
    TR_OP_SYNC,    /* MaStA sync: flush the unit (or the units in unit_mask) */
    TR_OP_OPEN,    /* sysio open that succeeded: path names the unit */
    TR_OP_GETATTR, /* sysio fxstat */
    TR_OP__COUNT
};

/* Record flags. */
#define TR_F_CREATE    0x01u /* open with O_CREAT */
#define TR_F_TRUNC     0x02u /* open with O_TRUNC */
#define TR_F_ALL_UNITS 0x04u /* sync of every unit */
#define TR_F_UNIT_MASK 0x08u /* sync of the units whose bits are set in unit_mask */
#define TR_F_NO_EXIT   0x10u /* sysio: call without EXIT (requested length used) */

/* Units: ASU, region or file number.  SPC ASUs and sysio files are limited
 * so that per-unit tables stay small and (unit, block) keys pack in 64 bits. */
#define TR_MAX_UNITS 65536u

/* Longest text line the SPC and sysio readers accept, '\n' excluded.  Long
 * enough for sysio paths and extent lists, never unbounded. */
#define TR_LINE_MAX (1024u * 1024u)

/* The normalised record.  path points into the reader and stays valid until
 * the next call of tr_reader_next. */
struct tr_record {
    uint32_t stream; /* SPC: the ASU; MaStA: byte_7; sysio: stream number */
    uint32_t unit;   /* ASU, region or file number (0-based) */
    int64_t t_ns;    /* planned time, ns from the trace origin */
    enum tr_op op;
    uint32_t flags;     /* TR_F_* */
    uint64_t offset;    /* bytes */
    uint64_t length;    /* bytes; 0 is legal */
    uint32_t unit_mask; /* TR_F_UNIT_MASK syncs */
    uint32_t mode;      /* open mode bits (sysio) */
    const char *path;   /* sysio open: the path; NULL otherwise */
    long line;          /* line (text) or entry number (MaStA) of the record */
};

struct tr_reader;

/* One trace format.  probe scores the first bytes of the input (0: not this
 * format, 1: plausible, 2: certain); open allocates priv; next returns 1
 * with a record, 0 at the end, or -errno with r->last_error set; close
 * frees priv; unit_name names a unit.  The table of formats is in reader.c. */
struct tr_reader_ops {
    const char *name;
    int (*probe)(const unsigned char *buf, size_t len);
    int (*open)(struct tr_reader *r);
    int (*next)(struct tr_reader *r, struct tr_record *rec);
    void (*close)(struct tr_reader *r);
    /* printable unit name into buf ("asu0", "region1", a path) */
    const char *(*unit_name)(const struct tr_reader *r, uint32_t unit, char *buf,
                             size_t len);
    /* why buf's first line (text) or entry (binary) is not this format, into
     * why; called only when detection fails, so it may be slow */
    void (*explain)(const unsigned char *buf, size_t len, char *why, size_t whylen);
};

typedef void (*tr_warn_fn)(void *data, const char *msg);

/* Options for tr_reader_open. */
struct tr_options {
    const char *format;    /* "spc", "masta", "sysio" or NULL/"auto" */
    int lenient;           /* skip and count malformed records */
    uint32_t spc_lba_size; /* bytes per SPC LBA; 0 = 512 */
    tr_warn_fn warn;       /* may be NULL: warnings are then only counted */
    void *warn_data;
};

/* A named counter: malformed records, unknown events, out-of-order times. */
#define TR_MAX_COUNTERS 48
struct tr_counter {
    char name[40];
    uint64_t n;
};

/* Buffered input over a FILE* (file, pipe or fmemopen buffer). */
struct tr_input {
    FILE *fp;
    unsigned char *buf;
    size_t cap, pos, end;
    uint64_t consumed; /* bytes before buf[pos] */
    int eof, err;
};

struct tr_reader {
    const struct tr_reader_ops *ops;
    void *priv;
    struct tr_input in;
    struct tr_options opt;
    const char *file; /* name for messages */
    FILE *owned_fp;   /* closed by tr_reader_close when we opened it */
    uint64_t records; /* records returned by next */
    uint64_t skipped; /* malformed records skipped (lenient) */
    uint64_t warnings;
    struct tr_counter counters[TR_MAX_COUNTERS];
    unsigned ncounters;
    char last_error[CM_ERR_LEN];
};

/* Opens a reader on path ("-" = stdin) or, when fp is not NULL, on fp (the
 * caller keeps ownership of fp; name is used in messages).  The format comes
 * from opt->format or is detected from the first bytes.  Returns 0, or
 * -errno with the reason in err; on failure nothing needs closing. */
int tr_reader_open(struct tr_reader *r, const char *path, FILE *fp,
                   const struct tr_options *opt, char *err, size_t errlen);
/* Next record: 1 with *rec filled, 0 at the end of the trace, -errno on a
 * malformed input (strict mode) or a read error, with r->last_error set. */
int tr_reader_next(struct tr_reader *r, struct tr_record *rec);
void tr_reader_close(struct tr_reader *r);
/* The format in use ("spc", "masta", "sysio"). */
const char *tr_reader_format(const struct tr_reader *r);
/* Writes a printable unit name ("asu0", "region1", a path) into buf. */
const char *tr_reader_unit_name(const struct tr_reader *r, uint32_t unit, char *buf,
                                size_t len);
/* The format whose probe scores highest on buf, or NULL when none or a tie. */
const struct tr_reader_ops *tr_probe(const unsigned char *buf, size_t len);
/* Why detection fails on buf, one clause per format at the first non-blank
 * line: "line 1: not SPC: LBA '0x10' is not decimal; not MaStA: ...". */
void tr_probe_explain(const unsigned char *buf, size_t len, char *why, size_t whylen);
const struct tr_reader_ops *tr_find_format(const char *name);
const char *tr_op_name(enum tr_op op);
/* MaStA metadata strings in trace order, NULL past the last or for other
 * formats.  Owned by the reader. */
const char *tr_masta_string(const struct tr_reader *r, unsigned i);

/* "FILE:LINE" for the text formats, "FILE: entry N (offset O)" for MaStA:
 * where the record numbered line (tr_record.line) is, for messages about it. */
const char *tr_reader_where(const struct tr_reader *r, long line, char *buf, size_t len);

/* Reading on a second thread (prefetch.c): a producer runs tr_reader_next
 * into a fixed ring of record batches.  Until tr_prefetch_stop the reader
 * belongs to the producer (its warning callback runs there); records come
 * without path.  start: 0 or -errno. */
struct tr_prefetch;
int tr_prefetch_start(struct tr_prefetch **pf, struct tr_reader *r);
/* The next batch: 1 with *recs and *n (valid until the next call), 0 at the
 * end of the trace, or the reader's -errno (r->last_error set) after every
 * record before the error was handed out. */
int tr_prefetch_next(struct tr_prefetch *pf, const struct tr_record **recs, size_t *n);
/* Stops the producer (at once when the consumer gives up early), joins it
 * and frees the ring.  NULL is allowed. */
void tr_prefetch_stop(struct tr_prefetch *pf);

/* Writes a record as one SPC line (ASU=unit, LBA=offset/lba_size,
 * timestamp with 6 decimals).  Returns 0, or -EINVAL when the record is not
 * expressible (not a read or write, or an offset that is not a multiple of
 * lba_size): the caller counts it. */
int tr_spc_write(FILE *out, const struct tr_record *rec, uint32_t lba_size);

/* What tr_convert_spc wrote and what SPC could not express. */
struct tr_convert_stats {
    uint64_t written;               /* SPC records */
    uint64_t dropped[TR_OP__COUNT]; /* records that are not reads or writes */
    uint64_t rounded;               /* offsets rounded down to the LBA size */
    uint64_t clamped;               /* timestamps raised to keep SPC order */
};

/* Writes every read and write of r as SPC text to out (convert.c): offsets
 * rounded down to lba_size and timestamps kept non-decreasing, both
 * counted in *st.  Returns 0, or -errno with r->last_error set (a reader
 * error, or a write error on out). */
int tr_convert_spc(struct tr_reader *r, FILE *out, uint32_t lba_size,
                   struct tr_convert_stats *st);

#endif /* TR_H */
