#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# A replay applies sfs_trace's --max-record-blocks (2^24 blocks of 4 KiB
# by default): a longer record is a FILE:LINE error, or skipped and counted
# with --lenient (before, a record of 2^32 blocks was replayed as a 16 TiB
# file and millions of READs).  The guard against a replay that never
# ends judges the data as well as the time: records that move more than
# 1 TiB at one instant (the trace lasts 0 s) are refused without -t.  A
# record the run time cuts after some of its calls went out counts as not
# replayed (before: "0 of the trace's 1 records not replayed").
. "$(dirname "$0")/lib.sh"
plan 10
start_nfsd srv || bail "sfs_nfsd did not start"
printf '0,0,8192,W,0.000000\n0,16,8192,R,0.001000\n0,0,68719480832,R,0.002000\n0,32,8192,W,0.003000\n' \
    >"$T_DIR/big.spc"
"$T_BIN/sfs3" --trace "$T_DIR/big.spc" "$srv_URL" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 2 "a record of 2^24 + 1 blocks: exit 2"
like "$(cat "$T_DIR/err")" "big\.spc:3: error: record of 16777217 blocks \(4096 bytes each\) exceeds --max-record-blocks 16777216" \
    "one FILE:LINE line naming the option"
out=$("$T_BIN/sfs3" --trace "$T_DIR/big.spc" --lenient --yaml "$T_DIR/l.yaml" "$srv_URL" 2>"$T_DIR/err")
is "$?" 0 "--lenient: the replay runs"
like "$out" "records 3, calls 3, skipped 1," "the long record is skipped and counted"
is "$(sed -n 's/^ *over_max_record_blocks: //p' "$T_DIR/l.yaml")" 1 "... in the YAML too"
"$T_BIN/sfs3" --trace "$T_DIR/big.spc" --max-record-blocks 1 "$srv_URL" >/dev/null 2>"$T_DIR/err"
like "$(cat "$T_DIR/err")" "big\.spc:1: error: record of 2 blocks" "--max-record-blocks 1: the first 8 KiB record is too long"
# 17 records of 64 GiB at time 0: 1 088 GiB in a trace of 0 s
for i in $(seq 0 16); do echo "$i,0,68719476736,R,0.000000"; done >"$T_DIR/huge.spc"
"$T_BIN/sfs3" --trace "$T_DIR/huge.spc" "$srv_URL" >/dev/null 2>"$T_DIR/err"
is "$?" 96 "1 088 GiB without -t: refused (exit 96)"
like "$(cat "$T_DIR/err")" "would move 1088\.0 GiB, more than the 1024 GiB a replay may move without -t" \
    "the message gives the data and names -t"
# one record of 64 GiB, cut by -t 1 after some of its READs
echo "0,0,68719476736,R,0.000000" >"$T_DIR/one.spc"
out=$("$T_BIN/sfs3" --trace "$T_DIR/one.spc" -p 1 -t 1 --yaml "$T_DIR/one.yaml" "$srv_URL" 2>"$T_DIR/err")
like "$out" "cut by the run time \(-t; sfs_mgr: RUNTIME\): 1 of the trace's 1 records not replayed" \
    "a record cut after some of its calls is not replayed"
is "$(sed -n 's/^ *records_not_replayed: //p' "$T_DIR/one.yaml")" 1 "... in the YAML too"
