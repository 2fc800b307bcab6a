#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0675_nfsv41_capture_of_sfs4_mix_matches_tshark.t - an NFSv4.1 capture of
# the load generator's own SFS mix (sfs4, two processes, each its own
# client and session) against nfs-ganesha, read by `sfs_trace stats`:
# every COMPOUND call and reply agrees with tshark's decode, SEQUENCE's
# fields too; every per-operation and per-shape figure equals tshark's;
# the sessions are the processes' (made and destroyed, each of a client
# id), every OPEN the mix made was CLOSEd, and the compounds the capture
# holds are at least those sfs4 counted in its run phase.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_nfs.sh"
plan 7
export PROTOCOLS="3, 4"
start_ganesha
P=$GANESHA_NFS_PORT
CAP=$T_DIR/m.pcapng

cap_start "$CAP" "$P" || bail "no capture"
"$T_BIN/sfs4" -l 60 -p 2 -w 1 -t 3 -F 100 -a 25 --progress 0 \
    --yaml "$T_DIR/r.yaml" "127.0.0.1:$P:/export" >"$T_DIR/out" 2>"$T_DIR/err"
rc=$?
cap_stop
is "$rc" 0 "sfs4 ran its mix on ganesha" || diag "$(tail -5 "$T_DIR/err")"

out=$(nfs4_check "$CAP" "$P")
ok $? "every NFSv4.1 call and reply agrees with tshark's decode, SEQUENCE's fields too"
diag "$out"
out=$(nfs4_stats_check "$CAP" "$P")
like "$out" "^agree: " "stats: every per-operation and per-shape figure equals tshark's"
diag "$out"
S=$CAP.stats.yaml
sy() { python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1]))['nfsv4']; $1" "$S"; }
is "$(sy 'print(sorted((s["created"], s["destroyed"], s["clientid"] is not None) for s in g["sessions"]), len(g["clients"]))')" \
    "[(True, True, True), (True, True, True)] 2" \
    "stats: a session per process, made and destroyed, each of its own client"
is "$(sy 'o = g["opens"]; print(o["opened"] > 0, o["opened"] == o["closed"], o["open_at_end"])')" \
    "True True 0" "stats: every OPEN the mix made was CLOSEd"
run=$(python3 -c '
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))["protocol"]
print(p["compounds"])' "$T_DIR/r.yaml" 2>/dev/null)
all=$(sy 'print(g["compounds"])')
ok "$([ -n "$run" ] && [ "$run" -gt 0 ] && [ "$all" -ge "$run" ]; echo $?)" \
    "the capture's $all compounds hold the $run sfs4 counted in its run phase"
is "$(sy 'print(g["minor_versions"]["1"] == g["compounds"])')" True "every compound of minor version 1"
rm -f "$CAP"
