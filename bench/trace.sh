#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/trace.sh - sfs_trace speed and sampling accuracy (the "sfs_trace"
# section of docs/PERFORMANCE.md).  trace_bench generates the skewed benchmark trace
# (3.1 M records, 9 M references at 4 KiB; never committed) and times the
# parts in one process: parsing alone, the JudyL floor, exact by record and
# by reference, the plain Judy1Count method, sampling at rate 0.001, and a
# table of its error against exact for each of SEEDS hash seeds (10; each
# row: mean absolute error over the sizes 1..2^21 blocks, the worst size, and
# the expected error the run printed).  Then the whole program runs on the
# same file, side by side and alternating, 3 rounds, each mode keeping its
# best:
#   stats (parsing plus constant work per record: the parse-only rate of the
#   program), mrc exact on one thread and on two (reading overlapped), mrc
#   --method judy1, and mrc --sample 0.001.
# Wall seconds are what a user waits (the second thread only helps when the
# second core is free); CPU seconds are user + system.  RECORDS=N overrides
# the size, SEEDS=N the seeds; BENCH_BUILD names the build directory.  The
# accuracy table alone: build/linux/bench/trace_bench --accuracy FILE.spc
# RECORDS SEEDS [DISTANCE_RATE] (FILE.spc is written, then analysed).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init sfs_trace
records=${RECORDS:-3100000}
seeds=${SEEDS:-10}
bench_need "$build/bench/trace_bench" "$bin/sfs_trace"
"$build/bench/trace_bench" "$tmp/bench.spc" "$records" "$seeds" || exit 1
ls -l "$tmp/bench.spc" | awk '{printf "trace file: %.1f MB\n", $5 / 1e6}'
"$bin/sfs_trace" mrc "$tmp/bench.spc" -q --yaml "$tmp/r.yaml" || exit 1
refs=$(sed -n 's/^references: //p' "$tmp/r.yaml")
[ -x /usr/bin/time ] || { echo "sfs_trace: /usr/bin/time missing (apt-get install time)"; exit 1; }

# run NAME ARGS...: one timed run; appends "NAME wall cpu" to $tmp/times
run() {
    name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$bin/sfs_trace" "$@" "$tmp/bench.spc" -q \
        >/dev/null || exit 1
    awk -v n="$name" '{printf "%s %.3f %.3f\n", n, $1, $2 + $3}' "$tmp/t" >>"$tmp/times"
}
: >"$tmp/times"
for round in 1 2 3; do
    run stats stats --threads 1
    run exact-1-thread mrc --threads 1
    run exact-2-threads mrc --threads 2
    run judy1count mrc --method judy1 --threads 1
    run sample-0.001 mrc --sample 0.001
done
echo "whole program, $refs references, best of 3 alternating rounds:"
awk -v refs="$refs" '
    { if (!($1 in w) || $2 < w[$1]) w[$1] = $2; if (!($1 in c) || $3 < c[$1]) c[$1] = $3
      if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    END {
        for (i = 1; i <= k; i++) { m = order[i]
            printf "  %-16s %6.3f s wall %6.2f M refs/s   %6.3f s CPU %6.2f M refs/s\n",
                m, w[m], refs / w[m] / 1e6, c[m], refs / c[m] / 1e6 }
        printf "ratios (wall): exact 2 threads / judy1count %.2fx, exact 1 thread / judy1count %.2fx, sample 0.001 / exact 2 threads %.2fx\n",
            w["judy1count"] / w["exact-2-threads"], w["judy1count"] / w["exact-1-thread"],
            w["exact-2-threads"] / w["sample-0.001"]
    }' "$tmp/times"
