#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-check.py - what tshark (Wireshark's independent decoder) finds in a
capture of FreeSFS's NFSv4 traffic.  Used by the integration tests.

    nfs4-check.py CAPTURE PORT [EXPECT...]

PORT is the server's NFS port.  Every NFSv4 call and reply on it is
decoded by tshark (RPC over TCP desegmented); the check passes when

  - no frame is malformed and tshark raises no expert error;
  - every call has its reply (matched by XID) and every reply its call;
  - on every session, the SEQUENCE of each call on a slot carries the
    sequence id after the one of the slot's previous call (a call sent
    again with its XID, after a lost connection, counts once);
  - each EXPECT ("SEQUENCE PUTFH GETATTR=N", "SEQUENCE PUTFH GETATTR>=N",
    "status:OK>=N", "sessions=N") holds: a compound shape (its operations'
    names, as tshark spells them, upper case) or a reply status counted.

It prints one line per compound shape ("shape SEQUENCE PUTFH GETATTR
3000"), per reply status ("status OK 3010"), the sessions and slots seen,
and each failure.  Exit status 0 when it passes, 1 when not, 2 on a usage
error."""
import json
import re
import subprocess
import sys

from tshark_json import NFS4_OPS as OPS


def tshark(args):
    r = subprocess.run(["tshark", "-n"] + args, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        print("tshark failed: %s" % r.stderr.strip()[:300])
        sys.exit(1)
    return r.stdout


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def values(tree, key, out):
    """Every value of key in tree (dicts and lists), in document order."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k == key:
                out.extend(as_list(v))
            else:
                values(v, key, out)
    elif isinstance(tree, list):
        for v in tree:
            values(v, key, out)
    return out


def first(tree, key):
    v = values(tree, key, [])
    return v[0] if v else None


STATUS = {0: "OK", 2: "NOENT", 13: "ACCESS", 17: "EXIST", 70: "STALE", 10008: "DELAY",
          10011: "EXPIRED", 10013: "GRACE", 10022: "STALE_CLIENTID",
          10025: "BAD_STATEID", 10052: "BADSESSION", 10053: "BADSLOT",
          10063: "SEQ_MISORDERED", 10078: "DEADSESSION"}


def cli_messages(argv, doc):
    """The messages of the capture and port argv names (CAPTURE PORT), as
    messages() gives them; None, with doc on stderr, for other arguments."""
    if len(argv) != 2:
        print(doc, file=sys.stderr)
        return None
    return messages(argv[0], argv[1])[1]


def messages(cap, port):
    decode = ["-r", cap, "-o", "tcp.desegment_tcp_streams:TRUE",
              "-d", "tcp.port==%s,rpc" % port]
    bad = tshark(decode + ["-Y", "_ws.malformed || _ws.expert.severity >= 8388608"])
    out = tshark(decode + ["-Y", "rpc", "-T", "json", "--no-duplicate-keys", "-J",
                           "frame rpc nfs"])
    msgs = []
    for pkt in json.loads(out or "[]"):
        layers = pkt["_source"]["layers"]
        frame = int(first(layers.get("frame", {}), "frame.number"))
        bodies = as_list(layers.get("nfs"))
        for rpc in as_list(layers.get("rpc")):
            prog, vers = first(rpc, "rpc.program"), first(rpc, "rpc.programversion")
            xid, typ = first(rpc, "rpc.xid"), first(rpc, "rpc.msgtyp")
            body = bodies.pop(0) if bodies and prog == "100003" else {}
            if prog != "100003" or vers != "4" or xid is None:
                continue
            msgs.append({"frame": frame, "xid": int(xid, 16), "type": int(typ),
                         "proc": int(first(rpc, "rpc.procedure") or 0), "body": body})
    return [l for l in bad.splitlines() if l.strip()], msgs


def check(cap, port, expects):
    bad, msgs = messages(cap, port)
    fails = ["malformed or expert error: " + l for l in bad[:5]]
    calls, replies, shapes, statuses = {}, set(), {}, {}
    slots = {}
    for m in msgs:
        if m["type"] == 0:
            if m["xid"] in calls:  # sent again on a new connection
                continue
            calls[m["xid"]] = m
            if m["proc"] != 1:
                shapes["NULL"] = shapes.get("NULL", 0) + 1
                continue
            ops = [int(o) for o in values(m["body"], "nfs.opcode", [])]
            shape = " ".join(OPS.get(o, str(o)) for o in ops)
            shapes[shape] = shapes.get(shape, 0) + 1
            if ops and ops[0] == 53:
                sess = first(m["body"], "nfs.session_id4")
                slot = first(m["body"], "nfs.slotid")
                seq = first(m["body"], "nfs.seqid")
                if sess is None or slot is None or seq is None:
                    fails.append("frame %d: SEQUENCE without session, slot or seqid"
                                 % m["frame"])
                    continue
                key = (sess, int(slot))
                seq = int(seq, 0)
                last = slots.get(key)
                if last is not None and seq != last + 1:
                    fails.append("frame %d: slot %s seqid %d after %d" %
                                 (m["frame"], slot, seq, last))
                slots[key] = seq
        else:
            if m["xid"] in replies:
                continue
            replies.add(m["xid"])
            if m["xid"] not in calls:
                fails.append("frame %d: reply to xid %08x without its call" %
                             (m["frame"], m["xid"]))
            if calls.get(m["xid"], {}).get("proc") == 1:
                st = first(m["body"], "nfs.nfsstat4")
                name = STATUS.get(int(st), st) if st is not None else "?"
                statuses[name] = statuses.get(name, 0) + 1
    for xid in calls:
        if xid not in replies:
            fails.append("call xid %08x (frame %d) without a reply" %
                         (xid, calls[xid]["frame"]))
    for s in sorted(shapes, key=lambda k: -shapes[k]):
        print("shape %s %d" % (s, shapes[s]))
    for s in sorted(statuses, key=lambda k: -statuses[k]):
        print("status %s %d" % (s, statuses[s]))
    sessions = {k[0] for k in slots}
    print("sessions %d slots %d calls %d replies %d" %
          (len(sessions), len(slots), len(calls), len(replies)))
    for e in expects:
        m = re.match(r"^(.*?)(>=|=)(\d+)$", e)
        if not m:
            print("bad expectation %r" % e)
            return 2
        what, op, n = m.group(1), m.group(2), int(m.group(3))
        if what == "sessions":
            got = len(sessions)
        elif what.startswith("status:"):
            got = statuses.get(what[7:], 0)
        else:
            got = shapes.get(what, 0)
        if (op == "=" and got != n) or (op == ">=" and got < n):
            fails.append("%s: %d, expected %s%d" % (what, got, op, n))
    for f in fails[:30]:
        print("FAIL " + f)
    return 1 if fails else 0


def main():
    a = sys.argv[1:]
    if len(a) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    return check(a[0], a[1], a[2:])


if __name__ == "__main__":
    sys.exit(main())
