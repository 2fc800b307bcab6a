#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0661_trace_nfs_capture_stats_match_tshark.t - sfs_trace stats on
# captures the test makes of sfs3 and sfs_ping against sfs_nfsd (NFSv3 over
# UDP and over TCP, NFSv2 over UDP): every procedure's calls and replies,
# the traced server's response times (minimum, maximum, sum) and the bytes
# read and written equal what tshark, the independent decoder, finds in the
# same file (tests/tools/nfs-tshark.py stats); the image of the UDP run holds the
# files the run created; the miss-ratio curve of the capture equals that of
# the READ and WRITE references tshark finds in it, fed as an SPC trace.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_nfs.sh"
plan 12
start_nfsd srv || bail "sfs_nfsd did not start"
P="$srv_NFS_PORT $srv_MNT_PORT"

# captured NAME WHAT SFS3_OPTS PING_OPTS: an sfs3 run (population, then the
# SFS mix; SFS3_OPTS "none": no sfs3 run) and an sfs_ping run captured into
# NAME.pcapng, then stats on it compared with tshark's figures (3 tests)
captured() {
    local name=$1 what=$2 sfs3=$3 ping=$4 rc1=0 out
    # shellcheck disable=SC2086
    cap_start "$T_DIR/$name.pcapng" $P || bail "no capture"
    if [ "$sfs3" != none ]; then
        # shellcheck disable=SC2086
        "$T_BIN/sfs3" $sfs3 -l 100 -p 1 -w 1 -t 2 -F 2000 -a 25 "$srv_URL" >"$T_DIR/$name.sfs3" 2>&1
        rc1=$?
    fi
    # shellcheck disable=SC2086
    "$T_BIN/sfs_ping" $ping "$srv_URL" >"$T_DIR/$name.ping" 2>&1
    is "$rc1:$?" "0:0" "$what: the runs ended well while captured"
    cap_stop
    "$T_BIN/sfs_trace" stats -q "$T_DIR/$name.pcapng" --yaml "$T_DIR/$name.yaml" 2>"$T_DIR/err"
    ok $? "$what: stats on the capture $(cat "$T_DIR/err")"
    # shellcheck disable=SC2086
    out=$(python3 "$NFS_TSHARK" stats "$T_DIR/$name.pcapng" "$T_DIR/$name.yaml" $P)
    like "$out" "^agree: " "$what: per procedure calls, replies, response times and bytes equal tshark's"
    diag "$out"
}

# v3 over UDP: sfs3, then lookups by sfs_ping, 4 in flight
captured udp "NFSv3/UDP" "" "-c 300 -o 4 -p lookup"
# v3 over TCP: sfs3 -Q and sfs_ping's getattrs, 8 in flight
captured tcp "NFSv3/TCP" "-Q" "-Q -o 8 -c 2000 -p getattr"
# v2 over UDP
captured v2 "NFSv2/UDP" none "-2 -c 300 -p lookup"

# the image of the UDP run: the file set sfs3 created, with its sizes
"$T_BIN/sfs_trace" image -q "$T_DIR/udp.pcapng" --yaml "$T_DIR/img.yaml"
ok $? "image of the UDP capture"
# CREATE calls (XIDs) but those answered with an error: a CREATE whose reply
# the capture lost counts as done, as the image assumes
want=$(tshark -n -r "$T_DIR/udp.pcapng" -d "udp.port==$srv_NFS_PORT,rpc" -Y 'nfs.procedure_v3 == 8' \
    -T fields -e rpc.msgtyp -e rpc.xid -e nfs.status 2>/dev/null | python3 -c '
import sys
calls, failed = set(), set()
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    (calls if f[0] == "0" else failed if f[2] not in ("", "0") else set()).add(f[1])
print(len(calls - failed))')
is "$(python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(g["created_by_type"]["reg"])' "$T_DIR/img.yaml")" \
    "$want" "image: one created file per CREATE call tshark sees not failed"
# the mrc over (file handle, block) equals that of the READ and WRITE
# references tshark finds, fed as an SPC trace
# shellcheck disable=SC2086
python3 "$NFS_TSHARK" refs "$T_DIR/udp.pcapng" $P >"$T_DIR/refs.spc"
sizes=1,16,256,1024,4096,8192,16384,65536
"$T_BIN/sfs_trace" mrc -q --lba-size 1 "$T_DIR/refs.spc" --cache-sizes $sizes --yaml "$T_DIR/r.yaml"
"$T_BIN/sfs_trace" mrc -q "$T_DIR/udp.pcapng" --cache-sizes $sizes --yaml "$T_DIR/m.yaml"
f='import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(g["references"], g["cold_misses"], [h["hits"] for h in g["hit_ratio"]])'
is "$(python3 -c "$f" "$T_DIR/m.yaml")" "$(python3 -c "$f" "$T_DIR/r.yaml")" \
    "mrc of the capture equals its references (by tshark) as an SPC trace"
