#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0717_nreplay_v4_io_sent_again_after_a_stale_stateid.t - an NFSv4 replay
# against a server that cuts leases (docs/nfs_replay.md, "Opens"): a
# capture of tests/tools/nf4_procs -k (every SFS op's compound, OPEN and
# CLOSE around the I/O) and sfs_ping -4 reading its file 400 times, 4 at
# once (one OPEN, the READs with its stateid), replayed against sfs_nfsd
# --expire-leases 1 (1 % of SEQUENCEs find their client's lease run out:
# BADSESSION, the client made anew, the READs in flight sent again by it
# with the lost open's stateid, answered EXPIRED):
#   - each such READ is sent again after its file's OPEN (the new
#     client's), counted (stale_stateid_resends), not a status mismatch:
#     none in the run, which is valid; the server cut leases (its
#     leases_cut) and the replay's client was made anew (new clients);
#   - no READ went with the anonymous stateid, every open CLOSEd.
# The same replay against a server that cuts no lease sends nothing again.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_python_yaml
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
. "$(dirname "$0")/lib_nreplay.sh"
plan 5

start_nfsd S || bail "sfs_nfsd did not start"
CAP=$T_DIR/reads.pcapng
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
{
    out=$("$T" -k "$S_URL") && d=$(printf '%s\n' "$out" | sed -n 's/^kept //p') &&
        "$T_BIN/sfs_ping" -4 -p read -n f -c 400 -o 4 "$S_URL/$d"
} >"$T_DIR/clients.out" 2>&1
crc=$?
cap_stop
"$T_BIN/sfs_trace" plan --nfs-version 4 "$CAP" -o "$CAP.plan" >"$T_DIR/plan.out" 2>&1
is "$crc:$?" "0:0" "nf4_procs and 400 READs of sfs_ping -4 against sfs_nfsd captured and planned"
[ "$crc" = 0 ] || diag "$(tail -5 "$T_DIR/clients.out")"

start_nfsd E --stats-file "$T_DIR/E.yaml" --expire-leases 1 || bail "sfs_nfsd did not start"
"$T_BIN/sfs4" -p 1 --speed 0 --trace "$CAP.plan" --yaml "$T_DIR/e.yaml" "$E_URL" >"$T_DIR/e.out" 2>&1
rc=$?
stop_pid "$E_PID" # its stats file is written as it ends
is "$rc:$(nr_yaml "$T_DIR/e.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["calls"] == g["nfs_replay"]["trace_calls"], g["validity"]["code"]')" \
    "0:0 True 0" "leases cut: every call replayed, no status mismatch, valid"
[ "$rc" = 0 ] || diag "$(tail -5 "$T_DIR/e.out")"
grep "mismatch:" "$T_DIR/e.out" | head -3 | while read -r l; do diag "$l"; done
is "$(nr_yaml "$T_DIR/e.yaml" 'g["nfs_replay"]["v4_opens"]["stale_stateid_resends"] > 0, g["nfs_replay"]["v4_opens"]["anonymous_io"], g["nfs_replay"]["v4_opens"]["in_use"]')" \
    "True 0 0" "the READs answered for a lost open sent again after its OPEN ($(nr_yaml "$T_DIR/e.yaml" 'g["nfs_replay"]["v4_opens"]["stale_stateid_resends"]')), none with the anonymous stateid, none left open"
like "$(grep -o 'new clients [0-9]*' "$T_DIR/e.out" | head -1) $(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["nfs_v4_state"]["leases_cut"])' "$T_DIR/E.yaml" 2>&1)" \
    "^new clients [1-9][0-9]* [1-9][0-9]*\$" "the server cut leases and the replay's client was made anew"

start_nfsd B || bail "sfs_nfsd did not start"
"$T_BIN/sfs4" -p 1 --speed 0 --trace "$CAP.plan" --yaml "$T_DIR/b.yaml" "$B_URL" >"$T_DIR/b.out" 2>&1
is "$?:$(nr_yaml "$T_DIR/b.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["v4_opens"]["stale_stateid_resends"]')" \
    "0:0 0" "no lease cut: no mismatch, nothing sent again"
