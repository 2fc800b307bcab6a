#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# The lines FreeSFS adds under the summary box describe the SFS mix
# (REALISED MIX: appends, truncations, calls per request; NO-FIT
# transfers) and the SFS pacer (PACING).  A replay has neither, so its
# report leaves them out (it printed "REALISED MIX: 0.0% of 0 write
# requests appended..." and "PACING: 0.00 s behind schedule"); BAD CALLS,
# RETRANSMITTED CALLS and the replay's own lines stay.  A mix run keeps
# them all.
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -p 1 --trace "$T_FIXTURES/spc/seed-example.spc" --speed 0 "$srv_URL" \
    2>"$T_DIR/err")
is "$?" 0 "the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
unlike "$out" "^(REALISED MIX|NO-FIT|PACING):" "no mix or pacing lines in a replay"
like "$out" "^BAD CALLS: 0 " "BAD CALLS stays"
like "$out" "^  records 11, calls 11," "the replay's own lines stay"
out=$("$T_BIN/sfs3" -l 20 -p 1 -w 0 -t 1 -F 20 "$srv_URL" 2>"$T_DIR/err")
like "$out" "^PACING: " "a mix run keeps its PACING line"
