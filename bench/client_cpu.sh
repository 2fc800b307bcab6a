#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/client_cpu.sh - the client's CPU time per NFS call, measured cleanly
# (the "Client CPU per call" section of docs/PERFORMANCE.md): the
# client pinned to CPU 0 and the server to CPU 1 (taskset), the client at
# its saturation, the timed part only.  Per server (sfs_nfsd, and a private
# nfs-ganesha on loopback when root), round by round so that a busy
# machine hurts every row alike:
#   - sfs3, the SFS model (each child one call at a time, biod for reads
#     and writes), -l far above what it reaches so that the pacer never
#     sleeps, $PROCS children: the SFS mix, a GETATTR-only mix and an
#     8 KB READ-only mix over UDP, the GETATTR mix over TCP; CPU is
#     results.run.client_cpu_us of the YAML (the run phase only: neither
#     population nor warm-up) over the run's calls; and the SFS mix paced
#     at $PACED ops/s (sleeps included: what a paced call costs);
#   - sfs_ping (the engine's async loop, getrusage around the loop) and
#     the bare libnfs raw-async loop (bench/lnfs_getattr.c) as the
#     baseline: GETATTR at 1 call in flight (what an SFS child does) and
#     at $OUTSTANDING, 8 KB READs at $OUTSTANDING;
#   - sfs_ping -4 (NFSv4.1: SEQUENCE PUTFH GETATTR on a session) at 1 and
#     at $OUTSTANDING, beside sfs_ping over TCP (v3);
#   - the SFS mix at saturation over TCP, sfs3 -Q (v3) beside sfs4 (v4.1):
#     the second shape of the v4.1-to-v3 comparison.
# Prints the median of ROUNDS rounds per row and the ratios.  COUNT (calls
# of a loop at depth), COUNT1 (at depth 1), OUTSTANDING, PROCS, RUN_S,
# PACED, ROUNDS override; ONLY_SERVER=sfs_nfsd or ganesha keeps one server;
# ROWS=REGEX runs only the rows whose name matches (grep -E).
# BASELINE_BIN=DIR adds, in the same rounds, the v4.1 rows run with DIR's
# sfs_ping and sfs4 (another build) and prints this build/baseline.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init client_cpu
count=${COUNT:-100000}
count1=${COUNT1:-10000}
outs=${OUTSTANDING:-64}
procs=${PROCS:-4}
run_s=${RUN_S:-5}
paced=${PACED:-2000}
rounds=${ROUNDS:-3}
port=29980 # the bench's own loopback ports (29980..29986)
lnfs=$build/bench/lnfs_getattr
bench_need "$bin/sfs_nfsd" "$bin/sfs3" "$bin/sfs4" "$bin/sfs_ping" "$lnfs"
command -v taskset >/dev/null || { echo "$bench_name: taskset is needed"; exit 1; }
only=${ONLY_SERVER:-}
rows_re=${ROWS:-.}
base=${BASELINE_BIN:-}
[ -z "$base" ] || bench_need "$base/sfs_ping" "$base/sfs4"

servers=""
head -c 8192 /dev/zero >"$tmp/f8k" # the file of sfs_ping's READs, in each export
if [ "$only" != ganesha ]; then
    bench_spawn "$tmp/nfsd.log" taskset -c 1 "$bin/sfs_nfsd" -f -b 127.0.0.1 -p $port \
        -m $((port + 1)) --max-bytes 1G
    bench_wait_ready "$tmp/nfsd.log"
    grep -q '^ready' "$tmp/nfsd.log" || { echo "$bench_name: sfs_nfsd did not start"; exit 1; }
    servers="sfs_nfsd"
    nfs-cp "$tmp/f8k" "nfs://127.0.0.1/export/f8k?nfsport=$port&mountport=$((port + 1))" \
        >/dev/null 2>&1 || { echo "$bench_name: nfs-cp to sfs_nfsd failed"; exit 1; }
fi
if [ "$only" != sfs_nfsd ]; then
    GANESHA_PROTOCOLS="3, 4" bench_ganesha $((port + 5)) $((port + 6))
    if [ $ganesha = 1 ]; then
        taskset -a -p -c 1 "$(cat "$tmp/g/ganesha.daemonpid")" >/dev/null
        cp "$tmp/f8k" "$tmp/g/export/f8k"
        servers="$servers ganesha"
    fi
fi
echo "$bench_name: clients on CPU 0, servers on CPU 1; $procs sfs3 children, $outs in flight"

# The mixes: every op but the one named at 0 %.
only_op() { # OP FILE
    printf 'SFS MIXFILE VERSION 2\n%s 100%%\n' "$1" >"$2"
    for o in getattr setattr lookup readlink read write create remove rename link symlink \
        mkdir rmdir readdir fsstat access commit fsinfo mknod pathconf readdirplus; do
        [ "$o" = "$1" ] || echo "$o 0%" >>"$2"
    done
}
only_op getattr "$tmp/getattr.mix"
only_op read "$tmp/read.mix"
printf 'Read\n100 1 0\n' >"$tmp/read8k.bsd" # every READ one 8 KB block

# v3 mount point, NFS port and MOUNT port, v4 mount point of a server
mnt3() {
    if [ "$1" = sfs_nfsd ]; then echo "127.0.0.1:$port:/export"; else
        echo "nfs://127.0.0.1:$((port + 5))$tmp/g/export?mountport=$((port + 6))"; fi
}
ports() { if [ "$1" = sfs_nfsd ]; then echo "$port $((port + 1))"; else
    echo "$((port + 5)) $((port + 6))"; fi; }
mnt4() { set -- $(ports "$1"); echo "127.0.0.1:$1:/export"; }
lexport() { if [ "$1" = sfs_nfsd ]; then echo /export; else echo "$tmp/g/export"; fi; }

# row NAME COMMAND...: a loop that prints ops/s and cpu_us/call (sfs_ping,
# lnfs_getattr), appended to the rows as "NAME ops cpu"
wanted() { echo "$1" | grep -Eq -- "$rows_re"; }
row() {
    local name=$1 out; shift
    wanted "$name" || return 0
    out=$(taskset -c 0 "$@" 2>&1) || { echo "$bench_name: $name failed: $(echo "$out" | tail -1)"; return; }
    echo "$name $(echo "$out" | awk '$1 == "ops/s" { o = $2 } $1 == "cpu_us/call" { c = $2 }
                                   END { print o, c }')" >>"$tmp/rows"
}
# sfs3row NAME SERVER LOAD ARGS...: an sfs3 run of LOAD ops/s (far above
# what it reaches: at saturation); its YAML's throughput and run-phase CPU
# over its calls (good and failed).  SFS_PROG=PATH runs another program
# (sfs4: the v4 mount point).
sfs3row() {
    local name=$1 srv=$2 load=$3 prog=${SFS_PROG:-$bin/sfs3} mnt; shift 3
    wanted "$name" || return 0
    case $prog in *sfs4) mnt=$(mnt4 "$srv") ;; *) mnt=$(mnt3 "$srv") ;; esac
    rm -f "$tmp/y.yaml"
    if ! taskset -c 0 "$prog" "$@" -l "$load" -p "$procs" -w 2 -t "$run_s" -F 400 \
        --yaml "$tmp/y.yaml" "$mnt" >"$tmp/sfs3.out" 2>"$tmp/sfs3.err"; then
        echo "$bench_name: $name failed: $(tail -1 "$tmp/sfs3.err")"
        return
    fi
    echo "$name $(awk '/^  throughput_ops:/ { o = $2 } /^  total_ops:/ { n += $2 }
        /^  failed_calls:/ { n += $2 } /^  client_cpu_us:/ { c = $2 }
        END { printf "%s %.2f", o, n ? c / n : 0 }' "$tmp/y.yaml")" >>"$tmp/rows"
}

for r in $(seq "$rounds"); do
    for s in $servers; do
        set -- $(ports "$s")
        np=$1 mp=$2
        sfs3row "${s}_v3_udp_sfs3_mix" "$s" 1000000
        sfs3row "${s}_v3_udp_sfs3_mix_paced" "$s" "$paced"
        sfs3row "${s}_v3_udp_sfs3_getattr" "$s" 1000000 -m "$tmp/getattr.mix"
        sfs3row "${s}_v3_udp_sfs3_read8k" "$s" 1000000 -m "$tmp/read.mix" -b "$tmp/read8k.bsd"
        sfs3row "${s}_v3_tcp_sfs3_getattr" "$s" 1000000 -Q -m "$tmp/getattr.mix"
        row "${s}_v3_tcp_o1_sfs_ping" "$bin/sfs_ping" -Q -c "$count1" -o 1 "$(mnt3 "$s")"
        row "${s}_v3_tcp_o1_libnfs" "$lnfs" -c "$count1" -o 1 -n "$np" -m "$mp" \
            -e "$(lexport "$s")"
        row "${s}_v3_udp_oN_sfs_ping" "$bin/sfs_ping" -c "$count" -o "$outs" "$(mnt3 "$s")"
        row "${s}_v3_tcp_oN_sfs_ping" "$bin/sfs_ping" -Q -c "$count" -o "$outs" "$(mnt3 "$s")"
        row "${s}_v3_tcp_oN_libnfs" "$lnfs" -c "$count" -o "$outs" -n "$np" -m "$mp" \
            -e "$(lexport "$s")"
        row "${s}_v3_tcp_oN_read8k_sfs_ping" "$bin/sfs_ping" -Q -p read -n f8k -c "$count" \
            -o "$outs" "$(mnt3 "$s")"
        row "${s}_v41_o1_sfs_ping" "$bin/sfs_ping" -4 -c "$count1" -o 1 "$(mnt4 "$s")"
        row "${s}_v41_oN_sfs_ping" "$bin/sfs_ping" -4 -c "$count" -o "$outs" "$(mnt4 "$s")"
        sfs3row "${s}_v3_tcp_sfs3_mix" "$s" 1000000 -Q
        SFS_PROG=$bin/sfs4 sfs3row "${s}_v41_sfs4_mix" "$s" 1000000
        if [ -n "$base" ]; then
            row "${s}_v41_o1_sfs_ping_base" "$base/sfs_ping" -4 -c "$count1" -o 1 "$(mnt4 "$s")"
            row "${s}_v41_oN_sfs_ping_base" "$base/sfs_ping" -4 -c "$count" -o "$outs" \
                "$(mnt4 "$s")"
            SFS_PROG=$base/sfs4 sfs3row "${s}_v41_sfs4_mix_base" "$s" 1000000
        fi
    done
done

[ -s "$tmp/rows" ] || { echo "$bench_name: no row ran"; exit 1; }
echo "client CPU per call, pinned; oN = $outs in flight, o1 = 1; sfs3: $procs children," \
    "${run_s} s run; median of $rounds rounds:"
printf '%-34s %12s %14s\n' row "calls/s" "client us/call"
awk -v n="$rounds" '
    { k = $1; ops[k, ++c[k]] = $2; cpu[k, c[k]] = $3; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } }
    function med(a, k, m,   i, j, t, v) {
        for (i = 1; i <= m; i++) v[i] = a[k, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return v[int((m + 1) / 2)]
    }
    function ratio(what, k, b) {
        if (k in mc && b in mc && mc[b] > 0 && mo[b] > 0)
            printf "%s: calls/s %.2f, CPU per call %.2f\n", what, mo[k] / mo[b], mc[k] / mc[b]
    }
    END {
        for (i = 1; i <= nk; i++) {
            k = keys[i]; mo[k] = med(ops, k, c[k]); mc[k] = med(cpu, k, c[k])
            printf "%-34s %12.0f %14.2f\n", k, mo[k], mc[k]
        }
        split("sfs_nfsd ganesha", srv, " ")
        for (i = 1; i <= 2; i++) {
            s = srv[i]
            ratio(s " sfs_ping/libnfs, TCP, 1 in flight", s "_v3_tcp_o1_sfs_ping", s "_v3_tcp_o1_libnfs")
            ratio(s " sfs_ping/libnfs, TCP, N in flight", s "_v3_tcp_oN_sfs_ping", s "_v3_tcp_oN_libnfs")
            ratio(s " sfs3 GETATTR TCP/libnfs 1 in flight", s "_v3_tcp_sfs3_getattr", s "_v3_tcp_o1_libnfs")
            ratio(s " v4.1/v3 TCP sfs_ping, 1 in flight", s "_v41_o1_sfs_ping", s "_v3_tcp_o1_sfs_ping")
            ratio(s " v4.1/v3 TCP sfs_ping, N in flight", s "_v41_oN_sfs_ping", s "_v3_tcp_oN_sfs_ping")
            ratio(s " v4.1/v3 SFS mix TCP, saturated", s "_v41_sfs4_mix", s "_v3_tcp_sfs3_mix")
            ratio(s " v4.1 sfs_ping 1 in flight, build/baseline", s "_v41_o1_sfs_ping", s "_v41_o1_sfs_ping_base")
            ratio(s " v4.1 sfs_ping N in flight, build/baseline", s "_v41_oN_sfs_ping", s "_v41_oN_sfs_ping_base")
            ratio(s " v4.1 SFS mix, build/baseline", s "_v41_sfs4_mix", s "_v41_sfs4_mix_base")
        }
    }' "$tmp/rows"
