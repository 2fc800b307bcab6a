#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 30
# check: nfs client prime
# sfs4 is sfs under a third name: NFSv4.1 (nfs/proto.c), TCP implied.  What
# does not run over NFSv4.1 yet (the block replay, the null workload) it
# never pretends to run: each is refused in one line naming the versions it
# does run over, before any process starts or any call goes out; so is
# NFSv4.0 load (--minor 0, docs/sfs.md "NFSv4.0"), and --minor for sfs3;
# sfs_mgr refuses NFS_VERSION=4 with such a workload, and TCP=off with
# NFS_VERSION=4, at their rc lines.
. "$(dirname "$0")/lib.sh"
plan 16
[ -L "$T_BIN/sfs4" ] || bail "no bin/sfs4"
cd "$T_DIR" || bail "no test dir"
refused() { # what code message args...
    local what=$1 code=$2 msg=$3 out rc
    shift 3
    out=$("$T_BIN/sfs4" "$@" 2>&1)
    rc=$?
    is "$rc" "$code" "$what: exit $code"
    is "$out" "sfs4: $msg" "$what: one line that says so"
}
refused "the null workload" 51 \
    "the null workload does not run over NFSv4.1 yet (NFSv2, NFSv3 only)" \
    --workload null -l 10 -t 1 -w 0 127.0.0.1:3101:/x
# sfs4 replays NFSv4 traces (0727): one without NFSv4 is refused, naming
# the programs that replay it
out=$("$T_BIN/sfs4" --trace "$T_FIXTURES/pcap/session.pcap" 127.0.0.1:3101:/x 2>&1)
is "$? $out" \
    "2 sfs4: $T_FIXTURES/pcap/session.pcap: no NFSv4 call to replay (5 events; NFSv3 and NFSv2 traces are replayed by sfs3 and sfs)" \
    "an NFS replay of a trace without NFSv4: exit 2, one line naming sfs3 and sfs"
refused "NFSv4.0 load" 55 \
    "--minor 0: NFSv4.0 load is not offered, NFSv4.1 only (docs/sfs.md, \"NFSv4.0\")" \
    --minor 0 -l 10 -t 1 -w 0 127.0.0.1:3101:/x
out=$("$T_BIN/sfs3" --minor 1 127.0.0.1:3101:/x 2>&1)
is "$?/$out" "55/sfs3: --minor: NFSv3 has no minor versions (sfs4 only)" \
    "--minor for sfs3: exit 55, one line"
like "$("$T_BIN/sfs4" --help)" "^usage: sfs4 \[options\] mount-point" "sfs4 --help works"
like "$("$T_BIN/sfs4" --version)" "^sfs4 \(FreeSFS\) " "sfs4 --version names sfs4"

# the prime: NFS_VERSION=4 is in range and starts sfs4, over TCP only
rc_of() { # file extra-lines...
    local f=$1
    shift
    printf '%s\n' LOAD=100 CLIENTS=localhost "MNT_POINTS=127.0.0.1:3101:/x" "$@" >"$f"
}
rc_of v4_rc NFS_VERSION=4 WORKLOAD=null
out=$("$T_BIN/sfs_mgr" --check -r v4_rc 2>&1)
is "$?" 2 "sfs_mgr: NFS_VERSION=4 with the null workload is refused"
like "$out" "^v4_rc:4: error: NFS_VERSION: the null workload does not run over NFSv4.1 yet" \
    "at NFS_VERSION's line, saying why"
rc_of v4mix_rc NFS_VERSION=4
out=$("$T_BIN/sfs_mgr" --check -r v4mix_rc 2>&1)
is "$?" 0 "NFS_VERSION=4 with the mix is a good rc file"
like "$out" "transport: tcp" "over TCP, TCP not said"
rc_of v4udp_rc NFS_VERSION=4 TCP=off
out=$("$T_BIN/sfs_mgr" --check -r v4udp_rc 2>&1)
is "$?" 2 "sfs_mgr: NFS_VERSION=4 with TCP=off is refused"
like "$out" "v4udp_rc:5: error: TCP: NFSv4.1 runs over TCP only: UDP \(TCP off\) refused" \
    "at TCP's line"
rc_of v3_rc NFS_VERSION=3 TCP=off
"$T_BIN/sfs_mgr" --check -r v3_rc >/dev/null 2>&1
is "$?" 0 "NFS_VERSION=3 with TCP=off is a good rc file still"
ok "$([ ! -e "$T_DIR/result" ]; echo $?)" "nothing was started or written"
