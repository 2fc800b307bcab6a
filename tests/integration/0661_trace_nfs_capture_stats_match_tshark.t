#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0661_trace_nfs_capture_stats_match_tshark.t - sfs_trace stats on
# captures the test makes of sfs3 and sfs_ping against sfs_nfsd (NFSv3 over
# UDP and over TCP, NFSv2 over UDP): every procedure's calls and replies,
# the traced server's response times (minimum, maximum, sum) and the bytes
# read and written equal what tshark, the independent decoder, finds in the
# same file (tests/tools/nfs-tshark.py); the image of the UDP run holds the
# files the run created; the miss-ratio curve of the capture equals that of
# the READ and WRITE references tshark finds in it, fed as an SPC trace.
# timeout: 300
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_nfscap.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd python3
python3 -c 'import yaml' 2>/dev/null || skip_all "needs python3-yaml"
plan 10
start_nfsd srv || bail "sfs_nfsd did not start"
P="$srv_NFS_PORT $srv_MNT_PORT"
CMP="python3 $T_TOP/tests/tools/nfs-tshark.py compare"

# v3 over UDP: a short sfs3 run (population, then the SFS mix) and reads
# by sfs_ping of a file it made
# shellcheck disable=SC2086
cap_start "$T_DIR/udp.pcapng" $P
"$T_BIN/sfs3" -l 100 -p 1 -w 1 -t 2 -F 2000 -a 25 "$srv_URL" >"$T_DIR/sfs3.out" 2>&1
rc1=$?
"$T_BIN/sfs_ping" -c 100 -p read "$srv_URL" >"$T_DIR/ping.out" 2>&1
cap_stop
is "$rc1:$?" "0:0" "sfs3 and sfs_ping ran while captured (UDP)"
"$T_BIN/sfs_trace" stats -q "$T_DIR/udp.pcapng" --yaml "$T_DIR/udp.yaml" 2>"$T_DIR/err"
ok $? "stats on the UDP capture $(cat "$T_DIR/err")"
# shellcheck disable=SC2086
out=$($CMP "$T_DIR/udp.pcapng" "$T_DIR/udp.yaml" $P)
like "$out" "^agree: " "UDP: per procedure calls, replies, response times and bytes equal tshark's"
diag "$out"

# v3 over TCP: sfs3 -Q and sfs_ping's getattrs, 8 in flight
# shellcheck disable=SC2086
cap_start "$T_DIR/tcp.pcapng" $P
"$T_BIN/sfs3" -Q -l 100 -p 1 -w 1 -t 2 -F 2000 -a 25 "$srv_URL" >"$T_DIR/sfs3q.out" 2>&1
rc1=$?
"$T_BIN/sfs_ping" -Q -o 8 -c 2000 -p getattr "$srv_URL" >"$T_DIR/pingq.out" 2>&1
cap_stop
is "$rc1:$?" "0:0" "sfs3 -Q and sfs_ping -Q ran while captured (TCP)"
"$T_BIN/sfs_trace" stats -q "$T_DIR/tcp.pcapng" --yaml "$T_DIR/tcp.yaml" 2>"$T_DIR/err"
ok $? "stats on the TCP capture $(cat "$T_DIR/err")"
# shellcheck disable=SC2086
out=$($CMP "$T_DIR/tcp.pcapng" "$T_DIR/tcp.yaml" $P)
like "$out" "^agree: " "TCP: per procedure calls, replies, response times and bytes equal tshark's"
diag "$out"

# v2 over UDP
# shellcheck disable=SC2086
cap_start "$T_DIR/v2.pcapng" $P
"$T_BIN/sfs_ping" -2 -c 300 -p lookup "$srv_URL" >"$T_DIR/ping2.out" 2>&1
cap_stop
"$T_BIN/sfs_trace" stats -q "$T_DIR/v2.pcapng" --yaml "$T_DIR/v2.yaml" 2>"$T_DIR/err"
# shellcheck disable=SC2086
out=$($CMP "$T_DIR/v2.pcapng" "$T_DIR/v2.yaml" $P)
like "$out" "^agree: " "NFSv2: calls, replies and response times equal tshark's"
diag "$out"

# the image of the UDP run: the file set sfs3 created, with its sizes
"$T_BIN/sfs_trace" image -q "$T_DIR/udp.pcapng" --yaml "$T_DIR/img.yaml"
ok $? "image of the UDP capture"
want=$(tshark -n -r "$T_DIR/udp.pcapng" -d "udp.port==$srv_NFS_PORT,rpc" -Y 'rpc.msgtyp == 1 && nfs.procedure_v3 == 8 && nfs.status == 0' \
    -T fields -e rpc.xid 2>/dev/null | sort -u | wc -l)
is "$(python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(g["created_by_type"]["reg"])' "$T_DIR/img.yaml")" \
    "$want" "image: one created file per CREATE tshark sees answered"
# the mrc over (file handle, block) equals that of the READ and WRITE
# references tshark finds, fed as an SPC trace
# shellcheck disable=SC2086
python3 "$T_TOP/tests/tools/nfs-tshark.py" refs "$T_DIR/udp.pcapng" $P >"$T_DIR/refs.spc"
sizes=1,16,256,1024,4096,8192,16384,65536
"$T_BIN/sfs_trace" mrc -q --lba-size 1 "$T_DIR/refs.spc" --cache-sizes $sizes --yaml "$T_DIR/r.yaml"
"$T_BIN/sfs_trace" mrc -q "$T_DIR/udp.pcapng" --cache-sizes $sizes --yaml "$T_DIR/m.yaml"
f='import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(g["references"], g["cold_misses"], [h["hits"] for h in g["hit_ratio"]])'
is "$(python3 -c "$f" "$T_DIR/m.yaml")" "$(python3 -c "$f" "$T_DIR/r.yaml")" \
    "mrc of the capture equals its references (by tshark) as an SPC trace"
