/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ld_int.h - the load layer's private header: what the report's files
 * (report.c, validity.c, text.c, yaml.c) share besides report.h.
 */
#ifndef LD_INT_H
#define LD_INT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "load/report.h"

/* The throughput's divisor in ns: the prime's span of the run, the
 * workload's duration, the span of the children's run windows, or (none
 * of those known) their mean run time. */
uint64_t ld__runtime_ns(const struct ld_report_in *in);

/* A time as ctime prints it (24 characters), into buf. */
void ld__stamp(time_t when, char *buf, size_t len);

/* Calls per request of one op (0 without requests). */
double ld__per_request(const struct ld_opstat *o);

#endif /* LD_INT_H */
