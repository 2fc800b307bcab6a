#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# TCP: a lost connection is re-established, and a server that
# loses the file set is named: sfs_nfsd runs on fixed ports, so that it can be
# killed and started again on the same ones during a -Q run.
#  1. Killed and restarted (in memory: the file set is gone): the children
#     reconnect, their calls reach the new server, which answers STALE, and
#     the run stops with "the server's file handles went stale: was it
#     restarted?".
#  2. The next run rebuilds the file set (population is idempotent) and
#     completes with a report.
#  3. Killed for good: the run ends with its report, INVALID with the
#     cause, and the cause on stderr.
# Before, -Q exited 1 at the first lost connection with no report, and a
# restarted server gave a "valid" run with most calls answered STALE.
. "$(dirname "$0")/lib.sh"
plan 8
nport=$((T_PORT_BASE + 1))
mport=$((T_PORT_BASE + 2))
URL=127.0.0.1:$nport:/export
srv() {
    "$T_BIN/sfs_nfsd" --foreground -b 127.0.0.1 -p "$nport" -m "$mport" \
        >>"$T_DIR/nfsd.log" 2>&1 &
    SRV=$!
    track "$SRV"
    wait_for "grep -c '^ready' '$T_DIR/nfsd.log' | grep -qx $1" 200 0.05
}
# run_then_kill N SECONDS AFTER [restart]: a -Q run of SECONDS in the
# background; the server is killed AFTER seconds into the run (and started
# again on the same ports with "restart"); returns the run's exit code.
run_then_kill() {
    local n=$1 t=$2 after=$3 pid
    "$T_BIN/sfs3" -Q -l 60 -p 2 -w 0 -t "$t" -F 100 "$URL" >"$T_DIR/out$n" 2>"$T_DIR/err$n" &
    pid=$!
    track "$pid"
    wait_for "grep -q 'test run' '$T_DIR/err$n'" 600 0.05 || bail "run $n did not start"
    sleep "$after"
    stop_pid "$SRV"
    if [ "${4:-}" = restart ]; then
        sleep 0.3
        srv 2 || bail "sfs_nfsd did not start again on port $nport"
    fi
    wait_for "! alive $pid" 600 0.05
    wait "$pid"
}
srv 1 || bail "sfs_nfsd did not start on port $nport"

run_then_kill 1 10 1.5 restart
is "$?" 1 "run 1 fails once the restarted server answers STALE"
like "$(cat "$T_DIR/err1")" "the server's file handles went stale: was it restarted\?" \
    "and says why, after reconnecting to the new server"

out=$("$T_BIN/sfs3" -Q -l 60 -p 2 -w 0 -t 3 -F 100 "$URL" 2>"$T_DIR/err2")
is "$?" 0 "run 2 rebuilds the file set and completes"
like "$out" "TCP PROTOCOL" "run 2 reports"
unlike "$out$(cat "$T_DIR/err2")" "STALE|stale|Failed RPC" "run 2: no stale handle, no failed calls"

run_then_kill 3 4 1
is "$?" 0 "run 3 ends with a report although the server stayed away"
like "$(cat "$T_DIR/out3")" "sfs3: INVALID RUN, the run ended early: the NFS server could not be reached again" \
    "the report is INVALID and gives the cause"
like "$(cat "$T_DIR/err3")" "unreachable: connection lost and not re-established in 4000 ms" \
    "stderr names the server and the cause"
