#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# sfs_mgr replays a trace (TRACE_FILE) over two clients of two processes
# each: one load point per TRACE_SPEED value, an sfssum line per point, and
# per point the streams (ASUs) shared out over the four processes so that
# every record is replayed exactly once - the server sees each point's
# READs and WRITEs once (preparation reads and writes nothing) and the
# aggregate YAML counts 11 records and 11 calls per point.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
need_cmd python3
plan 8
start_nfsd srv --stats-file "$T_DIR/srv.yaml" || bail "sfs_nfsd did not start"
rc=$T_DIR/replay_rc
prime_rc "$rc" 'LOAD=60' 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=3 \
    "TRACE_FILE=$T_FIXTURES/spc/seed-example.spc" 'TRACE_SPEED="2 4"' TRACE_WINDOW=16 \
    "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0"
out=$(cat "$T_DIR/out")
like "$out" "Executing run 1 of 2 \.\.\. done$" "point 1 (speed 2) is done and valid"
like "$out" "Executing run 2 of 2 \.\.\. done$" "point 2 (speed 4) is done and valid"
is "$(wc -l <"$T_DIR/res/sfssum.t" 2>/dev/null)" 2 "one sfssum line per speed"
like "$(cat "$T_DIR/res/sfslog.t")" "replay of .*seed-example.spc at speed 4" \
    "the log names each point's speed"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
r = [p['aggregate']['replay'] for p in d['points']]
print(' '.join('%s:%s/%s' % (x['speed'], x['records'], x['calls'])
               for x in r))" 2>&1)" "2:11/11 4:11/11" \
    "per point: 11 records, 11 calls over 4 processes (speed 2, speed 4)"
kill -USR1 "$srv_PID"
wait_for "[ -s '$T_DIR/srv.yaml' ]" 100 0.05
is "$(python3 -c "
import yaml; v = yaml.safe_load(open('$T_DIR/srv.yaml'))['nfs_v3']
print(v['read'], v['write'])")" "4 18" "the server saw 2 READ and 9 WRITE per point"
like "$(cat "$T_DIR/res/sfsc001.t")" "Trace replay of .*seed-example.spc" \
    "client 1's report has the replay lines"
