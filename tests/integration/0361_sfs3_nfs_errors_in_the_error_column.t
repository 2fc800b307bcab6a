#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# Errors the user must see: the Error Count column of the SFS
# table shows the NFS error replies the workload did not expect, per op;
# the report lists them per status; more than 1 % of them makes the run
# INVALID with its own reason line (a rule beyond SFS 3.0).  The errors the
# workload expects are not counted: the 35 % of lookups aimed at missing
# names get NOENT and still count as successes.  Before, every NFS error
# was a success: `--error getattr=IO:100` gave 229 getattr successes and 0
# errors, and a valid run.
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd errs --error getattr=IO:100 || bail "sfs_nfsd did not start"
start_nfsd good || bail "sfs_nfsd did not start"
out=$("$T_BIN/sfs3" -l 100 -p 2 -w 1 -t 3 -F 200 "$errs_URL" 2>"$T_DIR/err1")
is "$?" 0 "the run completes and reports"
row=$(printf '%s\n' "$out" | awk '$1 == "getattr"')
ok "$(printf '%s\n' "$row" | awk '{exit !($4 == 0 && $5 > 20)}'; echo $?)" \
    "getattr: 0 successes, every call an error ($row)"
ok "$(printf '%s\n' "$out" | awk '$1 == "lookup" {exit !($4 > 0 && $5 == 0)}'; echo $?)" \
    "lookup: its expected NOENT answers are not errors"
like "$out" "UNEXPECTED NFS ERRORS: [0-9]+ of [0-9]+ calls \([0-9.]+%\): IO [0-9]+; by op: getattr [0-9]+" \
    "the errors are listed by status and op under the table"
like "$out" "sfs3: INVALID RUN, [0-9.]+% Unexpected NFS errors" \
    "more than 1 % unexpected NFS errors: INVALID, with its own line"
# the same run against a healthy server: no error anywhere
out=$("$T_BIN/sfs3" -l 100 -p 2 -w 1 -t 3 -F 200 "$good_URL" 2>"$T_DIR/err2")
is "$(printf '%s\n' "$out" | awk '$2 ~ /%$/ && $3 ~ /%$/ {e += $5} END {print e + 0}')" 0 \
    "a healthy server: every Error Count is 0 (failed lookups included)"
unlike "$out" "UNEXPECTED NFS ERRORS|Unexpected NFS errors|Failed RPC" \
    "no error line, no INVALID line for errors"
