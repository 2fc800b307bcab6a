/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sy.h - the synth layer: the SFS 3.0 mix as a workload (load/workload.h).
 * Its children build the SFS file set in INIT and generate the mix in the
 * warm-up and RUN phases, paced as SFS paces them (docs/SFS30.md §1-§12).
 * Everything else is reached through the table; the child's state and the
 * functions of its files are the layer's own (sy_int.h).
 */
#ifndef SY_H
#define SY_H

#include "load/workload.h"

extern const struct ld_workload_ops sy_workload;

#endif /* SY_H */
