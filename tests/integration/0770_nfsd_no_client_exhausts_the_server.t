#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 240
# No client can exhaust sfs_nfsd: connections that send READ
# calls and never take the replies are no longer read from once 4 MiB of
# replies wait (counted as throttled), so their memory stays bounded and
# other clients are still answered; when they close, the connection
# buffers go back to zero and the process's memory returns.  Idle TCP
# connections are closed after --idle-timeout; at --max-connections the
# connection idle the longest makes room for a new client instead of the
# new one being refused.  What all connections pin together has a budget
# (--max-buffer-mb): 1 000 such connections against a 64 MiB budget are
# shed, those pinning the most first, and reset (the peers see it), the
# server's buffers and memory stay within the budget, and a client that
# reads its replies, connected all along, has every READ answered; the
# server was started with a soft descriptor limit of 256 and raised its
# own, so no connection was evicted for want of descriptors.
. "$(dirname "$0")/lib.sh"
NFSD_FLOOD=$(tool_path nfsd_flood) || skip_all "nfsd_flood not built (make tools)"
plan 25

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
MIB=1048576
CONNS=16

# a budget well above 16 x 5 MiB, whatever the machine's memory
start_nfsd F --stats-file "$T_DIR/F.yaml" --max-buffer-mb 1024 || bail "no server"
base=$(rss "$F_PID")
mkfifo "$T_DIR/hold"
"$NFSD_FLOOD" flood "$F_NFS_PORT" /export $CONNS <"$T_DIR/hold" >"$T_DIR/flood.out" 2>&1 &
fpid=$!
track $fpid
exec 3>"$T_DIR/hold"
wait_for "grep -q '^flooded' '$T_DIR/flood.out'" 600 0.1; ok $? "$CONNS connections flooded with READ calls"
diag "$(grep '^#' "$T_DIR/flood.out")"
grep -q '^ok .*another client is still answered' "$T_DIR/flood.out"; ok $? "another client is still answered"
# the kernel may hold every call sent; the server answers them a share per
# pass of its loop, so the throttling is waited for (bounded)
wait_for "[ \"\$(nfsd_stat F throttled)\" -ge $CONNS ]" 600 0.1
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

# 1 000 flooding connections against a 64 MiB budget
CONNS=1000
BUDGET=$((64 * MIB))
soft=$(ulimit -Sn)
ulimit -Sn 256 # the server must raise its own limit for 1 000 connections
start_nfsd M --stats-file "$T_DIR/M.yaml" --max-buffer-mb 64
started=$?
ulimit -Sn "$soft"
[ $started -eq 0 ] || bail "no server"
base=$(rss "$M_PID")
mkfifo "$T_DIR/hold2"
"$NFSD_FLOOD" mass "$M_NFS_PORT" /export $CONNS 100 <"$T_DIR/hold2" >"$T_DIR/mass.out" 2>&1 &
mpid=$!
track $mpid
exec 4>"$T_DIR/hold2"
wait_for "grep -q '^flooded' '$T_DIR/mass.out' || ! alive $mpid" 1600 0.1
if ! grep -q '^flooded' "$T_DIR/mass.out"; then
    wait "$mpid"
    [ $? -eq 3 ] && skip_rest=1 || bail "the flood of $CONNS connections did not run: $(tail -3 "$T_DIR/mass.out")"
fi
if [ "${skip_rest:-0}" = 1 ]; then
    for i in $(seq 10); do skip "the hard descriptor limit is below $CONNS connections"; done
    exit 0
fi
diag "$(grep '^#' "$T_DIR/mass.out")"
grep -q '^ok .*the reader had every READ answered' "$T_DIR/mass.out"
ok $? "$CONNS connections flooded; a reader connected all along had every READ answered"
shed=$(nfsd_stat M shed)
[ "${shed:-0}" -ge $((CONNS / 2)) ]; ok $? "the connections pinning the most were shed ($shed of $CONNS)"
b=$(nfsd_stat M buffer_bytes); p=$(nfsd_stat M buffer_bytes_peak)
[ "${b:-1}" -le $BUDGET ] && [ "${p:-1}" -le $((BUDGET + 5 * MIB)) ]
ok $? "buffers within the budget ($b now, $p at most: 64 MiB and one connection's growth)"
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$M_PID/status")
[ "$hwm" -lt $((base + (64 + 24) * 1024)) ]; ok $? "server memory bounded ($base kB -> peak $hwm kB)"
is "$(nfsd_stat M evicted)" "0" "no connection evicted: the server raised its descriptor limit"
is "$(nfsd_stat M buffer_limit)" "$BUDGET" "the budget is in the stats"
# every reset the server counted reaches its peer (the flood client waits
# for as many as it is told, bounded), and no peer sees one it did not count
echo "shed $shed" >&4
exec 4>&-
wait_for "grep -q '^closed' '$T_DIR/mass.out'" 200 0.1; ok $? "the flooding client closed its connections"
seen=$(sed -n 's/^peers_closed_final //p' "$T_DIR/mass.out")
shed2=$(nfsd_stat M shed)
[ "${seen:-0}" -ge "$shed" ] && [ "${seen:-0}" -le "${shed2:-0}" ]
ok $? "every one shed was reset, and its peer saw it ($seen seen, $shed shed before, $shed2 after)"
wait "$mpid"; ok $? "flood client checks passed"
wait_for "[ \"\$(nfsd_stat M open)\" = 0 ] && [ \"\$(nfsd_stat M buffer_bytes)\" = 0 ]" 100 0.1
ok $? "every connection gone, buffers back to 0 bytes"
