#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nfs4_stats.sh - `sfs_trace stats` on NFSv4.1 captures side by side
# with tshark extracting the same per-operation fields (`-T fields`: the
# message type, XID, response time, minor version, every operation's
# number and status, handles, names, offsets, counts, READ's and WRITE's
# lengths, stateids, the session, slot, sequence and client ids; RPC over
# TCP desegmented) from the same file: the "NFSv4 captures" section of
# docs/PERFORMANCE.md.  Two captures of one workload at two sizes are made
# here with dumpcap on lo, filtered on a private nfs-ganesha's NFSv4 port
# (root needed): tests/tools/nfs41_mix (Linux-shaped v4.1 COMPOUNDs, one
# session, one slot) for SMALL_ROUNDS and LARGE_ROUNDS rounds (300 and
# 3000; about 36 COMPOUNDs a round).  For each: the best wall time of 5
# runs of sfs_trace and of 3 of tshark, their ratio, sfs_trace's peak resident
# memory (which grows with the calls of one pairing window, 120 s of
# trace time, never with the file: rss_w1_MiB is the same with
# --pair-window 1), the reader alone with NFSv4 decoded and with NFSv4 only counted
# (bench/nfs_read [-4]: the difference is what decoding costs), and, when
# perf is installed, the share of sfs_trace's samples in the XDR codecs
# (libtirpc and the rpcgen xdr_* functions).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init nfs4_stats
bench_need "$bin/sfs_trace" "$build/tools/nfs41_mix" "$build/bench/nfs_read"
if [ "$(id -u)" -ne 0 ] || ! command -v dumpcap >/dev/null || ! command -v tshark >/dev/null; then
    echo "nfs4_stats: needs root, dumpcap and tshark; skipped"
    exit 0
fi
[ -x /usr/bin/time ] || { echo "nfs4_stats: /usr/bin/time missing (apt-get install time)"; exit 1; }
PORT=3249
PROTOCOLS="3, 4"
export PROTOCOLS
bench_ganesha "$PORT" $((PORT - 1))
[ "$ganesha" = 1 ] || exit 0

# capture FILE ROUNDS PREFIX: the workload's traffic to ganesha, captured
capture() {
    dumpcap -i lo -f "tcp port $PORT" -w "$1" 2>"$1.err" &
    cpid=$!
    i=0
    while [ $i -lt 200 ] && ! grep -q "Capturing on" "$1.err" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
    sleep 1
    "$build/tools/nfs41_mix" -r "$2" -f 3 -p "$3" "$PORT" export >/dev/null ||
        { echo "nfs4_stats: nfs41_mix failed"; kill -INT $cpid; exit 1; }
    size=-1
    while [ "$size" != "$(stat -c %s "$1")" ]; do size=$(stat -c %s "$1"); sleep 0.5; done
    kill -INT $cpid
    wait $cpid
}
capture "$tmp/small.pcapng" "${SMALL_ROUNDS:-300}" s
capture "$tmp/large.pcapng" "${LARGE_ROUNDS:-3000}" l

FIELDS="-e rpc.msgtyp -e rpc.xid -e rpc.time -e nfs.minorversion -e nfs.opcode
 -e nfs.nfsstat4 -e nfs.fhandle -e nfs.pathname.component -e nfs.offset4 -e nfs.count4
 -e nfs.read.data_length -e nfs.write.data_length -e nfs.stateid.other -e nfs.session_id4
 -e nfs.slotid -e nfs.seqid -e nfs.clientid"

# run FILE TOOL: one wall time (s) and peak RSS (KiB) of one tool on FILE
run() {
    if [ "$2" = sfs_trace ]; then
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$bin/sfs_trace" stats "$1" >/dev/null 2>&1
    else
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %M" -o "$tmp/t" tshark -n -r "$1" \
            -o rpc.desegment_rpc_over_tcp:TRUE -o tcp.desegment_tcp_streams:TRUE \
            -d "tcp.port==$PORT,rpc" -Y nfs -T fields -E occurrence=a $FIELDS >/dev/null 2>&1
    fi
    cat "$tmp/t"
}
# best FILE TOOL N: the best of N wall times, with the peak RSS of its run
best() {
    b=""
    i=0
    while [ $i -lt "$3" ]; do
        t=$(run "$1" "$2")
        b=$(echo "$b|$t" | awk -F'|' '{split($2, n, " "); if ($1 == "") print $2; else {split($1, o, " "); print (n[1] < o[1]) ? $2 : $1}}')
        i=$((i + 1))
    done
    echo "$b"
}
# reader FILE [-4]: the best of 5 of bench/nfs_read's seconds
reader() {
    b=""
    for r in 1 2 3 4 5; do
        t=$("$build/bench/nfs_read" "$@" | awk '{print $3}')
        b=$(awk -v a="$b" -v t="$t" 'BEGIN {print (a == "" || t < a) ? t : a}')
    done
    echo "$b"
}

printf '%-8s %7s %9s %8s %12s %10s %7s %8s %11s %12s %10s\n' capture MB compounds ops \
    sfs_trace_s tshark_s ratio rss_MiB rss_w1_MiB reader_v4_s counted_s
for c in small large; do
    f=$tmp/$c.pcapng
    "$bin/sfs_trace" stats -q "$f" --yaml "$tmp/$c.yaml" || exit 1
    comp=$(sed -n 's/^  compounds: //p' "$tmp/$c.yaml" | head -1)
    ops=$(awk '/^  operations:/ {on = 1; next} on && /^  [a-z]/ {on = 0} on && /^      calls:/ {s += $2} END {print s}' "$tmp/$c.yaml")
    mb=$(stat -c %s "$f" | awk '{printf "%.1f", $1 / 1e6}')
    a=$(best "$f" sfs_trace 5)
    b=$(best "$f" tshark 3)
    /usr/bin/time -f "%M" -o "$tmp/w1" "$bin/sfs_trace" stats --pair-window 1 "$f" >/dev/null 2>&1
    printf '%-8s %7s %9s %8s %12s %10s %7s %8s %11s %12s %10s\n' "$c" "$mb" "$comp" "$ops" \
        "${a% *}" "${b% *}" \
        "$(echo "$a $b" | awk '{printf "%.1f", ($1 > 0) ? $3 / $1 : 0}')" \
        "$(echo "$a" | awk '{printf "%.1f", $2 / 1024}')" \
        "$(awk '{printf "%.1f", $1 / 1024}' "$tmp/w1")" \
        "$(reader -4 "$f")" "$(reader "$f")"
done
if command -v perf >/dev/null && perf record -q -o "$tmp/perf.data" -- \
    "$bin/sfs_trace" stats "$tmp/large.pcapng" >/dev/null 2>&1; then
    perf report -q -i "$tmp/perf.data" --stdio --sort dso,sym 2>/dev/null | awk '
        {p = $1; sub("%", "", p); all += p}
        /libtirpc/ || /\] xdr_/ {x += p}
        END {printf "share of sfs_trace stats in the XDR codecs (libtirpc, xdr_*): %.1f %% of %.1f %% sampled\n", x, all}'
fi
