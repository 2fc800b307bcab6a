#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A replay never runs silently for days.  The sysio sample holds two
# streams 123 days apart: at speed 1, without -t, sfs3 refuses it before
# anything is prepared, with one message naming -t and --speed (it used to
# replay for 123 days, -t being ignored).  The plan, printed before anything
# is sent, states the trace's duration and the expected replay time; an
# explicit -t 2 ends the replay after 2 s: what was sent is counted, the
# cut is stated in the report and the YAML (records not replayed).  At
# speed 0 the same trace is replayed whole.
. "$(dirname "$0")/lib.sh"
plan 12
start_nfsd srv || bail "sfs_nfsd did not start"
TRACE=$T_FIXTURES/sysio/sample.trace

"$T_BIN/sfs3" -p 1 --trace "$TRACE" --speed 1 "$srv_URL" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 96 "a 123-day replay without -t is refused (usage exit)"
like "$(cat "$T_DIR/err")" \
    "sample.trace: the replay would take 10624134\.721 s \(123\.0 days\) at speed 1.*pass -t SEC.*--speed 123 or more" \
    "one message: how long, and -t or --speed"
unlike "$(cat "$T_DIR/err")" "Mounting" "before anything is mounted or prepared"

SECONDS=0
out=$("$T_BIN/sfs3" -p 1 --trace "$TRACE" --speed 1 -t 2 --yaml "$T_DIR/t.yaml" \
    "$srv_URL" 2>"$T_DIR/err")
is "$?" 0 "with -t 2 the replay runs" || diag "$(tail -3 "$T_DIR/err")"
ok "$([ "$SECONDS" -lt 30 ]; echo $?)" "and -t ends it ($SECONDS s)"
like "$(head -1 "$T_DIR/err")" \
    "replay plan: .*9 records, 2 streams, 2 files; the trace lasts 10624134\.721 s \(123\.0 days\); at speed 1 the replay takes 10624134\.721 s \(123\.0 days\).*the run time \(-t\) ends it after 2 s" \
    "the plan states the trace's duration, the replay's and the cut, first"
like "$out" "cut by the run time .*: 5 of the trace's 9 records not replayed" \
    "the report states the cut: the second stream's 5 records"
like "$out" "records 4, calls [0-9]+," "the first stream's 4 records were replayed"
y() { awk -v k="$1" '$1 == k":" {print $2; exit}' "$2"; }
is "$(y records "$T_DIR/t.yaml")/$(y records_not_replayed "$T_DIR/t.yaml")/$(y cut "$T_DIR/t.yaml")" \
    "4/5/true" "the YAML: 4 records replayed, 5 not, cut"
is "$(y drift_s "$T_DIR/t.yaml")" "" "no drift is claimed for a cut replay"

"$T_BIN/sfs3" -p 1 --trace "$TRACE" --speed 0 --yaml "$T_DIR/s0.yaml" "$srv_URL" \
    >/dev/null 2>"$T_DIR/err"
is "$?" 0 "at speed 0 the same trace is not refused" || diag "$(tail -3 "$T_DIR/err")"
is "$(y records "$T_DIR/s0.yaml")/$(y records_not_replayed "$T_DIR/s0.yaml")/$(y cut "$T_DIR/s0.yaml")" \
    "9/0/false" "and replays its 9 records, uncut"
