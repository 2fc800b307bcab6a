#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0630_trace_convert_to_spc.t - `sfs_trace convert --to spc` writes MaStA
# and sysio traces as SPC text that sfs_trace reads back: the converted
# trace gives the same references, unique blocks and hits as the original,
# and what SPC cannot express is counted.
# timeout: 60
. "$(dirname "$0")/lib.sh"
plan 8

F=$T_FIXTURES
fig() { sed -n 's/^\(references\|unique_blocks\|cold_misses\): //p' "$1" | tr '\n' ' '; }
err=$("$T_BIN/sfs_trace" convert --to spc "$F/masta/synthetic-2k.mtr" -o "$T_DIR/m.spc" 2>&1)
ok $? "MaStA converts"
like "$err" "2000 SPC records .*310 sync dropped" "syncs are counted as dropped"
"$T_BIN/sfs_trace" mrc -q "$F/masta/synthetic-2k.mtr" --yaml "$T_DIR/m1.yaml" &&
"$T_BIN/sfs_trace" mrc -q "$T_DIR/m.spc" --yaml "$T_DIR/m2.yaml"
ok $? "the converted MaStA trace is valid SPC"
is "$(fig "$T_DIR/m2.yaml")" "$(fig "$T_DIR/m1.yaml")" "MaStA: same references and unique blocks"

# sysio offsets are not 512-aligned: LBA size 1 keeps them exact
err=$("$T_BIN/sfs_trace" convert --to spc --lba-size 1 "$F/sysio/synthetic.trace" 2>&1 >"$T_DIR/s.spc")
like "$err" "428 SPC records .*26 open dropped; 36 getattr dropped" "opens and getattrs counted"
"$T_BIN/sfs_trace" mrc -q "$F/sysio/synthetic.trace" --yaml "$T_DIR/s1.yaml" &&
"$T_BIN/sfs_trace" mrc -q --lba-size 1 "$T_DIR/s.spc" --yaml "$T_DIR/s2.yaml"
ok $? "the converted sysio trace is valid SPC"
is "$(fig "$T_DIR/s2.yaml")" "$(fig "$T_DIR/s1.yaml")" "sysio: same references and unique blocks"

"$T_BIN/sfs_trace" convert "$F/spc/seed-example.spc" >/dev/null 2>&1
is $? 2 "convert without --to is a usage error"
