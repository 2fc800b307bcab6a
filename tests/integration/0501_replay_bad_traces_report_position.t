#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A malformed trace stops a replay before anything is sent: one
# "FILE:LINE: message" line (MaStA: entry and byte offset), exit 2, no
# child started.  With --lenient the record is skipped and counted in the
# report and the YAML.  Options out of range name their limits.
. "$(dirname "$0")/lib.sh"
need_cmd python3
plan 10
FX=$T_FIXTURES
nowhere=127.0.0.1:1:/none # never contacted: the plan fails first

bad() {
    local out
    out=$("$T_BIN/sfs3" --trace "$1" "${@:2}" "$nowhere" 2>&1 >/dev/null)
    BAD_RC=$?
    BAD_OUT=$out
}
bad "$FX/spc/seed-example-raw.spc"
is "$BAD_RC" 2 "malformed SPC record: exit 2"
like "$BAD_OUT" "seed-example-raw.spc:9: error: .*timestamp" "SPC: FILE:LINE (line 9)"
is "$(printf '%s\n' "$BAD_OUT" | grep -c .)" 1 "one line"
bad "$FX/masta/truncated.mtr"
like "$BAD_OUT" "truncated.mtr: entry 13 \(offset 104\)" "MaStA: entry and byte offset"
bad "$FX/sysio/bad.trace"
like "$BAD_OUT" "bad.trace:1: error: " "sysio: FILE:LINE (line 1)"
"$T_BIN/sfs" --trace "$FX/spc/seed-example.spc" "$nowhere" >/dev/null 2>"$T_DIR/v2"
like "$(cat "$T_DIR/v2")" "seed-example.spc:1: error: .*NFSv2" \
    "NFSv2: a record beyond 4 GiB is refused with its line"
bad "$FX/spc/seed-example.spc" --speed -1
like "$BAD_OUT" "speed.*0\.\.1e\+06" "--speed out of range names the range"

start_nfsd srv || bail "sfs_nfsd did not start"
"$T_BIN/sfs3" --trace "$FX/spc/seed-example-raw.spc" --lenient --speed 4 --yaml "$T_DIR/r.yaml" \
    "$srv_URL" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "--lenient: the replay runs"
like "$(cat "$T_DIR/err")" "seed-example-raw.spc:9: .*timestamp" "--lenient: the skip is reported"
is "$(python3 -c "
import yaml; r = yaml.safe_load(open('$T_DIR/r.yaml'))['replay']
print(r['records'], r['skipped'], r['calls'])")" "10 1 10" "--lenient: 10 records, 1 skipped, 10 calls"
