#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# Open-loop runs report what the user waited for: against a
# server that answers every call 20 ms late, an open-loop child cannot
# issue on time; the text report gives the issue lag (p50, p99, max), the
# requests late by more than the stated 1 ms threshold, and the response
# time including the lag (well above the plain response time), warns that
# the lag exceeded 1 s, and marks the run non-standard.  Before, the lag
# was only in the YAML and the report looked like a normal run.
. "$(dirname "$0")/lib.sh"
plan 6
start_nfsd slow --delay-us 20000 || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" --open-loop -l 100 -p 1 -w 1 -t 4 -F 30 -R 0 -W 0 "$slow_URL" \
    2>"$T_DIR/err")
is "$?" 0 "the open-loop run completes"
like "$out" "OPEN LOOP \(Poisson arrivals, non-standard\): issue lag p50 [0-9.]+ p99 [0-9.]+ max [0-9.]+ ms; [0-9]+ of [0-9]+ requests late \(more than 1 ms after their deadline\)" \
    "the issue lag, its late requests and the threshold are in the text report"
resp=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $9}')
lagresp=$(printf '%s\n' "$out" | sed -n 's/^AVG. RESPONSE TIME INCLUDING ISSUE LAG: \([0-9.]*\) Msec\/Op/\1/p')
ok "$(awk -v r="$resp" -v l="$lagresp" 'BEGIN {exit !(r >= 20 && l > 2 * r)}'; echo $?)" \
    "response including issue lag ($lagresp ms) well above the response ($resp ms)"
late=$(printf '%s\n' "$out" | sed -n 's/.*ms; \([0-9]*\) of [0-9]* requests late.*/\1/p')
ok "$(test "${late:-0}" -gt 0; echo $?)" "late requests are counted ($late)"
like "$out" "WARNING: a process fell [0-9.]+ s behind its schedule" "the lag above 1 s is warned about"
like "$out" "^OPEN LOOP \([A-Za-z]+ arrivals, non-standard\)" "the run is marked non-standard"
