#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# An independent client (libnfs) against sfs_nfsd over NFSv3/TCP: the
# lnfs_check program creates, writes, reads back, truncates, renames,
# links, symlinks, lists and removes files and directories with the error
# paths; libnfs-utils copy a random file in and out byte for byte.
. "$(dirname "$0")/lib.sh"
need_cmd nfs-cp
need_cmd nfs-cat
LNFS_CHECK=$(tool_path lnfs_check) || skip_all "lnfs_check not built (make tools)"
plan 6

start_nfsd S || bail "no server"
out=$("$LNFS_CHECK" "$S_LNFS_URL" 2>&1); rc=$?
is "$rc" "0" "lnfs_check: every check passed"
[ $rc -ne 0 ] && diag "$(printf '%s\n' "$out" | grep -v '^ok' | head -20)"

head -c 1500000 /dev/urandom >"$T_DIR/in"
url="nfs://127.0.0.1/export/copy?nfsport=$S_NFS_PORT&mountport=$S_MNT_PORT"
timeout 30 nfs-cp "$T_DIR/in" "$url" >/dev/null 2>&1; ok $? "nfs-cp in"
timeout 30 nfs-cp "$url" "$T_DIR/out" >/dev/null 2>&1; ok $? "nfs-cp out"
cmp -s "$T_DIR/in" "$T_DIR/out"; ok $? "1.5 MB read back byte for byte"
printf 'hello sfs_nfsd\n' >"$T_DIR/small"
timeout 10 nfs-cp "$T_DIR/small" "nfs://127.0.0.1/export/small?nfsport=$S_NFS_PORT&mountport=$S_MNT_PORT" >/dev/null 2>&1
is "$(timeout 10 nfs-cat "nfs://127.0.0.1/export/small?nfsport=$S_NFS_PORT&mountport=$S_MNT_PORT" 2>/dev/null)" "hello sfs_nfsd" "nfs-cat reads what nfs-cp wrote"
like "$(timeout 10 nfs-ls "$S_LNFS_URL" 2>&1)" "copy" "nfs-ls lists the files"
