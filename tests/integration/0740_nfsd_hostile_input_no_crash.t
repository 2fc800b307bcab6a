#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# Hostile input never crashes sfs_nfsd nor grows its memory without bound:
# random datagrams and TCP records, every truncation of a call, absurd
# string and data lengths, bad credentials (AUTH_ERROR, RFC 5531), a wrong
# RPC version (RPC_MISMATCH), a 2 GiB record mark and an endless record of
# empty fragments (connection closed), one-byte fragments, abandoned half
# records - and it still answers correctly afterwards.
. "$(dirname "$0")/lib.sh"
NFSD_HOSTILE=$(tool_path nfsd_hostile) || skip_all "nfsd_hostile not built (make tools)"
plan 6

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
start_nfsd S || bail "no server"
before=$(rss "$S_PID")
for seed in 1 2 3; do
    out=$("$NFSD_HOSTILE" "$S_NFS_PORT" $seed 2>&1); rc=$?
    ok $rc "hostile round with seed $seed"
    [ $rc -ne 0 ] && diag "$(printf '%s\n' "$out" | grep -v '^ok' | head)"
done
after=$(rss "$S_PID")
alive "$S_PID"; ok $? "server still running"
[ "$after" -lt $((before + 65536)) ]; ok $? "memory stayed bounded (${before} kB -> ${after} kB)"
out=$("$NFSD_HOSTILE" "$S_MNT_PORT" 9 2>&1); ok $? "the MOUNT port withstands the same"
