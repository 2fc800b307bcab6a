#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# Mistakes caught early, with the fix named: an unknown rc variable that is
# a typo of a known one (RUN_TIME) or a known one cut short at a '_'
# (WARMUP) is an error with "did you mean RUNTIME?" in --check and in a
# run, while other unknown variables stay warnings; a wrong export path
# against sfs_nfsd fails the point with the server's exports listed (MOUNT
# EXPORT); --trees says whether the mount points are fresh; sfs_mgr with
# no arguments prints its usage, sfs3 its usage line and where the rest
# is; every program's --help fits 80 columns; every program answers
# --version with the same version.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 24
cd "$T_DIR" || bail "no test dir"
start_nfsd srv || bail "sfs_nfsd did not start"

# ---- a typo of a known variable ----
prime_rc typo_rc CLIENTS=localhost LOAD=40 PROCS=1 "MNT_POINTS=$srv_URL" NFS_VERSION=3 \
    WARMUP_TIME=1 RUN_TIME=2 MY_SERVER=x "WORK_DIR=$T_DIR/typo"
out=$("$T_BIN/sfs_mgr" --check -r typo_rc 2>&1)
is "$?" 2 "--check: a typo of RUNTIME is an error (exit 2)"
like "$out" "^typo_rc:7: error: unknown variable RUN_TIME: did you mean RUNTIME\\?" \
    "at its line, naming the variable it meant"
like "$out" "^typo_rc:8: warning: unknown variable MY_SERVER$" \
    "a name near no known one stays a warning"
out=$("$T_BIN/sfs_mgr" -r typo_rc 2>&1)
is "$?" 2 "a run refuses it too"
ok "$([ ! -e "$T_DIR/typo" ]; echo $?)" "and starts nothing"
prime_rc cut_rc CLIENTS=localhost LOAD=40 PROCS=1 "MNT_POINTS=$srv_URL" NFS_VERSION=3 \
    WARMUP=5 RUNTIME=2 "WORK_DIR=$T_DIR/typo"
out=$("$T_BIN/sfs_mgr" --check -r cut_rc 2>&1)
is "$?" 2 "--check: WARMUP, WARMUP_TIME cut short, is an error (exit 2)"
like "$out" "^cut_rc:6: error: unknown variable WARMUP: did you mean WARMUP_TIME\\?" \
    "naming the variable it meant (the run would have used 300 s)"
prime_rc fixed_rc CLIENTS=localhost LOAD=40 PROCS=1 "MNT_POINTS=$srv_URL" NFS_VERSION=3 \
    WARMUP_TIME=1 RUNTIME=2 MY_SERVER=x FILE_COUNT=50 "WORK_DIR=$T_DIR/fixed"
"$T_BIN/sfs_mgr" --check -r fixed_rc >/dev/null 2>&1
is "$?" 0 "with RUNTIME spelt right the warning alone does not stop it"

# ---- --trees, then a wrong export ----
out=$("$T_BIN/sfs_mgr" --trees -r fixed_rc 2>&1)
is "$?" 0 "--trees on a fresh export: exit 0"
like "$out" "^test_directories: fresh" "and says it is fresh"
prime_rc wrong_rc CLIENTS=localhost LOAD=40 PROCS=1 "MNT_POINTS=${srv_URL%/export}/exprot" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=50 "WORK_DIR=$T_DIR/wrong"
"$T_BIN/sfs_mgr" -r wrong_rc >"$T_DIR/wrong.out" 2>"$T_DIR/wrong.err"
is "$?" 1 "a wrong export path fails the point"
like "$(cat "$T_DIR/wrong.err")" "/exprot: export refused \\([A-Z]+\\); the server exports /export" \
    "and the error lists the server's exports"
"$T_BIN/sfs_mgr" -r fixed_rc -s t1 >/dev/null 2>&1
out=$("$T_BIN/sfs_mgr" --trees -r fixed_rc 2>&1)
is "$?" 1 "--trees after a run: exit 1"
like "$out" "^test_directories: NOT fresh: CL1 already on " "it names the tree left behind"

# ---- usage and versions ----
out=$("$T_BIN/sfs_mgr" 2>&1)
is "$?" 2 "sfs_mgr with no arguments: exit 2"
like "$out" "^usage: sfs_mgr -r RC" "and its usage"
like "$out" "--check\\[=FORM\\]" "with the options"
err=$("$T_BIN/sfs3" 2>&1 >/dev/null)
is "$?" 182 "sfs3 with no arguments: 182, SFS's code for the mount points"
is "$err" "usage: sfs3 [options] mount-point...
sfs3: no mount point given (host:/path, host:port:/path or nfs://host[:port]/path); sfs3 --help for more" \
    "its usage line, what is missing and where the rest is"
wide=""
for p in sfs sfs3 sfs_mgr sfs_prime sfs_ping sfs_nfsd sfs_trace sfs_rc sfs_generate runsfs \
    "sfs_trace mrc" "sfs_trace convert"; do
    n=$($T_BIN/$p --help </dev/null 2>&1 | awk 'length($0) > 80' | wc -l)
    [ "$n" -eq 0 ] || wide="$wide $p:$n"
done
is "$wide" "" "every program's --help fits 80 columns"
version=$("$T_BIN/sfs_mgr" --version)
like "$version" "^sfs_mgr \\(FreeSFS\\) [0-9]+\\.[0-9]+" "sfs_mgr --version"
v=${version##* }
bad=""
for p in sfs sfs3 sfs_prime sfs_ping sfs_nfsd sfs_trace sfs_rc sfs_generate runsfs; do
    got=$("$T_BIN/$p" --version </dev/null 2>&1)
    [ "$got" = "$p (FreeSFS) $v" ] || bad="$bad $p:'$got'"
done
is "$bad" "" "every program answers --version with the same version"
got=$("$T_BIN/sfs_trace" mrc --version 2>&1)
is "$got" "sfs_trace (FreeSFS) $v" "also after a subcommand"
ok "$(no_leftovers "$(run_tag fixed_rc)" 10; echo $?)" "no process is left"
