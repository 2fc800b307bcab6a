#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# A trace replay treats NFS3ERR_JUKEBOX (RFC 1813: the server is busy, try
# later) as a real client does, as the synthetic mix does: the call is
# sent again after --jukebox-delay, stays one call (one record's call, not
# an NFS error), its sends again are counted per op, and its time runs
# from its first send to its final reply.  A server that answers 30 % of
# its READs and WRITEs JUKEBOX (sfs_nfsd --error, which does not do the
# call; preparation does no READ or WRITE) sees every record's call once
# plus one more call per JUKEBOX it gave.  When the run time (-t) ends
# the replay while calls wait, they are not sent again: their JUKEBOX is
# their answer, an NFS error.  Before, a replay sent each call
# once and the JUKEBOX was the call's answer, an NFS error.
. "$(dirname "$0")/lib.sh"
need_cmd python3
plan 11
start_nfsd busy --error read=JUKEBOX:30 --error write=JUKEBOX:30 \
    --stats-file "$T_DIR/busy.yaml" || bail "sfs_nfsd did not start"
# 80 records of 4 KiB over two ASUs: reads and writes, at time 0
awk 'BEGIN { for (i = 0; i < 80; i++)
    printf "%d,%d,4096,%s,0.%06d\n", i % 2, i * 8, i % 3 ? "W" : "R", i }' >"$T_DIR/t.spc"
out=$("$T_BIN/sfs3" -p 1 --trace "$T_DIR/t.spc" --speed 0 --jukebox-delay 100 \
    --yaml "$T_DIR/r.yaml" "$busy_URL" 2>"$T_DIR/err")
is "$?" 0 "the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
like "$out" "records 80, calls 80," "80 records, 80 calls: a call sent again is the same call"
n=$(printf '%s\n' "$out" | sed -n 's/^JUKEBOX RETRIES: \([0-9]*\).*/\1/p')
inj=$(nfsd_stat busy errors_injected)
ok "$([ "${n:-0}" -gt 5 ] && [ "$n" = "$inj" ]; echo $?)" \
    "every one of the server's $inj JUKEBOX answers was followed by a send again ($n)"
like "$out" "JUKEBOX RETRIES: $n \((read [0-9]+, write [0-9]+|write [0-9]+)\), each sent again 100 ms after" \
    "counted per op, with the delay"
rw=$(sed -n 's/^ *read: //p; s/^ *write: //p' "$T_DIR/busy.yaml" | awk '{ t += $1 } END { print t }')
is "$rw" "$((80 + n))" "the server saw 80 READs and WRITEs plus one per JUKEBOX"
is "$(awk '/^ *nfs_errors:/ { t += $2 } END { print t + 0 }' "$T_DIR/r.yaml")" 0 \
    "no NFS error: every call got its real answer at last"
is "$(sed -n '/^results:/,$ s/^  jukebox_retries: //p' "$T_DIR/r.yaml" | head -1)" "$n" \
    "the YAML's jukebox_retries is the report's"
# each send again waited 100 ms: the mean response holds n x 100 ms over 80 calls
resp=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $9}')
ok "$(awk -v r="$resp" -v n="$n" 'BEGIN {exit !(r >= 0.9 * n * 100 / 80)}'; echo $?)" \
    "average response $resp ms holds $n waits of 100 ms over 80 calls"
# -t 1 ends the replay while the calls answered JUKEBOX wait 5 s
before=$(nfsd_stat busy errors_injected)
out=$("$T_BIN/sfs3" -p 1 --trace "$T_DIR/t.spc" --speed 0 --jukebox-delay 5000 -t 1 \
    --yaml "$T_DIR/c.yaml" "$busy_URL" 2>"$T_DIR/err")
is "$?" 0 "-t 1 with calls waiting: the replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
inj=$(($(nfsd_stat busy errors_injected) - before))
is "$(python3 -c "
import yaml, sys
d = yaml.safe_load(open(sys.argv[1]))
print([o for o in d['ops'] if o['op'] == 'TOTAL'][0]['nfs_errors'])" "$T_DIR/c.yaml" 2>&1)" \
    "$inj" "the $inj calls answered JUKEBOX are NFS errors, not sent again"
unlike "$out" "JUKEBOX RETRIES" "no send again is counted"
