#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# No client can exhaust sfs_nfsd: connections that send READ
# calls and never take the replies are no longer read from once 4 MiB of
# replies wait (counted as throttled), so their memory stays bounded and
# other clients are still answered; when they close, the connection
# buffers go back to zero and the process's memory returns.  Idle TCP
# connections are closed after --idle-timeout; at --max-connections the
# connection idle the longest makes room for a new client instead of the
# new one being refused.
. "$(dirname "$0")/lib.sh"
NFSD_FLOOD=$(tool_path nfsd_flood) || skip_all "nfsd_flood not built (make tools)"
plan 15

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
MIB=1048576
CONNS=16

start_nfsd F --stats-file "$T_DIR/F.yaml" || bail "no server"
base=$(rss "$F_PID")
mkfifo "$T_DIR/hold"
"$NFSD_FLOOD" flood "$F_NFS_PORT" /export $CONNS <"$T_DIR/hold" >"$T_DIR/flood.out" 2>&1 &
fpid=$!
track $fpid
exec 3>"$T_DIR/hold"
wait_for "grep -q '^flooded' '$T_DIR/flood.out'" 600 0.1; ok $? "$CONNS connections flooded with READ calls"
diag "$(grep '^#' "$T_DIR/flood.out")"
grep -q '^ok .*another client is still answered' "$T_DIR/flood.out"; ok $? "another client is still answered"
held=$(rss "$F_PID")
n=$(nfsd_stat F throttled); [ "${n:-0}" -ge $CONNS ]; ok $? "every flooding connection throttled ($n)"
b=$(nfsd_stat F buffer_bytes)
[ "${b:-0}" -gt $((CONNS * 4 * MIB)) ] && [ "$b" -le $((CONNS * 5 * MIB)) ]
ok $? "connection buffers between 4 and 5 MiB per connection ($b bytes)"
[ "$held" -lt $((base + (CONNS * 5 + 64) * 1024)) ]; ok $? "server memory bounded ($base kB -> $held kB)"
exec 3>&-
wait_for "grep -q '^closed' '$T_DIR/flood.out'" 100 0.1; ok $? "the flooding client closed its connections"
wait "$fpid"; ok $? "flood client checks passed"
wait_for "[ \"\$(nfsd_stat F open)\" = 0 ]" 100 0.1; ok $? "every connection gone from the server"
is "$(nfsd_stat F buffer_bytes)" "0" "connection buffers back to 0 bytes"
p=$(nfsd_stat F buffer_bytes_peak); [ "${p:-0}" -ge $((CONNS * 4 * MIB)) ]; ok $? "peak recorded ($p bytes)"
after=$(rss "$F_PID")
[ "$after" -lt $((base + 16 * 1024)) ]; ok $? "memory returned after the close ($held kB -> $after kB, started at $base kB)"

start_nfsd I --idle-timeout 1 --stats-file "$T_DIR/I.yaml" || bail "no server"
out=$("$NFSD_FLOOD" idle "$I_NFS_PORT" 2>&1); ok $? "--idle-timeout 1: an idle connection is closed"
ms=$(printf '%s\n' "$out" | sed -n 's/^idle_closed_ms //p')
[ "${ms:-0}" -ge 500 ] && [ "${ms:-0}" -le 5000 ]; ok $? "... after about a second (${ms} ms)"

start_nfsd L --max-connections 4 --stats-file "$T_DIR/L.yaml" || bail "no server"
out=$("$NFSD_FLOOD" limit "$L_NFS_PORT" 4 2>&1); ok $? "--max-connections 4: a fifth client gets in, the idlest goes"
if [ $? -ne 0 ]; then diag "$out"; fi
n=$(nfsd_stat L evicted); [ "${n:-0}" -ge 1 ]; ok $? "evictions counted ($n)"
