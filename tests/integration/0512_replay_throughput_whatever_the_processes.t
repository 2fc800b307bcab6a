#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# A replay's throughput is its calls over its duration, whatever -p is.  A
# 3-stream SPC trace of 3 000 records at 1 000 records/s replayed by 3 and
# by 6 processes makes about 1 000 ops/s both times; with 6, three
# processes have no stream, and the plan says so ("3 streams, 6
# processes: 3 idle").  Before, an idle process counted zero time in the
# averaged test time: -p 6 reported about 2 000 ops/s.  At speed 5 the
# figure is 5 000 ops/s for -p 3, 4 and 6 alike (it scaled with -p).
. "$(dirname "$0")/lib.sh"
plan 8
start_nfsd srv || bail "sfs_nfsd did not start"
awk 'BEGIN {for (i = 0; i < 3000; i++) printf "%d,%d,4096,R,%.6f\n", i % 3, (i * 8) % 100000, i / 1000.0}' \
    >"$T_DIR/t3.spc"
tput() { awk '/^NFS V3 THROUGHPUT:/ {print $4}' <<<"$1"; }
near() { awk -v t="$1" -v w="$2" 'BEGIN {exit !(t > 0.9 * w && t < 1.1 * w)}'; echo $?; }
for p in 3 6; do
    out=$("$T_BIN/sfs3" -p $p --trace "$T_DIR/t3.spc" --speed 1 "$srv_URL" 2>"$T_DIR/err$p")
    t=$(tput "$out")
    ok "$(near "$t" 1000)" "-p $p: $t ops/s for the trace's 1 000 records/s"
done
like "$(cat "$T_DIR/err6")" "3 streams, 6 processes: 3 idle" "the plan names the idle processes"
unlike "$(cat "$T_DIR/err3")" "idle" "... and says nothing when every process has a stream"
for p in 3 4 6; do
    out=$("$T_BIN/sfs3" -p $p --trace "$T_DIR/t3.spc" --speed 5 --yaml "$T_DIR/s$p.yaml" \
        "$srv_URL" 2>/dev/null)
    t=$(tput "$out")
    ok "$(near "$t" 5000)" "speed 5, -p $p: $t ops/s for 5 000 records/s"
done
is "$(awk '/^ *throughput_ops:/ {print $2; exit}' "$T_DIR/s6.yaml")" "$t" \
    "the YAML's throughput is the report's"
