#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0727_nreplay_v4_replayed_nfsd_ganesha.t - an NFSv4 capture replayed by
# sfs4 (docs/nfs_replay.md, "NFSv4"): FreeSFS's v4.1 client
# (tests/tools/nf4_procs: every SFS op's compound, OPEN and CLOSE around
# the I/O; sfs_ping -4 reading an OPENed file) and libnfs-utils' NFSv4.0
# (OPEN by name with CREATE, OPEN_CONFIRM, WRITE, CLOSE, READ) against
# sfs_nfsd, captured on lo and planned (sfs_trace plan --nfs-version 4).
# The plan is replayed over NFSv4.1 against a fresh sfs_nfsd (speed 0) and
# against nfs-ganesha (speed 1):
#   - no status differs from the traced ones, every call is sent (no
#     object without a handle), the run is valid;
#   - tshark decodes the replay's own capture: every compound answered,
#     each slot's sequence ids in order (tests/tools/nfs4-check.py), and
#     the calls per SFS op, counted from tshark's decoding by the plan's
#     own rule (tests/tools/nfs4-planned.py), are the plan's;
#   - ganesha's disk holds the tree the traced server had at the end
#     (names, types, sizes);
#   - the traced READs and WRITEs went with the stateid of an OPEN the
#     replay made (none with the anonymous one), and those opens are
#     CLOSEd (at the traced CLOSE, or at the end: none left open);
#   - the capture itself replays as its plan does; so does the capture cut
#     to begin mid-session (editcap: from the first WRITE on), the open it
#     shows only in use made first (OPEN CLAIM_FH) and CLOSEd at the end;
#   - sfs3 refuses the v4 plan in one line, naming sfs4.
# timeout: 600
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd editcap
need_cmd capinfos
need_cmd nfs-cp
need_cmd nfs-cat
need_python_yaml
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
. "$(dirname "$0")/lib_nreplay.sh"
plan 19

start_nfsd S || bail "sfs_nfsd did not start"
CAP=$T_DIR/v4.pcapng
L4="nfs://127.0.0.1/export/lnfs?version=4&nfsport=$S_NFS_PORT"
printf 'written by libnfs over NFSv4.0\n' >"$T_DIR/small"
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
{
    out=$("$T" -k "$S_URL") && d=$(printf '%s\n' "$out" | sed -n 's/^kept //p') &&
        "$T_BIN/sfs_ping" -4 -p read -n f -c 20 -o 2 "$S_URL/$d" &&
        "$T" "$S_URL" &&
        timeout 20 nfs-cp "$T_DIR/small" "$L4" &&
        timeout 20 nfs-cat "$L4"
} >"$T_DIR/clients.out" 2>&1
crc=$?
cap_stop
is "$crc" 0 "v4.1 and v4.0 traffic against sfs_nfsd captured"
[ "$crc" = 0 ] || diag "$(tail -5 "$T_DIR/clients.out")"
nr4_plan "$CAP" "$S_NFS_PORT"
is "$NR4_RC:$NR4_OPS" "0:$NR4_WANT" "planned: $NR4_OPS"
WANT_CALLS=${NR4_OPS%%; not replayable*}
NR4_FULL=$NR4_OPS

# replayed CAPTURE SERVER-PORT YAML: the checks of one replay.
replayed() {
    local rcap=$1 port=$2 y=$3 got
    is "$NR_RC:$(nr_yaml "$y" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["not_replayable"]["no_replayed_handle"], g["nfs_replay"]["calls"] == g["nfs_replay"]["trace_calls"], g["validity"]["code"]')" \
        "0:0 0 True 0" "$4: every call replayed, no status mismatch, valid $(tail -3 "$T_DIR/err")"
    [ "$NR_RC" = 0 ] || diag "$(tail -20 "$T_DIR/out")"
    python3 "$T_TOP/tests/tools/nfs4-check.py" "$rcap" "$port" >"$rcap.check" 2>&1
    ok $? "$4: tshark decodes the replay, every compound answered, slots in order"
    [ -s "$rcap.check" ] && grep -i "fail\|missing\|unanswered" "$rcap.check" | head -5 | while read -r l; do diag "$l"; done
    got=$(python3 "$T_TOP/tests/tools/nfs4-planned.py" "$rcap" "$port")
    is "${got%%; not replayable*}" "$WANT_CALLS" "$4: the replay's calls per SFS op (tshark) are the plan's"
    is "$(nr_yaml "$y" 'g["nfs_replay"]["v4_opens"]["anonymous_io"], g["nfs_replay"]["v4_opens"]["opens"] > 0, g["nfs_replay"]["v4_opens"]["in_use"]')" \
        "0 True 0" "$4: READs and WRITEs with the replay's own opens, every one CLOSEd"
}

start_nfsd B || bail "sfs_nfsd did not start"
NR_PROG=sfs4 nr_replay_captured "$T_DIR/b.pcapng" "$B_NFS_PORT" "$B_URL" -p 1 --speed 0 \
    --trace "$CAP.plan" --yaml "$T_DIR/b.yaml"
replayed "$T_DIR/b.pcapng" "$B_NFS_PORT" "$T_DIR/b.yaml" "sfs_nfsd (speed 0)"

# the capture itself (planned for the run into a temporary file)
"$T_BIN/sfs4" -p 1 --speed 0 --trace "$CAP" --yaml "$T_DIR/d.yaml" "$B_URL" >"$T_DIR/d.out" 2>&1
is "$?:$(nr_yaml "$T_DIR/d.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["calls"]')" \
    "0:0 $(nr_yaml "$T_DIR/b.yaml" 'g["nfs_replay"]["calls"]')" "sfs4 --trace CAPTURE replays it as its plan: every call, no mismatch"

# two copies over two processes, each process its own client and session
"$T_BIN/sfs4" -p 2 --scale 2 --speed 0 --trace "$CAP.plan" --yaml "$T_DIR/e.yaml" "$B_URL" >"$T_DIR/e.out" 2>&1
is "$?:$(nr_yaml "$T_DIR/e.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["calls"], g["nfs_replay"]["v4_opens"]["in_use"], g["validity"]["code"]')" \
    "0:0 $(($(nr_yaml "$T_DIR/b.yaml" 'g["nfs_replay"]["calls"]') * 2)) 0 0" \
    "--scale 2 -p 2: both copies replayed, each by a process with its own v4 client, no mismatch"

# mid-session: from the first WRITE on, its file's OPEN left out
first=$(tshark -n -r "$CAP" -d "tcp.port==$S_NFS_PORT,rpc" \
    -Y 'rpc.msgtyp == 0 && nfs.opcode == 38' -T fields -e frame.number 2>/dev/null | head -1)
last=$(capinfos -c -M "$CAP" | awk '/Number of packets/ { print $NF }')
CUT=$T_DIR/cut.pcapng
editcap -r "$CAP" "$CUT" "$first-$last" >/dev/null 2>&1
nr4_plan "$CUT" "$S_NFS_PORT"
WANT_CALLS=${NR4_OPS%%; not replayable*}
NR_PROG=sfs4 nr_replay_captured "$T_DIR/c.pcapng" "$B_NFS_PORT" "$B_URL" -p 1 --speed 0 \
    --trace "$CUT.plan" --yaml "$T_DIR/c.yaml"
replayed "$T_DIR/c.pcapng" "$B_NFS_PORT" "$T_DIR/c.yaml" "begun mid-session (${NR4_OPS##*; })"
is "$(python3 "$T_TOP/tests/tools/nfs4-check.py" "$T_DIR/c.pcapng" "$B_NFS_PORT" "SEQUENCE PUTFH OPEN>=1" "SEQUENCE PUTFH CLOSE>=1" >/dev/null; echo $?)" 0 \
    "... the file whose open the capture never showed OPENed (CLAIM_FH) before its WRITE, CLOSEd at the end"

# ---- nfs-ganesha, NFSv4.1, at the traced speed ------------------------------------
export PROTOCOLS="3, 4" PSEUDO_MOUNT=true # one path, /export, for v3 (the image) and v4
start_ganesha
WANT_CALLS=${NR4_FULL%%; not replayable*}
G4="nfs://127.0.0.1:$GANESHA_NFS_PORT/export?mountport=$GANESHA_MNT_PORT"
NR_PROG=sfs4 nr_replay_captured "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$G4" -p 1 --speed 1 \
    --trace "$CAP.plan" --yaml "$T_DIR/g.yaml"
replayed "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$T_DIR/g.yaml" "ganesha (speed 1)"
# the tree the replay left on ganesha's disk: the traced server's at the end
# (r0 is the server's root: the export is r0/export; a FIFO or device is
# "special" on both sides)
nfs-ls -R "$S_LNFS_URL" 2>&1 |
    awk '{ t = substr($1, 1, 1); t = (t == "-" ? "f" : t == "d" || t == "l" ? t : "special")
           print $6, t, (t == "f" ? $5 : "-") }' | sort >"$T_DIR/s.tree"
(cd "$GANESHA_DIR/export/CL1/nreplay/r0/export" && find . -mindepth 1 -printf '%P %y %s\n' |
    awk '{ if ($2 != "f" && $2 != "d" && $2 != "l") $2 = "special"; if ($2 != "f") $3 = "-"; print }' |
    sort) >"$T_DIR/g.tree"
diff "$T_DIR/s.tree" "$T_DIR/g.tree" >"$T_DIR/gt.diff"
ok $? "ganesha: the replayed tree has the traced server's names, types and sizes ($(wc -l <"$T_DIR/g.tree") objects)"
[ -s "$T_DIR/gt.diff" ] && diag "$(head -20 "$T_DIR/gt.diff")"

out=$("$T_BIN/sfs3" -Q --trace "$CAP.plan" "$B_URL" 2>&1)
like "$? $out" "^2 sfs3: $CAP\.plan holds the NFSv4 calls of $CAP: replay it with sfs4, or plan the capture again with --nfs-version 3\$" \
    "sfs3 refuses the v4 plan in one line, naming sfs4"
