#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0214_sfs_ping_nfsv4_faults_on_sfs_nfsd.t - the NFSv4.1 client's error
# handling against sfs_nfsd's NFSv4 fault flags, every count the client
# reports checked against the server's own: BADSESSION injected into 2 %
# of SEQUENCEs (a new session each time, the calls sent again: every call
# answered, new_sessions the server's CREATE_SESSIONs less the first);
# leases cut under 2 % of SEQUENCEs (a new client each time: new_clients
# the leases cut, the server's EXCHANGE_IDs less the first); DELAY
# answered to 5 % of GETATTRs (each held and sent again: delays the
# errors injected); GRACE after the server's start (an OPEN waits it out);
# replies held 20 ms (the response times and the rate say so); replies
# held past the client's timeout (those calls failed, counted, each sent
# once, the slots' next calls answered).  In every case the server ran
# one PUTFH per call the client reports.  With root, tshark finds the
# sequence ids in order per slot on every session of the recoveries.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_cmd nfs-cp
capture_if_root
plan 20

P=$T_BIN/sfs_ping
field() { printf '%s\n' "$2" | awk -v k="$1" '$1 == k { print $2 }'; }
triple() { echo "$(field calls "$1")/$(field errors "$1")/$(field nfs_errors "$1")"; }

# BADSESSION: the server destroys the session; the client makes another
start_nfsd B --stats-file "$T_DIR/B.yaml" --seed 1 --error sequence=BADSESSION:2 ||
    bail "no server"
CAP=$T_DIR/v4.pcapng
[ $cap = 1 ] && { cap_start "$CAP" "$B_NFS_PORT" || bail "no capture"; }
out=$("$P" -4 -c 3000 -o 16 "$B_URL" 2>&1); rc=$?
ns=$(field new_sessions "$out")
is "$rc/$(triple "$out")" "0/3000/0/0" "BADSESSION in 2 % of SEQUENCEs: 3000 calls, all answered"
is "$(nfsd_stat B putfh)" 3000 "... the server ran each call once"
is "$(nfsd_stat B create_session)" "$((ns + 1))" \
    "... new_sessions ($ns) is the server's CREATE_SESSIONs less the first"
inj=$(nfsd_stat B errors_injected)
ok $([ "$ns" -gt 10 ] && [ "$ns" -le "$inj" ] && echo 0 || echo 1) \
    "... one new session per session lost, $ns for $inj BADSESSIONs (some found it lost already)"
if [ $cap = 1 ]; then
    cap_stop
    out=$(python3 "$T_TOP/tests/tools/nfs4-check.py" "$CAP" "$B_NFS_PORT" \
        "SEQUENCE PUTFH GETATTR>=3000" "sessions=$((ns + 1))")
    ok $? "tshark: every call answered, sequence ids in order per slot on all $((ns + 1)) sessions"
    diag "$(printf '%s\n' "$out" | grep -v '^shape')"
else
    skip "tshark's decode needs root, tshark and dumpcap"
fi
stop_pid "$B_PID"

# an expired lease: the client is gone with its session; a new client
start_nfsd E --stats-file "$T_DIR/E.yaml" --seed 2 --expire-leases 2 || bail "no server"
out=$("$P" -4 -c 3000 -o 16 "$E_URL" 2>&1); rc=$?
nc=$(field new_clients "$out")
is "$rc/$(triple "$out")" "0/3000/0/0" "leases cut in 2 % of SEQUENCEs: 3000 calls, all answered"
is "$(nfsd_stat E putfh)" 3000 "... the server ran each call once"
is "$(nfsd_stat E leases_cut)/$(nfsd_stat E exchange_id)" "$nc/$((nc + 1))" \
    "... new_clients ($nc) is the leases cut, the server's EXCHANGE_IDs less the first"
ok $([ "$nc" -gt 10 ] && echo 0 || echo 1) "... and there were some ($nc)"
is "$(nfsd_stat E clients)/$(nfsd_stat E sessions)" "0/0" "no client or session left behind"
stop_pid "$E_PID"

# DELAY: held and sent again, as JUKEBOX
start_nfsd D --stats-file "$T_DIR/D.yaml" --seed 3 --error getattr=DELAY:5 || bail "no server"
out=$("$P" -4 -c 2000 -o 16 "$D_URL" 2>&1); rc=$?
dl=$(field delays "$out")
is "$rc/$(triple "$out")" "0/2000/0/0" "DELAY to 5 % of GETATTRs: 2000 calls, all answered"
is "$(nfsd_stat D errors_injected)/$(($(nfsd_stat D putfh) + $(nfsd_stat D putrootfh)))" \
    "$dl/$((2000 + 2 + dl))" \
    "... delays ($dl) is the DELAYs injected, each compound sent again once more"
stop_pid "$D_PID"

# GRACE: an OPEN in the server's grace period waits it out
start_nfsd G --stats-file "$T_DIR/G.yaml" --grace 2 || bail "no server"
echo x | timeout 20 nfs-cp /dev/stdin \
    "nfs://127.0.0.1/export/afile?nfsport=$G_NFS_PORT&mountport=$G_MNT_PORT" >/dev/null 2>&1
out=$("$P" -4 -p read -n afile -c 10 "$G_URL" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/10/0/0" "GRACE: the read's OPEN waited the grace period out"
ok $([ "$(field graces "$out")" -gt 0 ] && echo 0 || echo 1) \
    "... counted ($(field graces "$out") GRACE answers)"
stop_pid "$G_PID"

# replies held 20 ms: 8 in flight make at most 400 calls/s
start_nfsd H --stats-file "$T_DIR/H.yaml" --delay-us 20000 || bail "no server"
out=$("$P" -4 -c 200 -o 8 "$H_URL" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/200/0/0" "replies held 20 ms: 200 calls, all answered"
ok $(awk -v m="$(field mean_us "$out")" -v r="$(field ops/s "$out")" \
    'BEGIN { exit !(m >= 20000 && r <= 400) }' && echo 0 || echo 1) \
    "... mean response $(field mean_us "$out") us (at least 20 000), $(field ops/s "$out") calls/s (at most 400)"
stop_pid "$H_PID"

# replies held 0..200 ms against a 150 ms timeout: the late ones failed
start_nfsd L --stats-file "$T_DIR/L.yaml" --seed 5 --delay-us 0:200000 || bail "no server"
out=$("$P" -4 -c 200 -o 8 -t 150 "$L_URL" 2>&1); rc=$?
late=$(field errors "$out")
ok $([ "$rc" = 1 ] && [ "${late:-0}" -gt 10 ] && [ "$late" -lt 100 ] && echo 0 || echo 1) \
    "replies held 0..200 ms, timeout 150 ms: $late of 200 calls failed, exit 1"
is "$(field calls "$out")/$(field nfs_errors "$out")/$(field slot_repairs "$out")" "200/0/0" \
    "... the slots' next calls answered (no SEQ_MISORDERED, no repair)"
is "$(nfsd_stat L putfh)/$(field retransmits "$out")" "200/0" "... each call sent once"
like "$out" "$late of 200 calls failed; first: timed out" "... and said so"
stop_pid "$L_PID"
