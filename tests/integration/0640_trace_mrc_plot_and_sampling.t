#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0640_trace_mrc_plot_and_sampling.t - the miss-ratio curve as a PNG (with
# gnuplot; without it, a note and success), the judy1 method giving the
# same answer as the default, and SHARDS sampling with its error report.
# timeout: 60
. "$(dirname "$0")/lib.sh"
plan 10

F=$T_FIXTURES/sysio/synthetic.trace
if command -v gnuplot >/dev/null 2>&1; then
    "$T_BIN/sfs_trace" mrc -q "$F" --plot "$T_DIR/mrc.png"
    ok $? "mrc --plot runs"
    is "$(head -c 4 "$T_DIR/mrc.png" | tail -c 3)" "PNG" "the picture is a PNG"
else
    skip "gnuplot not installed"; skip "gnuplot not installed"
fi
out=$(PATH=/nonexistent "$T_BIN/sfs_trace" mrc -q "$F" --plot "$T_DIR/none.png" 2>&1)
ok $? "without gnuplot the analysis still succeeds"
like "$out" "gnuplot is not installed" "and says why there is no picture"

"$T_BIN/sfs_trace" mrc -q "$F" --yaml "$T_DIR/f.yaml" --per-unit &&
"$T_BIN/sfs_trace" mrc -q "$F" --yaml "$T_DIR/j.yaml" --per-unit --method judy1
is "$(grep -v 'method\|_bytes\|yaml:' "$T_DIR/j.yaml")" "$(grep -v 'method\|_bytes\|yaml:' "$T_DIR/f.yaml")" \
    "judy1 and the default method give identical output"

"$T_BIN/sfs_trace" mrc -q "$F" --yaml "$T_DIR/t1.yaml" --per-unit --threads 1 &&
"$T_BIN/sfs_trace" mrc -q "$F" --yaml "$T_DIR/t2.yaml" --per-unit --threads 2
is "$(grep -v 'threads\|yaml:' "$T_DIR/t2.yaml")" "$(grep -v 'threads\|yaml:' "$T_DIR/t1.yaml")" \
    "reading on a second thread gives identical output"
"$T_BIN/sfs_trace" mrc -q "$F" --plot "$T_DIR/curve.jpg" >/dev/null 2>&1
is $? 2 "a picture that is neither .png nor .svg is a usage error"

out=$("$T_BIN/sfs_trace" mrc "$F" --sample 1 --sample-check)
like "$out" "mean absolute error of the hit ratio 0.000000" "SHARDS at rate 1 equals exact"
"$T_BIN/sfs_trace" mrc -q "$F" --sample 0.5 --sample-check --yaml "$T_DIR/s.yaml"
like "$(grep -A6 '^sampling:' "$T_DIR/s.yaml")" "hit_ratio_mae: 0\.[0-9]+" "the sample error is in the YAML"
"$T_BIN/sfs_trace" mrc -q "$F" --sample-check >/dev/null 2>&1
is $? 2 "--sample-check without --sample is a usage error"
