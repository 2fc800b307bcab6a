#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# 0704_nreplay_sfs_mgr_points.t - sfs_mgr replays an NFS capture
# (TRACE_FILE): a libnfs-utils workload (nfs-cp, nfs-ls, nfs-cat) captured
# against one sfs_nfsd is replayed against another by two clients of two
# processes each, one load point per TRACE_SPEED value.  Every client
# replays the whole trace on its own tree (CL1/, CL2/: one process of each
# does, the dependencies cross the trace's streams), so the aggregate
# counts twice the trace's NFS calls per point, no status mismatch, and
# each client's report and the result files carry the replay's lines.
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd nfs-cp
need_python_yaml
. "$(dirname "$0")/lib_prime.sh"
. "$(dirname "$0")/lib_nreplay.sh"
plan 7
start_nfsd A || bail "sfs_nfsd did not start"
add() { printf '%s' "$1" | sed "s|?|/$2?|"; }
head -c 200000 /dev/urandom >"$T_DIR/f.bin"
cap_start "$T_DIR/t.pcap" "$A_NFS_PORT" "$A_MNT_PORT" || bail "no capture"
nfs-cp "$T_DIR/f.bin" "$(add "$A_LNFS_URL" f.bin)" >/dev/null 2>&1 &&
    nfs-cp "$T_DIR/f.bin" "$(add "$A_LNFS_URL" g.bin)" >/dev/null 2>&1 &&
    nfs-ls "$A_LNFS_URL" >/dev/null 2>&1 &&
    nfs-cat "$(add "$A_LNFS_URL" g.bin)" >"$T_DIR/g.bin" 2>&1
r=$?
cap_stop
is "$r" 0 "the libnfs-utils workload ran while captured"
calls=$("$T_BIN/sfs_trace" stats -q "$T_DIR/t.pcap" --yaml "$T_DIR/s.yaml" 2>/dev/null &&
    nr_yaml "$T_DIR/s.yaml" 'sum(p["calls"] for p in g["procedures"].values())')

start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/replay_rc
prime_rc "$rc" LOAD=60 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=20 TCP=1 \
    "TRACE_FILE=$T_DIR/t.pcap" 'TRACE_SPEED="0 1"' "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0 $(tail -3 "$T_DIR/err")"
like "$(cat "$T_DIR/out")" "Executing run 2 of 2 \.\.\. done$" "both points ran"
is "$(wc -l <"$T_DIR/res/sfssum.t" 2>/dev/null)" 2 "one sfssum line per speed"
like "$(cat "$T_DIR/res/sfslog.t")" "NFS replay of .*t.pcap at speed 1" "the log names each point's speed"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
r = [p['aggregate']['nfs_replay'] for p in d['points']]
print(' '.join('%s:%s/%s' % (x['speed'], x['calls'], x['status_mismatches']) for x in r))" 2>&1)" \
    "0:$((2 * calls))/0 1:$((2 * calls))/0" \
    "per point: the trace's $calls NFS calls replayed by each client, no mismatch"
like "$(cat "$T_DIR/res/sfsc001.t")" "NFS trace replay of .*t.pcap" \
    "client 1's report has the replay's lines"
