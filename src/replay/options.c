/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c - the block replay's own options (workload.h: a workload's
 * option groups; docs/replay.md), beside the trace's (replaybase/rb.h).
 * The rows keep the codes they had among sfs's options (common/exit.h).
 */
#include <stddef.h>

#include "common/exit.h"
#include "common/opt.h"
#include "replay/rl.h"

#define B(field)                                                                         \
    offsetof(struct rl_block_opts, field), sizeof(((struct rl_block_opts *)0)->field)

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
