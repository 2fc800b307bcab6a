#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-tshark.py - what tshark (Wireshark's independent decoder) finds in
the NFSv4 traffic of a capture, against what FreeSFS found in the same
file.  Used by the integration tests (tests/integration/lib_nfs.sh).

    nfs4-tshark.py events CAPTURE EVENTS PORT...
    nfs4-tshark.py stats CAPTURE STATS.YAML PORT...

PORTs are the server's ports; tshark decodes RPC on them over TCP
(desegmented), and reads its JSON (every NFSv4 message: its operations
and, per operation, its fields and status).

events checks tests/tools/nfs_events -4's output message by message: every
NFSv4 COMPOUND call tshark finds is an event at the same frame and XID with
the same minor version and operations in the same order; per operation the
handle PUTFH puts and GETFH returns, the names (LOOKUP, OPEN, CREATE,
REMOVE, RENAME, LINK, SECINFO), READ's, WRITE's and COMMIT's offset and
count, the stateid a call carries and the one OPEN, CLOSE, LOCK return,
SEQUENCE's session, sequence id and slot, the client id; every reply's
COMPOUND status and each result's operation and status; READ's bytes
returned, WRITE's written; and the NULL calls.  The reader has no message
tshark does not.

stats checks `sfs_trace stats --yaml`'s nfsv4 section: NULL and COMPOUND
calls and replies with the sum, minimum and maximum of their response
times (tshark's rpc.time, to the nanosecond; within 1 us); per operation
the calls (operations in calls), replies (results), errors (results not
NFS4_OK), bytes (READ returned, WRITE sent) and the response times of the
COMPOUNDs holding them, once per result; per COMPOUND shape the calls and
replies; the errors by operation and status; the bytes read and written.

Prints one summary line, or each difference; exit status 0 when they
agree, 1 on a difference, 2 on a usage error."""
import json
import sys

import yaml

from tshark_json import as_list, first, hexfh as hexb, tshark, values


def fh_key(v):
    """A handle as the reader keeps it: one longer than 64 bytes is its
    first 56 and a hash of the whole (docs/NFS_TRACES.md), so only its head
    can be compared."""
    h = hexb(v)
    return h[:112] if h and len(h) > 128 else h


def same_fh(ours, theirs):
    t = fh_key(theirs)
    if t is None or len(hexb(theirs)) <= 128:
        return ours == t
    return len(ours) == 128 and ours.startswith(t)


def messages(cap, ports):
    """NFSv4 messages: dicts of frame, xid, type, proc, time (replies), the
    COMPOUND's minor version, status and operations [(op, fields)]."""
    out = tshark(cap, ports, ["-Y", "rpc.program == 100003 && rpc.programversion == 4",
                              "-T", "json", "--no-duplicate-keys", "-J", "frame rpc nfs"])
    msgs = []
    for pkt in json.loads(out or "[]"):
        layers = pkt["_source"]["layers"]
        frame = int(first(layers.get("frame", {}), "frame.number"))
        bodies = as_list(layers.get("nfs"))
        for rpc in as_list(layers.get("rpc")):
            prog, vers = first(rpc, "rpc.program"), first(rpc, "rpc.programversion")
            typ, xid = first(rpc, "rpc.msgtyp"), first(rpc, "rpc.xid")
            if prog != "100003" or vers != "4" or xid is None:
                continue
            body = bodies.pop(0) if bodies else {}
            m = {"frame": frame, "xid": int(xid, 16), "type": int(typ),
                 "proc": int(first(rpc, "rpc.procedure")), "ops": []}
            if m["type"] == 1:
                m["time"] = float(first(rpc, "rpc.time") or 0)
                m["status"] = body.get("nfs.nfsstat4")
            m["minor"] = body.get("nfs.minorversion")
            tree = body.get("nfs.ops.count_tree", {})
            ops = as_list(tree.get("nfs.opcode"))
            fields = as_list(tree.get("nfs.opcode_tree"))
            if len(fields) != len(ops):
                fields = [{}] * len(ops)
            m["ops"] = [(int(o), f if isinstance(f, dict) else {}) for o, f in zip(ops, fields)]
            msgs.append(m)
    return msgs


def read_events(path):
    """nfs_events -4's output: calls and replies by (frame, xid), COMPOUNDs
    by the call's (frame, xid) with their operations, the counters."""
    calls, replies, comps, counters = {}, {}, {}, {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if line.startswith("# "):
            k, v = line[2:].split()[:2]
            counters[k] = v
        elif f[0] == "C" and f[5] == "4":
            calls[(int(f[1]), int(f[3], 16))] = f
        elif f[0] == "R" and f[5] == "4":
            replies[(int(f[1]), int(f[3], 16))] = f
        elif f[0] == "V":
            comps[(int(f[1]), int(f[2], 16))] = {"v": f, "ops": []}
        elif f[0] == "O":
            comps[(int(f[1]), int(f[2], 16))]["ops"].append(f)
    return calls, replies, comps, counters


# O line columns (tests/tools/nfs_events.c)
O_OP, O_FLAGS, O_STATUS, O_FH, O_FH2, O_RESFH = 4, 5, 6, 7, 8, 9
O_NAME, O_NAME2, O_TEXT, O_OFF, O_COUNT, O_RESCOUNT = 13, 14, 15, 16, 17, 18
O_STATEID, O_RESSTATEID, O_CLIENTID = 19, 20, 21
NAMED = {15: 1, 18: 1, 6: 1, 28: 1, 29: 2, 11: 1, 33: 1}  # op: names it carries
RES_STATEID = {18, 4, 12, 14, 20, 21}


def stateid(f):
    seq, other = first(f, "nfs.stateid.seqid"), first(f, "nfs.stateid.other")
    if other is None:
        return None
    return "%x:%s" % (int(seq), hexb(other))


def check_call(m, comp, where, bad):
    v, ops = comp["v"], comp["ops"]
    if m["minor"] is not None and int(v[3]) != int(m["minor"]):
        bad.append("%s: minor version %s, tshark %s" % (where, v[3], m["minor"]))
    got = [int(o[O_OP]) for o in ops]
    want = [op for op, _ in m["ops"]]
    if got != want[:len(got)] or (len(got) < len(want) and int(v[6]) == 0):
        bad.append("%s: operations %s, tshark %s" % (where, got, want))
        return
    for o, (op, f) in zip(ops, m["ops"]):
        w = "%s op %d" % (where, op)
        if op == 22 and not same_fh(o[O_FH], first(f, "nfs.fhandle")):
            bad.append("%s: handle %s, tshark %s" % (w, o[O_FH], hexb(first(f, "nfs.fhandle"))))
        names = values(f, "nfs.pathname.component", [])
        if op in NAMED and names:
            ours = [o[O_NAME], o[O_NAME2]][:len(names)]
            if ours != names:
                bad.append("%s: names %s, tshark %s" % (w, ours, names))
        if op in (25, 38, 5):
            off = first(f, "nfs.offset4")
            cnt = first(f, "nfs.count4") if op != 38 else first(f, "nfs.write.data_length")
            if off is not None and int(o[O_OFF]) != int(off):
                bad.append("%s: offset %s, tshark %s" % (w, o[O_OFF], off))
            if cnt is not None and int(o[O_COUNT]) != int(cnt):
                bad.append("%s: count %s, tshark %s" % (w, o[O_COUNT], cnt))
        st = stateid(f)
        if st and op != 53 and o[O_STATEID] != st:
            bad.append("%s: stateid %s, tshark %s" % (w, o[O_STATEID], st))
        cid = first(f, "nfs.clientid")
        if cid and int(o[O_CLIENTID], 16) != int(cid, 16):
            bad.append("%s: client id %s, tshark %s" % (w, o[O_CLIENTID], cid))
        if op == 53:
            sid = hexb(first(f, "nfs.session_id4"))
            if sid and v[9] != sid:
                bad.append("%s: session %s, tshark %s" % (w, v[9], sid))
            slot = first(f, "nfs.slotid")
            if slot is not None and int(v[11]) != int(slot):
                bad.append("%s: slot %s, tshark %s" % (w, v[11], slot))
            seq = first(f, "nfs.seqid")
            if seq is not None and int(v[10]) != int(seq, 0):
                bad.append("%s: sequence id %s, tshark %s" % (w, v[10], seq))


def read_bytes(op, f):
    """The bytes a READ (25) or READ_PLUS (68) result returned: READ_PLUS's
    data and holes (their opaque lengths and hole lengths)."""
    if op == 25:
        return int(first(f, "nfs.read.data_length") or 0)
    return (sum(int(x) for x in values(f, "rpc.opaque_length", []))
            + sum(int(x) for x in values(f, "nfs.length4", [])))


def check_reply(m, comp, where, bad):
    v, ops = comp["v"], comp["ops"]
    if m["status"] is not None and int(v[7]) != int(m["status"]):
        bad.append("%s: status %s, tshark %s" % (where, v[7], m["status"]))
    if int(v[6]) != len(m["ops"]):
        bad.append("%s: %s results, tshark %d" % (where, v[6], len(m["ops"])))
        return
    for o, (op, f) in zip(ops, m["ops"]):
        w = "%s result %d" % (where, op)
        st = f.get("nfs.nfsstat4")
        if int(o[O_OP]) != op or (st is not None and int(o[O_STATUS]) != int(st)):
            bad.append("%s: op %s status %s, tshark %s" % (w, o[O_OP], o[O_STATUS], st))
            continue
        if st != "0":
            continue
        if op == 10 and not same_fh(o[O_RESFH], first(f, "nfs.fhandle")):
            bad.append("%s: handle %s, tshark %s" % (w, o[O_RESFH], first(f, "nfs.fhandle")))
        if op in (25, 68) and int(o[O_RESCOUNT]) != read_bytes(op, f):
            bad.append("%s: read %s, tshark %s" % (w, o[O_RESCOUNT], read_bytes(op, f)))
        if op == 38 and int(o[O_RESCOUNT]) != int(first(f, "nfs.count4")):
            bad.append("%s: wrote %s, tshark %s" % (w, o[O_RESCOUNT], first(f, "nfs.count4")))
        st2 = stateid(f)
        if op in RES_STATEID and st2 and o[O_RESSTATEID] != st2:
            bad.append("%s: stateid %s, tshark %s" % (w, o[O_RESSTATEID], st2))


def check_events(cap, path, ports):
    calls, replies, comps, counters = read_events(path)
    msgs = messages(cap, ports)
    call_at = {}
    bad, ncalls, nreplies, nops, nres = [], 0, 0, 0, 0
    for m in msgs:
        key = (m["frame"], m["xid"])
        where = "frame %d xid %x" % key
        table = calls if m["type"] == 0 else replies
        ours = table.pop(key, None)
        if ours is None:
            bad.append("%s: tshark has a %s the reader does not"
                       % (where, "call" if m["type"] == 0 else "reply"))
            continue
        if int(ours[6]) != m["proc"]:
            bad.append("%s: procedure %s, tshark %d" % (where, ours[6], m["proc"]))
            continue
        if m["type"] == 0:
            ncalls += 1
            call_at[m["xid"]] = key
            if m["proc"] == 1:
                nops += len(m["ops"])
                check_call(m, comps.get(key, {"v": ["V"] * 13, "ops": []}), where, bad)
        else:
            nreplies += 1
            ck = call_at.get(m["xid"])
            if m["proc"] == 1 and ck in comps:
                nres += len(m["ops"])
                check_reply(m, comps[ck], where, bad)
    for k in list(calls) + list(replies):
        bad.append("frame %d xid %x: the reader has a message tshark does not" % k)
    print("%d NFSv4 calls (%d operations) and %d replies (%d results) agree"
          % (ncalls, nops, nreplies, nres))
    for b in bad[:30]:
        print("MISMATCH " + b)
    if len(bad) > 30:
        print("... %d more" % (len(bad) - 30))
    return 1 if bad else 0


OPNAMES = {3: "ACCESS", 4: "CLOSE", 5: "COMMIT", 6: "CREATE", 7: "DELEGPURGE",
           8: "DELEGRETURN", 9: "GETATTR", 10: "GETFH", 11: "LINK", 12: "LOCK",
           13: "LOCKT", 14: "LOCKU", 15: "LOOKUP", 16: "LOOKUPP", 17: "NVERIFY",
           18: "OPEN", 19: "OPENATTR", 20: "OPEN_CONFIRM", 21: "OPEN_DOWNGRADE",
           22: "PUTFH", 23: "PUTPUBFH", 24: "PUTROOTFH", 25: "READ", 26: "READDIR",
           27: "READLINK", 28: "REMOVE", 29: "RENAME", 30: "RENEW", 31: "RESTOREFH",
           32: "SAVEFH", 33: "SECINFO", 34: "SETATTR", 35: "SETCLIENTID",
           36: "SETCLIENTID_CONFIRM", 37: "VERIFY", 38: "WRITE", 39: "RELEASE_LOCKOWNER",
           40: "BACKCHANNEL_CTL", 41: "BIND_CONN_TO_SESSION", 42: "EXCHANGE_ID",
           43: "CREATE_SESSION", 44: "DESTROY_SESSION", 45: "FREE_STATEID",
           46: "GET_DIR_DELEGATION", 47: "GETDEVICEINFO", 48: "GETDEVICELIST",
           49: "LAYOUTCOMMIT", 50: "LAYOUTGET", 51: "LAYOUTRETURN", 52: "SECINFO_NO_NAME",
           53: "SEQUENCE", 54: "SET_SSV", 55: "TEST_STATEID", 56: "WANT_DELEGATION",
           57: "DESTROY_CLIENTID", 58: "RECLAIM_COMPLETE", 59: "ALLOCATE", 60: "COPY",
           61: "COPY_NOTIFY", 62: "DEALLOCATE", 63: "IO_ADVISE", 64: "LAYOUTERROR",
           65: "LAYOUTSTATS", 66: "OFFLOAD_CANCEL", 67: "OFFLOAD_STATUS", 68: "READ_PLUS",
           69: "SEEK", 70: "WRITE_SAME", 71: "CLONE", 10044: "ILLEGAL"}


class Row:
    def __init__(self):
        self.calls = self.replies = self.errors = self.bytes = 0
        self.times = []

    def rt(self, t):
        self.replies += 1
        self.times.append(t)


def from_tshark(msgs):
    procs = {"null": Row(), "compound": Row()}
    ops, shapes, errs = {}, {}, {}
    rd = wr = 0
    calls = {}
    for m in msgs:
        if m["type"] == 0:
            calls[m["xid"]] = m
            row = procs["null" if m["proc"] == 0 else "compound"]
            row.calls += 1
            if m["proc"] == 1:
                shape = " ".join(OPNAMES.get(op, "OP_%d" % op) for op, _ in m["ops"][:16])
                if len(m["ops"]) > 16:
                    shape += " ..."
                shapes.setdefault(shape, Row()).calls += 1
                m["shape"] = shape
                for op, f in m["ops"]:
                    r = ops.setdefault(OPNAMES.get(op, "OP_%d" % op), Row())
                    r.calls += 1
                    if op == 38:
                        n = int(first(f, "nfs.write.data_length") or 0)
                        r.bytes += n
                        wr += n
            continue
        c = calls.get(m["xid"])
        if not c:
            continue
        row = procs["null" if m["proc"] == 0 else "compound"]
        row.rt(m["time"])
        if m["proc"] == 0:
            continue
        if m["status"] not in (None, "0"):
            row.errors += 1
        s = shapes[c["shape"]]
        s.rt(m["time"])
        if m["status"] not in (None, "0"):
            s.errors += 1
        for op, f in m["ops"]:
            name = OPNAMES.get(op, "OP_%d" % op)
            r = ops.setdefault(name, Row())
            r.rt(m["time"])
            st = f.get("nfs.nfsstat4", "0")
            if st != "0":
                r.errors += 1
                errs[(name, int(st))] = errs.get((name, int(st)), 0) + 1
            elif op in (25, 68):
                n = read_bytes(op, f)
                r.bytes += n
                rd += n
    return procs, ops, shapes, errs, rd, wr


def compare(name, o, t, diffs, times=True):
    if o is None:
        o = {"calls": 0, "replies": 0, "errors": 0, "bytes": 0, "response_ms": None}
    for k in ("calls", "replies", "errors", "bytes"):
        if k in o and getattr(t, k) != o[k]:
            diffs.append("%s: %s %d, tshark %d" % (name, k, o[k], getattr(t, k)))
    if not times or not t.times:
        return
    r = o["response_ms"] or {}
    for what, a, b in (("min", r.get("min", 0) / 1e3, min(t.times)),
                       ("max", r.get("max", 0) / 1e3, max(t.times)),
                       ("sum", r.get("sum", 0) / 1e3, sum(t.times))):
        if abs(a - b) > 1e-6:
            diffs.append("%s: %s response %.9f s, tshark %.9f s" % (name, what, a, b))


def check_stats(cap, ymlf, ports):
    procs, ops, shapes, errs, rd, wr = from_tshark(messages(cap, ports))
    g = yaml.safe_load(open(ymlf)).get("nfsv4") or {}
    diffs = []
    for k, t in procs.items():
        compare(k, (g.get("procedures") or {}).get(k), t, diffs)
    ours = g.get("operations") or {}
    for k in sorted(set(ours) | set(ops)):
        compare(k, ours.get(k), ops.get(k, Row()), diffs)
    ours = g.get("shapes") or {}
    for k in sorted(set(ours) | set(shapes)):
        compare("shape '%s'" % k, ours.get(k), shapes.get(k, Row()), diffs)
    ours = {(e["operation"], e["status"]): e["count"] for e in g.get("errors_by_status") or []}
    if ours != errs:
        diffs.append("errors by status %s, tshark %s" % (sorted(ours.items()),
                                                         sorted(errs.items())))
    if g.get("bytes_read", 0) != rd or g.get("bytes_written", 0) != wr:
        diffs.append("bytes read %s written %s, tshark %d %d"
                     % (g.get("bytes_read"), g.get("bytes_written"), rd, wr))
    if diffs:
        print("\n".join(diffs))
        return 1
    print("agree: %d COMPOUNDs, %d NULL, %d operations of %d kinds, %d shapes, "
          "%d error results, %d bytes read, %d written"
          % (procs["compound"].calls, procs["null"].calls,
             sum(r.calls for r in ops.values()), len(ops), len(shapes),
             sum(errs.values()), rd, wr))
    return 0


def main():
    a = sys.argv[1:]
    if len(a) >= 4 and a[0] == "events":
        return check_events(a[1], a[2], a[3:])
    if len(a) >= 4 and a[0] == "stats":
        return check_stats(a[1], a[2], a[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
