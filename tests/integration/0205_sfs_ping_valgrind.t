#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0205_sfs_ping_valgrind.t - the engine's valgrind twin (docs/STYLE.md 2.9):
# sfs_ping under memcheck over UDP and TCP, many calls in flight, against
# the NFSv2 responder, and against a peer sending truncated replies (the
# partial-decode path): no invalid access, no leak.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_cmd valgrind

P=$T_BIN/sfs_ping
R=$(tool_path v2_responder) || bail "tests/tools/v2_responder not built"
BAD=$(tool_path rpc_badpeer) || bail "tests/tools/rpc_badpeer not built"
plan 6

"$R" -b 127.0.0.1 -p "$T_PORT_BASE" -e /export >"$T_DIR/responder.log" 2>&1 &
track $!
"$BAD" -p $((T_PORT_BASE + 1)) -m truncated >"$T_DIR/bad.log" 2>&1 &
track $!
wait_for "grep -q '^ready' '$T_DIR/responder.log' && grep -q '^ready' '$T_DIR/bad.log'" 100 0.05 ||
    bail "peers did not start"

VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
for tr in udp tcp; do
    q=""; [ $tr = tcp ] && q=-Q
    for op in getattr read; do
        $VG "$P" -2 $q -c 300 -o 16 -p $op "127.0.0.1:$T_PORT_BASE:/export" \
            >"$T_DIR/out" 2>"$T_DIR/err"
        rc=$?
        is "$rc" 0 "valgrind clean: v2 $tr $op, 16 in flight"
        [ $rc -eq 0 ] || diag "$(head -30 "$T_DIR/err")"
    done
done
$VG "$P" -t 1000 "127.0.0.1:$((T_PORT_BASE + 1)):/export" >/dev/null 2>"$T_DIR/err"
is "$?" 1 "valgrind clean on a truncated reply (exit 1, not 99)"
$VG "$P" -Q -t 1000 "127.0.0.1:$((T_PORT_BASE + 1)):/export" >/dev/null 2>"$T_DIR/err"
is "$?" 1 "valgrind clean on a truncated reply over TCP"
