#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A client's processes sleep calls / rate between requests (SFS pacing):
# a second per call at 1 op/s.  RUN and STOP from the prime must cut that
# sleep short, or a process starts its run up to a whole sleep late and
# measures a shorter run than the prime's RUNTIME (the report's throughput
# is calls / that shorter time, above what the server saw: 4 ops/s
# claimed for 22 calls in 6 s).  Two clients of one process at 1 op/s,
# a 3 s run: the load that stays on between READY and RUN (DEBUG 7 logs
# it as a second warm-up phase) ends as soon as RUN arrives, not a
# second later, and the processes' measured run time (the YAML's
# test_time_exact_s, their mean) is the run time.
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
cd "$T_DIR" || bail "no test dir"
cat > slow_rc <<EOR
LOAD=2
CLIENTS="localhost localhost"
PROCS=1
MNT_POINTS=$srv_URL
NFS_VERSION=3
WARMUP_TIME=2
RUNTIME=3
FILE_COUNT=20
DEBUG=7
EOR
"$T_BIN/sfs_mgr" -r slow_rc -s slow >"$T_DIR/out" 2>&1
is "$?" 0 "the point ran" || diag "$(tail -5 "$T_DIR/out")"
held=$(sed -n 's/.*warm-up phase ended: [0-9]* requests in \([0-9.]*\) s/\1/p' \
    result/sfsc00[12].slow | awk 'NR % 2 == 0' | sort -n | tail -1)
ok "$(awk -v t="$held" 'BEGIN {exit !(t != "" && t < 0.4)}'; echo $?)" \
    "RUN ends the held load at once (longest hold ${held:-?} s, a sleep is 1 s)"
exact=$(awk '/^ *test_time_exact_s:/ {print $2; exit}' result/sfsres.slow.yaml)
ok "$(awk -v t="$exact" 'BEGIN {exit !(t >= 2.9 && t <= 3.1)}'; echo $?)" \
    "the processes measured the 3 s run (mean $exact s)"
ok "$(awk '/client +[12] localhost/ {n++} END {exit n != 2}' result/sfsres.slow; echo $?)" \
    "both clients reported"
# the per-client load of the results' parameters came from LOAD, not a default
src=$(awk '/^ *load:$/ {f = 1; next} f && /source:/ {sub(/.*source: /, ""); print; exit}' result/sfsres.slow.yaml)
is "$src" "'rc file'" "the YAML's load parameter names the rc file as its source"
