#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""fit-check.py - a fit of sfs_trace (its --yaml) against the workload that
made the trace, or against another fit: the op mix within 1 point per op,
KB per block exactly, each block-size row (a number of blocks and a
fragment) within 1 point of its share (a row one side lacks counts as 0),
the file set within 10 %.  SFS deals transfer sizes from decks of 100 per
process, so a window of a few hundred requests cut from a run holds each
share to about a point, not to the card: the rows are held as the mix is.
A share is held to 1 point of rounding and what its sample may stray
(tests/tools/deck.py): 1 point at the thousands of requests a run on a
quiet machine gives; a run on a busy machine that made a few hundred is
held to what its sample can show.

    fit-check.py YAML [mix=FILE] [iodist=FILE] [default] [files=N] [block=N]
                      [fit=OTHER.yaml] [part=compared]

mix=FILE and iodist=FILE are an SFS mix file (version 2) and block-size
file as sfs3 reads them (ops a version-2 mix file leaves out keep SFS's
default); "default" is SFS's default v3 mix and block sizes (docs/SFS30.md
section 2.2 and 3); files=N the io files (FILE_COUNT) the run had; block=N
its KB per block; fit=OTHER.yaml another fit whose mix, rows, FILE_COUNT
and BLOCK_SIZE are the workload.  part=compared checks the YAML's compared
fit instead of its own.  Prints "agree: ..." (exit 0) or each difference
(exit 1)."""
import math
import sys

import yaml

from deck import stray

DEFAULT_MIX = {"lookup": 27, "read": 18, "write": 9, "getattr": 11, "readlink": 7,
               "readdir": 2, "readdirplus": 9, "access": 7, "commit": 5, "fsinfo": 1,
               "create": 1, "remove": 1, "fsstat": 1, "setattr": 1}
DEFAULT_READ = [(85, 1, 0), (8, 2, 1), (4, 4, 1), (2, 8, 1), (1, 16, 1)]
DEFAULT_WRITE = [(49, 0, 1), (36, 1, 1), (8, 2, 1), (4, 4, 1), (2, 8, 1), (1, 16, 1)]


def read_mix(path):
    mix = dict(DEFAULT_MIX)
    lines = open(path).read().splitlines()
    assert lines[0].startswith("SFS MIXFILE VERSION 2"), path
    for line in lines[1:]:
        line = line.split("#")[0].split()
        if len(line) >= 2:
            mix[line[0]] = int(line[1].rstrip("%"))
    return mix


def read_iodist(path):
    rows, cur = {"read": [], "write": []}, None
    for line in open(path).read().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        if line.lower() in ("read", "write"):
            cur = line.lower()
            continue
        pct, blocks, frag = (int(x) for x in line.split())
        if pct:
            rows[cur].append((pct, blocks, frag))
    return rows


def sample(fit, kind):
    """The processes and the requests of kind (mix, read, write) behind a fit."""
    procs = fit["rc"]["PROCS"] * max(1, fit["rc"].get("CLIENTS", 1))
    if kind == "mix":
        return procs, fit.get("mapped_calls", 0)
    return procs, fit.get(kind + "_requests", 0)


def allowed(q, samples):
    """1 point of rounding, and what each fit's sample may stray."""
    return 1 + math.sqrt(sum(stray(q, p, n) ** 2 for p, n in samples))


def rows_of(fit, key):
    return sorted((r["pct"], r["blocks"], r["frag"]) for r in fit[key])


def main():
    g = yaml.safe_load(open(sys.argv[1]))
    want = {"mix": None, "read": None, "write": None, "files": None, "block": None}
    other = None
    part = None
    for arg in sys.argv[2:]:
        k, _, v = arg.partition("=")
        if k == "mix":
            want["mix"] = read_mix(v)
        elif k == "iodist":
            r = read_iodist(v)
            want["read"], want["write"] = r["read"] or None, r["write"] or None
        elif k == "default":
            want["mix"], want["read"], want["write"] = DEFAULT_MIX, DEFAULT_READ, DEFAULT_WRITE
            want["block"] = want["block"] or 8
        elif k == "files":
            want["files"] = int(v)
        elif k == "block":
            want["block"] = int(v)
        elif k == "fit":
            o = other = yaml.safe_load(open(v))
            want["mix"] = o["mix"]
            want["read"], want["write"] = rows_of(o, "read_rows"), rows_of(o, "write_rows")
            want["files"], want["block"] = o["rc"]["FILE_COUNT"], o["rc"]["BLOCK_SIZE"]
        elif k == "part":
            part = v
        else:
            sys.exit("fit-check.py: unknown argument " + arg)
    if part:
        g = g[part]
    bad, said = [], []

    def samples(kind):
        return [sample(f, kind) for f in (g, other) if f is not None]

    if want["mix"] is not None:
        worst, most = 0, 0.0
        for op in set(want["mix"]) | set(g["mix"]):
            d = abs(g["mix"].get(op, 0) - want["mix"].get(op, 0))
            lim = allowed(want["mix"].get(op, 0) / 100.0, samples("mix"))
            worst, most = max(worst, d), max(most, lim)
            if d > lim:
                bad.append("%s: fitted %d %%, the workload's %d %% (%.1f points allowed)" %
                           (op, g["mix"].get(op, 0), want["mix"].get(op, 0), lim))
        said.append("mix within %d point(s) per op (%.1f allowed)" % (worst, most))
    for kind in ("read", "write"):
        if want[kind] is None:
            continue
        got = {(b, f): p for p, b, f in rows_of(g, kind + "_rows")}
        exp = {(b, f): p for p, b, f in want[kind]}
        over, worst, most = [], 0, 0.0
        for k in set(got) | set(exp):
            d = abs(got.get(k, 0) - exp.get(k, 0))
            lim = allowed(exp.get(k, 0) / 100.0, samples(kind))
            worst, most = max(worst, d), max(most, lim)
            if d > lim:
                over.append(k)
        if over:
            bad.append("%s rows: fitted %s, the workload's %s (%.1f points allowed, requests %s)" %
                       (kind, sorted(got.items()), sorted(exp.items()), most,
                        [n for _, n in samples(kind)]))
        else:
            said.append("%s rows within %d point(s) (%.1f allowed; %d of %d equal)" %
                        (kind, worst, most, sum(got.get(k) == exp[k] for k in exp), len(exp)))
    if want["block"] is not None:
        if g["rc"]["BLOCK_SIZE"] != want["block"]:
            bad.append("KB per block: fitted %d, the workload's %d" % (g["rc"]["BLOCK_SIZE"], want["block"]))
        else:
            said.append("%d KB blocks" % want["block"])
    if want["files"] is not None:
        got = g["rc"]["FILE_COUNT"]
        off = abs(got - want["files"]) / want["files"]
        if off > 0.10:
            bad.append("file set: fitted FILE_COUNT %d, the workload's %d (%.1f %% off)" %
                       (got, want["files"], 100 * off))
        else:
            said.append("FILE_COUNT %d for %d (%.1f %%)" % (got, want["files"], 100 * off))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("agree: " + "; ".join(said))


main()
