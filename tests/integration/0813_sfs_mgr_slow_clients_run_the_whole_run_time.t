#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A client's processes sleep calls / rate between requests (SFS pacing):
# two seconds per call at 0.5 op/s.  RUN and STOP from the prime must cut
# that sleep short, or a process starts its run up to a whole sleep late
# and measures a shorter run than the prime's RUNTIME (the report's
# throughput is calls / that shorter time, above what the server saw: 4
# ops/s claimed for 22 calls in 6 s).  Two clients of two processes at
# 0.5 op/s each, a 3 s run: the load that stays on between READY and RUN
# (DEBUG 7 logs it as a second warm-up phase) ends as soon as RUN arrives,
# not at the end of its sleep, and the processes' measured run time (the
# YAML's test_time_exact_s, their mean) is the run time.  The bounds hold
# on a busy machine and still catch the sleep's late start: the hold lasts
# the clients' READY and RUN round trip, which a busy machine stretches by
# the processes' waits for the CPU (the bounds were 0.4 s, and 2.9 s for
# the run, with a sleep of 1 s, and a busy machine failed them once),
# where an uncut sleep held it about 2 s; and a process's run is short by
# how much later RUN reached it than STOP did, where a late start made it
# short by half a sleep, 1 s, on average.
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
cd "$T_DIR" || bail "no test dir"
cat > slow_rc <<EOR
LOAD=2
CLIENTS="localhost localhost"
PROCS=2
MNT_POINTS=$srv_URL
NFS_VERSION=3
WARMUP_TIME=2
RUNTIME=3
FILE_COUNT=20
DEBUG=7
EOR
"$T_BIN/sfs_mgr" -r slow_rc -s slow >"$T_DIR/out" 2>&1
is "$?" 0 "the point ran" || diag "$(tail -5 "$T_DIR/out")"
# the second warm-up line of each client's first child (DEBUG 7 logs child 0) is its hold's
held=$(awk '/child [0-9]+: warm-up phase ended: / {
        k = FILENAME " " $3; if (++n[k] == 2) {sub(/.* requests in /, ""); print $1; h++}
    } END {if (h != 2) print 99}' result/sfsc00[12].slow | sort -n | tail -1)
ok "$(awk -v t="$held" 'BEGIN {exit !(t != "" && t < 1.0)}'; echo $?)" \
    "RUN ends the held load at once (longest hold ${held:-?} s, a sleep is 2 s)"
exact=$(awk '/^ *test_time_exact_s:/ {print $2; exit}' result/sfsres.slow.yaml)
ok "$(awk -v t="$exact" 'BEGIN {exit !(t >= 2.7 && t <= 3.1)}'; echo $?)" \
    "the processes measured the 3 s run (mean $exact s)"
ok "$(awk '/client +[12] localhost/ {n++} END {exit n != 2}' result/sfsres.slow; echo $?)" \
    "both clients reported"
# the per-client load of the results' parameters came from LOAD, not a default
src=$(awk '/^ *load:$/ {f = 1; next} f && /source:/ {sub(/.*source: /, ""); print; exit}' result/sfsres.slow.yaml)
is "$src" "'rc file'" "the YAML's load parameter names the rc file as its source"
