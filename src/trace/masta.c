/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * masta.c - the MaStA I/O trace reader (docs/TRACE_FORMATS.md section 3):
 * big-endian 8-byte entries, D11's opcode numbers (1 read, 2 write, 3 sync,
 * 4 block operation, 0 configuration), per-region block sizes (default
 * 4096), a virtual clock advanced by elapsed-time entries.  State is per
 * region (32 of them) plus the metadata strings, whose number is bounded.
 * Errors name the entry and its byte offset: "FILE: entry N (offset O)".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_int.h"
#include "common/alloc.h"
#include "common/bytes.h"

#define MA_REGIONS     32
#define MA_DEFAULT_BS  4096u
#define MA_MAX_STRINGS 64
#define MA_STRING_KEEP 256

struct masta {
    uint64_t entry; /* index of the next entry */
    uint64_t clock_us;
    uint32_t bs[MA_REGIONS];
    uint32_t mapped, warned_unmapped;
    uint32_t pending_count; /* block operation waiting for its read/write */
    uint64_t pending_entry;
    int ended, warned_after_end, done;
    unsigned nstrings;
    char *strings[MA_MAX_STRINGS];
};

static int masta_probe(const unsigned char *buf, size_t len)
{
    if (len >= 2 && buf[0] == 0 && buf[1] == 5)
        return 2;
    /* A binary start that no text format accepts: plausibly MaStA, so that
     * the reader can say what is wrong with its first entry. */
    if (len >= 1 && buf[0] <= 4)
        return 1;
    return 0;
}

static void masta_explain(const unsigned char *buf, size_t len, char *why, size_t whylen)
{
    if (len < 2)
        snprintf(why, whylen, "shorter than one 8-byte entry");
    else if (buf[0] != 0 || buf[1] != 5)
        snprintf(why, whylen,
                 "the first entry starts %02x %02x, not 00 05 (a format version entry)",
                 buf[0], buf[1]);
    else
        snprintf(why, whylen, "a plausible first entry, but another format is too");
}

static int masta_open(struct tr_reader *r)
{
    struct masta *m = cm_calloc(1, sizeof(*m));
    unsigned i;

    if (!m)
        return tr__nomem(r, 0);
    for (i = 0; i < MA_REGIONS; i++)
        m->bs[i] = MA_DEFAULT_BS;
    r->priv = m;
    return 0;
}

static void masta_close(struct tr_reader *r)
{
    struct masta *m = r->priv;
    unsigned i;

    for (i = 0; m && i < m->nstrings; i++)
        free(m->strings[i]);
    free(m);
    r->priv = NULL;
}

static const char *masta_unit_name(const struct tr_reader *r, uint32_t unit, char *buf,
                                   size_t len)
{
    (void)r;
    snprintf(buf, len, "region%u", unit);
    return buf;
}

static const char *config_name(unsigned kind)
{
    static const char *const names[] = {
        "string header", "region mapping", "region size",  "block size",
        "time",          "format version", "end of trace",
    };
    return kind < CM_ARRAY_LEN(names) ? names[kind] : "reserved";
}

const char *tr_masta_string(const struct tr_reader *r, unsigned i)
{
    const struct masta *m = r->priv;

    if (!r->ops || r->ops != &tr__masta_ops || i >= m->nstrings)
        return NULL;
    return m->strings[i];
}

/* Error at the current entry e (already consumed). */
#define ENTRY_ERR(r, m, ...)                                                             \
    tr__error_entry((r), (m)->entry - 1, ((m)->entry - 1) * 8, __VA_ARGS__)

/* A printable copy of raw[0..n) up to its first NUL: bytes outside
 * printable ASCII become \xNN, so reports and YAML never carry them. */
static char *escaped(const char *raw, size_t n)
{
    char *out = cm_malloc(n * 4 + 1), *o = out;
    size_t i;

    if (!out)
        return NULL;
    for (i = 0; i < n && raw[i]; i++) {
        unsigned char c = (unsigned char)raw[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            *o++ = (char)c;
        else
            o += sprintf(o, "\\x%02x", c);
    }
    *o = '\0';
    return out;
}

/* Reads a string header's continuation entries.  A string must end with its
 * NUL at position len - 1: in strict mode one that does not is an error at
 * the header entry; in lenient mode a counted warning.  0, -EINVAL or
 * -ENOMEM. */
static int read_string(struct tr_reader *r, struct masta *m, const unsigned char *e)
{
    unsigned len = (unsigned)e[2] << 8 | e[3];
    unsigned need = len > 4 ? (len - 4 + 7) / 8 : 0, i, pos = 0;
    uint64_t first = m->entry - 1;
    char keep[MA_STRING_KEEP];
    size_t kept = 0;
    unsigned char chunk[8], last = 0;

    if (len == 0)
        return ENTRY_ERR(r, m, "string length 0 (the NUL counts)");
    for (i = 0; i < 4 && pos < len; i++, pos++) {
        last = e[4 + i];
        keep[kept++] = (char)last;
    }
    for (i = 0; i < need; i++) {
        size_t got = tr__in_read(&r->in, chunk, 8), j;
        m->entry++;
        if (got < 8)
            return tr__error_entry(r, m->entry - 1, (m->entry - 1) * 8,
                                   "truncated inside the string of entry %llu, "
                                   "%zu of 8 bytes",
                                   (unsigned long long)first, got);
        for (j = 0; j < 8 && pos < len; j++, pos++) {
            last = chunk[j];
            if (kept < MA_STRING_KEEP)
                keep[kept++] = (char)last;
        }
    }
    if (last != '\0') {
        tr__count(r, "strings_without_nul", 1);
        if (!r->opt.lenient)
            return tr__error_entry(r, first, first * 8,
                                   "string of length %u has no NUL at its end", len);
        tr__warn(r, 0,
                 "entry %llu (offset %llu): string of length %u has no NUL at its end",
                 (unsigned long long)first, (unsigned long long)first * 8, len);
    }
    tr__count(r, "strings", 1);
    if (m->nstrings < MA_MAX_STRINGS) {
        m->strings[m->nstrings] = escaped(keep, kept);
        if (m->strings[m->nstrings] == NULL) /* not dropped without a word */
            return tr__nomem(r, 0);
        m->nstrings++;
    }
    return 0;
}

/* A configuration entry.  0 or -EINVAL. */
static int config_entry(struct tr_reader *r, struct masta *m, const unsigned char *e)
{
    uint32_t w1 = cm_be32_get(e + 4);
    unsigned region = e[2], i;

    switch (e[1]) {
    case 0:
        return read_string(r, m, e);
    case 1:
    case 2:
        if (region >= MA_REGIONS)
            return ENTRY_ERR(r, m, "%s of region %u (regions are 0-31)",
                             config_name(e[1]), region);
        if (e[1] == 1)
            m->mapped |= 1u << region;
        return 0;
    case 3:
        if (w1 == 0)
            return ENTRY_ERR(r, m, "block size 0");
        if (region != 0xFF && region >= MA_REGIONS &&
            (e[3] < MA_REGIONS || e[3] == 0xFF)) {
            tr__warn(r, 0, "entry %llu: block size region taken from byte_3",
                     (unsigned long long)(m->entry - 1));
            region = e[3];
        }
        if (region == 0xFF) {
            for (i = 0; i < MA_REGIONS; i++)
                m->bs[i] = w1;
        } else if (region < MA_REGIONS) {
            m->bs[region] = w1;
        } else {
            return ENTRY_ERR(r, m, "block size of region %u (regions are 0-31)", region);
        }
        return 0;
    case 4:
        if (e[2] == 1 || e[2] == 2)
            m->clock_us += w1;
        else if (e[2] != 0)
            tr__count(r, "unknown_time_forms", 1);
        return 0;
    case 5:
        if (w1 != 0)
            tr__warn(r, 0, "entry %llu: format version %u (only 0 is known)",
                     (unsigned long long)(m->entry - 1), w1);
        return 0;
    case 6:
        m->ended = 1;
        return 0;
    default:
        tr__count(r, "unknown_config_types", 1);
        return ENTRY_ERR(r, m, "unknown configuration type %u (0-6 are defined)", e[1]);
    }
}

static void drop_pending(struct tr_reader *r, struct masta *m, const char *why)
{
    if (!m->pending_count)
        return;
    tr__count(r, "dropped_block_ops", 1);
    tr__warn(r, 0, "entry %llu: block operation dropped by %s",
             (unsigned long long)m->pending_entry, why);
    m->pending_count = 0;
}

/* A read or write entry into rec.  0 or -EINVAL. */
static int io_entry(struct tr_reader *r, struct masta *m, const unsigned char *e,
                    struct tr_record *rec)
{
    unsigned region = e[3];
    uint64_t block = (uint64_t)e[4] << 16 | (uint64_t)e[5] << 8 | e[6];
    uint64_t count = m->pending_count ? m->pending_count : 1;
    uint64_t bs;

    m->pending_count = 0;
    if (region >= MA_REGIONS)
        return ENTRY_ERR(r, m, "region %u (regions are 0-31)", region);
    bs = m->bs[region];
    if (!(m->mapped >> region & 1)) {
        /* The format requires the mapping first: strict mode refuses, lenient
         * mode counts every such entry and warns once per region. */
        tr__count(r, "io_on_unmapped_region", 1);
        if (!r->opt.lenient)
            return ENTRY_ERR(r, m, "%s on region %u, which is not mapped",
                             count > 1 ? "block operation" : "I/O", region);
        if (!(m->warned_unmapped >> region & 1)) {
            m->warned_unmapped |= 1u << region;
            tr__warn(r, 0,
                     "entry %llu (offset %llu): I/O on region %u before it was mapped",
                     (unsigned long long)(m->entry - 1),
                     (unsigned long long)(m->entry - 1) * 8, region);
        }
    }
    rec->op = e[0] == 1 ? TR_OP_READ : TR_OP_WRITE;
    rec->unit = region;
    rec->stream = e[7];
    rec->offset = block * bs;
    rec->length = count * bs; /* count < 2^32, bs < 2^32: no overflow */
    rec->t_ns = (int64_t)(m->clock_us * 1000u);
    return 0;
}

/* A sync entry into rec.  0 or -EINVAL. */
static int sync_entry(struct tr_reader *r, struct masta *m, const unsigned char *e,
                      struct tr_record *rec)
{
    drop_pending(r, m, "a sync");
    rec->op = TR_OP_SYNC;
    rec->t_ns = (int64_t)(m->clock_us * 1000u);
    if (e[3] == 0xFF) {
        rec->flags = TR_F_ALL_UNITS;
    } else if (e[3] == 0xFE) {
        rec->flags = TR_F_UNIT_MASK;
        rec->unit_mask = cm_be32_get(e + 4);
    } else if (e[3] < MA_REGIONS) {
        rec->unit = e[3];
    } else {
        return ENTRY_ERR(r, m, "sync of region %u (0-31, -1 or -2)", e[3]);
    }
    return 0;
}

/* Handles one complete entry: 1 with a record, 0 without, -EINVAL or
 * -ENOMEM. */
static int entry(struct tr_reader *r, struct masta *m, const unsigned char *e,
                 struct tr_record *rec)
{
    int rc;

    if (m->entry == 1 && !(e[0] == 0 && e[1] == 5))
        return ENTRY_ERR(r, m, "not a format version entry (byte_0=%u, byte_1=%u: %s)",
                         e[0], e[1],
                         e[0] == 0   ? config_name(e[1])
                         : e[0] <= 4 ? "I/O entry"
                                     : "reserved");
    if (m->ended) {
        tr__count(r, "entries_after_end", 1);
        if (!m->warned_after_end++)
            tr__warn(r, 0,
                     "entry %llu: entries after the end-of-trace entry "
                     "are ignored",
                     (unsigned long long)(m->entry - 1));
        return 0;
    }
    switch (e[0]) {
    case 0:
        return config_entry(r, m, e);
    case 1:
    case 2:
        rc = io_entry(r, m, e, rec);
        break;
    case 3:
        rc = sync_entry(r, m, e, rec);
        break;
    case 4:
        drop_pending(r, m, "another block operation");
        m->pending_count = cm_be32_get(e + 4);
        m->pending_entry = m->entry - 1;
        if (m->pending_count == 0)
            return ENTRY_ERR(r, m, "block operation of 0 blocks");
        return 0;
    default:
        tr__count(r, "reserved_entries", 1);
        return ENTRY_ERR(r, m, "reserved opcode %u (byte_0 0-4 are defined)", e[0]);
    }
    if (rc < 0)
        return rc;
    rec->line = (long)(m->entry - 1);
    return 1;
}

static int masta_next(struct tr_reader *r, struct tr_record *rec)
{
    struct masta *m = r->priv;
    unsigned char e[8];

    while (!m->done) {
        size_t got = tr__in_read(&r->in, e, 8);
        int rc;

        if (got == 0) {
            m->done = 1;
            if (r->in.err)
                return tr__error(r, 0, "read error");
            if (m->entry == 0)
                return tr__error(r, 0, "no records (empty file)");
            drop_pending(r, m, "the end of the trace");
            if (!m->ended)
                tr__warn(r, 0, "no end-of-trace entry: possibly truncated");
            return 0;
        }
        m->entry++;
        if (got < 8) {
            m->done = 1;
            ENTRY_ERR(r, m, "truncated, %zu of 8 bytes", got);
            return tr__malformed(r);
        }
        rc = entry(r, m, e, rec);
        if (rc == 1)
            return 1;
        if (rc == -ENOMEM) /* not bad input: never skipped as malformed */
            return rc;
        if (rc < 0) {
            /* A string whose continuation is truncated ends the input. */
            if (m->entry * 8 > r->in.consumed)
                m->done = 1;
            if ((rc = tr__malformed(r)) < 0)
                return rc;
            memset(rec, 0, sizeof(*rec));
        }
    }
    return 0;
}

const struct tr_reader_ops tr__masta_ops = {
    .name = "masta",
    .probe = masta_probe,
    .open = masta_open,
    .next = masta_next,
    .close = masta_close,
    .unit_name = masta_unit_name,
    .explain = masta_explain,
};
