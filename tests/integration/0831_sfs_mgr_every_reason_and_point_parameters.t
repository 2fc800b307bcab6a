#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 180
# Under sfs_mgr, a point whose clients missed their load (a server answering
# every call 50 ms late: two clients of one synchronous process reach about
# 20 of the 100 ops/s each is asked) is INVALID for the missed load (22),
# and every reason is given: per client (the missed load and the
# non-standard settings, not only the first reason) and per point in the
# summary and the YAML.  The YAML's aggregate parameters are the point's
# (load 200, 2 clients, both clients' mount points), not client 1's share,
# and with no valid point it states no peak throughput and no overall
# response time, as the text says none.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 10
start_nfsd slow --delay-us 50000 || bail "sfs_nfsd did not start"
rc=$T_DIR/miss_rc
prime_rc "$rc" 'LOAD=200' 'CLIENTS="localhost localhost"' PROCS=1 \
    "MNT_POINTS=\"$slow_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 FILE_COUNT=50 \
    BIOD_MAX_READS=0 "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0 (the point finished, INVALID)" || diag "$(tail -5 "$T_DIR/err")"
res=$(cat "$T_DIR/res/sfsres.miss")
yaml=$(cat "$T_DIR/res/sfsres.miss.yaml")
like "$res" "Run 1 \(200 ops/s\): INVALID \(Load missed\): not on the curve: " \
    "the summary names the point's code"
for n in 1 2; do
    like "$(printf '%s\n' "$res" | grep "^  client   $n ")" \
        "requested 100 ops/s, achieved [0-9.]+ \([0-9]+ %.*; 50 io files \(-F.*; run time 4 s \(SFS requires 300 s\).*; 0 read calls in flight \(-R" \
        "client $n's line gives the missed load and every non-standard setting"
done
like "$(printf '%s\n' "$res" | grep '^Run 1 ')" \
    "client 1: requested 100 ops/s.*client 2: requested 100 ops/s|client 2: requested 100 ops/s.*client 1: requested 100 ops/s" \
    "the summary gives both clients' missed loads"
reasons=$(printf '%s\n' "$yaml" | sed -n '/^  invalid_reasons:/,/^  clients:/p')
ok "$(printf '%s\n' "$reasons" | grep -c "^  - 'client [12]: requested 100 ops/s" | grep -qx 2 &&
    [ "$(printf '%s\n' "$reasons" | grep -c "^  - 'run time 4 s (SFS requires 300 s)'$")" = 1 ]
    echo $?)" "the point's YAML lists both clients' missed loads, the settings once"
agg=$(printf '%s\n' "$yaml" | sed -n '/^  aggregate:/,/^summary:/p')
like "$agg" "load:
        value: 200
" "the aggregate's parameters have the point's load"
like "$agg" "clients:
        value: 2
" "... its clients"
is "$(printf '%s\n' "$agg" | sed -n '/^      mount_points:/,/^    [a-z]/p' | grep -c "^      - '127.0.0.1:")" 2 \
    "... and every client's mount point"
unlike "$(printf '%s\n' "$yaml" | sed -n '/^summary:/,$p')" "peak_throughput_ops|overall_response_ms" \
    "no valid point: no peak and no overall response time in the YAML"
no_leftovers "$tag" 10 || diag "processes left"
