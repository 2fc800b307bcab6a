#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: nfs synth
# A process's end leaves nothing of its client on sfs_nfsd, also when
# created files were still open: sfs_nfsd answers 30 % of CLOSEs DELAY
# (the client holds each 100 ms), so the population's CREATEs outrun the
# small pool of calls for their CLOSEs. Those wait (queued) and go at the
# end, before DESTROY_CLIENTID, which a server refuses while the client
# holds an open (CLIENTID_BUSY: before, each process left its client
# there). Checked at a normal end and after SIGINT to the process group
# mid-run: 0 clients, 0 sessions, no process left, no CLIENTID_BUSY said.
# Then with a population of 2000 files and 40 % of CLOSEs answered DELAY:
# the CREATEs outran the CLOSEs by far more than the 512 created files
# whose CLOSE may wait, and the files past those were left open for good
# (1335 in a run, the client left on the server with them until its lease
# ran out); now a CREATE waits for room in that queue, and every file is
# closed (a normal end; SIGINT is the first server's part).
. "$(dirname "$0")/lib.sh"
plan 11
start_nfsd N --stats-file "$T_DIR/N.yaml" --seed 1 --error close=DELAY:30 ||
    bail "no server"
sfs4_ends_clean N -l 200 -p 2 -w 1 -F 300 -a 5
ok "$([ "$(nfsd_stat N errors_injected)" -gt 0 ]; echo $?)" \
    "the server answered CLOSEs DELAY ($(nfsd_stat N errors_injected))"
start_nfsd M --stats-file "$T_DIR/M.yaml" --seed 1 --error close=DELAY:40 ||
    bail "no second server"
"$T_BIN/sfs4" -l 400 -p 1 -w 1 -F 2000 -t 3 --progress 0 "$M_URL" \
    >"$T_DIR/m.out" 2>"$T_DIR/m.err"
is "$?" 0 "2000 files: sfs4 exits 0"
is "$(nfsd_stat M clients)/$(nfsd_stat M sessions)" "0/0" "2000 files: no client or session left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/m.err")" 0 "2000 files: no DESTROY_CLIENTID refused"
ok "$([ "$(nfsd_stat M errors_injected)" -gt 0 ]; echo $?)" \
    "the second server answered CLOSEs DELAY ($(nfsd_stat M errors_injected))"
