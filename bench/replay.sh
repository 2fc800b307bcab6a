#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/replay.sh - trace replay timing (docs/replay.md, PERFORMANCE.md):
# lateness p50/p99/max and the drift of the replay's duration against the
# trace's own, at 1 000, 5 000 and 10 000 records/s, against sfs_nfsd on
# loopback.  Each rate runs twice side by side: FreeSFS's 1 ns timer slack
# and the kernel's default 50 us (the baseline), and the ratio of their
# p99s is printed.  The traces are SPC: 4 ASUs, 4 KiB, 2/3 reads, evenly
# spaced, SECONDS_PER_RATE long (default 10); RATES overrides the rates.
. bench/lib.sh
bench_init replay
bench_need "$bin/sfs3" "$bin/sfs_nfsd"
secs=${SECONDS_PER_RATE:-10}
procs=${PROCS:-2}
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
bench_wait_ready "$tmp/nfsd.log" 2>/dev/null
port=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$port:/export
printf '%-8s %-9s %8s %8s %8s %8s %10s %9s\n' rate slack_ns p50_us p99_us max_us behind drift_ms p99_ratio
for rate in ${RATES:-1000 5000 10000}; do
    awk -v r="$rate" -v s="$secs" 'BEGIN { n = r * s; for (i = 0; i < n; i++)
        printf "%d,%d,4096,%s,%.6f\n", i % 4, (i * 8) % 1000000, (i % 3 ? "R" : "W"), i / r }' \
        >"$tmp/t.spc"
    base_p99=""
    for slack in 50000 1; do
        FREESFS_REPLAY_TIMERSLACK_NS=$slack "$bin/sfs3" -p "$procs" --trace "$tmp/t.spc" \
            --yaml "$tmp/r.yaml" "$url" >/dev/null 2>"$tmp/err" || { tail -3 "$tmp/err"; exit 1; }
        line=$(python3 -c "
import yaml
r = yaml.safe_load(open('$tmp/r.yaml'))['replay']
l = r['lateness_us']
print(l['p50'], l['p99'], l['max'], r['could_not_keep_up'], '%.3f' % (r['drift_s'] * 1000))")
        set -- $line
        if [ -z "$base_p99" ]; then ratio=-; base_p99=$2; else
            ratio=$(awk -v a="$base_p99" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'); fi
        printf '%-8s %-9s %8s %8s %8s %8s %10s %9s\n' "$rate" "$slack" "$1" "$2" "$3" "$4" "$5" "$ratio"
    done
done
