/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * curve.c - the overall response time of a run (sfs-reference §17.3): the
 * area under the response-time/throughput curve of the valid points,
 * starting with a straight line from (0, 0) to the first point, by
 * trapezoids, divided by the peak throughput.
 */
#include <stdlib.h>
#include <string.h>

#include "prime/pr_int.h"

struct xy {
    double x, y;
};

static int by_x(const void *a, const void *b)
{
    const struct xy *p = a, *q = b;

    return p->x < q->x ? -1 : p->x > q->x;
}

double pr_overall_response(const double *x, const double *y, size_t n)
{
    struct xy *v;
    double area = 0, px = 0, py = 0;
    size_t i;

    if (n == 0)
        return 0;
    v = calloc(n, sizeof(*v));
    if (v == NULL)
        return 0;
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
    return px > 0 ? area / px : 0;
}
