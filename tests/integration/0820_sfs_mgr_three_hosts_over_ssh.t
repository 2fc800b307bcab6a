#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 240
# A real multi-host run: a test bed of three network
# namespaces with one sshd each (scripts/testbed.sh), sfs_nfsd in the root
# namespace on the bridge address, sfs_mgr starting the three clients with
# ssh as RSH; three load points; every sfssum field checked: requested,
# achieved within 1 % (of the request less what the clients' pacing says
# they ended behind their schedule), response, total operations against throughput x
# time, test time, version, U/T, file set KB by the formula of
# docs/SFS30.md §5.2, clients, procs, biod values, version string.  The
# clients reach the prime at the address their ssh connection came from
# (SSH_CONNECTION), and run on their own hosts (host names client1..3).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
testbed_start fs0820 10.220.20 3
plan 19
rc=$T_DIR/hosts_rc
procs=2
files=300
prime_rc "$rc" 'LOAD="150 300 450"' 'CLIENTS="client1 client2 client3"' "PROCS=$procs" \
    "MNT_POINTS=\"$TB_MOUNT\"" NFS_VERSION=3 WARMUP_TIME=4 RUNTIME=8 \
    "FILE_COUNT=$files" "WORK_DIR=$T_DIR/res" "RSH=\"ssh -F $TESTBED_DIR/ssh_config\""
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" -s mh >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0" || diag "$(tail -5 "$T_DIR/err")"
log=$(cat "$T_DIR/res/sfslog.mh")
like "$log" "client 2 \(client2\) connected from 10\.220\.20\.12" \
    "client 2 reached the prime from its own address"
like "$(cat "$T_DIR/res/sfsc003.mh")" "Client hostname = client3" "client 3 ran on host client3"
like "$(cat "$T_DIR/res/sfsc001.mh")" "Prime Client hostname = 10\.220\.20\.1 " \
    "PRIME_HOST defaulted to the ssh connection's address"
is "$(wc -l <"$T_DIR/res/sfssum.mh")" 3 "three sfssum lines"
n=0
for req in 150 300 450; do
    n=$((n + 1))
    l=$(sed -n "${n}p" "$T_DIR/res/sfssum.mh")
    is "$(sumfield "$l" 1)" "$req" "point $n: requested $req"
    got=$(sumfield "$l" 2)
    # what the clients' own pacing says they ended behind their schedule
    # (each client's PACING line of the point, the mean of its processes):
    # b s behind of an 8 s run is b/8 of a client's load not asked for -
    # on a busy machine the clients and the server get too little CPU to
    # keep it (seen: 0.8 s behind at 450 ops/s beside two CPU hogs)
    behind=$(for c in 1 2 3; do
        sed -n 's/^PACING: \([0-9.]*\) s behind schedule .*/\1/p' "$T_DIR/res/sfsc00$c.mh" | sed -n "${n}p"
    done | tr '\n' ' ')
    want=$(echo "$behind" | awk -v r="$req" 'NF == 3 {printf "%.1f", r - r / 3 * ($1 + $2 + $3) / 8}')
    ok "$(awk -v a="$got" -v w="${want:-none}" -v r="$req" 'BEGIN {exit !(w != "none" && a >= w - r * 0.01 && a <= w + r * 0.01)}'; echo $?)" \
        "point $n: achieved $got within 1 % of $req less what the clients ended behind ($want; behind ${behind% })"
    ops=$(sumfield "$l" 4)
    ok "$(awk -v o="$ops" -v a="$got" -v r="$(sumfield "$l" 3)" -v t="$(sumfield "$l" 5)" \
        'BEGIN {exit !(r ~ /^[0-9]+\.[0-9]$/ && o >= a * t * 0.97 && o <= a * t * 1.03 && t == 8)}'; echo $?)" \
        "point $n: $ops operations in $(sumfield "$l" 5) s, response $(sumfield "$l" 3) ms"
    # version, transport, file set (5.2: per child F/P + 1 files of 26 KB, P
    # children on each of 3 clients), clients, procs, biod, version string
    is "$(sumfield "$l" 6) $(sumfield "$l" 7) $(sumfield "$l" 8) $(sumfield "$l" 9) $(sumfield "$l" 10) $(sumfield "$l" 11) $(sumfield "$l" 12) $(sumfield "$l" 13)" \
        "3 U $(((files / procs + 1) * 26 * procs * 3)) 3 $procs 2 2 3.0" \
        "point $n: version, U, file set KB, clients, procs, biod, version"
done
like "$(cat "$T_DIR/res/sfsres.mh")" "SFS Aggregate Results for 3 Client\(s\)" "the aggregate report"
no_leftovers "$tag" 10
ok $? "no FreeSFS process left on any host"
