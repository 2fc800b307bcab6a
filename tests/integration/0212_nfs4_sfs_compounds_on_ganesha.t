#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0212_nfs4_sfs_compounds_on_ganesha.t - every SFS operation as the NFSv4.1
# compound a Linux client sends for it (the nfs layer's table,
# nf4_sfs_compound), and the OPEN and CLOSE around a file's I/O, against a
# real nfs-ganesha (tests/tools/nf4_procs.c): each answered OK, the
# decoded values right (data read back, sizes, modes, link counts, link
# targets, directory entries, the file system's figures), the scratch
# directory gone afterwards; the tree nf4_procs -k keeps is on the
# server's disk as the compounds made it (stat, readlink, the data);
# tshark decodes each compound with the shape of its row and no malformed
# packet.
# timeout: 300
. "$(dirname "$0")/lib.sh"
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
need_cmd tshark
need_cmd dumpcap
need_cmd python3
need_root "packet capture on lo"
. "$(dirname "$0")/lib_nfscap.sh"
export PROTOCOLS="3, 4"
start_ganesha
plan 9

CAP=$T_DIR/sfs4.pcapng
cap_start "$CAP" "$GANESHA_NFS_PORT" || bail "no capture"
out=$("$T" "127.0.0.1:$GANESHA_NFS_PORT:/export" 2>&1); rc=$?
cap_stop
is "$rc" 0 "every compound answered OK, every check passed"
[ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -v '^ok ' | head -10)"
missing=""
for op in getattr setattr lookup readlink read write create remove rename link symlink \
    mkdir rmdir readdir fsstat access commit fsinfo mknod pathconf readdirplus open close; do
    printf '%s\n' "$out" | grep -q "^ok $op " || missing="$missing $op"
done
is "${missing:-none}" none "all 21 SFS operations, OPEN and CLOSE answered"
is "$(printf '%s\n' "$out" | grep -c '^check .* ok$')" 14 "the 14 value checks ran and passed"
is "$(ls "$GANESHA_DIR/export")" "" "the scratch directory is gone"

# the tree nf4_procs -k keeps, as real files on ganesha's disk
out=$("$T" -k "127.0.0.1:$GANESHA_NFS_PORT:/export" 2>&1); rc=$?
d=$GANESHA_DIR/export/$(printf '%s\n' "$out" | sed -n 's/^kept //p')
is "$rc/$(cd "$d" 2>/dev/null && stat -c '%n %F' d p | tr '\n' ',')$(cd "$d" 2>/dev/null &&
    stat -c '%n %F %s %a %h' f h | tr '\n' ',')" \
    "0/d directory,p fifo,f regular file 100 600 2,h regular file 100 600 2," \
    "on disk: d a directory, f of 100 bytes mode 0600, h its second link, p a FIFO"
is "$(stat -c %i "$d/f")/$(readlink "$d/l")" "$(stat -c %i "$d/h")/f" \
    "f and h one inode, l a symbolic link to f"
is "$(tr -d '\000' <"$d/f")" "FreeSFS NFSv4.1 compounds: data written, then read back." \
    "f holds the data written, zeros to the size SETATTR set"
rm -rf "$d"

out=$(python3 "$T_TOP/tests/tools/nfs4-check.py" "$CAP" "$GANESHA_NFS_PORT" \
    "SEQUENCE PUTFH GETATTR>=4" "SEQUENCE PUTFH SETATTR GETATTR=1" \
    "SEQUENCE PUTFH LOOKUP GETFH GETATTR=2" "SEQUENCE PUTFH READLINK=1" \
    "SEQUENCE PUTFH READ=1" "SEQUENCE PUTFH WRITE GETATTR=2" \
    "SEQUENCE PUTFH OPEN GETFH GETATTR=1" "SEQUENCE PUTFH REMOVE=6" \
    "SEQUENCE PUTFH SAVEFH PUTFH RENAME=1" "SEQUENCE PUTFH SAVEFH PUTFH LINK RESTOREFH GETATTR=1" \
    "SEQUENCE PUTFH CREATE GETFH GETATTR=4" "SEQUENCE PUTFH READDIR=2" \
    "SEQUENCE PUTFH ACCESS GETATTR=1" "SEQUENCE PUTFH COMMIT=1" \
    "SEQUENCE PUTFH OPEN ACCESS GETATTR=1" "SEQUENCE PUTFH CLOSE GETATTR=2" \
    "status:OK>=30")
ok $? "tshark: each compound has its row's shape, every call answered, no malformed packet"
diag "$out"
unlike "$out" "status (NOENT|STALE|BAD_STATEID|SEQ_MISORDERED)" "no error status on the wire"
