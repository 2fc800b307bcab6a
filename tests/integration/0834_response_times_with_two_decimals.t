#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# Precision where servers are fast (docs/sfs_mgr.md): against sfs_nfsd on
# loopback responses take well below 1 ms on a quiet machine, and below
# 10 ms on a busy one.  The sfssum file keeps SFS's one decimal; the
# summary sfs_mgr prints has a header line and two decimals below 10 ms;
# sfsres's aggregate box and its summary give two decimals, and the text
# report has the p50 and p99 (not only the YAML).  A server slowed to 15 ms
# per reply reads with one decimal.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 9
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/d_rc
prime_rc "$rc" 'LOAD="100"' 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 FILE_COUNT=100 \
    "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s d --progress 0 >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr runs the point"
out=$(cat "$T_DIR/out")
like "$out" "Summary \(.*sfssum.d\):
 +Load +Ops/s +Msec +Ops +Sec V P +FileSetKB Cli Pr BR BW Ver
INVALID +100 +[0-9]+ +$T_MS " "the printed summary: a header, then two decimals (below 10 ms)"
like "$(cat "$T_DIR/res/sfssum.d")" "^INVALID +100 +[0-9]+ +[0-9]+\.[0-9] +[0-9]+ " \
    "the sfssum file keeps one decimal"
res=$(cat "$T_DIR/res/sfsres.d")
like "$res" "AGGREGATE RESULTS SUMMARY" "sfsres has the aggregate box"
like "$res" "NFS V3 THROUGHPUT: +[0-9]+ Ops/Sec   AVG. RESPONSE TIME: +$T_MS Msec/Op" \
    "the aggregate box: two decimals"
like "$res" "RESPONSE TIME PERCENTILES: p50 $T_MS p99 $T_MS Msec/Op" \
    "the text report has the p50 and p99"
like "$res" "Run 1 \(100 ops/s\): [0-9.]+ ops/s, response time $T_MS ms, p99 $T_MS ms" \
    "sfsres's summary: the point with two decimals"
like "$(cat "$T_DIR/res/sfsc001.d")" "RESPONSE TIME PERCENTILES: p50 " \
    "each client's report has them too"
start_nfsd slow --delay-us 15000 || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -l 40 -p 2 -w 1 -t 3 -F 50 -R 0 -W 0 "$slow_URL" 2>/dev/null)
like "$out" "RESPONSE TIME PERCENTILES: p50 (1[5-9]|[2-9][0-9]|[1-9][0-9]{2,})\.[0-9] p99 [1-9][0-9]+\.[0-9] Msec/Op" \
    "above 10 ms: one decimal"
