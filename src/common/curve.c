/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * curve.c - cm_curve_overall (curve.h): the points sorted by throughput,
 * trapezoids from (0, 0) through each, the area over the peak.
 */
#include <stdlib.h>

#include "common/curve.h"
#include "common/alloc.h"

struct xy {
    double x, y;
};

static int by_x(const void *a, const void *b)
{
    const struct xy *p = a, *q = b;

    return p->x < q->x ? -1 : p->x > q->x;
}

double cm_curve_overall(const double *x, const double *y, size_t n, double *peak)
{
    struct xy *v;
    double area = 0, px = 0, py = 0;
    size_t i;

    if (peak)
        *peak = 0;
    if (n == 0)
        return 0;
    v = cm_calloc(n, sizeof(*v));
    if (v == NULL)
        return -1;
    for (i = 0; i < n; i++) {
        v[i].x = x[i];
        v[i].y = y[i];
    }
    qsort(v, n, sizeof(*v), by_x);
    for (i = 0; i < n; i++) {
        area += 0.5 * (py + v[i].y) * (v[i].x - px);
        px = v[i].x;
        py = v[i].y;
    }
    free(v);
    if (peak)
        *peak = px;
    return px > 0 ? area / px : 0;
}
