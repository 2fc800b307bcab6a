/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nl_int.h - what the null workload's two files share: its option, its
 * counters and its child's state.
 */
#ifndef NL_INT_H
#define NL_INT_H

#include <stdint.h>

#include "load/options.h"
#include "load/pacing.h"
#include "load/workload.h"
#include "null/nl.h"
#include "rpc/rp.h"

#define NL_MAX_BATCH 64

/* --null-batch: NULL calls a request sends at once (each one in flight
 * together); the pacer counts every call. */
struct nl_opts {
    int batch;
};
extern const struct ld_opt_group nl_options;
#define NL_OPTS(cfg) ((const struct nl_opts *)ld_config_opts((cfg), &nl_options))

/* Its own counters (the results' "null" section): requests sent in the
 * run, and the most calls one process had in flight. */
struct nl_stats {
    uint64_t requests;
    uint64_t most_in_flight;
};
#define NL_STATS(c) ((struct nl_stats *)(c)->results)

struct nl_child {
    struct ld_child cx; /* first: the generic part */
    struct ld_pacer pacer;
    unsigned batch;
    unsigned in_flight;
    struct rp_call call[NL_MAX_BATCH];
};

int nl_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd);
int nl_child_phase(struct ld_child *c, uint32_t type, uint32_t arg);
void nl_child_results(struct ld_child *c);
void nl_child_free(struct ld_child *c);

#endif /* NL_INT_H */
