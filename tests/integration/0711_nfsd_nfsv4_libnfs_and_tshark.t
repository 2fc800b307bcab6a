#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0711_nfsd_nfsv4_libnfs_and_tshark.t - sfs_nfsd over NFSv4 against a
# client nobody here wrote: libnfs-utils with version=4 in the URL (libnfs
# speaks NFSv4.0) lists the pseudo file system's root and the export; a
# file written over NFSv3 is read back whole over NFSv4 and one written
# over NFSv4 over NFSv3, and nfs-cat reads over NFSv4.  libnfs 4.0 cannot
# send a WRITE compound of more than about 4 KiB (docs/TESTING.md): its
# copy of 1 MiB fails without a WRITE on the wire.  tshark captures the
# test's ports throughout: every compound and reply decodes with no
# malformed packet or expert error, and every call has its reply.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_cmd nfs-ls
need_cmd nfs-cp
need_cmd tshark
need_cmd dumpcap
need_root "packet capture on lo"
. "$(dirname "$0")/lib_nfscap.sh"
plan 12

start_nfsd S || bail "no server"
P=$S_NFS_PORT
V4="nfs://127.0.0.1/export?version=4&nfsport=$P"
V3="nfs://127.0.0.1/export"
Q3="nfsport=$P&mountport=$S_MNT_PORT"
CAP=$T_DIR/v4.pcapng
cap_start "$CAP" "$P" "$S_MNT_PORT" || bail "no capture"

like "$(timeout 20 nfs-ls "nfs://127.0.0.1/?version=4&nfsport=$P" 2>&1)" " export$" \
    "the pseudo root lists the export"
printf 'made over v3\n' >"$T_DIR/small"
timeout 20 nfs-cp "$T_DIR/small" "$V3/from3?$Q3" >/dev/null 2>&1 &&
    timeout 20 nfs-cp "$T_DIR/small" "$V3/again3?$Q3" >/dev/null 2>&1
ok $? "two files made over NFSv3"
ls4=$(timeout 20 nfs-ls "$V4" 2>&1)
like "$ls4" "from3" "NFSv4 lists a file made over NFSv3"
like "$ls4" "again3" "and the other"
V4F="nfs://127.0.0.1/export"
Q4="version=4&nfsport=$P"
head -c 1500000 /dev/urandom >"$T_DIR/big"
timeout 20 nfs-cp "$T_DIR/big" "$V3/big?$Q3" >/dev/null 2>&1 &&
    timeout 20 nfs-cp "$V4F/big?$Q4" "$T_DIR/big.back" >/dev/null 2>&1 &&
    cmp -s "$T_DIR/big" "$T_DIR/big.back"
ok $? "1.5 MB written over NFSv3, read back whole over NFSv4"
head -c 3000 /dev/urandom >"$T_DIR/small4"
timeout 20 nfs-cp "$T_DIR/small4" "$V4F/small4?$Q4" >/dev/null 2>&1 &&
    timeout 20 nfs-cp "$V3/small4?$Q3" "$T_DIR/small4.back" >/dev/null 2>&1 &&
    cmp -s "$T_DIR/small4" "$T_DIR/small4.back"
ok $? "3000 bytes written over NFSv4, read back whole over NFSv3"
is "$(timeout 20 nfs-cat "$V4F/from3?$Q4" 2>/dev/null)" "made over v3" "nfs-cat reads over NFSv4"
head -c 1048576 /dev/urandom >"$T_DIR/mib"
! timeout 20 nfs-cp "$T_DIR/mib" "$V4F/mib?$Q4" >/dev/null 2>&1
ok $? "libnfs 4.0 fails its NFSv4 copy of 1 MiB"
cap_stop

decode() { tshark -r "$CAP" -d "tcp.port==$P,rpc" -d "tcp.port==$S_MNT_PORT,rpc" "$@" 2>/dev/null; }
compounds=$(decode -Y 'rpc.msgtyp == 0 && nfs.main_opcode' | wc -l)
ok $([ "$compounds" -gt 5 ] && echo 0 || echo 1) "the capture holds NFSv4 compounds ($compounds)"
bad=$(decode -Y '_ws.malformed || _ws.expert.severity >= 8388608')
is "$(printf '%s' "$bad" | grep -c .)" 0 "no malformed packet, no expert error"
[ -n "$bad" ] && diag "$(printf '%s\n' "$bad" | head -5)"
pairs=$(decode -Y rpc -T fields -e rpc.xid -e rpc.msgtyp)
unanswered=$(printf '%s\n' "$pairs" | awk '
    { n = split($1, x, ","); split($2, t, ",")
      for (i = 1; i <= n; i++) if (t[i] == 0) c[x[i]] = 1; else r[x[i]] = 1 }
    END { for (k in c) if (!(k in r)) print k }')
is "$(printf '%s' "$unanswered" | grep -c .)" 0 "every call has its reply"
writes=$(decode -Y 'rpc.msgtyp == 0 && nfs.opcode == 38' -T fields -e nfs.write.data_length)
is "$writes" "3000" "the one NFSv4 WRITE on the wire is the small copy's: the 1 MiB one was never sent"
