#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 300
# 0719_nreplay_goes_on_through_a_ganesha_restart.t - an NFS trace replay
# goes on through the restart of a server whose handles survive it
# (docs/nfs_replay.md, "Faults"): the validation suite's traffic on
# nfs-ganesha (handles on disk) captured on lo, then replayed over TCP
# with ganesha restarted 1.5 s into the replay: the connection is made
# again and the replay goes on to its end with every status as traced, and
# no process of the run is left. (The lost replies of 0707, split off so
# that 0707's two minutes do not hold the ganesha lock.)
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd capinfos
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
need_cmd ganesha.nfsd
need_cmd rpcbind
plan 2

start_ganesha
G=$GANESHA_URL
cap_start "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$GANESHA_MNT_PORT" || bail "no capture"
timeout 100 "$T_BIN/sfs3" -Q -V 1 "$G" >"$T_DIR/gv.out" 2>&1
rv=$?
cap_stop
# the replay takes about 6 s (the capture's duration at this speed);
# ganesha is restarted 1.5 s into it
speed=$(capinfos -u -M "$T_DIR/g.pcapng" | awk '/duration/ {printf "%.6f", $3 / 6}')
prompted_start "$T_BIN/sfs3" -i -Q -p 1 --speed "$speed" --trace "$T_DIR/g.pcapng" \
    --yaml "$T_DIR/g1.yaml" "$G" || bail "no prompt"
echo >&7
sleep 1.5
sh "$T_TOP/scripts/ganesha-lo.sh" restart >"$T_DIR/ganesha-restart.log" 2>&1
grv=$?
wait "$PROMPTED_PID"
rc1=$?
exec 7>&-
is "$rv $grv $rc1 $(left)" "0 0 0 none" \
    "ganesha: captured, replayed at speed $speed, restarted mid-replay ($(head -1 "$T_DIR/ganesha-restart.log")), the replay ends, nothing left running"
is "$(nr_yaml "$T_DIR/g1.yaml" 'g["results"]["tcp_reconnections"] >= 1, g["nfs_replay"]["ended_early"], g["nfs_replay"]["calls"] == g["nfs_replay"]["trace_calls"], g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["stale_replies"], g["validity"]["code"]')" \
    "True no True 0 0 0" \
    "ganesha: the connection made again, the replay goes on to its end with every status as traced, valid $(tail -2 "$T_DIR/err")"
