#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# sfs3 over UDP against sfs_nfsd: 400 ops/s from 4 children reach 400 +-1 %
# (less the time the report says a starved client fell behind or gave up,
# none on a quiet machine) and every op stays within 1.5 points of its
# target mix
# (docs/SFS30.md §17.1).  Short warm-up and run; the file set is cut with -F/-a so that
# population takes seconds (the full-size matrix is bench/load.sh).
# 0311 (TCP) and 0312 (NFSv2) source this file with LOAD_PROG / LOAD_OPTS.
. "$(dirname "$0")/lib.sh"
prog=${LOAD_PROG:-sfs3}
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
# shellcheck disable=SC2086
out=$("$T_BIN/$prog" ${LOAD_OPTS:-} -l 400 -p 4 -w 6 -t 10 -F 16000 -a 25 \
    --yaml "$T_DIR/r.yaml" "$srv_URL" 2>"$T_DIR/err")
is "$?" 0 "$prog ${LOAD_OPTS:-} exits 0"
tput=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $4}')
bounds=$(rate_reached "$tput" 400 10 "$T_DIR/r.yaml")
ok $? "throughput $tput within 1 % of 400, less what the pacing says it lost ($bounds)"
unlike "$out" "Op mix missed" "every op within 1.5 points of its target"
unlike "$out" "Failed RPC calls|No good calls" "no failed calls"
like "$(cat "$T_DIR/r.yaml" 2>/dev/null)" "lookup" "YAML results written"
