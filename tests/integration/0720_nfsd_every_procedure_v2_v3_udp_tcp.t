#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# check: server nfs
# Every procedure of NFSv2 (18), NFSv3 (22), MOUNT v1 and v3, with their
# error paths (NOENT, EXIST, NOTDIR, ISDIR, NOTEMPTY, STALE, BADHANDLE,
# BAD_COOKIE, NOT_SYNC...), and the RPC-level errors (PROG_MISMATCH with
# the version range, PROG_UNAVAIL, PROC_UNAVAIL, GARBAGE_ARGS), over TCP
# and UDP, on the NFS port and on the MOUNT port (both serve everything).
# The probe is built on the project's rpcgen codecs and libtirpc.
. "$(dirname "$0")/lib.sh"
NFSD_PROBE=$(tool_path nfsd_probe) || skip_all "nfsd_probe not built (make tools)"
plan 20

start_nfsd S || bail "no server"
for suite in v3 v2 mount rpc; do
    for proto in tcp udp; do
        flag=; [ $proto = udp ] && flag=-u
        for port in "$S_NFS_PORT" "$S_MNT_PORT"; do
            [ $proto = udp ] && [ "$port" = "$S_MNT_PORT" ] && [ $suite != mount ] && [ $suite != rpc ] && continue
            out=$("$NFSD_PROBE" $flag $suite "$port" /export 2>&1); rc=$?
            n=$(printf '%s\n' "$out" | grep -c '^ok')
            ok $rc "$suite over $proto on port $port ($n checks)"
            [ $rc -ne 0 ] && diag "$(printf '%s\n' "$out" | grep -v '^ok' | head -10)"
        done
    done
done
# the project's own engine (sfs_ping) over v2 and v3, UDP and TCP
for args in "-2" "-2 -Q" "-3" "-3 -Q -p lookup"; do
    if [ -x "$T_BIN/sfs_ping" ]; then
        out=$("$T_BIN/sfs_ping" $args -c 200 -o 8 "$S_URL" 2>&1)
        like "$out" "^errors +0$" "sfs_ping $args: 200 calls, no error"
    else
        skip "sfs_ping not built"
    fi
done
alive "$S_PID"; ok $? "server still running"
grep -q 'runtime error\|ERROR: AddressSanitizer' "$T_DIR/S.log"; [ $? -ne 0 ]; ok $? "no sanitizer report in the server log"
