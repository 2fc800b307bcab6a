#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-fuzz.sh SECONDS DRIVER... - runs each libFuzzer driver for SECONDS with
# its seed corpus (tests/fuzz/corpus/<driver>/ when present) and a scratch
# corpus under build/, bounded in time and memory.  Fails on any crash.
secs=$1; shift
fail=0
for f in "$@"; do
    name=$(basename "$f")
    work=${FUZZ_OUT:-build/fuzz}/corpus/$name
    mkdir -p "$work"
    seeds=tests/fuzz/corpus/$name
    [ -d "$seeds" ] || seeds=
    echo "fuzz: $name for ${secs}s"
    if ! "$f" -max_total_time="$secs" -rss_limit_mb=1024 -timeout=10 \
        -artifact_prefix="${FUZZ_OUT:-build/fuzz}/" -print_final_stats=0 "$work" $seeds \
        >"${FUZZ_OUT:-build/fuzz}/$name.log" 2>&1; then
        echo "fuzz: $name FAILED (see ${FUZZ_OUT:-build/fuzz}/$name.log)"; tail -30 "${FUZZ_OUT:-build/fuzz}/$name.log"
        fail=1
    fi
done
exit $fail
