/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spc.c - the SPC trace reader (SPC Trace File Format 1.0.1;
 * docs/TRACE_FORMATS.md section 2).  One record per line: ASU, LBA, size,
 * opcode, "s.d" timestamp, then optional fields that are ignored.  Parsing
 * is hand-written over the line in the input buffer (no strtok, no strtod):
 * the analyser must never wait for the parser.  Per-unit state is a bitmap
 * of the ASUs seen, checked at the end (units 0..n-1 must all appear).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_int.h"
#include "common/alloc.h"

struct spc {
    long lineno;
    int64_t prev_ns;
    long prev_line;
    char prev_ts[32];
    uint32_t max_asu;
    int any;
    int done;
    uint64_t seen[TR_MAX_UNITS / 64];
};

static int is_blank(int c)
{
    return c == ' ' || c == '\t';
}

/* Trims blanks at both ends of [*s, *s + *len). */
static void trim(const char **s, size_t *len)
{
    while (*len > 0 && is_blank((unsigned char)**s)) {
        ++*s;
        --*len;
    }
    while (*len > 0 && is_blank((unsigned char)(*s)[*len - 1]))
        --*len;
}

/* Splits line[0..len) at commas into at most the 5 required fields, each
 * trimmed; returns how many there are.  Optional fields are not looked at. */
static size_t split_fields(const char *line, size_t len, const char *f[5], size_t fl[5])
{
    size_t i, nf = 0, start = 0;

    for (i = 0; i <= len && nf < 5; i++) {
        if (i == len || line[i] == ',') {
            f[nf] = line + start;
            fl[nf] = i - start;
            trim(&f[nf], &fl[nf]);
            nf++;
            start = i + 1;
        }
    }
    return nf;
}

static int spc_probe(const unsigned char *buf, size_t len)
{
    size_t i = 0, commas = 0;
    int digits = 0;

    while (i < len && (buf[i] == '\n' || buf[i] == '\r' || is_blank(buf[i])))
        i++;
    if (i >= len || buf[i] < '0' || buf[i] > '9')
        return 0;
    for (; i < len && buf[i] != '\n'; i++) {
        unsigned char c = buf[i];
        if (c == ',')
            commas++;
        else if (c >= '0' && c <= '9')
            digits++;
        else if (commas < 3 && !is_blank(c))
            return 0;
        else if (c == 0)
            return 0;
    }
    return commas >= 4 && digits >= 4 ? 2 : 0;
}

/* Why the first line is not an SPC record, with the rules of spc_parse. */
static void spc_explain(const unsigned char *buf, size_t len, char *why, size_t whylen)
{
    static const char *const names[] = {"ASU", "LBA", "size"};
    const char *line = (const char *)buf, *f[5];
    const unsigned char *nl;
    size_t fl[5], nf, i, n;
    char ex[128];
    int64_t ns;
    uint64_t v;

    nl = memchr(buf, '\n', len);
    n = nl ? (size_t)(nl - buf) : len;
    if (n > 0 && line[n - 1] == '\r')
        n--;
    if (memchr(line, '\0', n)) {
        snprintf(why, whylen, "binary data (a NUL byte)");
        return;
    }
    nf = split_fields(line, n, f, fl);
    if (nf < 5) {
        snprintf(why, whylen, "%zu comma-separated fields, 5 needed ('%s')", nf,
                 tr__excerpt(line, n, ex, sizeof(ex)));
        return;
    }
    for (i = 0; i < 3; i++)
        if (tr__dec_u64(f[i], fl[i], &v) < 0) {
            snprintf(why, whylen, "%s '%s' is not decimal", names[i],
                     tr__excerpt(f[i], fl[i], ex, sizeof(ex)));
            return;
        }
    if (fl[3] != 1 || !strchr("RrWw", f[3][0])) {
        snprintf(why, whylen, "opcode '%s' is not R/r/W/w",
                 tr__excerpt(f[3], fl[3], ex, sizeof(ex)));
        return;
    }
    if (tr__sec_frac_ns(f[4], fl[4], &ns) < 0 && (n < len || fl[4] < 16)) {
        snprintf(why, whylen, "timestamp '%s' is not s.d",
                 tr__excerpt(f[4], fl[4], ex, sizeof(ex)));
        return;
    }
    snprintf(why, whylen, "a plausible record, but another format is plausible too");
}

static int spc_open(struct tr_reader *r)
{
    struct spc *s = cm_calloc(1, sizeof(*s));

    if (!s)
        return tr__nomem(r, 0);
    r->priv = s;
    return 0;
}

static void spc_close(struct tr_reader *r)
{
    free(r->priv);
    r->priv = NULL;
}

static const char *spc_unit_name(const struct tr_reader *r, uint32_t unit, char *buf,
                                 size_t len)
{
    (void)r;
    snprintf(buf, len, "asu%u", unit);
    return buf;
}

/* At the end of input: the file must have records and ASUs 0..n-1. */
static int spc_finish(struct tr_reader *r, struct spc *s)
{
    char list[256];
    size_t used = 0;
    unsigned missing = 0;
    uint32_t a;

    if (!s->any)
        return tr__error(r, 0, "no records");
    list[0] = '\0';
    for (a = 0; a < s->max_asu; a++) {
        if (s->seen[a / 64] >> (a % 64) & 1)
            continue;
        if (missing++ < 8 && used < sizeof(list) - 16)
            used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%u",
                                     missing > 1 ? ", " : "", a);
    }
    if (missing == 0)
        return 0;
    tr__count(r, "missing_asus", missing);
    if (r->opt.lenient) {
        tr__warn(r, 0, "ASU %s%s missing (ASUs must be 0..n-1)", list,
                 missing > 8 ? ", ..." : "");
        return 0;
    }
    return tr__error(r, 0, "ASU %s%s missing (ASUs must be 0..n-1)", list,
                     missing > 8 ? ", ..." : "");
}

/* Parses one non-blank line into rec.  0 or -EINVAL with last_error. */
static int spc_parse(struct tr_reader *r, struct spc *s, const char *line, size_t len,
                     struct tr_record *rec)
{
    const char *f[5];
    size_t fl[5], nf;
    uint64_t asu, lba, size;
    int64_t ns;
    int rc;

    if (memchr(line, '\0', len))
        return tr__error(r, s->lineno, "NUL byte in line");
    nf = split_fields(line, len, f, fl);
    if (nf < 5)
        return tr__error(r, s->lineno, "expected at least 5 fields, found %zu", nf);
    rc = tr__dec_u64(f[0], fl[0], &asu);
    if (rc < 0 || asu >= TR_MAX_UNITS)
        return tr__error(r, s->lineno, "ASU '%.*s' is not %s", (int)fl[0], f[0],
                         rc < 0 ? "a decimal integer" : "below 65536");
    rc = tr__dec_u64(f[1], fl[1], &lba);
    if (rc < 0)
        return tr__error(r, s->lineno, "LBA '%.*s' is not a decimal integer%s",
                         (int)fl[1], f[1], rc == -ERANGE ? " below 2^64" : "");
    rc = tr__dec_u64(f[2], fl[2], &size);
    if (rc < 0)
        return tr__error(r, s->lineno, "size '%.*s' is not a non-negative integer%s",
                         (int)fl[2], f[2], rc == -ERANGE ? " below 2^64" : "");
    if (fl[3] != 1 || !strchr("RrWw", f[3][0]))
        return tr__error(r, s->lineno, "opcode '%.*s' is not R/r/W/w", (int)fl[3], f[3]);
    rc = tr__sec_frac_ns(f[4], fl[4], &ns);
    if (rc < 0)
        return tr__error(r, s->lineno, "timestamp '%.*s' is not s.d%s", (int)fl[4], f[4],
                         rc == -ERANGE ? " (too large)" : "");
    if (lba > UINT64_MAX / r->opt.spc_lba_size ||
        lba * r->opt.spc_lba_size > UINT64_MAX - size)
        return tr__error(
            r, s->lineno, "LBA %llu x %u + size %llu does not fit in 64 bits",
            (unsigned long long)lba, r->opt.spc_lba_size, (unsigned long long)size);
    if (s->any && ns < s->prev_ns) {
        tr__count(r, "out_of_order", 1);
        if (!r->opt.lenient)
            return tr__error(r, s->lineno, "timestamp %.*s smaller than %s (line %ld)",
                             (int)fl[4], f[4], s->prev_ts, s->prev_line);
        tr__warn(r, s->lineno, "timestamp %.*s smaller than %s (line %ld)", (int)fl[4],
                 f[4], s->prev_ts, s->prev_line);
        ns = s->prev_ns; /* keep file order, plan at the previous time */
    } else {
        size_t n = fl[4] < sizeof(s->prev_ts) - 1 ? fl[4] : sizeof(s->prev_ts) - 1;
        memcpy(s->prev_ts, f[4], n);
        s->prev_ts[n] = '\0';
        s->prev_ns = ns;
        s->prev_line = s->lineno;
    }
    rec->stream = (uint32_t)asu;
    rec->unit = (uint32_t)asu;
    rec->t_ns = ns;
    rec->op = (f[3][0] == 'R' || f[3][0] == 'r') ? TR_OP_READ : TR_OP_WRITE;
    rec->offset = lba * r->opt.spc_lba_size;
    rec->length = size;
    rec->line = s->lineno;
    s->seen[asu / 64] |= 1ull << (asu % 64);
    if (asu + 1 > s->max_asu)
        s->max_asu = (uint32_t)asu + 1;
    s->any = 1;
    return 0;
}

static int spc_next(struct tr_reader *r, struct tr_record *rec)
{
    struct spc *s = r->priv;

    while (!s->done) {
        char *line;
        size_t len, i;
        int rc = tr__in_line(&r->in, &line, &len, &s->lineno);

        if (rc == 0) {
            s->done = 1;
            return spc_finish(r, s);
        }
        if (rc == -EIO)
            return tr__error(r, s->lineno, "read error");
        if (rc == -E2BIG) {
            tr__error(r, s->lineno, "line longer than %u bytes", TR_LINE_MAX);
            if ((rc = tr__malformed(r)) < 0)
                return rc;
            continue;
        }
        for (i = 0; i < len && (is_blank((unsigned char)line[i])); i++)
            ;
        if (i == len)
            continue; /* blank line */
        if (spc_parse(r, s, line, len, rec) == 0)
            return 1;
        if ((rc = tr__malformed(r)) < 0)
            return rc;
    }
    return 0;
}

const struct tr_reader_ops tr__spc_ops = {
    .name = "spc",
    .probe = spc_probe,
    .open = spc_open,
    .next = spc_next,
    .close = spc_close,
    .unit_name = spc_unit_name,
    .explain = spc_explain,
};
