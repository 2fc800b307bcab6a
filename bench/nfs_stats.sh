#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nfs_stats.sh - `sfs_trace stats` on packet captures side by side
# with tshark's own statistics (-z rpc,srt: per-procedure calls and
# response times) on the same file (the "sfs_trace on NFS captures" section
# of docs/PERFORMANCE.md).  Two captures of different shapes are made here,
# with dumpcap on lo filtered on a private sfs_nfsd's ports (root needed):
#   write-heavy: an sfs3 run over UDP with its population (large WRITEs,
#     few calls per megabyte);
#   small calls: sfs_ping getattrs over TCP, 16 in flight (many small RPC
#     messages, several per TCP segment).
# Each tool runs 3 times alternating, the best wall time kept; the ratio is
# tshark's time over sfs_trace's.  Both read the whole file; sfs_trace also
# prints its table (to /dev/null), tshark its srt table.  PING_CALLS=N
# overrides the small-calls capture's size (200000).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init nfs_stats
bench_need "$bin/sfs_trace" "$bin/sfs_nfsd" "$bin/sfs3" "$bin/sfs_ping"
if [ "$(id -u)" -ne 0 ] || ! command -v dumpcap >/dev/null || ! command -v tshark >/dev/null; then
    echo "nfs_stats: needs root, dumpcap and tshark; skipped"
    exit 0
fi
[ -x /usr/bin/time ] || { echo "nfs_stats: /usr/bin/time missing (apt-get install time)"; exit 1; }
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
bench_wait_ready "$tmp/nfsd.log" || exit 1
nfs=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
mnt=$(sed -n 's/.* mount [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$nfs:/export

bench_capture "$tmp/write.pcapng" "port $nfs or port $mnt" "$bin/sfs3" -l 200 -p 2 -w 1 -t 5 -F 8000 -a 25 "$url"
bench_capture "$tmp/small.pcapng" "port $nfs or port $mnt" "$bin/sfs_ping" -Q -o 16 -c "${PING_CALLS:-200000}" -p getattr "$url"

# best FILE TOOL: the best of 3 wall times (seconds) of one tool on FILE
best() {
    b=""
    for r in 1 2 3; do
        if [ "$2" = sfs_trace ]; then
            /usr/bin/time -f "%e" -o "$tmp/t" "$bin/sfs_trace" stats "$1" >/dev/null 2>&1
        else
            /usr/bin/time -f "%e" -o "$tmp/t" tshark -n -q -r "$1" -d "udp.port==$nfs,rpc" \
                -d "tcp.port==$nfs,rpc" -z rpc,srt,100003,3 >/dev/null 2>&1
        fi
        t=$(cat "$tmp/t")
        b=$(awk -v a="$b" -v t="$t" 'BEGIN {print (a == "" || t < a) ? t : a}')
    done
    echo "$b"
}
printf '%-12s %10s %10s %12s %12s %8s\n' capture MB calls sfs_trace_s tshark_s ratio
for c in write small; do
    f=$tmp/$c.pcapng
    "$bin/sfs_trace" stats -q "$f" --yaml "$tmp/$c.yaml" || exit 1
    calls=$(sed -n 's/^calls: //p' "$tmp/$c.yaml")
    mb=$(stat -c %s "$f" | awk '{printf "%.1f", $1 / 1e6}')
    a=$(best "$f" sfs_trace)
    b=$(best "$f" tshark)
    printf '%-12s %10s %10s %12s %12s %8s\n' "$c" "$mb" "$calls" "$a" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.1f", (a > 0) ? b / a : 0}')"
done
