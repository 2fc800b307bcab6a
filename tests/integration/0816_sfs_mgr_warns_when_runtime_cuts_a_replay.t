#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# A replay point whose trace lasts longer at its speed than RUNTIME is cut
# by STOP.  sfs_mgr says so on stderr before anything runs, in --check and
# in the run, naming RUNTIME's line and the point (seed-example.spc lasts
# 2.450 s: speed 0.5 needs 4.9 s > RUNTIME=1, speed 4 needs 0.6 s and is
# not named).  The cut point's aggregate counts what was replayed and
# states what was not; the aggregate report's requested load is the
# trace's records per second at the point's speed, not LOAD.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
need_cmd python3
plan 9
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/cut_rc
prime_rc "$rc" 'LOAD=60' 'CLIENTS="localhost"' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=1 \
    "TRACE_FILE=$T_FIXTURES/spc/seed-example.spc" 'TRACE_SPEED="0.5 4"' \
    "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t --check >/dev/null 2>"$T_DIR/check.err"
is "$?" 0 "--check passes (a warning, not an error)"
like "$(cat "$T_DIR/check.err")" \
    "cut_rc:7: warning: RUNTIME: 1 s is shorter than point 1's replay \(the trace's 2\.450 s at speed 0\.5 = 4\.899 s\): STOP cuts it" \
    "--check warns: RUNTIME's line, point 1, the time it needs"
unlike "$(cat "$T_DIR/check.err")" "point 2" "point 2 (speed 4, 0.6 s) fits: no warning"

"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr runs both points" || diag "$(tail -3 "$T_DIR/err")"
like "$(head -1 "$T_DIR/err")" "warning: RUNTIME: 1 s is shorter than point 1's replay" \
    "the run warns first, before anything runs"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
r = [p['aggregate']['replay'] for p in d['points']]
print(' '.join('%s:%s:%s+%s=%s' % (x['speed'], x['cut'], x['records'],
               x['records_not_replayed'], x['trace_records']) for x in r))" 2>&1)" \
    "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
n = d['points'][0]['aggregate']['replay']['records']
print('0.5:True:%d+%d=11 4:False:11+0=11' % (n, 11 - n))" 2>&1)" \
    "point 1 is cut (replayed + not replayed = 11), point 2 whole"
res=$(cat "$T_DIR/res/sfsres.t")
like "$res" "cut by the run time .*: [0-9]+ of the trace's 11 records not replayed" \
    "the aggregate report states the cut"
like "$res" "AGGREGATE REQUESTED LOAD: 2\.25 records/s \(the trace at speed 0\.5\)" \
    "the aggregate's requested load is the trace's rate: speed 0.5"
like "$res" "AGGREGATE REQUESTED LOAD: 17\.96 records/s \(the trace at speed 4\)" \
    "and speed 4 (not LOAD's 60)"
