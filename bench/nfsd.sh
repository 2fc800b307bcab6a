#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nfsd.sh - sfs_nfsd against nfs-ganesha (FSAL VFS) on the same
# machine in the same run (the "sfs_nfsd" section of docs/PERFORMANCE.md):
# NFSv3 GETATTR calls/s with OUTSTANDING (default 64) calls in flight, over
# UDP and TCP, driven by sfs_ping (the project's engine) and, over TCP, by
# the bare libnfs raw-async loop (bench/lnfs_getattr).  Rounds alternate
# between the two servers so that a busy machine hurts both alike; prints
# the median of ROUNDS rounds per row and sfs_nfsd/ganesha ratios.
# ganesha needs root: without it only the sfs_nfsd rows are measured.
# COUNT, OUTSTANDING, ROUNDS override; BENCH_BUILD names the build directory,
# SFS_PING the sfs_ping to use (default $FREESFS_BIN/sfs_ping).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init nfsd
count=${COUNT:-200000}
outs=${OUTSTANDING:-64}
rounds=${ROUNDS:-3}
port=29970 # fixed loopback ports for the bench's own servers
ping=${SFS_PING:-$bin/sfs_ping}
bench_need "$bin/sfs_nfsd" "$ping"
lnfs=$build/bench/lnfs_getattr
[ -x "$lnfs" ] || lnfs=

bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" -f -b 127.0.0.1 -p $port -m $((port + 1))
bench_ganesha $((port + 5)) $((port + 6))
bench_wait_ready "$tmp/nfsd.log"

# measure NAME COMMAND...: appends "NAME calls/s server-cpu-s" to rows
measure() {
    name=$1; shift
    out=$("$@" 2>&1) || { echo "nfsd: $name failed: $(echo "$out" | tail -1)"; return; }
    echo "$name $(echo "$out" | awk '$1 == "ops/s" { print $2 }')" >>"$tmp/rows"
}
# one server's rows: NAME NFSPORT MOUNTPORT EXPORT
server_rows() {
    m="nfs://127.0.0.1:$2$4?mountport=$3"
    measure "$1_udp_sfs_ping" "$ping" -3 -c "$count" -o "$outs" "$m"
    measure "$1_tcp_sfs_ping" "$ping" -3 -Q -c "$count" -o "$outs" "$m"
    [ -n "$lnfs" ] && measure "$1_tcp_libnfs" "$lnfs" -c "$count" -o "$outs" -n "$2" -m "$3" -e "$4"
}
for r in $(seq "$rounds"); do
    server_rows sfs_nfsd $port $((port + 1)) /export
    [ $ganesha = 1 ] && server_rows ganesha $((port + 5)) $((port + 6)) "$tmp/g/export"
done

echo "NFSv3 GETATTR, $count calls, $outs in flight, median of $rounds rounds:"
printf '%-24s %12s\n' row "calls/s"
sort -k1,1 -k2,2n "$tmp/rows" | awk '
    { v[$1, ++n[$1]] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    END {
        for (i = 1; i <= k; i++) {
            r = order[i]; med[r] = v[r, int((n[r] + 1) / 2)]
            printf "%-24s %12.0f\n", r, med[r]
        }
        for (i = 1; i <= k; i++) {
            r = order[i]; if (r !~ /^sfs_nfsd_/) continue
            g = r; sub(/^sfs_nfsd_/, "ganesha_", g)
            if (g in med && med[g] > 0)
                printf "%s: sfs_nfsd/ganesha %.2f\n", substr(r, 10), med[r] / med[g]
        }
    }'
