#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# A progress line's ops/s are the answered calls (docs/sfs.md, "Output"):
# with the server stopped in the middle of a run, its refused calls are
# the line's bad count, not its throughput.  They were both: every line
# after the stop read "98.1 of 100 ops/s ... bad 298", as if the load
# went on.  sfs3 --progress 1 at load 100 against sfs_nfsd, stopped after
# the run's first line; each line whose interval began after the stop -
# the second line after it on - reads 0.0 ops/s with bad calls counted.
# (sfs_mgr's lines are the same function over the heartbeats.)
. "$(dirname "$0")/lib.sh"
plan 4
start_nfsd srv || bail "sfs_nfsd did not start"
"$T_BIN/sfs3" -l 100 -p 2 -w 1 -t 10 -F 100 --progress 1 "$srv_URL" \
    >"$T_DIR/out" 2>"$T_DIR/err" &
pid=$!
track "$pid"
wait_for "grep -q ' run [1-9][0-9]*/10 s: ' '$T_DIR/err'" 600 0.05 ||
    bail "no run line within 30 s: $(tail -3 "$T_DIR/err")"
stop_pid "$srv_PID" # gone once it returns: every later call is refused
before=$(grep -c ' run [0-9]*/10 s: ' "$T_DIR/err")
wait_for "! alive $pid" 600 0.05
ok $? "sfs3 ends its run with the server gone"
after=$(grep ' run [0-9]*/10 s: ' "$T_DIR/err" | tail -n +"$((before + 2))")
n=$(printf '%s' "$after" | grep -c .)
ok "$([ "$n" -ge 2 ]; echo $?)" "lines whose interval began after the stop ($n)"
is "$(printf '%s\n' "$after" | grep -vc ': 0\.0 of 100 ops/s')" 0 \
    "each of them reads 0.0 ops/s: nothing was answered"
is "$(printf '%s\n' "$after" | grep -Ec 'bad [1-9][0-9]*')" "$n" \
    "... and counts the refused calls as bad"
if [ "$n" -lt 2 ] || printf '%s\n' "$after" | grep -vq ': 0\.0 of 100 ops/s'; then
    grep ' run [0-9]*/10 s: ' "$T_DIR/err" | while IFS= read -r l; do diag "$l"; done
fi
