#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# A server that cannot keep up (sfs_nfsd --delay-us 20000: every reply
# 20 ms late, so one synchronous child manages at most ~50 calls/s) gives an
# honest report: the achieved load falls short of the request, and the
# response times include the waiting.
. "$(dirname "$0")/lib.sh"
plan 4
start_nfsd slow --delay-us 20000 || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -l 200 -p 2 -w 2 -t 6 -F 100 -R 0 -W 0 "$slow_URL" 2>"$T_DIR/err")
is "$?" 0 "sfs3 exits 0 although the server is slow"
tput=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $4}')
resp=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $9}')
ok "$(awk -v t="$tput" 'BEGIN {exit !(t > 0 && t < 150)}'; echo $?)" \
    "achieved $tput ops/s, well below the 200 requested"
ok "$(awk -v r="$resp" 'BEGIN {exit !(r >= 20)}'; echo $?)" \
    "average response $resp ms includes the 20 ms delay"
like "$out" "CLIENT REQUESTED LOAD: 200 Ops/Sec" "the report shows the requested load"
