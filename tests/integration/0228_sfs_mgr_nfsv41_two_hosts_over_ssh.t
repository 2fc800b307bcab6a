#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 240
# check: prime synth
# An NFSv4.1 curve over two hosts: a test bed of two network namespaces
# with one sshd each (scripts/testbed.sh), sfs_nfsd on the bridge address,
# sfs_mgr starting sfs4 on both clients with ssh as RSH (NFS_VERSION=4, TCP
# not said), two load points.  The result files say NFSv4 over TCP for
# both points and both clients: sfssum (version 4, transport T, 2
# clients), each client's report from its own host, the aggregate report,
# the YAML and the picture; no FreeSFS process is left on any host.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
testbed_start fs0228 10.228.22 2
plan 11
rc=$T_DIR/hosts_rc
prime_rc "$rc" 'LOAD="100 200"' 'CLIENTS="client1 client2"' PROCS=2 \
    "MNT_POINTS=\"$TB_MOUNT\"" NFS_VERSION=4 WARMUP_TIME=3 RUNTIME=6 \
    FILE_COUNT=200 ACCESS_PCNT=25 "WORK_DIR=$T_DIR/res" \
    "RSH=\"ssh -F $TESTBED_DIR/ssh_config\""
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" -s v4 >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0" || diag "$(tail -5 "$T_DIR/err")"
R=$T_DIR/res
is "$(wc -l <"$R/sfssum.v4")" 2 "two sfssum lines"
pts=$(while read -r l; do
    echo "$(sumfield "$l" 1) $(sumfield "$l" 6) $(sumfield "$l" 7) $(sumfield "$l" 9)"
done <"$R/sfssum.v4" | tr '\n' ' ')
is "$pts" "100 4 T 2 200 4 T 2 " \
    "sfssum: each point requested, over NFS version 4, TCP, from 2 clients"
for c in 1 2; do
    like "$(cat "$R/sfsc00$c.v4")" "Client hostname = client$c" "client $c ran on host client$c"
    is "$(grep -c 'NFS Protocol Version 4' "$R/sfsc00$c.v4")" 2 \
        "client $c's report: both points over NFSv4"
done
like "$(cat "$T_DIR/res/sfslog.v4")" "client 2 \(client2\) connected from 10\.228\.22\.12" \
    "client 2 reached the prime from its own address"
like "$(cat "$R/sfsres.v4")" "SFS Aggregate Results for 2 Client\(s\)" "the aggregate report"
ok "$([ -s "$R/sfsres.v4.yaml" ] && [ -s "$R/sfsres.v4.png" ]; echo $?)" \
    "the YAML and the picture are written"
no_leftovers "$tag" 10
ok $? "no FreeSFS process left on any host"
