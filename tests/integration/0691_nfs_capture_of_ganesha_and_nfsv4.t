#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0691_nfs_capture_of_ganesha_and_nfsv4.t - the capture reader on traffic
# FreeSFS did not make: libnfs-utils (an independent client) copies a file
# to and from nfs-ganesha over NFSv3 and NFSv4 and lists the export, and
# sfs_ping keeps GETATTRs in flight over UDP.  Every NFSv3 and MOUNT call
# and reply agrees with tshark's decode; the NFSv4 calls are counted (as
# many as tshark sees), stated by sfs_trace convert, and never become
# events.
# timeout: 400
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_cmd dumpcap
need_cmd python3
need_cmd nfs-cp
need_root "packet capture on lo"
. "$(dirname "$0")/lib_nfs.sh"
plan 9
export PROTOCOLS="3, 4"
start_ganesha
P=$GANESHA_NFS_PORT
CAP=$T_DIR/g.pcapng
cap_start "$CAP" "$P" "$GANESHA_MNT_PORT" || bail "no capture"
dd if=/dev/urandom of="$T_DIR/f" bs=64k count=16 2>/dev/null
V3="nfs://127.0.0.1$GANESHA_DIR/export"
Q3="nfsport=$P&mountport=$GANESHA_MNT_PORT"
timeout 60 nfs-cp "$T_DIR/f" "$V3/f3?$Q3" >/dev/null 2>&1 &&
    timeout 60 nfs-cp "$V3/f3?$Q3" "$T_DIR/back3" >/dev/null 2>&1 &&
    timeout 60 nfs-ls -R "$V3?$Q3" >/dev/null 2>&1
ok $? "libnfs-utils copied 1 MiB to and from ganesha over NFSv3 and listed it"
# libnfs 4.0 reads and lists over NFSv4 (its NFSv4 create fails)
timeout 60 nfs-ls "nfs://127.0.0.1/export?version=4&nfsport=$P" >/dev/null 2>&1 &&
    timeout 60 nfs-cp "nfs://127.0.0.1/export/f3?version=4&nfsport=$P" "$T_DIR/back4" >/dev/null 2>&1
ok $? "and read it back and listed the export over NFSv4"
cmp -s "$T_DIR/f" "$T_DIR/back3" && cmp -s "$T_DIR/f" "$T_DIR/back4"
ok $? "both copies came back whole"
"$T_BIN/sfs_ping" -3 -c 300 -o 8 "$GANESHA_URL" >"$T_DIR/ping.out" 2>&1
ok $? "sfs_ping kept GETATTRs in flight over UDP"
cap_stop

out=$(nfs_check "$CAP" "$P,$GANESHA_MNT_PORT")
ok $? "every NFSv3 and MOUNT call and reply agrees with tshark; NFSv4 calls counted alike"
diag "$out"
ev=$T_DIR/g.pcapng.events
v4=$(sed -n 's/^# nfsv4_calls //p' "$ev")
like "${v4:-0}" '^[1-9][0-9]*$' "NFSv4 calls were counted ($v4)"
is "$(awk -F'\t' '$1 == "C" && $6 == 4' "$ev" | wc -l)" 0 "none of them became an event"
like "$(awk -F'\t' '$1 == "C" && $5 == 100003 && $7 == 7' "$ev" | wc -l)" '^[1-9]' \
    "the NFSv3 WRITEs of the copy were read"
err=$("$T_BIN/sfs_trace" convert --to nfsdump "$CAP" -o "$T_DIR/g.txt" 2>&1)
like "$err" "nfsv4_calls $v4" "sfs_trace convert states the NFSv4 calls it skipped"
