/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c - the trace's options, which the block replay and the NFS
 * replay both read (rb.h; docs/replay.md, docs/nfs_replay.md).  The rows
 * keep the codes they had among sfs's options (common/exit.h).
 */
#include <stddef.h>

#include "common/exit.h"
#include "common/opt.h"
#include "replaybase/rb.h"

#define T(field)                                                                         \
    offsetof(struct rb_trace_opts, field), sizeof(((struct rb_trace_opts *)0)->field)

static const struct cm_opt trace_rows[] = {
    {0, "trace", "TRACE_FILE", CM_OPT_STRING, T(trace_file), "", 0, 0, NULL, "FILE",
     "Replay this trace instead of the SFS mix (docs/replay.md; NFS captures and "
     "nfsdump text: docs/nfs_replay.md).",
     NULL, NULL, 0, CM_EXIT_SFS_TRACE},
    {0, "trace-format", "TRACE_FORMAT", CM_OPT_STRING, T(trace_format), "auto", 0, 0,
     NULL, "FMT", "Trace format: spc, masta, sysio, pcap, pcapng, nfsdump or auto.", NULL,
     NULL, 0, CM_EXIT_SFS_TRACE_FORMAT},
    {0, "speed", "TRACE_SPEED", CM_OPT_DOUBLE, T(trace_speed), "1", 0, 1000000, "x", "S",
     "Replay speed: 1 real time, 2 twice as fast, 0 as fast as the window allows.", NULL,
     NULL, CM_OPT_POINT, CM_EXIT_SFS_SPEED},
    {0, "window", "TRACE_WINDOW", CM_OPT_INT, T(trace_window), "64", 1, 1024, "calls",
     "N", "Replay calls in flight per process.", NULL, NULL, 0, CM_EXIT_SFS_WINDOW},
    {0, "lenient", "TRACE_LENIENT", CM_OPT_FLAG, T(trace_lenient), NULL, 0, 1, NULL, NULL,
     "Skip and count malformed trace records instead of stopping.", NULL, NULL, 0,
     CM_EXIT_SFS_LENIENT},
    {0, "clients", NULL, CM_OPT_INT, T(nclients), "1", 1, 10000, NULL, "N",
     "Clients sharing a replayed trace (sfs_mgr passes it with -N).", NULL, NULL,
     CM_OPT_CLI_ONLY, CM_EXIT_SFS_CLIENTS},
    {0, "spin", "TRACE_SPIN", CM_OPT_INT, T(trace_spin_us), "20", 0, 10000, "us", "US",
     "Poll, rather than sleep, this close to a due call (a process already awake sends "
     "it on time; costs CPU).",
     NULL, NULL, 0, CM_EXIT_SFS_SPIN},
    {0, "realtime", "TRACE_REALTIME", CM_OPT_INT, T(trace_realtime), "0", 0, 99, NULL,
     "PRIO",
     "Replay in the real-time class SCHED_FIFO at this priority (0: the ordinary class; "
     "needs CAP_SYS_NICE or ulimit -r).",
     NULL, NULL, 0, CM_EXIT_SFS_REALTIME},
    {0, "cpus", "TRACE_CPUS", CM_OPT_STRING, T(trace_cpus), "", 0, 0, NULL, "LIST",
     "Run each replay process on one CPU of this list (N,N-M,...), in turn.", NULL, NULL,
     0, CM_EXIT_SFS_CPUS},
};

const struct ld_opt_group rb_trace_options = {"trace replay options", trace_rows,
                                              CM_ARRAY_LEN(trace_rows),
                                              sizeof(struct rb_trace_opts)};
