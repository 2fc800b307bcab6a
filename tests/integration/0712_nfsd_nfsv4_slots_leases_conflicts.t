#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0712_nfsd_nfsv4_slots_leases_conflicts.t - sfs_nfsd's NFSv4 state over
# real TCP connections (tests/tools/nfsd4_probe, libtirpc with the
# project's nfs4_prot.x codecs): a session slot retried on a new
# connection gets its cached reply (a GUARDED create is not made twice),
# a client silent past its lease (--lease 2) loses its open and its lock
# to a client that renews, and a 4.1 client's share reservation and lock
# hold against a 4.0 client (SHARE_DENIED, DENIED with the holder) until
# released.  The server's counters agree (slot_replays, leases_expired).
# timeout: 60
. "$(dirname "$0")/lib.sh"
PROBE=$(tool_path nfsd4_probe) || skip_all "nfsd4_probe not built (make tools)"
plan 5

start_nfsd S --lease 2 --stats-file "$T_DIR/S.yaml" || bail "no server"
for mode in slot "lease 2" conflict; do
    # shellcheck disable=SC2086
    set -- $mode
    out=$("$PROBE" "$1" "$S_NFS_PORT" ${2:+"$2"} 2>&1); rc=$?
    n=$(printf '%s\n' "$out" | grep -c '^ok')
    ok $rc "$1: $n checks"
    [ $rc -ne 0 ] && diag "$(printf '%s\n' "$out" | grep -v '^ok' | head -10)"
done
kill -USR1 "$S_PID"
wait_for "grep -q leases_expired '$T_DIR/S.yaml'" 100 0.05
like "$(grep 'slot_replays:' "$T_DIR/S.yaml")" "slot_replays: 1$" "one reply was sent from a slot's cache"
like "$(grep 'leases_expired:' "$T_DIR/S.yaml")" "leases_expired: [1-9]" "the silent client's lease expired"
