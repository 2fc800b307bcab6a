#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-integration.sh - runs tests/integration/*.t through prove (TAP).
# Each test gets a wall-clock limit (scaled by FREESFS_TEST_TIMEOUT_MULTIPLIER)
# enforced by tests/tools/with-timeout; ONLY=pattern narrows the set,
# EXCEPT=pattern leaves the matching tests out (e.g. EXCEPT=082 while another
# run on the machine holds the fixed-name namespace test bed), SUITE=check
# keeps the quick suite's, those with a "# check: LAYER..." line in their
# first 25 lines (`make check`; 0001_layering.t checks that they cover
# every layer).  PROVE_JOBS sets how many run at once (3).  Ends with
# the checks passed and failed; with FREESFS_TEST_SUMMARY set they are also
# appended there ("integration - PASSED FAILED") for `make test`'s last line.
cd "$(dirname "$0")/../.." || exit 1
pattern=${ONLY:-}
except=${EXCEPT:-}
set --
for t in tests/integration/*.t; do
    [ -e "$t" ] || continue
    case "$t" in *"$pattern"*) ;; *) continue ;; esac
    if [ -n "$except" ]; then
        case "$t" in *"$except"*) continue ;; esac
    fi
    if [ "${SUITE:-}" = check ]; then
        head -25 "$t" | grep -q '^# check: ' || continue
    fi
    set -- "$@" "$t"
done
if [ $# -eq 0 ]; then
    echo "no integration tests"; exit 0
fi
# The order: the longest first, by tests/integration/durations (seconds and
# name per line, as measured by a whole run: build/integration-durations),
# a test not in it as if it took 60 s; so that no long test starts last
# and runs alone while the other job idles.  The tests that run nfs-ganesha
# (one at a time machine-wide, tests/tools/with-timeout) are one sequence
# beside the rest, served first (tests/tools/prove-ordered): two of them
# never hold both jobs, one waiting for the other's ganesha.
# shellcheck disable=SC2046 # test names hold no blanks
set -- $(printf '%s\n' "$@" |
    awk 'FILENAME != "-" { took[$2] = $1; next }
         { n = $0; sub(/.*\//, "", n); printf "%d %s\n", (n in took) ? took[n] : 60, $0 }' \
        tests/integration/durations - | sort -k1,1nr -k2,2 | cut -d' ' -f2)
log=$(mktemp) || exit 2
trap 'rm -f "$log" "$log.st" "$log.serial"' EXIT
sh tests/tools/uses-ganesha "$@" >"$log.serial"
# prove's own lines as they come, with each failed check's line (a CI log
# keeps only its tail: the summary alone names no reason); its summary
# read back for the totals
{
    perl tests/tools/prove-ordered "${PROVE_JOBS:-3}" tests/tools/with-timeout "$log.serial" "$@"
    echo $? >"$log.st"
} 2>&1 | tee "$log"
st=$(cat "$log.st" 2>/dev/null || echo 1)
# each test's seconds, for tests/integration/durations (a whole run's are
# the ones to copy there)
mkdir -p build
sed -n 's/^\[[0-9:]*\] tests\/integration\/\([^ ]*\.t\) .* \([0-9][0-9]*\) ms.*/\2 \1/p' "$log" |
    awk '{ printf "%d %s\n", ($1 + 500) / 1000, $2 }' | sort -k1,1nr -k2,2 >build/integration-durations
total=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/.*(Wstat: .* Tests: [0-9]* Failed: \([0-9]*\)).*/\1/p' "$log" |
    awk '{s += $1} END {print s + 0}')
files=$(grep -cE '\(Wstat: [1-9]|Failed: [1-9]' "$log")
[ "$st" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
total=${total:-0}
echo "integration: $((total - failed)) checks passed, $failed failed ($files test file(s) with a problem)"
[ -n "${FREESFS_TEST_SUMMARY:-}" ] &&
    echo "integration - $((total - failed)) $failed" >>"$FREESFS_TEST_SUMMARY"
exit "$st"
