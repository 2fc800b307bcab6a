#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""coverage-table.py SUMMARY.json [UNIT.json] - gcovr's --json-summary as one
Markdown table of line and branch coverage per layer (src/<layer>/) with a
total row, then the files with the most lines never run: what `make
coverage` prints and docs/TESTING.md records.  With UNIT.json (the figures
after the unit tests alone) a last column gives the unit tests' share."""
import json
import sys

# mk/rules.mk's LAYERS, bottom up (a layer not listed comes after, sorted)
LAYERS = ["common", "rpc", "nfs", "validate", "trace", "image", "ctl", "load", "replaybase",
          "nreplay", "null", "replay", "synth", "client", "prime", "analyze", "server", "submit",
          "bin"]
COLDEST = 15


def pct(done, total):
    return "-" if total == 0 else "%.1f %%" % (100.0 * done / total)


def load(path):
    with open(path) as f:
        return json.load(f)["files"]


def by_layer(files):
    rows = {}
    for f in files:
        parts = f["filename"].split("/")
        layer = parts[1] if len(parts) > 2 and parts[0] == "src" else "other"
        r = rows.setdefault(layer, [0, 0, 0, 0])
        r[0] += f["line_covered"]
        r[1] += f["line_total"]
        r[2] += f["branch_covered"]
        r[3] += f["branch_total"]
    return rows


def main():
    files = load(sys.argv[1])
    rows = by_layer(files)
    unit = by_layer(load(sys.argv[2])) if len(sys.argv) > 2 else None
    head = "| layer | lines run | line cover | branches taken | branch cover |"
    rule = "|---|---:|---:|---:|---:|"
    if unit is not None:
        head += " unit tests alone |"
        rule += "---:|"
    print(head)
    print(rule)
    total, utotal = [0, 0, 0, 0], [0, 0, 0, 0]
    for layer in LAYERS + sorted(set(rows) - set(LAYERS)):
        if layer not in rows:
            continue
        r = rows[layer]
        total = [a + b for a, b in zip(total, r)]
        line = "| %s | %d/%d | %s | %d/%d | %s |" % (layer, r[0], r[1], pct(r[0], r[1]),
                                                    r[2], r[3], pct(r[2], r[3]))
        if unit is not None:
            u = unit.get(layer, [0, r[1], 0, r[3]])
            utotal = [a + b for a, b in zip(utotal, u)]
            line += " %s |" % pct(u[0], u[1])
        print(line)
    line = "| **all** | %d/%d | **%s** | %d/%d | %s |" % (
        total[0], total[1], pct(total[0], total[1]), total[2], total[3],
        pct(total[2], total[3]))
    if unit is not None:
        line += " %s |" % pct(utotal[0], utotal[1])
    print(line)
    print()
    print("Files with the most lines never run:")
    print()
    print("| file | lines not run | line cover |")
    print("|---|---:|---:|")
    cold = sorted(files, key=lambda f: f["line_covered"] - f["line_total"])
    for f in cold[:COLDEST]:
        miss = f["line_total"] - f["line_covered"]
        if miss == 0:
            break
        print("| %s | %d | %s |" % (f["filename"], miss, pct(f["line_covered"], f["line_total"])))


if __name__ == "__main__":
    main()
