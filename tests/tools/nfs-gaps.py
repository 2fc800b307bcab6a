#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs-gaps.py - what a capture of NFS over TCP that lost segments must read
as, from tshark's decode of the same capture before they were lost (used by
tests/integration/0696).

    nfs-gaps.py pick CAPTURE PORT...
    nfs-gaps.py check CAPTURE "FRAME..." EVENTS PORT...

tshark (RPC over TCP desegmented, decoded on the PORTs) gives every RPC
message of CAPTURE with the frames its bytes came in, its XID, type,
program and record length; the messages of one direction of a connection
are contiguous, so their stream offsets follow from their lengths.

pick prints the data frames to drop (editcap numbering): a segment of the
calls' direction that ends one record and holds the mark of the next (the
framing is lost), a segment of the replies' direction that does the same,
and a segment of whole calls; none of them leaves a record mark without
the header after it.

check compares EVENTS (what tests/tools/nfs_events printed for CAPTURE
with the FRAMEs dropped) with what must be read: a message whose mark or
header was dropped is lost; one that lost other bytes is cut (flagged, at
the frame of its last byte captured); every other message is read whole at
its own frame; a call is answered when its reply was not lost; the gaps,
their bytes and the bytes skipped to the next record mark after a gap that
lost the framing.  Prints "agree: ..." or the differences.  Exit 0 when
they agree, 1 on a difference, 2 on a usage error."""
import subprocess
import sys

HDR = 512  # the bytes after a mark that hold any RPC header and its credential
CALL_CUT, REPLY_CUT, DATA_CUT = 0x004, 0x008, 0x020  # TR_NFS_F_*


def lists(field):
    return [x for x in field.split(",") if x] if field else []


def decode(cap, ports):
    """The frames (number -> (direction, start offset, length)) and the RPC
    messages (in stream order per direction) of cap."""
    cmd = ["tshark", "-n", "-r", cap, "-o", "rpc.desegment_rpc_over_tcp:TRUE",
           "-o", "tcp.desegment_tcp_streams:TRUE", "-o", "tcp.reassemble_out_of_order:TRUE",
           "-T", "fields", "-E", "occurrence=a",
           "-E", "aggregator=,"]
    for p in ports:
        cmd += ["-d", "tcp.port==%s,rpc" % p]
    cmd += ["-Y", "tcp", "-e", "frame.number", "-e", "tcp.stream", "-e", "tcp.srcport",
            "-e", "tcp.seq", "-e", "tcp.len", "-e", "tcp.segment", "-e", "rpc.msgtyp",
            "-e", "rpc.xid", "-e", "rpc.program", "-e", "rpc.fraglen"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         check=True).stdout
    frames, msgs = {}, {}
    for line in out.splitlines():
        f = line.split("\t")
        n, d = int(f[0]), (f[1], f[2])
        frames[n] = (d, int(f[3]) - 1, int(f[4]))
        segs = [int(x) for x in lists(f[5])]
        for i, (t, xid, prog, flen) in enumerate(zip(lists(f[6]), lists(f[7]), lists(f[8]),
                                                       lists(f[9]))):
            # only the first message of a frame can have begun in an earlier one
            msgs.setdefault(d, []).append({
                "type": int(t), "xid": int(xid, 16), "prog": int(prog), "len": int(flen) + 4,
                "done": n, "segs": segs if i == 0 and segs else [n]})
    for d, ms in msgs.items():
        off = 0
        for m in ms:
            m["start"] = off
            off += m["len"]
    return frames, msgs


def dropped_ranges(frames, drop):
    r = {}
    for n in sorted(drop):
        d, a, ln = frames[n]
        if ln:
            r.setdefault(d, []).append([a, a + ln])
    for d in r:  # adjacent drops are one gap
        merged = []
        for a, b in sorted(r[d]):
            if merged and merged[-1][1] == a:
                merged[-1][1] = b
            else:
                merged.append([a, b])
        r[d] = merged
    return r


def overlaps(a, b, ranges):
    return any(x < b and a < y for x, y in ranges)


def pick(cap, ports):
    frames, msgs = decode(cap, ports)
    chosen = []
    for want in ("call-mark", "reply-mark", "whole-calls"):
        found = False
        for d, ms in msgs.items():
            if ms[0]["type"] != (1 if want == "reply-mark" else 0):
                continue
            # past the session's first calls (MOUNT, NULL, FSINFO...): a mark
            # from the last two thirds of the stream if one is there, else
            # from earlier (on a busy machine a segment ending one WRITE and
            # holding the next one's mark came 2 times in 45, both early)
            first = 3 if want == "whole-calls" else len(ms) // 3
            for i in list(range(first, len(ms) - 2)) + list(range(3, first)):
                m, nxt = ms[i], ms[i + 1]
                f = m["done"]
                _, a, ln = frames[f]
                if want == "whole-calls":  # f holds whole records only
                    ok = m["start"] == a and all(
                        len(x["segs"]) == 1 for x in ms if a <= x["start"] < a + ln) and \
                        any(x["start"] == a + ln for x in ms)
                else:  # f ends m and holds nxt's mark and header
                    ok = len(m["segs"]) > 1 and a <= nxt["start"] and \
                        nxt["start"] + 4 + HDR <= a + ln and nxt["done"] != f
                # no mark left before the segment with its header in it
                ok = ok and f not in chosen and not any(
                    x["start"] + 4 <= a < min(x["start"] + x["len"], x["start"] + 4 + HDR)
                    for x in ms)
                if ok:
                    chosen.append(f)
                    found = True
                    break
            if found:
                break
    print(" ".join(str(f) for f in sorted(chosen)))
    return 0 if len(chosen) == 3 else 1


def check(cap, drop, events, ports):
    frames, msgs = decode(cap, ports)
    drop = set(drop)
    gaps = dropped_ranges(frames, drop)
    renum = {n: n - sum(1 for x in drop if x < n) for n in frames}
    want_c, want_r, lost, cut = {}, {}, set(), set()
    skipped = resyncs = 0
    for d, ms in msgs.items():
        g = gaps.get(d, [])
        for m in ms:
            s, e = m["start"], m["start"] + m["len"]
            if overlaps(s, min(e, s + 4 + HDR), g):
                lost.add((m["xid"], m["type"]))
            elif overlaps(s, e, g):
                cut.add((m["xid"], m["type"]))
        for a, b in g:
            if any(overlaps(m["start"], m["start"] + 4, [[a, b]]) for m in ms):
                nxt = [m["start"] for m in ms if m["start"] >= b]
                skipped += (nxt[0] if nxt else b) - b
                resyncs += 1 if nxt else 0
    for d, ms in msgs.items():
        for m in ms:
            k = (m["xid"], m["type"])
            if k in lost or m["prog"] not in (100003, 100005):
                continue
            kept = [x for x in m["segs"] if x not in drop]
            frame = renum[max(kept)] if k in cut else renum[m["done"]]
            (want_c if m["type"] == 0 else want_r)[m["xid"]] = (frame, k in cut)
    answered = {x: v for x, v in want_r.items() if x in want_c}
    ev_c, ev_r, counters = {}, {}, {}
    for line in open(events):
        f = line.rstrip("\n").split("\t")
        if line.startswith("# "):
            k, v = line[2:].split()[:2]
            counters[k] = v
        elif f[0] in "CR":
            # the flags are the event's: a call's cut, or a WRITE's data; a
            # reply's, or a READ's data
            fl, proc = int(f[-1], 16), int(f[6])
            data = fl & DATA_CUT and proc == (7 if f[0] == "C" else 6)
            mine = fl & (CALL_CUT if f[0] == "C" else REPLY_CUT)
            (ev_c if f[0] == "C" else ev_r)[int(f[3], 16)] = (int(f[1]), bool(mine or data))
    bad = []
    for name, want, got in (("call", want_c, ev_c), ("reply", answered, ev_r)):
        for x in sorted(set(want) | set(got)):
            if want.get(x) != got.get(x):
                bad.append("xid %x: %s (frame, cut) %s, expected %s"
                           % (x, name, got.get(x), want.get(x)))
    expect = {"calls": len(want_c), "replies": len(answered),
              "unanswered_calls": len(want_c) - len(answered),
              "replies_without_calls": len(want_r) - len(answered),
              "tcp_gaps": sum(len(g) for g in gaps.values()),
              "tcp_gap_bytes": sum(b - a for g in gaps.values() for a, b in g),
              "tcp_bytes_skipped": skipped, "tcp_record_resyncs": resyncs}
    for k, v in expect.items():
        if int(counters.get(k, 0)) != v:
            bad.append("%s %s, expected %d" % (k, counters.get(k, 0), v))
    if bad:
        print("\n".join(bad[:30]))
        return 1
    print("agree: " + ", ".join("%s %d" % kv for kv in expect.items()) +
          "; %d lost, %d cut" % (len(lost), len(cut)))
    return 0


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "pick":
        return pick(a[1], a[2:])
    if len(a) >= 5 and a[0] == "check":
        return check(a[1], [int(x) for x in a[2].split()], a[3], a[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
