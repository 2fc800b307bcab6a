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
# the CREATEs outran the CLOSEs by far more than the created files whose
# CLOSE may wait (512 then, 256 now), and the files past those were left
# open for good (1335 in a run, the client left on the server with them
# until its lease ran out); now a CREATE waits for room in that queue,
# and every file is closed (a normal end).
# SIGINT during such a population (3000 files, 40 % DELAY): a CREATE
# that waited for room in the queue went all the same once the signal
# came, its file left open past the full queue (1 in a run, the client
# left on the server), and the population went on, each CREATE waiting
# again, to its next look at the parent; now no CREATE starts once the
# process is to end, and the end closes what is queued and in flight.
# Then CLOSEs refused after all their 16 tries: sfs_nfsd answers the
# first 600 CLOSEs DELAY, so the first 32 in flight (the pool's half of
# the session's slots) each fail after 16 DELAYs; those files were never
# closed (the client left on the server with them, DESTROY_CLIENTID
# refused); now the end sends their CLOSEs again.
. "$(dirname "$0")/lib.sh"
plan 19
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
setsid "$T_BIN/sfs4" -l 400 -p 1 -w 1 -F 3000 -t 60 --progress 0 "$M_URL" \
    >"$T_DIR/p.out" 2>"$T_DIR/p.err" &
pid=$!
track "$pid"
wait_for "grep -q 'Initializing test directories' '$T_DIR/p.err'" 600 0.05
sleep 1 # the CREATEs outrun the CLOSEs: the queue is full, CREATEs wait
kill -INT -- "-$pid"
wait "$pid"
is "$?" 130 "SIGINT in the population: exit 130"
is "$(grep -c '^.*Completed\.' "$T_DIR/p.err")" 1 \
    "SIGINT in the population: it had not completed (only the mount had)"
left=$(pgrep -g "$pid" | tr '\n' ' ')
is "$(nfsd_stat M clients)/$(nfsd_stat M sessions)/$left" "0/0/" \
    "SIGINT in the population: no client, session or process left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/p.err")" 0 \
    "SIGINT in the population: no DESTROY_CLIENTID refused"
grep CLIENTID_BUSY "$T_DIR/p.err" | while read -r l; do diag "$l"; done
start_nfsd F --stats-file "$T_DIR/F.yaml" --seed 1 --error close=DELAY:100:600 ||
    bail "no third server"
"$T_BIN/sfs4" -l 200 -p 1 -w 1 -F 300 -t 3 --progress 0 "$F_URL" \
    >"$T_DIR/f.out" 2>"$T_DIR/f.err"
is "$?" 0 "CLOSEs failed after 16 tries: sfs4 exits 0"
is "$(nfsd_stat F errors_injected)" 600 "the third server answered 600 CLOSEs DELAY"
is "$(nfsd_stat F clients)/$(nfsd_stat F sessions)" "0/0" \
    "CLOSEs failed after 16 tries: no client or session left"
is "$(grep -c CLIENTID_BUSY "$T_DIR/f.err")" 0 \
    "CLOSEs failed after 16 tries: sent again at the end, no DESTROY_CLIENTID refused"
grep CLIENTID_BUSY "$T_DIR/f.err" | while read -r l; do diag "$l"; done
