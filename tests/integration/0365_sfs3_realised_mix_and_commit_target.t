#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The realised mix is reported, and COMMIT commits something:
# the text report and the YAML give the append share of write requests,
# the truncations, the no-fit (clipped) transfers per op and the calls per
# read and write request; and every v3 COMMIT goes to a file holding
# UNSTABLE data not yet committed whenever one exists (checked in the -z
# dump: a commit while some file has writes since its last commit must
# name such a file; no warm-up, so that every uncommitted write of the run
# is in the dump).  Before, COMMIT took a random working file (in this
# run about 15 of 20 commits per child missed every uncommitted file) and
# the realised mix was only partly in the YAML.
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd srv || bail "sfs_nfsd did not start"
out=$(TMPDIR=$T_DIR "$T_BIN/sfs3" -l 200 -p 2 -w 0 -t 5 -F 1000 -z --yaml "$T_DIR/r.yaml" \
    "$srv_URL" 2>"$T_DIR/err")
is "$?" 0 "the run completes"
like "$out" "REALISED MIX: [0-9.]+% of [0-9]+ write requests appended, [0-9]+ truncations; calls per request: read [0-9.]+, write [0-9.]+" \
    "append share, truncations and calls per request in the text report"
like "$out" "NO-FIT \(CLIPPED\) TRANSFERS: [0-9]+( \(.*\))?" "no-fit transfers per op in the text report"
y=$(cat "$T_DIR/r.yaml")
like "$y" "append_share_of_writes: 0\.[0-9]+" "the YAML has the append share"
like "$y" "calls_per_read_request: [0-9.]+" "the YAML has the calls per read request"
chk='$1 == "write" {if (!d[$4]) {d[$4] = 1; k++}}
     $1 == "commit" {n++; if (k > 0 && !d[$4]) miss++; if (d[$4]) {delete d[$4]; k--}}
     END {printf "%d %d", n, miss + 0}'
r0=$(awk "$chk" "$T_DIR/c001-p000")
r1=$(awk "$chk" "$T_DIR/c001-p001")
ok "$(test "${r0% *}" -gt 5 -a "${r1% *}" -gt 5; echo $?)" "the children sent commits ($r0 / $r1)"
is "${r0#* } ${r1#* }" "0 0" "no commit missed a file with uncommitted data"
