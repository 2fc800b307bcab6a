#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0405_v2_transfer_fields_as_the_load.t - NFSv2 READ and WRITE carry fields
# RFC 1094 leaves unused (WRITE's beginoffset and totalcount, READ's
# totalcount).  The load generator fills them as the Linux client does
# (beginoffset = offset, totalcount = the count of this transfer); the
# validation suite sent zeros.  tshark captures the test's own ports while
# `sfs -V` runs against one sfs_nfsd and a short v2 load of reads and writes
# against another, over UDP: in both, every WRITE call must carry
# beginoffset = offset and totalcount = its data's length, every READ call
# totalcount = count.  Skips where tshark cannot capture.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_root "packet capture on lo"
plan 6

start_nfsd VAL || bail "sfs_nfsd did not start"
start_nfsd LOAD || bail "sfs_nfsd did not start"
RPC="-d udp.port==$VAL_NFS_PORT,rpc -d udp.port==$LOAD_NFS_PORT,rpc" # decoded as ONC RPC
CAP=$T_DIR/wire.pcap
# the calls' heads only (the fields sit in the first 200 bytes, the data
# after them), into a large buffer: a busy machine drops fewer packets.
# Each packet is also listed (-P -l), so that the capture is known to run:
# NULL calls go to the validation's server until one is listed.
tshark -i lo -f "udp and (dst port $VAL_NFS_PORT or dst port $LOAD_NFS_PORT)" -s 300 -B 64 \
    $RPC -w "$CAP" -P -l >"$T_DIR/tshark.log" 2>&1 &
TSHARK=$!
track $TSHARK
# tshark loads its dissectors first: seconds when the machine is busy, so
# the wait is bounded by time (60 s), not by a count of tries
live=1
end=$(($(date +%s) + 60))
while [ "$(date +%s)" -lt "$end" ]; do
    "$T_BIN/sfs_ping" -2 -c 1 -p null "$VAL_URL" >/dev/null 2>&1
    grep -q 'NULL Call' "$T_DIR/tshark.log" && { live=0; break; }
    sleep 0.1
done
[ $live -eq 0 ] || bail "tshark did not capture: $(tail -3 "$T_DIR/tshark.log")"

timeout 60 "$T_BIN/sfs" -V 2 "$VAL_URL" >"$T_DIR/val.out" 2>&1
ok $? "sfs -V 2 passed" || diag "$(tail -5 "$T_DIR/val.out")"
printf 'SFS MIXFILE VERSION 2\nread 50%%\nwrite 50%%\n' >"$T_DIR/rw.mix"
timeout 60 "$T_BIN/sfs" -m "$T_DIR/rw.mix" -l 100 -p 1 -w 0 -t 2 -F 20 "$LOAD_URL" \
    >"$T_DIR/load.out" 2>&1
ok $? "a v2 load of reads and writes ran" || diag "$(tail -5 "$T_DIR/load.out")"
sleep 0.5 # the last packets reach the capture, then it is flushed
stop_pid $TSHARK

# transfers NFSPORT PROC FIELDS...: one line per call of v2 procedure PROC
# to that port that reached the capture (UDP: one message a packet; a
# packet the capture dropped is not checked, but every side must have some)
transfers() {
    local port=$1 proc=$2
    shift 2
    # shellcheck disable=SC2086
    tshark -r "$CAP" $RPC -Y "udp.dstport == $port && rpc.msgtyp == 0 && nfs.procedure_v2 == $proc" \
        -T fields -E separator=' ' "$@" 2>/dev/null
}
# check WHO NFSPORT: the WRITE and READ calls to that port, and those whose
# unused fields differ from the transfer they describe
check() {
    local who=$1 port=$2 w r
    # the data's length is the last opaque of the call (the credential's
    # machine name comes first)
    w=$(transfers "$port" 8 -e nfs.write.beginoffset -e nfs.write.offset \
        -e nfs.write.totalcount -e rpc.opaque_length |
        awk '{ n++; k = split($4, len, ",") } $1 != $2 || $3 != len[k] { bad++ }
             END { print n + 0, bad + 0 }')
    r=$(transfers "$port" 6 -e nfs.read.offset -e nfs.read.count -e nfs.read.totalcount |
        awk '{ n++ } $2 != $3 { bad++ } END { print n + 0, bad + 0 }')
    set -- $w $r
    ok $([ "$1" -gt 0 ] && [ "$2" -eq 0 ] && echo 0 || echo 1) \
        "$who: every WRITE has beginoffset = offset, totalcount = its length ($2 of $1 differ)"
    ok $([ "$3" -gt 0 ] && [ "$4" -eq 0 ] && echo 0 || echo 1) \
        "$who: every READ has totalcount = count ($4 of $3 differ)"
}
check "the validation suite" "$VAL_NFS_PORT"
check "the load generator" "$LOAD_NFS_PORT"
