/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c - the throughput/response-time curve of a run (decisions.md D10)
 * through the common gnuplot runner (common/plot.h: private temp files,
 * bounded time, the picture renamed into place, gnuplot optional): the
 * valid points as the SFS curve from (0, 0), the invalid ones as separate
 * marks, since SFS leaves them off the curve (sfs-reference 17.2).
 */
#include <errno.h>
#include <string.h>

#include "common/plot.h"
#include "prime/pr_int.h"

int pr_plot_curve(const char *path, const char *title, const double *x, const double *y,
                  size_t n, const double *xi, const double *yi, size_t ni, char *note,
                  size_t notelen)
{
    static double vx[PR_MAX_POINTS + 1], vy[PR_MAX_POINTS + 1];
    struct cm_plot_series ser[2] = {
        {"valid points (from 0,0)", vx, vy, n + 1, "linespoints pt 7"},
        {"INVALID points (not on an SFS curve)", xi, yi, ni, "points pt 6 ps 2"},
    };
    struct cm_plot p;

    if (n + ni == 0)
        return cm_errf(note, notelen, "no picture: no finished point"), -ENODATA;
    vx[0] = vy[0] = 0;
    memcpy(vx + 1, x, n * sizeof(*x));
    memcpy(vy + 1, y, n * sizeof(*y));
    memset(&p, 0, sizeof(p));
    p.output = path;
    p.title = title;
    p.xlabel = "achieved throughput (NFS ops/s)";
    p.ylabel = "average response time (ms)";
    p.series = ser;
    p.nseries = ni > 0 ? 2 : 1;
    return cm_plot_draw(&p, note, notelen);
}
