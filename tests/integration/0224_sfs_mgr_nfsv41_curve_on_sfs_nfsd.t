#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: prime synth
# sfs_mgr runs an NFSv4.1 curve from the rc file (NFS_VERSION=4, TCP not
# said): each point's clients are sfs4, over TCP; the result files are
# written (report, YAML, sfssum with version 4 and transport T, the
# picture), and the server holds no client or session at the end.
. "$(dirname "$0")/lib.sh"
plan 6
start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "sfs_nfsd did not start"
cd "$T_DIR" || bail "no test dir"
printf '%s\n' 'LOAD="50 100"' CLIENTS=localhost "MNT_POINTS=$S_URL" NFS_VERSION=4 PROCS=2 \
    WARMUP_TIME=1 RUNTIME=3 FILE_COUNT=200 ACCESS_PCNT=25 >v4_rc
"$T_BIN/sfs_mgr" -r v4_rc >mgr.out 2>&1
is "$?" 0 "sfs_mgr exits 0"
R=$T_DIR/result
is "$(awk 'NF > 8 { print $7 }' "$R/sfssum.v4" | tr '\n' ' ')" "4 4 " \
    "sfssum: both points over NFS version 4"
is "$(awk 'NF > 8 { print $8 }' "$R/sfssum.v4" | tr '\n' ' ')" "T T " "... over TCP"
like "$(cat "$R/sfsres.v4" 2>/dev/null)" "NFS Protocol Version 4" "the report names NFSv4"
ok "$([ -s "$R/sfsres.v4.yaml" ] && [ -s "$R/sfsres.v4.png" ]; echo $?)" \
    "the YAML and the picture are written"
is "$(nfsd_stat S clients)/$(nfsd_stat S sessions)" "0/0" "no client or session left"
