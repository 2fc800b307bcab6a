#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0694_nfs_capture_on_a_1500_byte_veth_matches_tshark.t - the capture
# reader on traffic that crossed a real 1500-byte MTU: sfs_nfsd runs in one
# network namespace and the clients in another, joined by a veth pair with
# MTU 1500 (and no segmentation offload, so that TCP segments are cut to
# the MTU on the wire), made by this test (docs/TESTING.md: 10.206.94.0/24
# exists only on that veth, no route out).  dumpcap captures the server's
# veth, filtered on the server's ports (and the IPv4 fragments after the
# first, which carry no port).
#   1. sfs3 and sfs replay a known SPC trace (16 WRITEs of 32 KiB, then 16
#      READs of them) over UDP (NFSv3 and NFSv2) and over TCP (NFSv3): the
#      32 KiB READ replies and WRITE calls over UDP are IP-fragmented, the
#      TCP records split into segments.
#   2. libnfs-utils (an independent client) copies 1 MiB into sfs_nfsd and
#      back and lists the export over NFSv3/TCP.
# On each capture every call and reply agrees with tshark's decode, the
# statistics (calls and replies per procedure, response times, bytes read
# and written) equal tshark's, and the bytes are the known workload's; the
# fragment counter is not zero and equals the datagrams tshark reassembled.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "network namespaces and dumpcap"
need_cmd ip
need_cmd dumpcap
need_cmd tshark
need_cmd nfs-cp
need_cmd nfs-ls
need_python_yaml
. "$(dirname "$0")/lib_nfs.sh"

NS_S=fs0694s # the server's namespace, veth fs0694a at $NET.1
NS_C=fs0694c # the clients', veth fs0694b at $NET.2
NET=10.206.94

# ns_gone NS: stops what runs in NS by its PID and deletes NS
ns_gone() {
    local p
    ip netns list 2>/dev/null | grep -q "^$1\b" || return 0
    for p in $(ip netns pids "$1" 2>/dev/null); do stop_pid "$p"; done
    ip netns del "$1" 2>/dev/null
}
# what a test run that was killed may have left
ns_gone "$NS_S"
ns_gone "$NS_C"
ip netns add "$NS_S" 2>"$T_DIR/ns.err" ||
    skip_all "no network namespaces here: $(cat "$T_DIR/ns.err")"
at_exit "ns_gone $NS_S"
ip netns add "$NS_C" 2>"$T_DIR/ns.err" || bail "ip netns add $NS_C: $(cat "$T_DIR/ns.err")"
at_exit "ns_gone $NS_C"
plan 16
# the veth under load hands segments to the capture out of order although
# none is lost: tshark (tests/tools/tshark_json.py) puts them back in order
export TSHARK_REORDER=1

# side NS IFACE ADDR: one end of the veth: IPv6 off, MTU 1500, one
# segment per packet (gso_max_segs 1: the kernel cuts TCP to the MTU before
# the capture sees it, as a NIC would on the wire)
side() {
    ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
        ip -n "$1" link set "$2" mtu 1500 gso_max_segs 1 &&
        ip -n "$1" addr add "$3/24" dev "$2" &&
        ip -n "$1" link set lo up &&
        ip -n "$1" link set "$2" up
}
ip link add fs0694a netns "$NS_S" type veth peer name fs0694b netns "$NS_C" 2>"$T_DIR/ns.err" &&
    side "$NS_S" fs0694a "$NET.1" && side "$NS_C" fs0694b "$NET.2" &&
    wait_for "ip -n $NS_S link show fs0694a | grep -q LOWER_UP && ip -n $NS_C link show fs0694b | grep -q LOWER_UP" 40 0.05
ok $? "two namespaces joined by a veth pair with MTU 1500 $(cat "$T_DIR/ns.err")"

ip netns exec "$NS_S" "$T_BIN/sfs_nfsd" --foreground -b "$NET.1" -p 0 -m 0 --export /export \
    >"$T_DIR/nfsd.log" 2>&1 &
track $!
wait_for "grep -q '^ready' '$T_DIR/nfsd.log'" 200 0.05 || bail "sfs_nfsd: $(cat "$T_DIR/nfsd.log")"
P=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/nfsd.log")
M=$(sed -n 's/.* mount [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/nfsd.log")
URL="nfs://$NET.1:$P/export?mountport=$M"
LNFS="nfs://$NET.1/export"
Q="nfsport=$P&mountport=$M"
in_c() { ip netns exec "$NS_C" "$@"; }

# field CAPTURE FILTER FIELD: tshark's values of FIELD in the frames
# FILTER keeps, one a line (RPC decoded on the server's ports)
field() {
    tshark -n -r "$1" -o rpc.desegment_rpc_over_tcp:TRUE -o tcp.reassemble_out_of_order:TRUE \
        -d "udp.port==$P,rpc" -d "tcp.port==$P,rpc" -d "udp.port==$M,rpc" -d "tcp.port==$M,rpc" -Y "$2" \
        -T fields -e "$3" 2>/dev/null
}
yv() { python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# ---- 1. sfs3 and sfs replays, 32 KiB, UDP and TCP --------------------------
{
    i=0
    while [ $i -lt 16 ]; do printf '0,%d,32768,W,0.%03d\n' $((i * 64)) $i; i=$((i + 1)); done
    i=0
    while [ $i -lt 16 ]; do printf '0,%d,32768,R,0.%03d\n' $((i * 64)) $((100 + i)); i=$((i + 1)); done
} >"$T_DIR/rw.spc"
C1=$T_DIR/replay.pcapng
cap_start -n "$NS_S" -i fs0694a -t "$NET.2" "$C1" "$P" "$M" || bail "no capture"
rc=""
for run in "sfs3" "sfs3 -Q" "sfs"; do
    # shellcheck disable=SC2086
    in_c "$T_BIN/"$run --trace "$T_DIR/rw.spc" --speed 0 -p 1 "$URL" >"$T_DIR/replay.out" 2>&1
    rc="$rc$?"
    grep -q "bytes read 524288, bytes written 524288" "$T_DIR/replay.out" || rc="${rc}x"
done
cap_stop
is "$rc" "000" "sfs3 over UDP and TCP and sfs over UDP replayed 512 KiB of WRITEs and READs each"

out=$(nfs_check "$C1" "$P,$M")
ok $? "replays: every call and reply agrees with tshark"
diag "$out"
out=$(nfs_stats_check "$C1" "$P" "$M")
like "$out" "^agree: " "replays: calls and replies per procedure, response times and bytes equal tshark's"
diag "$out"
Y1=$T_DIR/replay.pcapng.stats.yaml
is "$(yv "$Y1" bytes_written) $(yv "$Y1" bytes_read)" "1572864 1572864" \
    "replays: the bytes written and read are the three replays' (3 x 512 KiB each way)"
frags=$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["reader"]["counters"].get("ip_fragments_reassembled", 0))' "$Y1")
like "$frags" "^[1-9][0-9]*$" "replays: IP fragments were reassembled ($frags datagrams)"
is "$frags" "$(field "$C1" "ip.fragment.count" ip.fragment.count | grep -c .)" \
    "replays: as many datagrams as tshark reassembled"
is "$(field "$C1" "udp && rpc.msgtyp == 1 && nfs.procedure_v3 == 6 && nfs.count3 == 32768 && ip.fragment.count > 20" nfs.count3 | wc -l) $(field "$C1" "udp && rpc.msgtyp == 0 && nfs.procedure_v3 == 7 && nfs.count3 == 32768 && ip.fragment.count > 20" nfs.count3 | wc -l)" \
    "16 16" "replays: sfs3's 16 READ replies and 16 WRITE calls of 32 KiB over UDP came in more than 20 fragments each"
is "$(field "$C1" "frame.len > 1514" frame.number | wc -l)" 0 "replays: no frame is larger than the MTU"
like "$(field "$C1" "tcp.reassembled.length > 1448" tcp.reassembled.length | wc -l)" "^[1-9]" \
    "replays: TCP records were split across segments"

# ---- 2. libnfs-utils over NFSv3/TCP -----------------------------------------
head -c 1048576 /dev/urandom >"$T_DIR/f"
C2=$T_DIR/lnfs.pcapng
cap_start -n "$NS_S" -i fs0694a -t "$NET.2" "$C2" "$P" "$M" || bail "no capture"
in_c timeout 60 nfs-cp "$T_DIR/f" "$LNFS/f?$Q" >/dev/null 2>&1 &&
    in_c timeout 60 nfs-cp "$LNFS/f?$Q" "$T_DIR/back" >/dev/null 2>&1 &&
    in_c timeout 60 nfs-ls "$LNFS?$Q" >"$T_DIR/ls" 2>&1
rc=$?
cap_stop
ok $rc "libnfs-utils copied 1 MiB into sfs_nfsd and back and listed the export"
cmp -s "$T_DIR/f" "$T_DIR/back"
ok $? "the copy came back whole"
out=$(nfs_check "$C2" "$P,$M")
ok $? "libnfs-utils: every call and reply agrees with tshark"
diag "$out"
out=$(nfs_stats_check "$C2" "$P" "$M")
like "$out" "^agree: " "libnfs-utils: calls, replies, response times and bytes equal tshark's"
diag "$out"
Y2=$T_DIR/lnfs.pcapng.stats.yaml
is "$(yv "$Y2" bytes_written) $(yv "$Y2" bytes_read) $(yv "$Y2" udp_calls)" "1048576 1048576 0" \
    "libnfs-utils: 1 MiB written and 1 MiB read, all over TCP"
like "$(field "$C2" "tcp.reassembled.length > 1448" tcp.reassembled.length | wc -l)" "^[1-9]" \
    "libnfs-utils: TCP records were split across segments"
