#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# sfs_nfsd --service-us N serves NFS calls one at a time, N us each, in
# arrival order: a server of fixed capacity (1e6 / N calls/s) with a queue
# before it, the demo's server (scripts/demo.sh).  Seen through sfs_ping:
# never more than the capacity however many calls are kept in flight; one
# call at a time takes at least N us; eight in flight wait for each other
# (several times N); the same server without it is many times faster.
. "$(dirname "$0")/lib.sh"
plan 5
start_nfsd srv --service-us 2000 || bail "sfs_nfsd did not start"
ping() { "$T_BIN/sfs_ping" -3 -p getattr "$@" "$srv_URL" 2>&1; }
field() { printf '%s\n' "$1" | awk -v k="$2" '$1 == k {print $2}'; }
eight=$(ping -c 400 -o 8)
ok "$(awk -v r="$(field "$eight" ops/s)" 'BEGIN {exit !(r > 0 && r <= 510)}'; echo $?)" \
    "8 calls in flight: at most the capacity of 500 calls/s ($(field "$eight" ops/s))"
ok "$(awk -v m="$(field "$eight" mean_us)" 'BEGIN {exit !(m >= 4 * 2000)}'; echo $?)" \
    "... each waiting for those before it ($(field "$eight" mean_us) us on average)"
one=$(ping -c 100 -o 1)
ok "$(awk -v m="$(field "$one" mean_us)" -v p="$(field "$one" p50_us)" \
    'BEGIN {exit !(m >= 2000 && p >= 1900)}'; echo $?)" \
    "one call at a time: at least 2 ms each ($(field "$one" mean_us) us)"
is "$(field "$one" errors)" 0 "no call failed"
start_nfsd fast || bail "a second sfs_nfsd did not start"
srv_URL=$fast_URL
fast=$(field "$(ping -c 2000 -o 8)" ops/s)
ok "$(awk -v r="$fast" 'BEGIN {exit !(r > 2000)}'; echo $?)" \
    "without --service-us the same calls go faster ($fast calls/s)"
