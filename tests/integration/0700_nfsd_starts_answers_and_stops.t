#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# check: server bin
# sfs_nfsd start and stop: the "ready" line names the bound ports, two
# instances run side by side on other ports, SIGTERM and SIGINT stop it at once
# with a clean exit, a pidfile is written and removed, background mode
# prints "ready ... pid N" and detaches (and leaves no server behind when
# its pidfile cannot be written), bad options exit 2, a port in use exits
# 1 with the reason, --stats-file is written on SIGUSR1 and at exit (one
# it cannot write stops the start).
. "$(dirname "$0")/lib.sh"
need_cmd nfs-ls
plan 21

start_nfsd A --pidfile "$T_DIR/a.pid" --stats-file "$T_DIR/a.yaml" || bail "no server"
like "$(cat "$T_DIR/A.log")" "^ready nfs 127.0.0.1:$A_NFS_PORT udp,tcp mount 127.0.0.1:$A_MNT_PORT udp,tcp exports /export" "ready line names ports and exports"
is "$(cat "$T_DIR/a.pid")" "$A_PID" "pidfile holds the server's pid"
start_nfsd B --export /other --export /export || bail "no second server"
ok $? "a second instance starts on other ports"
out=$(timeout 10 nfs-ls "$A_LNFS_URL" 2>&1); ok $? "first instance answers nfs-ls"
out=$(timeout 10 nfs-ls "nfs://127.0.0.1/other?nfsport=$B_NFS_PORT&mountport=$B_MNT_PORT" 2>&1)
ok $? "second instance answers on its second export"
# host:port:/path: NFS and MOUNT on one port
out=$(timeout 10 nfs-ls "nfs://127.0.0.1/export?nfsport=$A_MNT_PORT&mountport=$A_MNT_PORT" 2>&1)
ok $? "NFS is served on the MOUNT port too"
out=$(timeout 10 nfs-ls "nfs://127.0.0.1/export?nfsport=$A_NFS_PORT&mountport=$A_NFS_PORT" 2>&1)
ok $? "MOUNT is served on the NFS port too"

kill -USR1 "$A_PID"
wait_for "grep -q 'nfs_v3:' '$T_DIR/a.yaml'" 100 0.05
like "$(cat "$T_DIR/a.yaml" 2>/dev/null)" "readdirplus: [1-9]" "SIGUSR1 writes the stats file with per-procedure counts"
kill -TERM "$A_PID"
wait_for "! alive $A_PID" 40 0.05; ok $? "SIGTERM stops it within 2 s"
wait "$A_PID"; is "$?" "0" "exit status 0 after SIGTERM"
[ ! -e "$T_DIR/a.pid" ]; ok $? "pidfile removed at exit"
like "$(cat "$T_DIR/a.yaml")" "mnt: [1-9]" "stats file written at exit"

# background mode
line=$("$T_BIN/sfs_nfsd" -p 0 -m 0 --pidfile "$T_DIR/bg.pid" 2>&1)
like "$line" "^ready nfs 127.0.0.1:[0-9]+ .* pid [0-9]+$" "background mode prints ready and the pid"
bgpid=$(cat "$T_DIR/bg.pid" 2>/dev/null); track "${bgpid:-0}"
port=$(printf '%s' "$line" | sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p')
timeout 10 nfs-ls "nfs://127.0.0.1/export?nfsport=$port&mountport=$port" >/dev/null 2>&1
ok $? "background server answers"
# a pidfile that cannot be written: exit 1, one line naming it, and the
# server already detached is stopped - none left that its pidfile cannot
# name (one was, serving on until a reboot)
nopid=$T_DIR/no/such/dir/bg.pid
err=$("$T_BIN/sfs_nfsd" -p 0 -m 0 --pidfile "$nopid" 2>&1)
is "$? $err" "1 sfs_nfsd: $nopid: cannot be written: No such file or directory" \
    "an unwritable pidfile: exit 1 and one line naming it"
left=$(ps -e -ww -o pid=,comm=,args= | awk -v f="$nopid" '$2 == "sfs_nfsd" && index($0, f) {print $1}')
for p in $left; do track "$p"; done
is "$left" "" "no detached server is left running"
# a stats file it cannot write: said at start, not after the run it counts
err=$(timeout 20 "$T_BIN/sfs_nfsd" -f -p 0 -m 0 --stats-file "$T_DIR/no/such/dir/s.yaml" 2>&1)
is "$? $err" "1 sfs_nfsd: $T_DIR/no/such/dir/s.yaml: cannot be written: No such file or directory" \
    "an unwritable --stats-file: exit 1 at start and one line naming it"

"$T_BIN/sfs_nfsd" --no-such-option >/dev/null 2>&1; is "$?" "2" "unknown option: exit 2"
err=$("$T_BIN/sfs_nfsd" -f -p "$B_NFS_PORT" -m 0 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$err" | grep -q "in use"; ok $? "port in use: exit 1 with the reason"
kill -INT "$B_PID"
wait_for "! alive $B_PID" 40 0.05; ok $? "SIGINT stops it too"
wait "$B_PID"; is "$?" "0" "exit status 0 after SIGINT"
