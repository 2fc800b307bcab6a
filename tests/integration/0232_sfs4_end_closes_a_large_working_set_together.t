#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 150
# check: nfs synth
# A process's end CLOSEs its working set's files together, not one at a
# time: with 316 files in each process's working set and 30 % of CLOSEs
# answered DELAY by sfs_nfsd (the client holds each 100 ms), one CLOSE
# after another takes about 9 s, past the end's 2 s bound and the 3 s
# after which an interrupted run's parent kills its children (leaving
# their clients on the server until their leases run out). Sent on every
# slot of the session, they are answered well within it: after a normal
# end and after SIGINT to the process group mid-run, 0 clients and 0
# sessions are left, no process, and no DESTROY_CLIENTID was refused.
. "$(dirname "$0")/lib.sh"
plan 10
start_nfsd N --stats-file "$T_DIR/N.yaml" --seed 1 --error close=DELAY:30 ||
    bail "no server"
# -F 700 -p 2: 351 io files per process, -a 90: 316 of them its working set
# (fewer files than the 512 created files whose CLOSEs may wait: none of
# the population's is left open)
"$T_BIN/sfs4" -l 200 -p 2 -w 1 -t 3 -F 700 -a 90 --progress 0 --yaml "$T_DIR/run.yaml" \
    "$N_URL" >"$T_DIR/run.out" 2>"$T_DIR/run.err"
rc=$?
is "$rc" 0 "sfs4 exits 0"
[ "$rc" = 0 ] || diag "$(tail -3 "$T_DIR/run.err")"
is "$(sed -n 's/^ *working_io_files: //p' "$T_DIR/run.yaml" | head -1)" 632 \
    "the two processes' working sets: 632 files"
is "$(sed -n 's/^ *files_open_max: //p' "$T_DIR/run.yaml" | head -1)" 632 \
    "the two processes held all 632 open"
# the working set enters after population and leaves at the end: no
# process waited on its OPENs or CLOSEs in the run phase
is "$(sed -n 's/^ *open_close_wait_s: //p' "$T_DIR/run.yaml" | head -1)/$(sed -n \
    's/^ *slow_working_set_closes: //p' "$T_DIR/run.yaml" | head -1)" "0.000/0" \
    "the run phase waited on no working-set OPEN or CLOSE"
ok "$([ "$(nfsd_stat N errors_injected)" -gt 0 ]; echo $?)" \
    "the server answered CLOSEs DELAY ($(nfsd_stat N errors_injected))"
is "$(nfsd_stat N clients)/$(nfsd_stat N sessions)" "0/0" \
    "normal end: no client or session left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/run.err")" 0 "normal end: no DESTROY_CLIENTID refused"

setsid "$T_BIN/sfs4" -l 200 -p 2 -w 1 -t 60 -F 700 -a 90 --progress 0 "$N_URL" \
    >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
track "$pid"
wait_for "grep -q 'Starting 60 seconds' '$T_DIR/int.err'" 600 0.05
kill -INT -- "-$pid"
wait "$pid"
is "$?" 130 "SIGINT: exit 130"
left=$(pgrep -g "$pid" | tr '\n' ' ')
is "$(nfsd_stat N clients)/$(nfsd_stat N sessions)/$left" "0/0/" \
    "SIGINT: no client, session or process left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/int.err")" 0 "SIGINT: no DESTROY_CLIENTID refused"
