#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# Load stays on until START (SFS behaviour): between the end of the
# warm-up (every client READY) and START, PRIME_SLEEP seconds later, the
# children keep their load running, so the server sees calls all through
# the pause (sfs_nfsd's counters, read twice inside it); and none of those
# calls is counted: the run reports about load x run time operations.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 5
start_nfsd srv --stats-file "$T_DIR/stats.yaml" || bail "sfs_nfsd did not start"
rc=$T_DIR/hold_rc
prime_rc "$rc" 'LOAD=100' 'CLIENTS=localhost' PROCS=2 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 PRIME_SLEEP=5 RUNTIME=3 FILE_COUNT=200 \
    "WORK_DIR=$T_DIR/res"
calls() {
    rm -f "$T_DIR/stats.yaml"
    kill -USR1 "$srv_PID"
    wait_for "[ -s '$T_DIR/stats.yaml' ]" 50 0.05
    sed -n 's/^calls_answered: *//p' "$T_DIR/stats.yaml"
}
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err" &
mgr=$!
track "$mgr"
log=$T_DIR/res/sfslog.hold
wait_log "$log" "All clients READY" 300 || diag "$(cat "$T_DIR/err")"
sleep 0.5
c1=$(calls)
sleep 2
c2=$(calls)
started=$(grep -c "Starting 3 seconds test run" "$log")
is "$started" 0 "both samples fall inside the pause before START"
# 100 ops/s for 2 s: at least half of it must have reached the server
ok "$([ $((c2 - c1)) -ge 100 ]; echo $?)" \
    "the server saw $((c2 - c1)) calls in 2 s of the pause (load stays on)"
wait "$mgr"
is "$?" 0 "sfs_mgr exits 0"
line=$(cat "$T_DIR/res/sfssum.hold")
ops=$(sumfield "$line" 4)
# 100 ops/s x 3 s; the warm-up and the pause would add 600 calls or more
ok "$([ "$ops" -ge 270 ] && [ "$ops" -le 330 ]; echo $?)" \
    "the run counts $ops calls: neither the warm-up nor the pause"
ok "$(awk '/All clients READY/ {r=$4} /Starting 3 seconds test run/ {s=$4}
    END {split(r, a, ":"); split(s, b, ":"); d=(b[1]*3600+b[2]*60+b[3])-(a[1]*3600+a[2]*60+a[3]);
    exit !(d >= 5 && d <= 7)}' "$log"; echo $?)" "START came PRIME_SLEEP after READY"
