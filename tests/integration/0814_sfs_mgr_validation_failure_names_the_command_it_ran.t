#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# sfs_mgr -v runs the validation suite before the points; when the server
# fails it, the message gives the command that ran - over TCP (TCP=1)
# that includes -Q, as the first line of sfsval.SFX does - so that the user
# can run the same check by hand.  Nothing answers at port 1: exit 3.
. "$(dirname "$0")/lib.sh"
plan 3
cd "$T_DIR" || bail "no test dir"
printf 'CLIENTS=localhost\nLOAD=10\nPROCS=1\nMNT_POINTS=127.0.0.1:1:/export\nTCP=1\n' > tcp_rc
"$T_BIN/sfs_mgr" -v 1 -r tcp_rc -s v >/dev/null 2>"$T_DIR/err"
is "$?" 3 "the server failed validation: exit 3"
like "$(cat "$T_DIR/err")" "VALIDATION FAILED: sfs -V 1 -Q 127\.0\.0\.1:1:/export ended" \
    "the message names the command with -Q"
like "$(head -1 result/sfsval.v)" "/sfs -V 1 -Q 127\.0\.0\.1:1:/export$" \
    "the same command as sfsval.v's first line"
