#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# Server errors and a lost server during a run never crash a child: NFS
# errors the workload did not expect are counted in the Error Count column
# (and logged with DEBUG 4), calls the server never answers are bad calls,
# and a run with >= 1 % bad calls is reported INVALID (code 15, "Failed
# RPC calls").
. "$(dirname "$0")/lib.sh"
plan 6
start_nfsd errs --error getattr=IO:50 || bail "sfs_nfsd did not start"
start_nfsd drops || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -d 4 -l 100 -p 2 -w 1 -t 4 -F 400 "$errs_URL" 2>"$T_DIR/err1")
is "$?" 0 "a run against a server answering getattr with IO errors completes"
ok "$(printf '%s\n' "$out" | awk '$1 == "getattr" {exit !($4 > 0 && $5 > 0)}'; echo $?)" \
    "half the getattr calls are successes, half errors"
like "$(cat "$T_DIR/err1")" "getattr .*NFS error IO" "DEBUG 4 logs the NFS errors"
# A server that goes away in the middle of the run: every later call fails
# at the RPC level (refused), is counted bad, and the run still reports.
"$T_BIN/sfs3" -d 4 -l 50 -p 2 -w 0 -t 6 -F 400 "$drops_URL" >"$T_DIR/out2" 2>"$T_DIR/err2" &
pid=$!
track "$pid"
wait_for "grep -q 'test run' '$T_DIR/err2'" 400 0.05
sleep 2
stop_pid "$drops_PID"
wait_for "! alive $pid" 400 0.05
wait "$pid"
is "$?" 0 "the run completes although the server died"
like "$(cat "$T_DIR/out2")" "Failed RPC calls" "the report is INVALID: failed RPC calls"
like "$(cat "$T_DIR/err2")" "RPC failed" "DEBUG 4 logs the failed calls"
