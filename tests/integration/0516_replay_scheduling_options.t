#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# The scheduling options of a trace replay (docs/replay.md "Lateness")
# do what they say, read from the replay's own processes while they
# replay: the 1 ns timer slack, --cpus's CPU per process (in the list's
# order), --realtime's SCHED_FIFO priority (when the system grants it to
# this user; the kernel keeps a real-time process's slack at 0).  --spin is
# bounded: a 3 s trace of a call every 50 ms, its last 1 ms before each
# call polled, costs under half a CPU second for the whole run (about
# 0.05 s), where two processes that never slept would take up to 6 s (and
# about 1 s even on a machine with a load of 12), and a real-time replay
# whose server stalls waits for it asleep.  A real-time class the system refuses (no
# CAP_SYS_NICE, RLIMIT_RTPRIO 0) stops the run before anything is prepared,
# with one line and its own exit code, as a bad --cpus and --spin do.
# Nothing here is a speed: bench/replay_lateness.sh measures the lateness.
. "$(dirname "$0")/lib.sh"
need_cmd chrt
need_cmd prlimit
plan 15
start_nfsd srv || bail "sfs_nfsd did not start"
# 60 records over two ASUs, one every 50 ms: 3 s
awk 'BEGIN { for (i = 0; i < 60; i++)
    printf "%d,%d,4096,%s,%.6f\n", i % 2, i * 8, i % 3 ? "W" : "R", i * 0.05 }' >"$T_DIR/t.spc"
rt=0
chrt -f 5 true 2>/dev/null && rt=1
ncpu=$(nproc)
cpus=0 want="0 "
[ "$ncpu" -gt 1 ] && cpus="1,0" want="0 1 "
# replay ARGS...: sfs3 -p 2 replays the trace in the background (runner:
# time's pid) and kids gets its two processes once both replay: the run
# sets their slack as it begins (1 ns; the kernel keeps a real-time
# process's at 0)
replay() {
    /usr/bin/time -f '%U %S' -o "$T_DIR/cpu" "$T_BIN/sfs3" -p 2 --trace "$T_DIR/t.spc" \
        "$@" --yaml "$T_DIR/r.yaml" "$srv_URL" >"$T_DIR/out" 2>"$T_DIR/err" &
    runner=$!
    track "$runner"
    kids=""
    wait_for 'kids=$(replaying); [ "$(echo $kids | wc -w)" -eq 2 ]' 100 0.05
}
replaying() {
    local p
    for p in $(pgrep -P "$(pgrep -P "$runner")"); do
        case $(cat "/proc/$p/timerslack_ns" 2>/dev/null) in 0 | 1) echo "$p" ;; esac
    done
}
replay --spin 1000 --cpus "$cpus"
is "$(for p in $kids; do cat "/proc/$p/timerslack_ns"; done | tr '\n' ' ')" "1 1 " \
    "both replay processes run under 1 ns of timer slack"
is "$(for p in $kids; do sed -n 's/^Cpus_allowed_list:\t*//p' "/proc/$p/status"; done |
    sort | tr '\n' ' ')" "$want" "--cpus $cpus: one process on each CPU of the list, in turn"
wait "$runner"
is "$?" 0 "the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
like "$(cat "$T_DIR/out")" "records 60, calls 60," "every record replayed"
cpu=$(awk '{ print $1 + $2 }' "$T_DIR/cpu")
ok "$(awk -v c="$cpu" 'BEGIN { exit !(c < 0.5) }'; echo $?)" \
    "--spin 1000 over a 3 s trace of 60 calls: $cpu CPU seconds, the spin is bounded"
if [ "$rt" = 1 ]; then
    replay --realtime 5
    pol=$(for p in $kids; do chrt -p "$p" | tr '\n' ' '; echo; done)
    is "$(printf '%s\n' "$pol" | grep -c 'SCHED_FIFO.*priority: 5')" 2 \
        "--realtime 5: both replay in SCHED_FIFO at priority 5" || diag "$pol"
    # the server stalls for 1.5 s: the real-time processes wait for its
    # answers asleep, not polling (they would take their CPUs from
    # everything else)
    kill -STOP "$srv_PID"
    sleep 1.5
    kill -CONT "$srv_PID"
    wait "$runner"
    is "$?" 0 "the real-time replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
    cpu=$(awk '{ print $1 + $2 }' "$T_DIR/cpu")
    ok "$(awk -v c="$cpu" 'BEGIN { exit !(c < 0.5) }'; echo $?)" \
        "a 1.5 s stall of the server in a real-time replay: $cpu CPU seconds in all"
else
    skip "this user may not have SCHED_FIFO (chrt -f 5 true failed)"
    skip "this user may not have SCHED_FIFO"
    skip "this user may not have SCHED_FIFO"
fi

# refusals: one line, the option's exit code, nothing run
run_bad() { # EXPECTED-CODE WHAT ARGS...: sfs3 exits with the code; its output in bad
    local code=$1 what=$2 rc
    shift 2
    bad=$("$@" -p 1 --trace "$T_DIR/t.spc" --yaml "$T_DIR/bad.yaml" "$srv_URL" 2>&1)
    rc=$?
    is "$rc" "$code" "$what: exit $code" || diag "$bad"
}
rm -f "$T_DIR/bad.yaml"
nope=""
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    nope="setpriv --bounding-set=-sys_nice --inh-caps=-sys_nice"
run_bad 53 "--realtime refused (no CAP_SYS_NICE, RLIMIT_RTPRIO 0)" \
    prlimit --rtprio=0:0 $nope "$T_BIN/sfs3" --realtime 10
like "$bad" "--realtime 10: the system refuses the real-time class SCHED_FIFO to this user \(Operation not permitted\): it needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 10" \
    "it says why and what would grant it"
ok "$([ ! -e "$T_DIR/bad.yaml" ] && ! printf '%s' "$bad" | grep -q 'records'; echo $?)" \
    "nothing was replayed and no results written"
run_bad 54 "--cpus 0,1000 (a CPU this machine does not give)" "$T_BIN/sfs3" --cpus 0,1000
like "$bad" "--cpus 0,1000: CPU 1000 is not one this process may run on" "it names the CPU"
run_bad 54 "--cpus 0-x" "$T_BIN/sfs3" --cpus 0-x
run_bad 52 "--spin 20000 (above 10 ms)" "$T_BIN/sfs3" --spin 20000
