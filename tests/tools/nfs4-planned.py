#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-planned.py - the calls an NFSv4 plan of a capture holds, counted
from tshark's decoding (Wireshark's, not FreeSFS's) by the rule
docs/nfs_replay.md ("NFSv4") states.  Used by the integration tests.

    nfs4-planned.py CAPTURE PORT

PORT is the server's NFS port.  Of every NFSv4 COMPOUND the operations
that ran (those with a result in the reply) count, by the SFS op of their
NFSv3 form: LOOKUP lookup, OPEN by name create (OPEN4_CREATE) or lookup,
CREATE mkdir / symlink / mknod, REMOVE remove, RENAME rename, LINK link,
READ read, WRITE write, COMMIT commit, SETATTR setattr, ACCESS access,
READDIR readdirplus, READLINK readlink, GETATTR getattr when no other
operation of the COMPOUND is a call; PUTROOTFH is "mount"; the client,
session, open and lock state operations are "v4_state"; the handle
operations and SEQUENCE count nowhere; any other "procedure".  An
operation on a handle the capture never shows (the middle of a LOOKUP walk
with one GETFH at its end, as a mount sends) is "unknown_handle".  The
NULL procedure is "null".  The opens in use before the trace: the stateids
(not the special ones, all zeros or all ones) a call uses that no earlier
message showed - for traffic without delegations, which is what the tests
capture.  Prints one line as sfs_trace plan's second line:

    calls: null 3, ...; not replayable: mount 6, v4_state 18; opens in use before the trace: 0

Exit status 0, 2 on a usage error."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("nfs4check", os.path.join(HERE, "nfs4-check.py"))
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)

# the SFS ops in FreeSFS's order (src/nfs/nf_ops.h)
SFS_OPS = ["null", "getattr", "setattr", "root", "lookup", "readlink", "read", "wrcache",
           "write", "create", "remove", "rename", "link", "symlink", "mkdir", "rmdir",
           "readdir", "fsstat", "access", "commit", "fsinfo", "mknod", "pathconf",
           "readdirplus"]
SKIPS = ["mount", "other_nfs_version", "procedure", "unknown_handle", "no_replayed_handle",
         "call_cut", "v4_state"]
SIMPLE = {15: "lookup", 28: "remove", 29: "rename", 11: "link", 25: "read", 38: "write",
          5: "commit", 34: "setattr", 3: "access", 26: "readdirplus", 27: "readlink"}
CARRY = {22, 23, 10, 32, 31, 53}
STATE = {18, 20, 21, 4, 12, 13, 14, 39, 8, 7, 45, 55, 30, 35, 36, 42, 43, 44, 57, 41, 58}
CLAIM_BY_NAME = {0, 2, 3}  # CLAIM_NULL, CLAIM_DELEGATE_CUR, CLAIM_DELEGATE_PREV


def ints(body, key):
    return [int(v, 0) for v in CHECK.values(body, key, [])]


NEW_FH = {15, 16, 18, 6, 19}  # LOOKUP, LOOKUPP, OPEN, CREATE, OPENATTR


def handles_known(ops, claims):
    """Per operation, whether the capture shows the handle it acts on: PUTFH's
    and PUTROOTFH's, and a handle a LOOKUP, OPEN by name or CREATE made current only
    when a GETFH of the COMPOUND shows it before the next change; SAVEFH
    and RESTOREFH carry it (RENAME and LINK need both)."""
    known, cur, saved, claims = [], False, False, list(claims)
    for i, op in enumerate(ops):
        known.append(cur and (saved or op not in (29, 11)))
        by_fh = op == 18 and (claims.pop(0) if claims else 0) not in CLAIM_BY_NAME
        if op in (22, 23, 24):
            cur = True
        elif op in NEW_FH and not by_fh:  # an OPEN by handle keeps it
            cur = False
            for later in ops[i + 1:]:
                if later == 10:
                    cur = True
                if later == 10 or later in NEW_FH or later in (22, 23, 24, 31):
                    break
        elif op == 32:
            saved = cur
        elif op == 31:
            cur = saved
    return known


def classify(call, nran):
    """(call names, skip names) of one COMPOUND whose first nran operations ran."""
    ops = ints(call, "nfs.opcode")[:nran]
    claims, opentypes, ftypes = (ints(call, "nfs.open.claim_type"),
                                 ints(call, "nfs.open.opentype"), ints(call, "nfs.nfs_ftype4"))
    known = handles_known(ops, claims)
    calls, skips, getattrs = [], [], []  # calls: (name, handle known)
    for i, op in enumerate(ops):
        if op in SIMPLE:
            calls.append((SIMPLE[op], known[i]))
        elif op == 18:
            claim = claims.pop(0) if claims else 0
            opentype = opentypes.pop(0) if opentypes else 0
            if claim in CLAIM_BY_NAME:
                calls.append(("create" if opentype == 1 else "lookup", known[i]))
            else:
                skips.append("v4_state")
        elif op == 6:
            t = ftypes.pop(0) if ftypes else 0
            calls.append(({2: "mkdir", 5: "symlink"}.get(t, "mknod"), known[i]))
        elif op == 9:
            getattrs.append(("getattr", known[i]))
        elif op == 24:
            skips.append("mount")
        elif op in CARRY:
            pass
        elif op in STATE:
            skips.append("v4_state")
        else:
            skips.append("procedure")
    calls = calls or getattrs
    return ([n for n, k in calls if k],
            skips + ["unknown_handle" for n, k in calls if not k])


def main():
    msgs = CHECK.cli_messages(sys.argv[1:], __doc__)
    if msgs is None:
        return 2
    calls, replies = {}, {}
    for m in msgs:
        (calls if m["type"] == 0 else replies).setdefault(m["xid"], m)
    seen, in_use = set(), 0
    for m in sorted(msgs, key=lambda m: m["frame"]):
        for other in CHECK.values(m["body"], "nfs.stateid.other", []):
            if m["type"] == 0 and other not in seen and set(other.split(":")) - {"00"} \
                    and set(other.split(":")) - {"ff"}:
                in_use += 1
            seen.add(other)
    per_op, per_skip = {}, {}
    for xid, c in calls.items():
        if c["proc"] == 0:
            names, skips = ["null"], []
        else:
            r = replies.get(xid)
            nran = len(ints(r["body"], "nfs.opcode")) if r else 1 << 30
            names, skips = classify(c["body"], nran)
        for n in names:
            per_op[n] = per_op.get(n, 0) + 1
        for n in skips:
            per_skip[n] = per_skip.get(n, 0) + 1
    line = "calls: " + ", ".join("%s %d" % (o, per_op[o]) for o in SFS_OPS if o in per_op)
    if per_skip:
        line += "; not replayable: " + ", ".join("%s %d" % (s, per_skip[s])
                                                 for s in SKIPS if s in per_skip)
    print(line + "; opens in use before the trace: %d" % in_use)
    return 0


if __name__ == "__main__":
    sys.exit(main())
