#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 300
# sfs_nfsd --register: NFS v2/v3 and MOUNT v1/v3 appear in rpcbind's table
# on the server's ports (UDP and TCP), a client finds the server through
# rpcbind alone, and everything is unregistered at exit.  Needs
# rpcbind (started for the test when none runs); serialised with the ganesha
# tests, whose registrations clash.
. "$(dirname "$0")/lib.sh"
need_cmd rpcinfo
# take the lock first: the ganesha script stops the rpcbind it started when
# its test ends, so rpcbind is only known to stay up while we hold it
ganesha_lock 240 || skip_all "rpcbind busy: another test held the lock for 4 minutes"
rpcbind_up() { timeout 10 rpcinfo -p 127.0.0.1 >/dev/null 2>&1; }
if ! rpcbind_up; then
    # start one as scripts/ganesha-lo.sh does, and stop it at the end
    [ "$(id -u)" -eq 0 ] && command -v rpcbind >/dev/null || skip_all "no rpcbind running, none startable"
    mkdir -p /run/rpcbind
    chown _rpc:root /run/rpcbind 2>/dev/null
    rpcbind -f >"$T_DIR/rpcbind.log" 2>&1 &
    track $!
    at_exit "rm -f /run/rpcbind.sock /run/rpcbind/*.xdr 2>/dev/null"
    wait_for rpcbind_up 100 0.05 || skip_all "rpcbind did not start"
fi
plan 6

start_nfsd R --register || bail "no server"
table=$(timeout 10 rpcinfo -p 127.0.0.1 2>&1)
like "$table" "100003 +3 +tcp +$R_NFS_PORT" "NFS v3 TCP registered on the NFS port"
like "$table" "100003 +2 +udp +$R_NFS_PORT" "NFS v2 UDP registered on the NFS port"
like "$table" "100005 +1 +udp +$R_MNT_PORT" "MOUNT v1 UDP registered on the MOUNT port"
like "$table" "100005 +3 +tcp +$R_MNT_PORT" "MOUNT v3 TCP registered on the MOUNT port"
like "$(timeout 10 rpcinfo -t 127.0.0.1 100003 3 2>&1)" "ready and waiting" "found through rpcbind alone"
kill -TERM "$R_PID"; wait_for "! alive $R_PID" 100 0.05
unlike "$(timeout 10 rpcinfo -p 127.0.0.1 2>&1)" " (udp|tcp) +($R_NFS_PORT|$R_MNT_PORT) " "unregistered at exit"
