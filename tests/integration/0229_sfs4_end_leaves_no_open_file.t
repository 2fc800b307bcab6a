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
sfs4_ends_clean N -l 200 -p 2 -w 1 -F 300 -a 5
ok "$([ "$(nfsd_stat N errors_injected)" -gt 0 ]; echo $?)" \
    "the server answered CLOSEs DELAY ($(nfsd_stat N errors_injected))"
