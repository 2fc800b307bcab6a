/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * curve.c - cm_curve_overall (curve.h): the points in throughput order,
 * trapezoids from (0, 0) through each, the area over the peak.
 *
 * It allocates nothing, so that it cannot fail: a curve has a few dozen
 * points (at most a thousand), and a selection pass per point (O(n^2))
 * visits them in order without a sorted copy.  The prime's report and
 * sfs_generate's metric never have to say "not computed".
 */
#include <stdint.h>

#include "common/curve.h"

/* Whether point i comes after point j in (throughput, index) order. */
static int after(const double *x, size_t i, size_t j)
{
    return i > j ? x[i] >= x[j] : x[i] > x[j];
}

double cm_curve_overall(const double *x, const double *y, size_t n, double *peak)
{
    double area = 0, px = 0, py = 0;
    size_t done, last = SIZE_MAX;

    for (done = 0; done < n; done++) {
        size_t best = SIZE_MAX;

        for (size_t i = 0; i < n; i++)
            if ((last == SIZE_MAX || after(x, i, last)) &&
                (best == SIZE_MAX || after(x, best, i)))
                best = i;
        if (best == SIZE_MAX) /* a NaN throughput: the rest cannot be ordered */
            break;
        area += 0.5 * (py + y[best]) * (x[best] - px);
        px = x[best];
        py = y[best];
        last = best;
    }
    if (peak)
        *peak = px;
    return px > 0 ? area / px : 0;
}
