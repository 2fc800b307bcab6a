/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.h - pictures through gnuplot, for any program that wants a curve
 * (sfs_trace's miss-ratio curve, the throughput/response-time curve of a
 * prime run).  The caller describes the axes and its series as numbers; this
 * module writes the data and a script to a private temporary directory, runs
 * gnuplot with a bounded time, and moves the picture into place atomically
 * (PNG or SVG, by the output's extension), so that a failed or killed
 * gnuplot never leaves a half-written picture.  gnuplot is optional: when it
 * is not installed the draw returns CM_PLOT_NO_GNUPLOT and the caller prints
 * a one-line note instead of failing.  Nothing here prints.
 */
#ifndef CM_PLOT_H
#define CM_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* gnuplot is not on PATH (the picture is skipped, not an error). */
#define CM_PLOT_NO_GNUPLOT (-10001)

/* One curve: n points (x[i], y[i]). */
struct cm_plot_series {
    const char *title; /* legend text; NULL = no legend entry */
    const double *x, *y;
    size_t n;
    const char *style; /* gnuplot "with" style; NULL = "linespoints" */
};

/* A marked spot: a point with its text beside it (the peak of a curve), on
 * the side away from the nearer edges, so that it stays inside the frame. */
struct cm_plot_label {
    double x, y;
    const char *text;
};

/* Every range is the data's (and the labels'), or ymin..ymax, widened by
 * this share of its span on each side (a factor on a log axis): no point
 * ever sits on the frame.  The legend goes below the picture, off the
 * data. */
#define CM_PLOT_PAD 0.05

struct cm_plot {
    const char *output; /* FILE.png or FILE.svg */
    const char *title, *xlabel, *ylabel;
    int logx, logy; /* log scale base (2, 10), 0 = linear */
    /* y range before the padding; both 0 = the data's */
    double ymin, ymax;
    /* both ranges reach 0 (before the padding), so that a curve's small
     * differences are seen at their true scale, not magnified */
    int from_zero;
    /* x is a size in bytes: on a log axis, tics at powers of two labelled
     * B, KiB, MiB, GiB... */
    int xbytes;
    /* a second x axis on top, x / x2scale (e.g. blocks for bytes), with its
     * label; NULL = none */
    const char *x2label;
    double x2scale;
    const struct cm_plot_label *labels;
    size_t nlabels;
    unsigned width, height; /* pixels; 0 = 900 x 600 */
    unsigned timeout_ms;    /* gnuplot's time limit; 0 = 20 s */
    const struct cm_plot_series *series;
    size_t nseries;
};

/* Draws p->output.  Returns 0; CM_PLOT_NO_GNUPLOT when gnuplot is not
 * installed; -EINVAL for a bad description (no series, an output that is
 * neither .png nor .svg); -ETIMEDOUT when gnuplot outlived its limit (it is
 * killed); -EIO when gnuplot failed (its first line of complaint is in err)
 * or -errno for a file error.  err always says what happened, e.g.
 * "gnuplot is not installed; no picture". */
int cm_plot_draw(const struct cm_plot *p, char *err, size_t errlen);

/* Writes the gnuplot script that draws p from the data file `data` (one
 * block per series, as cm_plot_draw writes it) into `out`: the padded
 * ranges, the axes, the labels and the series.  Returns 0 or -EIO. */
int cm_plot_write_script(FILE *f, const struct cm_plot *p, const char *data,
                         const char *out);

/* Whether gnuplot is on PATH. */
int cm_plot_available(void);

#endif /* CM_PLOT_H */
