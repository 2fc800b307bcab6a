/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c - the trace replays' own options (workload.h: a workload's
 * option groups; docs/replay.md, docs/nfs_replay.md): the trace's, which
 * the block replay and the NFS replay both read, and the block replay's.
 * The rows keep the codes they had among sfs's options (common/exit.h).
 */
#include <stddef.h>

#include "common/exit.h"
#include "common/opt.h"
#include "replay/rl.h"

#define T(field)                                                                         \
    offsetof(struct rl_trace_opts, field), sizeof(((struct rl_trace_opts *)0)->field)
#define B(field)                                                                         \
    offsetof(struct rl_block_opts, field), sizeof(((struct rl_block_opts *)0)->field)

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
};

const struct ld_opt_group rl_trace_options = {"trace replay options", trace_rows,
                                              CM_ARRAY_LEN(trace_rows),
                                              sizeof(struct rl_trace_opts)};

static const struct cm_opt_enum stable_modes[] = {
    {"file", RL_FILE_SYNC},
    {"unstable", RL_UNSTABLE},
    {NULL, 0},
};

static const struct cm_opt block_rows[] = {
    {0, "block-size", "TRACE_BLOCK_SIZE", CM_OPT_INT, B(trace_block_size), "512", 1,
     1048576, "bytes", "N", "Bytes per SPC LBA.", NULL, NULL, 0, CM_EXIT_SFS_BLOCK_SIZE},
    {0, "stable", "TRACE_STABLE", CM_OPT_ENUM, B(trace_stable), "file", 0, 0, NULL, "HOW",
     "Replayed v3 writes: file (FILE_SYNC) or unstable (UNSTABLE + COMMIT).",
     stable_modes, NULL, 0, CM_EXIT_SFS_STABLE},
    {0, "max-record-blocks", "TRACE_MAX_RECORD_BLOCKS", CM_OPT_I64, B(trace_max_blocks),
     "16777216", 1, 281474976710656.0, "blocks", "N",
     "Longest trace record replayed, in 4 KiB blocks as sfs_trace counts them: a longer "
     "one is an error (skipped and counted with --lenient).",
     NULL, NULL, 0, CM_EXIT_SFS_MAX_RECORD_BLOCKS},
};

const struct ld_opt_group rl_block_options = {"block trace replay options", block_rows,
                                              CM_ARRAY_LEN(block_rows),
                                              sizeof(struct rl_block_opts)};
