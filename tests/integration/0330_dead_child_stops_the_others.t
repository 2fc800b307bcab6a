#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# check: client load synth ctl
# A child that dies (SIGKILL in the middle of the warm-up) makes the parent
# stop the other children and exit non-zero (83, SFS's code) naming the
# cause; SIGINT to the parent stops every child and exits 130.  No process
# of the run is left behind either way.
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd srv || bail "sfs_nfsd did not start"
"$T_BIN/sfs3" -l 60 -p 3 -w 60 -t 60 -F 600 "$srv_URL" >"$T_DIR/out" 2>"$T_DIR/err" &
parent=$!
track "$parent"
wait_for "grep -q 'pretest warmup' '$T_DIR/err'" 400 0.05 || diag "$(cat "$T_DIR/err")"
kids=$(pgrep -P "$parent" | tr '\n' ' ')
is "$(echo $kids | wc -w)" 3 "three children run"
victim=${kids%% *}
kill -KILL "$victim"
wait_for "! alive $parent" 200 0.05
wait "$parent"
is "$?" 83 "the parent exits 83"
like "$(cat "$T_DIR/err")" "child [0-9] \\(pid $victim\\) died: killed by signal 9 \\(Killed\\)" \
    "the cause names the dead child"
left=0
for k in $kids; do alive "$k" && left=$((left + 1)); done
is "$left" 0 "no child is left running"

"$T_BIN/sfs3" -l 60 -p 2 -w 60 -t 60 -F 600 "$srv_URL" >"$T_DIR/out2" 2>"$T_DIR/err2" &
parent=$!
track "$parent"
wait_for "grep -q 'pretest warmup' '$T_DIR/err2'" 400 0.05 || diag "$(cat "$T_DIR/err2")"
kids=$(pgrep -P "$parent" | tr '\n' ' ')
is "$(echo $kids | wc -w)" 2 "two children run"
kill -INT "$parent"
wait_for "! alive $parent" 200 0.05
wait "$parent"
is "$?" 130 "SIGINT: the parent exits 130"
left=0
for k in $kids; do alive "$k" && left=$((left + 1)); done
is "$left" 0 "SIGINT: no child is left running"
