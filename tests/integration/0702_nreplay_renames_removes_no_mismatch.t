#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0702_nreplay_renames_removes_no_mismatch.t - a trace whose order matters:
# the validation suite (sfs3 -V 1) run against nfs-ganesha and captured
# creates files, directories, symlinks and hard links, renames them over
# each other, looks up names that are gone, removes everything and removes
# each directory once emptied.  Replayed as fast as the window allows
# (speed 0, 64 calls in flight), a replay that ignored the order would
# send a REMOVE before its CREATE or an RMDIR before the REMOVEs inside it;
# with the dependencies it gets every traced status back (0 mismatches,
# valid) from sfs_nfsd and from ganesha, over TCP and UDP, and says how
# many calls a dependency held.  The same trace in nfsdump text (sfs_trace
# convert) replays alike; replayed by sfs (NFSv2) it is refused with the
# reason.
# timeout: 500
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
plan 9
start_ganesha

cap_start "$T_DIR/v.pcapng" "$GANESHA_NFS_PORT" "$GANESHA_MNT_PORT" || bail "no capture"
timeout 200 "$T_BIN/sfs3" -Q -V 1 "$GANESHA_URL" >"$T_DIR/v.out" 2>&1
rv=$?
cap_stop
is "$rv" 0 "the validation suite ran against ganesha while captured"
"$T_BIN/sfs_trace" stats -q "$T_DIR/v.pcapng" --yaml "$T_DIR/s.yaml" 2>"$T_DIR/err"
ok "$(nr_yaml "$T_DIR/s.yaml" '0 if all(g["procedures"][p]["calls"] > 0 for p in ("rename", "remove", "rmdir", "link", "symlink", "mkdir")) and g["procedures"]["lookup"]["errors"] > 0 else 1')" \
    "the trace holds renames, removes, rmdirs, links, symlinks, mkdirs and failed lookups"

start_nfsd B || bail "sfs_nfsd did not start"
replay() { # NAME URL OPTIONS...: sets RC, the YAML is $T_DIR/NAME.yaml
    local n=$1 url=$2
    shift 2
    timeout 200 "$T_BIN/sfs3" -p 1 --speed 0 --yaml "$T_DIR/$n.yaml" "$@" "$url" \
        >"$T_DIR/$n.out" 2>"$T_DIR/$n.err"
    RC=$?
}
clean() { # NAME: "RC mismatches compared-all held>0 code"; a mismatch named in the log
    grep -E "mismatch: |retransmi" "$T_DIR/$1.out" | head -5 | sed "s/^/# $1: /" >&2
    echo "$RC $(nr_yaml "$T_DIR/$1.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["statuses_compared"] == g["nfs_replay"]["calls"], g["nfs_replay"]["dependency_waits"]["held"] > 0, g["validity"]["code"]')"
}
replay tcp "$B_URL" -Q --trace "$T_DIR/v.pcapng"
is "$(clean tcp)" "0 0 True True 0" "sfs_nfsd, TCP, speed 0: every status as traced, calls held by a dependency, valid"
grep -q "statuses compared [0-9]*, mismatched 0 (0.00 %)" "$T_DIR/tcp.out"
ok $? "the report says it: $(grep 'statuses compared' "$T_DIR/tcp.out")"
replay udp "$B_URL" --trace "$T_DIR/v.pcapng"
is "$(clean udp)" "0 0 True True 0" "sfs_nfsd, UDP, speed 0: every status as traced, valid"
replay gan "$GANESHA_URL" -Q --trace "$T_DIR/v.pcapng"
is "$(clean gan)" "0 0 True True 0" "ganesha itself, TCP, speed 0: every status as traced, valid"

"$T_BIN/sfs_trace" convert --to nfsdump "$T_DIR/v.pcapng" -o "$T_DIR/v.txt" 2>"$T_DIR/conv.err"
replay txt "$B_URL" -Q --trace "$T_DIR/v.txt" --trace-format nfsdump
is "$(clean txt)" "0 0 True True 0" "the nfsdump text of the same trace replays alike"
is "$(nr_yaml "$T_DIR/txt.yaml" 'g["nfs_replay"]["calls"]')" \
    "$(nr_yaml "$T_DIR/tcp.yaml" 'g["nfs_replay"]["calls"]')" "with the same calls"

timeout 60 "$T_BIN/sfs" -p 1 --trace "$T_DIR/v.pcapng" "$B_URL" >"$T_DIR/v2.out" 2>&1
rc=$?
like "$rc: $(cat "$T_DIR/v2.out")" "^[1-9][0-9]*: .*no NFSv2 call to replay .* replayed by sfs3" \
    "sfs (NFSv2) refuses an NFSv3 trace with the reason"
