#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# check: load client bin
# Bad input never starts a run: a bad option value gives one line naming
# the option and its range; -c is refused (104); a wrong mount-point count
# exits 182; every defective mix or block-size file gives "FILE:LINE:" and
# a non-zero exit.  No server is needed: all of this fails before mounting.
. "$(dirname "$0")/lib.sh"
mixes="bad-header bad-unknown-op bad-v1-short bad-version-3"
bsds="bad-frag bad-row bad-section bad-sum bad-twice"
plan $((8 + 2 * $(echo $mixes $bsds | wc -w)))
mp=127.0.0.1:9:/export

err=$("$T_BIN/sfs3" -l -5 "$mp" 2>&1 >/dev/null); rc=$?
ok "$([ $rc -ne 0 ]; echo $?)" "-l -5 exits non-zero ($rc)"
is "$(printf '%s\n' "$err" | wc -l)" 1 "one line"
like "$err" "^sfs3: .*-l.*1\.\.10000000" "the line names -l and its range"
err=$("$T_BIN/sfs" -R 33 "$mp" 2>&1 >/dev/null)
like "$err" "-R.*0\.\.32" "-R 33 names the biod range"
"$T_BIN/sfs3" -c 100 "$mp" >/dev/null 2>&1
is "$?" 104 "-c: no longer supported (104)"
"$T_BIN/sfs3" -p 4 "$mp" "$mp" "$mp" >/dev/null 2>&1
is "$?" 182 "three mount points for four children: 182"
err=$("$T_BIN/sfs3" -T 3 "$mp" 2>&1 >/dev/null)
ok "$([ -n "$err" ]; echo $?)" "-T 3 (root) is refused for NFSv3"
"$T_BIN/sfs3" -l 10 -p 1 -w 0 -t 1 -F 10 127.0.0.1:1:/export >/dev/null 2>"$T_DIR/err"
ok "$([ $? -ne 0 ] && grep -q 'Unable to mount' "$T_DIR/err"; echo $?)" \
    "no server: non-zero exit and 'Unable to mount'"
for m in $mixes; do
    f=$T_FIXTURES/mix/$m.mix
    err=$("$T_BIN/sfs3" -m "$f" "$mp" 2>&1 >/dev/null)
    is "$?" 2 "$m.mix: exit 2"
    like "$err" "^$f:[0-9]+: " "$m.mix: FILE:LINE: message"
done
for b in $bsds; do
    f=$T_FIXTURES/iodist/$b.bsd
    err=$("$T_BIN/sfs3" -b "$f" "$mp" 2>&1 >/dev/null)
    is "$?" 2 "$b.bsd: exit 2"
    like "$err" "^$f:[0-9]+: " "$b.bsd: FILE:LINE: message"
done
