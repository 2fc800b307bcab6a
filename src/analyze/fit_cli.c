/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit_cli.c - `sfs_trace fit TRACE -o NAME` (az_fit.h): the trace (a
 * capture, nfsdump text, or a live capture with --interface) read once
 * into the fit, the model written as NAME.mix, NAME.iodist and NAME_rc,
 * then the report (text, --yaml) and, with --compare, a second trace's fit
 * beside it; --plot draws their miss-ratio curves in one picture.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_fit.h"
#include "analyze/cli_int.h"
#include "common/alloc.h"
#include "common/plot.h"

/* Reads r into f and fits it.  0, or -errno with the message on diag. */
static int fit_trace(struct az_cli *c, const char *name, struct tr_nfs_reader *r,
                     struct az__progress *p, struct az_fit *f, FILE *diag)
{
    struct tr_nfs_event ev;
    int rc;

    while ((rc = tr_nfs_next(r, &ev)) > 0) {
        if (p)
            az__progress_event(p, &ev);
        /* an NFSv4 COMPOUND as the SFS op it carries (fit_v4.c) */
        rc = ev.prog == TR_NFS_PROG_NFS && ev.vers == 4 ? az_fit_v4_event(f, &ev)
                                                        : az_fit_event(f, &ev);
        if (rc < 0) {
            fprintf(diag, "sfs_trace: %s: the call at %" PRIu64 ": %s\n", name, ev.where,
                    f->last_error);
            return rc;
        }
    }
    if (rc < 0) {
        fprintf(diag, "%s\n", tr_nfs_error(r));
        return rc;
    }
    if ((rc = az_fit_finish(f, r, c->points)) < 0)
        fprintf(diag, "sfs_trace: %s: %s\n", name, f->last_error);
    return rc;
}

/* The --compare trace, fitted. */
static int fit_other(struct az_cli *c, uint64_t bs, struct az_fit *g, FILE *diag)
{
    struct az__warn_state w = {diag, 0};
    struct tr_nfs_options o = {.format = "auto",
                               .lenient = c->lenient,
                               .pair_window_ns = (int64_t)(c->pair_window * 1e9),
                               .warn = az__cli_warning,
                               .warn_data = &w,
                               .nfsv4 = 1};
    struct tr_nfs_reader *r;
    char err[CM_ERR_LEN];
    int rc;

    if (az_fit_init(g, bs) < 0) {
        fprintf(diag, "sfs_trace: out of memory\n");
        return -ENOMEM;
    }
    if ((rc = tr_nfs_open(&r, c->compare, &o, err, sizeof(err))) < 0) {
        fprintf(diag, "%s\n", err);
        return rc;
    }
    rc = fit_trace(c, c->compare, r, NULL, g, diag);
    tr_nfs_close(r);
    return rc;
}

static int plot(struct az_cli *c, const char *trace, const struct az_fit *f,
                const struct az_fit *g, FILE *out, FILE *diag)
{
    const struct az_mrc *ms[2] = {f->mrc, g ? g->mrc : NULL};
    const char *names[2] = {trace, g ? c->compare : NULL};
    uint64_t sizes[64], fp = f->m.footprint_blocks;
    char title[600], err[CM_ERR_LEN];
    size_t n = 0;
    int rc;

    if (g && g->m.footprint_blocks > fp)
        fp = g->m.footprint_blocks;
    do
        sizes[n] = 1ull << n;
    while (sizes[n++] < fp && n < 63);
    snprintf(title, sizeof(title),
             "miss-ratio curve%s: %.250s%s%.250s (block %" PRIu64 " B)", g ? "s" : "",
             trace, g ? " and " : "", g ? c->compare : "", f->block_size);
    rc = az_mrc_plot_curves(ms, names, g ? 2 : 1, title, sizes, n, c->plot, err,
                            sizeof(err));
    if (rc == CM_PLOT_NO_GNUPLOT) {
        fprintf(diag, "sfs_trace: %s (the report has the same curves)\n", err);
        return AZ_EXIT_OK;
    }
    if (rc < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return AZ_EXIT_INPUT;
    }
    fprintf(out, "Picture: %s\n", c->plot);
    return AZ_EXIT_OK;
}

int az__fit_run(struct az_cli *c, const char *format, uint64_t bs, FILE *out, FILE *diag)
{
    struct az__warn_state w = {diag, 0};
    struct az__progress *p = cm_calloc(1, sizeof(*p));
    struct az_fit *f = cm_calloc(1, sizeof(*f)), *g = NULL;
    const char *name = az__nfs_trace_name(c);
    struct az_fit_out o = {c->output, c->mount[0] ? c->mount : NULL, name};
    struct tr_nfs_reader *r = NULL;
    char err[CM_ERR_LEN];
    int code = AZ_EXIT_INPUT;

    if (!p || !f || az_fit_init(f, bs) < 0) {
        fprintf(diag, "sfs_trace: out of memory\n");
        free(p);
        free(f);
        return AZ_EXIT_INPUT;
    }
    p->warn = &w;
    if (az__nfs_open(c, format, p, &r, diag) < 0 || fit_trace(c, name, r, p, f, diag) < 0)
        goto out;
    if (c->compare[0] &&
        (!(g = cm_calloc(1, sizeof(*g))) || fit_other(c, bs, g, diag) < 0)) {
        if (!g)
            fprintf(diag, "sfs_trace: out of memory\n");
        goto out;
    }
    if (az_fit_write(f, &o, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        goto out;
    }
    if (!c->quiet)
        az_fit_table(out, name, f, g ? c->compare : NULL, g, &o);
    code = AZ_EXIT_OK;
    if (c->yaml[0]) {
        struct cm_yaml *y = az__cli_yaml_begin(c, diag);
        if (!y)
            code = AZ_EXIT_INPUT;
        else {
            az_fit_yaml(y, name, f, g ? c->compare : NULL, g);
            code = az__cli_yaml_end(y, diag);
        }
    }
    if (code == AZ_EXIT_OK && c->plot[0])
        code = plot(c, name, f, g, out, diag);
out:
    if (g) {
        az_fit_free(g);
        free(g);
    }
    tr_nfs_close(r);
    az_fit_free(f);
    free(f);
    free(p);
    return code;
}
