#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 400
# sfs3 against nfs-ganesha (FSAL VFS, a real directory) over UDP and TCP:
# 400 ops/s +-1 % (less what a starved client's pacing says it lost) and
# every op within 1.5 points of its target mix.
# Six seconds of warm-up let the SFS pacer learn the server (its rate
# checkpoints are 2 s apart in warm-up, 10 s in the run).  Skips without
# root or ganesha (lib.sh start_ganesha).
. "$(dirname "$0")/lib.sh"
start_ganesha
plan 6
for opts in "" "-Q"; do
    # shellcheck disable=SC2086
    out=$("$T_BIN/sfs3" $opts -l 400 -p 4 -w 6 -t 10 -F 4000 -a 100 "$GANESHA_URL" \
        --yaml "$T_DIR/r$opts.yaml" 2>"$T_DIR/err")
    is "$?" 0 "sfs3 $opts exits 0" || diag "$(tail -5 "$T_DIR/err")"
    tput=$(printf '%s\n' "$out" | awk '/THROUGHPUT:/ {print $4}')
    bounds=$(rate_reached "$tput" 400 10 "$T_DIR/r$opts.yaml")
    ok $? "sfs3 $opts: throughput $tput within 1 % of 400, less what the pacing lost ($bounds)"
    unlike "$out" "Op mix missed|Failed RPC calls|No good calls" \
        "sfs3 $opts: mix within 1.5 points, no failed calls"
done
