#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0600_trace_mrc_matches_expected.t - `sfs_trace mrc` gives the exact LRU
# figures: the fixtures' expected-stackdist.json (references, cold misses,
# histogram, hits per cache size, per ASU), a brute-force LRU stack on a
# generated trace, and the YAML schema's required keys and convention.
# timeout: 60
. "$(dirname "$0")/lib.sh"
need_python_yaml
plan 9

SIZES=1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536
for f in seed-example edge-cases edge-large-lba; do
    "$T_BIN/sfs_trace" mrc "$T_FIXTURES/spc/$f.spc" --per-unit --per-unit-isolated -q \
        --cache-sizes $SIZES --yaml "$T_DIR/$f.yaml" 2>"$T_DIR/$f.err"
    ok $? "mrc $f.spc runs"
done

check=$(python3 - "$T_FIXTURES/spc/expected-stackdist.json" "$T_DIR" <<'PY'
import json, sys, yaml
exp = json.load(open(sys.argv[1]))
bad = []
for f in ["seed-example", "edge-cases", "edge-large-lba"]:
    e = exp[f + ".spc"]
    g = yaml.safe_load(open("%s/%s.yaml" % (sys.argv[2], f)))
    for k in ["records", "references", "unique_blocks", "cold_misses", "reuses", "block_size",
              "max_distance"]:
        if e[k] != g[k]:
            bad.append("%s %s %s != %s" % (f, k, g[k], e[k]))
    hist = [(h["gt"], h["le"], h["count"]) for h in g["histogram"]]
    if hist != [(h["gt"], h["le"], h["count"]) for h in e["histogram_log2"]]:
        bad.append("%s histogram" % f)
    for a, b in zip(e["hit_ratio"], g["hit_ratio"]):
        if (a["cache_blocks"], a["hits"]) != (b["cache_blocks"], b["hits"]) or abs(a["hit_ratio"] - b["hit_ratio"]) > 1e-9:
            bad.append("%s hit_ratio %s" % (f, b))
    for mine, theirs in (("per_unit", "per_asu"), ("per_unit_isolated", "per_asu_isolated")):
        for u, ev in e[theirs].items():
            gv = g[mine]["asu" + u]
            for k in ("references", "cold_misses", "reuses", "max_distance"):
                if ev[k] != gv[k]:
                    bad.append("%s %s %s %s" % (f, mine, u, k))
            if [x["hits"] for x in ev["hit_ratio"]] != [x["hits"] for x in gv["hit_ratio"]]:
                bad.append("%s %s %s hits" % (f, mine, u))
            if [(h["gt"], h["le"], h["count"]) for h in ev["histogram_log2"]] != \
               [(h["gt"], h["le"], h["count"]) for h in gv["histogram"]]:
                bad.append("%s %s %s histogram" % (f, mine, u))
print(" ".join(bad))
PY
)
is "$check" "" "figures equal expected-stackdist.json (totals, histogram, hits, per ASU shared and isolated)"

keys=$(python3 - "$T_DIR/seed-example.yaml" <<'PY'
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))
need = ["block_size", "records", "references", "unique_blocks", "cold_misses",
        "distance_convention", "histogram", "hit_ratio", "per_unit"]
miss = [k for k in need if k not in g]
miss += [k for k in ["cache_blocks", "hits", "hit_ratio"] if k not in g["hit_ratio"][0]]
print(" ".join(miss))
PY
)
is "$keys" "" "YAML has the documented top-level keys"
like "$(sed -n 's/^distance_convention: //p' "$T_DIR/seed-example.yaml")" "inclusive" \
    "YAML states the inclusive distance convention"
like "$("$T_BIN/sfs_trace" --help)" "inclusive.*|Judy1Count" "--help states the convention"

# Brute force: an explicit LRU stack over a generated SPC trace with reuse,
# unaligned and multi-block records, three ASUs; 4 KiB and 512 B blocks.
python3 - "$T_DIR" <<'PY'
import random, sys
d = sys.argv[1]
rnd = random.Random(600)
lines, t = [], 0
for i in range(2000):
    asu = rnd.randrange(3)
    lba = rnd.randrange(400) * 8 + (rnd.randrange(8) if rnd.random() < 0.2 else 0)
    size = rnd.choice([512, 4096, 4096, 8192, 1000, 0, 20000])
    t += rnd.randrange(3)
    lines.append("%d,%d,%d,%s,%d.%06d" % (asu, lba, size, rnd.choice("RW"), t // 1000, t % 1000 * 1000))
open(d + "/gen.spc", "w").write("\n".join(lines) + "\n")
for g in (4096, 512):
    stack, hist, refs, cold = [], {}, 0, 0
    for l in lines:
        a, lba, size = map(int, l.split(",")[:3])
        if size == 0:
            continue
        s = lba * 512
        for b in range(s // g, (s + size - 1) // g + 1):
            k, refs = (a, b), refs + 1
            if k in stack:
                depth = len(stack) - stack.index(k)
                stack.remove(k)
                hist[depth] = hist.get(depth, 0) + 1
            else:
                cold += 1
            stack.append(k)
    sizes = [1, 3, 10, 100, 1000, 5000]
    out = ["%d %d" % (refs, cold)] + ["%d %d" % (c, sum(n for x, n in hist.items() if x <= c)) for c in sizes]
    open("%s/brute-%d.txt" % (d, g), "w").write("\n".join(out) + "\n")
PY
for g in 4096 512; do
    "$T_BIN/sfs_trace" mrc "$T_DIR/gen.spc" --block-size $g --cache-sizes 1,3,10,100,1000,5000 \
        -q --yaml "$T_DIR/gen-$g.yaml"
    got=$(python3 - "$T_DIR/gen-$g.yaml" <<'PY'
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))
print("%d %d" % (g["references"], g["cold_misses"]))
for h in g["hit_ratio"]:
    print("%d %d" % (h["cache_blocks"], h["hits"]))
PY
)
    is "$got" "$(cat "$T_DIR/brute-$g.txt")" "block size $g: equals a brute-force LRU stack"
done
