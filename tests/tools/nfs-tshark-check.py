#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs-tshark-check.py - checks the NFS trace reader against Wireshark.

    nfs-tshark-check.py CAPTURE EVENTS [-p PORT,...] [--summary]

CAPTURE is a pcap/pcapng file, EVENTS what tests/tools/nfs_events printed for
it.  tshark (the independent decoder) decodes the capture with RPC over TCP
desegmented and the given server ports decoded as RPC; every NFSv2/v3 and
MOUNT v1/v3 call and reply it finds must be in EVENTS at the same frame,
with the same XID and procedure, and, where both decode them, the same file
handle, name, offset and count (calls) and status, new handle and count
(replies); EVENTS must hold no message tshark does not, but for records
cut by a gap in the capture that tshark cannot reassemble and the reader
hands over as cut.  A message sent
again with the same XID counts once (the reader keeps the first).  The
NFSv4 calls tshark sees must equal the reader's nfsv4_calls counter.

Prints one summary line ("N calls and M replies agree: proc=n ...") and
each disagreement; exit 0 when there is none.
"""
import json
import subprocess
import sys

OURS = {(100003, 2), (100003, 3), (100005, 1), (100005, 3)}
CUT = 0x02c  # TR_NFS_F_CALL_CUT | TR_NFS_F_REPLY_CUT | TR_NFS_F_DATA_CUT
# procedures whose reply carries a new handle (v3, v2 and MOUNT numbering)
NEW_FH = {(100003, 3): {3, 8, 9, 10, 11}, (100003, 2): {4, 9, 14},
          (100005, 1): {1}, (100005, 3): {1}}


def values(tree, key, out):
    """Every value of key in tree (dicts and lists), in document order."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k == key:
                if isinstance(v, list):
                    out.extend(v)
                else:
                    out.append(v)
            else:
                values(v, key, out)
    elif isinstance(tree, list):
        for v in tree:
            values(v, key, out)
    return out


def first(tree, *keys):
    for k in keys:
        v = values(tree, k, [])
        if v:
            return v[0]
    return None


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def tshark_messages(cap, ports):
    cmd = ["tshark", "-n", "-r", cap, "-o", "rpc.desegment_rpc_over_tcp:TRUE",
           "-o", "tcp.desegment_tcp_streams:TRUE", "-T", "json",
           "-J", "frame rpc nfs mount"]
    for p in ports:
        cmd += ["-d", "udp.port==%s,rpc" % p, "-d", "tcp.port==%s,rpc" % p]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=True).stdout
    msgs = []
    v4_calls = 0
    for pkt in json.loads(out or b"[]"):
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


def hexfh(v):
    return v.replace(":", "").lower() if v else None


def main():
    args = sys.argv[1:]
    ports = []
    if "-p" in args:
        i = args.index("-p")
        ports = [p for p in args[i + 1].split(",") if p]
        del args[i:i + 2]
    cap, events = args[0], args[1]
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


if __name__ == "__main__":
    sys.exit(main())
