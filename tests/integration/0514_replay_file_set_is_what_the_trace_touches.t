#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 150
# A replay's report gives the bytes the trace touches, not only the sparse
# size of the files it prepared (each as large as its highest byte used):
# FILE SET SIZE CREATED says "sparse", FILE SET SIZE ACCESSED gives the
# distinct bytes the trace's READs and WRITEs touch, and the YAML's
# replay.file_set has both exactly - standalone over two processes and in
# sfs_mgr's aggregate of two clients.  The figure is computed here from
# the trace alone: each record's byte extent (LBA x 512, size), sorted and
# merged per ASU (edge-cases.spc overlaps, nests and abuts its records,
# with sizes that are not whole LBAs and a zero-length read).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
need_cmd python3
plan 9
start_nfsd srv || bail "sfs_nfsd did not start"
TRACE=$T_FIXTURES/spc/edge-cases.spc
touched=$(awk -F, '$1 ~ /^[ \t]*[0-9]+[ \t]*$/ && $3 + 0 > 0 {
        printf "%d %.0f %.0f\n", $1 + 0, ($2 + 0) * 512, ($2 + 0) * 512 + $3 }' "$TRACE" |
    sort -k1,1n -k2,2n |
    awk '{ if ($1 != u || $2 > e) { t += e - s; u = $1; s = $2; e = $3 }
           else if ($3 > e) e = $3 }
         END { t += e - s; printf "%.0f\n", t }')
sparse=$(awk -F, '$1 ~ /^[ \t]*[0-9]+[ \t]*$/ { e = ($2 + 0) * 512 + $3; if (e > m[$1 + 0]) m[$1 + 0] = e }
    END { for (a in m) t += m[a]; printf "%.0f\n", t }' "$TRACE")
kb() { echo $((($1 + 1023) / 1024)); }
diag "the trace touches $touched bytes of $sparse sparse"
out=$("$T_BIN/sfs3" -p 2 --trace "$TRACE" --speed 0 --yaml "$T_DIR/r.yaml" "$srv_URL" \
    2>"$T_DIR/err")
is "$?" 0 "the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
like "$out" "FILE SET SIZE CREATED: $(kb "$sparse") KB sparse \(3 files" \
    "created: the files' sparse size, labelled so"
like "$out" "FILE SET SIZE ACCESSED: $(kb "$touched") KB touched \($touched bytes the trace" \
    "accessed: the bytes the trace touches"
yaml_get() {
    python3 -c "
import yaml, sys
d = yaml.safe_load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    d = d[int(k)] if isinstance(d, list) else d[k]
print(d)" "$@" 2>&1
}
is "$(yaml_get "$T_DIR/r.yaml" replay.file_set.touched_bytes) $(yaml_get "$T_DIR/r.yaml" replay.file_set.sparse_bytes)" \
    "$touched $sparse" "the YAML: touched and sparse bytes exactly"
is "$(yaml_get "$T_DIR/r.yaml" file_set.accessed_most_kb)" "$(kb "$touched")" \
    "the YAML's file_set: accessed is what is touched"

rc=$T_DIR/replay_rc
prime_rc "$rc" 'LOAD=60' 'CLIENTS="localhost localhost"' PROCS=1 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=20 \
    "TRACE_FILE=$TRACE" 'TRACE_SPEED=0' TRACE_WINDOW=16 "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0" || diag "$(tail -3 "$T_DIR/err")"
res=$(cat "$T_DIR/res/sfsres.t")
like "$res" "TOTAL FILE SET SIZE CREATED: +[0-9.]+ MB sparse \(3 files" \
    "the aggregate: created is sparse, over both clients' files"
like "$res" "TOTAL FILE SET SIZE ACCESSED: +[0-9.]+ MB touched \($touched bytes the trace" \
    "the aggregate: the bytes the trace touches, summed over the clients"
is "$(yaml_get "$T_DIR/res/sfsres.t.yaml" points.0.aggregate.replay.file_set.touched_bytes)" \
    "$touched" "the aggregate YAML: the same bytes"
