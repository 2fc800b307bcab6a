#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 180
# Scale: 32 client entries on this host at a light load each, one
# point: the prime's single poll() loop drives all of them through the
# phases, aggregates 32 results (the sfssum line says 32 clients and the
# sum of their operations), and every process is gone afterwards.  (The
# control plane's fan-in toward 1 000 clients is measured by
# bench/prime_fanin, docs/PERFORMANCE.md.)  A second run has the prime
# send its heartbeats every 5 ms (FREESFS_TEST_HEARTBEAT_MS): a heartbeat
# then crosses nearly every client's RESULTS, and a client that closed with
# one unread reset its connection and lost its results (4 runs in 5).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 8
start_nfsd srv || bail "sfs_nfsd did not start"
clients=$(for i in $(seq 32); do printf 'localhost '; done)
rc=$T_DIR/many_rc
prime_rc "$rc" 'LOAD=320' "CLIENTS=\"$clients\"" PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 FILE_COUNT=50 "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0" || diag "$(tail -5 "$T_DIR/err")" "$(grep -i fail "$T_DIR/res/sfslog.many")"
l=$(cat "$T_DIR/res/sfssum.many")
is "$(sumfield "$l" 9)" 32 "the sfssum line counts 32 clients"
ops=$(sumfield "$l" 4)
ok "$([ "$ops" -ge 1152 ] && [ "$ops" -le 1408 ]; echo $?)" \
    "$ops operations: 32 clients x 10 ops/s x 4 s, within 10 %"
is "$(grep -c 'results received' "$T_DIR/res/sfslog.many")" 32 "32 results received"
is "$(ls "$T_DIR"/res/sfsc0[0-9][0-9].many | wc -l)" 32 "one log per client"
no_leftovers "$tag" 10
ok $? "no process of the run is left"
rm -rf "$T_DIR/res"
FREESFS_TEST_HEARTBEAT_MS=5 "$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "heartbeats every 5 ms: sfs_mgr exits 0" ||
    diag "$(tail -5 "$T_DIR/err")" "$(grep -i fail "$T_DIR/res/sfslog.many")"
is "$(grep -c 'results received' "$T_DIR/res/sfslog.many")" 32 "... and has the 32 results"
