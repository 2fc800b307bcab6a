#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-unit.sh - runs each cmocka unit test binary given on the command line,
# prints its output, and ends with one "N passed, N failed" line.
# Exits non-zero when any binary fails.
pass=0; fail=0; failed=""
for t in "$@"; do
    if "$t"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); failed="$failed $(basename "$t")"
    fi
done
[ -n "$failed" ] && echo "FAILED unit test programs:$failed"
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
