#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 300
# nfs-ganesha (NFSv4 enabled, a grace period, its recovery data kept in
# RecoveryRoot under the same GDIR) is stopped by its PID in the middle of
# an sfs4 run and started again, as a server is restarted.  Each sfs4
# process sees STALE_CLIENTID and a new server instance, makes a new client
# and, before its RECLAIM_COMPLETE, reclaims the opens of its working set
# with OPEN CLAIM_PREVIOUS by file handle (RFC 8881 8.4.2), as a Linux
# client does: the results count the restart and the reclaims, none
# refused, and no file had to be opened again.  tshark's decode of a
# capture of the run (lo, the server's port) shows the CLAIM_PREVIOUS
# OPENs answered before the RECLAIM_COMPLETE of their session, and no READ
# or WRITE with the anonymous stateid.  Skips without root, ganesha or
# tshark.
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_cmd dumpcap
need_python_yaml
export PROTOCOLS="3, 4"
start_ganesha
. "$(dirname "$0")/lib_nfscap.sh"
plan 12
# a grace period of 10 s after every start from now on (the lease 10 s:
# ganesha's grace is at least a lease); ganesha ends it early once every
# client it remembers sent RECLAIM_COMPLETE
export GRACE=10 LEASE=10
GDIR=$GANESHA_DIR sh "$T_TOP/scripts/ganesha-lo.sh" restart >"$T_DIR/grace.log" 2>&1 ||
    bail "ganesha with a grace period did not start"
CAP=$T_DIR/reclaim.pcapng
cap_start "$CAP" "$GANESHA_NFS_PORT" || bail "no capture"
ganesha_restarted_run 1 6 -t 20
is "$?" 0 "sfs4 exits 0"
ok "$([ "$RESTART_CLIENTS" -ge 2 ]; echo $?)" \
    "before the restart ganesha's recovery root named the run's clients ($RESTART_CLIENTS)"
cap_stop
out=$(cat "$T_DIR/out1")
[ -s "$T_DIR/r1.yaml" ] || diag "$(tail -5 "$T_DIR/err1")"
like "$out" "BAD CALLS: 0 " "no bad call"
unlike "$out" "UNEXPECTED NFS ERRORS" "no unexpected NFS error"
like "$out" "server restarts 2; opens reclaimed \(CLAIM_PREVIOUS\) [1-9][0-9]*, not reclaimed: 0 NO_GRACE, 0 RECLAIM_BAD, 0 other failures, 0 not tried" \
    "the report says each process saw the restart and reclaimed its opens"
# counted: the results' protocol section
counted() {
    python3 -c '
import sys, yaml
try:
    p = yaml.safe_load(open(sys.argv[1]))["protocol"]
except (OSError, KeyError, TypeError):
    print("none"); sys.exit()
print("restarts %d, reclaims %s, failed %d, reopens %d, anonymous I/O %d" % (
    p["server_restarts"], "some" if p["reclaims"] > 0 else 0,
    p["reclaim_no_grace"] + p["reclaim_bad"] + p["reclaim_errors"] + p["reclaim_untried"],
    p["reopens"], p["anonymous_io"]))' "$1"
}
is "$(counted "$T_DIR/r1.yaml")" "restarts 2, reclaims some, failed 0, reopens 0, anonymous I/O 0" \
    "the results: 2 restarts seen, opens reclaimed, none refused, none opened again, no I/O without an open"
like "$(cat "$GANESHA_DIR/ganesha.log")" "NFS Server Now IN GRACE" "ganesha went through a grace period"
chk=$(python3 "$T_TOP/tests/tools/nfs4-reclaim.py" "$CAP" "$GANESHA_NFS_PORT")
diag "$chk"
like "$chk" "^reclaims [1-9][0-9]* \(OK [1-9][0-9]*, others 0\) on 2 sessions" \
    "tshark: OPENs with CLAIM_PREVIOUS on the two new sessions, all answered OK"
like "$chk" "late 0," "tshark: each answered before its session's RECLAIM_COMPLETE went out"
like "$chk" "anonymous_io [0-9]+, after 0$" \
    "tshark: no READ or WRITE with the anonymous stateid once the reclaims began"
n_yaml=$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["protocol"]["reclaims"])' "$T_DIR/r1.yaml" 2>/dev/null)
like "$chk" "OK ${n_yaml:-x}," "... as many as the results count ($n_yaml)"
rm -f "$CAP"
