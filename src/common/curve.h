/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * curve.h - the overall response time of a throughput/response-time curve
 * (docs/SFS30.md §17.3): the area under the curve through the points in
 * throughput order, starting with a straight line from (0, 0), by
 * trapezoids, divided by the peak throughput.  One rule for every program
 * that reports it (the prime's report, sfs_generate's submission).
 */
#ifndef CM_CURVE_H
#define CM_CURVE_H

#include <stddef.h>

/* x: achieved throughputs, y: response times of n points (any order; not
 * modified).  Returns the overall response time, 0 when n is 0 or the peak
 * is 0; *peak (may be NULL) gets the largest x.  Allocates nothing and
 * cannot fail. */
double cm_curve_overall(const double *x, const double *y, size_t n, double *peak);

#endif /* CM_CURVE_H */
