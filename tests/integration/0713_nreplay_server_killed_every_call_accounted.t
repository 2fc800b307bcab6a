#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0713_nreplay_server_killed_every_call_accounted.t - an NFS trace replay
# whose server is killed (SIGKILL) mid-replay accounts for every call of
# the trace, over TCP and over UDP (docs/nfs_replay.md, "Faults": a server
# gone).  The trace is the validation suite's traffic (captured on lo),
# replayed at the speed that makes it last 6 s; sfs_nfsd is killed 1 s in, and the
# server may stay away 1.5 s (FREESFS_REPLAY_RECONNECT_MS: the tests do
# not wait the 30 s a replay waits at least).  Each time:
#   - sfs3 ends with its report, INVALID (18) "the run ended early", and
#     nothing of the run is left;
#   - one count everywhere: the calls replayed are one number in the YAML
#     and in the report's headline, the RPCs sent one number in the YAML,
#     the headline, the op table's TOTAL, the YAML's TOTAL and the failed
#     calls' line; calls + not_sent + no_replayed_handle = the trace's
#     calls;
#   - the RPCs beyond the calls are pieces (docs/nfs_replay.md): none over
#     TCP (no call of this trace passes the server's maximum), over UDP at
#     most the pieces the suite's 64 KiB READs make at its 32 KiB - they
#     are sent once the replay reaches them, which a kill that comes late
#     on a busy machine lets it do;
#   - an RPC is counted as sent when the transport took it: the RPCs sent
#     are the NFS calls a capture of the timed run holds (tshark), and
#     those sent but never answered are the bad calls;
#   - stderr says, whole: "the server at URL is unreachable: connection
#     lost and not re-established in 1500 ms (...)" over TCP, "... no
#     reply in 1500 ms (...)" over UDP, "; N calls not replayed; the run
#     ends early".
# timeout: 200
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
plan 15

nr_validation_capture "$T_DIR/v.pcapng"
is "$?" 0 "the validation suite ran against sfs_nfsd while captured"
# the RPCs beyond the first that the trace's READs and WRITEs make at
# UDP's 32 KiB (over TCP the server's maximum passes them all)
udp_pieces=$(nr_calls "$T_DIR/v.pcapng" "$A_NFS_PORT" |
    awk '/^(read|write) .*bytes [0-9]+$/ {n = $NF; if (n > 32768) p += int((n + 32767) / 32768) - 1} END {print p + 0}')
export FREESFS_REPLAY_RECONNECT_MS=1500
# the replay lasts 6 s whatever the capture's length (it was 2.3 s at speed
# 0.01 for a 23 ms capture, and the UDP replay, killed 1 s in, ended with
# every later call refused before 1.5 s without a reply had passed)
"$T_BIN/sfs_trace" stats -q "$T_DIR/v.pcapng" --yaml "$T_DIR/v.yaml" || bail "sfs_trace stats"
speed=$(python3 -c 'import sys, yaml; print("%.6f" % (yaml.safe_load(open(sys.argv[1]))["duration_s"] / 6))' "$T_DIR/v.yaml")

# y NAME EXPR: a value of NAME's YAML (g; n: its nfs_replay section, o: the
# section's TOTAL row); "a, b" prints "a b".
y() {
    python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); n = g['nfs_replay']; o = n['ops']['TOTAL']; print($2)" "$T_DIR/$1.yaml"
}

for proto in TCP UDP; do
    n=k$proto
    start_nfsd "$n" || bail "sfs_nfsd did not start"
    eval "pid=\$${n}_PID port=\$${n}_NFS_PORT url=\$${n}_URL"
    opts="-p 1 --speed $speed --trace $T_DIR/v.pcapng --yaml $T_DIR/$n.yaml"
    [ $proto = TCP ] && opts="-Q $opts"
    # shellcheck disable=SC2086
    prompted_start "$T_BIN/sfs3" -i $opts "$url" || bail "no prompt"
    # the timed run alone is captured; the kill comes 1 s into it
    cap_start "$T_DIR/$n.pcapng" "$port" || bail "no capture"
    echo >&7
    sleep 1
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null # reaped here, not reported as a killed job
    wait "$PROMPTED_PID"
    rc=$?
    exec 7>&-
    cap_stop
    cp "$T_DIR/out" "$T_DIR/$n.out"
    cp "$T_DIR/err" "$T_DIR/$n.err"
    is "$rc $(left) $(y $n 'g["validity"]["code"], n["ended_early"]')" \
        "0 none 18 server unreachable" \
        "$proto, server killed mid-replay: sfs3 ends with its report, INVALID (18), nothing left running"

    head=$(sed -n 's/^  calls replayed \([0-9]*\) of \([0-9]*\) (sent as \([0-9]*\) RPCs.*/\1 \2 \3/p' "$T_DIR/$n.out")
    table=$(awk '$1 == "TOTAL" && NF == 7 {print $2}' "$T_DIR/$n.out" | tail -1)
    is "$(y $n 'n["calls"], n["stream_calls"], n["rpcs"], o["calls"], n["calls"] + n["not_sent"] + n["not_replayable"]["no_replayed_handle"] == n["trace_calls"]') $head $table" \
        "$(y $n 'n["calls"], n["stream_calls"], n["rpcs"], n["rpcs"], True, n["calls"], n["stream_calls"], n["rpcs"], n["rpcs"]')" \
        "$proto: one count everywhere, every call replayed, not sent or without a handle ($(y $n 'n["calls"], n["not_sent"], n["not_replayable"]["no_replayed_handle"], n["trace_calls"]'))"
    beyond=$(y $n 'n["rpcs"] - n["calls"]')
    if [ $proto = TCP ]; then
        is "$beyond" 0 "$proto: as many RPCs as calls: none cut into pieces"
    else
        ok "$([ "$beyond" -ge 0 ] && [ "$beyond" -le "$udp_pieces" ]; echo $?)" \
            "$proto: the RPCs beyond the calls ($beyond) are pieces of 64 KiB READs, $udp_pieces at most"
    fi

    wire=$(nr_calls "$T_DIR/$n.pcapng" "$port" | grep -c .)
    is "$(y $n 'n["rpcs"], n["rpcs_unanswered"] == o["bad"]')" "$wire True" \
        "$proto: the RPCs sent are the calls on the wire ($wire), those never answered the bad calls ($(y $n 'n["rpcs_unanswered"]'))"

    ns=$(y $n 'n["not_sent"]')
    if [ $proto = TCP ]; then
        why="connection lost and not re-established in 1500 ms \(.*\)"
    else
        why="no reply in 1500 ms \(.*\)"
    fi
    like "$(grep 'unreachable' "$T_DIR/$n.err")" \
        "^sfs3: child 0: nfs replay: the server at 127\.0\.0\.1:$port:/export is unreachable: $why; $ns calls not replayed; the run ends early\$" \
        "$proto: stderr says so in one whole line"
    grep -q "ended early: the server could not be reached again; $ns calls due later were not replayed" "$T_DIR/$n.out" &&
        grep -q "INVALID RUN, the run ended early: the NFS server could not be reached again" "$T_DIR/$n.out"
    ok $? "$proto: the report says it ended early, with the $ns calls not replayed"
    bad=$(y $n 'o["bad"]')
    invalid=$(sed -n 's/.*Failed RPC calls (\([0-9]*\) of \([0-9]*\)).*/\1 \2/p' "$T_DIR/$n.out" | head -1)
    [ -z "$invalid" ] || is "$invalid" "$bad $(y $n 'n["rpcs"]')" "$proto: the failed calls' line counts the same RPCs ($invalid)"
    [ -n "$invalid" ] || ok 0 "$proto: no failed calls' line (bad calls $bad under 1 %)"
done
