#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0650_trace_hostile_records_bounded.t - one record must not cost unbounded
# time or memory, and a trace that is no format says why for each
# format.  The hostile inputs are made here: a 2^50-byte SPC record (stats
# counts it in constant time; mrc refuses it at its line, or counts and skips
# it with --lenient), a MaStA block operation of 2^32-1 blocks at block
# 2^24-1, and the legal 16 GiB record that must still pass.  Every run is
# bounded by timeout(1), so a regression fails instead of hanging.
# timeout: 120
. "$(dirname "$0")/lib.sh"
plan 18

run() { # run SECONDS ARGS...: sets OUT (stdout+stderr) and RC
    local t=$1
    shift
    OUT=$(timeout "$t" "$T_BIN/sfs_trace" "$@" 2>&1)
    RC=$?
}

printf '0,0,1125899906842624,R,0.000001\n' >"$T_DIR/p.spc"
run 10 stats "$T_DIR/p.spc" --yaml "$T_DIR/p.yaml"
is "$RC" 0 "stats of a 2^50-byte record finishes at once"
like "$(cat "$T_DIR/p.yaml")" "blocks: 274877906944" "and its footprint is the record's 2^38 blocks"
# its size is in the open-ended last bucket, labelled by its lower bound
# (it printed 18446744073709551615, the bucket's internal bound)
run 10 stats "$T_DIR/p.spc"
like "$OUT" "> 549755813888 +1" "stats labels the largest size bucket '> 2^39'"
unlike "$OUT" "18446744073709551615" "and prints no 2^64 - 1"
like "$(cat "$T_DIR/p.yaml")" "gt: 549755813888" "the YAML gives that bucket a lower bound"

run 10 mrc -q "$T_DIR/p.spc"
is "$RC" 1 "mrc refuses the 2^38-block record"
like "$OUT" "p.spc:1: record of 274877906944 blocks exceeds --max-record-blocks 16777216" \
    "with its line and the limit"
run 10 mrc -q --lenient "$T_DIR/p.spc" --yaml "$T_DIR/pl.yaml"
is "$RC" 0 "--lenient counts and skips it"
like "$(cat "$T_DIR/pl.yaml")" "oversize_records_skipped: 1" "and the YAML counts it"

# MaStA: version, map region 0, block op of 2^32-1 blocks, read at 2^24-1
printf '\000\005\000\000\000\000\000\000\000\001\000\000\000\000\000\000\004\000\000\000\377\377\377\377\001\000\000\000\377\377\377\000\000\006\000\000\000\000\000\000' \
    >"$T_DIR/big.mtr"
run 10 mrc -q "$T_DIR/big.mtr"
is "$RC" 1 "mrc refuses the MaStA block operation of 2^32-1 blocks"
like "$OUT" "big.mtr: entry 3 \\(offset 24\\): record of 4294967295 blocks exceeds" \
    "at its entry and offset"
run 10 stats -q "$T_DIR/big.mtr"
is "$RC" 0 "stats takes it in constant time"

# the legal 16 GiB record: 4 194 304 references at 4 KiB
printf '0,0,17179869184,R,0.000001\n0,0,4096,R,0.000002\n' >"$T_DIR/legal.spc"
run 60 mrc -q "$T_DIR/legal.spc" --yaml "$T_DIR/legal.yaml"
is "$RC" 0 "the 16 GiB record still passes"
like "$(cat "$T_DIR/legal.yaml")" "references: 4194305" "with all its references"
run 60 mrc -q "$T_DIR/legal.spc" --max-record-blocks 4194303
like "$OUT" "record of 4194304 blocks exceeds --max-record-blocks 4194303" \
    "a lower --max-record-blocks refuses it"

# the analysis refuses record 1 while the reading thread has a full ring
# ahead of it: the refusal stops the reader, nothing hangs
{ printf '0,0,1125899906842624,R,0.000001\n'
  awk 'BEGIN { for (i = 0; i < 200000; i++) printf "0,%d,4096,R,1.%06d\n", i * 8, i }'
} >"$T_DIR/early.spc"
run 20 mrc -q --threads 2 "$T_DIR/early.spc"
is "$RC" 1 "an analysis error with the reading thread ahead exits at once"
like "$OUT" "early.spc:1: record of 274877906944 blocks exceeds" "naming the record"

printf '0,0x10,512,R,0.0\n' >"$T_DIR/hex.spc"
run 10 stats "$T_DIR/hex.spc"
like "$OUT" "line 1: not SPC: LBA '0x10' is not decimal; not MaStA: .*; not sysio: " \
    "an unknown format says why for each format"
