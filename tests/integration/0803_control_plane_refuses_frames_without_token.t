#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# check: ctl prime
# docs/DECISIONS.md D8: sfs_prime (the prime alone, clients started by hand)
# writes the run's token to a 0600 file and prints each client's command;
# a client with the wrong token, and a connection that is not FreeSFS at
# all, are refused and logged and never count as clients; the client with
# the right token (read on standard input) runs the point to the end.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 10
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/one_rc
prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=100 PRIME_TIMEOUT=30 \
    "WORK_DIR=$T_DIR/res"
tag=$(run_tag "$rc")
tok=$T_DIR/token
"$T_BIN/sfs_prime" -r "$rc" --token-file "$tok" >"$T_DIR/out" 2>"$T_DIR/err" &
prime=$!
track "$prime"
wait_log "$T_DIR/out" "on localhost: " 100 || diag "$(cat "$T_DIR/err")"
is "$(stat -c %a "$tok" 2>/dev/null)" 600 "the token file is private (0600)"
cmd=$(sed -n 's/^  on localhost: \(.*\) < .*/\1/p' "$T_DIR/out")
port=$(printf '%s' "$cmd" | sed -n 's/.*-M127\.0\.0\.1:\([0-9]*\) .*/\1/p')
like "$port" "^[0-9]+$" "the client command names the control port"
unlike "$cmd" "$(cat "$tok")" "the token is not on the client's command line"

# a stranger: bytes that are no FreeSFS frame
exec 7<>"/dev/tcp/127.0.0.1/$port" && printf 'GET / HTTP/1.0\r\n\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' >&7
exec 7>&-
# a client with the wrong token
echo 00112233445566778899aabbccddeeff >"$T_DIR/wrong"
# shellcheck disable=SC2086
$cmd <"$T_DIR/wrong" >"$T_DIR/wrong.out" 2>&1
wrong=$?
ok "$([ "$wrong" -ne 0 ]; echo $?)" "the client with the wrong token gives up (exit $wrong)"
log=$T_DIR/res/sfslog.one
wait_log "$log" "refused a hello frame from 127.0.0.1: wrong token" 50
like "$(cat "$log")" "refused a hello frame from 127.0.0.1: wrong token" \
    "the prime logs the refused frame"
like "$(cat "$log")" "not a FreeSFS control frame" "the prime logs the stranger"
# the real client
# shellcheck disable=SC2086
$cmd <"$tok" >"$T_DIR/client.out" 2>&1
is "$?" 0 "the client with the token runs to the end"
wait "$prime"
is "$?" 0 "sfs_prime exits 0"
is "$(wc -l <"$T_DIR/res/sfssum.one")" 1 "one sfssum line"
no_leftovers "$tag" 10
ok $? "no process of the run is left"
