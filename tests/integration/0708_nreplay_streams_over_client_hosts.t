#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# 0708_nreplay_streams_over_client_hosts.t - the streams of an NFS trace
# are dealt over the clients of an sfs_mgr run (docs/nfs_replay.md,
# "Processes, clients and scaling"): a two-client capture, made here by
# libnfs-utils (an independent client) run on two hosts of a namespace
# test bed (scripts/testbed.sh) against sfs_nfsd - host 1 copies a file
# in and lists the export, host 2 then reads host 1's file and copies one
# of its own - is replayed at speed 1 by an sfs_mgr run over the same two
# hosts.  Client 1 makes the copy's tree and replays host 1's stream,
# client 2 looks the tree up once client 1's marker is there and replays
# host 2's stream: each client replays as many calls as its traced host
# made, the aggregate as many as the trace holds, every status as traced
# (host 2's LOOKUP of host 1's file is a dependency across client hosts,
# kept by the schedule only, and the plan line and the report say so),
# and nothing is left running on any host.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_cmd dumpcap
need_cmd tshark
need_cmd mergecap
need_cmd nfs-cp
need_python_yaml
. "$(dirname "$0")/lib_prime.sh"
. "$(dirname "$0")/lib_nreplay.sh"
NET=10.207.8
testbed_start fs0708 "$NET" 2
plan 11
ports=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .* mount [^ ]*:\([0-9]*\) .*/\1 \2/p' "$T_DIR/nfsd.log")
nfs=${ports% *} mnt=${ports#* }
url="nfs://$NET.1/export"
q="?nfsport=$nfs&mountport=$mnt"
head -c 100000 /dev/urandom >"$T_DIR/a.bin"
head -c 50000 /dev/urandom >"$T_DIR/b.bin"

# host 1's part, captured inside its namespace, then host 2's
cap_start -n "${TESTBED_PREFIX}c1" -i eth0 -t "$NET.1" "$T_DIR/h1.pcap" "$nfs" "$mnt" ||
    bail "no capture on host 1"
ip netns exec "${TESTBED_PREFIX}c1" nfs-cp "$T_DIR/a.bin" "$url/a.bin$q" >/dev/null 2>&1 &&
    ip netns exec "${TESTBED_PREFIX}c1" nfs-ls "$url$q" >/dev/null 2>&1
r1=$?
cap_stop
cap_start -n "${TESTBED_PREFIX}c2" -i eth0 -t "$NET.1" "$T_DIR/h2.pcap" "$nfs" "$mnt" ||
    bail "no capture on host 2"
ip netns exec "${TESTBED_PREFIX}c2" nfs-cat "$url/a.bin$q" >"$T_DIR/a.back" 2>&1 &&
    ip netns exec "${TESTBED_PREFIX}c2" nfs-cp "$T_DIR/b.bin" "$url/b.bin$q" >/dev/null 2>&1
r2=$?
cap_stop
mergecap -w "$T_DIR/two.pcap" "$T_DIR/h1.pcap" "$T_DIR/h2.pcap" 2>"$T_DIR/merge.err"
is "$r1:$r2:$?:$(cmp -s "$T_DIR/a.bin" "$T_DIR/a.back"; echo $?)" "0:0:0:0" \
    "two hosts' libnfs-utils workloads ran while captured, host 2 read host 1's file"
# the traced NFS calls per client address
tshark -n -r "$T_DIR/two.pcap" -d "tcp.port==$nfs,rpc" -o rpc.desegment_rpc_over_tcp:TRUE \
    -o tcp.reassemble_out_of_order:TRUE -Y "rpc.msgtyp == 0 && nfs" -T fields -e ip.src 2>/dev/null | sort | uniq -c |
    awk '{print $2 "=" $1}' >"$T_DIR/traced.txt"
h1=$(sed -n "s/^$NET\.11=//p" "$T_DIR/traced.txt")
h2=$(sed -n "s/^$NET\.12=//p" "$T_DIR/traced.txt")
calls=$("$T_BIN/sfs_trace" stats -q "$T_DIR/two.pcap" --yaml "$T_DIR/s.yaml" 2>/dev/null &&
    nr_yaml "$T_DIR/s.yaml" 'sum(p["calls"] for p in g["procedures"].values())')
is "$((h1 + h2))" "$calls" "tshark's calls of the two hosts ($h1 and $h2) are the trace's $calls"

rc=$T_DIR/replay_rc
prime_rc "$rc" LOAD=60 'CLIENTS="client1 client2"' PROCS=2 "MNT_POINTS=\"$TB_MOUNT\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=60 TCP=1 "TRACE_FILE=$T_DIR/two.pcap" TRACE_SPEED=1 TRACE_SCALE=1 \
    "WORK_DIR=$T_DIR/res" "RSH=\"ssh -F $TESTBED_DIR/ssh_config\""
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" -s h >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr over two hosts exits 0 $(tail -3 "$T_DIR/err")"
replayed() { sed -n 's/^ *calls replayed \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$1" | head -1; }
is "$(replayed "$T_DIR/res/sfsc001.h"):$(replayed "$T_DIR/res/sfsc002.h")" \
    "$h1 $h1:$h2 $h2" "each client replayed its traced host's calls (client 1: $h1, client 2: $h2)"
like "$(cat "$T_DIR/res/sfsc001.h")" "client 1 replays copy 0 stream 0 \(process 0\)" \
    "client 1's report names its stream"
like "$(cat "$T_DIR/res/sfsc002.h")" "client 2 replays copy 0 stream 1 \(process 0\)" \
    "client 2's report names its stream"
is "$(nr_yaml "$T_DIR/res/sfsres.h.yaml" '" ".join(str(p["aggregate"]["nfs_replay"][k]) for p in g["points"] for k in ("calls", "stream_calls", "statuses_compared", "status_mismatches", "image_failed"))')" \
    "$calls $calls $calls 0 0" "the aggregate: the trace's $calls calls replayed, every status as traced"
is "$(grep -h '^  image:' "$T_DIR/res/sfsc001.h" "$T_DIR/res/sfsc002.h" | cut -d, -f1 | tr '\n' '|')" \
    "  image: 1 objects prepared|  image: 0 objects prepared|" \
    "client 1 made the copy's tree, client 2 looked it up (made nothing)"
cross=$(nr_yaml "$T_DIR/res/sfsres.h.yaml" 'g["points"][0]["aggregate"]["nfs_replay"]["cross_host_calls"]')
ok "$([ "${cross:-0}" -ge 1 ] && echo 0 || echo 1)" \
    "host 2's LOOKUP of host 1's file is counted as crossing client hosts ($cross calls)"
like "$(grep -A1 '^  streams over' "$T_DIR/res/sfsres.h" | tr '\n' '|')" \
    "^  streams over 2 clients: client 1 replays copy 0 stream 0; client 2 replays copy 0 stream 1\|  [1-9][0-9]* dependencies of $cross calls cross client hosts: kept by time only\|$" \
    "the aggregate states who replayed which stream and the crossing dependencies"
no_leftovers "$tag" 10
ok $? "no FreeSFS process left on any host"
