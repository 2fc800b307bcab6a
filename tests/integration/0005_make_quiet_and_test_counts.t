#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0005_make_quiet_and_test_counts.t - the build prints no command lines
# unless V=1 (built into a directory of the test's own, so the tree's
# programs are never touched); the unit-test runner names each program with
# its test count, shows a program's output only when it fails, and ends
# with the tests passed and failed over all programs (not the programs);
# the integration runner ends with its checks passed and failed, and `make
# test`'s last line sums what both recorded.
# timeout: 120
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"
U=build/linux/tests
[ -x "$U/test_common_rc" ] || skip_all "the unit tests are not built (make unit)"
plan 11

B=$T_DIR/b
out=$(make -f M.wrappers/M.linux BUILD="$B" BINDIR="$B/bin" "$B/obj/common/rc.o" 2>&1)
ok $? "an object builds quietly"
unlike "$out" "gcc|rpcgen|cc |ar rcs|Entering directory" "with no command lines"
rm -f "$B/obj/common/rc.o"
out=$(make -f M.wrappers/M.linux BUILD="$B" BINDIR="$B/bin" V=1 "$B/obj/common/rc.o" 2>&1)
like "$out" "^gcc .*-c -o $B/obj/common/rc.o src/common/rc.c" "V=1 shows them"

n_rc=$("$U/test_common_rc" 2>&1 | sed -n 's/^\[=*\] Running \([0-9]*\) test(s)\./\1/p')
n_plot=$("$U/test_common_plot" 2>&1 | sed -n 's/^\[=*\] Running \([0-9]*\) test(s)\./\1/p')
out=$(FREESFS_TEST_SUMMARY=$T_DIR/sum sh tests/tools/run-unit.sh "$U/test_common_rc" "$U/test_common_plot")
is "$?" 0 "two passing unit programs"
like "$out" "^  test_common_rc +$n_rc tests$" "each named with its test count"
unlike "$out" "\\[ RUN|\\[       OK" "without their test-by-test lines"
is "$(printf '%s\n' "$out" | tail -1)" \
    "unit (linux): $((n_rc + n_plot)) tests passed, 0 failed, in 2 programs" \
    "the last line counts tests, not programs"

# a program that fails: its output is shown and its failed tests counted
mkdir -p "$T_DIR/fail/x/tests"
cat >"$T_DIR/fail/x/tests/test_stand_in" <<'EOS'
#!/bin/sh
echo "[==========] Running 3 test(s)."
echo "[  ERROR   ] --- 1 != 2"
echo "[  PASSED  ] 2 test(s)."
exit 1
EOS
chmod +x "$T_DIR/fail/x/tests/test_stand_in"
out=$(FREESFS_TEST_SUMMARY=$T_DIR/sum sh tests/tools/run-unit.sh "$U/test_common_rc" \
    "$T_DIR/fail/x/tests/test_stand_in")
is "$?" 1 "a failing program fails the run"
like "$out" "1 != 2" "its output is shown"
is "$(printf '%s\n' "$out" | tail -1)" "unit (linux): $((n_rc + 2)) tests passed, 1 failed, in 2 programs" \
    "and its failed test counted"

echo "integration - 700 0" >>"$T_DIR/sum"
is "$(sh tests/tools/test-summary.sh "$T_DIR/sum")" \
    "make test: $((n_rc + n_plot + n_rc + 2 + 700)) checks passed, 1 failed (unit $((n_rc + n_plot + n_rc + 2)) passed, 1 failed; integration 700 passed, 0 failed)" \
    "make test's last line sums every kind"
