#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nfstrace.sh - reading NFS traces (the "NFS trace reader" section of
# docs/PERFORMANCE.md): events per second of the capture reader
# (bench/nfs_read: tr_nfs_next and nothing else), of `sfs_trace convert --to
# nfsdump` (the whole program, text written to /dev/null) and of the
# nfsdump text reader on that text, side by side with tshark decoding the
# same capture and extracting the per-message fields (RPC over TCP
# desegmented), on two captures of different shapes written by
# tests/tools/nfs-craft.py: small metadata calls over UDP (150000 calls and
# replies in 300000 frames) and 32 KiB READs and WRITEs over TCP (3200
# calls, 110 MB in 1448-byte segments).  Best of 3 alternating rounds; wall
# seconds (one core each: nothing here runs two threads).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init nfstrace
bench_need "$build/bench/nfs_read" "$bin/sfs_trace"
command -v tshark >/dev/null || { echo "nfstrace: tshark not installed: the baseline is missing"; exit 1; }
for shape in bench-udp-meta bench-tcp-rw; do
    python3 tests/tools/nfs-craft.py "$shape" "$tmp/$shape.pcap" || exit 1
done
: >"$tmp/times"
t() { # NAME SHAPE COMMAND...: wall seconds of one run, appended to times
    n=$1 s=$2
    shift 2
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "nfstrace: $n failed"; exit 1; }
    echo "$s $n $(date +%s.%N) $t0" | awk '{print $1, $2, $3 - $4}' >>"$tmp/times"
}
for round in 1 2 3; do
    for s in bench-udp-meta bench-tcp-rw; do
        t reader "$s" "$build/bench/nfs_read" "$tmp/$s.pcap"
        t convert "$s" "$bin/sfs_trace" convert --to nfsdump "$tmp/$s.pcap" -o "$tmp/$s.txt"
        t text-reader "$s" "$build/bench/nfs_read" "$tmp/$s.txt"
        t tshark "$s" tshark -n -r "$tmp/$s.pcap" -o rpc.desegment_rpc_over_tcp:TRUE \
            -T fields -e frame.time_epoch -e rpc.xid -e rpc.msgtyp -e nfs.procedure_v3 \
            -e nfs.fh.hash -e nfs.name -e nfs.offset3 -e nfs.count3 -e nfs.status3
    done
done
for s in bench-udp-meta bench-tcp-rw; do
    set -- $("$build/bench/nfs_read" "$tmp/$s.pcap")
    ev=$1 pk=$2
    sz=$(stat -c %s "$tmp/$s.pcap")
    echo "$s: $ev calls (each with its reply), $pk frames, $((sz / 1000000)) MB; best of 3:"
    awk -v s="$s" -v ev="$ev" '$1 == s { if (!($2 in b) || $3 < b[$2]) b[$2] = $3 }
        END {
            split("reader convert text-reader tshark", o, " ")
            for (i = 1; i <= 4; i++) printf "  %-12s %7.3f s  %9.0f events/s\n", o[i], b[o[i]], ev / b[o[i]]
            printf "  ratios: tshark / reader %.1fx, tshark / convert %.1fx\n", b["tshark"] / b["reader"], b["tshark"] / b["convert"]
        }' "$tmp/times"
done
