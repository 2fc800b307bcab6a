/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mix.c - default mixes (docs/SFS30.md §2.2, D4), the mix-file readers
 * (docs/SFS30.md §18.1: version 2 "SFS MIXFILE VERSION 2" and the nfsstat version 1) and
 * the request-weighted op selector.  Diagnostics use cm_report so every
 * message is "FILE:LINE: ..."; parsers report every error before failing.
 * Lines come from common's cm_text reader, shared with iodist.c.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "load/iodist.h"
#include "load/mix.h"
#include "common/text.h"

/* ---- defaults ------------------------------------------------------------ */

void ld_mix_default(struct ld_mix *m, int nfs_version)
{
    memset(m, 0, sizeof(*m));
    if (nfs_version == 2) {
        m->pct[NF_OP_LOOKUP] = 36;
        m->pct[NF_OP_READ] = 14;
        m->pct[NF_OP_WRITE] = 7;
        m->pct[NF_OP_GETATTR] = 26;
        m->pct[NF_OP_READLINK] = 7;
        m->pct[NF_OP_READDIR] = 6;
    } else {
        /* D4: the guide's v3 column plus fsinfo 1 %. */
        m->pct[NF_OP_LOOKUP] = 27;
        m->pct[NF_OP_READ] = 18;
        m->pct[NF_OP_WRITE] = 9;
        m->pct[NF_OP_GETATTR] = 11;
        m->pct[NF_OP_READLINK] = 7;
        m->pct[NF_OP_READDIR] = 2;
        m->pct[NF_OP_READDIRPLUS] = 9;
        m->pct[NF_OP_ACCESS] = 7;
        m->pct[NF_OP_COMMIT] = 5;
        m->pct[NF_OP_FSINFO] = 1;
    }
    m->pct[NF_OP_CREATE] = 1;
    m->pct[NF_OP_REMOVE] = 1;
    m->pct[NF_OP_FSSTAT] = 1;
    m->pct[NF_OP_SETATTR] = 1;
    m->total = 100;
}

/* ---- version 2 ------------------------------------------------------------- */

/* "lookup 36%": the name, then the leading digits of the second word. */
static void v2_line(struct cm_text *p, struct ld_mix *m, const char *s, long line)
{
    char name[64];
    size_t n = 0;
    int op, v = 0, digits = 0;

    while (isspace((unsigned char)*s))
        s++;
    while (*s && !isspace((unsigned char)*s) && n < sizeof(name) - 1)
        name[n++] = *s++;
    name[n] = '\0';
    op = nf_op_from_name(name);
    if (op < 0) {
        cm_text_error(p, line, "unknown op name: %s", name);
        return;
    }
    while (isspace((unsigned char)*s))
        s++;
    while (isdigit((unsigned char)*s) && digits < 4) {
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    if (digits == 0 || digits > 3 || (*s && *s != '%' && !isspace((unsigned char)*s))) {
        cm_text_error(p, line, "bad mix format - expected '%s NN%%'", name);
        return;
    }
    if (v > 100) {
        cm_text_error(p, line, "%s %d%%: a percentage is 0..100", name, v);
        return;
    }
    m->pct[op] = v;
}

static void parse_v2(struct cm_text *p, struct ld_mix *m, int nfs_version)
{
    const char *s;
    long line;

    ld_mix_default(m, nfs_version);
    m->file_version = 2;
    while ((s = cm_text_next(p, &line)) != NULL) {
        if (s[0] == '#' || cm_text_blank(s))
            continue;
        v2_line(p, m, s, line);
    }
}

/* ---- version 1 (nfsstat) ----------------------------------------------------- */

#define V1_OPS 18 /* the v2 procedures, in SFS op order (statfs = fsstat) */

/* A decimal count at *s that fits 64 bits: 1 with *out and *s moved past it,
 * 0 when *s is not a digit, -ERANGE when the digits do not fit. */
static int v1_count(const char **s, unsigned long long *out)
{
    unsigned long long v = 0;
    const char *p = *s;

    if (!isdigit((unsigned char)*p))
        return 0;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (ULLONG_MAX - d) / 10)
            return -ERANGE;
        v = v * 10 + d;
    }
    *s = p;
    *out = v;
    return 1;
}

/* Reads up to max "count pct%" pairs from a data line; returns how many,
 * or -1 after reporting a count that does not fit 64 bits. */
static int v1_pairs(struct cm_text *p, long line, const char *s,
                    unsigned long long *counts, int max)
{
    int n = 0;

    while (n < max) {
        unsigned long long c;
        const char *start;
        int rc;

        while (isspace((unsigned char)*s))
            s++;
        start = s;
        rc = v1_count(&s, &c);
        if (rc < 0) {
            cm_text_error(p, line, "count %.*s does not fit in 64 bits",
                          (int)strspn(start, "0123456789"), start);
            return -1;
        }
        if (rc == 0)
            break;
        while (isspace((unsigned char)*s))
            s++;
        if (!isdigit((unsigned char)*s))
            break;
        while (isdigit((unsigned char)*s))
            s++;
        if (*s != '%')
            break;
        s++;
        counts[n++] = c;
    }
    return n;
}

static void parse_v1(struct cm_text *p, struct ld_mix *m)
{
    unsigned long long counts[V1_OPS], calls = 0;
    long lines[V1_OPS];
    const char *s;
    long line = 1;
    int op = 0, i, rc;

    memset(m, 0, sizeof(*m));
    m->file_version = 1;
    /* line 1 ("Client nfs:") was checked; skip the "calls badcalls" header */
    if (!cm_text_next(p, &line) || !(s = cm_text_next(p, &line))) {
        cm_text_error(p, line, "bad mix format - can't find the calls count");
        return;
    }
    while (isspace((unsigned char)*s))
        s++;
    rc = v1_count(&s, &calls);
    if (rc <= 0 || calls == 0) {
        cm_text_error(p, line, "bad mix format - %s",
                      rc < 0    ? "the calls count does not fit in 64 bits"
                      : rc == 0 ? "can't find the calls count"
                                : "the calls count is 0");
        return;
    }
    while (op < V1_OPS) {
        int want = V1_OPS - op < 7 ? V1_OPS - op : 7, got;

        if (!cm_text_next(p, &line) || !(s = cm_text_next(p, &line))) {
            cm_text_error(
                p, line,
                "bad mix format - can't find op values (end of file after %d ops)", op);
            return;
        }
        got = v1_pairs(p, line, s, counts + op, want);
        if (got < 0)
            return;
        if (got != want) {
            cm_text_error(p, line,
                          "bad mix format - can't find op values (found %d pairs)", got);
            return;
        }
        for (i = op; i < op + want; i++)
            lines[i] = line;
        op += want;
    }
    for (i = 0; i < V1_OPS; i++) {
        unsigned long long permille;

        if (counts[i] > calls) {
            cm_text_error(p, lines[i], "%s count %llu is larger than the %llu calls",
                          nf_op_name(i), counts[i], calls);
            continue;
        }
        /* counts[i] <= calls: the product needs 74 bits at most */
        permille = (unsigned long long)((unsigned __int128)counts[i] * 1000 / calls);
        /* rounded half up, as SFS's setmix() did */
        m->pct[i] = (int)(permille / 10 + (permille % 10 >= 5));
    }
}

/* ---- entry points ------------------------------------------------------------ */

static void finish(struct cm_text *p, struct ld_mix *m, int nfs_version)
{
    int op;

    m->total = 0;
    m->foreign_mask = 0;
    for (op = 0; op < NF_NOPS; op++) {
        m->total += m->pct[op];
        if (m->pct[op] > 0 && !nf_op_in_version(op, nfs_version)) {
            m->foreign_mask |= 1u << op;
            cm_text_warning(p, 0, "%s %d%%: not an NFSv%d operation; its calls will fail",
                            nf_op_name(op), m->pct[op], nfs_version);
        }
    }
    if (m->total != 100)
        cm_text_warning(p, 0, "WARNING total mix percentage %d != 100", m->total);
}

int ld_mix_parse(struct ld_mix *m, int nfs_version, const char *name, const char *text,
                 size_t len, FILE *diag, char *err, size_t errlen)
{
    struct cm_text p;
    struct ld_mix tmp;
    const char *first;
    long line;
    int version, used = 0;

    cm_text_init(&p, name, text, len, diag, err, errlen);
    first = cm_text_next(&p, &line);
    if (!first) {
        cm_text_error(&p, 1, "empty mix file");
        return -EINVAL;
    }
    if (strstr(first, "nfs:")) {
        parse_v1(&p, &tmp);
    } else if (sscanf(first, "SFS MIXFILE VERSION %d%n", &version, &used) != 1 ||
               !cm_text_blank(first + used)) {
        cm_text_error(&p, 1, "bad mix format - initial line '%s'", first);
    } else if (version != 2) {
        cm_text_error(&p, 1, "unknown mix file version number %d", version);
    } else {
        parse_v2(&p, &tmp, nfs_version);
    }
    if (p.errors)
        return -EINVAL;
    finish(&p, &tmp, nfs_version);
    snprintf(tmp.file, sizeof(tmp.file), "%s", name);
    *m = tmp;
    return 0;
}

struct mix_file {
    struct ld_mix *m;
    int nfs_version;
};

static int parse_mix_file(void *ctx, const char *name, const char *text, size_t len,
                          FILE *diag, char *err, size_t errlen)
{
    const struct mix_file *f = ctx;

    return ld_mix_parse(f->m, f->nfs_version, name, text, len, diag, err, errlen);
}

int ld_mix_load(struct ld_mix *m, int nfs_version, const char *path, FILE *diag,
                char *err, size_t errlen)
{
    struct mix_file f;

    f.m = m; /* filled by the parser: nothing is read from it here */
    f.nfs_version = nfs_version;
    return cm_text_parse_file(path, parse_mix_file, &f, diag, err, errlen);
}

/* ---- op selection ---------------------------------------------------------------- */

static double calls_per_request(int op, const struct ld_iodist *d)
{
    if (op == NF_OP_READ && d && d->read.calls_per_req > 0)
        return d->read.calls_per_req;
    if (op == NF_OP_WRITE && d && d->write.calls_per_req > 0)
        return d->write.calls_per_req;
    return 1.0;
}

int ld_opsel_init(struct ld_opsel *s, const struct ld_mix *m, const struct ld_iodist *d,
                  int nfs_version, int skip_foreign)
{
    double w[NF_NOPS], sum = 0, calls = 0;
    uint32_t acc = 0;
    int op;

    memset(s, 0, sizeof(*s));
    for (op = 0; op < NF_NOPS; op++) {
        w[op] = 0;
        if (m->pct[op] <= 0 || (skip_foreign && !nf_op_in_version(op, nfs_version)))
            continue;
        w[op] = m->pct[op] / calls_per_request(op, d);
        sum += w[op];
    }
    if (sum <= 0)
        return -EINVAL;
    for (op = 0; op < NF_NOPS; op++) {
        uint32_t iw = 0;

        if (w[op] > 0) {
            iw = (uint32_t)(w[op] / sum * LD_OPSEL_SCALE + 0.5);
            if (iw == 0)
                iw = 1; /* a listed op is never impossible */
        }
        acc += iw;
        s->cum[op] = acc;
        s->req_share[op] = w[op] / sum;
        calls += s->req_share[op] * calls_per_request(op, d);
    }
    s->total = acc;
    for (op = 0; op < NF_NOPS; op++)
        s->call_share[op] = s->req_share[op] * calls_per_request(op, d) / calls;
    return 0;
}

void ld_opsel_single(struct ld_opsel *s, int op)
{
    int i;

    memset(s, 0, sizeof(*s));
    for (i = 0; i < NF_NOPS; i++)
        s->cum[i] = i >= op ? 1 : 0;
    s->total = 1;
    s->req_share[op] = 1;
    s->call_share[op] = 1;
}

int ld_opsel_draw(const struct ld_opsel *s, struct cm_rng *rng)
{
    uint32_t v = cm_rng_below(rng, s->total);
    int lo = 0, hi = NF_NOPS - 1;

    /* the first op whose cumulative bound exceeds v */
    while (lo < hi) {
        int mid = (lo + hi) / 2;

        if (s->cum[mid] > v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}
