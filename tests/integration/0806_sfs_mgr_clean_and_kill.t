#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# The benchmark trees: a first run says the test directories were fresh,
# a second one that they were not (CL1 left by the first); sfs_mgr -c
# removes CL<n> from the mount points through libnfs, and the next run is
# fresh again.  sfs_mgr -k stops what a crash leaves: a hung sfs_mgr
# (stopped; SIGTERM makes it stop its clients) and a client that lost its
# prime (by the pid file it recorded).  POPULATE only populates.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 14
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/cl_rc
prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=100 "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
res=$T_DIR/res/sfsres.cl
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out1" 2>&1
is "$?" 0 "first run"
like "$(grep 'Test directories' "$res" | tail -1)" "Test directories: fresh" "first run: fresh trees"
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out2" 2>&1
like "$(grep 'Test directories' "$res" | tail -1)" "Test directories: NOT fresh: CL1" \
    "second run: the report says CL1 was left by an earlier run"
out=$("$T_BIN/sfs_mgr" -c -r "$rc" 2>&1)
is "$?" 0 "sfs_mgr -c exits 0"
like "$out" "removed CL1 from $srv_URL" "-c says what it removed"
unlike "$("$(tool_path lnfs_tool)" "$srv_NFSURL" ls / 2>&1)" "CL1" "CL1 is gone from the server"

# -k after a crash: a hung sfs_mgr (stopped) whose clients still run
prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=60 FILE_COUNT=100 "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s k >"$T_DIR/out3" 2>&1 &
mgr=$!
track "$mgr"
wait_log "$T_DIR/res/sfslog.k" "Sending run to" 200
like "$(grep 'Test directories' "$T_DIR/res/sfsres.k")" "Test directories: fresh" \
    "after -c the next run is fresh"
kill -STOP "$mgr"
out=$("$T_BIN/sfs_mgr" -k -r "$rc" -s k 2>&1)
is "$?" 0 "sfs_mgr -k exits 0"
like "$out" "stopping sfs_mgr $mgr" "-k stops the hung sfs_mgr (which stops its clients)"
no_leftovers "$tag" 10
ok $? "nothing of that run is left"

# a client that lost its prime, found by the pid file it recorded
cmd=$("$T_BIN/sfs_mgr" --check -r "$rc" | sed -n 's/^client_command 1: //p' |
    sed 's/-M127\.0\.0\.1:0 /-M127.0.0.1:1 /')
echo 00112233445566778899aabbccddeeff >"$T_DIR/tok"
# shellcheck disable=SC2086
$cmd <"$T_DIR/tok" >"$T_DIR/lost.out" 2>&1 &
lost=$!
track "$lost"
wait_for "ls /tmp/freesfs-$tag-CL1.pid" 100 0.05
out=$("$T_BIN/sfs_mgr" -k -r "$rc" 2>&1)
like "$out" "stopped client $lost" "-k stops a client by its pid file"
wait_for "! alive $lost" 100 0.05
ok "$(! alive "$lost"; echo $?)" "that client is gone"

# POPULATE: the file sets are made, nothing is measured or summed
prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 POPULATE=1 FILE_COUNT=100 "WORK_DIR=$T_DIR/res"
out=$("$T_BIN/sfs_mgr" -r "$rc" -s pop 2>&1)
like "$out" "Executing run 1 of 1 \.\.\. done \(populated\)" "POPULATE: the point only populates"
ok "$([ ! -s "$T_DIR/res/sfssum.pop" ] &&
    grep -q 'POPULATE: the file sets are in place' "$T_DIR/res/sfsres.pop"; echo $?)" \
    "POPULATE: no sfssum line, the report says so"
