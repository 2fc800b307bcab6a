#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# NFS3ERR_JUKEBOX (RFC 1813: the server is busy, try later) is no error: a
# real client sends the call again after a delay, and so does sfs3
# (--jukebox-delay).  A server that answers 5 % of its calls JUKEBOX
# (sfs_nfsd --error all=JUKEBOX:5, which does not do the call) gives a
# valid-by-its-counters run: no unexpected NFS errors, no failed call, the
# sends again counted per op and in the YAML, every one of them a JUKEBOX
# the server answered, and a response time that holds the waits (a call's
# time runs from its first send to its final reply).  Before, every
# JUKEBOX was an unexpected NFS error and the run INVALID (code 17).
. "$(dirname "$0")/lib.sh"
plan 9
start_nfsd busy --error all=JUKEBOX:5 --stats-file "$T_DIR/busy.yaml" ||
    bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -l 100 -p 2 -w 1 -t 4 -F 200 --jukebox-delay 200 \
    --yaml "$T_DIR/r.yaml" "$busy_URL" 2>"$T_DIR/err")
is "$?" 0 "the run completes (population and mount included)"
unlike "$out" "Unexpected NFS errors|UNEXPECTED NFS ERRORS|Failed RPC" \
    "a JUKEBOX is not an error: no unexpected NFS errors, no failed calls"
like "$out" "JUKEBOX RETRIES: [0-9]+ \([a-z]+ [0-9]+" "the sends again are listed per op"
like "$out" "each sent again 200 ms after the server's JUKEBOX" "with the delay"
n=$(printf '%s\n' "$out" | sed -n 's/^JUKEBOX RETRIES: \([0-9]*\).*/\1/p')
inj=$(nfsd_stat busy errors_injected)
ok "$([ "${n:-0}" -gt 5 ] && [ "$n" -le "${inj:-0}" ]; echo $?)" \
    "$n sends again, each after one of the server's $inj JUKEBOX answers"
is "$(sed -n '/^results:/,$ s/^  jukebox_retries: //p' "$T_DIR/r.yaml" | head -1)" "$n" \
    "the YAML's total jukebox_retries is the report's"
# the response time holds the waits: n waits of 200 ms over the run's calls
ops=$(printf '%s\n' "$out" | sed -n 's/^TOTAL NFS OPERATIONS: *\([0-9]*\).*/\1/p')
resp=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $9}')
ok "$(awk -v r="$resp" -v n="$n" -v o="$ops" 'BEGIN {exit !(o > 0 && r >= 0.9 * n * 200 / o)}'
    echo $?)" "average response $resp ms holds $n waits of 200 ms over $ops calls"
# a delay of 0 sends again at once; the rule is the same
out=$("$T_BIN/sfs3" -l 100 -p 2 -w 1 -t 2 -F 200 --jukebox-delay 0 "$busy_URL" 2>>"$T_DIR/err")
unlike "$out" "Unexpected NFS errors" "--jukebox-delay 0: still no error"
"$T_BIN/sfs3" -l 100 --jukebox-delay 60001 "$busy_URL" >/dev/null 2>"$T_DIR/bad"
is "$?" 48 "--jukebox-delay past 60000 ms: exit 48 ($(head -1 "$T_DIR/bad"))"
