#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0728_nreplay_v4_open_state_replayed.t - the traced NFSv4 open state
# replayed by sfs4 (docs/nfs_replay.md, "NFSv4", "Opens"): a capture of
# tests/tools/nf4_owners against sfs_nfsd - three open owners of one file
# with their own share modes, an OPEN the server refused (SHARE_DENIED:
# another owner's open denies writing), that owner's CLOSE, the OPEN then
# granted, an OPEN by handle, the CLOSEs in between; GUARDED4 and
# EXCLUSIVE4_1 creates, granted and refused (EXIST); two lock owners'
# LOCKs, one DENIED, a LOCKT, the LOCKUs - planned
# (sfs_trace plan --nfs-version 4) and replayed against a fresh sfs_nfsd
# (speed 0) and nfs-ganesha (speed 1):
#   - no status differs from the traced ones (the refused OPEN refused
#     again, the one after the CLOSE granted: the CLOSE went at its traced
#     place, with the stateid the replayed OPEN got; the creates refused
#     where the traced ones were), every call sent, valid; the locks'
#     statuses (compared apart) the traced ones;
#   - tshark decodes the replay's capture: every compound answered, slots
#     in order, its OPENs, CLOSEs and locks with their statuses in the trace's
#     order with its share modes and create modes, as many open owners as
#     the trace had, the calls per SFS op
#     the plan's;
#   - the report's counts are the wire's: the CLOSEs at the traced CLOSE,
#     none left for the end, no READ or WRITE with the anonymous stateid;
#   - a plan of the earlier format (version 3) of an NFSv4 capture is
#     refused in one line.
# timeout: 600
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
T=$(tool_path nf4_owners) || bail "tests/tools/nf4_owners not built"
. "$(dirname "$0")/lib_nreplay.sh"
OPENS=$T_TOP/tests/tools/nfs4-opens.py
plan 12

start_nfsd S || bail "sfs_nfsd did not start"
CAP=$T_DIR/owners.pcapng
cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"
timeout 60 "$T" "$S_URL" >"$T_DIR/owners.out" 2>&1
crc=$?
cap_stop
is "$crc" 0 "three owners' opens, refused ones, the create modes and the CLOSEs against sfs_nfsd captured"
[ "$crc" = 0 ] || diag "$(cat "$T_DIR/owners.out")"
python3 "$OPENS" "$CAP" "$S_NFS_PORT" >"$T_DIR/traced.opens"
TRACED=$(cat "$T_DIR/traced.opens")
like "$(head -1 "$T_DIR/traced.opens")" "^opens 12, refused 3 \\(SHARE_DENIED EXIST EXIST\\), closes 9, owners 3\$" \
    "the capture: $(head -1 "$T_DIR/traced.opens")"
nr4_plan "$CAP" "$S_NFS_PORT"
is "$NR4_RC:$NR4_OPS" "0:$NR4_WANT" "planned: $NR4_OPS"
WANT_CALLS=${NR4_OPS%%; not replayable*}

# replayed CAPTURE PORT YAML WHAT: the checks of one replay.
replayed() {
    local rcap=$1 port=$2 y=$3 got
    is "$NR_RC:$(nr_yaml "$y" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["not_replayable"]["no_replayed_handle"], g["nfs_replay"]["calls"] == g["nfs_replay"]["trace_calls"], g["validity"]["code"]')" \
        "0:0 0 True 0" "$4: every call replayed, no status mismatch, valid"
    [ "$NR_RC" = 0 ] || diag "$(tail -20 "$T_DIR/out" 2>/dev/null)"
    nr_yaml "$y" 'g["nfs_replay"]["first_mismatches"]' | head -5 | while read -r l; do diag "$l"; done
    python3 "$T_TOP/tests/tools/nfs4-check.py" "$rcap" "$port" >"$rcap.check" 2>&1
    ok $? "$4: tshark decodes the replay, every compound answered, slots in order"
    grep -i "fail\|missing\|unanswered" "$rcap.check" | head -5 | while read -r l; do diag "$l"; done
    got=$(python3 "$T_TOP/tests/tools/nfs4-planned.py" "$rcap" "$port")
    python3 "$OPENS" "$rcap" "$port" >"$rcap.opens"
    is "$(cat "$rcap.opens")|${got%%; not replayable*}" "$TRACED|$WANT_CALLS" \
        "$4: OPENs and CLOSEs in the trace's order with its statuses, its open owners, its calls per SFS op (tshark)"
    is "$(nr_yaml "$y" 'g["nfs_replay"]["v4_opens"]["closes_traced"], g["nfs_replay"]["v4_opens"]["closes"], g["nfs_replay"]["v4_opens"]["in_use"], g["nfs_replay"]["v4_opens"]["anonymous_io"], g["nfs_replay"]["v4_opens"]["opens"], g["nfs_replay"]["v4_opens"]["open_errors"], list(g["nfs_replay"]["v4_locks"].values())')" \
        "9 9 0 0 12 3 [6, 6, 0]" "$4: the report's opens, CLOSEs and locks are the wire's (9 CLOSEs at their traced place, none at the end, 3 OPENs refused; 6 lock calls, no lock status mismatch)"
}

start_nfsd B || bail "sfs_nfsd did not start"
NR_PROG=sfs4 nr_replay_captured "$T_DIR/b.pcapng" "$B_NFS_PORT" "$B_URL" -p 1 --speed 0 \
    --trace "$CAP.plan" --yaml "$T_DIR/b.yaml"
replayed "$T_DIR/b.pcapng" "$B_NFS_PORT" "$T_DIR/b.yaml" "sfs_nfsd (speed 0)"

# a plan of format 3 (before the open state): refused in one line
cp "$CAP.plan" "$T_DIR/old.plan"
printf '\0\0\0\3' | dd of="$T_DIR/old.plan" bs=1 seek=8 conv=notrunc 2>/dev/null
out=$("$T_BIN/sfs4" --trace "$T_DIR/old.plan" "$B_URL" 2>&1)
is "$? $out" "2 sfs4: $T_DIR/old.plan: an NFSv4 plan of version 3, made before the replay followed the traced opens and CLOSEs: plan the capture again (sfs_trace plan --nfs-version 4)" \
    "a version 3 plan of NFSv4 calls refused in one line"

export PROTOCOLS="3, 4" PSEUDO_MOUNT=true # one path, /export, for v3 (the image) and v4
start_ganesha
G4="nfs://127.0.0.1:$GANESHA_NFS_PORT/export?mountport=$GANESHA_MNT_PORT"
NR_PROG=sfs4 nr_replay_captured "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$G4" -p 1 --speed 1 \
    --trace "$CAP.plan" --yaml "$T_DIR/g.yaml"
replayed "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$T_DIR/g.yaml" "ganesha (speed 1)"
