#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0692_nfs_crafted_captures_match_tshark.t - the capture cases no loopback
# run makes, written by tests/tools/nfs-craft.py (and Wireshark's editcap,
# mergecap and randpkt) and read by the reader and by tshark, which must
# agree on every call and reply: Ethernet with VLAN and QinQ tags, Linux
# cooked v1/v2, BSD loopback, raw IP, IPv6 over UDP and TCP, IPv4 and IPv6
# fragments (in order and shuffled), pcapng with nanosecond stamps and an
# unknown block, a nanosecond pcap, stamps that step back and calls sent
# again and answered twice (whose stats - calls, replies, response times,
# bytes - equal tshark's too), NFSv4 among NFSv3, TCP segments
# reordered, retransmitted, overlapping or missing (the READ data, a
# record mark), a capture starting inside a connection, a 200-byte snap
# length.  Then hostile files: a 2 GiB record mark, 100000 unanswered
# calls, a record that never completes, an endless fragment chain, random
# packets, a capture cut in the middle of a packet: counted, bounded in
# memory, never a crash.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_cmd editcap
need_cmd mergecap
need_cmd randpkt
need_cmd python3
. "$(dirname "$0")/lib_nfs.sh"
CRAFT=$T_TOP/tests/tools/nfs-craft.py
AGREE="eth vlan qinq sll sll2 null loop raw ipv6-udp ipv6-tcp frag4 frag4-shuffled frag6
       pcapng-ns nsec-pcap time-back copies nfsv4 tcp-reorder tcp-retrans tcp-overlap tcp-gap-data
       tcp-gap-mark tcp-midstream hostile-bigmark"
plan 53

for c in $AGREE; do
    python3 "$CRAFT" "$c" "$T_DIR/$c.pcap" || bail "nfs-craft.py $c failed"
    out=$(nfs_check "$T_DIR/$c.pcap" 2049,20048)
    ok $? "$c: every call and reply agrees with tshark"
    [ $? -eq 0 ] || diag "$out"
done
cnt() { sed -n "s/^# $2 //p" "$T_DIR/$1.pcap.events"; }
ev() { grep -c "^$2" "$T_DIR/$1.pcap.events"; }
is "$(ev eth C) $(ev eth R)" "7 7" "a whole session is 7 calls and 7 replies (each case above had them all)"
is "$(cnt frag4 ip_fragments_reassembled) $(cnt frag4-shuffled ip_fragments_reassembled) $(cnt frag6 ip_fragments_reassembled)" \
    "2 2 2" "the 32 KiB READ reply and the 8 KiB WRITE were reassembled from IPv4 and IPv6 fragments"
is "$(cnt pcapng-ns format) $(awk -F'\t' 'NR == 1 {print $3}' "$T_DIR/pcapng-ns.pcap.events")" \
    "pcapng 1700000000.123456789" "pcapng nanosecond stamps are kept to the nanosecond"
for c in time-back copies; do
    out=$(nfs_stats_check "$T_DIR/$c.pcap" 2049 20048)
    like "$out" "^agree: " "$c: stats per procedure (calls, replies, response times) and bytes equal tshark's"
    [ $? -eq 0 ] || diag "$out"
done
is "$(cnt time-back time_backwards) $(awk -F'\t' '$1 == "C" && $7 == 7 {print $3}' "$T_DIR/time-back.pcap.events")" \
    "1 1700000000.131457085" "a call stamped before the one before it: counted, its event moved to that call's time"
is "$(cnt copies retransmissions) $(cnt copies duplicate_replies) $(ev copies C)" "2 1 7" \
    "calls sent again (before and after the reply) and a reply seen twice: counted, one event each"
is "$(cnt nfsv4 nfsv4_calls) $(cnt nfsv4 nfsv4_replies)" "1 1" "the NFSv4 COMPOUND is counted, call and reply"
like "$(cnt tcp-reorder tcp_out_of_order) $(cnt tcp-retrans tcp_retransmitted_segments) $(cnt tcp-overlap tcp_overlaps)" \
    "^[1-9][0-9]* [1-9][0-9]* [1-9]" "out-of-order, retransmitted and overlapping segments were counted"
is "$(cnt tcp-gap-data tcp_gaps) $(cnt tcp-gap-data data_cut)" "1 1" \
    "a lost segment of READ data: one gap, the READ still read with its data cut"
is "$(cnt tcp-gap-mark tcp_record_resyncs) $(cnt tcp-gap-mark unanswered_calls)" "1 1" \
    "a lost record mark: the framing found again, the lost reply's call unanswered"
like "$(cnt tcp-midstream tcp_record_resyncs):$(ev tcp-midstream C)" "^2:2$" \
    "a capture starting inside a READ reply: both directions found a certain boundary"
is "$(cnt hostile-bigmark oversized_records) $(ev hostile-bigmark C)" "1 6" \
    "a 2 GiB record mark is counted and skipped, the calls after it read"

editcap -s 200 "$T_DIR/eth.pcap" "$T_DIR/snap.pcap" 2>/dev/null
out=$(nfs_check "$T_DIR/snap.pcap" 2049,20048)
ok $? "cut to a 200-byte snap length: every call and reply still agrees"
[ $? -eq 0 ] || diag "$out"
like "$(sed -n 's/^# \(data_cut\|replies_cut\) //p' "$T_DIR/snap.pcap.events" | tr '\n' ' ')" \
    "^[1-9][0-9]* [1-9]" "cut WRITE and READ data and cut replies are counted, not guessed"

# the same session rewritten by editcap as pcapng and as a nanosecond pcap
editcap -F pcapng "$T_DIR/tcp-reorder.pcap" "$T_DIR/e.pcapng" 2>/dev/null &&
    editcap -F nsecpcap "$T_DIR/ipv6-tcp.pcap" "$T_DIR/e.nsec" 2>/dev/null
out=$(nfs_check "$T_DIR/e.pcapng" 2049,20048 && nfs_check "$T_DIR/e.nsec" 2049,20048)
ok $? "editcap's pcapng and nanosecond pcap of two sessions: every message agrees"
is "$(sed -n 's/^# format //p' "$T_DIR/e.pcapng.events" "$T_DIR/e.nsec.events" | tr '\n' ' ')" \
    "pcapng pcap " "read as pcapng and pcap"

randpkt -t eth -c 300 -b 1500 "$T_DIR/rand.pcap" 2>/dev/null &&
    mergecap -F pcap -w "$T_DIR/mixed.pcap" "$T_DIR/eth.pcap" "$T_DIR/rand.pcap" 2>/dev/null
"$NFS_EVENTS" "$T_DIR/mixed.pcap" >"$T_DIR/mixed.ev" 2>&1
ok $? "300 random Ethernet frames merged into a session: read without error"
is "$(grep -c '^C' "$T_DIR/mixed.ev")" 7 "the session's 7 calls are still all there"

# hostile files
python3 "$CRAFT" hostile-unanswered "$T_DIR/un.pcap"
/usr/bin/time -f %M -o "$T_DIR/un.rss" "$NFS_EVENTS" "$T_DIR/un.pcap" >"$T_DIR/un.ev"
ok $? "100000 unanswered calls read"
is "$(sed -n 's/^# \(unanswered_calls\|calls_released_early\) //p' "$T_DIR/un.ev" | tr '\n' ' ')" \
    "100000 34464 " "each is an unanswered event; past 65536 held the oldest go early, counted"
rss=$(cat "$T_DIR/un.rss")
ok "$([ "$rss" -lt 150000 ] && echo 0 || echo 1)" "memory stays bounded by the calls held (${rss} kB)"
python3 "$CRAFT" hostile-endless-record "$T_DIR/rec.pcap"
"$NFS_EVENTS" "$T_DIR/rec.pcap" >"$T_DIR/rec.ev"
is "$(sed -n 's/^# \(calls\|data_cut\|truncated_records\) //p' "$T_DIR/rec.ev" | tr '\n' ' ')" \
    "1 1 1 " "a record that never completes: its WRITE is read with its data cut, counted"
python3 "$CRAFT" hostile-endless-frags "$T_DIR/frag.pcap"
/usr/bin/time -f %M -o "$T_DIR/frag.rss" "$NFS_EVENTS" "$T_DIR/frag.pcap" >"$T_DIR/frag.ev"
is "$(sed -n 's/^# ip_fragments_dropped //p' "$T_DIR/frag.ev")" 3000 \
    "an endless chain of fragments: every fragment counted as dropped"
ok "$([ "$(cat "$T_DIR/frag.rss")" -lt 64000 ] && echo 0 || echo 1)" \
    "and bounded in memory ($(cat "$T_DIR/frag.rss") kB)"
size=$(stat -c %s "$T_DIR/eth.pcap")
head -c $((size - 700)) "$T_DIR/eth.pcap" >"$T_DIR/trunc.pcap"
err=$("$NFS_EVENTS" "$T_DIR/trunc.pcap" 2>&1 >/dev/null)
is "$?" 1 "a capture cut inside a packet is an error"
like "$err" "trunc.pcap: frame [0-9]+: error: the capture cannot be read on" "naming the frame"
"$NFS_EVENTS" -l "$T_DIR/trunc.pcap" >"$T_DIR/trunc.ev" 2>/dev/null
is "$?:$(sed -n 's/^# capture_cut_short //p' "$T_DIR/trunc.ev")" "0:1" "--lenient: counted, the rest read"
