#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/pacing4.sh - does sfs4 hold the SFS pacing rule on nfs-ganesha's
# NFSv4.1 (400 ops/s within 0.1 %)?  The "Pacing of sfs4" section
# of docs/PERFORMANCE.md.  In one run, round by round, against one private
# nfs-ganesha (NFSv3 and 4.1, needs root): sfs4 (v4.1) and sfs3 -Q (v3 over
# TCP, the baseline) at LOAD ops/s from PROCS children, RUN_S seconds.  Per
# row, from the run's YAML: the throughput, its shortfall from LOAD, the
# time each child gave up after stalls (pacing.dropped_after_stalls_s: a
# stall beyond the pacer's 100 ms of debt moves the schedule on instead of
# bursting) and the fidelity, the calls counted over the calls the
# schedule asked for in the time not given up:
#   total_ops / (LOAD x (test_time_exact_s - dropped_after_stalls_s)).
# A shortfall with a fidelity of 1.000 is the time the children were
# stalled (a loaded machine, a slow reply), which the run reports, not the
# pacer missing its rate.  sfs4's rows add what separates its own stalls
# from the server's: the mix's calls slower than 100 ms (nfsv4's
# slow_ops, the pacer's carry limit) and the time its children were
# blocked on the working set's OPENs and CLOSEs in the run
# (open_close_wait_s).  LOAD, PROCS, RUN_S, WARM_S, ROUNDS override.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init pacing4
load=${LOAD:-400}
procs=${PROCS:-4}
run_s=${RUN_S:-60}
warm_s=${WARM_S:-5}
rounds=${ROUNDS:-1}
port=29990 # the bench's own loopback ports (29990, 29991)
bench_need "$bin/sfs3" "$bin/sfs4"
GANESHA_PROTOCOLS="3, 4" bench_ganesha $port $((port + 1))
[ "$ganesha" = 1 ] || { echo "$bench_name: needs nfs-ganesha (root)"; exit 0; }

# sfsrow NAME PROGRAM MOUNT ARGS...: one run, its figures appended to rows
sfsrow() {
    local name=$1 prog=$2 mnt=$3; shift 3
    rm -f "$tmp/y.yaml"
    if ! "$prog" "$@" -l "$load" -p "$procs" -w "$warm_s" -t "$run_s" -F 1000 \
        --progress 0 --yaml "$tmp/y.yaml" "$mnt" >"$tmp/out" 2>"$tmp/err"; then
        echo "$bench_name: $name failed: $(tail -1 "$tmp/err")"
        return
    fi
    echo "$name $(awk -v l="$load" '/^  throughput_ops:/ { o = $2 } /^  total_ops:/ { n = $2 }
        /^  test_time_exact_s:/ { t = $2 } /^  dropped_after_stalls_s:/ { d = $2 }
        /^  largest_lag_s:/ { g = $2 }
        /^ *slow_ops:/ { so = $2 } /^ *open_close_wait_s:/ { w = $2 }
        END { printf "%s %.3f %.3f %.3f %.4f %s %s", o, 100 * (o - l) / l, d, g,
              n / (l * (t - d)), so == "" ? "-" : so, w == "" ? "-" : w }' \
        "$tmp/y.yaml") $(cut -d' ' -f1 /proc/loadavg)" >>"$tmp/rows"
}

echo "$bench_name: $load ops/s, $procs children, ${run_s} s runs, $rounds round(s)"
for r in $(seq "$rounds"); do
    sfsrow v41_sfs4 "$bin/sfs4" "127.0.0.1:$port:/export"
    sfsrow v3_tcp_sfs3 "$bin/sfs3" "nfs://127.0.0.1:$port$tmp/g/export?mountport=$((port + 1))" -Q
done
[ -s "$tmp/rows" ] || { echo "$bench_name: no row ran"; exit 1; }
printf '%-12s %10s %10s %10s %10s %9s %8s %8s %6s\n' row "ops/s" "short %" "dropped s" \
    "lag max s" fidelity "slow ops" "oc wait" load
awk '{ printf "%-12s %10s %10s %10s %10s %9s %8s %8s %6s\n", $1, $2, $3, $4, $5, $6, $7, $8,
    $9 }' "$tmp/rows"
