#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0703_nreplay_faults_reported.t - an NFS trace replay against a server
# that misbehaves says so and leaves nothing running.  The trace is the
# validation suite's traffic to sfs_nfsd (captured on lo).
#   - replies dropped (sfs_nfsd --drop-replies 2, UDP): the calls are sent
#     again (counted as retransmitted) and what their second execution
#     answered differently is counted and named as mismatches;
#   - the server stopped (SIGSTOP) for 0.7 s mid-replay, then continued:
#     no status differs, and the calls due during the stop show as
#     lateness or dependency waits (at least 0.2 s, where an undisturbed
#     replay stays within milliseconds);
#   - the server restarted mid-replay over TCP: the connection is lost and
#     not made again in time; the run ends early, INVALID (18), with its
#     report and the calls not replayed counted;
#   - an NFSv2 trace (sfs -V) is replayed by sfs over NFSv2;
#   - a capture cut short is refused before anything is sent.
# Every time, no process of the run is left.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd python3
python3 -c 'import yaml' 2>/dev/null || skip_all "needs python3-yaml"
. "$(dirname "$0")/lib_nreplay.sh"
plan 13

start_nfsd A || bail "sfs_nfsd did not start"
cap_start "$T_DIR/v.pcapng" "$A_NFS_PORT" "$A_MNT_PORT" || bail "no capture"
timeout 100 "$T_BIN/sfs3" -Q -V 1 "$A_URL" >"$T_DIR/v.out" 2>&1
rv=$?
cap_stop
is "$rv" 0 "the validation suite ran against sfs_nfsd while captured"
left() { pgrep -f "$T_DIR/v.pcapng" >/dev/null && echo "left running" || echo none; }

# ---- dropped replies ---------------------------------------------------------------
start_nfsd D --drop-replies 2 || bail "sfs_nfsd did not start"
timeout 200 "$T_BIN/sfs3" -p 1 --speed 0 --trace "$T_DIR/v.pcapng" --yaml "$T_DIR/d.yaml" \
    "$D_URL" >"$T_DIR/d.out" 2>"$T_DIR/d.err"
rc=$?
is "$rc $(left)" "0 none" "replies dropped (UDP): the replay completes, nothing left running"
ok "$(nr_yaml "$T_DIR/d.yaml" '0 if g["results"]["retransmitted_calls"] > 0 and g["nfs_replay"]["statuses_compared"] > 0 else 1')" \
    "the calls sent again are counted: $(grep 'RETRANSMITTED' "$T_DIR/d.out")"
is "$(nr_yaml "$T_DIR/d.yaml" 'g["nfs_replay"]["status_mismatches"] == sum(p["count"] for p in g["nfs_replay"]["mismatch_pairs"]), len(g["nfs_replay"]["first_mismatches"]) == min(4, g["nfs_replay"]["status_mismatches"])')" \
    "True True" "every mismatch is in a pair, the first ones are named ($(nr_yaml "$T_DIR/d.yaml" 'g["nfs_replay"]["status_mismatches"]'))"

# ---- the server stopped and continued -----------------------------------------------
start_nfsd S || bail "sfs_nfsd did not start"
prompted_start "$T_BIN/sfs3" -i -Q -p 1 --speed 0.02 --trace "$T_DIR/v.pcapng" \
    --yaml "$T_DIR/s.yaml" "$S_URL" || bail "no prompt"
echo >&7
sleep 1
kill -STOP "$S_PID"
sleep 0.7
kill -CONT "$S_PID"
wait "$PROMPTED_PID"
rc=$?
exec 7>&-
is "$rc $(left)" "0 none" "stopped for 0.7 s mid-replay: the replay completes, nothing left running"
is "$(nr_yaml "$T_DIR/s.yaml" 'g["nfs_replay"]["status_mismatches"], max(g["nfs_replay"]["dependency_waits"]["max_ms"], g["nfs_replay"]["lateness_us"]["max"] / 1000) >= 200, g["validity"]["code"]')" \
    "0 True 0" "no status differs; the stop shows as lateness or dependency waits ($(nr_yaml "$T_DIR/s.yaml" 'g["nfs_replay"]["dependency_waits"], g["nfs_replay"]["lateness_us"]'))"

# ---- the server restarted ----------------------------------------------------------
start_restartable
prompted_start "$T_BIN/sfs3" -i -Q -p 1 --speed 0.01 --trace "$T_DIR/v.pcapng" \
    --yaml "$T_DIR/r.yaml" "127.0.0.1:$R_NFS:/export" || bail "no prompt"
echo >&7
sleep 1
sh "$T_DIR/restart.sh" >"$T_DIR/restart.out" 2>&1
wait "$PROMPTED_PID"
rc=$?
exec 7>&-
is "$rc $(left)" "0 none" "restarted mid-replay: sfs3 ends with its report, nothing left running"
is "$(nr_yaml "$T_DIR/r.yaml" 'g["validity"]["code"], g["nfs_replay"]["cut"], g["nfs_replay"]["calls"] < g["nfs_replay"]["trace_calls"]')" \
    "18 True True" "the connection lost and not made again ends the run early: INVALID (18), the calls left counted"
grep -q "ended early: the server could not be reached again" "$T_DIR/out" &&
    grep -q "INVALID RUN, the run ended early" "$T_DIR/out"
ok $? "the report says so"

# ---- NFSv2: sfs replays a trace of sfs -V ---------------------------------------------
cap_start "$T_DIR/v2.pcapng" "$A_NFS_PORT" "$A_MNT_PORT" || bail "no capture"
timeout 100 "$T_BIN/sfs" -V 1 "$A_URL" >"$T_DIR/v2.out" 2>&1
rv=$?
cap_stop
start_nfsd V || bail "sfs_nfsd did not start"
timeout 100 "$T_BIN/sfs" -p 1 --speed 0 --trace "$T_DIR/v2.pcapng" --yaml "$T_DIR/v2.yaml" \
    "$V_URL" >"$T_DIR/v2r.out" 2>&1
rc=$?
is "$rv $rc" "0 0" "sfs replays the NFSv2 validation's capture"
is "$(nr_yaml "$T_DIR/v2.yaml" 'g["nfs_replay"]["nfs_version"], g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["calls"] > 300, g["validity"]["code"]')" \
    "2 0 True 0" "over NFSv2, with every status as traced"

# ---- inputs -------------------------------------------------------------------------
head -c 5000 "$T_DIR/v.pcapng" >"$T_DIR/cut.pcapng"
timeout 60 "$T_BIN/sfs3" -p 1 --trace "$T_DIR/cut.pcapng" "$A_URL" >"$T_DIR/cut.out" 2>&1
rc=$?
like "$rc: $(cat "$T_DIR/cut.out")" "^[1-9][0-9]*: .*cut.pcapng" "a capture cut short is refused with its name"
unlike "$(cat "$T_DIR/cut.out")" "Starting NFS replay" "before anything is replayed"
