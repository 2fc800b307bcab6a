#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0669_trace_fit_of_a_short_trace_says_what_it_assumed.t - sfs_trace fit
# of a capture of 13 ms with no WRITE (tests/fixtures/pcap/session.pcap):
# where the trace measured nothing, the rc file and the report say what
# the fit took instead - the rate over the second a shorter trace counts
# as, SFS's default APPEND_PCNT - rather than a figure of the trace that
# does not exist ("of the 0 WRITE requests ... 0 started at the file's
# end" above APPEND_PCNT=70); and the rc file it writes parses.
# timeout: 60
# check: analyze
. "$(dirname "$0")/lib.sh"
plan 7

cd "$T_DIR" || bail "no test directory"
"$T_BIN/sfs_trace" fit "$T_FIXTURES/pcap/session.pcap" -o short >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "fit of a 13 ms capture exits 0"
out=$(cat "$T_DIR/out")
rc=$(cat "$T_DIR/short_rc")
like "$(head -1 "$T_DIR/out")" "in 0\.013 s, the model's 7\.0 calls/s \(the trace counted as 1 s\)" \
    "the report's first line says the rate is over the second the trace counts as"
like "$rc" "# LOAD: the trace's rate, 7\.0 calls/s over 0\.013 s counted as 1 s " \
    "the rc file's LOAD comment says so too"
is "$(grep -B2 '^APPEND_PCNT=' "$T_DIR/short_rc")" "# APPEND_PCNT: no WRITE request of a file whose size was known, so SFS's
# default
APPEND_PCNT=70" "APPEND_PCNT: SFS's default, said to be one"
like "$out" "appends: 70 % \(SFS's default: no WRITE request of a known size\)" \
    "the report's model says the appends are SFS's default"
like "$out" "the file set is taken as large as the working set" \
    "the note on the file set says what it was taken as"
"$T_BIN/sfs_rc" check "$T_DIR/short_rc" >/dev/null 2>"$T_DIR/rc_err"
is "$?" 0 "the rc file parses ($(head -c 200 "$T_DIR/rc_err"))"
