#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0204_sfs_ping_bad_peers.t - a peer that answers garbage, truncated XDR,
# replies to unknown XIDs, an impossible TCP record, or nothing: sfs_ping
# prints one clear line, exits 1, does not crash, and gives up within the
# call-class timeout it was given (-t 1000 here; bounded at 5 s).
# timeout: 90
. "$(dirname "$0")/lib.sh"

P=$T_BIN/sfs_ping
BAD=$(tool_path rpc_badpeer) || bail "tests/tools/rpc_badpeer not built (make tools)"

# mode|transport|expected message
cases=(
    "garbage|udp|no valid NFS reply at port PORT in 1000 ms \\([0-9]+ replies with unknown XIDs or garbage dropped\\)"
    "garbage|tcp|no valid NFS reply at port PORT in 1000 ms"
    "badxid|udp|no valid NFS reply at port PORT in 1000 ms"
    "badxid|tcp|no valid NFS reply at port PORT in 1000 ms"
    "truncated|udp|bad reply from MOUNT at port PORT: .*result does not decode"
    "truncated|tcp|bad reply from MOUNT at port PORT: .*result does not decode"
    "junk|udp|bad reply from NFS at port PORT: .*not a reply"
    "junk|tcp|bad reply from NFS at port PORT: .*not a reply"
    "huge|tcp|bad reply from NFS at port PORT: reply record larger than"
    "silent|udp|no NFS server answers at port PORT \\(no reply in 1000 ms\\)"
    "silent|tcp|no NFS server answers at port PORT \\(no reply in 1000 ms\\)"
)
plan $((${#cases[@]} * 2))

i=0
for c in "${cases[@]}"; do
    IFS='|' read -r mode tr want <<<"$c"
    port=$((T_PORT_BASE + i))
    i=$((i + 1))
    "$BAD" -p "$port" -m "$mode" >"$T_DIR/bad$i.log" 2>&1 &
    pid=$!
    track $pid
    wait_for "grep -q '^ready' '$T_DIR/bad$i.log'" 100 0.05 || bail "rpc_badpeer did not start"
    q=""; [ "$tr" = tcp ] && q=-Q
    start=$(date +%s%N)
    err=$(timeout 5 "$P" $q -t 1000 -c 10 "127.0.0.1:$port:/export" 2>&1 >/dev/null); rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    like "$err" "^sfs_ping: 127.0.0.1: ${want//PORT/$port}" "$mode/$tr: clear message"
    lines=$(printf '%s\n' "$err" | wc -l)
    ok $([ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ $ms -lt 4000 ] && echo 0 || echo 1) \
        "$mode/$tr: exit 1, one line, gave up in time (rc $rc, $lines lines, $ms ms)"
    stop_pid $pid
done
