#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs-tshark.py - what tshark (Wireshark's independent decoder) finds in a
capture of NFS traffic, compared with `sfs_trace stats --yaml` on the same
file.  Used by the integration tests and bench/nfs_stats.sh.

    nfs-tshark.py compare CAPTURE STATS.YAML PORT...
    nfs-tshark.py refs CAPTURE PORT...


PORTs are the server's NFS and MOUNT ports (tshark decodes RPC on them).
From tshark it takes: per procedure (the SFS op names; MOUNT's under
mount_procedures) the calls (a call seen again with its XID, flagged
rpc.dup in refs), the replies matched to a call, and `-z rpc,srt`'s
minimum, maximum and sum of the response times; the bytes READ replies
returned and WRITE calls sent (nfs.count3, NFSv3).  It prints "agree: ..."
with the totals, or one line per difference, and exits 1 on a difference.
Times agree within 2 us (both tools read the same stamps; tshark prints
microseconds).

refs writes the capture's NFSv3 READs and WRITEs over UDP (one call per
frame) as SPC lines for --lba-size 1, in call order: each file handle
(nfs.fh.hash) a unit numbered by first use, a READ's length what its reply
returned (what it asked when unanswered), a WRITE's what it sent - the
references `sfs_trace mrc` must find in the capture itself."""
import subprocess
import sys

import yaml

V2 = {"WRITECACHE": "wrcache", "STATFS": "fsstat"}


def op_name(prog, name):
    name = V2.get(name, name.lower())
    return ("mount:" if prog == "mount" else "") + name


def tshark(cap, ports, extra):
    cmd = ["tshark", "-n", "-r", cap, "-o", "rpc.desegment_rpc_over_tcp:TRUE"]
    for p in ports:
        cmd += ["-d", "udp.port==%s,rpc" % p, "-d", "tcp.port==%s,rpc" % p]
    return subprocess.run(cmd + extra, capture_output=True, text=True, check=True).stdout


def from_tshark(cap, ports):
    srt = {}
    out = tshark(cap, ports, ["-q", "-z", "rpc,srt,100003,2", "-z", "rpc,srt,100003,3",
                              "-z", "rpc,srt,100005,1", "-z", "rpc,srt,100005,3"])
    prog = None
    for line in out.splitlines():
        if line.startswith("Filter:"):
            prog = "mount" if "mount" in line else "nfs"
            continue
        f = line.split()
        if prog and len(f) == 7 and f[0].isdigit():
            k = op_name(prog, f[1])
            n, lo, hi, _, tot = int(f[2]), float(f[3]), float(f[4]), f[5], float(f[6])
            if k in srt:  # the same op in two versions
                o = srt[k]
                srt[k] = (o[0] + n, min(o[1], lo), max(o[2], hi), o[3] + tot)
            else:
                srt[k] = (n, lo, hi, tot)
    calls, rd, wr = {}, 0, 0
    # every RPC message of every frame (a TCP segment may carry several):
    # the header fields occur once per message, so they zip; nfs.count3
    # occurs once in each NFSv3 READ, WRITE and COMMIT call, READDIR call
    # and successful READ and WRITE reply, in message order
    rows = tshark(cap, ports, ["-Y", "rpc", "-T", "fields", "-E", "occurrence=a",
                               "-E", "aggregator=,", "-e", "rpc.msgtyp", "-e", "rpc.program",
                               "-e", "rpc.programversion", "-e", "rpc.procedure", "-e",
                               "nfs.status", "-e", "nfs.count3"])
    for line in rows.splitlines():
        f = line.split("\t")
        if len(f) < 6:
            continue
        msgs = list(zip(*(x.split(",") for x in f[:4])))
        status = [x for x in f[4].split(",") if x]
        counts = [int(x) for x in f[5].split(",") if x]
        carriers = []
        for t, prog, vers, proc in msgs:
            if t == "0" and prog in ("100003", "100005"):
                key = ("mount" if prog == "100005" else "nfs", vers, proc)
                calls[key] = calls.get(key, 0) + 1
            if prog != "100003":
                continue
            # every NFS reply but NULL's carries a status, in message order
            st = status.pop(0) if t == "1" and proc != "0" and status else "0"
            if vers != "3":
                continue
            if t == "1" and proc in ("6", "7"):
                if st == "0":
                    carriers.append((t, proc))
            elif t == "0" and proc in ("6", "7", "16", "21"):
                carriers.append((t, proc))
        if len(carriers) != len(counts):
            raise SystemExit("frame with %d counts for %s: cannot tell them apart"
                             % (len(counts), carriers))
        for (t, proc), n in zip(carriers, counts):
            rd += n if (t, proc) == ("1", "6") else 0
            wr += n if (t, proc) == ("0", "7") else 0
    return srt, calls, rd, wr


# procedure numbers to names, for the calls counted from fields
V3 = ["null", "getattr", "setattr", "lookup", "access", "readlink", "read", "write",
      "create", "mkdir", "symlink", "mknod", "remove", "rmdir", "rename", "link",
      "readdir", "readdirplus", "fsstat", "fsinfo", "pathconf", "commit"]
V2N = ["null", "getattr", "setattr", "root", "lookup", "readlink", "read", "wrcache",
       "write", "create", "remove", "rename", "link", "symlink", "mkdir", "rmdir",
       "readdir", "fsstat"]
MNT = ["null", "mnt", "dump", "umnt", "umntall", "export", "exportall"]


def call_name(prog, vers, proc):
    p = int(proc)
    if prog == "mount":
        return "mount:" + MNT[p]
    return (V3 if vers == "3" else V2N)[p]


def refs(cap, ports):
    calls, got, units = [], {}, {}
    out = tshark(cap, ports, ["-Y", "rpc.program == 100003 && rpc.programversion == 3 && "
                              "(nfs.procedure_v3 == 6 || nfs.procedure_v3 == 7)",
                              "-T", "fields", "-E", "occurrence=f", "-e", "frame.number",
                              "-e", "rpc.msgtyp", "-e", "nfs.procedure_v3", "-e",
                              "nfs.fh.hash", "-e", "nfs.offset3", "-e", "nfs.count3",
                              "-e", "rpc.reqframe", "-e", "nfs.status", "-e", "rpc.dup"])
    for line in out.splitlines():
        f = line.split("\t")
        if f[8]:
            continue  # a retransmission: the first send stands
        if f[1] == "0":
            calls.append((int(f[0]), f[2], f[3], int(f[4]), int(f[5])))
        elif f[6]:
            got[int(f[6])] = int(f[5]) if f[7] == "0" and f[5] else 0
    for i, (frame, proc, fh, off, count) in enumerate(calls):
        n = count
        if proc == "6" and frame in got:
            n = got[frame]
        if proc == "6" and frame in got and got[frame] == 0:
            continue  # nothing read (past the end, or an error)
        u = units.setdefault(fh, len(units))
        print("%d,%d,%d,%s,%d.%06d" % (u, off, n, "R" if proc == "6" else "W", i // 1000000,
                                      i % 1000000))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "refs":
        refs(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) < 5 or sys.argv[1] != "compare":
        sys.exit(__doc__)
    cap, ymlf, ports = sys.argv[2], sys.argv[3], sys.argv[4:]
    srt, raw_calls, rd, wr = from_tshark(cap, ports)
    calls = {}
    for (prog, vers, proc), n in raw_calls.items():
        k = call_name(prog, vers, proc)
        calls[k] = calls.get(k, 0) + n
    g = yaml.safe_load(open(ymlf))
    ours = {k: v for k, v in g["procedures"].items()}
    ours.update({"mount:" + k: v for k, v in g["mount_procedures"].items()})
    diffs = []
    for k in sorted(set(ours) | set(calls) | set(srt)):
        o = ours.get(k, {"calls": 0, "replies": 0, "response_ms": None})
        if o["calls"] != calls.get(k, 0):
            diffs.append("%s: calls %d, tshark %d" % (k, o["calls"], calls.get(k, 0)))
        n, lo, hi, tot = srt.get(k, (0, 0, 0, 0))
        if o["replies"] != n:
            diffs.append("%s: replies %d, tshark %d" % (k, o["replies"], n))
            continue
        if not n:
            continue
        r = o["response_ms"]
        for what, a, b in (("min", r["min"] / 1e3, lo), ("max", r["max"] / 1e3, hi),
                           ("sum", r["sum"] / 1e3, tot)):
            if abs(a - b) > 2e-6:
                diffs.append("%s: %s response %.6f s, tshark %.6f s" % (k, what, a, b))
    if g["bytes_read"] != rd or g["bytes_written"] != wr:
        diffs.append("bytes read %d written %d, tshark %d %d"
                     % (g["bytes_read"], g["bytes_written"], rd, wr))
    if diffs:
        print("\n".join(diffs))
        sys.exit(1)
    print("agree: %d procedures, %d calls, %d replies, %d bytes read, %d written"
          % (len(calls), sum(calls.values()), sum(v[0] for v in srt.values()), rd, wr))


main()
