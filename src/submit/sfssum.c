/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfssum.c - reading an sfssum file back (sb.h: sb_sum_load, sb_sum_curve).
 * Each line is one load point as the prime wrote it (docs/SFS30.md §16.5):
 * an optional INVALID flag, then requested load, throughput, response,
 * total operations, test time, NFS version, U or T, file set KB, clients,
 * processes, biod reads, biod writes and the benchmark version.  The
 * overall response time of the valid points is common/curve.h's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/curve.h"
#include "common/text.h"
#include "submit/sb.h"
#include "common/num.h"

#define NFIELDS 13

/* Splits s (modified) on blanks into at most max words. */
static int split(char *s, char **w, int max)
{
    int n = 0;
    char *save = NULL, *t;

    for (t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return max + 1;
        w[n++] = t;
    }
    return n;
}

static int num(struct cm_text *t, long line, const char *what, const char *s,
               uint64_t max, uint64_t *out)
{
    char err[256];

    if (cm_parse_u64(what, s, 0, max, out, err, sizeof(err)) < 0) {
        cm_text_error(t, line, "%s", err);
        return -1;
    }
    return 0;
}

static int real(struct cm_text *t, long line, const char *what, const char *s,
                double *out)
{
    char err[256];

    if (cm_parse_double(what, s, 0, 1e12, out, err, sizeof(err)) < 0) {
        cm_text_error(t, line, "%s", err);
        return -1;
    }
    return 0;
}

/* One line into p; errors reported through t. */
static int parse_line(struct cm_text *t, long line, char *s, struct sb_point *p)
{
    char *w[NFIELDS + 2];
    uint64_t v[9];
    int n = split(s, w, NFIELDS + 1), i = 0, bad = 0;

    memset(p, 0, sizeof(*p));
    p->line = line;
    if (n > 0 && strcmp(w[0], "INVALID") == 0) {
        p->invalid = 1;
        i = 1;
    }
    if (n - i != NFIELDS) {
        cm_text_error(t, line,
                      "%d fields where an sfssum line has %d (requested, throughput, "
                      "response, operations, time, version, U/T, file set KB, clients, "
                      "processes, biod reads, biod writes, SFS version)",
                      n - i, NFIELDS);
        return -1;
    }
    bad |= num(t, line, "requested load", w[i], UINT32_MAX, &p->requested);
    bad |= real(t, line, "throughput", w[i + 1], &p->ops);
    bad |= real(t, line, "response time", w[i + 2], &p->resp);
    bad |= num(t, line, "operations", w[i + 3], UINT64_MAX, &p->total_ops);
    bad |= num(t, line, "test time", w[i + 4], UINT32_MAX, &p->time_s);
    bad |= num(t, line, "NFS version", w[i + 5], 3, &v[0]);
    bad |= num(t, line, "file set KB", w[i + 7], UINT64_MAX, &p->fileset_kb);
    bad |= num(t, line, "clients", w[i + 8], SB_MAX_CLIENTS, &v[1]);
    bad |= num(t, line, "processes", w[i + 9], 100000, &v[2]);
    bad |= num(t, line, "biod reads", w[i + 10], 1000, &v[3]);
    bad |= num(t, line, "biod writes", w[i + 11], 1000, &v[4]);
    if (bad)
        return -1;
    if (v[0] != 2 && v[0] != 3) {
        cm_text_error(t, line, "NFS version %s: 2 or 3", w[i + 5]);
        return -1;
    }
    if (strcmp(w[i + 6], "U") != 0 && strcmp(w[i + 6], "T") != 0) {
        cm_text_error(t, line, "transport '%s': U (UDP) or T (TCP)", w[i + 6]);
        return -1;
    }
    if (strlen(w[i + 12]) >= sizeof(p->version)) {
        cm_text_error(t, line, "SFS version '%s' is too long", w[i + 12]);
        return -1;
    }
    p->nfs_version = (int)v[0];
    p->transport = w[i + 6][0];
    p->clients = (unsigned)v[1];
    p->procs = (unsigned)v[2];
    p->biod_reads = (unsigned)v[3];
    p->biod_writes = (unsigned)v[4];
    strcpy(p->version, w[i + 12]);
    return 0;
}

/* Every point belongs to the run of the first one. */
static void same_run(struct cm_text *t, const struct sb_point *a,
                     const struct sb_point *b)
{
    if (a->nfs_version != b->nfs_version || a->transport != b->transport ||
        a->clients != b->clients || a->procs != b->procs ||
        a->biod_reads != b->biod_reads || a->biod_writes != b->biod_writes)
        cm_text_error(t, b->line,
                      "not the run of line %ld (NFS version, transport, clients, "
                      "processes or biod settings differ): one sfssum file, one run",
                      a->line);
}

static int parse(void *ctx, const char *name, const char *text, size_t len, FILE *diag,
                 char *err, size_t errlen)
{
    struct sb_sum *sum = ctx;
    struct cm_text t;
    const char *l;
    long line;

    cm_text_init(&t, name, text, len, diag, err, errlen);
    sum->n = 0;
    while ((l = cm_text_next(&t, &line)) != NULL) {
        char copy[CM_TEXT_LINE_MAX];

        if (cm_text_blank(l))
            continue;
        if (sum->n == SB_MAX_POINTS) {
            cm_text_error(&t, line, "more than %d points", SB_MAX_POINTS);
            break;
        }
        snprintf(copy, sizeof(copy), "%s", l);
        if (parse_line(&t, line, copy, &sum->pts[sum->n]) == 0) {
            if (sum->n > 0)
                same_run(&t, &sum->pts[0], &sum->pts[sum->n]);
            sum->n++;
        }
    }
    if (t.errors == 0 && sum->n == 0)
        cm_text_error(&t, 0, "no load point in the file");
    return t.errors ? -EINVAL : 0;
}

int sb_sum_load(const char *path, struct sb_sum *sum, FILE *diag, char *err,
                size_t errlen)
{
    return cm_text_parse_file(path, parse, sum, diag, err, errlen);
}

size_t sb_sum_curve(const struct sb_sum *sum, double *ort_ms, double *peak_ops)
{
    double x[SB_MAX_POINTS], y[SB_MAX_POINTS]; /* no allocation: it cannot fail */
    size_t n = 0, i;

    for (i = 0; i < sum->n; i++)
        if (!sum->pts[i].invalid) {
            x[n] = sum->pts[i].ops;
            y[n++] = sum->pts[i].resp;
        }
    *ort_ms = cm_curve_overall(x, y, n, peak_ops);
    return n;
}
