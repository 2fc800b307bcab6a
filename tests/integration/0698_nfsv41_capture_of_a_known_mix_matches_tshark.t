#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0698_nfsv41_capture_of_a_known_mix_matches_tshark.t - NFSv4.1 and 4.2
# traffic read: tests/tools/nfs41_mix (a v4.1 client of the rpcgen codecs
# and libtirpc, each COMPOUND shaped as a Linux client's: until the load
# generator speaks v4.1, the only v4.1 client a test can run) makes a known
# workload on nfs-ganesha - a session, files created, written, committed,
# closed, read back, a failed LOOKUP, READDIR, RENAME, LINK, a symlink,
# SETATTR, REMOVE - once over minor version 1 and once over 2, while
# dumpcap captures the test's ganesha port.  Every COMPOUND call and reply
# agrees with tshark's decode (with SEQUENCE's session, sequence id and
# slot); `sfs_trace stats` equals tshark's figures per operation and per
# shape; its sessions, client ids, opens and errors are the workload's;
# the image holds the tree the workload made (directories, files,
# symlinks created; renamed and removed names) and the export under the
# server's root.
# timeout: 400
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_nfs.sh"
MIX=$(tool_path nfs41_mix) || bail "tests/tools/nfs41_mix not built"
plan 11
export PROTOCOLS="3, 4"
start_ganesha
P=$GANESHA_NFS_PORT
ROUNDS=3
FILES=3

cap_start "$T_DIR/g.pcapng" "$P" || bail "no capture"
timeout 60 "$MIX" -r "$ROUNDS" -f "$FILES" "$P" export >"$T_DIR/mix1.out" 2>&1
r1=$?
timeout 60 "$MIX" -m 2 -r 1 -f 2 -p q "$P" export >"$T_DIR/mix2.out" 2>&1
r2=$?
cap_stop
is "$r1:$r2" "0:0" "the v4.1 and v4.2 workloads ran: $(cat "$T_DIR/mix1.out" "$T_DIR/mix2.out" | tr '\n' ' ')"
n1=$(awk '{print $2}' "$T_DIR/mix1.out")
n2=$(awk '{print $2}' "$T_DIR/mix2.out")

out=$(nfs4_check "$T_DIR/g.pcapng" "$P")
ok $? "every NFSv4.1/4.2 call and reply agrees with tshark's decode, SEQUENCE's fields too"
diag "$out"
out=$(nfs4_stats_check "$T_DIR/g.pcapng" "$P")
like "$out" "^agree: " "stats: every per-operation and per-shape figure equals tshark's"
diag "$out"
ev=$T_DIR/g.pcapng.events
S=$T_DIR/g.pcapng.stats.yaml
sy() { python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1]))['nfsv4']; $1" "$S"; }
is "$(sy 'print(g["compounds"], g["minor_versions"]["1"], g["minor_versions"]["2"])')" \
    "$((n1 + n2)) $n1 $n2" "stats: the COMPOUNDs each run sent, by minor version"
is "$(sy 'print(g["shapes"]["SEQUENCE PUTFH WRITE GETATTR"]["calls"])')" \
    "$(((ROUNDS * FILES + 2) * 3))" "stats: the shape of a write, once per block written"
is "$(sy 'print([(e["operation"], e["name"], e["count"]) for e in g["errors_by_status"]])')" \
    "[('LOOKUP', 'NOENT', $((ROUNDS + 1)))]" "stats: the failed LOOKUPs, by status"
is "$(sy 'o = g["opens"]; print(o["opened"], o["closed"], o["open_at_end"], o["closed_not_seen_opened"])')" \
    "$((ROUNDS * (FILES + 1) + 3)) $((ROUNDS * (FILES + 1) + 3)) 0 0" \
    "stats: every OPEN closed"
is "$(sy 'print(sorted((s["created"], s["destroyed"], s["clientid"] is not None, s["slots"]) for s in g["sessions"]), len(g["clients"]))')" \
    "[(True, True, True, 1), (True, True, True, 1)] 2" \
    "stats: two sessions made and destroyed, each of a client id, one slot"

"$T_BIN/sfs_trace" image -q "$T_DIR/g.pcapng" --yaml "$T_DIR/i.yaml" 2>"$T_DIR/err"
ok $? "image of the capture $(cat "$T_DIR/err")"
iy() { python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); $1" "$T_DIR/i.yaml"; }
is "$(iy 'print(g["created_by_type"]["dir"], g["created_by_type"]["reg"], g["created_by_type"]["lnk"], g["orphans"])')" \
    "$((ROUNDS + 1)) $((ROUNDS * FILES + 2)) $((ROUNDS + 1)) 0" \
    "image: the directories, files and symlinks the workload made, no orphans"
is "$(iy 'print(sorted(o["path"] for o in g["objects_list"] if o["type"] == "reg" and not o.get("removed_s")))')" \
    "['export/q0/f1', 'export/r0/f1', 'export/r0/f2', 'export/r1/f1', 'export/r1/f2', 'export/r2/f1', 'export/r2/f2']" \
    "image: the files left where the workload left them (f0 renamed and removed)"
