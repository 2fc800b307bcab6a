#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# The throughput sfs3 reports never exceeds what the server answered.  A
# server of fixed capacity (sfs_nfsd --service-us 2000: one call at a
# time, 2 ms each, 500 calls/s) makes the truth known, beside a CPU hog
# per core, as on the loaded machine where a run reported 2 292 calls/s
# from a server of 2 000.  What the load does there - a process that
# wakes late to the run - is made certain here: half of the children are
# stopped (SIGSTOP) and continue 2 s after the other half.  Each child
# still runs its 3 s, so their windows are shifted, and the late half has
# the server to itself at the end.  Dividing the calls by the children's
# mean run time (3 s) credited the server with 5 s of calls in 3 s (~830
# ops/s against its 500); over the span of the run (first start to last
# end, 5 s) the figure is what the server did: no more than 500 ops/s, no
# tolerance needed (the k-th reply of the run leaves the server 2k ms
# after the run's first call at the earliest, on the same clock).  The
# calls reported are those the server answered between a stats reading
# before RUN and one after (TCP, getattr only: no retransmission, no call
# of the warm-up's hold in between).  About 9 s.
. "$(dirname "$0")/lib.sh"
plan 6
start_nfsd srv --service-us 2000 --stats-file "$T_DIR/srv.yaml" ||
    bail "sfs_nfsd did not start"
v3_calls() { # the server's NFSv3 calls so far
    rm -f "$T_DIR/srv.yaml"
    kill -USR1 "$srv_PID"
    wait_for "[ -s '$T_DIR/srv.yaml' ]" 100 0.05
    awk '/^nfs_v3:/ {on = 1; next} /^[^ ]/ {on = 0} on {n += $2} END {print n + 0}' \
        "$T_DIR/srv.yaml"
}
prompted_start "$T_BIN/sfs3" -Q -i -d 2 -T 1 -l 2000 -p 4 -w 1 -t 3 -F 100 \
    --progress 0 --yaml "$T_DIR/r.yaml" "$srv_URL" || bail "sfs3 did not prompt"
kids=$(sed -n 's/.*child \([0-9]*\) is pid \([0-9]*\).*/\1 \2/p' "$T_DIR/err")
early=$(printf '%s\n' "$kids" | awk '$1 < 2 {print $2}')
late=$(printf '%s\n' "$kids" | awk '$1 >= 2 {print $2}')
[ "$(printf '%s\n' $early $late | wc -l)" -eq 4 ] || bail "child pids: $kids"
# every child stopped (their getattr in flight answered) before the reading
kill -STOP $early $late
sleep 0.3
before=$(v3_calls)
start_cpu_hogs
echo >&7 # Return: RUN goes to every child
kill -CONT $early
sleep 2
kill -CONT $late
wait "$PROMPTED_PID"
is "$?" 0 "sfs3 exits 0"
for h in $HOGS; do stop_pid "$h"; done
exec 7>&-
after=$(v3_calls)
y() { sed -n "s/^ *$1: //p" "$T_DIR/r.yaml" | head -1; }
ops=$(y throughput_ops)
calls=$(($(y total_ops) + $(y failed_calls)))
span=$(y test_time_exact_s)
diag "reported $ops ops/s, $calls calls over $span s; the server answered $((after - before))"
is "$calls" "$((after - before))" "the calls reported are the calls the server answered in the run"
ok "$(awk -v o="$ops" 'BEGIN {exit !(o > 0 && o <= 500)}'; echo $?)" \
    "$ops ops/s: no more than the server's 500 calls/s"
ok "$(awk -v s="$span" 'BEGIN {exit !(s >= 4.9 && s < 7)}'; echo $?)" \
    "the run is counted over its span, first start to last end ($span s, not 3)"
ok "$(awk -v o="$ops" -v c="$calls" -v s="$span" \
    'BEGIN {exit !(o * s <= c + 1 && o * s >= c - 1)}'; echo $?)" \
    "throughput x time = the calls ($ops x $span ~ $calls)"
secs=$(awk -v s="$span" 'BEGIN {printf "%d", s + 0.5}')
like "$(grep 'TEST TIME' "$T_DIR/out")" "TEST TIME: $secs Sec" "TEST TIME prints that span ($span s)"
