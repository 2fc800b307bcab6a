#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 30
# When every point fails (here: no NFS server at the mount point's port),
# sfs_mgr writes no sfssum file, so its closing lines must not point at one:
# "Summary: no sfssum line (no point was measured)" instead of
# "Summary (WORK_DIR/sfssum.SFX):" over nothing.  The report and the YAML
# it names exist, and the exit status is 1 (a point failed).
. "$(dirname "$0")/lib.sh"
plan 5
cd "$T_DIR" || bail "no test dir"
cat > dead_rc <<'EOR'
CLIENTS=localhost
LOAD=10
PROCS=1
MNT_POINTS=127.0.0.1:1:/export
WARMUP_TIME=1
RUNTIME=1
FILE_COUNT=10
EOR
out=$("$T_BIN/sfs_mgr" -r dead_rc -s dead 2>"$T_DIR/err")
is "$?" 1 "a failed point: exit 1"
ok "$([ ! -e result/sfssum.dead ]; echo $?)" "no sfssum file was written"
unlike "$out" "Summary \(" "no summary line names a file that does not exist"
like "$out" "Summary: no sfssum line \(no point was measured\)" "it says why there is none"
ok "$([ -s result/sfsres.dead ] && [ -s result/sfsres.dead.yaml ]; echo $?)" \
    "the report and the YAML the last lines name are there"
