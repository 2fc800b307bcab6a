#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/trace.sh - sfs_trace speed and sampling accuracy (the "sfs_trace"
# section of docs/PERFORMANCE.md).  trace_bench generates three traces from
# a seed at bench time (never committed; 85-87 MB of SPC text each, deleted
# at exit): the bench trace (3.1 M records, 9.0 M references to 1.24 M
# blocks of 4 KiB), the large-footprint one (3.0 M records, 9.1 M
# references to 1.76 M blocks: the same Zipf, loop and cold mix, the cold
# reads 8 KiB at random over 1 TiB) and the flat one (the footprint's mix
# with a flatter Zipf: 2.59 M blocks).  On the first it times the parts
# in one process: parsing alone, the JudyL floor, exact by record and by
# reference, the plain Judy1Count method, sampling at rate 0.001, and a
# table of its error against exact for each of SEEDS hash seeds (10; each
# row: mean absolute error over the sizes 1..2^21 blocks, the worst size,
# and the expected error the run printed); on the second the same parts
# without the error table (and on the third).  Then the whole program runs on all three,
# side by side and alternating, ROUNDS rounds (3), each mode keeping its
# best:
#   stats (parsing plus constant work per record: the parse-only rate of the
#   program), mrc exact on one thread and on two (reading overlapped), mrc
#   --method judy1 (bench trace only), and mrc --sample 0.001;
# with BASELINE=DIR (a bin directory of another build, e.g. main's), that
# build's exact mrc on one and two threads runs in the same rounds, and the
# ratios to it are printed.
# Wall seconds are what a user waits (the second thread only helps when the
# second core is free); CPU seconds are user + system.  RECORDS=N overrides
# the bench trace's size, SEEDS=N the seeds; BENCH_BUILD names the build
# directory.  The accuracy table alone: build/linux/bench/trace_bench
# --accuracy FILE.spc RECORDS SEEDS [DISTANCE_RATE] (FILE.spc is written,
# then analysed).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init sfs_trace
records=${RECORDS:-3100000}
seeds=${SEEDS:-10}
rounds=${ROUNDS:-3}
bench_need "$build/bench/trace_bench" "$bin/sfs_trace"
[ -z "${BASELINE:-}" ] || bench_need "$BASELINE/sfs_trace"
[ -x /usr/bin/time ] || { echo "sfs_trace: /usr/bin/time missing (apt-get install time)"; exit 1; }
echo "== the bench trace, in process"
"$build/bench/trace_bench" "$tmp/bench.spc" "$records" "$seeds" || exit 1
echo "== the large-footprint trace, in process"
"$build/bench/trace_bench" --shape=footprint "$tmp/footprint.spc" 3000000 0 || exit 1
echo "== the flat trace, in process"
"$build/bench/trace_bench" --shape=flat "$tmp/flat.spc" 3000000 0 || exit 1
for t in bench footprint flat; do
    ls -l "$tmp/$t.spc" | awk -v t=$t '{printf "%s trace file: %.1f MB\n", t, $5 / 1e6}'
    "$bin/sfs_trace" mrc "$tmp/$t.spc" -q --yaml "$tmp/$t.yaml" || exit 1
    sed -n 's/^references: //p' "$tmp/$t.yaml" >"$tmp/$t.refs"
    if [ -n "${BASELINE:-}" ]; then # the same curve from the baseline, or stop
        "$BASELINE/sfs_trace" mrc "$tmp/$t.spc" -q --yaml "$tmp/$t.base.yaml" || exit 1
        for y in "$tmp/$t.yaml" "$tmp/$t.base.yaml"; do
            sed -n '/^unique_blocks:/,/^memory:/p' "$y" >"$y.curve"
        done
        cmp -s "$tmp/$t.yaml.curve" "$tmp/$t.base.yaml.curve" ||
            { echo "sfs_trace: $t: the results differ from the baseline's"; exit 1; }
    fi
done

# run TRACE NAME PROGRAM ARGS...: one timed run; appends "TRACE NAME wall
# cpu" to $tmp/times
run() {
    trace=$1 name=$2 prog=$3
    shift 3
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$prog" "$@" "$tmp/$trace.spc" -q \
        >/dev/null || exit 1
    awk -v t="$trace" -v n="$name" '{printf "%s %s %.3f %.3f\n", t, n, $1, $2 + $3}' \
        "$tmp/t" >>"$tmp/times"
}
: >"$tmp/times"
round=0
while [ $round -lt "$rounds" ]; do
    round=$((round + 1))
    for t in bench footprint flat; do
        run $t stats "$bin/sfs_trace" stats --threads 1
        run $t exact-1-thread "$bin/sfs_trace" mrc --threads 1
        run $t exact-2-threads "$bin/sfs_trace" mrc --threads 2
        if [ -n "${BASELINE:-}" ]; then
            run $t base-1-thread "$BASELINE/sfs_trace" mrc --threads 1
            run $t base-2-threads "$BASELINE/sfs_trace" mrc --threads 2
        fi
        [ $t != bench ] || run $t judy1count "$bin/sfs_trace" mrc --method judy1 --threads 1
        run $t sample-0.001 "$bin/sfs_trace" mrc --sample 0.001
    done
done
for t in bench footprint flat; do
    echo "whole program, $t trace, $(cat "$tmp/$t.refs") references, best of $rounds" \
        "alternating rounds:"
    awk -v tr=$t -v refs="$(cat "$tmp/$t.refs")" '
        $1 != tr { next }
        { m = $2; if (!(m in w) || $3 < w[m]) w[m] = $3; if (!(m in c) || $4 < c[m]) c[m] = $4
          if (!(m in seen)) { seen[m] = 1; order[++k] = m } }
        END {
            for (i = 1; i <= k; i++) { m = order[i]
                printf "  %-16s %6.3f s wall %6.2f M refs/s   %6.3f s CPU %6.2f M refs/s\n",
                    m, w[m], refs / w[m] / 1e6, c[m], refs / c[m] / 1e6 }
            if ("judy1count" in w)
                printf "  ratio (wall): exact 2 threads / judy1count %.2fx, exact 1 thread / judy1count %.2fx\n",
                    w["judy1count"] / w["exact-2-threads"], w["judy1count"] / w["exact-1-thread"]
            if ("base-1-thread" in w)
                printf "  ratio to the baseline: 1 thread %.2fx wall %.2fx CPU, 2 threads %.2fx wall %.2fx CPU\n",
                    w["base-1-thread"] / w["exact-1-thread"], c["base-1-thread"] / c["exact-1-thread"],
                    w["base-2-threads"] / w["exact-2-threads"], c["base-2-threads"] / c["exact-2-threads"]
            printf "  sample 0.001 / exact 2 threads %.2fx (wall)\n", w["exact-2-threads"] / w["sample-0.001"]
        }' "$tmp/times"
done
