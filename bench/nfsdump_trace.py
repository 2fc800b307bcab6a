#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfsdump_trace.py - the synthetic NFSv3 trace the NFS replay's benches
replay (bench/nreplay.sh, bench/nplan.sh), written as nfsdump text
(docs/NFS_TRACES.md section 4), in time order, streamed (a trace of 10^7
calls takes no more memory than one of 10):

    nfsdump_trace.py OUT CALLS RATE [FILES [LEAN]]

FILES files (64) in one directory are looked up first, then CALLS calls
at RATE calls/s: GETATTR 40 %, READ of 1000 bytes 30 %, LOOKUP 20 %,
WRITE of 1000 bytes 10 %, call i on file (7 i) mod FILES; each answered
50 us later.  The replies carry the files' attributes, but for LEAN 1
(the lookups first only: a line half as long)."""
import collections
import sys

out, n, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
nf = int(sys.argv[4]) if len(sys.argv) > 4 else 64
lean = len(sys.argv) > 5 and sys.argv[5] == "1"
t0 = 1034787600.0
root = "01" + "0" * 61 + "1"
fh = ["02" + "%062x" % (k + 1) for k in range(nf)]
attr = ("ftype 1 mode 1a4 nlink 1 uid 0 gid 0 size 100000 used 100000 rdev 0 rdev2 0 "
        "fsid 2 fileid %x atime 1034787500.000000 mtime 1034787400.000000 "
        "ctime 1034787400.000000")
tail = " con = XXX len = XXX\n"
rtail = " status=XXX pl = XXX con = XXX len = XXX\n"
f = open(out, "w", buffering=1 << 22)
replies = collections.deque()  # every reply comes 50 us after its call: in order
xid = 0


def pair(t, proc, name, call, reply):
    global xid
    xid += 1
    while replies and replies[0][0] <= t:
        f.write(replies.popleft()[1])
    f.write("%.6f 30.0321 31.0801 U C3 %08x %x %s %s%s" % (t, xid, proc, name, call, tail))
    replies.append((t + 0.00005, "%.6f 31.0801 30.0321 U R3 %08x %x %s OK %s%s"
                    % (t + 0.00005, xid, proc, name, reply, rtail)))


for k in range(nf):  # the files' handles
    pair(t0 + k * 1e-5, 3, "lookup", 'fh %s name "f%d"' % (root, k), "fh %s %s" % (fh[k], attr % (k + 2)))
t1 = t0 + max(0.001, nf * 1e-5 + 0.0001)  # after the lookups
for i in range(n):
    t = t1 + (i / rate if rate > 0 else 0)
    k, r = (i * 7) % nf, i % 10
    a = "" if lean else attr % (k + 2)
    if r < 4:
        pair(t, 1, "getattr", "fh %s" % fh[k], a)
    elif r < 7:
        pair(t, 6, "read", "fh %s off %x count 1000" % (fh[k], (i * 4096) % 98304),
             (a + " " if a else "") + "count 1000 eof 0")
    elif r < 9:
        pair(t, 3, "lookup", 'fh %s name "f%d"' % (root, k), "fh %s %s" % (fh[k], a))
    else:
        pair(t, 7, "write", "fh %s off %x count 1000 stable U" % (fh[k], (i * 4096) % 98304),
             "count 1000 stable U")
for _, line in replies:
    f.write(line)
f.close()
