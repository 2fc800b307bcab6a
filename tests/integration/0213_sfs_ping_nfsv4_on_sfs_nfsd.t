#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0213_sfs_ping_nfsv4_on_sfs_nfsd.t - the NFSv4 client (sfs_ping -4,
# tests/tools/nf4_procs) against sfs_nfsd's NFSv4.1 and 4.0, the server's
# side of 0211 and 0212: GETATTR with 64 calls in flight on 64 session
# slots, 4.0 with --minor 0, READ of an OPENed file, every SFS
# operation's compound answered OK with the values right; what the server
# made of the compounds, read back over NFSv3 by a client nobody here
# wrote (libnfs-utils: the kept tree's names, types, modes, sizes, link
# counts, data); the server's own counts equal to the client's (one PUTFH
# per loop call, the session and client destroyed at the end, also after
# SIGINT mid-run: exit 130, the calls reported the server's).  With root,
# tshark decodes every compound and reply with no malformed packet and
# the sequence ids in order per slot.
# timeout: 120
. "$(dirname "$0")/lib.sh"
T=$(tool_path nf4_procs) || bail "tests/tools/nf4_procs not built"
need_cmd nfs-ls
need_cmd nfs-cat
capture_if_root
plan 22

start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "no server"
P=$T_BIN/sfs_ping
field() { printf '%s\n' "$2" | awk -v k="$1" '$1 == k { print $2 }'; }
triple() { echo "$(field calls "$1")/$(field errors "$1")/$(field nfs_errors "$1")"; }
CAP=$T_DIR/v4.pcapng
[ $cap = 1 ] && { cap_start "$CAP" "$S_NFS_PORT" || bail "no capture"; }

out=$("$P" -4 -c 3000 -o 64 "$S_URL" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/3000/0/0" "v4.1 getattr, 64 in flight: 3000 calls, no errors"
like "$out" "NFSv4.1 over TCP, nfs port $S_NFS_PORT" "the report names NFSv4.1 and the port"
is "$(field slots "$out")" 64 "a session of 64 fore-channel slots"
is "$(field new_sessions "$out")/$(field new_clients "$out")/$(field delays "$out")" "0/0/0" \
    "no recovery, no DELAY"
is "$(nfsd_stat S putfh)/$(nfsd_stat S compound_minor1)" "3000/3007" \
    "the server ran one PUTFH per call, 7 compounds more (set-up, mount, end)"
is "$(nfsd_stat S clients)/$(nfsd_stat S sessions)" "0/0" \
    "the session and the client are gone at the end"

out=$("$P" -4 --minor 0 -c 300 -o 8 "$S_URL" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/300/0/0" "v4.0 getattr: 300 calls, no errors"
like "$out" "NFSv4.0 over TCP" "the report names NFSv4.0"
is "$(nfsd_stat S compound_minor0)/$(nfsd_stat S putfh)" "304/3300" \
    "... 300 PUTFH GETATTR compounds and the set-up's 4 (SETCLIENTID, its CONFIRM, mount, root's attributes) at minor version 0"

out=$("$T" "$S_URL" 2>&1); rc=$?
is "$rc" 0 "every SFS operation's compound answered OK, every value check passed"
[ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -v '^ok ' | head -10)"
is "$(printf '%s\n' "$out" | grep -c '^ok ')/$(printf '%s\n' "$out" | grep -c '^check .* ok$')" \
    "31/14" "31 compounds, 14 value checks"

# the tree nf4_procs -k keeps, as the server holds it
out=$("$T" -k "$S_URL" 2>&1); rc=$?
d=$(printf '%s\n' "$out" | sed -n 's/^kept //p')
is "$rc/${d%%.*}" "0/nf4_procs" "nf4_procs -k keeps its tree ($d)"
ls3=$(timeout 20 nfs-ls "nfs://127.0.0.1/export/$d?nfsport=$S_NFS_PORT&mountport=$S_MNT_PORT" 2>&1)
is "$(printf '%s\n' "$ls3" | awk '{ print $NF, substr($1, 1, 1), $2, $5 }' | sort | tr '\n' ' ')" \
    "d d 2 0 f - 2 100 h - 2 100 l l 1 1 p r 1 0 " \
    "over NFSv3: f and h one file of 100 bytes (two links), l a link, d a directory, p a FIFO"
like "$(printf '%s\n' "$ls3" | awk '$NF == "f" { print $1 }')" "^-rw-------$" "f's mode is SETATTR's 0600"
timeout 20 nfs-cat "nfs://127.0.0.1/export/$d/h?nfsport=$S_NFS_PORT&mountport=$S_MNT_PORT" \
    >"$T_DIR/h"
is "$(stat -c %s "$T_DIR/h")/$(tr -d '\000' <"$T_DIR/h")" \
    "100/FreeSFS NFSv4.1 compounds: data written, then read back." \
    "h holds the data written through f, zeros to the size SETATTR set"
out=$("$P" -4 -p read -n f -c 200 -o 4 "$S_URL/$d" 2>&1); rc=$?
is "$rc/$(triple "$out")" "0/200/0/0" "v4.1 read of the kept f, opened: 200 calls, no errors"

out=$("$P" -4 -c 10 "127.0.0.1:$S_NFS_PORT:/export/nosuch" 2>&1); rc=$?
is "$rc/$out" "1/sfs_ping: 127.0.0.1:/export/nosuch: LOOKUP 'nosuch': NOENT" \
    "a missing export is named in one line, exit 1"

if [ $cap = 1 ]; then
    cap_stop
    out=$(python3 "$T_TOP/tests/tools/nfs4-check.py" "$CAP" "$S_NFS_PORT" \
        "SEQUENCE PUTFH GETATTR>=3000" "PUTFH GETATTR=300" "SEQUENCE PUTFH READ=202" \
        "SEQUENCE PUTFH OPEN GETFH>=1" "SEQUENCE PUTFH SAVEFH PUTFH RENAME=2")
    ok $? "tshark: no malformed packet, every call answered, sequence ids in order per slot"
    diag "$out"
    n=$(printf '%s\n' "$out" | awk '$2 == "EXCHANGE_ID" { print $3 }')
    is "$(printf '%s\n' "$out" | awk '$2 == "DESTROY_SESSION" { print $3 }')" "$n" \
        "... each 4.1 client's session destroyed at the end ($n)"
    unlike "$out" "status (SEQ_MISORDERED|BADSESSION|STALE)" "no recovery status on the wire"
else
    skip "tshark's decode needs root, tshark and dumpcap"
    skip "... sessions destroyed"
    skip "... no recovery status"
fi

# SIGINT mid-run: the calls in flight finish, the session and client go
# (the 4.0 client stays until its lease runs out: 4.0 has no DESTROY)
before=$(nfsd_stat S putfh)
clients=$(nfsd_stat S clients)
"$P" -4 -c 100000000 -o 16 "$S_URL" >"$T_DIR/int.out" 2>&1 &
pid=$!
track "$pid"
wait_for "[ \"\$(nfsd_stat S putfh)\" -gt $((before + 1000)) ]" 200 0.05
kill -INT "$pid"
wait "$pid"; rc=$?
out=$(cat "$T_DIR/int.out")
n=$(field calls "$out")
is "$rc/$(field errors "$out")/$(nfsd_stat S putfh)" "130/0/$((before + n))" \
    "SIGINT: exit 130, the $n calls reported are the server's"
is "$(nfsd_stat S clients)/$(nfsd_stat S sessions)/$(printf '%s\n' "$out" | grep '^sfs_ping:')" \
    "$clients/0/sfs_ping: interrupted after $n calls" \
    "... no session or client of its left, and it says so"
