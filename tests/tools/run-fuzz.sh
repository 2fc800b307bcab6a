#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-fuzz.sh SECONDS DRIVER... - runs each libFuzzer driver for SECONDS with
# its seed corpus (tests/fuzz/corpus/<driver>/ when present) and a scratch
# corpus under build/, bounded in time and memory, FUZZ_JOBS (2) drivers at
# a time.  Fails on any crash.
secs=$1; shift
out=${FUZZ_OUT:-build/fuzz}
jobs=${FUZZ_JOBS:-2}

# one driver: its line, and its log's end when it failed
fuzz_one() {
    name=$(basename "$1")
    work=$out/corpus/$name
    mkdir -p "$work"
    seeds=tests/fuzz/corpus/$name
    [ -d "$seeds" ] || seeds=
    if "$1" -max_total_time="$secs" -rss_limit_mb=1024 -timeout=10 \
        -artifact_prefix="$out/" -print_final_stats=0 "$work" $seeds \
        >"$out/$name.log" 2>&1; then
        echo "fuzz: $name for ${secs}s"
    else
        echo "fuzz: $name FAILED (see $out/$name.log)"
        tail -30 "$out/$name.log"
        return 1
    fi
}

fail=0
while [ $# -gt 0 ]; do
    pids=""
    n=0
    while [ $# -gt 0 ] && [ $n -lt "$jobs" ]; do
        fuzz_one "$1" &
        pids="$pids $!"
        n=$((n + 1))
        shift
    done
    for p in $pids; do
        wait "$p" || fail=1
    done
done
exit $fail
