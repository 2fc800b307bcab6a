#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/trace.sh - sfs_trace: parsing and stack-distance speed (the
# "sfs_trace: stack distances and parsing" section of docs/PERFORMANCE.md).
# trace_bench generates a deterministic 5-million-record SPC trace into a
# temporary file (never committed), then times the SPC reader, the default
# exact method and the plain Judy1Count method side by side, and SHARDS.
# Finally the whole program runs on the same file (parse + analysis), best
# of 3 runs each, in CPU seconds.
# RECORDS=N overrides the size; BENCH_BUILD names the build directory.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init sfs_trace
records=${RECORDS:-5000000}
bench_need "$build/bench/trace_bench"
"$build/bench/trace_bench" "$tmp/bench.spc" "$records" || exit 1
# best of 3 runs of: sfs_trace mrc FILE -q ARGS...; CPU seconds (user +
# sys, what one core spends: the machine is shared, so wall time mostly
# measures the neighbours) when /usr/bin/time exists, else wall seconds.
best_of_3() {
    best=
    for i in 1 2 3; do
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin/sfs_trace" mrc "$tmp/bench.spc" -q "$@" || exit 1
            t=$(awk '{printf "%.3f", $1 + $2}' "$tmp/time")
        else
            s=$(date +%s.%N)
            "$bin/sfs_trace" mrc "$tmp/bench.spc" -q "$@" || exit 1
            t=$(echo "$s $(date +%s.%N)" | awk '{printf "%.3f", $2 - $1}')
        fi
        best=$(echo "$t $best" | awk '{t = $1; if ($2 != "" && $2 < t) t = $2; printf "%.3f", t}')
    done
    echo "$best"
}
if [ -x "$bin/sfs_trace" ]; then
    ls -l "$tmp/bench.spc" | awk '{printf "trace file: %.1f MB\n", $5 / 1e6}'
    "$bin/sfs_trace" mrc "$tmp/bench.spc" -q --yaml "$tmp/r.yaml" || exit 1
    refs=$(sed -n 's/^references: //p' "$tmp/r.yaml")
    for m in fenwick judy1; do
        t=$(best_of_3 --method $m)
        echo "$t $refs $m" | awk '{printf "sfs_trace mrc --method %-8s end to end, best of 3: %.2f CPU s, %.2f M refs/s\n", $3, $1, $2 / $1 / 1e6}'
    done
    t=$(best_of_3 --sample 0.01)
    echo "sfs_trace mrc --sample 0.01 end to end, best of 3: $t CPU s"
fi
