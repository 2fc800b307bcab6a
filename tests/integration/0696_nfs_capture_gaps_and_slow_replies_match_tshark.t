#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0696_nfs_capture_gaps_and_slow_replies_match_tshark.t - captures that lost
# packets or waited long for replies, against tshark's decode:
#  - sfs_nfsd holds two GETATTR replies 10.3 s (--delay-us, --delay-only):
#    with a 10 s pairing window one call is unanswered and one reply has no
#    call; with the default window (120 s) both pair and the response times
#    equal tshark's;
#  - nfs-cp writes and reads 3 MB over TCP to an sfs_nfsd beside it in a
#    network namespace of the test's own, whose lo has an MTU of 1500 (one
#    segment per packet) and TCP buffers of 16 KiB: the sender of a large
#    message is held by the window, so a segment that ends one record and
#    holds the next one's mark is on the wire every time, whatever the
#    timing (on the machine's lo, 64 KiB segments and TCP_NODELAY let
#    every WRITE and READ reply leave in segments of its own when the
#    peer keeps up, and then there was no such segment to drop);
#    editcap drops a segment of the
#    calls' direction holding a record mark, one of the replies' direction
#    doing the same and one of whole calls: both directions find their
#    framing again at the next record mark, the bytes skipped are counted,
#    and every message that was not lost is read and paired - also the
#    replies that came while their calls waited behind a hole - exactly as
#    tshark's decode of the whole capture says (tests/tools/nfs-gaps.py);
#  - a call sent again before and after its reply (nfs-craft.py copies):
#    retransmitted calls and retransmissions after the reply as tshark
#    counts them;
# and every response-time percentile lies within the minimum and maximum.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_cmd dumpcap
need_cmd editcap
need_cmd nfs-cp
need_cmd python3
need_root "packet capture on lo and a network namespace"
need_cmd ip
. "$(dirname "$0")/lib_nfs.sh"
GAPS=$T_TOP/tests/tools/nfs-gaps.py
plan 15

y() { # y FILE EXPR: evaluates a python expression over the YAML as g
    python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
# every p50 and p99 of a stats YAML within its min and max: "ok" or the first that is not
within() {
    y "$1" '[k for k, p in g["procedures"].items() if p["response_ms"] and not p["response_ms"]["min"] <= p["response_ms"]["p50"] <= p["response_ms"]["p99"] <= p["response_ms"]["max"]] or "ok"'
}

# ---- replies 10.3 s late --------------------------------------------------
start_nfsd SLOW --delay-us 10300000 --delay-only getattr || bail "sfs_nfsd did not start"
cap_start "$T_DIR/slow.pcapng" "$SLOW_NFS_PORT" "$SLOW_MNT_PORT" || bail "no capture"
"$T_BIN/sfs_ping" -3 -Q -c 2 -o 2 -p getattr "$SLOW_URL" >"$T_DIR/ping.out" 2>&1
ok $? "two GETATTRs at once over TCP, answered 10.3 s later"
cap_stop
late=$(tshark -n -r "$T_DIR/slow.pcapng" -d "tcp.port==$SLOW_NFS_PORT,rpc" -Y 'rpc.time > 10' \
    -T fields -e rpc.xid 2>/dev/null | wc -l)
is "$late" 2 "tshark: both replies came more than 10 s after their calls"
"$T_BIN/sfs_trace" stats -q --pair-window 10 "$T_DIR/slow.pcapng" --yaml "$T_DIR/w10.yaml"
is "$(y "$T_DIR/w10.yaml" 'g["unanswered_calls"], g["replies_without_calls"]')" "(1, 1)" \
    "--pair-window 10: the second call is let go unanswered before its reply comes"
"$T_BIN/sfs_trace" stats -q "$T_DIR/slow.pcapng" --yaml "$T_DIR/slow.yaml"
is "$(y "$T_DIR/slow.yaml" 'g["unanswered_calls"], g["replies_without_calls"], g["procedures"]["getattr"]["replies"]')" \
    "(0, 0, 2)" "the default window: both calls answered"
out=$(python3 "$NFS_TSHARK" stats "$T_DIR/slow.pcapng" "$T_DIR/slow.yaml" "$SLOW_NFS_PORT" "$SLOW_MNT_PORT")
ok $? "calls, replies and response times (min, max, sum) equal tshark's: $out"
is "$(within "$T_DIR/slow.yaml")" ok "every percentile within its procedure's min and max"

# ---- segments lost ------------------------------------------------------------
# NS: the namespace's own lo, MTU 1500 and one segment per packet; 16 KiB
# TCP buffers keep the senders of 64 KiB WRITEs and READ replies at the
# window, so records are cut wherever the window ends, not where they end
NS=fs0696
in_ns() { ip netns exec "$NS" "$@"; }
ns_gone() {
    local p
    ip netns list 2>/dev/null | grep -q "^$NS\b" || return 0
    for p in $(ip netns pids "$NS" 2>/dev/null); do stop_pid "$p"; done
    ip netns del "$NS" 2>/dev/null
}
ns_gone # what a test run that was killed may have left
ip netns add "$NS" 2>"$T_DIR/ns.err" || bail "ip netns add $NS: $(cat "$T_DIR/ns.err")"
at_exit ns_gone
{ in_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
    ip -n "$NS" link set lo mtu 1500 gso_max_segs 1 up &&
    in_ns sysctl -qw net.ipv4.tcp_rmem="4096 16384 16384" net.ipv4.tcp_wmem="4096 16384 16384"; } \
    2>"$T_DIR/ns.err" || bail "namespace $NS: $(cat "$T_DIR/ns.err")"
in_ns "$T_BIN/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export \
    >"$T_DIR/nfsd.log" 2>&1 &
track $!
wait_for "grep -q '^ready' '$T_DIR/nfsd.log'" 200 0.05 || bail "sfs_nfsd: $(cat "$T_DIR/nfsd.log")"
SRV_NFS_PORT=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/nfsd.log")
SRV_MNT_PORT=$(sed -n 's/.* mount [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/nfsd.log")
head -c 3000000 /dev/urandom >"$T_DIR/f.bin"
cap_start -n "$NS" -i lo -t 127.0.0.1 "$T_DIR/full.pcapng" "$SRV_NFS_PORT" "$SRV_MNT_PORT" ||
    bail "no capture"
U="nfs://127.0.0.1/export/f.bin?nfsport=$SRV_NFS_PORT&mountport=$SRV_MNT_PORT"
in_ns timeout 60 nfs-cp "$T_DIR/f.bin" "$U" >"$T_DIR/cp.out" 2>&1 &&
    in_ns timeout 60 nfs-cp "$U" "$T_DIR/g.bin" >>"$T_DIR/cp.out" 2>&1 &&
    cmp -s "$T_DIR/f.bin" "$T_DIR/g.bin"
ok $? "nfs-cp wrote 3 MB over TCP and read them back"
cap_stop
is "$(tshark -n -r "$T_DIR/full.pcapng" -Y 'frame.len > 1514' -T fields -e frame.number 2>/dev/null | wc -l)" 0 \
    "no frame of the capture is larger than the namespace's MTU"
drop=$(python3 "$GAPS" pick "$T_DIR/full.pcapng" "$SRV_NFS_PORT" "$SRV_MNT_PORT")
ok $? "three segments to drop: a record mark each way and a segment of whole calls ($drop)"
# shellcheck disable=SC2086
editcap "$T_DIR/full.pcapng" "$T_DIR/gap.pcapng" $drop 2>/dev/null
"$NFS_EVENTS" "$T_DIR/gap.pcapng" >"$T_DIR/gap.ev"
ok $? "the capture with the segments lost reads"
out=$(python3 "$GAPS" check "$T_DIR/full.pcapng" "$drop" "$T_DIR/gap.ev" "$SRV_NFS_PORT" "$SRV_MNT_PORT")
ok $? "every message not lost read and paired as tshark's decode of the whole capture says, gaps and bytes skipped counted: $out"
like "$(grep '^# replies_before_calls ' "$T_DIR/gap.ev")" " [1-9]" \
    "replies that came while their calls waited behind a hole were held for them"
"$T_BIN/sfs_trace" stats -q "$T_DIR/gap.pcapng" --yaml "$T_DIR/gap.yaml"
is "$(within "$T_DIR/gap.yaml")" ok "sfs_trace stats: every percentile within its procedure's min and max"

# ---- a call sent again before and after its reply --------------------------------
python3 "$T_TOP/tests/tools/nfs-craft.py" copies "$T_DIR/copies.pcap" || bail "nfs-craft.py failed"
"$T_BIN/sfs_trace" stats -q "$T_DIR/copies.pcap" --yaml "$T_DIR/copies.yaml"
# tshark: per call, its copies before its first reply and after it
want=$(tshark -n -r "$T_DIR/copies.pcap" -d udp.port==2049,rpc -d udp.port==20048,rpc -Y rpc \
    -T fields -e frame.number -e rpc.msgtyp -e rpc.xid 2>/dev/null | python3 -c '
import sys
calls, reply = {}, {}
for line in sys.stdin:
    n, t, x = line.split()
    if t == "0":
        calls.setdefault(x, []).append(int(n))
    else:
        reply.setdefault(x, int(n))
before = sum(1 for x, c in calls.items() if any(f < reply.get(x, 1 << 60) for f in c[1:]))
after = sum(1 for x, c in calls.items() for f in c[1:] if f > reply.get(x, 1 << 60))
print((before, after))')
is "$(y "$T_DIR/copies.yaml" 'g["retransmitted_calls"], g["retransmissions_after_reply"]')" "$want" \
    "calls sent again before their reply, and copies after it, as tshark sees them $want"
like "$("$T_BIN/sfs_trace" stats "$T_DIR/copies.pcap" | grep '^retransmitted calls')" \
    "^retransmitted calls +1 \(sent again before the reply; 1 more after it\)" \
    "the text says so too"
