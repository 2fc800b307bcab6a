#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0716_nreplay_v4_each_traced_client_its_own.t - each traced NFSv4 client
# replayed as a client of its own (docs/nfs_replay.md, "NFSv4": the traced
# clients are the streams, each with its own client id and session on the
# server under test).  A capture against sfs_nfsd of four clients: two
# tests/tools/nf4_owners at once (NFSv4.1: open owners, share modes, a
# refused OPEN, locks, each in a directory of its own, their compounds
# interleaved; one with -d: an OPEN_DOWNGRADE after which an OPEN it
# refused is granted), sfs_ping -4 (NFSv4.1, GETATTRs only) and libnfs-utils'
# nfs-cp at version=4 (NFSv4.0: SETCLIENTID, OPEN, WRITE, CLOSE).
#   - sfs_trace plan counts 4 clients (a 4.1 client by its session and
#     CREATE_SESSION's client id, the 4.0 one by its client id and its
#     connection);
#   - replayed with -p 1 (one process) and with -p 2 against a fresh
#     sfs_nfsd, the whole replay captured: every call replayed, no status
#     mismatch, no lock status mismatch, the OPEN_DOWNGRADE sent at its
#     place (the OPEN after it granted as traced); tshark finds as many EXCHANGE_ID
#     owners as the trace has clients, and each traced client's OPENs
#     (and the refused ones) on a client id of its own: the OPENs per
#     client the trace's (tests/tools/nfs4-clients.py); the report's
#     streams are the 4 traced clients.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd nfs-cp
need_python_yaml
T=$(tool_path nf4_owners) || bail "tests/tools/nf4_owners not built"
. "$(dirname "$0")/lib_nreplay.sh"
CLIENTS=$T_TOP/tests/tools/nfs4-clients.py
plan 8

start_nfsd S || bail "sfs_nfsd did not start"
CAP=$T_DIR/four.pcapng
L4="nfs://127.0.0.1/export/lnfs?version=4&nfsport=$S_NFS_PORT"
printf 'written by libnfs over NFSv4.0\n' >"$T_DIR/small"
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
{
    timeout 60 "$T" -d "$S_URL" >"$T_DIR/o1.out" 2>&1 &
    o1=$!
    timeout 60 "$T" "$S_URL" >"$T_DIR/o2.out" 2>&1 &&
        wait "$o1" &&
        "$T_BIN/sfs_ping" -4 -n 5 "$S_URL" &&
        timeout 20 nfs-cp "$T_DIR/small" "$L4"
} >"$T_DIR/clients.out" 2>&1
crc=$?
cap_stop
is "$crc" 0 "two nf4_owners at once, sfs_ping -4 and nfs-cp (v4.0) against sfs_nfsd captured"
[ "$crc" = 0 ] || diag "$(tail -3 "$T_DIR/o1.out" "$T_DIR/o2.out" "$T_DIR/clients.out")"
TRACED=$(python3 "$CLIENTS" "$CAP" "$S_NFS_PORT")
like "$TRACED" "^clients 4, sessions 3, opens per client 16/4 12/3 1/0 0/0\$" \
    "the capture (tshark): $TRACED"
nr4_plan "$CAP" "$S_NFS_PORT"
like "$NR4_RC $NR4_LINE" "^0 .* NFSv4 calls of 4 client\\(s\\) " "planned: 4 traced clients ($NR4_LINE)"

# replayed PROCS: the plan replayed with -p PROCS against a fresh sfs_nfsd,
# the whole run captured.
replayed() {
    local p=$1 y=$T_DIR/r$1.yaml rcap=$T_DIR/r$1.pcapng got
    start_nfsd "B$p" || bail "sfs_nfsd did not start"
    local port
    port=$(eval echo "\$B${p}_NFS_PORT")
    cap_start "$rcap" "$port" || bail "no capture"
    "$T_BIN/sfs4" -p "$p" --speed 0 --trace "$CAP.plan" --yaml "$y" \
        "$(eval echo "\$B${p}_URL")" >"$T_DIR/r$p.out" 2>&1
    local rc=$?
    cap_stop
    is "$rc:$(nr_yaml "$y" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["calls"] == g["nfs_replay"]["trace_calls"], g["nfs_replay"]["v4_locks"]["status_mismatches"], g["nfs_replay"]["v4_opens"]["downgrades"], g["validity"]["code"]')" \
        "0:0 True 0 1 0" "-p $p: every call replayed, no status or lock status mismatch, the OPEN_DOWNGRADE sent, valid"
    [ "$rc" = 0 ] || diag "$(tail -5 "$T_DIR/r$p.out")"
    got=$(python3 "$CLIENTS" "$rcap" "$port")
    # the v4.0 client too has a session: it is replayed over 4.1
    is "$got" "clients 4, sessions 4, opens per client ${TRACED##*opens per client }" \
        "-p $p: a client id and session per traced client, its OPENs on its own (tshark)"
}
replayed 1
replayed 2
is "$(nr_yaml "$T_DIR/r1.yaml" 'g["nfs_replay"]["streams"]')" 4 \
    "the replay's streams are the traced clients"
