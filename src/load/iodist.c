/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * iodist.c - the transfer-size distributions of docs/SFS30.md §3 and the
 * block-size file reader of docs/SFS30.md §18.2.  Tables are kept as rows plus cumulative
 * percentages; a draw is one random number and a scan of at most
 * LD_IODIST_MAX_ROWS rows (6 by default).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cm.h"
#include "common/rng.h"
#include "common/text.h"
#include "load/iodist.h"

#define MAX_FILE_BLOCKS 64 /* largest block count a file row may name */

static const struct ld_iodist_row def_read[] = {
    {0, 0, 0}, {85, 1, 0}, {8, 2, 1}, {4, 4, 1}, {2, 8, 1}, {1, 16, 1},
};
static const struct ld_iodist_row def_write[] = {
    {49, 0, 1}, {36, 1, 1}, {8, 2, 1}, {4, 4, 1}, {2, 8, 1}, {1, 16, 1},
};

/* Cumulative percentages, calls per request and the largest block count. */
static void table_finish(struct ld_iodist_table *t)
{
    int i, acc = 0, calls = 0;

    t->max_blocks = 0;
    for (i = 0; i < t->nrows; i++) {
        acc += t->row[i].pct;
        t->cum[i] = acc;
        calls += t->row[i].pct * (t->row[i].blocks + (t->row[i].frag ? 1 : 0));
        if (t->row[i].blocks > t->max_blocks)
            t->max_blocks = t->row[i].blocks;
    }
    t->calls_per_req = calls / 100.0;
}

static void table_set(struct ld_iodist_table *t, const struct ld_iodist_row *rows, int n)
{
    memset(t, 0, sizeof(*t));
    memcpy(t->row, rows, (size_t)n * sizeof(rows[0]));
    t->nrows = n;
    table_finish(t);
}

void ld_iodist_default(struct ld_iodist *d, uint32_t kb_per_block)
{
    memset(d, 0, sizeof(*d));
    table_set(&d->read, def_read, (int)CM_ARRAY_LEN(def_read));
    table_set(&d->write, def_write, (int)CM_ARRAY_LEN(def_write));
    d->kb_per_block = kb_per_block ? kb_per_block : 8;
    d->block_bytes = d->kb_per_block * LD_KB;
}

/* ---- block-size file ------------------------------------------------------ */

/* Reads "percent blocks frag" into r; 0 or an error already reported. */
static int row_line(struct cm_text *p, const char *s, long line, struct ld_iodist_row *r)
{
    char extra;
    int n = sscanf(s, "%d %d %d %c", &r->pct, &r->blocks, &r->frag, &extra);

    if (n != 3) {
        cm_text_error(p, line, "expected 'percent blocks frag' (three numbers), got '%s'",
                      s);
        return -1;
    }
    if (r->pct < 0 || r->pct > 100)
        cm_text_error(p, line, "percent %d is out of range 0..100", r->pct);
    else if (r->blocks < 0 || r->blocks > MAX_FILE_BLOCKS)
        cm_text_error(p, line, "blocks %d is out of range 0..%d", r->blocks,
                      MAX_FILE_BLOCKS);
    else if (r->frag != 0 && r->frag != 1)
        cm_text_error(p, line, "frag %d must be 0 or 1", r->frag);
    else if (r->pct > 0 && r->blocks == 0 && r->frag == 0)
        cm_text_error(p, line,
                      "a row of %d%% with 0 blocks and no fragment transfers nothing",
                      r->pct);
    else
        return 0;
    return -1;
}

/* Checks a finished section: sum 100. */
static void section_end(struct cm_text *p, const struct ld_iodist_table *t,
                        const char *name, long line)
{
    int sum = t->nrows ? t->cum[t->nrows - 1] : 0;

    if (t->nrows == 0)
        cm_text_error(p, line, "section %s has no rows", name);
    else if (sum != 100)
        cm_text_error(p, line, "section %s: percentages sum to %d, not 100", name, sum);
}

int ld_iodist_parse(struct ld_iodist *d, uint32_t kb_per_block, const char *name,
                    const char *text, size_t len, FILE *diag, char *err, size_t errlen)
{
    struct cm_text p;
    struct ld_iodist tmp;
    struct ld_iodist_table *cur = NULL;
    const char *cur_name = NULL, *s;
    long line = 0, cur_line = 0;
    int seen_read = 0, seen_write = 0;

    ld_iodist_default(&tmp, kb_per_block);
    cm_text_init(&p, name, text, len, diag, err, errlen);
    while ((s = cm_text_next(&p, &line)) != NULL) {
        struct ld_iodist_row r;
        char word[16];

        while (isspace((unsigned char)*s))
            s++;
        if (*s == '#' || *s == '\0')
            continue;
        if (isalpha((unsigned char)*s)) {
            /* "Read" / "read" / "Write" / "write" (SFS's 5-character check
             * rejected "Read": accept both, docs/SFS30.md §18.2). */
            if (sscanf(s, "%15s", word) != 1 ||
                (strcasecmp(word, "read") != 0 && strcasecmp(word, "write") != 0)) {
                cm_text_error(&p, line, "unknown section '%s' (expected Read or Write)",
                              s);
                cur = NULL;
                continue;
            }
            if (cur)
                section_end(&p, cur, cur_name, cur_line);
            cur_line = line;
            if (strcasecmp(word, "read") == 0) {
                cur_name = "Read";
                if (seen_read++)
                    cm_text_error(&p, line, "section Read appears twice");
                cur = &tmp.read;
            } else {
                cur_name = "Write";
                if (seen_write++)
                    cm_text_error(&p, line, "section Write appears twice");
                cur = &tmp.write;
            }
            cur->nrows = 0;
            continue;
        }
        if (row_line(&p, s, line, &r) < 0)
            continue;
        if (!cur) {
            cm_text_error(&p, line, "a row before any Read or Write section");
            continue;
        }
        if (cur->nrows >= LD_IODIST_MAX_ROWS) {
            cm_text_error(&p, line, "more than %d rows in section %s", LD_IODIST_MAX_ROWS,
                          cur_name);
            continue;
        }
        cur->row[cur->nrows++] = r;
        table_finish(cur);
    }
    if (cur)
        section_end(&p, cur, cur_name, cur_line);
    if (!seen_read && !seen_write && p.errors == 0)
        cm_text_error(&p, line > 0 ? line : 1, "no Read or Write section");
    if (p.errors)
        return -EINVAL;
    table_finish(&tmp.read);
    table_finish(&tmp.write);
    tmp.from_file = 1;
    snprintf(tmp.file, sizeof(tmp.file), "%s", name);
    *d = tmp;
    return 0;
}

struct iodist_file {
    struct ld_iodist *d;
    uint32_t kb_per_block;
};

static int parse_iodist_file(void *ctx, const char *name, const char *text, size_t len,
                             FILE *diag, char *err, size_t errlen)
{
    const struct iodist_file *f = ctx;

    return ld_iodist_parse(f->d, f->kb_per_block, name, text, len, diag, err, errlen);
}

int ld_iodist_load(struct ld_iodist *d, uint32_t kb_per_block, const char *path,
                   FILE *diag, char *err, size_t errlen)
{
    struct iodist_file f;

    f.d = d; /* filled by the parser: nothing is read from it here */
    f.kb_per_block = kb_per_block;
    return cm_text_parse_file(path, parse_iodist_file, &f, diag, err, errlen);
}

/* ---- draws ---------------------------------------------------------------- */

void ld_iodist_row_xfer(const struct ld_iodist *d, const struct ld_iodist_row *r,
                        struct cm_rng *rng, struct ld_xfer *x)
{
    x->full_calls = (uint32_t)r->blocks;
    x->frag_bytes = 0;
    if (r->frag) {
        /* 1..KB_PER_BLOCK-1 KB; with 1 KB blocks the fragment is 1 KB */
        uint32_t kb =
            d->kb_per_block > 1 ? 1 + cm_rng_below(rng, d->kb_per_block - 1) : 1;

        x->frag_bytes = kb * LD_KB;
    }
    x->bytes = x->full_calls * d->block_bytes + x->frag_bytes;
    x->calls = x->full_calls + (x->frag_bytes != 0);
}

void ld_iodist_draw(const struct ld_iodist *d, int write, struct cm_rng *rng,
                    struct ld_xfer *x)
{
    const struct ld_iodist_table *t = write ? &d->write : &d->read;
    int v = (int)cm_rng_below(rng, 100), i = 0;

    while (i < t->nrows - 1 && t->cum[i] <= v)
        i++;
    ld_iodist_row_xfer(d, &t->row[i], rng, x);
}

uint32_t ld_iodist_max_bytes(const struct ld_iodist *d)
{
    int b = d->read.max_blocks > d->write.max_blocks ? d->read.max_blocks
                                                     : d->write.max_blocks;

    return (uint32_t)(b + 1) * d->block_bytes;
}
