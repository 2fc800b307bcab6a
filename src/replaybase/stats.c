/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - the field table of the counters both replays keep (rb.h:
 * struct rb_stats): their merge rules and the YAML keys of the replay
 * section (docs/replay.md lists them).
 */
#include "replaybase/rb.h"

const struct cm_field rb_stats_fields[RB_STATS_NFIELDS] = {
#define RBF(m, merge, group, key)                                                        \
    CM_FIELD_OF(struct rb_stats, m, CM_FIELD_U64, CM_MERGE_##merge, group, key)
    RBF(replay_trace_records, MAX, "replay.records", "trace_records"),
    RBF(replay_records, SUM, "replay.records", "records"),
    RBF(replay_calls, SUM, "replay.io", "calls"),
    RBF(replay_skipped, SUM, "replay.io", "skipped"),
    RBF(replay_behind, SUM, "replay.io", "could_not_keep_up"),
    RBF(replay_bytes_read, SUM, "replay.io", "bytes_read"),
    RBF(replay_bytes_written, SUM, "replay.io", "bytes_written"),
    RBF(replay_run_ns, MAX, NULL, NULL),
    RBF(replay_trace_ns, MAX, NULL, NULL),
    RBF(replay_cut, SUM, NULL, NULL),
    RBF(replay_sparse_bytes, SUM, "replay.file_set", "sparse_bytes"),
    RBF(replay_touched_bytes, SUM, "replay.file_set", "touched_bytes"),
    CM_FIELD_OF(struct rb_stats, replay_late, CM_FIELD_HIST, CM_MERGE_SUM, NULL, NULL),
#undef RBF
};
