#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 150
# check: nfs synth
# sfs4's protocol counters - the report's NFSv4.1 rows and the results
# file's `protocol` section - against tshark's decode of a capture of the
# same run on sfs_nfsd: the compounds and each operation counted in the run
# are exactly those of the calls on the wire between the XIDs where the
# one process's counting started and stopped (its -d 7 lines); OPEN and
# CLOSE are on lines of their own with their share of the mix; over the
# whole capture every OPEN had its CLOSE, as the server counts them too.
# An NFSv3 run's report and results have no protocol section.
. "$(dirname "$0")/lib.sh"
need_root "a capture on lo"
need_cmd tshark
need_cmd dumpcap
. "$(dirname "$0")/lib_nfscap.sh"
plan 12
start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "sfs_nfsd did not start"
CAP=$T_DIR/v4.pcapng
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
out=$("$T_BIN/sfs4" -l 100 -p 1 -w 1 -t 5 -F 300 -a 25 -d 7 --progress 0 \
    --yaml "$T_DIR/r.yaml" "$S_URL" 2>"$T_DIR/err")
is "$?" 0 "sfs4 exits 0"
cap_stop
like "$out" "NFSv4.1 operations sent in the run \([0-9]+ compounds" \
    "the report counts the v4 operations beside SFS's per-op table"
like "$out" "OPEN  operations +[0-9]+: [0-9]+ in the mix's creates, [0-9]+ calls of their own \([0-9.]+ % beyond the mix's [0-9]+ calls" \
    "OPEN on its own line, with its share of the mix"
like "$out" "CLOSE operations +[0-9]+, each a call of its own \([0-9.]+ % beyond" \
    "CLOSE on its own line, with its share of the mix"
like "$out" "new sessions 0, new clients 0" "no recovery counted on a quiet server"
from=$(sed -n 's/.*NFSv4.1 counters start at xid \([0-9a-f]*\)$/\1/p' "$T_DIR/err")
to=$(sed -n 's/.*NFSv4.1 counters stop at xid \([0-9a-f]*\)$/\1/p' "$T_DIR/err")
ok "$([ -n "$from" ] && [ -n "$to" ]; echo $?)" "the child says where it counted (xid $from to $to)"
chk=$(python3 "$T_TOP/tests/tools/nfs4-opcount.py" "$CAP" "$T_DIR/r.yaml" "$from" "$to" \
    "$S_NFS_PORT")
ok $? "tshark: the compounds and every operation as counted"
diag "$chk"
opens=$(printf '%s\n' "$chk" | awk '$1 == "capture" && $2 == "OPEN" { print $3 }')
closes=$(printf '%s\n' "$chk" | awk '$1 == "capture" && $2 == "CLOSE" { print $3 }')
ok "$([ "${opens:-0}" -gt 0 ]; echo $?)" "the capture holds OPENs ($opens)"
is "$closes" "$opens" "every OPEN on the wire had its CLOSE"
is "$(nfsd_stat S close)/$(nfsd_stat S open)" "$opens/$opens" "... as the server counted them"
rm -f "$CAP"

out=$("$T_BIN/sfs3" -l 100 -p 1 -w 1 -t 2 -F 300 -a 25 --progress 0 \
    --yaml "$T_DIR/r3.yaml" "$S_URL" 2>"$T_DIR/err3")
is "$?" 0 "sfs3 exits 0"
ok "$(! grep -q '^protocol:' "$T_DIR/r3.yaml" && ! printf '%s' "$out" | grep -q 'NFSv4.1 operations'; echo $?)" \
    "an NFSv3 run has no protocol rows or section"
