#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 480
# 0707_nreplay_lost_replies_counted.t - an NFS trace replay counts the
# replies a server loses (docs/nfs_replay.md, "Faults").  The trace is the
# validation suite's traffic (captured on lo).
#   - 5 % of the replies dropped (sfs_nfsd --drop-replies 5), over UDP: the
#     calls are sent again after their timeout; each one answered only after
#     its timeout is a bad call (as in the SFS mix), the text and the YAML
#     give the same counts, and the replies the server says it dropped
#     during the replay (its stats at the prompt and at the end) are the
#     calls' sends again plus five sends for each call never answered;
#   - the same over TCP (a seed whose first drop falls after the mount and
#     the preparation, checked at the prompt): a call whose reply is lost
#     is not answered within its 60 s timeout and is a bad call; the server's
#     drops are the calls not answered; the run time (-t 3) cuts the replay
#     and its calls not sent are counted;
# Every time, no process of the run is left. The restart of a server
# mid-replay is 0719's (it holds the machine-wide ganesha lock only for
# its own few seconds, not for this test's two minutes).
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd capinfos
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
plan 10

nr_validation_capture "$T_DIR/v.pcapng"
is "$?" 0 "the validation suite ran against sfs_nfsd while captured"

# lossy NAME URL [sfs3 options]: replays the capture at speed 0 with sfs3 -i
# against sfs_nfsd NAME (its stats file $T_DIR/NAME.yaml); DROP0 and DROP1
# are the replies it dropped before the replay and after it; RC sfs3's exit
# status; its output in $T_DIR/NAME.out, its YAML in $T_DIR/NAME.r.yaml.
lossy() {
    local n=$1 url=$2
    shift 2
    prompted_start "$T_BIN/sfs3" -i "$@" -p 1 --speed 0 --trace "$T_DIR/v.pcapng" \
        --yaml "$T_DIR/$n.r.yaml" "$url" || bail "no prompt"
    DROP0=$(nfsd_stat "$n" replies_dropped)
    prompted_go
    RC=$PROMPTED_RC
    DROP1=$(nfsd_stat "$n" replies_dropped)
    cp "$T_DIR/out" "$T_DIR/$n.out"
}
# y NAME EXPR: a value of NAME's YAML (g; r: its results, n: nfs_replay,
# l: the replay's lost_replies); "a, b" prints "a b".
y() {
    python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); r = g['results']; n = g['nfs_replay']; l = n['lost_replies']; print($2)" "$T_DIR/$1.r.yaml"
}
# the text's figures: BAD CALLS, RETRANSMITTED CALLS and the replay's line
# "lost replies: A calls sent again (B sends again), C answered only after
# their timeout and D not answered or failed: E bad calls"
text_counts() {
    local bad retr lost
    bad=$(sed -n 's/^BAD CALLS: \([0-9]*\) (\([0-9]*\) answered.* \([0-9]*\) not answered.*/\1 \2 \3/p' "$T_DIR/$1.out")
    retr=$(sed -n 's/^RETRANSMITTED CALLS: \([0-9]*\).*/\1/p' "$T_DIR/$1.out")
    lost=$(sed -n 's/^  lost replies: \([0-9]*\) calls sent again (\([0-9]*\) sends again), \([0-9]*\) answered only after their timeout and \([0-9]*\) not answered or failed: \([0-9]*\) bad calls$/\1 \2 \3 \4 \5/p' "$T_DIR/$1.out")
    echo "$bad / $retr / $lost"
}

# ---- 5 % of the replies lost, UDP -------------------------------------------------
start_nfsd U --drop-replies 5 --stats-file "$T_DIR/U.yaml" || bail "sfs_nfsd did not start"
lossy U "$U_URL"
is "$RC $(left)" "0 none" "UDP, 5 % of the replies dropped: the replay completes, nothing left running"
is "$(text_counts U)" \
    "$(y U 'r["failed_calls"], r["late_calls"], r["failed_calls"] - r["late_calls"]') / $(y U 'r["retransmitted_calls"]') / $(y U 'l["calls_sent_again"], l["sends_again"], l["answered_late"], l["not_answered"], l["bad_calls"]')" \
    "UDP: the text and the YAML give the same bad, late and retransmitted calls ($(text_counts U))"
is "$(y U 'l["bad_calls"] == r["failed_calls"] == l["answered_late"] + l["not_answered"], l["calls_sent_again"] == l["answered_late"] > 0, n["not_sent"], n["calls"] + n["not_replayable"]["no_replayed_handle"] == n["trace_calls"], g["validity"]["code"]')" \
    "True True 0 True 15" \
    "UDP: every call sent again was answered only after its timeout, a bad call; every call replayed (or without a handle: its creation sent again found it made); INVALID (15: failed calls)"
is "$((DROP1 - DROP0))" "$(y U 'l["sends_again"] + 5 * l["not_answered"]')" \
    "UDP: the server's dropped replies ($DROP0 before the replay, $DROP1 after) are the sends again plus five per call never answered"

# ---- 5 % of the replies lost, TCP -------------------------------------------------
# seed 100112: the server's first drop is its 31st answer, after the mount
# and the preparation (18 calls) - said below if that changes
start_nfsd T --drop-replies 5 --seed 100112 --stats-file "$T_DIR/T.yaml" ||
    bail "sfs_nfsd did not start"
lossy T "$T_URL" -Q -t 3
[ "$DROP0" = 0 ] || diag "the server dropped $DROP0 replies before the replay: another seed is needed"
is "$RC $(left)" "0 none" "TCP, 5 % of the replies dropped: the replay ends with its report (cut by -t 3 after its calls' timeouts), nothing left running"
is "$(text_counts T)" \
    "$(y T 'r["failed_calls"], r["late_calls"], r["failed_calls"] - r["late_calls"]') / $(y T 'r["retransmitted_calls"]') / $(y T 'l["calls_sent_again"], l["sends_again"], l["answered_late"], l["not_answered"], l["bad_calls"]')" \
    "TCP: the text and the YAML give the same counts ($(text_counts T))"
is "$DROP0 $((DROP1 - DROP0)) $(y T 'l["not_answered"], l["bad_calls"], l["sends_again"]')" \
    "0 $((DROP1 - DROP0)) $((DROP1 - DROP0)) $((DROP1 - DROP0)) 0" \
    "TCP: each reply the server dropped is a call never answered, a bad call ($((DROP1 - DROP0)))"
is "$(y T "$((DROP1 - DROP0)) > 0, n['cut'], n['not_sent'] > 0, n['calls'] + n['not_sent'] + n['not_replayable']['no_replayed_handle'] == n['trace_calls'], g['validity']['code']")" \
    "True True True True 15" "TCP: the calls not sent are counted; INVALID (15)"
grep -Eq "^  cut by the run time .*: $(y T 'n["not_sent"]') calls due later were not replayed" "$T_DIR/T.out"
ok $? "TCP: the report says how many calls the run time left"
