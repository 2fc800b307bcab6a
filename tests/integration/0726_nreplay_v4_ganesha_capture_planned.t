#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0726_nreplay_v4_ganesha_capture_planned.t - an NFSv4 capture of another
# server planned for the NFS trace replay (docs/nfs_replay.md, "NFSv4"):
# nfs-ganesha's NFSv4.1 (tests/tools/nf4_procs: every SFS op's compound,
# OPEN and CLOSE around the I/O; sfs_ping -4 reading an OPENed file) and
# NFSv4.0 (libnfs-utils with version=4), captured on lo.  The plan's calls
# per SFS op, the operations not replayable by reason and the opens the
# capture shows only in use are those tshark's decoding gives by the
# documented rule (tests/tools/nfs4-planned.py); its image is sfs_trace
# image's.  (0725 plans sfs_nfsd's traffic, whole and begun mid-session.)
# timeout: 300
. "$(dirname "$0")/lib.sh"
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
need_cmd tshark
need_cmd dumpcap
need_cmd python3
need_cmd nfs-cp
need_cmd nfs-cat
need_root "packet capture on lo"
. "$(dirname "$0")/lib_nreplay.sh"
export PROTOCOLS="3, 4"
start_ganesha
plan 4

CAP=$T_DIR/ganesha4.pcapng
G4=127.0.0.1:$GANESHA_NFS_PORT:/export
L4="nfs://127.0.0.1/export/lnfs?version=4&nfsport=$GANESHA_NFS_PORT"
printf 'written by libnfs over NFSv4.0\n' >"$T_DIR/small"
cap_start "$CAP" "$GANESHA_NFS_PORT" || bail "no capture"
{
    out=$("$T" -k "$G4") && d=$(printf '%s\n' "$out" | sed -n 's/^kept //p') &&
        "$T_BIN/sfs_ping" -4 -p read -n f -c 20 -o 2 "$G4/$d" &&
        "$T" "$G4" &&
        timeout 20 nfs-cp "$T_DIR/small" "$L4" &&
        timeout 20 nfs-cat "$L4"
} >"$T_DIR/clients.out" 2>&1
crc=$?
cap_stop
is "$crc" 0 "ganesha's v4.1 and v4.0 traffic captured"
[ "$crc" = 0 ] || diag "$(tail -5 "$T_DIR/clients.out")"

nr4_plan "$CAP" "$GANESHA_NFS_PORT"
like "$NR4_RC $NR4_LINE" \
    "^0 .*: the plan of .*ganesha4\.pcapng \(pcapng\): [0-9]+ NFSv4 calls of $NR4_CLIENTS client\(s\) over [0-9.]+ s; image of [0-9]+ objects$" \
    "sfs_trace plan --nfs-version 4 plans ganesha's capture, a stream per traced client ($NR4_CLIENTS, as tshark finds them)"
is "$NR4_OPS" "$NR4_WANT" \
    "the calls per SFS op, the rest by reason and the opens in use as tshark decodes it"
like "$NR4_LINE" "image of $NR4_OBJECTS objects\$" "the plan's image is sfs_trace image's ($NR4_OBJECTS objects)"
