#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: nfs synth
# sfs4's mix against sfs_nfsd's NFSv4 faults, each handled as a client
# does and none a bad call: BADSESSION on 2 % of SEQUENCEs (a new session,
# the call sent again), expired leases on 2 % (a new client, the calls
# sent again), DELAY on 5 % of GETATTRs (sent again after a wait).  Each
# fault happened (the server counts it) and the report's protocol rows
# count what the client did about it in the run (new sessions, new
# clients, resends after DELAY), a new client only per cut lease, the
# files it lost opened again before their next I/O (reopens, apart from
# the mix's calls), and at the end no client or session of sfs4's is left
# on the server.  SIGINT
# mid-run, to sfs4 alone or to its whole process group (a terminal's
# Ctrl-C), ends it with 130 and leaves no client or session on the server
# and no process running.
. "$(dirname "$0")/lib.sh"
plan 21
one() { # name what server-counter report-pattern server-options...
    local n=$1 what=$2 counter=$3 counted=$4 out
    shift 4
    start_nfsd "$n" --stats-file "$T_DIR/$n.yaml" --seed 1 "$@" || bail "no server"
    out=$("$T_BIN/sfs4" -l 100 -p 2 -w 1 -t 4 -F 300 -a 25 --progress 0 \
        --yaml "$T_DIR/$n.run.yaml" "$(eval echo \$${n}_URL)" 2>"$T_DIR/$n.err")
    is "$?" 0 "$what: sfs4 exits 0"
    like "$out" "BAD CALLS: 0 " "$what: 0 bad calls"
    like "$out" "$counted" "$what: the report counts the client's answers"
    ok "$([ "$(nfsd_stat "$n" "$counter")" -gt 0 ]; echo $?)" \
        "$what: the server injected it ($counter $(nfsd_stat "$n" "$counter"))"
    is "$(nfsd_stat "$n" clients)/$(nfsd_stat "$n" sessions)" "0/0" \
        "$what: no client or session left"
    if [ "$n" = E ]; then
        # a new client per lease cut and none more: a call sent again with
        # an old client's stateid is answered EXPIRED, which once made the
        # client anew (EXCHANGE_ID got the same client back, CREATE_SESSION
        # another session on it that was never destroyed, and about one
        # run in eight ended with a client and its sessions left)
        local exid cut
        exid=$(nfsd_stat "$n" exchange_id) cut=$(nfsd_stat "$n" leases_cut)
        ok "$([ "$exid" -le $((cut + 2)) ]; echo $?)" \
            "$what: at most one EXCHANGE_ID per process and per lease cut ($exid, $cut cut)"
        # the working set's files a new client lost were opened again
        # before their next READ, WRITE or SETATTR (counted apart from the
        # mix's calls), and no READ or WRITE went without an open (as those
        # of a file whose reopen failed would)
        is "$(python3 -c '
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))["protocol"]
print("reopens %s, anonymous I/O %d" % (
    "some" if 0 < p["reopens"] <= p["opens"] else p["reopens"], p["anonymous_io"]))' \
            "$T_DIR/$n.run.yaml")" "reopens some, anonymous I/O 0" \
            "$what: the files a new client lost were opened again"
    fi
}
one B "BADSESSION" errors_injected "new sessions [1-9]" --error sequence=BADSESSION:2
one E "expired leases" leases_expired "new clients [1-9]" --expire-leases 2
one D "DELAY" errors_injected "resends: [1-9][0-9]* after DELAY" --error getattr=DELAY:5

start_nfsd I --stats-file "$T_DIR/I.yaml" || bail "no server"
for how in alone group; do
    # a log of each run's own: the second run's wait once found the first's
    # line in a file not yet truncated, signalled a group not yet made, and
    # sfs4 ran its 60 s to exit 0
    setsid "$T_BIN/sfs4" -l 100 -p 2 -w 1 -t 60 -F 300 -a 25 --progress 0 "$I_URL" \
        >"$T_DIR/int-$how.out" 2>"$T_DIR/int-$how.err" &
    pid=$!
    track "$pid"
    wait_for "grep -q 'Starting 60 seconds' '$T_DIR/int-$how.err'" 400 0.05
    if [ "$how" = alone ]; then kill -INT "$pid"; else kill -INT -- "-$pid"; fi
    wait "$pid"
    is "$?" 130 "SIGINT ($how): exit 130"
    left=$(pgrep -g "$pid" | tr '\n' ' ')
    is "$(nfsd_stat I clients)/$(nfsd_stat I sessions)/$left" "0/0/" \
        "SIGINT ($how): no client, session or process left"
done
