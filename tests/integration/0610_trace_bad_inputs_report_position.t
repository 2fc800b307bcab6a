#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0610_trace_bad_inputs_report_position.t - every malformed fixture gives one
# clear message with its position (FILE:LINE for text, entry and byte offset
# for MaStA) and a non-zero exit, never a crash; huge lines, NUL bytes and
# truncated entries included; --lenient skips and counts instead.
# timeout: 60
. "$(dirname "$0")/lib.sh"
plan 22

run() { # run ARGS...: sets OUT (stdout+stderr) and RC
    OUT=$("$T_BIN/sfs_trace" "$@" 2>&1); RC=$?
}
F=$T_FIXTURES
while IFS='|' read -r file msg; do
    run stats -q "$F/$file"
    if [ $RC -eq 1 ] && printf '%s' "$OUT" | grep -qF -- "$F/$file$msg"; then
        pass "$file: $msg"
    else
        fail "$file: $msg"; diag "rc=$RC" "$OUT"
    fi
done <<'EOF2'
spc/bad-missing-field.spc|:3: error: expected at least 5 fields, found 4
spc/bad-nonnumeric-lba.spc|:2: error: LBA '2093984O' is not a decimal integer
spc/bad-opcode.spc|:4: error: opcode 'X' is not R/r/W/w
spc/bad-decreasing-timestamp.spc|:5: error: timestamp 1.209859 smaller than 1.250720 (line 4)
spc/bad-negative-size.spc|:2: error: size '-8192' is not a non-negative integer
spc/bad-timestamp-no-fraction.spc|:3: error: timestamp '1' is not s.d
spc/bad-empty.spc|: no records
spc/bad-missing-asu0.spc|: error: ASU 0 missing
spc/bad-asu-gap.spc|: error: ASU 1 missing
spc/seed-example-raw.spc|:9: error: timestamp '2 448003' is not s.d
masta/truncated.mtr|: entry 13 (offset 104): error: truncated, 5 of 8 bytes
masta/bad-first-entry.mtr|: entry 0 (offset 0): error: not a format version entry
sysio/bad.trace|:1: error: event before any header line
EOF2

run stats -q --lenient "$F/spc/seed-example-raw.spc"
is "$RC" 0 "lenient: the malformed SPC line is skipped"
like "$(printf '%s' "$OUT" | tr '\n' ' ')" "seed-example-raw.spc:9: .*1 malformed records skipped" \
    "lenient: reported and counted"

run mrc -q --lenient --yaml "$T_DIR/bad.yaml" "$F/sysio/bad.trace"
like "$(grep -A3 '^reader:' "$T_DIR/bad.yaml")" "malformed_skipped: 8" \
    "lenient sysio: 8 bad lines counted in the YAML"

# Built here: a 2 MiB line, a NUL byte, a truncated MaStA string, overflow.
{ echo "0,1,512,R,0.1"; head -c 2200000 /dev/zero | tr '\0' 7; echo; echo "0,2,512,R,0.2"; } >"$T_DIR/huge.spc"
run stats -q "$T_DIR/huge.spc"
like "$OUT" "huge.spc:2: error: line longer than" "a huge line is reported with its line number"
run stats --lenient "$T_DIR/huge.spc"
like "$OUT" "records +2" "lenient: the lines after a huge line are read"
printf '0,1,512,R,0.1\n0,2,\000512,R,0.2\n' >"$T_DIR/nul.spc"
run stats -q "$T_DIR/nul.spc"
like "$OUT" "nul.spc:2: error: NUL byte" "a NUL byte is reported with its line number"
printf '\000\005\000\000\000\000\000\000\000\000\000\050abcd' >"$T_DIR/str.mtr"
run stats -q "$T_DIR/str.mtr"
like "$OUT" "str.mtr: entry 2 \(offset 16\): error: truncated inside the string of entry 1" "a truncated MaStA string names its entry"
printf '0,99999999999999999999,512,R,0.1\n' >"$T_DIR/big.spc"
run stats -q "$T_DIR/big.spc"
like "$OUT" "big.spc:1: error: LBA .* below 2\^64" "an LBA beyond 64 bits is refused, not wrapped"
run mrc -q "$T_DIR/nothere.spc"
is "$RC" 1 "a missing file is an error"
