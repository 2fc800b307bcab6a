#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# sfs_mgr -v LEVEL runs the validation suite first (sfs3 -V LEVEL on the
# first mount point) and keeps its output in sfsval.SFX.  On a healthy
# sfs_nfsd validation passes and the load point runs; on one that lies
# about attributes (--wrong-attrs) sfs_mgr says so clearly, names the file,
# runs no load point and exits 3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 10
start_nfsd good || bail "sfs_nfsd did not start"
start_nfsd liar --wrong-attrs 100 || bail "sfs_nfsd did not start"

run_mgr() { # NAME MOUNT
    local rc=$T_DIR/$1_rc
    prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$2\"" \
        NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=100 "WORK_DIR=$T_DIR/$1"
    "$T_BIN/sfs_mgr" -r "$rc" -s val -v 1 >"$T_DIR/$1.out" 2>"$T_DIR/$1.err"
}

run_mgr pass "$good_URL"
is "$?" 0 "a passing validation: the run goes on (exit 0)"
like "$(cat "$T_DIR/pass.out")" ">>>>> STARTED SFS VALIDATION ON" "the validation is announced"
like "$(cat "$T_DIR/pass.out")" "Validation completed" "and its end"
like "$(cat "$T_DIR/pass/sfsval.val")" "validation completed successfully\\." \
    "sfsval.val holds the suite's verdict"
ok "$([ -s "$T_DIR/pass/sfssum.val" ]; echo $?)" "the load point ran after it"

run_mgr fail "$liar_URL"
is "$?" 3 "a failed validation: sfs_mgr exits 3"
like "$(cat "$T_DIR/fail.err")" "VALIDATION FAILED: sfs3 -V 1 .* ended with exit status 1.*sfsval.val" \
    "it says so, with the status and the file"
like "$(cat "$T_DIR/fail/sfsval.val")" "attributes differ" "sfsval.val names what the server got wrong"
ok "$([ ! -e "$T_DIR/fail/sfssum.val" ]; echo $?)" "no load point was run"
unlike "$(cat "$T_DIR/fail.out")" "Executing run" "nothing executed"
