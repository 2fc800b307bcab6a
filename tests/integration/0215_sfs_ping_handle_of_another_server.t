#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0215_sfs_ping_handle_of_another_server.t - a MOUNT handle of another
# server (what rpcbind gives when no mount port is named and another server
# registered MOUNT there; here two sfs_nfsd on 127.0.0.1, no rpcbind used):
# every call fails with an NFS error, so sfs_ping exits 1 with one line
# that says so and names the remedy, the server's own mount port; with the
# right mount port it exits 0, and NULL, which carries no handle, too.
# check: nfs
# timeout: 60
. "$(dirname "$0")/lib.sh"
plan 7

start_nfsd A || bail "no server A"
start_nfsd B || bail "no server B"
P=$T_BIN/sfs_ping
wrong="nfs://127.0.0.1:$A_NFS_PORT/export?mountport=$B_MNT_PORT"

out=$("$P" -Q -p getattr -c 200 "$wrong" 2>"$T_DIR/err"); rc=$?
err=$(cat "$T_DIR/err")
is "$rc" 1 "every call an NFS error: exit 1"
like "$err" "^sfs_ping: nfs://127\\.0\\.0\\.1:$A_NFS_PORT/export\\?mountport=$B_MNT_PORT: all 200 calls failed with NFS error STALE; the handle came from the MOUNT server at port $B_MNT_PORT: give this NFS server's mount port \\(host:port:/path or \\?mountport=N\\)\$" \
    "... one line: what failed, the MOUNT port the handle came from, the remedy"
is "$(printf '%s\n' "$err" | wc -l)" 1 "... and only that line"
like "$out" "nfs_errors 200" "... the report still counts the calls"

out=$("$P" -Q -p getattr -c 200 "$A_NFSURL" 2>&1); rc=$?
is "$rc $(printf '%s\n' "$out" | grep -c '^sfs_ping:')" "0 0" \
    "the server's own mount port: exit 0, no error line"
like "$out" "nfs_errors 0" "... and no NFS error"

"$P" -Q -p null -c 50 "$wrong" >/dev/null 2>&1
is "$?" 0 "NULL carries no handle: exit 0 with the other server's mount port"
