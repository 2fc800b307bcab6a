#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs4-opcount.py - the NFSv4 operations tshark (Wireshark's independent
decoder) finds in a capture, against the protocol counters of an sfs4
results file of the same run.  Used by the integration tests.

    nfs4-opcount.py CAPTURE RESULTS.YAML FROM TO PORT...

FROM and TO are XIDs in hex (sfs4 -d 7's "counters start at xid" and
"stop at xid" lines of a one-process run): the COMPOUND calls whose XID
lies in [FROM, TO), modulo 2^32, are the ones the counters counted.  Each
call counts once (a retransmission keeps its XID).  The check passes when
the results' `protocol` section has as many compounds and, operation by
operation, as many of each as those calls carry; it also prints the OPEN
and CLOSE operations of the whole capture ("capture OPEN n", "capture
CLOSE n").  Exit status 0 when they agree, 1 on a difference, 2 on a
usage error."""
import json
import sys

import yaml

from tshark_json import NFS4_OPS as OPS, as_list, first, tshark


def calls(cap, ports):
    """Each COMPOUND call once, by XID: its operation numbers."""
    out = tshark(cap, ports, ["-Y", "rpc.program == 100003 && rpc.programversion == 4 "
                              "&& rpc.msgtyp == 0 && rpc.procedure == 1",
                              "-T", "json", "--no-duplicate-keys", "-J", "rpc nfs"])
    seen = {}
    for pkt in json.loads(out or "[]"):
        layers = pkt["_source"]["layers"]
        bodies = as_list(layers.get("nfs"))
        for rpc in as_list(layers.get("rpc")):
            xid = first(rpc, "rpc.xid")
            if first(rpc, "rpc.program") != "100003" or xid is None:
                continue
            body = bodies.pop(0) if bodies else {}
            tree = body.get("nfs.ops.count_tree", {})
            seen.setdefault(int(xid, 16), [int(o) for o in as_list(tree.get("nfs.opcode"))])
    return seen


def main(argv):
    if len(argv) < 6:
        print(__doc__.split("\n\n")[1])
        return 2
    cap, res, lo, hi, ports = argv[1], argv[2], int(argv[3], 16), int(argv[4], 16), argv[5:]
    proto = (yaml.safe_load(open(res)) or {}).get("protocol")
    if not isinstance(proto, dict):
        print("%s: no protocol section" % res)
        return 1
    width = (hi - lo) % 2**32
    wire, whole = {}, {}
    compounds = 0
    for xid, ops in calls(cap, ports).items():
        names = [OPS.get(o, str(o)) for o in ops]
        for n in names:
            whole[n] = whole.get(n, 0) + 1
        if (xid - lo) % 2**32 >= width:
            continue
        compounds += 1
        for n in names:
            wire[n] = wire.get(n, 0) + 1
    counted = {k: int(v) for k, v in (proto.get("operations") or {}).items()}
    diffs = []
    if int(proto.get("compounds", -1)) != compounds:
        diffs.append("compounds: counted %s, on the wire %d" % (proto.get("compounds"),
                                                              compounds))
    for n in sorted(set(wire) | set(counted)):
        if counted.get(n, 0) != wire.get(n, 0):
            diffs.append("%s: counted %d, on the wire %d" % (n, counted.get(n, 0),
                                                          wire.get(n, 0)))
    for n in ("OPEN", "CLOSE"):
        print("capture %s %d" % (n, whole.get(n, 0)))
    for d in diffs:
        print(d)
    if not diffs:
        print("the counters agree with the wire: %d compounds, %d operations" %
              (compounds, sum(wire.values())))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
