#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# Population survives packet loss: with 5 % of the replies
# dropped, `sfs3 -P -F 1000` finishes its setup within 60 s (lost
# population calls are sent again after a few measured round trips, not
# after the 10 s Init timer).  Before, it did not finish in 300 s.
. "$(dirname "$0")/lib.sh"
plan 3
start_nfsd lossy --drop-replies 5 || bail "sfs_nfsd did not start"
t0=$(date +%s)
timeout 100 "$T_BIN/sfs3" -P -F 1000 "$lossy_URL" >/dev/null 2>"$T_DIR/err"
rc=$?
t1=$(date +%s)
is "$rc" 0 "population completes under 5 % reply loss"
ok "$(test $((t1 - t0)) -le 60; echo $?)" "within 60 s ($((t1 - t0)) s)"
like "$(cat "$T_DIR/err")" "Populate only: done" "and says so"
