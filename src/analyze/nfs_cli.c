/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_cli.c - sfs_trace's subcommands on NFS traces (packet captures and
 * nfsdump text): the reader of the trace layer (tr_nfs_open) feeds the
 * statistics (nfs_stats.c), the miss-ratio curve (nfs_mrc.c, through the
 * block traces' runner in cli.c) or the file-system image
 * (im_image.h), and the results go to the text table, the YAML and
 * the picture as for block traces.  The trace is read on one thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "analyze/az_nfs.h"
#include "analyze/cli_int.h"

#define UNIT_HEX (2 * NF_FH_MAX + 2)

/* One pass over the trace: fn on every event, and the progress lines.
 * 0, or -errno with the message printed. */
static int each_event(const char *file, struct tr_nfs_reader *r,
                      int (*fn)(void *, const struct tr_nfs_event *), void *data,
                      const char *(*why)(void *), struct az__progress *p, FILE *diag)
{
    struct tr_nfs_event ev;
    int rc;

    while ((rc = tr_nfs_next(r, &ev)) > 0)
        if (az__progress_event(p, &ev), (rc = fn(data, &ev)) < 0) {
            fprintf(diag, "sfs_trace: %s: the call at %" PRIu64 ": %s\n", file, ev.where,
                    why(data));
            return rc;
        }
    if (rc < 0)
        fprintf(diag, "%s\n", tr_nfs_error(r));
    return rc;
}

/* The table unless -q, the YAML with --yaml: an AZ_EXIT_* code. */
static int outputs(struct az_cli *c, FILE *out, FILE *diag,
                   void (*table)(FILE *, const void *),
                   void (*yaml)(struct cm_yaml *, const void *), const void *data)
{
    struct cm_yaml *y;

    if (!c->quiet)
        table(out, data);
    if (!c->yaml[0])
        return AZ_EXIT_OK;
    if (!(y = az__cli_yaml_begin(c, diag)))
        return AZ_EXIT_INPUT;
    yaml(y, data);
    return az__cli_yaml_end(y, diag);
}

/* ---- stats --------------------------------------------------------------- */

struct stats_run {
    struct az_nfs_source src;
    struct az_nfs_stats s;
};

static int stats_fn(void *data, const struct tr_nfs_event *ev)
{
    return az_nfs_stats_event(&((struct stats_run *)data)->s, ev);
}

static const char *stats_why(void *data)
{
    return ((struct stats_run *)data)->s.last_error;
}

static void stats_table(FILE *out, const void *data)
{
    const struct stats_run *x = data;

    az_nfs_stats_table(out, &x->src, &x->s);
}

static void stats_yaml(struct cm_yaml *y, const void *data)
{
    const struct stats_run *x = data;

    az_nfs_stats_yaml(y, &x->src, &x->s);
}

static int run_stats(struct az_cli *c, struct tr_nfs_reader *r, struct az__progress *p,
                     FILE *out, FILE *diag)
{
    struct stats_run *x = cm_calloc(1, sizeof(*x)); /* large: a histogram per row */
    int code;

    if (!x) {
        fprintf(diag, "sfs_trace: out of memory\n");
        return AZ_EXIT_INPUT;
    }
    x->src = (struct az_nfs_source){az__nfs_trace_name(c), r, c->rows, c->nrows, c};
    az_nfs_stats_init(&x->s);
    code = each_event(az__nfs_trace_name(c), r, stats_fn, x, stats_why, p, diag) < 0
               ? AZ_EXIT_INPUT
               : outputs(c, out, diag, stats_table, stats_yaml, x);
    az_nfs_stats_free(&x->s);
    free(x);
    return code;
}

/* ---- image --------------------------------------------------------------- */

struct image_run {
    struct az_nfs_source src;
    struct im_image *img;
};

static int image_op(void *data, const struct tr_nfs_event *ev)
{
    return im_event(((struct image_run *)data)->img, ev);
}

static int image_fn(void *data, const struct tr_nfs_event *ev)
{
    return tr_nfs_each_v3(ev, image_op, data);
}

static const char *image_why(void *data)
{
    (void)data;
    return "out of memory";
}

static void image_table(FILE *out, const void *data)
{
    const struct image_run *x = data;

    az_nfs_image_table(out, &x->src, x->img);
}

static void image_yaml(struct cm_yaml *y, const void *data)
{
    const struct image_run *x = data;

    az_nfs_image_yaml(y, &x->src, x->img);
}

static int run_image(struct az_cli *c, struct tr_nfs_reader *r, struct az__progress *p,
                     FILE *out, FILE *diag)
{
    struct image_run x = {{az__nfs_trace_name(c), r, c->rows, c->nrows, c}, im_new()};
    int code;

    if (!x.img) {
        fprintf(diag, "sfs_trace: out of memory\n");
        return AZ_EXIT_INPUT;
    }
    if (each_event(az__nfs_trace_name(c), r, image_fn, &x, image_why, p, diag) < 0)
        code = AZ_EXIT_INPUT;
    else if (im_finish(x.img) < 0) {
        fprintf(diag, "sfs_trace: out of memory\n");
        code = AZ_EXIT_INPUT;
    } else
        code = outputs(c, out, diag, image_table, image_yaml, &x);
    im_free(x.img);
    return code;
}

/* ---- mrc ----------------------------------------------------------------- */

struct mrc_feed {
    struct tr_nfs_reader *r;
    struct im_fhmap *units;
    struct az__progress *progress;
    char format[256]; /* the format, and a live capture's drops */
    struct az_mrc *m;
};

static int mrc_op(void *data, const struct tr_nfs_event *ev)
{
    struct mrc_feed *f = data;

    return az_nfs_mrc_event(f->m, f->units, ev);
}

static int mrc_feed(struct az_mrc *m, void *data, char *err, size_t errlen)
{
    struct mrc_feed *f = data;
    struct tr_nfs_event ev;
    char note[200];
    int rc;

    f->m = m;
    while ((rc = tr_nfs_next(f->r, &ev)) > 0)
        if (az__progress_event(f->progress, &ev),
            (rc = tr_nfs_each_v3(&ev, mrc_op, f)) < 0)
            return cm_errf(err, errlen, "%s: event at %" PRIu64 ": %s",
                           tr_nfs_format(f->r), ev.where, m->last_error),
                   rc;
    if (rc < 0)
        return cm_errf(err, errlen, "%s", tr_nfs_error(f->r)), rc;
    if (az_nfs_capture_text(f->r, note, sizeof(note)))
        snprintf(f->format, sizeof(f->format), "%s; %s", tr_nfs_format(f->r), note);
    az_mrc_finish(m);
    return 0;
}

/* A unit is a file handle: its hex. */
static const char *unit_name(const void *data, uint32_t unit, char *buf, size_t len)
{
    const struct mrc_feed *f = data;
    struct nf_fh fh;

    im_fhmap_get(f->units, unit, &fh);
    return im_fh_hex(&fh, buf, len);
}

static void reader_yaml(struct cm_yaml *y, const void *data)
{
    az_nfs_capture_yaml(y, ((const struct mrc_feed *)data)->r);
    az_nfs_reader_yaml(y, ((const struct mrc_feed *)data)->r);
}

static int run_mrc(struct az_cli *c, struct tr_nfs_reader *r, struct az__progress *p,
                   uint64_t bs, uint64_t *sizes, size_t n, FILE *out, FILE *diag)
{
    struct mrc_feed f = {r, im_fhmap_new(), p, "", NULL};
    struct az_source src = {.file = az__nfs_trace_name(c),
                            .opts = c->rows,
                            .nopts = c->nrows,
                            .cfg = c,
                            .format = f.format,
                            .unit_name = unit_name,
                            .reader_yaml = reader_yaml,
                            .data = &f};
    int code;

    if (!f.units) {
        fprintf(diag, "sfs_trace: out of memory\n");
        return AZ_EXIT_INPUT;
    }
    snprintf(f.format, sizeof(f.format), "%s", tr_nfs_format(r));
    code =
        az__cli_mrc(c, &src, mrc_feed, &f, AZ_KEY_NFS_UNIT_BITS, bs, sizes, n, out, diag);
    im_fhmap_free(f.units);
    return code;
}

/* ---- the entry ----------------------------------------------------------- */

int az__nfs_cli_run(struct az_cli *c, const char *format, uint64_t bs, uint64_t *sizes,
                    size_t n, FILE *out, FILE *diag)
{
    struct az__warn_state w = {diag, 0};
    struct az__progress *p = cm_calloc(1, sizeof(*p));
    struct tr_nfs_reader *r;
    int code;

    if (!p) {
        fprintf(diag, "sfs_trace: out of memory\n");
        return AZ_EXIT_INPUT;
    }
    p->warn = &w;
    if (az__nfs_open(c, format, p, &r, diag) < 0) {
        free(p);
        return AZ_EXIT_INPUT;
    }
    if (strcmp(c->cmd, "stats") == 0)
        code = run_stats(c, r, p, out, diag);
    else if (strcmp(c->cmd, "mrc") == 0)
        code = run_mrc(c, r, p, bs, sizes, n, out, diag);
    else
        code = run_image(c, r, p, out, diag);
    tr_nfs_close(r);
    free(p);
    return code;
}
