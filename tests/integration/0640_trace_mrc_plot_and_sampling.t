#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0640_trace_mrc_plot_and_sampling.t - the miss-ratio curve as a PNG (with
# gnuplot; without it, a note and success) whose path is printed, checked
# for its elements through a recording gnuplot that keeps the script (cache
# sizes in bytes with KiB/MiB tics, blocks on the axis above, the legend
# below the curve, every point off the frame); the judy1 method giving the
# same answer as the default, and SHARDS sampling with its error report.
# timeout: 60
. "$(dirname "$0")/lib.sh"
plan 16

F=$T_FIXTURES/sysio/synthetic.trace
if command -v gnuplot >/dev/null 2>&1; then
    out=$("$T_BIN/sfs_trace" mrc -q "$F" --plot "$T_DIR/mrc.png")
    ok $? "mrc --plot runs"
    is "$(head -c 4 "$T_DIR/mrc.png" | tail -c 3)" "PNG" "the picture is a PNG"
    is "$out" "Picture: $T_DIR/mrc.png" "and its path is printed"
    # a gnuplot that keeps the script the analyser wrote, then draws an SVG
    mkdir -p "$T_DIR/rec"
    printf '#!/bin/sh
cp "$1" "%s/rec/script.gp"
exec %s "$@"
' "$T_DIR"         "$(command -v gnuplot)" >"$T_DIR/rec/gnuplot"
    chmod +x "$T_DIR/rec/gnuplot"
    PATH=$T_DIR/rec:$PATH "$T_BIN/sfs_trace" mrc -q "$F" --plot "$T_DIR/mrc.svg" >/dev/null
    gp=$(tr "\n" " " <"$T_DIR/rec/script.gp" 2>/dev/null)
    like "$gp" "set xlabel 'cache size \(bytes\)'" "the cache size is in bytes"
    like "$gp" "set xtics nomirror \('4 KiB' 4096, .*'1 MiB' 1048576"         "with tics in KiB and MiB at powers of two"
    like "$gp" "set x2label 'cache size \(blocks of 4096 B\)'.*set x2tics \('1' 1, "         "blocks on the axis above"
    like "$gp" "set key below" "the legend below the curve, off it"
    lo=$(sed -n 's/^set xrange \[\([^:]*\):.*/\1/p' "$T_DIR/rec/script.gp")
    ok "$(awk -v lo="$lo" 'BEGIN { exit !(lo < 4096) }'; echo $?)" \
        "the smallest cache size is off the frame"
else
    for i in 1 2 3 4 5 6 7 8; do skip "gnuplot not installed"; done
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
