#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# coverage.sh - what `make coverage` runs: builds the gcov-instrumented tree
# (M.wrappers/M.coverage, everything under build/coverage), clears old
# counters, runs the unit tests and the integration tests on that build
# (FREESFS_BIN points the .t scripts at build/coverage/bin), then prints line
# and branch coverage per layer and the files with the most lines never run
# (tests/tools/coverage-table.py).  The table is also left in
# build/coverage/coverage.md, ready to paste into docs/TESTING.md.
#
#   make coverage                  unit + integration (the `make test` figure)
#   COVERAGE_ONLY=unit make coverage   the unit tests alone
#   ONLY=07 make coverage          integration narrowed as for `make integration`
#
# Exits non-zero when a test failed (the figures are printed all the same:
# a timing test that failed under -O0 instrumentation still ran its code).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=build/coverage
command -v gcovr >/dev/null || {
    echo "coverage: needs gcovr (scripts/install-deps)" >&2
    exit 1
}
mkdir -p "$B"
# the default build too: runsfs (0904) copies what M.linux builds, bin/
{ make -j2 all && make -j2 -f M.wrappers/M.coverage all unit-bins tools; } >"$B/build.log" 2>&1 || {
    tail -20 "$B/build.log" >&2
    echo "coverage: the instrumented build failed (log: $B/build.log)" >&2
    exit 1
}
find "$B" -name '*.gcda' -delete
status=0
make -f M.wrappers/M.coverage unit >"$B/unit.log" 2>&1 || status=1
tail -1 "$B/unit.log"
summary() { # summary OUT.json: gcovr's per-file figures for src/ so far
    gcovr -r . -j 2 --filter 'src/' --exclude-unreachable-branches \
        --json-summary "$1" "$B" >"$B/gcovr.log" 2>&1 || {
        tail -20 "$B/gcovr.log" >&2
        exit 1
    }
}
summary "$B/unit.json"
if [ "${COVERAGE_ONLY:-}" != unit ]; then
    FREESFS_BIN=$PWD/$B/bin sh tests/tools/run-integration.sh >"$B/integration.log" 2>&1 ||
        status=1
    grep -E '^(Result|Files=)' "$B/integration.log"
fi
[ $status -eq 0 ] || echo "coverage: some tests failed (logs: $B/unit.log, $B/integration.log)"
if [ "${COVERAGE_ONLY:-}" = unit ]; then
    python3 tests/tools/coverage-table.py "$B/unit.json" | tee "$B/coverage.md"
else
    summary "$B/summary.json"
    python3 tests/tools/coverage-table.py "$B/summary.json" "$B/unit.json" |
        tee "$B/coverage.md"
fi
exit $status
