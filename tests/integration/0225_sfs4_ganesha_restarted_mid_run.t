#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 400
# nfs-ganesha (NFSv4 enabled, files on disk) is stopped by its PID in the
# middle of an sfs4 run and started again on the same ports, as a server is
# restarted (scripts/ganesha-lo.sh restart).  The v4.1 client sees its
# connection go, connects again, finds its session gone (BADSESSION) and
# its client id too (STALE_CLIENTID), makes both again and sends its calls
# again; a READ, WRITE or SETATTR that carried an open's stateid of the old
# instance is sent again with the new state's.  Without a grace period the
# new instance answers the first reclaim of an open (CLAIM_PREVIOUS)
# NO_GRACE, so the files it does not know as open are opened again before
# their next READ, WRITE or SETATTR (reopens, counted apart from the mix).
# The run ends with its report: the reconnections counted, the calls sent
# again listed per op as the v4 client's (not as JUKEBOX retries), no bad
# call and no unexpected error.  Then again with a grace period: the opens
# are reclaimed, none opened again, and the calls answered GRACE are
# waited out.  Skips without root or ganesha.
. "$(dirname "$0")/lib.sh"
export PROTOCOLS="3, 4"
start_ganesha
plan 15
ganesha_restarted_run 1 5 -t 16
is "$?" 0 "sfs4 exits 0"
out=$(cat "$T_DIR/out1")
[ -s "$T_DIR/r1.yaml" ] || diag "$(tail -5 "$T_DIR/err1")"
like "$out" "TCP RECONNECTIONS: [1-9]" "the reconnections are counted"
like "$out" "BAD CALLS: 0 " "no bad call"
unlike "$out" "UNEXPECTED NFS ERRORS" "no unexpected NFS error: no stale stateid counted as the server's"
like "$out" "SENT AGAIN: [1-9][0-9]* \([a-z]+ [0-9]+.*\), by the NFSv4\.1 client after NFS4ERR_DELAY or GRACE, or after it made its session or client again" \
    "each child's first call after the restart is sent again on the new session, listed per op"
unlike "$out" "JUKEBOX RETRIES" "... not called JUKEBOX retries"
# reopened: the yaml's protocol counts; "none" when the run wrote no yaml
reopened() {
    python3 -c '
import sys, yaml
try:
    p = yaml.safe_load(open(sys.argv[1]))["protocol"]
except (OSError, KeyError, TypeError):
    print("none"); sys.exit()
some = lambda n: "some" if n > 0 else 0
print("restarts %d, reclaims %s, NO_GRACE %s, other failures %d, reopens %s, anonymous I/O %d"
      % (p["server_restarts"], some(p["reclaims"]), some(p["reclaim_no_grace"]),
         p["reclaim_bad"] + p["reclaim_errors"], some(p["reopens"]), p["anonymous_io"]))' "$1"
}
# without a grace period ganesha answers the reclaims (CLAIM_PREVIOUS)
# NO_GRACE: the rest are not tried, and the files are opened again
is "$(reopened "$T_DIR/r1.yaml")" \
    "restarts 2, reclaims 0, NO_GRACE some, other failures 0, reopens some, anonymous I/O 0" \
    "a reclaim answered NO_GRACE: the files the new instance lost were opened again, no READ or WRITE without an open"
ok "$([ -d "$GANESHA_DIR/export/CL1" ]; echo $?)" "the file set is on ganesha's disk"

# with a grace period (5 s, lease 5 s): the opens are reclaimed before
# RECLAIM_COMPLETE (test 0230 looks at them on the wire); the calls the
# new instance answers GRACE are held and sent again until it ends
# (ganesha ends it early once every client it knows sent
# RECLAIM_COMPLETE), neither bad nor errors
export GRACE=5 LEASE=5
GDIR=$GANESHA_DIR sh "$T_TOP/scripts/ganesha-lo.sh" restart >"$T_DIR/grace.log" 2>&1 ||
    bail "ganesha with a grace period did not start"
ganesha_restarted_run 2 5 -t 16
is "$?" 0 "with a grace period: sfs4 exits 0"
out=$(cat "$T_DIR/out2")
like "$(cat "$GANESHA_DIR/ganesha.log")" "NFS Server Now NOT IN GRACE" "ganesha went through a grace period"
like "$out" "BAD CALLS: 0 " "... no bad call"
unlike "$out" "UNEXPECTED NFS ERRORS" "... no GRACE or stale stateid counted as an error"
is "$(reopened "$T_DIR/r2.yaml")" \
    "restarts 2, reclaims some, NO_GRACE 0, other failures 0, reopens 0, anonymous I/O 0" \
    "... the opens reclaimed in the grace period: none opened again"
