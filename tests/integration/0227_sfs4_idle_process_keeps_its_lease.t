#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: nfs synth
# An sfs4 process idle longer than its lease keeps its client: sfs_nfsd
# with a 3 s lease, sfs4 -i with no warm-up holds its two children
# populated and idle at the prompt for 8 s (more than two leases); meanwhile
# each sends SEQUENCE alone every third of the lease (the server counts
# them), no lease runs out, and the run that follows needs no new client:
# two EXCHANGE_IDs in all, 0 new clients in the report, 0 bad calls, and
# no client left at the end.
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd S --stats-file "$T_DIR/S.yaml" --lease 3 || bail "sfs_nfsd did not start"
prompted_start "$T_BIN/sfs4" -i -l 50 -p 2 -w 0 -t 2 -F 300 -a 25 --progress 0 "$S_URL" ||
    bail "sfs4 did not prompt"
seq0=$(nfsd_stat S sequence)
sleep 8 # the idleness under test: more than two leases
seq1=$(nfsd_stat S sequence)
ok "$([ $((seq1 - seq0)) -ge 8 ]; echo $?)" \
    "the idle processes sent SEQUENCE alone ($((seq1 - seq0)) in 8 s; a third of the lease is 1 s)"
is "$(nfsd_stat S leases_expired)" 0 "no lease ran out while they were idle"
prompted_go
is "$PROMPTED_RC" 0 "sfs4 exits 0"
like "$(cat "$T_DIR/out")" "new sessions 0, new clients 0" "the run needed no new client"
like "$(cat "$T_DIR/out")" "BAD CALLS: 0 " "0 bad calls"
is "$(nfsd_stat S exchange_id)" 2 "one EXCHANGE_ID per process, none after the idle time"
is "$(nfsd_stat S clients)/$(nfsd_stat S leases_expired)" "0/0" "no client left, no lease ran out"
