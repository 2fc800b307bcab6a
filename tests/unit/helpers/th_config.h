/* SPDX-License-Identifier: BSD-2-Clause */
/* th_config.h - a struct ld_config as a program builds it for one
 * workload: the load table's defaults and the workload's own options
 * (load/options.h: ld_config_add_workloads) at theirs.  Header-only. */
#ifndef TH_CONFIG_H
#define TH_CONFIG_H

#include "load/options.h"
#include "load/workload.h"

/* 0, or -E2BIG when the workload's options do not fit (a table bug). */
static inline int th_config_for(struct ld_config *cfg, int version,
                                const struct ld_workload_ops *wl)
{
    char err[CM_ERR_LEN];

    ld_config_defaults(cfg, version);
    return ld_config_add_workloads(cfg, &wl, 1, err, sizeof(err));
}

#endif /* TH_CONFIG_H */
