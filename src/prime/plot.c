/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c - the throughput/response-time curve of a run (docs/DECISIONS.md D10)
 * through the common gnuplot runner (common/plot.h: private temp files,
 * bounded time, the picture renamed into place, gnuplot optional, every
 * point off the frame, the legend below the picture), both axes from 0 so
 * that a curve is seen at its true scale: the valid points as the SFS curve
 * from (0, 0), with the peak and the overall response time marked; the
 * invalid ones joined by a dashed line of their own, labelled as not
 * publishable, since SFS leaves them off the curve (docs/SFS30.md 17.2) - a
 * short demo run still shows its shape; and the fold: the points after the
 * one of the highest throughput, which asked for more and got less, joined
 * to it by a line of their own ("past the peak"), so that a curve folding
 * back reads as what it is.  A legend entry appears only for what is drawn.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/curve.h"
#include "common/plot.h"
#include "prime/pr_int.h"

int pr_plot_curve(const char *path, const char *title, const struct pr_plot_point *pt,
                  size_t npt, char *note, size_t notelen)
{
    static double vx[PR_MAX_POINTS + 1], vy[PR_MAX_POINTS + 1], x[PR_MAX_POINTS],
        y[PR_MAX_POINTS], ix[PR_MAX_POINTS], iy[PR_MAX_POINTS], fx[PR_MAX_POINTS],
        fy[PR_MAX_POINTS];
    double ox[2] = {0, 0}, oy[2] = {0, 0}, peak = 0, ort;
    char ort_title[96], peak_text[96];
    struct cm_plot_series ser[4];
    struct cm_plot_label mark;
    struct cm_plot p;
    size_t ns = 0, i, top = 0, n = 0, ni = 0, nf = 0, fold = 0;

    if (npt == 0)
        return cm_errf(note, notelen, "no picture: no finished point"), -ENODATA;
    memset(&p, 0, sizeof(p));
    memset(ser, 0, sizeof(ser));
    for (i = 1; i < npt; i++) /* the fold begins after the highest throughput */
        if (pt[i].ops > pt[fold].ops)
            fold = i;
    for (i = 0; i < npt; i++) {
        if (pt[i].valid) { /* the metric counts every valid point */
            x[n] = pt[i].ops;
            y[n++] = pt[i].resp;
        }
        if (i >= fold && fold + 1 < npt) { /* from the peak on: the fold */
            fx[nf] = pt[i].ops;
            fy[nf++] = pt[i].resp;
        }
        if (i <= fold && !pt[i].valid) {
            ix[ni] = pt[i].ops;
            iy[ni++] = pt[i].resp;
        }
    }
    if (n > 0) {
        size_t nv = 1;

        vx[0] = vy[0] = 0;
        for (i = 0; i < npt && i <= fold; i++)
            if (pt[i].valid) {
                vx[nv] = pt[i].ops;
                vy[nv++] = pt[i].resp;
            }
        if (nv > 1)
            ser[ns++] = (struct cm_plot_series){"valid points (the SFS curve, from 0,0)",
                                                vx, vy, nv, "linespoints lw 2 pt 7"};
        ort = cm_curve_overall(x, y, n, &peak);
        for (i = 1; i < n; i++)
            if (x[i] > x[top])
                top = i;
        /* the overall response time across the curve it averages */
        ox[1] = peak;
        oy[0] = oy[1] = ort;
        snprintf(ort_title, sizeof(ort_title), "overall response time %.2f ms", ort);
        ser[ns++] = (struct cm_plot_series){ort_title, ox, oy, 2, "lines dt 3 lw 2"};
        snprintf(peak_text, sizeof(peak_text), "peak %.0f ops/s at %.2f ms", x[top],
                 y[top]);
        mark = (struct cm_plot_label){x[top], y[top], peak_text};
        p.labels = &mark;
        p.nlabels = 1;
    }
    if (ni > 0)
        ser[ns++] = (struct cm_plot_series){"INVALID points, joined (not publishable)",
                                            ix, iy, ni, "linespoints dt 2 pt 6 ps 1.5"};
    if (nf > 1)
        ser[ns++] = (struct cm_plot_series){
            "past the peak: more load asked, less achieved (the fold)", fx, fy, nf,
            "linespoints dt 4 lw 2 pt 9 ps 1.5"};
    p.output = path;
    p.title = title;
    p.xlabel = "achieved throughput (NFS ops/s)";
    p.ylabel = "average response time (ms)";
    p.from_zero = 1;
    p.series = ser;
    p.nseries = ns;
    return cm_plot_draw(&p, note, notelen);
}
