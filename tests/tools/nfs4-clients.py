#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-clients.py - the NFSv4 clients a capture shows and the OPENs each
one sent, as tshark (Wireshark's decoder, not FreeSFS's) decodes them.
Used by the integration tests of the NFS trace replay.

    nfs4-clients.py CAPTURE PORT

PORT is the server's NFS port.  A client is an owner an EXCHANGE_ID (4.1)
or SETCLIENTID (4.0) call named, with the client id its reply gave; a
session is CREATE_SESSION's, of the client id it named.  Each OPEN that
has its reply is the client's whose session its SEQUENCE names (4.1), or
whose client id its open owner names (4.0).  Prints

    clients N, sessions S, opens per client 12/3 12/3 2/0 0/0

the opens per client as OPENs/refused, largest first (every client, with
none too); and "opens of no client K" when K OPENs went on a session or
client id no EXCHANGE_ID or SETCLIENTID of the capture made.  Exit status
0, 2 on a usage error."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("nfs4check", os.path.join(HERE, "nfs4-check.py"))
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)

OPEN, SETCLIENTID, EXCHANGE_ID, CREATE_SESSION, SEQUENCE = 18, 35, 42, 43, 53


def ops_of(body):
    return [int(o) for o in CHECK.values(body, "nfs.opcode", [])]


def main():
    msgs = CHECK.cli_messages(sys.argv[1:], __doc__)
    if msgs is None:
        return 2
    replies = {m["xid"]: m for m in msgs if m["type"] == 1}
    owner_of = {}  # client id -> its owner
    client_of = {}  # session -> client id
    owners = []
    opens = {}  # owner -> [OPENs, refused]
    lost = 0
    for m in sorted((m for m in msgs if m["type"] == 0), key=lambda m: m["frame"]):
        r = replies.get(m["xid"])
        if r is None or m["proc"] == 0:
            continue
        ops = ops_of(m["body"])
        if ops[:1] in ([EXCHANGE_ID], [SETCLIENTID]):
            owner = CHECK.first(m["body"], "nfs.data" if ops[0] == EXCHANGE_ID
                                else "nfs.nfs_client_id4.id")
            cid = CHECK.first(r["body"], "nfs.clientid")
            if owner is not None and cid is not None:
                owner_of[cid] = owner
                if owner not in owners:
                    owners.append(owner)
                    opens[owner] = [0, 0]
        elif ops[:1] == [CREATE_SESSION]:
            sess = CHECK.first(r["body"], "nfs.session_id4")
            if sess is not None:
                client_of[sess] = CHECK.first(m["body"], "nfs.clientid")
        if OPEN not in ops:
            continue
        if ops[0] == SEQUENCE:
            cid = client_of.get(CHECK.first(m["body"], "nfs.session_id4"))
        else:
            cid = CHECK.first(m["body"], "nfs.clientid")
        rops = ops_of(r["body"])
        stats = [int(s) for s in CHECK.values(r["body"], "nfs.nfsstat4", [])]
        stats = stats[1:] if len(stats) == len(rops) + 1 else stats
        if OPEN not in rops or rops.index(OPEN) >= len(stats):
            continue
        owner = owner_of.get(cid)
        if owner is None:
            lost += 1
            continue
        opens[owner][0] += 1
        opens[owner][1] += stats[rops.index(OPEN)] != 0
    per = sorted((opens[o] for o in owners), reverse=True)
    print("clients %d, sessions %d, opens per client %s" % (
        len(owners), len(client_of), " ".join("%d/%d" % (n, r) for n, r in per)))
    if lost:
        print("opens of no client %d" % lost)
    return 0


if __name__ == "__main__":
    sys.exit(main())
