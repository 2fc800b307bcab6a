#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0703_nreplay_faults_reported.t - an NFS trace replay against a server
# that misbehaves says so and leaves nothing running.  The trace is the
# validation suite's traffic to sfs_nfsd (captured on lo).
#   - replies dropped (sfs_nfsd --drop-replies 2, UDP): the calls are sent
#     again (counted as retransmitted) and what their second execution
#     answered differently is counted and named as mismatches;
#   - the server stopped (SIGSTOP) mid-replay until a call has waited
#     0.7 s in its socket, then continued: no status differs, and the stop
#     shows as that call's response time, or lateness or dependency waits
#     of the calls due behind it (at least 0.6 s, where an undisturbed
#     replay stays within milliseconds);
#   - the server restarted mid-replay (sfs_nfsd, in memory: the prepared
#     image is gone), over TCP (the connection is made again) and UDP (the
#     calls go on): its replies are STALE where the trace had OK; 16 in a
#     row end the replay, INVALID (18) with "the server's file handles
#     went stale at T s: was it restarted?", its report and YAML written,
#     the calls not sent counted (replayed + not sent + without a handle =
#     the trace's calls);
#   - an NFSv2 trace (sfs -V) is replayed by sfs over NFSv2;
#   - a capture cut short is refused before anything is sent.
# Every time, no process of the run is left.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd ss
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
plan 17

nr_validation_capture "$T_DIR/v.pcapng"
is "$?" 0 "the validation suite ran against sfs_nfsd while captured"

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
# Not by the clock (a second after Return and a call due while stopped
# were hoped for; on a busy machine the stop fell where none was due):
# the server is stopped once it has answered 20 calls of the replay, and
# goes on 0.7 s after a call of the replay is waiting in its socket.
start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "sfs_nfsd did not start"
prompted_start "$T_BIN/sfs3" -i -Q -p 1 --speed 0.02 --trace "$T_DIR/v.pcapng" \
    --yaml "$T_DIR/s.yaml" "$S_URL" || bail "no prompt"
base=$(nfsd_stat S calls_answered)
echo >&7
wait_for "[ \"\$(nfsd_stat S calls_answered)\" -ge $((base + 20)) ]" 600 0.05 ||
    diag "the replay did not reach 20 calls in 30 s"
kill -STOP "$S_PID"
# queued: the bytes waiting in the server's end of the replay's connection
queued() { ss -Htn state established "sport = :$S_NFS_PORT" | awk '{s += $1} END {print s + 0}'; }
wait_for "[ \$(queued) -gt 0 ]" 1200 0.05 || diag "no call came while the server was stopped (60 s)"
sleep 0.7
kill -CONT "$S_PID"
wait "$PROMPTED_PID"
rc=$?
exec 7>&-
is "$rc $(left)" "0 none" "stopped for 0.7 s mid-replay: the replay completes, nothing left running"
# the call that waited shows as its response time; calls due behind it as
# lateness or dependency waits (none may be due in 0.7 s at speed 0.02)
is "$(nr_yaml "$T_DIR/s.yaml" 'g["nfs_replay"]["status_mismatches"], max(g["nfs_replay"]["dependency_waits"]["max_ms"], g["nfs_replay"]["lateness_us"]["max"] / 1000, max(o["max_ms"] for o in g["ops"])) >= 600, g["validity"]["code"]')" \
    "0 True 0" "no status differs; the stop shows as a response time, lateness or dependency waits of 0.6 s or more ($(nr_yaml "$T_DIR/s.yaml" 'max(o["max_ms"] for o in g["ops"]), g["nfs_replay"]["dependency_waits"], g["nfs_replay"]["lateness_us"]["max"]'))"

# ---- the server restarted: its handles went stale ----------------------------------
# restarted NAME [sfs3 options]: replays the capture in about 8 s
# whatever its length (the validation's capture lasts 20 to 60 ms) against
# the restartable sfs_nfsd, restarted once it has answered 50 calls of the
# replay; its output in $T_DIR/NAME.out and .err, its YAML in NAME.yaml;
# sets RC.  (It was restarted 1 s after Return at speed 0.01: a capture of
# 23 ms replayed in 2.3 s, and on a busy machine it ended before the
# server was back - no STALE reply, only calls unanswered.)
start_restartable --stats-file "$T_DIR/R.yaml"
"$T_BIN/sfs_trace" stats -q "$T_DIR/v.pcapng" --yaml "$T_DIR/v.stats.yaml"
R_SPEED=$(nr_yaml "$T_DIR/v.stats.yaml" '"%.6f" % (g["duration_s"] / 8)')
r_answered() { # the restartable server's calls answered (its --stats-file)
    rm -f "$T_DIR/R.yaml"
    kill -USR1 "$(cat "$T_DIR/r.pid")"
    wait_for "[ -s '$T_DIR/R.yaml' ]" 100 0.05
    sed -n 's/^ *calls_answered: //p' "$T_DIR/R.yaml" | head -1
}
restarted() {
    local n=$1 base
    shift
    prompted_start "$T_BIN/sfs3" -i "$@" -p 1 --speed "$R_SPEED" --trace "$T_DIR/v.pcapng" \
        --yaml "$T_DIR/$n.yaml" "127.0.0.1:$R_NFS:/export" || bail "no prompt"
    base=$(r_answered)
    echo >&7
    wait_for "[ \"\$(r_answered)\" -ge $((base + 50)) ]" 600 0.05 ||
        diag "the replay did not reach 50 calls in 30 s"
    sh "$T_DIR/restart.sh" >"$T_DIR/restart.out" 2>&1
    wait "$PROMPTED_PID"
    RC=$?
    exec 7>&-
    cp "$T_DIR/out" "$T_DIR/$n.out"
    cp "$T_DIR/err" "$T_DIR/$n.err"
}
for proto in TCP UDP; do
    n=r$proto
    if [ $proto = TCP ]; then restarted "$n" -Q; else restarted "$n"; fi
    is "$RC $(left)" "0 none" "$proto, restarted mid-replay: sfs3 ends with its report, nothing left running"
    is "$(nr_yaml "$T_DIR/$n.yaml" 'g["validity"]["code"], g["nfs_replay"]["ended_early"], g["nfs_replay"]["stale_replies"] >= 16, g["nfs_replay"]["not_sent"] > 0, g["nfs_replay"]["calls"] + g["nfs_replay"]["not_sent"] + g["nfs_replay"]["not_replayable"]["no_replayed_handle"] == g["nfs_replay"]["trace_calls"]')" \
        "18 stale file handles True True True" \
        "$proto: the stale handles end the replay early, INVALID (18); every call is replayed, not sent or has no handle ($(nr_yaml "$T_DIR/$n.yaml" 'g["nfs_replay"]["calls"], g["nfs_replay"]["not_sent"], g["nfs_replay"]["trace_calls"]'))"
    ns=$(nr_yaml "$T_DIR/$n.yaml" 'g["nfs_replay"]["not_sent"]')
    grep -Eq "ended early: the server's file handles went stale at [0-9.]+ s: was it restarted\? $ns calls not replayed" "$T_DIR/$n.out" &&
        grep -q "INVALID RUN, the run ended early: the NFS server's file handles went stale at" "$T_DIR/$n.out" &&
        grep -q "file handles went stale at .* was it restarted? .*; $ns calls not replayed; the run ends early" "$T_DIR/$n.err"
    ok $? "$proto: the report and stderr say so in plain words, with the $ns calls not replayed"
done
is "$(nr_yaml "$T_DIR/rTCP.yaml" 'g["results"]["tcp_reconnections"] >= 1, g["nfs_replay"]["statuses_compared"] > g["nfs_replay"]["stale_replies"]')" \
    "True True" "TCP: the connection was made again and calls before the restart were answered as traced"

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
