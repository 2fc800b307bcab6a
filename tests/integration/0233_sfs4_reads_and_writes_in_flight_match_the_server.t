#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: nfs synth
# sfs4 with a READ/WRITE mix (60/40 %, every other op at 0 %), READs of
# 16 blocks of 8 KB and WRITEs of 8 (as far as the file goes), up to 32
# calls in flight per process (-R 32 -W 32), against sfs_nfsd: a read
# request's READs go together, so their 8 KB replies come back to back on
# the process's one TCP connection - the shape that found the client's RPC
# record alignment bug. 0 bad calls; the READs and WRITEs sfs4 counted in
# the run (its per-op table, and its NFSv4.1 operations sent) are exactly
# those sfs_nfsd counted from the prompt (-i: after the population, which
# writes the files) to the end (no warm-up); calls were in flight 8 or
# more at once; at the end no client or session is left and every OPEN
# had its CLOSE.
. "$(dirname "$0")/lib.sh"
plan 10
start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "sfs_nfsd did not start"
{
    printf 'SFS MIXFILE VERSION 2\nread 60%%\nwrite 40%%\n'
    for op in getattr setattr lookup readlink create remove rename link symlink mkdir \
        rmdir readdir readdirplus fsstat access commit fsinfo mknod pathconf; do
        echo "$op 0%"
    done
} >"$T_DIR/rw.mix"
printf 'Read\n100 16 0\nWrite\n100 8 0\n' >"$T_DIR/blocks"
# the count of one op in sfs4's per-op table (calls answered), and of one
# v4 operation among those it counted sending
table() {
    awk -v op="- op: '$1'" '$0 == op { s = 1; next } /^- op:/ { s = 0 }
        s && $1 == "success_count:" { n += $2 } s && $1 == "error_count:" { n += $2 }
        END { print n + 0 }' "$T_DIR/r.yaml"
}
sent() {
    awk -v op="$1:" '/^protocol:/ { s = 1; next } /^[^ ]/ { s = 0 }
        s && $1 == op { print $2; exit }' "$T_DIR/r.yaml"
}
prompted_start "$T_BIN/sfs4" -m "$T_DIR/rw.mix" -b "$T_DIR/blocks" -R 32 -W 32 -l 600 \
    -p 2 -w 0 -t 5 -F 300 -a 25 -d 14 -i --progress 0 --yaml "$T_DIR/r.yaml" "$S_URL" ||
    bail "sfs4 did not prompt"
reads0=$(nfsd_stat_in S nfs_v4 read)
writes0=$(nfsd_stat_in S nfs_v4 write)
prompted_go
is "$PROMPTED_RC" 0 "sfs4 exits 0"
like "$(cat "$T_DIR/out")" "BAD CALLS: 0 " "0 bad calls"
reads=$(($(nfsd_stat_in S nfs_v4 read) - reads0))
writes=$(($(nfsd_stat_in S nfs_v4 write) - writes0))
ok "$([ "$reads" -gt 100 ] && [ "$writes" -gt 50 ]; echo $?)" \
    "the run read and wrote ($reads READs, $writes WRITEs on the server)"
is "$(table read)" "$reads" "the per-op table's READs are the server's"
is "$(table write)" "$writes" "the per-op table's WRITEs are the server's"
is "$(sent READ)/$(sent WRITE)" "$reads/$writes" \
    "the NFSv4.1 READ and WRITE operations sfs4 counted sending are the server's"
most=$(sed -n 's/.*biod: .* at most \([0-9]*\) in flight$/\1/p' "$T_DIR/err" | sort -n | tail -1)
ok "$([ "${most:-0}" -ge 8 ]; echo $?)" "calls in flight at once: $most (8 or more)"
is "$(nfsd_stat_in S nfs_v4_state clients)/$(nfsd_stat_in S nfs_v4_state sessions)" "0/0" \
    "no client or session left on the server"
is "$(nfsd_stat_in S nfs_v4 close)" "$(nfsd_stat_in S nfs_v4 open)" "every OPEN had its CLOSE"
like "$(cat "$T_DIR/out")" "NFS V4 THROUGHPUT" "the report is an NFSv4 run's"
