#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# docs/SFS30.md §12.2: a client that stops answering (SIGSTOP in the middle
# of the measured run: no heartbeat, no answer) fails the point once
# PRIME_TIMEOUT passes, and the message names that client; every process of
# the run - the stopped one included - is gone within 10 s, and sfs_mgr
# exits non-zero.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 6
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/to_rc
prime_rc "$rc" 'LOAD=40' 'CLIENTS="localhost localhost"' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=60 FILE_COUNT=100 PRIME_TIMEOUT=4 \
    "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err" &
mgr=$!
track "$mgr"
log=$T_DIR/res/sfslog.to
wait_log "$log" "Sending run to" 200 || diag "$(cat "$T_DIR/err")"
victim=$(client_pid "$log" 2)
like "$victim" "^[0-9]+$" "client 2's pid is in the log"
kill -STOP "$victim"
t0=$(date +%s)
wait_for "! alive $mgr" 300 0.1
wait "$mgr"
is "$?" 1 "sfs_mgr exits 1"
t1=$(date +%s)
ok "$([ $((t1 - t0)) -ge 3 ] && [ $((t1 - t0)) -le 20 ]; echo $?)" \
    "the point failed after PRIME_TIMEOUT ($((t1 - t0)) s)"
like "$(cat "$T_DIR/err")" "Prime Client timeout .*1 client\(s\).*: 2 \(localhost\)" \
    "the message names client 2"
like "$(cat "$T_DIR/res/sfsres.to")" "FAILED: Prime Client timeout" "the report says so"
no_leftovers "$tag" 10
ok $? "every process is gone, the stopped client too"
