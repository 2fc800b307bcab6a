#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# 0729_nreplay_v4_sfs_mgr_points.t - sfs_mgr replays an NFSv4 capture
# (TRACE_FILE, NFS_VERSION=4: sfs4 on every client) end to end: the open
# and lock state of tests/tools/nf4_owners (three open owners of one file,
# an OPEN refused with SHARE_DENIED, the create modes, a LOCK DENIED, the
# CLOSEs between) captured against one sfs_nfsd and replayed against
# another by two clients of two processes each, one load point per
# TRACE_SPEED value.  Each client replays the whole trace on its own tree
# with its own NFSv4.1 client, so per point the aggregate counts twice
# the trace's NFSv4 calls, no status mismatch, twice the traced CLOSEs at
# their place and none at the end, twice the locks with no lock status
# mismatch; each client's report and the result files carry the replay's
# lines.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_python_yaml
T=$(tool_path nf4_owners) || bail "tests/tools/nf4_owners not built"
. "$(dirname "$0")/lib_prime.sh"
. "$(dirname "$0")/lib_nreplay.sh"
plan 7
start_nfsd A || bail "sfs_nfsd did not start"
cap_start "$T_DIR/t.pcapng" "$A_NFS_PORT" || bail "no capture"
timeout 60 "$T" "$A_URL" >"$T_DIR/owners.out" 2>&1
r=$?
cap_stop
is "$r" 0 "the open and lock state against sfs_nfsd captured"
"$T_BIN/sfs_trace" plan --nfs-version 4 "$T_DIR/t.pcapng" -o "$T_DIR/t.plan" >"$T_DIR/plan.out" 2>&1
calls=$(sed -n 's/.*: \([0-9]*\) NFSv4 calls of .*/\1/p' "$T_DIR/plan.out")
closes=$(grep -c '^ok close ' "$T_DIR/owners.out")
locks=$(grep -c '^\(ok\|nfs\) lock' "$T_DIR/owners.out")

start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/replay_rc
prime_rc "$rc" LOAD=60 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=4 WARMUP_TIME=1 RUNTIME=20 TCP=1 \
    "TRACE_FILE=$T_DIR/t.pcapng" 'TRACE_SPEED="0 1"' "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0 $(tail -3 "$T_DIR/err")"
like "$(cat "$T_DIR/out")" "Executing run 2 of 2 \.\.\. done$" "both points ran"
is "$(wc -l <"$T_DIR/res/sfssum.t" 2>/dev/null)" 2 "one sfssum line per speed"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
for p in d['points']:
    a = p['aggregate']['nfs_replay']
    o, k = a['v4_opens'], a['v4_locks']
    print('%s:%s/%s %s/%s/%s %s/%s' % (a['speed'], a['calls'], a['status_mismatches'],
          o['closes_traced'], o['closes'] - o['closes_traced'], o['in_use'],
          k['sent'], k['status_mismatches']))" 2>&1 | tr '\n' ' ')" \
    "0:$((2 * calls))/0 $((2 * closes))/0/0 $((2 * locks))/0 1:$((2 * calls))/0 $((2 * closes))/0/0 $((2 * locks))/0 " \
    "per point: the trace's $calls NFSv4 calls by each client, no mismatch; its $closes CLOSEs at their place, none left; its $locks locks, no lock mismatch"
like "$(cat "$T_DIR/res/sfsc001.t")" "NFS trace replay of .*t.pcapng" \
    "client 1's report has the replay's lines"
like "$(cat "$T_DIR/res/sfsc001.t")" "NFSv4 locks: LOCKs, LOCKUs and LOCKTs sent $locks, statuses compared $locks, mismatched 0" \
    "... and its locks'"
