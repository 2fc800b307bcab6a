/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workloads.c - the one place that chooses a workload (workload.h): the
 * tables in the order they are tried, the SFS mix last (it takes whatever
 * no other workload does).  A new workload is one more line here.
 */
#include <stddef.h>

#include "client/cl.h"
#include "nreplay/nr.h"
#include "replay/rl.h"
#include "synth/sy.h"

static const struct ld_workload_ops *const workloads[] = {
    &nr_workload, /* --trace CAPTURE: a pcap/pcapng capture or nfsdump text */
    &rl_workload, /* --trace FILE */
    &sy_workload, /* the SFS 3.0 mix */
};

const struct ld_workload_ops *cl_workload_choose(const struct ld_config *cfg)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(workloads); i++)
        if (workloads[i]->accepts(cfg))
            return workloads[i];
    return &sy_workload;
}
