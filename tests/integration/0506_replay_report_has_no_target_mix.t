#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A replay's calls follow the trace, not the SFS mix: the report's Target
# NFS Mix column is "-" for every op (it showed the SFS default mix, 11 %
# getattr, 27 % lookup... beside the replay's 18 % read, 82 % write, then
# 0 %), the Actual column is the trace's, the YAML's target_pct is 0, and
# the summary has no "NFS MIXFILE: [ SFS Default ]" line.
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -p 1 --trace "$T_FIXTURES/spc/seed-example.spc" --speed 0 \
    --yaml "$T_DIR/r.yaml" "$srv_URL" 2>"$T_DIR/err")
is "$?" 0 "the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
like "$out" "^read +- +18\.2% +2 " "read: no target, 2 of the 11 calls"
unlike "$out" "NFS MIXFILE" "no mix file line: a replay has no mix"
is "$(awk '$2 ~ /%$/ && $2 != "0%" && $1 ~ /^[a-z]+$/' <<<"$out" | wc -l)" 0 \
    "no op of the table has a target"
is "$(awk '/- op:/ {op = $3; gsub(/\047/, "", op)}
    /target_pct:/ && $2 != 0 && op != "TOTAL" {print op}' "$T_DIR/r.yaml" | wc -l)" 0 \
    "nor in the YAML (TOTAL is 100 %)"
