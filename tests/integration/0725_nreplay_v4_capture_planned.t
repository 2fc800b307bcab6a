#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# 0725_nreplay_v4_capture_planned.t - an NFSv4 capture planned for the NFS
# trace replay (docs/nfs_replay.md, "NFSv4"): FreeSFS's own v4.1 and v4.0
# clients (sfs_ping -4, tests/tools/nf4_procs: every SFS op's compound,
# OPEN and CLOSE around the I/O) against sfs_nfsd, captured on lo.
#   - sfs_trace plan --nfs-version 4 plans it: the calls per SFS op and
#     the operations not replayable by reason are those tshark's decoding
#     of the same capture gives by the documented rule
#     (tests/tools/nfs4-planned.py), the image that of sfs_trace image;
#   - a replay of the v4 plan or of the capture is refused in one line
#     (exit 2, nothing sent): NFSv4 is planned, not replayed yet; so is
#     an NFSv3 plan of a capture with only NFSv4 in it (exit 1).
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd python3
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
. "$(dirname "$0")/lib_nfscap.sh"
plan 7

start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "sfs_nfsd did not start"
CAP=$T_DIR/v4.pcapng
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
{
    "$T_BIN/sfs_ping" -4 -c 40 -o 4 "$S_URL" &&
        "$T_BIN/sfs_ping" -4 --minor 0 -c 10 -o 2 "$S_URL" &&
        "$T" "$S_URL" && "$T" -k "$S_URL"
} >"$T_DIR/clients.out" 2>&1
crc=$?
cap_stop
is "$crc" 0 "v4.1 and v4.0 traffic, the SFS ops' compounds made and removed, captured"

"$T_BIN/sfs_trace" plan --nfs-version 4 "$CAP" -o "$T_DIR/v4.plan" >"$T_DIR/plan.out" 2>&1
prc=$?
like "$prc $(head -1 "$T_DIR/plan.out")" \
    "^0 .*v4\.plan: the plan of .*v4\.pcapng \(pcapng\): [0-9]+ NFSv4 calls of 1 client\(s\) over [0-9.]+ s; image of [0-9]+ objects$" \
    "sfs_trace plan --nfs-version 4 plans the capture"
want=$(python3 "$T_TOP/tests/tools/nfs4-planned.py" "$CAP" "$S_NFS_PORT")
is "$(sed -n '2s/^  //p' "$T_DIR/plan.out")" "$want" \
    "the calls per SFS op and the operations not replayed by reason, as tshark decodes the capture"
objs=$("$T_BIN/sfs_trace" image -q "$CAP" --yaml "$T_DIR/img.yaml" >/dev/null 2>&1 &&
    python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["objects"])' \
        "$T_DIR/img.yaml")
like "$(head -1 "$T_DIR/plan.out")" "image of $objs objects\$" "the plan's image is sfs_trace image's ($objs objects)"

out=$("$T_BIN/sfs3" -Q --trace "$T_DIR/v4.plan" "$S_URL" 2>&1)
is "$? $out" \
    "2 $T_DIR/v4.plan holds the NFSv4 calls of $CAP: NFSv4 traces are planned (sfs_trace plan --nfs-version 4), not replayed yet" \
    "sfs3 refuses the v4 plan in one line"
out=$("$T_BIN/sfs3" -Q --trace "$CAP" "$S_URL" 2>&1)
like "$? $out" \
    "^2 $CAP: no NFSv3 call to replay \([0-9]+ events\), but [0-9]+ NFSv4 COMPOUNDs: NFSv4 traces are planned \(sfs_trace plan --nfs-version 4\), not replayed yet$" \
    "sfs3 refuses the v4 capture in one line"
out=$("$T_BIN/sfs_trace" plan "$CAP" -o "$T_DIR/v3.plan" 2>&1)
out="$? $out files $(find "$T_DIR" -name 'v3.plan*' | wc -l)"
like "$out" "^1 sfs_trace: .*v4\.pcapng: no NFSv3 call to replay .* NFSv4 COMPOUNDs: .*not replayed yet files 0$" \
    "an NFSv3 plan of it is refused, no plan file left"
