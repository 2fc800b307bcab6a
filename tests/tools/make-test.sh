#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make-test.sh [test|check] - `make test`, the README's test command, or
# `make check`, the quick suite: every stage runs whatever failed before
# it, and the run ends with one line per stage and the summary line,
# non-zero when anything failed (docs/TESTING.md, "make test and make
# check").
#
# The build comes first (everything else needs its programs).  Then two
# lines of work run side by side: the integration tests in the foreground -
# they mostly wait on servers, clocks and peers, so they use little CPU -
# and, niced so that they take what the tests leave, the CPU-bound stages
# in two lines: the unit tests, the unit tests again under ASan/UBSan and
# the short fuzz run; the style checks (the clang build's warnings, lint,
# format).  When the integration tests end, what is left of those stages
# runs at the script's own priority (as far as the user may raise it):
# beside other work, niced stages got a tenth of a CPU and the run's last
# 15 minutes were a fuzz build alone.  Then whether the gcc builds needed
# more than -Werror allowed.
# Their output goes to build/test-logs/STAGE.log; a stage's last line (or,
# when it failed, its log's end) is printed when it ends.  `make check` has the same two lines:
# the unit tests (one build) beside the integration tests of its set
# (SUITE=check, tests/tools/run-integration.sh).
#
#   tests/tools/make-test.sh [test|check]
#
# FREESFS_TEST_SUMMARY (set by the Makefile) is where the runners append
# their counts and this script each stage's result ("stage NAME STATUS
# SECONDS"); tests/tools/test-summary.sh reads it back.
set -u
suite=${1:-test}
cd "$(dirname "$0")/../.." || exit 2
: "${FREESFS_TEST_SUMMARY:=$PWD/build/$suite-summary}"
export FREESFS_TEST_SUMMARY
logs=build/$suite-logs
mkdir -p "$logs" || exit 2
rm -f "$FREESFS_TEST_SUMMARY" "$logs"/*.log
MAKE=${MAKE:-make}
t_start=$(date +%s)

# niced COMMAND...: COMMAND niced below the integration tests while they
# run, at the script's own priority after (the flag file).
own_nice=$(nice)
tests_done=$logs/integration-done
niced() {
    if [ -e "$tests_done" ]; then "$@"; else nice -n 10 "$@"; fi
}
# unniced PID...: the processes below PIDs back at the script's priority,
# and the stages still to start too.  Lowering a niceness needs privilege
# (root, as CI runs): without it they stay niced, as before.
unniced() {
    : >"$tests_done"
    # shellcheck disable=SC2046
    renice -n "$own_nice" -p $(ps -eo pid=,ppid= | awk -v roots=" $* " '
        { parent[$1] = $2 }
        END {
            for (p in parent)
                for (q = p; q in parent && q > 1; q = parent[q])
                    if (index(roots, " " parent[q] " ")) { print p; break }
        }') >/dev/null 2>&1
    return 0
}

# stage NAME COMMAND...: runs COMMAND, records its status and wall time.
stage() {
    st_name=$1
    shift
    st_t0=$(date +%s)
    "$@"
    st_rc=$?
    echo "stage $st_name $st_rc $(($(date +%s) - st_t0))" >>"$FREESFS_TEST_SUMMARY"
    return $st_rc
}

# quiet NAME COMMAND...: a stage whose output goes to its log; says that
# it passed (with the tests' count line, if any), or shows the log's end.
quiet() {
    q_name=$1
    q_log=$logs/$1.log
    shift
    if stage "$q_name" "$@" >"$q_log" 2>&1; then
        echo "$q_name: passed$(grep -E '^[a-z-]+ \([a-z]+\): [0-9]+ tests passed' "$q_log" |
            tail -1 | sed 's/^/ - /')"
    else
        echo "$q_name: FAILED (the end of $q_log):"
        tail -40 "$q_log" | sed 's/^/  | /'
    fi
}

# werror_make WHAT COMMAND...: the make COMMAND with -Werror, as `make
# warnings` builds; when that fails, WHAT is noted for the warnings stage
# and COMMAND runs again without it. A warning fails the warnings stage,
# never the tests, which run on the build without it; and `make test`
# builds each tree once, not once more for the warnings (those two
# builds were a third of the CPU-bound stages' time).
werror_failed=$logs/werror-failed
werror_make() {
    wm_what=$1
    shift
    "$@" WERROR=-Werror && return 0
    echo "$wm_what" >>"$werror_failed"
    echo "$wm_what: -Werror failed (above); built again without it"
    "$@"
}
# unit_stage WRAPPER WHAT: the unit tests of WRAPPER's build, that build
# (all of it: the warnings stage counts on it) made with -Werror first.
unit_stage() {
    werror_make "$2" niced "$MAKE" -j2 -f "$1" all unit-bins &&
        niced "$MAKE" -j2 -f "$1" unit
}
# gcc_warnings: fails when a build above needed more than -Werror allowed.
gcc_warnings() {
    if [ -s "$werror_failed" ]; then
        echo "warnings: -Werror failed in: $(paste -sd, "$werror_failed")"
        return 1
    fi
    echo "warnings: none in the gcc builds"
}
rm -f "$werror_failed" "$tests_done"

if [ "$suite" = check ]; then
    stage build "$MAKE" -j2 -f M.wrappers/M.linux all unit-bins
    (quiet unit niced "$MAKE" -f M.wrappers/M.linux unit) &
    side=$!
    stage integration env SUITE=check sh tests/tools/run-integration.sh
    unniced "$side"
    wait "$side"
else
    sh scripts/install-deps --if-root
    stage build werror_make "gcc (M.linux)" "$MAKE" -j2 -f M.wrappers/M.linux all
    # the CPU-bound stages, niced, beside the integration tests, in two
    # lines: one line of them ended 140 s after the integration tests on
    # the quiet machine (their unit-test runs, fuzz drivers and cppcheck
    # use one CPU at a time, which left the other idle)
    (
        quiet unit unit_stage M.wrappers/M.linux "gcc (M.linux, unit tests)"
        quiet unit-asan unit_stage M.wrappers/M.debug "gcc (M.debug, ASan/UBSan)"
        quiet fuzz niced "$MAKE" -f M.wrappers/M.linux fuzz-test
    ) &
    side=$!
    (
        quiet warnings-clang niced "$MAKE" -j2 warnings-clang
        quiet lint niced "$MAKE" lint
        quiet format niced "$MAKE" format-check
    ) &
    side2=$!
    stage integration sh tests/tools/run-integration.sh
    unniced "$side" "$side2"
    wait "$side" "$side2"
    quiet warnings-gcc gcc_warnings
fi

echo "make $suite: $(($(date +%s) - t_start)) s in all"
exec sh tests/tools/test-summary.sh "$FREESFS_TEST_SUMMARY" "make $suite"
