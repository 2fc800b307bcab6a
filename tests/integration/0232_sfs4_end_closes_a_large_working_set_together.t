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
# (a CREATE waits while 256 created files' CLOSEs are queued or to come:
# none of the population's is left open)
sfs4_ends_clean N -l 200 -p 2 -w 1 -F 700 -a 90
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
