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
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd N --stats-file "$T_DIR/N.yaml" --seed 1 --error close=DELAY:30 ||
    bail "no server"
"$T_BIN/sfs4" -l 200 -p 2 -w 1 -t 3 -F 300 -a 5 --progress 0 "$N_URL" \
    >"$T_DIR/run.out" 2>"$T_DIR/run.err"
is "$?" 0 "sfs4 exits 0"
ok "$([ "$(nfsd_stat N errors_injected)" -gt 0 ]; echo $?)" \
    "the server answered CLOSEs DELAY ($(nfsd_stat N errors_injected))"
# a client holding an open cannot be destroyed: none left, none open
is "$(nfsd_stat N clients)/$(nfsd_stat N sessions)" "0/0" \
    "normal end: no client or session left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/run.err")" 0 "normal end: no DESTROY_CLIENTID refused"

setsid "$T_BIN/sfs4" -l 200 -p 2 -w 1 -t 60 -F 300 -a 5 --progress 0 "$N_URL" \
    >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
track "$pid"
wait_for "grep -q 'Starting 60 seconds' '$T_DIR/int.err'" 400 0.05
kill -INT -- "-$pid"
wait "$pid"
is "$?" 130 "SIGINT: exit 130"
left=$(pgrep -g "$pid" | tr '\n' ' ')
is "$(nfsd_stat N clients)/$(nfsd_stat N sessions)/$left" "0/0/" \
    "SIGINT: no client, session or process left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/int.err")" 0 "SIGINT: no DESTROY_CLIENTID refused"
