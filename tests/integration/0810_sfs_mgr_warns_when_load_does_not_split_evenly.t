#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 30
# SFS splits each point's LOAD evenly over the clients and drops the rest
# (LOAD=40 on three clients asks 13 of each: 39 in the report and the
# sfssum line).  sfs_mgr says so at the LOAD line, by --check and by a run,
# before the report shows a smaller requested load than the rc file; a load
# that splits evenly, and a replay (where LOAD only labels the points), get
# no such warning.
. "$(dirname "$0")/lib.sh"
plan 5
cd "$T_DIR" || bail "no test dir"
cat > odd_rc <<'EOR'
CLIENTS="localhost localhost 127.0.0.1"
LOAD="40 60"
MNT_POINTS=127.0.0.1:1:/export
EOR
out=$("$T_BIN/sfs_mgr" --check -r odd_rc 2>"$T_DIR/err")
is "$?" 0 "--check of a LOAD that does not split evenly still exits 0"
like "$(cat "$T_DIR/err")" \
    "^odd_rc:2: warning: LOAD: 40 ops/s over 3 clients: 13 per client, 39 in all" \
    "the warning names the LOAD line, the split and what is really asked"
unlike "$(cat "$T_DIR/err")" "60 ops/s" "60 over 3 clients splits evenly: no warning"
like "$out" "per_client_load: 13 20" "the resolved run shows the split"
sed -e 's/^LOAD=.*/LOAD=40/' odd_rc > replay_rc
printf '0,0,512,R,0.0\n' > t.spc
printf 'TRACE_FILE=%s/t.spc\n' "$T_DIR" >> replay_rc
"$T_BIN/sfs_mgr" --check -r replay_rc >/dev/null 2>"$T_DIR/err2"
unlike "$(cat "$T_DIR/err2")" "per client, .* in all" \
    "a replay's LOAD is only a label: no warning"
