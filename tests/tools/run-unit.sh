#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-unit.sh - runs each cmocka unit test binary given on the command line:
# one line per program with its test count ("test_common_rc  14 tests"),
# its whole output only when it fails (or with V=1), and at the end the
# tests passed and failed over every program.  A program that dies counts
# every test it did not pass as failed.  With FREESFS_TEST_SUMMARY set, the
# totals are also appended there ("unit BUILD PASSED FAILED") for the last
# line of `make test`.  Exits non-zero when any program fails.
pass=0; fail=0; progs=0; failed=""
build=$(basename "$(dirname "$(dirname "${1:-x/x/x}")")")
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
for t in "$@"; do
    name=$(basename "$t")
    "$t" >"$log" 2>&1
    st=$?
    # cmocka: "Running N test(s)", "PASSED  ] N test(s)", "SKIPPED ] N test(s)"
    n=$(sed -n 's/^\[=*\] Running \([0-9]*\) test(s)\..*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\..*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s)\..*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
    f=$((n - p - s))
    [ "$st" -ne 0 ] && [ "$f" -le 0 ] && f=1
    progs=$((progs + 1))
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$st" -ne 0 ]; then
        cat "$log"
        failed="$failed $name"
        printf '  %-32s %4d tests, %d FAILED\n' "$name" "$n" "$f"
    else
        [ "${V:-0}" = 1 ] && cat "$log"
        printf '  %-32s %4d tests%s\n' "$name" "$n" "$([ "$s" -gt 0 ] && echo ", $s skipped")"
    fi
done
[ -n "$failed" ] && echo "FAILED unit test programs:$failed"
echo "unit ($build): $pass tests passed, $fail failed, in $progs programs"
[ -n "${FREESFS_TEST_SUMMARY:-}" ] && echo "unit $build $pass $fail" >>"$FREESFS_TEST_SUMMARY"
[ -z "$failed" ]
