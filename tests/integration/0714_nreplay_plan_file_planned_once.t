#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# 0714_nreplay_plan_file_planned_once.t - an NFS capture planned once
# (`sfs_trace plan`) is replayed from its plan file (docs/nfs_replay.md,
# "Plans"): the trace is the validation suite's traffic to sfs_nfsd
# (captured on lo).
#   - sfs_trace plan writes the plan and says what it holds;
#   - sfs3 --trace PLAN replays the same calls per procedure as
#     sfs3 --trace CAPTURE (tshark counts both on the wire), with no
#     status mismatch, and its plan line names the capture;
#   - sfs_mgr replays the plan at two points from two clients (TRACE_FILE,
#     one plan read by every client and point): each point counts both
#     clients' copies, no mismatch;
#   - a plan whose capture changed since is refused ("plan it again"),
#     nothing sent; a trace without NFSv2 calls gets no NFSv2 plan (a plan
#     of the other version refused: test_nreplay_plan); a plan cut short
#     is refused with its name.
# timeout: 240
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_prime.sh"
. "$(dirname "$0")/lib_nreplay.sh"
plan 9

nr_validation_capture "$T_DIR/v.pcapng"
is "$?" 0 "the validation suite ran against sfs_nfsd while captured"
"$T_BIN/sfs_trace" plan "$T_DIR/v.pcapng" -o "$T_DIR/v.plan" >"$T_DIR/plan.out" 2>&1
like "$? $(cat "$T_DIR/plan.out")" \
    "^0 .*v\.plan: the plan of .*v\.pcapng \(pcapng\): [0-9]+ NFSv3 calls of 1 client\(s\) over [0-9.]+ s; image of [0-9]+ objects$" \
    "sfs_trace plan writes the plan and says what it holds"

# the capture and its plan replayed, each captured: the same calls
start_nfsd P || bail "sfs_nfsd did not start"
start_nfsd C || bail "sfs_nfsd did not start"
nr_replay_captured "$T_DIR/p.pcapng" "$P_NFS_PORT" "$P_URL" -p 2 --speed 0 \
    --trace "$T_DIR/v.plan" --yaml "$T_DIR/p.yaml"
cp "$T_DIR/err" "$T_DIR/p.err"
prc=$NR_RC
nr_replay_captured "$T_DIR/c.pcapng" "$C_NFS_PORT" "$C_URL" -p 2 --speed 0 \
    --trace "$T_DIR/v.pcapng" --yaml "$T_DIR/c.yaml"
is "$prc $NR_RC $(nr_yaml "$T_DIR/p.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["calls"] == g["nfs_replay"]["trace_calls"]')" \
    "0 0 0 True" "the plan is replayed whole, no status mismatch"
like "$(grep 'NFS trace' "$T_DIR/p.err")" "v\.plan \(pcapng, planned from .*v\.pcapng\): [0-9]+ NFSv3 calls" \
    "the plan line names the capture it was planned from"
nr_calls "$T_DIR/p.pcapng" "$P_NFS_PORT" | sed 's/ .*//' | sort | uniq -c >"$T_DIR/p.calls"
nr_calls "$T_DIR/c.pcapng" "$C_NFS_PORT" | sed 's/ .*//' | sort | uniq -c >"$T_DIR/c.calls"
is "$(cat "$T_DIR/p.calls")" "$(cat "$T_DIR/c.calls")" \
    "from the plan, the same calls per procedure on the wire as from the capture ($(grep -c . "$T_DIR/p.calls") procedures)"

# sfs_mgr: one plan, two clients, two points
calls=$(nr_yaml "$T_DIR/p.yaml" 'g["nfs_replay"]["trace_calls"]')
start_nfsd M || bail "sfs_nfsd did not start"
rc=$T_DIR/plan_rc
prime_rc "$rc" LOAD=60 'CLIENTS="localhost localhost"' PROCS=2 \
    "MNT_POINTS=\"$M_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=30 TCP=1 \
    "TRACE_FILE=$T_DIR/v.plan" 'TRACE_SPEED="0 0.5"' "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr replays the plan at two points from two clients $(tail -3 "$T_DIR/err")"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
r = [p['aggregate']['nfs_replay'] for p in d['points']]
print(' '.join('%s:%s/%s' % (x['speed'], x['calls'], x['status_mismatches']) for x in r))" 2>&1)" \
    "0:$((2 * calls))/0 0.5:$((2 * calls))/0" \
    "per point: the plan's $calls calls replayed by each client, no mismatch"

# refused: a changed capture, the other version, a damaged plan
cp "$T_DIR/v.pcapng" "$T_DIR/w.pcapng"
"$T_BIN/sfs_trace" plan "$T_DIR/w.pcapng" -o "$T_DIR/w.plan" >/dev/null 2>&1
printf 'x' >>"$T_DIR/w.pcapng"
timeout 60 "$T_BIN/sfs3" -p 1 --trace "$T_DIR/w.plan" "$M_URL" >"$T_DIR/w.out" 2>&1
like "$?: $(cat "$T_DIR/w.out")" \
    "^2: .*w\.plan was planned from .*w\.pcapng as it was \([0-9]+ bytes\); the file there now \([0-9]+ bytes\) is another: plan it again \(sfs_trace plan\)$" \
    "a plan whose capture changed since is refused, nothing replayed"
"$T_BIN/sfs_trace" plan "$T_DIR/v.pcapng" --nfs-version 2 -o "$T_DIR/v2.plan" >"$T_DIR/v2.out" 2>&1
head -c 4000 "$T_DIR/v.plan" >"$T_DIR/cut.plan"
timeout 60 "$T_BIN/sfs3" -p 1 --trace "$T_DIR/cut.plan" "$M_URL" >"$T_DIR/cut.out" 2>&1
crc=$?
like "$(cat "$T_DIR/v2.out") | $crc: $(cat "$T_DIR/cut.out")" \
    "no NFSv2 call to replay.* \| 2: .*cut\.plan: (a damaged plan file|the image is cut short)" \
    "a trace without NFSv2 calls gets no NFSv2 plan; a plan cut short is refused with its name"
