#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/ping.sh - the RPC engine's throughput and client CPU per call (the
# "RPC engine and sfs_ping" section of docs/PERFORMANCE.md).  In one run,
# interleaved round by round so that a busy machine hurts every row alike:
#   - sfs_ping GETATTR, NFSv3 over UDP and TCP, against a private
#     nfs-ganesha on loopback (needs root; skipped without it);
#   - the bare libnfs raw-async loop (bench/lnfs_getattr.c,
#     rpc_nfs3_getattr_async) over TCP at the same calls in flight;
#   - the same three against the NFSv2 responder (tests/tools/v2_responder),
#     libnfs with rpc_nfs2_getattr_async;
#   - NFSv4 against the same ganesha, OUTSTANDING4 (64) in flight: sfs_ping
#     -4 (4.1: SEQUENCE PUTFH GETATTR on a session of 64 slots), sfs_ping -4
#     --minor 0 (4.0: PUTFH GETATTR) and libnfs at NFS_V4 (libnfs speaks
#     4.0): its own async loop (bench/lnfs4_getattr.c: nfs_fstat64_async)
#     and its raw compound (-r: rpc_nfs4_compound_async PUTFH GETATTR), so
#     that 4.0 is compared with 4.0 and 4.1 with both.
# Prints the median of ROUNDS rounds per row and sfs_ping/libnfs ratios.
# COUNT, OUTSTANDING, ROUNDS override; BENCH_BUILD names the build directory.
# PIN=1 pins the clients to CPU 0 and the servers to CPU 1 (taskset), so
# that a client's CPU per call is its own at its saturation, not shared
# with the server's.
# BASELINE_BIN=DIR adds, in the same rounds, every sfs_ping row run with
# DIR/sfs_ping (another build: main, or other compile flags) and prints the
# this-build/baseline ratios.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init ping
count=${COUNT:-100000}
outs=${OUTSTANDING:-16}
outs4=${OUTSTANDING4:-64}
rounds=${ROUNDS:-3}
nport=29960 # fixed loopback ports for the bench's own servers
bench_need "$bin/sfs_ping" "$build/bench/lnfs_getattr" "$build/bench/lnfs4_getattr" \
    "$build/tools/v2_responder"
base=${BASELINE_BIN:-}
[ -z "$base" ] || bench_need "$base/sfs_ping"
bench_spawn "$tmp/v2.log" "$build/tools/v2_responder" -b 127.0.0.1 -p $((nport + 5))
GANESHA_PROTOCOLS="3, 4" # NFSv4 rows too (bench_ganesha reads it)
bench_ganesha $nport $((nport + 1))
bench_wait_ready "$tmp/v2.log"
pin=""
if [ "${PIN:-0}" = 1 ] && command -v taskset >/dev/null; then
    pin="taskset -c 0"
    for f in "$tmp/g/ganesha.daemonpid"; do
        [ -f "$f" ] && taskset -a -p -c 1 "$(cat "$f")" >/dev/null
    done
    for p in $pids; do taskset -a -p -c 1 "$p" >/dev/null; done
    echo "$bench_name: clients on CPU 0, servers on CPU 1"
fi

G="nfs://127.0.0.1:$nport$tmp/g/export?mountport=$((nport + 1))"
V2="127.0.0.1:$((nport + 5)):/export"
G4="127.0.0.1:$nport:/export"
[ $ganesha = 1 ] && echo "some data" >"$tmp/g/export/afile"
# row NAME COMMAND...: one measurement, appended as "NAME ops cpu"
row() {
    local name=$1 out; shift
    # shellcheck disable=SC2086
    out=$($pin "$@" 2>&1) || { echo "$bench_name: $name failed: $(echo "$out" | tail -1)"; return; }
    echo "$name $(echo "$out" | awk '$1 == "ops/s" { o = $2 } $1 == "cpu_us/call" { c = $2 }
                                   END { print o, c }')" >>"$tmp/rows"
}
# ping NAME ARGS...: an sfs_ping row, and its baseline twin (NAME_base) when
# BASELINE_BIN is set; which of the two runs first alternates with the round.
ping() {
    local name=$1; shift
    if [ -n "$base" ] && [ $((r % 2)) = 0 ]; then
        row "${name}_base" "$base/sfs_ping" "$@"
        row "$name" "$bin/sfs_ping" "$@"
    else
        row "$name" "$bin/sfs_ping" "$@"
        [ -z "$base" ] || row "${name}_base" "$base/sfs_ping" "$@"
    fi
}
for r in $(seq "$rounds"); do
    if [ $ganesha = 1 ]; then
        ping "ganesha_v3_udp_sfs_ping" -c "$count" -o "$outs" "$G"
        ping "ganesha_v3_tcp_sfs_ping" -Q -c "$count" -o "$outs" "$G"
        row "ganesha_v3_tcp_libnfs" "$build/bench/lnfs_getattr" -c "$count" -o "$outs" \
            -n $nport -m $((nport + 1)) -e "$tmp/g/export"
        ping "ganesha_v41_sfs_ping" -4 -c "$count" -o "$outs4" "$G4"
        ping "ganesha_v40_sfs_ping" -4 --minor 0 -c "$count" -o "$outs4" "$G4"
        row "ganesha_v40_libnfs" "$build/bench/lnfs4_getattr" -c "$count" -o "$outs4" \
            -n $nport -e /export -f /afile
        row "ganesha_v40_libnfs_raw" "$build/bench/lnfs4_getattr" -r -c "$count" -o "$outs4" \
            -n $nport -e /export
    fi
    ping "v2resp_v2_udp_sfs_ping" -2 -c "$count" -o "$outs" "$V2"
    ping "v2resp_v2_tcp_sfs_ping" -2 -Q -c "$count" -o "$outs" "$V2"
    row "v2resp_v2_tcp_libnfs" "$build/bench/lnfs_getattr" -2 -c "$count" -o "$outs" \
        -n $((nport + 5)) -m $((nport + 5)) -e /export
done

echo "GETATTR, $count calls, $outs in flight (NFSv4: $outs4), median of $rounds rounds:"
printf '%-26s %12s %14s\n' row "calls/s" "client us/call"
sort -k1,1 -k2,2n "$tmp/rows" | awk -v n="$rounds" '
    { k = $1; ops[k, ++c[k]] = $2; cpu[k, c[k]] = $3; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } }
    function med(a, k, m,   i, j, t, v) {
        for (i = 1; i <= m; i++) v[i] = a[k, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return v[int((m + 1) / 2)]
    }
    END {
        for (i = 1; i <= nk; i++) {
            k = keys[i]; mo[k] = med(ops, k, c[k]); mc[k] = med(cpu, k, c[k])
            printf "%-26s %12.0f %14.2f\n", k, mo[k], mc[k]
        }
        for (i = 1; i <= nk; i++) {
            k = keys[i]; if (k !~ /_sfs_ping$/) continue
            b = k; sub(/_sfs_ping$/, "_libnfs", b)
            if (b in mo && mo[b] > 0 && mc[k] > 0)
                printf "%s: sfs_ping/libnfs calls/s %.2f, CPU per call %.2f\n", substr(k, 1, length(k) - 9), mo[k] / mo[b], mc[k] / mc[b]
        }
        k = "ganesha_v40_sfs_ping"; b = "ganesha_v40_libnfs_raw"
        if (k in mo && b in mo && mo[b] > 0 && mc[b] > 0)
            printf "ganesha_v40: sfs_ping/libnfs raw calls/s %.2f, CPU per call %.2f\n", mo[k] / mo[b], mc[k] / mc[b]
        k = "ganesha_v41_sfs_ping"
        if (k in mo && b in mo && mo[b] > 0 && mc[b] > 0)
            printf "ganesha_v41: sfs_ping 4.1/libnfs raw 4.0 calls/s %.2f, CPU per call %.2f\n", mo[k] / mo[b], mc[k] / mc[b]
        b = "ganesha_v3_tcp_sfs_ping"
        if (k in mo && b in mo && mo[b] > 0 && mc[b] > 0)
            printf "ganesha_v41: sfs_ping 4.1/v3 TCP calls/s %.2f, CPU per call %.2f\n", mo[k] / mo[b], mc[k] / mc[b]
        for (i = 1; i <= nk; i++) {
            k = keys[i]; b = k "_base"
            if (b in mo && mo[b] > 0 && mc[b] > 0)
                printf "%s: this build/baseline calls/s %.3f, CPU per call %.3f\n", k, mo[k] / mo[b], mc[k] / mc[b]
        }
    }'
