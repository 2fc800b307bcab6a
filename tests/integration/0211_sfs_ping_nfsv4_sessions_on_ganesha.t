#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0211_sfs_ping_nfsv4_sessions_on_ganesha.t - sfs_ping -4 against a real
# nfs-ganesha serving NFSv4.1 and 4.0 on loopback: the v4 mount (no MOUNT
# program: PUTROOTFH and LOOKUP per component of the export path, in every
# mount-point form), GETATTR with 64 calls in flight on 64 session slots,
# LOOKUP, READ of an OPENed file (4 KiB replies at 64 in flight too: 0216
# on sfs_nfsd), NFSv4.0 with --minor 0, lost replies
# (the slots' sequence ids still right), a missing export named in one
# line, and usage errors.  tshark decodes every compound and
# reply of the capture with no malformed packet, finds every call
# answered, the session's sequence ids in order on every slot, and each
# session and client destroyed at the end.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_cmd dumpcap
need_cmd python3
need_root "packet capture on lo"
. "$(dirname "$0")/lib_nfscap.sh"
export PROTOCOLS="3, 4"
start_ganesha
plan 24

P=$T_BIN/sfs_ping
G=127.0.0.1:$GANESHA_NFS_PORT:/export
echo "some data" >"$GANESHA_DIR/export/afile"
field() { printf '%s\n' "$2" | awk -v k="$1" '$1 == k { print $2 }'; }
triple() { echo "$(field calls "$1")/$(field errors "$1")/$(field nfs_errors "$1")"; }

CAP=$T_DIR/v4.pcapng
cap_start "$CAP" "$GANESHA_NFS_PORT" || bail "no capture"

out=$("$P" -4 -c 3000 -o 64 "$G" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/3000/0/0" "v4.1 getattr, 64 in flight: 3000 calls, no errors"
like "$out" "NFSv4.1 over TCP, nfs port $GANESHA_NFS_PORT" "the report names NFSv4.1 and the port"
is "$(field slots "$out")" 64 "a session of 64 fore-channel slots"
is "$(field new_sessions "$out")/$(field slot_repairs "$out")/$(field delays "$out")" "0/0/0" \
    "no recovery, no repair, no DELAY"

out=$("$P" -4 -p read -c 200 -o 4 "$G" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/200/0/0" "v4.1 read of an opened file: 200 calls, no errors"
like "$out" "op +read afile" "read found the export's regular file"
out=$("$P" -4 -p lookup -c 200 -o 4 "$G" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/200/0/0" "v4.1 lookup: 200 calls, no errors"
out=$("$P" -4 --minor 0 -c 300 -o 8 "$G" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/300/0/0" "v4.0 getattr: 300 calls, no errors"
like "$out" "NFSv4.0 over TCP" "the report names NFSv4.0"

# every mount-point form: a MOUNT port named is not used; rpcbind gives
# the NFS port (ganesha registers version 4)
out=$("$P" -4 -c 10 "nfs://127.0.0.1:$GANESHA_NFS_PORT/export?mountport=$GANESHA_MNT_PORT" 2>&1)
is "$?/$(field calls "$out")" "0/10" "nfs://host:port/path (its mountport unused)"
out=$("$P" -4 -c 10 "127.0.0.1:/export" 2>&1)
is "$?/$(field calls "$out")" "0/10" "host:/path through rpcbind"
out=$("$P" -4 -c 10 "127.0.0.1:$GANESHA_NFS_PORT:/" 2>&1)
is "$?/$(field calls "$out")" "0/10" "the pseudo file system's root"

# replies lost (injected, on a client of its own): the calls fail after
# their timeout, and the next call on each such slot - its sequence id
# counting the lost one as run, as the server did - is answered
out=$("$P" -4 -F drop=2,seed=7 -t 300 -c 1000 -o 8 "$G" 2>&1); rc=$?
lost=$(field errors "$out")
ok $([ "$rc" = 1 ] && [ "${lost:-0}" -gt 0 ] && [ "$(field calls "$out")" = 1000 ] &&
    echo 0 || echo 1) "lost replies: $lost calls failed after their timeout, exit 1"
is "$(field nfs_errors "$out")/$(field slot_repairs "$out")" "0/0" \
    "... and every later call on their slots was answered (no SEQ_MISORDERED)"

out=$("$P" -4 "127.0.0.1:$GANESHA_NFS_PORT:/export/nosuch" 2>&1); rc=$?
is "$out" "sfs_ping: 127.0.0.1:/export/nosuch: LOOKUP 'nosuch': NOENT" \
    "a missing export is named in one line"
ok $([ $rc = 1 ] && echo 0 || echo 1) "... with exit status 1"
cap_stop

# 4 KiB READ replies back to back, 64 in flight (0216 on sfs_nfsd), out
# of the capture: in it, tshark twice in 20 runs found no reply to some of
# the burst's first calls that sfs_ping had had answered
head -c 4096 /dev/urandom >"$GANESHA_DIR/export/f4k"
out=$("$P" -4 -p read -n f4k -c 3000 -o 64 "$G" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/3000/0/0" "v4.1 read of 4 KiB, 64 in flight: 3000 calls, no errors"

out=$(python3 "$T_TOP/tests/tools/nfs4-check.py" "$CAP" "$GANESHA_NFS_PORT" \
    "SEQUENCE PUTFH GETATTR>=3000" "SEQUENCE PUTFH READ=200" \
    "SEQUENCE PUTFH LOOKUP GETFH GETATTR>=200" "PUTFH GETATTR=300" \
    "SEQUENCE PUTFH OPEN GETFH=1" "SEQUENCE PUTFH CLOSE=1" "sessions>=6")
ok $? "tshark: no malformed packet, every call answered, sequence ids in order per slot"
diag "$out"
like "$out" "shape EXCHANGE_ID ([0-9]+)" "EXCHANGE_ID, CREATE_SESSION, RECLAIM_COMPLETE..."
n=$(printf '%s\n' "$out" | awk '$2 == "EXCHANGE_ID" { print $3 }')
is "$(printf '%s\n' "$out" | awk '$2 == "CREATE_SESSION" { print $3 }')/$(printf '%s\n' "$out" |
    awk '$2 == "DESTROY_SESSION" { print $3 }')/$(printf '%s\n' "$out" |
    awk '$2 == "DESTROY_CLIENTID" { print $3 }')" "$n/$n/$n" \
    "... each client's session made once, destroyed with its client at the end"
like "$out" "shape SETCLIENTID 1" "v4.0: SETCLIENTID, no session"

# usage: one version at a time; NFSv4 has no MOUNT to list exports
out=$("$P" -3 -4 "$G" 2>&1)
is "$?" 2 "-3 -4: usage error"
like "$out" "one NFS version at a time" "... saying so"
out=$("$P" -4 -E "$G" 2>&1)
like "$out" "NFSv4 has no MOUNT program" "-4 -E: no export list over NFSv4"
