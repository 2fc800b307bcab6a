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

/* gnuplot is not on PATH (the picture is skipped, not an error). */
#define CM_PLOT_NO_GNUPLOT (-10001)

/* One curve: n points (x[i], y[i]). */
struct cm_plot_series {
    const char *title; /* legend text; NULL = no legend entry */
    const double *x, *y;
    size_t n;
    const char *style; /* gnuplot "with" style; NULL = "linespoints" */
};

struct cm_plot {
    const char *output; /* FILE.png or FILE.svg */
    const char *title, *xlabel, *ylabel;
    int logx, logy; /* log scale base (2, 10), 0 = linear */
    /* y range; both 0 = automatic */
    double ymin, ymax;
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

/* Whether gnuplot is on PATH. */
int cm_plot_available(void);

#endif /* CM_PLOT_H */
