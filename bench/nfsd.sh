#!/bin/sh
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
build=${BENCH_BUILD:-build/linux}
bin=${FREESFS_BIN:-bin}
count=${COUNT:-200000}
outs=${OUTSTANDING:-64}
rounds=${ROUNDS:-3}
port=29970 # fixed loopback ports for the bench's own servers
ping=${SFS_PING:-$bin/sfs_ping}
for f in "$bin/sfs_nfsd" "$ping"; do
    [ -x "$f" ] || { echo "nfsd: $f not built (make all)"; exit 1; }
done
lnfs=$build/bench/lnfs_getattr
[ -x "$lnfs" ] || lnfs=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nfsd_bench.XXXXXX") || exit 1
pids=""
cleanup() {
    for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    [ -f "$tmp/g/ganesha.pid" ] && GDIR=$tmp/g sh scripts/ganesha-lo.sh stop >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$bin/sfs_nfsd" -f -b 127.0.0.1 -p $port -m $((port + 1)) >"$tmp/nfsd.log" 2>&1 &
pids="$pids $!"
ganesha=0
if [ "$(id -u)" -eq 0 ] && command -v ganesha.nfsd >/dev/null; then
    exec 9>"${TMPDIR:-/tmp}/freesfs-ganesha.lock" # one ganesha at a time (3.8)
    flock -w 600 9 || { echo "nfsd: could not take the ganesha lock"; exit 1; }
    if GDIR=$tmp/g BIND=127.0.0.1 NFS_PORT=$((port + 5)) MNT_PORT=$((port + 6)) \
        sh scripts/ganesha-lo.sh start >"$tmp/g.log" 2>&1; then
        ganesha=1
    else
        echo "nfsd: ganesha did not start; its rows are skipped"; tail -3 "$tmp/g.log"
    fi
else
    echo "nfsd: not root or no ganesha: ganesha rows skipped"
fi
i=0
while ! grep -q '^ready' "$tmp/nfsd.log" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done

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
