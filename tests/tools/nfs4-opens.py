#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-opens.py - the NFSv4 open state a capture shows, as tshark
(Wireshark's decoder, not FreeSFS's) decodes it.  Used by the integration
tests of the NFS trace replay.

    nfs4-opens.py CAPTURE PORT

PORT is the server's NFS port.  Of every COMPOUND that has its reply, in
the order of the calls, the OPENs, CLOSEs and locks that ran, with their
statuses (an OPEN with its share access and deny, and its create mode:
-, U, G, X or X1); and the distinct open owners the OPENs named.  Prints

    opens N, refused R (STATUS...), closes C, owners K
    story OPEN/3/2/U:OK OPEN/1/0/-:OK OPEN/2/0/-:SHARE_DENIED CLOSE:OK LOCK:DENIED ...

Exit status 0, 2 on a usage error."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("nfs4check", os.path.join(HERE, "nfs4-check.py"))
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)

OPEN, CLOSE = 18, 4
LOCKS = {12: "LOCK", 13: "LOCKT", 14: "LOCKU"}
NAMES = {0: "OK", 10015: "SHARE_DENIED", 2: "NOENT", 17: "EXIST", 10025: "BAD_STATEID",
         10024: "OLD_STATEID", 10010: "DENIED", 10012: "LOCKED"}


def ints(body, key):
    return [int(v, 0) for v in CHECK.values(body, key, [])]


def main():
    msgs = CHECK.cli_messages(sys.argv[1:], __doc__)
    if msgs is None:
        return 2
    replies = {m["xid"]: m for m in msgs if m["type"] == 1}
    owners, story = set(), []
    for m in sorted((m for m in msgs if m["type"] == 0), key=lambda m: m["frame"]):
        r = replies.get(m["xid"])
        if r is None or m["proc"] == 0:
            continue
        ops = ints(m["body"], "nfs.opcode")
        rops = ints(r["body"], "nfs.opcode")
        stats = ints(r["body"], "nfs.nfsstat4")
        # the reply's statuses: the COMPOUND's first, then one per result
        stats = stats[1:] if len(stats) == len(rops) + 1 else stats
        access = ints(m["body"], "nfs.open4.share_access")
        deny = ints(m["body"], "nfs.open4.share_deny")
        types = ints(m["body"], "nfs.open.opentype")
        modes = ints(m["body"], "nfs.createmode4")
        for i, op in enumerate(rops):
            if (op in (OPEN, CLOSE) or op in LOCKS) and i < len(stats):
                what = LOCKS.get(op, "CLOSE")
                if op == OPEN:
                    mode = "-"
                    if (types.pop(0) if types else 0) == 1:
                        mode = ["U", "G", "X", "X1"][modes.pop(0)] if modes else "?"
                    what = "OPEN/%s/%s/%s" % (access.pop(0) if access else "?",
                                              deny.pop(0) if deny else "?", mode)
                story.append("%s:%s" % (what, NAMES.get(stats[i], str(stats[i]))))
        if OPEN in ops:
            for o in CHECK.values(m["body"], "nfs.open_owner4", []):
                owners.add(str(o))
    opens = [s for s in story if s.startswith("OPEN")]
    refused = [s.split(":")[1] for s in opens if not s.endswith(":OK")]
    print("opens %d, refused %d (%s), closes %d, owners %d" % (
        len(opens), len(refused), " ".join(refused), story.count("CLOSE:OK"), len(owners)))
    print("story " + " ".join(story))
    return 0


if __name__ == "__main__":
    sys.exit(main())
