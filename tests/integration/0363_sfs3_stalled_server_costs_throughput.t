#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 150
# A stalled server must cost throughput: a 3 s freeze of the
# server (SIGSTOP, then SIGCONT) inside a 30 s run at 100 ops/s costs at
# least 8 % of the run's throughput, and no 5 s window after it exceeds the
# requested rate by more than 5 % (windows counted from the -z raw dump's
# start times, every 0.5 s from the end of the freeze).  The report gives
# the seconds behind schedule, the largest lag and the skipped sleeps, and
# a WARNING line because the lag exceeded 1 s.  Before, the pacer made up
# every missed call with a burst and reported 100.10 of 100 ops/s.
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd frozen || bail "sfs_nfsd did not start"
TMPDIR=$T_DIR "$T_BIN/sfs3" -l 100 -p 2 -w 2 -t 30 -F 200 -z "$frozen_URL" \
    >"$T_DIR/out" 2>"$T_DIR/err" &
pid=$!
track "$pid"
wait_for "grep -q 'test run' '$T_DIR/err'" 1200 0.05 || bail "the run did not start"
sleep 8
kill -STOP "$frozen_PID"
sleep 3
kill -CONT "$frozen_PID"
wait_for "! alive $pid" 1200 0.05
wait "$pid"
is "$?" 0 "the run completes"
out=$(cat "$T_DIR/out")
tput=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $4}')
ok "$(awk -v t="$tput" 'BEGIN {exit !(t > 0 && t <= 92)}'; echo $?)" \
    "the freeze costs at least 8 %: $tput of 100 ops/s"
# every call's start time (ms since the run started), both children
cat "$T_DIR"/c001-p00[01] | awk 'NF >= 4 && $3 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/ {print $3}' |
    sort -n >"$T_DIR/starts"
gap=$(awk 'NR > 1 && $1 - prev > g {g = $1 - prev; end = $1} {prev = $1}
           END {printf "%d %d\n", g, end}' "$T_DIR/starts")
ok "$(echo "$gap" | awk '{exit !($1 >= 2500)}'; echo $?)" \
    "the dump shows the freeze (longest gap $gap ms)"
worst=$(awk -v end="${gap#* }" '{t[NR] = $1} END {
        for (w = end; w + 5000 <= 30000; w += 500) {
            n = 0; for (i = 1; i <= NR; i++) if (t[i] >= w && t[i] < w + 5000) n++
            if (n > m) m = n
        }
        print m + 0}' "$T_DIR/starts")
ok "$(test "$worst" -le 525 -a "$worst" -gt 0; echo $?)" \
    "no 5 s window after the freeze above 105 ops/s (busiest: $worst calls)"
lag=$(printf '%s\n' "$out" | sed -n 's/^PACING: .*largest lag \([0-9.]*\) s.*/\1/p')
ok "$(awk -v l="$lag" 'BEGIN {exit !(l >= 2.5)}'; echo $?)" "the largest lag is reported: $lag s"
like "$out" "PACING: [0-9.]+ s behind schedule .*, [0-9]+ sleeps skipped to catch up" \
    "seconds behind schedule and skipped sleeps are reported"
like "$out" "WARNING: a process fell [0-9.]+ s behind its schedule \(more than 1 s\)" \
    "a warning line because the lag exceeded 1 s"
