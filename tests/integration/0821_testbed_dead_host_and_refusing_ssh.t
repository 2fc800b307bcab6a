#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 240
# Clean abort across hosts (docs/DECISIONS.md D8), on a namespace test bed of
# three hosts: client 2's sshd (the daemon and its sessions) killed in the
# middle of the second point fails that point naming client 2, keeps the
# first point, exits non-zero, and leaves no FreeSFS process on any host
# within 10 s (the remote client notices that its remote shell is gone and
# stops by itself);
# the next run, whose ssh to client 2 is now refused, fails at once naming
# the host and ssh's reason, again with nothing left behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
testbed_start fs0821 10.221.21 3
plan 10
rc=$T_DIR/dead_rc
prime_rc "$rc" 'LOAD="30 60"' 'CLIENTS="client1 client2 client3"' PROCS=1 \
    "MNT_POINTS=\"$TB_MOUNT\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=3 \
    FILE_COUNT=100 "WORK_DIR=$T_DIR/res" "RSH=\"ssh -F $TESTBED_DIR/ssh_config\""
tag=$(run_tag "$rc")
log=$T_DIR/res/sfslog.dead
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err" &
mgr=$!
track "$mgr"
# the warm-up of run 2 (its sessions are up), not run 1's line already in
# the log
wait_for "sed -n '/Executing run 2 of 2/,\$p' '$log' | grep -q 'Sending warm-up to'" 700 0.1
# client 2's "host" dies: its sshd and every session it serves
sshd=$(sed -n 2p "$TESTBED_DIR/sshd.pids" | awk '{print $1}')
victims="$sshd $(pgrep -P "$sshd" | tr '\n' ' ')"
like "$victims" "[0-9]+ [0-9]+" "client 2's sshd and its session ($victims)"
# shellcheck disable=SC2086
kill -KILL $victims
wait_for "! alive $mgr" 300 0.1
wait "$mgr"
is "$?" 1 "sfs_mgr exits 1"
like "$(cat "$T_DIR/err")" "run 2 of 2 failed: client 2 \(client2\)" "the failure names client 2"
is "$(wc -l <"$T_DIR/res/sfssum.dead")" 1 "the finished first point is kept"
no_leftovers "$tag" 10
ok $? "no FreeSFS process left on any host"

# the next run: ssh to client 2 is refused
"$T_BIN/sfs_mgr" -r "$rc" -s again >"$T_DIR/out2" 2>"$T_DIR/err2"
is "$?" 1 "a refused ssh fails the run"
err=$(cat "$T_DIR/err2")
like "$err" "client 2 \(client2\): its remote shell exited \(exit status 255\)" \
    "the failure names the host and the remote shell's status"
like "$err" "Connection refused|connect to host" "and ssh's own reason"
ok "$([ ! -s "$T_DIR/res/sfssum.again" ]; echo $?)" "no point was recorded"
no_leftovers "$tag" 10
ok $? "no FreeSFS process left on any host"
