#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# An sfs_mgr replay's points say what the replay asked of the server, not
# LOAD: a trace of 20 records over 2.000 s (two streams) at TRACE_SPEED
# "1 2" asks for 10 and 20 records/s.  The sfssum Load column holds 10 and
# 20 (ratio 2, not LOAD's 60), the YAML's requested_load 10.0 and 20.0 with
# the words beside it, the report's and the summary's run lines name the
# request as the trace's rate, the summary says what the column holds, and
# SFS's peak rule (achieved within 10 % of the request) is not applied to
# a replay.  Two clients of one process each, against sfs_nfsd.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
need_python_yaml
plan 9
start_nfsd srv || bail "sfs_nfsd did not start"
trace=$T_DIR/rate.spc
for i in $(seq 1 20); do
    printf '%d,%d,4096,%s,%d.%d00000\n' $((i % 2)) $((i * 8)) "$([ $((i % 3)) = 0 ] && echo R || echo W)" \
        $((i / 10)) $((i % 10))
done >"$trace"
rc=$T_DIR/replay_rc
prime_rc "$rc" 'LOAD=60' 'CLIENTS="localhost localhost"' PROCS=1 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 \
    "TRACE_FILE=$trace" 'TRACE_SPEED="1 2"' TRACE_WINDOW=16 "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0" || diag "$(tail -3 "$T_DIR/err")"
sum=$T_DIR/res/sfssum.t
is "$(sumfield "$(sed -n 1p "$sum")" 1) $(sumfield "$(sed -n 2p "$sum")" 1)" "10 20" \
    "sfssum Load: the trace's 10 and 20 records/s at speeds 1 and 2, not LOAD's 60"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
p = d['points']
print('%.6f %.6f %.6f' % (p[0]['requested_load'], p[1]['requested_load'],
                          p[1]['requested_load'] / p[0]['requested_load']))" 2>&1)" \
    "10.000000 20.000000 2.000000" "YAML requested_load: 10 and 20, ratio 2"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
print(' | '.join(p['requested'] for p in d['points']))" 2>&1)" \
    "10.00 records/s (the trace at speed 1) | 20.00 records/s (the trace at speed 2)" \
    "YAML: the request in words beside it"
out=$(cat "$T_DIR/out")
like "$out" "Load: the trace's records/s at the point's speed, rounded" \
    "the summary says what its Load column holds"
unlike "$out" "^ +60 " "no sfssum line of the summary shows LOAD's 60"
res=$(cat "$T_DIR/res/sfsres.t")
like "$res" "==== Run 2 of 2: requested 20\.00 records/s \(the trace at speed 2\), started" \
    "the report's point header names the trace's rate"
like "$res" "Run 1, requested 10\.00 records/s \(the trace at speed 1\): [0-9.]+ ops/s" \
    "the run's summary line: the request, then what was achieved"
unlike "$res" "highest point reached" "SFS's peak rule is not applied to a replay"
