#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: prime ctl client
# sfs_mgr runs an rc file with two clients on this host (CLIENTS names
# localhost twice: two clients, CL1 and CL2) against sfs_nfsd: two load
# points, "Executing run i of N ... done" per point, every result file of
# docs/DECISIONS.md D10 in WORK_DIR, sfssum fields as docs/SFS30.md §16.5 (file
# set KB by the formula of 5.2), the token never on a command line, each
# client's results in less than 16 KiB, and no process left afterwards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 22
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/two_rc
prime_rc "$rc" 'LOAD="60 120"' 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 FILE_COUNT=200 \
    "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err" &
mgr=$!
track "$mgr"
wait_log "$T_DIR/res/sfslog.t" "Starting 4 seconds test run" 200 || diag "$(cat "$T_DIR/err")"
# one look at the command lines while the point runs (4 s)
cmdlines=$(for p in $(run_procs "$tag"); do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done 2>/dev/null)
tokens=$(printf '%s\n' "$cmdlines" | grep -Ec '[0-9a-f]{32}')
is "$tokens" 0 "no command line of the run holds a 32-digit token"
clients=$(printf '%s\n' "$cmdlines" | grep -c -- '-N[12] ')
ok "$([ "$clients" -ge 2 ]; echo $?)" "both clients run (with their children)"
wait "$mgr"
is "$?" 0 "sfs_mgr exits 0"
out=$(cat "$T_DIR/out")
like "$out" "Executing run 1 of 2 \.\.\. done" "run 1 of 2 is announced and done"
like "$out" "Executing run 2 of 2 \.\.\. done" "run 2 of 2 is announced and done"
like "$out" "[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]{8} [0-9]{4}" "a date per point"
for f in sfssum.t sfsres.t sfslog.t sfsc001.t sfsc002.t sfsres.t.yaml; do
    [ -s "$T_DIR/res/$f" ] || diag "missing $f"
done
ok "$(for f in sfssum.t sfsres.t sfslog.t sfsc001.t sfsc002.t sfsres.t.yaml; do
    [ -s "$T_DIR/res/$f" ] || exit 1; done; echo 0)" "every result file is written"
is "$(wc -l <"$T_DIR/res/sfssum.t")" 2 "sfssum has one line per point"
l1=$(sed -n 1p "$T_DIR/res/sfssum.t")
l2=$(sed -n 2p "$T_DIR/res/sfssum.t")
is "$(sumfield "$l1" 1) $(sumfield "$l2" 1)" "60 120" "requested loads"
ok "$(awk -v a="$(sumfield "$l2" 2)" 'BEGIN {exit !(a >= 114 && a <= 126)}'; echo $?)" \
    "run 2 achieved $(sumfield "$l2" 2) of 120 ops/s"
is "$(sumfield "$l2" 6) $(sumfield "$l2" 7)" "3 U" "NFS version 3 over UDP"
# file set (docs/SFS30.md §5.2): io files per child = 200/2 + 1, 26 KB each,
# 2 children on each of 2 clients
is "$(sumfield "$l2" 8)" $(((200 / 2 + 1) * 26 * 2 * 2)) "file set KB by the 5.2 formula"
is "$(sumfield "$l2" 9) $(sumfield "$l2" 10) $(sumfield "$l2" 11) $(sumfield "$l2" 12) $(sumfield "$l2" 13)" \
    "2 2 2 2 3.0" "clients, procs, biod reads and writes, version"
small=$(sed -n 's/.*results received ([^)]*, \([0-9]*\) bytes.*/\1/p' "$T_DIR/res/sfslog.t" |
    awk '$1 > 0 && $1 < 16384' | wc -l)
is "$small" 4 "each client's results of each point travel in less than 16 KiB"
res=$(cat "$T_DIR/res/sfsres.t")
like "$res" "SFS Aggregate Results for 2 Client\(s\)" "the aggregate report per point"
like "$res" "AGGREGATE REQUESTED LOAD: 120 Ops/Sec" "requested load = clients x client load"
like "$(cat "$T_DIR/res/sfsc002.t")" "SFS Single Client .* Results" "client 2's own report in sfsc002"
if command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
    n=$(python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
print(sum(1 for p in d["points"] if p["finished"]), d["points"][1]["aggregate"]["clients"])' \
        "$T_DIR/res/sfsres.t.yaml")
    is "$n" "2 2" "the YAML holds both points and the client count"
else
    skip "python3-yaml missing"
fi
if command -v gnuplot >/dev/null; then
    is "$(head -c 4 "$T_DIR/res/sfsres.t.png" 2>/dev/null | tail -c 3)" PNG \
        "the curve picture sfsres.t.png"
else
    like "$(cat "$T_DIR/res/sfsres.t")" "Curve: .*gnuplot" "no gnuplot: a one-line note"
fi
ls=$("$(tool_path lnfs_tool)" "$srv_NFSURL" ls / 2>&1)
is "$(printf '%s\n' "$ls" | grep -c '^d CL[12]$')" 2 "CL1 and CL2 trees on the server"
unlike "$ls" "CL3" "no third tree"
no_leftovers "$tag" 10
ok $? "no process of the run is left"
