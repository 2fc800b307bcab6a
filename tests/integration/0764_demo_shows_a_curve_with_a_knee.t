#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 300
# The demo (scripts/demo.sh with rc/demo_rc, its results moved to this
# test's directory): before the run it says in one line that the points
# are INVALID only because of their short times; LOAD=auto finds this
# machine's peak and runs six points from light load to past it - the
# first gets its request, the last falls short (the knee) - and the demo
# ends with the report's summary: each point's figures and the reasons in
# plain words.  The test's copy of rc/demo_rc has shorter times (1 s
# warm-up, 3 s run, so probes of 1 + 3 s) and 200 files a process: the
# same six points and knee in about half the time.
. "$(dirname "$0")/lib.sh"
plan 9
sed -e "s|^WORK_DIR=.*|WORK_DIR=$T_DIR/res|" -e 's|^WARMUP_TIME=.*|WARMUP_TIME=1|' \
    -e 's|^RUNTIME=.*|RUNTIME=3|' -e 's|^FILE_COUNT=.*|FILE_COUNT=200|' \
    "$T_TOP/rc/demo_rc" >"$T_DIR/demo_rc"
( cd "$T_TOP" && SFS_DEMO_RC="$T_DIR/demo_rc" SFS_DEMO_RESULT="$T_DIR/res" \
    sh scripts/demo.sh ) >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "the demo exits 0"
out=$(cat "$T_DIR/out")
note=$(printf '%s\n' "$out" | grep -n "only because of its short times (warm-up 1 s and run 3 s; SFS requires 300 s each)" | cut -d: -f1)
first=$(printf '%s\n' "$out" | grep -n "Executing run 1 of" | cut -d: -f1)
ok "$([ -n "$note" ] && [ -n "$first" ] && [ "$note" -lt "$first" ]; echo $?)" \
    "one line before the run says why the points will be INVALID"
like "$out" "LOAD=auto: peak [0-9]+ ops/s; points: ([0-9]+ ){5}[0-9]+" "the search chose six points"
sum=$(cat "$T_DIR/res/sfssum.demo")
is "$(printf '%s\n' "$sum" | wc -l)" 6 "six points in sfssum"
req1=$(printf '%s\n' "$sum" | awk 'NR == 1 {print $2}')
got1=$(printf '%s\n' "$sum" | awk 'NR == 1 {print $3}')
req6=$(printf '%s\n' "$sum" | awk 'NR == 6 {print $2}')
got6=$(printf '%s\n' "$sum" | awk 'NR == 6 {print $3}')
ok "$(awk -v r="$req1" -v g="$got1" 'BEGIN {exit !(g >= r * 0.9)}'; echo $?)" \
    "light load: the first point gets its request ($got1 of $req1)"
ok "$(awk -v r="$req6" -v g="$got6" 'BEGIN {exit !(g < r * 0.97)}'; echo $?)" \
    "past the peak: the last point falls short ($got6 of $req6)"
s1=$(printf '%s\n' "$out" | grep -n "^demo: the report's summary " | cut -d: -f1)
s2=$(printf '%s\n' "$out" | grep -n "^==== Summary of 6 run(s) ====$" | cut -d: -f1)
ok "$([ -n "$s1" ] && [ "$((s1 + 1))" = "$s2" ]; echo $?)" "the demo ends with the report's summary ($s1 $s2)"
like "$out" "Run 1 \([0-9]+ ops/s\): [0-9.]+ ops/s, response time [0-9]+\.[0-9]+ ms, p99 " \
    "each point's figures"
like "$out" "Run rules: warm-up 1 s and run time 3 s: both must be 300 s" \
    "the reason in plain words"
