#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 150
# "A call without a reply in its class timeout is a bad call, as
# in SFS": with 3 % of the replies dropped (sfs_nfsd --drop-replies 3) the
# run reports about 3 % bad calls (1.5-6 %: the drops are random) and is
# INVALID with the failed-calls code, and the retransmitted calls are
# reported per op; with 0.1 % dropped it stays valid (no failed-calls line)
# and its bad calls are still counted.  The plain words give the share of
# all calls that failed beside SFS's figure (failed per 100 answered).
# Before, a call counted as bad only after 5 retransmissions (5-15 s), so
# a lossy server showed 0 failed calls.
. "$(dirname "$0")/lib.sh"
need_python_yaml
plan 8
start_nfsd lossy --drop-replies 3 || bail "sfs_nfsd did not start"
start_nfsd rare --drop-replies 0.1 --seed 5 || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -l 400 -p 8 -w 1 -t 6 -F 400 --yaml "$T_DIR/r.yaml" "$lossy_URL" \
    2>"$T_DIR/err1")
is "$?" 0 "the lossy run completes and reports"
good=$(printf '%s\n' "$out" | awk '/^TOTAL NFS OPERATIONS:/ {print $4}')
bad=$(printf '%s\n' "$out" | awk '/^BAD CALLS:/ {print $3}')
ok "$(awk -v b="$bad" -v g="$good" 'BEGIN {exit !(g > 0 && b * 100 / g >= 1.5 && b * 100 / g <= 6)}'; echo $?)" \
    "about 3 % bad calls ($bad bad of $good good)"
like "$out" "sfs3: INVALID RUN, [0-9]+% Failed RPC calls" "INVALID with the failed-calls line"
# the reason in plain words: the share of all calls that failed, then
# SFS's own figure (failed per 100 answered); the words gave SFS's figure
# as the share ("1528 of 1736 calls failed, 734.62 %")
words=$(python3 -c 'import sys, yaml
for r in yaml.safe_load(open(sys.argv[1]))["validity"]["reasons"]:
    if " calls failed, " in r: print(r)' "$T_DIR/r.yaml" 2>&1)
ok "$(printf '%s\n' "$words" | awk '{b = $1; t = $3; p = $6}
    END {exit !(t > 0 && sprintf("%.2f", b * 100 / t) == p &&
        index($0, "SFS allows less than 1 per 100 answered, here " sprintf("%.2f", b * 100 / (t - b))))}'; echo $?)" \
    "the words give the share of all calls that failed, and SFS's figure ($words)"
like "$out" "RETRANSMITTED CALLS: [1-9][0-9]* \((.*[a-z]+ [0-9]+)+\)" \
    "retransmitted calls are reported in total and per op"
out=$("$T_BIN/sfs3" -l 800 -p 8 -w 1 -t 10 -F 400 "$rare_URL" 2>"$T_DIR/err2")
is "$?" 0 "the 0.1 % run completes"
unlike "$out" "Failed RPC calls" "0.1 % lost replies: no failed-calls INVALID line"
bad=$(printf '%s\n' "$out" | awk '/^BAD CALLS:/ {print $3}')
ok "$(test "${bad:-0}" -gt 0; echo $?)" "its bad calls are counted ($bad)"
