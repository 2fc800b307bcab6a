#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# sfs_mgr -v LEVEL runs the validation suite first (sfs3 -V LEVEL on the
# first mount point) and keeps its output in sfsval.SFX; when validation
# fails, sfs_mgr says so clearly, names the file, runs no load point and
# exits 3.  (Until the validation suite lands, sfs3 -V always fails, which
# is what this checks; the passing case is the validation issue's.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 6
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/val_rc
prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=100 "WORK_DIR=$T_DIR/res"
# the validation's verdict, run by hand
"$T_BIN/sfs3" -V 1 "$srv_URL" >/dev/null 2>&1
direct=$?
"$T_BIN/sfs_mgr" -r "$rc" -v 1 >"$T_DIR/out" 2>"$T_DIR/err"
code=$?
like "$(cat "$T_DIR/out")" ">>>>> STARTED SFS VALIDATION ON" "the validation is announced"
like "$(cat "$T_DIR/res/sfsval.val")" "sfs3 -V 1 $srv_URL" "sfsval.val holds the validation run"
if [ "$direct" -ne 0 ]; then
    is "$code" 3 "a failed validation: sfs_mgr exits 3"
    like "$(cat "$T_DIR/err")" "VALIDATION FAILED: sfs3 -V 1 .* ended with exit status $direct.*sfsval.val" \
        "it says so, with the status and the file"
    ok "$([ ! -e "$T_DIR/res/sfssum.val" ]; echo $?)" "no load point was run"
    unlike "$(cat "$T_DIR/out")" "Executing run" "nothing executed"
else
    is "$code" 0 "a passing validation: the run goes on"
    like "$(cat "$T_DIR/out")" "Validation completed" "it says so"
    ok "$([ -s "$T_DIR/res/sfssum.val" ]; echo $?)" "the load point ran"
    like "$(cat "$T_DIR/out")" "Executing run 1 of 1" "and was announced"
fi
