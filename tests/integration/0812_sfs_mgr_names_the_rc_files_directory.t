#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 30
# A file the rc file names (MIXFILE here) is looked for in WORK_DIR, then
# beside the rc file.  When it is in neither, the message names both
# directories as they are: for an rc file given as a bare name that is the
# current directory itself (not "DIR/."), and for sub/x_rc the directory
# sub.
. "$(dirname "$0")/lib.sh"
plan 4
cd "$T_DIR" || bail "no test dir"
mkdir sub
printf 'CLIENTS=localhost\nLOAD=10\nMNT_POINTS=127.0.0.1:1:/export\nMIXFILE=nomix\n' > x_rc
cp x_rc sub/x_rc
err=$("$T_BIN/sfs_mgr" --check -r x_rc 2>&1 >/dev/null)
like "$err" "^x_rc:4: error: MIXFILE: nomix: not found in WORK_DIR \($T_DIR/result\) nor beside the rc file \($T_DIR\)$" \
    "a bare rc name: beside it is the current directory"
unlike "$err" "/\.\)" "no trailing /. in the directory"
err=$("$T_BIN/sfs_mgr" --check -r sub/x_rc 2>&1 >/dev/null)
like "$err" "nor beside the rc file \($T_DIR/sub\)$" "sub/x_rc: beside it is sub"
printf 'dummy\n' > sub/nomix
err=$("$T_BIN/sfs_mgr" --check -r sub/x_rc 2>&1 >/dev/null)
unlike "$err" "MIXFILE: nomix: not found" "a MIXFILE beside sub/x_rc is found there"
