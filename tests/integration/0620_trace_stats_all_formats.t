#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0620_trace_stats_all_formats.t - `sfs_trace stats` reads SPC, MaStA and
# sysio traces (format detected from the content) and reports the figures
# the fixtures README and expected files give: records, bytes, units,
# footprint, per-unit sizes; the table and the YAML agree.
# timeout: 60
# check: trace analyze
. "$(dirname "$0")/lib.sh"
need_python_yaml
plan 8

F=$T_FIXTURES
y() { # y FILE EXPR: evaluates a python expression over the YAML as g
    python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
"$T_BIN/sfs_trace" stats "$F/spc/seed-example.spc" --yaml "$T_DIR/seed.yaml" >"$T_DIR/seed.txt"
ok $? "stats on SPC"
is "$(y "$T_DIR/seed.yaml" '(g["format"], g["records"], g["reads"], g["writes"], g["bytes_read"], g["bytes_written"], g["units_count"])')" \
   "('spc', 11, 2, 9, 8192, 53760, 3)" "SPC: records, bytes and ASUs"
is "$(y "$T_DIR/seed.yaml" '[g["units"][u]["max_end"] for u in ("asu0", "asu1", "asu2")]')" \
   "[10721935360, 5302579200, 15801356288]" "SPC: D11 file sizes per ASU"
like "$(cat "$T_DIR/seed.txt")" "bytes written +53760" "the table has the same bytes"

"$T_BIN/sfs_trace" stats -q "$F/masta/synthetic-2k.mtr" --yaml "$T_DIR/m.yaml"
is "$(y "$T_DIR/m.yaml" '(g["format"], g["reads"], g["writes"], g["records_by_op"]["sync"], g["units"]["region0"]["bytes_read"], g["units"]["region1"]["bytes_written"], g["reader"]["counters"]["strings"])')" \
   "('masta', 1058, 942, 310, 20930560, 5070848, 16)" "MaStA: I/O, syncs, bytes per region, strings"

"$T_BIN/sfs_trace" stats -q "$F/sysio/synthetic.trace" --yaml "$T_DIR/s.yaml"
is "$(y "$T_DIR/s.yaml" '(g["format"], g["bytes_written"], g["bytes_read"], g["units_count"], g["reader"]["counters"]["unknown:fcntl"])')" \
   "('sysio', 83628032, 83515656, 26, 4)" "sysio: bytes, files, unknown calls counted"
want=$(python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))["synthetic.trace"]["streams"]
print(sorted((p, f["written"], f["read"]) for s in e.values() for p, f in s["files"].items()))' "$F/sysio/expected.json")
is "$(y "$T_DIR/s.yaml" 'sorted((p, u["bytes_written"], u["bytes_read"]) for p, u in g["units"].items())')" \
   "$want" "sysio: bytes per file equal expected.json"

"$T_BIN/sfs_trace" stats -q --block-size 512 "$F/spc/edge-cases.spc" --yaml "$T_DIR/e.yaml"
is "$(y "$T_DIR/e.yaml" '(g["zero_size_records"], g["footprint"]["block_size"], g["bytes_read"], g["bytes_written"])')" \
   "(1, 512, 13312, 1124328)" "SPC edge cases: zero-size record, footprint granularity"
