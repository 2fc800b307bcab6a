#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# Non-standard settings are flagged: -F, --seed (other than
# 2231) and a mix file produce the same kind of "INVALID RUN, ILLEGAL
# PARAMETER: Non-standard" line as a short run time (--open-loop: see
# 0364, whose counters a slow server fails).  Before, -F and --seed left
# no trace in the report.  A run of 3600 calls from one child keeps the counter checks
# (mix within 1.5 points) passing, so that the parameter checks run.
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
printf 'SFS MIXFILE VERSION 2\nlookup 27\n' >"$T_DIR/mix"
out=$("$T_BIN/sfs3" -l 600 -p 1 -w 1 -t 6 -F 300 --seed 77 -m "$T_DIR/mix" "$srv_URL" \
    2>"$T_DIR/err")
is "$?" 0 "the run completes"
unlike "$out" "Op mix missed|Failed RPC|Unexpected NFS" "the counter checks pass"
like "$out" "sfs3: INVALID RUN, ILLEGAL PARAMETER: Non-standard File count 300 != 390 x load \(-F\)" "-F is flagged"
like "$out" "sfs3: INVALID RUN, ILLEGAL PARAMETER: Non-standard Random seed 77 != 2231" "--seed is flagged"
like "$out" "sfs3: INVALID RUN, ILLEGAL PARAMETER: Non-standard Mix file" "a mix file is flagged"
