#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0674_trace_fit_of_an_nfsv41_capture.t - `sfs_trace fit` on an NFSv4.1
# capture: tests/tools/nfs41_mix (COMPOUNDs shaped as a Linux client's)
# makes a known workload on sfs_nfsd over TCP on lo while dumpcap captures
# the server's port.  The fit maps each COMPOUND onto the SFS op its
# leading operation carries (docs/nfsv4.md): every op's call count is the
# workload's (mkdir, create, write, commit, read, getattr, lookup, readdir,
# rename, link, symlink, readlink, setattr, remove); OPENs of existing files
# and CLOSEs are counted apart, out of the mix; the session's own
# COMPOUNDs (EXCHANGE_ID, CREATE_SESSION, RECLAIM_COMPLETE, DESTROY_*)
# are named and counted as not mapped, and the report says so; the mix,
# block-size and rc files are written and read back (sfs_mgr --check), the
# rc naming NFSv3, the version the fitted run speaks.
# timeout: 60
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_nfscap.sh"
MIX=$(tool_path nfs41_mix) || bail "tests/tools/nfs41_mix not built"
plan 7
start_nfsd S || bail "no server"
R=2 F=3
cap_start "$T_DIR/v41.pcapng" "$S_NFS_PORT" || bail "no capture"
timeout 30 "$MIX" -r $R -f $F "$S_NFS_PORT" export >"$T_DIR/mix.out" 2>&1
rc=$?
cap_stop
is "$rc" 0 "the v4.1 workload ran on sfs_nfsd: $(cat "$T_DIR/mix.out")"
cd "$T_DIR" || bail "no test directory"
"$T_BIN/sfs_trace" fit v41.pcapng -o v41 --yaml fit.yaml >fit.out 2>fit.err
is "$?:$(ls v41.mix v41.iodist v41_rc 2>/dev/null | wc -l)" "0:3" \
    "fit of the v4.1 capture wrote its files $(cat fit.err)"
fy() { python3 -c "import sys, yaml; g = yaml.safe_load(open('fit.yaml')); $1"; }
# calls per op: the trace's share of the mapped calls times their number
calls=$(fy 'print(" ".join("%s=%d" % (k, round(v * g["mapped_calls"] / 100)) for k, v in sorted(g["trace_mix"].items()) if v))')
is "$calls" "$(printf 'commit=%d create=%d getattr=%d link=%d lookup=%d mkdir=%d read=%d readdir=%d readlink=%d remove=%d rename=%d setattr=%d symlink=%d write=%d' \
    $((R * F)) $((R * F)) $((R + 1)) $R $((3 * R + 1)) $R $R $R $R $((3 * R)) $R $R $R $((3 * R * F)))" \
    "every SFS op's calls are the workload's"
is "$(fy 'v = g["nfsv4"]; print(v["minor_versions"][1], v["mapped"], v["opens"], v["closes"], sorted(v["unmapped"].items()))')" \
    "$(($(awk '{print $2}' mix.out) )) $(fy 'print(g["mapped_calls"])') $R $((R * (F + 1))) [('CREATE_SESSION', 1), ('DESTROY_CLIENTID', 1), ('DESTROY_SESSION', 1), ('EXCHANGE_ID', 1), ('RECLAIM_COMPLETE', 1)]" \
    "the COMPOUNDs by minor version; OPENs of existing files and CLOSEs apart; the unmapped named"
is "$(fy 'print(g["unmapped_calls"], g["nfs_version"], g["rc"]["NFS_VERSION"])')" \
    "$((5 + R + R * (F + 1))) 3 3" "what is out of the mix counted; the fitted run speaks NFSv3"
like "$(cat fit.out)" "NFSv4 COMPOUNDs with no SFS op: EXCHANGE_ID 1" "the report names what it could not map"
SFS_MOUNT=$S_URL "$T_BIN/sfs_mgr" --check -r v41_rc >check.out 2>&1
is "$?:$(grep -c '^load_points: ' check.out)" "0:1" "sfs_mgr takes the fitted rc file $(grep -i error check.out)"
