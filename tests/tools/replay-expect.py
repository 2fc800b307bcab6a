#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# replay-expect.py - the NFS calls a trace replay must make, computed from
# the trace file alone (an independent reading of docs/TRACE_FORMATS.md 2.4 and
# 3.7, not the C readers): SPC and MaStA READ/WRITE calls split at MAX
# bytes, COMMITs (one per UNSTABLE SPC write record, one per region of a
# MaStA sync over NFSv3), and the bytes.  Prints "read=N write=N commit=N
# bytes_read=N bytes_written=N".
#   replay-expect.py spc FILE MAX [unstable] [v2]
#   replay-expect.py masta FILE MAX [v2]
import struct
import sys


def pieces(n, mx):
    return max(1, -(-n // mx))


def spc(path, mx, unstable, v2):
    c = dict(read=0, write=0, commit=0, bytes_read=0, bytes_written=0)
    for line in open(path, newline=""):
        f = [x.strip(" \t\r\n") for x in line.split(",")]
        if len(f) < 5 or not f[0]:
            continue
        size = int(f[2])
        if f[3] in "rR":
            c["read"] += pieces(size, mx)
            c["bytes_read"] += size
        else:
            c["write"] += pieces(size, mx)
            c["bytes_written"] += size
            c["commit"] += 1 if unstable and not v2 else 0
    return c


def masta(path, mx, v2):
    data = open(path, "rb").read()
    c = dict(read=0, write=0, commit=0, bytes_read=0, bytes_written=0)
    bs, default, blocks, skip, regions, syncs = {}, 4096, 1, 0, set(), []
    for i in range(0, len(data) - len(data) % 8, 8):
        e = data[i:i + 8]
        w1 = struct.unpack(">I", e[4:])[0]
        if skip:
            skip -= 1
            continue
        if e[0] == 0 and e[1] == 0:  # string header: length with the NUL
            ln = struct.unpack(">H", e[2:4])[0]
            skip = -(-(ln - 4) // 8) if ln > 4 else 0
        elif e[0] == 0 and e[1] == 3:
            if e[2] == 0xFF:
                bs, default = {}, w1
            else:
                bs[e[2]] = w1
        elif e[0] in (1, 2):
            n = blocks * bs.get(e[3], default)
            key = "read" if e[0] == 1 else "write"
            c[key] += pieces(n, mx)
            c["bytes_read" if e[0] == 1 else "bytes_written"] += n
            regions.add(e[3])
            blocks = 1
        elif e[0] == 4:
            blocks = w1
        elif e[0] == 3:
            syncs.append((e[3], w1))
        elif e[0] == 0 and e[1] == 6:
            break
    if not v2:
        top = max(regions) + 1 if regions else 0
        for r, mask in syncs:
            if r == 0xFF:
                c["commit"] += top
            elif r == 0xFE:
                c["commit"] += sum(1 for u in range(min(top, 32)) if mask >> u & 1)
            elif r < top:
                c["commit"] += 1
    return c


kind, path, mx = sys.argv[1], sys.argv[2], int(sys.argv[3])
flags = sys.argv[4:]
c = spc(path, mx, "unstable" in flags, "v2" in flags) if kind == "spc" else \
    masta(path, mx, "v2" in flags)
print(" ".join("%s=%d" % (k, c[k]) for k in
               ("read", "write", "commit", "bytes_read", "bytes_written")))
