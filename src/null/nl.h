/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nl.h - the null workload (prefix nl_; docs/sfs.md, "Workloads"): each
 * child mounts and sends NFS NULL calls at its share of the requested load
 * (-l), --null-batch of them in flight at a time, paced as the SFS mix is
 * (load/pacing.h); nothing else.  The smallest workload FreeSFS has: one
 * table (workload.c), one child (child.c), one option and two counters of
 * its own, and a template for the next workload.
 */
#ifndef NL_H
#define NL_H

#include "load/workload.h"

extern const struct ld_workload_ops nl_workload;

#endif /* NL_H */
