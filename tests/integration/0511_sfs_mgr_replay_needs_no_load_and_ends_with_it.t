#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# A replay under sfs_mgr (docs/replay.md, "With sfs_mgr"): its points are
# TRACE_SPEED's, so an rc file without LOAD is accepted (LOAD plays no
# part), and a point ends when its replay does - every client reports its
# run done and the prime stops waiting - not RUNTIME seconds later with an
# idle tail measured as the point's (a 2.4 s trace under RUNTIME=60: two
# points in seconds, not in two minutes).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 6
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/noload_rc
prime_rc "$rc" 'CLIENTS="localhost localhost"' PROCS=2 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=60 "TRACE_FILE=$T_FIXTURES/spc/seed-example.spc" \
    'TRACE_SPEED="1 2"' "WORK_DIR=$T_DIR/res"
check=$("$T_BIN/sfs_mgr" --check -r "$rc" 2>&1)
is "$?" 0 "--check accepts a replay's rc file without LOAD"
unlike "$check" "LOAD" "and says nothing of LOAD"
start=$(date +%s)
"$T_BIN/sfs_mgr" -r "$rc" -s n --progress 1 >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr runs it ($(tr '\n' ' ' <"$T_DIR/err"))"
took=$(($(date +%s) - start))
ok "$([ "$took" -lt 40 ]; echo $?)" \
    "each point ended with its replay, not 60 s later (both took $took s)"
is "$(wc -l <"$T_DIR/res/sfssum.n" 2>/dev/null)" 2 "one sfssum line per speed"
# a progress line a second: the 2.4 s of the trace, no idle tail after it
lines=$(grep -Ec "run 1 of 2: run [0-9]+/60 s: " "$T_DIR/res/sfslog.n")
ok "$([ "$lines" -le 5 ]; echo $?)" "the first point's run has progress lines for its replay only ($lines)"
