#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# 0725_nreplay_v4_capture_planned.t - an NFSv4 capture planned for the NFS
# trace replay (docs/nfs_replay.md, "NFSv4"): FreeSFS's own v4.1 and v4.0
# clients (sfs_ping -4, tests/tools/nf4_procs: every SFS op's compound,
# OPEN and CLOSE around the I/O) and one nobody here wrote (libnfs-utils
# with version=4: NFSv4.0 OPEN by name, OPEN_CONFIRM, WRITE, CLOSE, READ,
# READDIR) against sfs_nfsd, captured on lo.
#   - sfs_trace plan --nfs-version 4 plans it: the calls per SFS op and
#     the operations not replayable by reason are those tshark's decoding
#     of the same capture gives by the documented rule
#     (tests/tools/nfs4-planned.py), the image that of sfs_trace image;
#   - the same capture cut to start mid-session (editcap: from the first
#     WRITE on, its OPEN left out) plans alike, and the open the trace
#     shows only in use is counted;
#   - sfs3 refuses a replay of the v4 plan or of the capture in one line
#     (exit 2, nothing sent) naming sfs4, which replays them (0727); so
#     is an NFSv3 plan of a capture with only NFSv4 in it (exit 1).
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd editcap
need_cmd capinfos
need_cmd python3
need_cmd nfs-cp
need_cmd nfs-cat
need_cmd nfs-ls
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
. "$(dirname "$0")/lib_nreplay.sh"
plan 10

start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "sfs_nfsd did not start"
CAP=$T_DIR/v4.pcapng
L4="nfs://127.0.0.1/export/lnfs?version=4&nfsport=$S_NFS_PORT"
printf 'written by libnfs over NFSv4.0\n' >"$T_DIR/small"
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
{
    "$T_BIN/sfs_ping" -4 -c 40 -o 4 "$S_URL" &&
        "$T_BIN/sfs_ping" -4 --minor 0 -c 10 -o 2 "$S_URL" &&
        "$T" "$S_URL" && "$T" -k "$S_URL" &&
        timeout 20 nfs-cp "$T_DIR/small" "$L4" &&
        timeout 20 nfs-cat "$L4" &&
        timeout 20 nfs-ls "nfs://127.0.0.1/export?version=4&nfsport=$S_NFS_PORT"
} >"$T_DIR/clients.out" 2>&1
crc=$?
cap_stop
is "$crc" 0 "v4.1 and v4.0 traffic, the SFS ops' compounds made and removed, captured"
[ "$crc" = 0 ] || diag "$(tail -5 "$T_DIR/clients.out")"

nr4_plan "$CAP" "$S_NFS_PORT"
like "$NR4_RC $NR4_LINE" \
    "^0 .*v4\.pcapng\.plan: the plan of .*v4\.pcapng \(pcapng\): [0-9]+ NFSv4 calls of $NR4_CLIENTS client\(s\) over [0-9.]+ s; image of [0-9]+ objects$" \
    "sfs_trace plan --nfs-version 4 plans the capture, a stream per traced client ($NR4_CLIENTS, as tshark finds them)"
is "$NR4_OPS" "$NR4_WANT" \
    "the calls per SFS op, the operations not replayed by reason, no open from before, as tshark decodes the capture"
like "$NR4_LINE" "image of $NR4_OBJECTS objects\$" "the plan's image is sfs_trace image's ($NR4_OBJECTS objects)"

# mid-session: from the first WRITE on
first=$(tshark -n -r "$CAP" -d "tcp.port==$S_NFS_PORT,rpc" \
    -Y 'rpc.msgtyp == 0 && nfs.opcode == 38' -T fields -e frame.number 2>/dev/null | head -1)
last=$(capinfos -c -M "$CAP" | awk '/Number of packets/ { print $NF }')
CUT=$T_DIR/cut.pcapng
editcap -r "$CAP" "$CUT" "$first-$last" >/dev/null 2>&1
nr4_plan "$CUT" "$S_NFS_PORT"
is "$NR4_RC ${NR4_OPS##*; opens in use before the trace: }" "0 1" \
    "a capture begun mid-session (frames $first-$last): the open it shows only in use counted"
is "$NR4_OPS" "$NR4_WANT" "... its calls per SFS op, the rest by reason and the opens in use as tshark decodes it"
like "$NR4_LINE" "image of $NR4_OBJECTS objects\$" "... its image sfs_trace image's ($NR4_OBJECTS objects)"

out=$("$T_BIN/sfs3" -Q --trace "$CAP.plan" "$S_URL" 2>&1)
is "$? $out" \
    "2 sfs3: $CAP.plan holds the NFSv4 calls of $CAP: replay it with sfs4, or plan the capture again with --nfs-version 3" \
    "sfs3 refuses the v4 plan in one line, naming sfs4"
out=$("$T_BIN/sfs3" -Q --trace "$CAP" "$S_URL" 2>&1)
like "$? $out" \
    "^2 sfs3: $CAP: no NFSv3 call to replay \([0-9]+ events\), but [0-9]+ NFSv4 COMPOUNDs: NFSv4 traces are replayed by sfs4 \(or planned: sfs_trace plan --nfs-version 4\)$" \
    "sfs3 refuses the v4 capture in one line, naming sfs4"
out=$("$T_BIN/sfs_trace" plan "$CAP" -o "$T_DIR/v3.plan" 2>&1)
out="$? $out files $(find "$T_DIR" -name 'v3.plan*' | wc -l)"
like "$out" "^1 sfs_trace: .*v4\.pcapng: no NFSv3 call to replay .* NFSv4 COMPOUNDs: .*replayed by sfs4 .*files 0$" \
    "an NFSv3 plan of it is refused, no plan file left"
