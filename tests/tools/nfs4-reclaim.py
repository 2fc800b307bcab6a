#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-reclaim.py - the reclaims after a server restart that a capture
shows, as tshark (Wireshark's decoder, not FreeSFS's) decodes them.  Used
by the integration tests of sfs4 against a restarted server.

    nfs4-reclaim.py CAPTURE PORT

PORT is the server's NFS port.  Of every NFSv4.1 call, in capture order:
the OPENs with claim CLAIM_PREVIOUS (RFC 8881 18.16) and their replies'
statuses, the RECLAIM_COMPLETEs, each by its SEQUENCE's session, and the
READs and WRITEs that carry the anonymous stateid (all zeros).  Prints

    reclaims N (OK K, others F) on S sessions, late L, anonymous_io A, after B

where B counts the anonymous READs and WRITEs sent after the first
reclaim (a load's population before its files are opened writes with
the anonymous stateid), and late counts the reclaims on a session that were not answered before
the first RECLAIM_COMPLETE of that session went out, or that have no
RECLAIM_COMPLETE after them at all.  Exit status 0, 2 on a usage error."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("nfs4check", os.path.join(HERE, "nfs4-check.py"))
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)

OPEN, READ, WRITE, RECLAIM_COMPLETE = 18, 25, 38, 58
CLAIM_PREVIOUS = 1


def anonymous(body):
    """1 when the call's stateid is the anonymous one (all zeros)."""
    seq = CHECK.first(body, "nfs.stateid.seqid")
    other = CHECK.first(body, "nfs.stateid.other")
    if seq is None or other is None:
        return 0
    return int(int(seq, 0) == 0 and other.replace(":", "").strip("0") == "")


def main():
    msgs = CHECK.cli_messages(sys.argv[1:], __doc__)
    if msgs is None:
        return 2
    reply_frame, reply_status = {}, {}
    for m in msgs:
        if m["type"] == 1 and m["xid"] not in reply_frame:
            reply_frame[m["xid"]] = m["frame"]
            st = CHECK.values(m["body"], "nfs.nfsstat4", [])
            reply_status[m["xid"]] = st
    reclaims, completes, seen, anon, after = [], {}, set(), 0, 0
    for m in msgs:
        if m["type"] != 0 or m["proc"] != 1 or m["xid"] in seen:
            continue
        seen.add(m["xid"])
        ops = [int(o) for o in CHECK.values(m["body"], "nfs.opcode", [])]
        sess = CHECK.first(m["body"], "nfs.session_id4")
        if OPEN in ops:
            claims = [int(c, 0) for c in CHECK.values(m["body"], "nfs.open.claim_type", [])]
            if CLAIM_PREVIOUS in claims:
                reclaims.append((sess, m["xid"], m["frame"]))
        if RECLAIM_COMPLETE in ops and sess not in completes:
            completes[sess] = m["frame"]
        if READ in ops or WRITE in ops:
            a = anonymous(m["body"])
            anon += a
            after += a if reclaims else 0
    ok = late = 0
    for sess, xid, frame in reclaims:
        st = reply_status.get(xid, [])
        # the compound's status first: OK when every operation was
        if st and int(st[0], 0) == 0:
            ok += 1
        done = reply_frame.get(xid)
        rc = completes.get(sess)
        if rc is None or done is None or done > rc:
            late += 1
    print("reclaims %d (OK %d, others %d) on %d sessions, late %d, anonymous_io %d, after %d"
          % (len(reclaims), ok, len(reclaims) - ok, len({r[0] for r in reclaims}), late, anon,
             after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
