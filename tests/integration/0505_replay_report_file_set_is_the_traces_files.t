#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A replay creates the trace's files, not SFS's file set: the report's
# FILE SET SIZE lines and the YAML file_set give the files the replay
# prepared (each ASU of the SPC trace as large as its highest byte used,
# sparse) - not the SFS sizing of the unused default load (-l 60: 608452
# KB), which the report printed before.  The expected size is computed
# here from the trace itself (ASU n: max of LBA x 512 + size).
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
TRACE=$T_FIXTURES/spc/seed-example.spc
want=$(awk -F, '$1 ~ /^[0-9]+$/ { e = $2 * 512 + $3; if (e > m[$1]) m[$1] = e }
    END { for (a in m) t += m[a]; printf "%d\n", (t + 1023) / 1024 }' "$TRACE")
out=$("$T_BIN/sfs3" -p 1 --trace "$TRACE" --speed 0 --yaml "$T_DIR/r.yaml" "$srv_URL" \
    2>"$T_DIR/err")
is "$?" 0 "the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
like "$out" "FILE SET SIZE CREATED: $want KB" "created: the trace's three files ($want KB)"
unlike "$out" "608452" "not the SFS sizing of the default load"
is "$(awk '/^ *created_kb:/ {print $2}' "$T_DIR/r.yaml")" "$want" "the YAML says the same"
is "$(awk '/^ *io_files:/ {print $2}' "$T_DIR/r.yaml")" 3 "three files: asu0, asu1, asu2"
