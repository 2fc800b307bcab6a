#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 30
# sfssum.SFX is appended to, as in SFS: running the same rc file and suffix
# again (make demo twice) puts the new points after the old ones in that
# file, while the YAML and the curve show the new run only.  sfs_mgr warns
# before the run when the suffix's sfssum file already has lines, and says
# nothing for a new suffix.  (The earlier run is a file written here; the
# points fail at once: nothing answers at port 1.)
. "$(dirname "$0")/lib.sh"
plan 4
cd "$T_DIR" || bail "no test dir"
printf 'CLIENTS=localhost\nLOAD=10\nPROCS=1\nMNT_POINTS=127.0.0.1:1:/export\n' > a_rc
mkdir result
printf 'INVALID %6d %7d %7.1f %8d %4d 3 U %10d %2d %2d %2d %2d 3.0\n' \
    10 10 0.1 100 10 1040 1 1 2 2 > result/sfssum.old
"$T_BIN/sfs_mgr" -r a_rc -s old >/dev/null 2>"$T_DIR/err"
like "$(cat "$T_DIR/err")" \
    "sfs_mgr: warning: $T_DIR/result/sfssum\.old already holds 1 line\(s\) of an earlier run" \
    "a suffix with sfssum lines: warned before the run"
like "$(cat "$T_DIR/err")" "give -s a new suffix" "the warning says how to keep runs apart"
is "$(wc -l < result/sfssum.old)" 1 "the earlier line is kept"
"$T_BIN/sfs_mgr" -r a_rc -s new >/dev/null 2>"$T_DIR/err2"
unlike "$(cat "$T_DIR/err2")" "already holds" "a new suffix: no warning"
