#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 300
# sfs4 runs the SFS mix over NFSv4.1 against nfs-ganesha (FSAL VFS, v4
# enabled): 100 ops/s from 2 children reach 100 +-1 % (less what the pacing
# says it lost), every op within 1 point of its target mix, 0 bad calls,
# the file set on ganesha's disk, and no process's DESTROY_CLIENTID
# refused at its end (CLIENTID_BUSY: a file still open).
. "$(dirname "$0")/lib.sh"
export PROTOCOLS="3, 4"
start_ganesha
plan 6
out=$("$T_BIN/sfs4" -l 100 -p 2 -w 2 -t 6 -F 300 -a 25 --progress 0 \
    --yaml "$T_DIR/r.yaml" "127.0.0.1:$GANESHA_NFS_PORT:/export" 2>"$T_DIR/err")
is "$?" 0 "sfs4 exits 0"
[ -s "$T_DIR/r.yaml" ] || diag "$(tail -5 "$T_DIR/err")"
tput=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $4}')
bounds=$(rate_reached "$tput" 100 6 "$T_DIR/r.yaml")
ok $? "throughput $tput within 1 % of 100, less what the pacing says it lost ($bounds)"
like "$out" "BAD CALLS: 0 " "0 bad calls"
miss=$(python3 -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
print(" ".join("%s:%s/%s" % (o["op"], o["target_pct"], o["actual_pct"])
               for o in d["ops"] if abs(o["actual_pct"] - o["target_pct"]) > 1.0))' "$T_DIR/r.yaml")
is "$miss" "" "every op within 1 point of its target mix"
ok "$([ -d "$GANESHA_DIR/export/CL1" ]; echo $?)" "the file set is on ganesha's disk"
is "$(grep -c CLIENTID_BUSY "$T_DIR/err")" 0 "no DESTROY_CLIENTID refused at the end"
