#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs-tshark.py - what tshark (Wireshark's independent decoder) finds in a
capture of NFS traffic, against what FreeSFS found in the same file.  Used
by the integration tests (through tests/integration/lib_nfs.sh).

    nfs-tshark.py events CAPTURE EVENTS PORT...
    nfs-tshark.py stats CAPTURE STATS.YAML PORT...
    nfs-tshark.py refs CAPTURE PORT...
    nfs-tshark.py calls CAPTURE PORT...

PORTs are the server's NFS and MOUNT ports: tshark decodes RPC on them over
UDP and TCP (RPC over TCP desegmented).

events checks the reader message by message.  EVENTS is what
tests/tools/nfs_events printed for CAPTURE.  Every NFSv2/v3 and MOUNT v1/v3
call and reply tshark finds must be in EVENTS at the same frame, with the
same XID and procedure, and, where both decode them, the same file handle,
name, offset and count (calls) and status, new handle and count (replies);
EVENTS must hold no message tshark does not, but for records cut by a gap
in the capture that tshark cannot reassemble and the reader hands over as
cut.  A message sent again with the same XID counts once (the reader keeps
the first).  The NFSv4 calls tshark sees must equal the reader's
nfsv4_calls counter.  Prints one summary line ("N calls and M replies
agree: proc=n ...") and each disagreement.

stats checks `sfs_trace stats --yaml` (NFSv2/v3 and MOUNT: NFSv4's part
is nfs4-tshark.py's): per procedure (the SFS op names;
MOUNT's under mount_procedures) the calls (a call sent again from the same
address and port with its XID counts once, as the reader makes one event
of it), the replies matched to a call, and `-z rpc,srt`'s minimum, maximum
and sum of the response times, copies of calls and second replies
(rpc.dup) left out; the bytes READ replies returned and WRITE calls sent
(NFSv3: nfs.count3; NFSv2: the data's length; a copy's once).  It prints "agree: ..." with the
totals, or one line per difference.  Times agree within 1 us: both tools
take each response time as the difference of the two frames' stamps to
the nanosecond and sum them exactly; sfs_trace prints nanoseconds, tshark
rounds each figure it prints (minimum, maximum, sum) to the nearest
microsecond, so they differ by at most 0.5 us.

refs writes the capture's NFSv3 READs and WRITEs over UDP (one call per
frame) as SPC lines for --lba-size 1, in call order: each file handle
(nfs.fh.hash) a unit numbered by first use, a READ's length what its reply
returned (what it asked when unanswered), a WRITE's what it sent - the
references `sfs_trace mrc` must find in the capture itself.

Exit status 0 when they agree, 1 on a difference, 2 on a usage error."""
import json
import sys

import yaml

from tshark_json import as_list, first, hexfh, tshark, values

V2 = {"WRITECACHE": "wrcache", "STATFS": "fsstat"}


def op_name(prog, name):
    name = V2.get(name, name.lower())
    return ("mount:" if prog == "mount" else "") + name


def from_tshark(cap, ports):
    srt = {}
    # copies of a call and second replies (rpc.dup) left out: the reader
    # makes one event of a call, timed from its first send to its first reply
    srt_args = ["-q"]
    for pv in ("100003,2", "100003,3", "100005,1", "100005,3"):
        srt_args += ["-z", "rpc,srt,%s,!rpc.dup" % pv]
    out = tshark(cap, ports, srt_args)
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
    calls, rd, wr, sent = {}, 0, 0, set()
    # every RPC message of every frame (a TCP segment may carry several):
    # the header fields occur once per message, so they zip; nfs.count3
    # occurs once in each NFSv3 READ, WRITE and COMMIT call, READDIR call
    # and successful READ and WRITE reply, in message order; the addresses
    # and ports once per frame
    rows = tshark(cap, ports, ["-Y", "rpc", "-T", "fields", "-E", "occurrence=a",
                               "-E", "aggregator=,", "-e", "rpc.msgtyp", "-e", "rpc.program",
                               "-e", "rpc.programversion", "-e", "rpc.procedure", "-e",
                               "rpc.xid", "-e", "nfs.status", "-e", "nfs.count3", "-e",
                               "ip.src", "-e", "ipv6.src", "-e", "udp.srcport", "-e",
                               "tcp.srcport", "-e", "nfs.data"])
    for line in rows.splitlines():
        f = line.split("\t")
        if len(f) < 12:
            continue
        msgs = list(zip(*(x.split(",") for x in f[:5])))
        status = [x for x in f[5].split(",") if x]
        counts = [int(x) for x in f[6].split(",") if x]
        client = (f[7] or f[8]).split(",")[0], (f[9] or f[10]).split(",")[0]
        # NFSv2 READ and WRITE data (hex), once in each WRITE call and
        # successful READ reply; NFSv3's nfs.data is there too, after
        # its nfs.count3
        data = [len(x) // 2 for x in f[11].split(",") if x]
        carriers = []
        for t, prog, vers, proc, xid in msgs:
            # a call sent again with its XID is one call, as for the reader
            copy = t == "0" and (client, xid) in sent
            if prog == "100003" and vers == "4":
                continue  # NFSv4: nfs4-tshark.py's
            if t == "0" and prog in ("100003", "100005") and not copy:
                sent.add((client, xid))
                key = ("mount" if prog == "100005" else "nfs", vers, proc)
                calls[key] = calls.get(key, 0) + 1
            if prog != "100003":
                continue
            # every NFS reply but NULL's carries a status, in message order
            st = status.pop(0) if t == "1" and proc != "0" and status else "0"
            if vers == "2":
                if (t, proc) == ("1", "6") and st == "0":
                    rd += data.pop(0)
                elif (t, proc) == ("0", "8"):
                    n = data.pop(0)
                    wr += 0 if copy else n
                continue
            if vers != "3":
                continue
            if t == "1" and proc in ("6", "7"):
                if st == "0":
                    carriers.append((t, proc, False))
                    if proc == "6":
                        data.pop(0)
            elif t == "0" and proc in ("6", "7", "16", "21"):
                carriers.append((t, proc, copy))
                if proc == "7":
                    data.pop(0)
        if len(carriers) != len(counts):
            raise SystemExit("frame with %d counts for %s: cannot tell them apart"
                             % (len(counts), carriers))
        for (t, proc, copy), n in zip(carriers, counts):
            rd += n if (t, proc) == ("1", "6") else 0
            wr += n if (t, proc) == ("0", "7") and not copy else 0
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



OURS = {(100003, 2), (100003, 3), (100005, 1), (100005, 3)}
CUT = 0x02c  # TR_NFS_F_CALL_CUT | TR_NFS_F_REPLY_CUT | TR_NFS_F_DATA_CUT
# procedures whose reply carries a new handle (v3, v2 and MOUNT numbering)
NEW_FH = {(100003, 3): {3, 8, 9, 10, 11}, (100003, 2): {4, 9, 14},
          (100005, 1): {1}, (100005, 3): {1}}


def tshark_messages(cap, ports):
    # several RPC messages in one frame: one key with a list of them (by
    # default tshark repeats the key, and a JSON reader keeps the last)
    out = tshark(cap, ports, ["-T", "json", "--no-duplicate-keys", "-J",
                              "frame rpc nfs mount"])
    msgs = []
    v4_calls = 0
    for pkt in json.loads(out or "[]"):
        layers = pkt["_source"]["layers"]
        frame = int(first(layers.get("frame", {}), "frame.number"))
        rpcs = as_list(layers.get("rpc"))
        bodies = {"nfs": as_list(layers.get("nfs")), "mount": as_list(layers.get("mount"))}
        for rpc in rpcs:
            prog = first(rpc, "rpc.program")
            vers = first(rpc, "rpc.programversion")
            proc = first(rpc, "rpc.procedure")
            xid = first(rpc, "rpc.xid")
            typ = first(rpc, "rpc.msgtyp")
            if prog is None or vers is None or xid is None:
                continue
            prog, vers, typ = int(prog), int(vers), int(typ)
            body = None
            name = "nfs" if prog == 100003 else "mount" if prog == 100005 else None
            if name and bodies[name]:
                body = bodies[name].pop(0)
            if prog == 100003 and vers == 4:
                if typ == 0:
                    v4_calls += 1
                continue
            if (prog, vers) not in OURS or proc is None:
                continue
            msgs.append({"frame": frame, "xid": int(xid, 16), "type": typ, "prog": prog,
                         "vers": vers, "proc": int(proc), "body": body or {}})
    return msgs, v4_calls


def check_stats(cap, ymlf, ports):
    """The stats subcommand."""
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
            if abs(a - b) > 1e-6:
                diffs.append("%s: %s response %.6f s, tshark %.6f s" % (k, what, a, b))
    # the totals hold NFSv4's bytes too (its own section says them)
    v4 = g.get("nfsv4") or {}
    grd = g["bytes_read"] - v4.get("bytes_read", 0)
    gwr = g["bytes_written"] - v4.get("bytes_written", 0)
    if grd != rd or gwr != wr:
        diffs.append("bytes read %d written %d, tshark %d %d" % (grd, gwr, rd, wr))
    if diffs:
        print("\n".join(diffs))
        return 1
    print("agree: %d procedures, %d calls, %d replies, %d bytes read, %d written"
          % (len(calls), sum(calls.values()), sum(v[0] for v in srt.values()), rd, wr))
    return 0


def check_events(cap, events, ports):
    """The events subcommand."""
    calls, replies, counters = {}, {}, {}
    for line in open(events):
        f = line.rstrip("\n").split("\t")
        if line.startswith("# "):
            k, v = line[2:].split()[:2]
            counters[k] = v
        elif f[0] == "C":
            calls[(int(f[1]), int(f[3], 16))] = f
        elif f[0] == "R":
            replies[(int(f[1]), int(f[3], 16))] = f
    msgs, v4 = tshark_messages(cap, ports)
    bad = []
    seen = set()
    per_proc = {}
    ncalls = nreplies = 0
    for m in msgs:
        key = (m["xid"], m["type"], m["prog"], m["vers"])
        if key in seen:
            continue  # the same XID again: the reader keeps the first
        seen.add(key)
        where = "frame %d xid %x" % (m["frame"], m["xid"])
        table = calls if m["type"] == 0 else replies
        ours = table.pop((m["frame"], m["xid"]), None)
        if ours is None:
            bad.append("%s: tshark has a %s (proc %d) the reader does not"
                       % (where, "call" if m["type"] == 0 else "reply", m["proc"]))
            continue
        b = m["body"]
        if int(ours[6]) != m["proc"] or int(ours[4]) != m["prog"] or int(ours[5]) != m["vers"]:
            bad.append("%s: procedure %s/%s/%s, tshark %d/%d/%d"
                       % (where, ours[4], ours[5], ours[6], m["prog"], m["vers"], m["proc"]))
            continue
        pk = "%d.%d.%d" % (m["prog"], m["vers"], m["proc"])
        per_proc[pk] = per_proc.get(pk, 0) + 1
        if m["type"] == 0:
            ncalls += 1
            fh = hexfh(first(b, "nfs.fhandle"))
            if m["prog"] == 100003 and fh and ours[7] != fh:
                bad.append("%s: handle %s, tshark %s" % (where, ours[7], fh))
            nm = first(b, "nfs.name")
            if nm is not None and ours[8] != nm:
                bad.append("%s: name %s, tshark %s" % (where, ours[8], nm))
            off = first(b, "nfs.offset3", "nfs.cookie3", "nfs.read.offset",
                        "nfs.write.offset", "nfs.readdir.cookie")
            if off is not None and int(ours[9]) != int(off):
                bad.append("%s: offset %s, tshark %s" % (where, ours[9], off))
            cnt = first(b, "nfs.count3_maxcount", "nfs.count3", "nfs.read.count",
                        "nfs.readdir.count")
            if cnt is not None and int(ours[10]) != int(cnt):
                bad.append("%s: count %s, tshark %s" % (where, ours[10], cnt))
        else:
            nreplies += 1
            st = first(b, "nfs.status3", "nfs.status2", "mount.status")
            if st is not None and int(ours[7]) != int(st):
                bad.append("%s: status %s, tshark %s" % (where, ours[7], st))
            if m["proc"] in NEW_FH.get((m["prog"], m["vers"]), set()) and int(ours[7]) == 0:
                fh = hexfh(first(b, "nfs.fhandle", "mount.fhandle"))
                if fh and ours[8] != fh:
                    bad.append("%s: new handle %s, tshark %s" % (where, ours[8], fh))
            if m["prog"] == 100003 and m["vers"] == 3 and m["proc"] in (6, 7):
                cnt = first(b, "nfs.count3")
                if cnt is not None and int(ours[9]) != int(cnt):
                    bad.append("%s: count %s, tshark %s" % (where, ours[9], cnt))
    cut_only = 0
    for k, f in list(calls.items()) + list(replies.items()):
        if int(f[-1], 16) & CUT:
            cut_only += 1  # a record cut by a gap tshark could not reassemble
            continue
        bad.append("frame %d xid %x: the reader has a %s tshark does not"
                   % (k[0], k[1], "call" if f[0] == "C" else "reply"))
    if int(counters.get("nfsv4_calls", 0)) != v4:
        bad.append("NFSv4 calls: reader %s, tshark %d" % (counters.get("nfsv4_calls", 0), v4))
    print("%d calls and %d replies agree (nfsv4 calls %d; %d cut messages only the reader "
          "read): %s" % (ncalls, nreplies, v4, cut_only,
                         " ".join("%s=%d" % kv for kv in sorted(per_proc.items()))))
    for b in bad[:30]:
        print("MISMATCH " + b)
    if len(bad) > 30:
        print("... %d more" % (len(bad) - 30))
    return 1 if bad else 0


def calls(cap, ports):
    """Every NFSv2/v3 call tshark decodes, once (a copy sent again with its
    XID is left out), as "PROCEDURE NAME..." (the names it carries) and, for
    READ and WRITE, "bytes N" (the count asked), sorted: what a replay of a
    trace must send, whatever the order its window gave them."""
    msgs, _ = tshark_messages(cap, ports)
    seen, out = set(), []
    for m in msgs:
        if m["type"] != 0 or m["prog"] != 100003 or (m["xid"], m["proc"]) in seen:
            continue
        seen.add((m["xid"], m["proc"]))
        name = call_name("nfs", str(m["vers"]), m["proc"])
        words = [name] + values(m["body"], "nfs.name", [])
        if name in ("read", "write"):
            words.append("bytes %s" % first(m["body"], "nfs.count3", "nfs.count"))
        out.append(" ".join(words))
    print("\n".join(sorted(out)))


def main():
    a = sys.argv[1:]
    if len(a) >= 4 and a[0] == "events":
        return check_events(a[1], a[2], a[3:])
    if len(a) >= 4 and a[0] == "stats":
        return check_stats(a[1], a[2], a[3:])
    if len(a) >= 3 and a[0] == "calls":
        calls(a[1], a[2:])
        return 0
    if len(a) >= 3 and a[0] == "refs":
        refs(a[1], a[2:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
