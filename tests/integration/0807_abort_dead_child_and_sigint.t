#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# Clean abort (docs/DECISIONS.md D8): a child killed on a client in the middle of
# the second point fails that point, naming the client's host and the
# cause; the first point's results stay in sfssum and sfsres; sfs_mgr exits
# non-zero and every process of the run is gone within 10 s.  SIGINT to
# sfs_mgr (Ctrl-C) in the middle of a run does the same and exits 130.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 12
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/ab_rc
prime_rc "$rc" 'LOAD="40 80"' 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 FILE_COUNT=100 \
    "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
log=$T_DIR/res/sfslog.ab
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err" &
mgr=$!
track "$mgr"
# the warm-up of run 2, not run 1's line already in the log: before run 2's
# clients connected, the last client 1 is run 1's, gone
wait_for "sed -n '/Executing run 2 of 2/,\$p' '$log' | grep -q 'Sending warm-up to'" 500 0.1
client=$(client_pid "$log" 1)
kids=$(pgrep -P "$client" | tr '\n' ' ')
victim=${kids%% *}
like "$victim" "^[0-9]+$" "client 1 has children"
kill -KILL "$victim"
wait_for "! alive $mgr" 200 0.1
wait "$mgr"
is "$?" 1 "sfs_mgr exits 1"
err=$(cat "$T_DIR/err")
like "$err" "run 2 of 2 failed: client 1 \(localhost\): .*child [0-9] \(pid $victim\) died: killed by" \
    "the failure names the client, its host and the dead child"
is "$(wc -l <"$T_DIR/res/sfssum.ab")" 1 "the finished first point is kept in sfssum"
like "$(cat "$T_DIR/res/sfsres.ab")" "Run 2 \(80 ops/s\): FAILED" "sfsres marks run 2 failed"
like "$(cat "$T_DIR/out")" "Executing run 2 of 2 \.\.\. FAILED" "the terminal says FAILED"
no_leftovers "$tag" 10
ok $? "every process of the run is gone"

# Ctrl-C
prime_rc "$rc" 'LOAD=40' 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=60 FILE_COUNT=100 \
    "WORK_DIR=$T_DIR/res2"
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out2" 2>"$T_DIR/err2" &
mgr=$!
track "$mgr"
wait_log "$T_DIR/res2/sfslog.ab" "Sending run to" 300
n=$(run_procs "$tag" | wc -l)
ok "$([ "$n" -ge 5 ]; echo $?)" "the run is on ($n processes)"
kill -INT "$mgr"
t0=$(date +%s)
wait_for "! alive $mgr" 150 0.1
wait "$mgr"
is "$?" 130 "SIGINT: sfs_mgr exits 130"
like "$(cat "$T_DIR/err2")" "interrupted" "it says it was interrupted"
no_leftovers "$tag" 10
ok $? "every process of the run is gone"
t1=$(date +%s)
ok "$([ $((t1 - t0)) -le 10 ]; echo $?)" "within 10 s of Ctrl-C ($((t1 - t0)) s)"
