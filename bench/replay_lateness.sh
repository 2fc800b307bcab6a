#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/replay_lateness.sh - where a replay's lateness comes from on a
# shared machine (docs/replay.md "Lateness", docs/nfs_replay.md "Timing",
# PERFORMANCE.md): the block replay (an SPC trace, 4 ASUs, 4 KiB, 2/3
# reads, evenly spaced; -p PROCS_SPC, 4) and the NFS replay (an nfsdump
# trace of bench/nfsdump_trace.py; -p PROCS_NFS, 2) at each of RATES
# calls/s (2000 10000) for SECONDS_PER_RATE (10) at speed 1 against sfs_nfsd on
# loopback, once per SPINS value (FREESFS_REPLAY_SPIN_NS: how close to a
# deadline the loop stops sleeping and polls; 20000 is the default), the
# variants interleaved ROUNDS (2) times so that they share the machine's
# state.  Per run: the lateness distribution (p50, p90, p99, p99.9, max),
# could not keep up, and the CPU seconds sfs3 used (a spin costs CPU);
# the load average before each rate says how busy the machine was.
. bench/lib.sh
bench_init replay_lateness
bench_need "$bin/sfs3" "$bin/sfs_nfsd"
secs=${SECONDS_PER_RATE:-10}
rounds=${ROUNDS:-2}
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
bench_wait_ready "$tmp/nfsd.log" 2>/dev/null
port=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$port:/export

# run KIND TRACE PROCS SPIN: one replay at speed 1, its row printed
run() {
    FREESFS_REPLAY_SPIN_NS=$4 /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
        "$bin/sfs3" -p "$3" --trace "$2" --yaml "$tmp/r.yaml" "$url" \
        >/dev/null 2>"$tmp/err" || { tail -3 "$tmp/err"; exit 1; }
    python3 -c "
import yaml
y = yaml.safe_load(open('$tmp/r.yaml'))
r = y['replay'] if '$1' == 'spc' else y['nfs_replay']
l = r['lateness_us']
behind = r['could_not_keep_up'] if 'could_not_keep_up' in r else l['could_not_keep_up']
u, s = open('$tmp/cpu').read().split()[-2:]
print('%-4s %6s %8s %3s %8.1f %8.1f %8.1f %8.1f %8d %7d %6.2f' % ('$1', '$rate', '$4', '$3',
      l['p50'], l['p90'], l['p99'], l['p999'], l['max'], behind, float(u) + float(s)))"
}

printf '%-4s %6s %8s %3s %8s %8s %8s %8s %8s %7s %6s\n' kind rate spin_ns p \
    p50_us p90_us p99_us p999_us max_us behind cpu_s
for rate in ${RATES:-2000 10000}; do
    n=$((rate * secs))
    awk -v r="$rate" -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
        printf "%d,%d,4096,%s,%.6f\n", i % 4, (i * 8) % 1000000, (i % 3 ? "R" : "W"), i / r }' \
        >"$tmp/t.spc"
    python3 bench/nfsdump_trace.py "$tmp/t.nfs" "$n" "$rate"
    echo "# $rate calls/s, $n calls; load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
    i=0
    while [ $i -lt "$rounds" ]; do
        for spin in ${SPINS:-20000 200000 1000000}; do
            run spc "$tmp/t.spc" "${PROCS_SPC:-4}" "$spin"
            run nfs "$tmp/t.nfs" "${PROCS_NFS:-2}" "$spin"
        done
        i=$((i + 1))
    done
done
