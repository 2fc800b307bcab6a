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
# of the warm-up's hold in between: each child is stopped where it reads
# RUN before its next call).  Each child asks 2 000 calls/s, four times
# what the whole server gives, so that a child that runs - even the last
# one still running while the others are stopped - is always behind and
# waits for a reply, never sleeps in its pacer: asking 500/s, the last
# child alone was on schedule and slept between calls, and the stops
# beside CPU hogs kept landing outside a call (one run in four).
# About 9 s.
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
prompted_start "$T_BIN/sfs3" -Q -i -d 2 -T 1 -l 8000 -p 4 -w 1 -t 3 -F 100 \
    --progress 0 --yaml "$T_DIR/r.yaml" "$srv_URL" || bail "sfs3 did not prompt"
kids=$(sed -n 's/.*child \([0-9]*\) is pid \([0-9]*\).*/\1 \2/p' "$T_DIR/err")
early=$(printf '%s\n' "$kids" | awk '$1 < 2 {print $2}')
late=$(printf '%s\n' "$kids" | awk '$1 >= 2 {print $2}')
[ "$(printf '%s\n' $early $late | wc -l)" -eq 4 ] || bail "child pids: $kids"
# Every child is stopped before the reading, each where it sends nothing
# more before it reads RUN, with every call it sent answered: between its
# one getattr (a child's calls are synchronous) and the reply, which has
# arrived (the server counts a call before it replies).  A child stopped
# elsewhere - maybe between its look at the parent's socket and its next
# call - continues and is stopped again.
reply_waiting() { # the child's NFS connection holds a reply it has not read
    local inodes
    inodes=$(find "/proc/$1/fd" -lname 'socket:*' -printf '%l ' 2>/dev/null |
        tr -dc '0-9 ')
    awk -v port="$(printf '%04X' "$srv_NFS_PORT")" -v inodes="$inodes" '
        BEGIN {n = split(inodes, a, " "); for (i = 1; i <= n; i++) mine[a[i]] = 1}
        $3 ~ (":" port "$") && ($10 in mine) {split($5, q, ":"); if (q[2] != "00000000") f = 1}
        END {exit !f}' /proc/net/tcp
}
run_waiting() { # the child's control socket holds the parent's RUN, unread
    local inodes
    inodes=$(find "/proc/$1/fd" -lname 'socket:*' -printf '%l ' 2>/dev/null |
        tr -dc '0-9 ')
    ss -x -n | awk -v inodes="$inodes" '
        BEGIN {n = split(inodes, a, " "); for (i = 1; i <= n; i++) mine[a[i]] = 1}
        ($6 in mine) && $3 > 0 {f = 1}
        END {exit !f}'
}
stopped() { [ "$(awk '{print $3}' "/proc/$1/stat")" = T ]; }
stop_settled() {
    local try
    for try in $(seq 50); do
        kill -STOP "$1"
        wait_for "stopped $1" 200 0.01 || return 1
        wait_for "reply_waiting $1" 20 0.01 && return 0
        kill -CONT "$1"
    done
    return 1
}
for pid in $early $late; do
    stop_settled "$pid" || bail "child $pid: not stopped between a call and its reply"
done
before=$(v3_calls)
start_cpu_hogs
echo >&7 # Return: RUN goes to every child
# the parent sends RUN when it gets the CPU: a child continued before its
# RUN arrived would send one more call of the warm-up's hold (answered
# after the reading, reported nowhere: the answered call one run in ten
# beside CPU hogs once showed more than reported)
for pid in $early $late; do
    wait_for "run_waiting $pid" 400 0.05 || bail "child $pid: no RUN from its parent in 20 s"
done
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
# Every call reported was answered in the run, and every call answered in
# the run is reported.
answered=$((after - before))
is "$calls" "$answered" "the calls reported ($calls) are the calls the server answered in the run ($answered)"
ok "$(awk -v o="$ops" 'BEGIN {exit !(o > 0 && o <= 500)}'; echo $?)" \
    "$ops ops/s: no more than the server's 500 calls/s"
ok "$(awk -v s="$span" 'BEGIN {exit !(s >= 4.9 && s < 7)}'; echo $?)" \
    "the run is counted over its span, first start to last end ($span s, not 3)"
ok "$(awk -v o="$ops" -v c="$calls" -v s="$span" \
    'BEGIN {exit !(o * s <= c + 1 && o * s >= c - 1)}'; echo $?)" \
    "throughput x time = the calls ($ops x $span ~ $calls)"
secs=$(awk -v s="$span" 'BEGIN {printf "%d", s + 0.5}')
like "$(grep 'TEST TIME' "$T_DIR/out")" "TEST TIME: $secs Sec" "TEST TIME prints that span ($span s)"
