# SPDX-License-Identifier: BSD-2-Clause
"""tshark_json.py - what nfs-tshark.py and nfs4-tshark.py share: tshark
run on a capture with RPC decoded on the server's ports (over UDP and
TCP, RPC over TCP desegmented), and the walk of its JSON output (the
values of a field in document order, one or several messages per
frame).  With TSHARK_REORDER=1 in the environment tshark also puts TCP
segments captured out of order back in order: a capture on a veth under
load has them although nothing was lost.  Left unset for captures with
segments removed on purpose, whose data after the hole tshark would then
hold back."""
import os
import subprocess

# NFSv4 operation numbers and names (RFC 7530 and 8881), as tshark spells
# them in upper case
NFS4_OPS = {3: "ACCESS", 4: "CLOSE", 5: "COMMIT", 6: "CREATE", 7: "DELEGPURGE",
            8: "DELEGRETURN", 9: "GETATTR", 10: "GETFH", 11: "LINK", 12: "LOCK", 13: "LOCKT",
            14: "LOCKU", 15: "LOOKUP", 16: "LOOKUPP", 17: "NVERIFY", 18: "OPEN", 19: "OPENATTR",
            20: "OPEN_CONFIRM", 21: "OPEN_DOWNGRADE", 22: "PUTFH", 23: "PUTPUBFH",
            24: "PUTROOTFH", 25: "READ", 26: "READDIR", 27: "READLINK", 28: "REMOVE",
            29: "RENAME", 30: "RENEW", 31: "RESTOREFH", 32: "SAVEFH", 33: "SECINFO",
            34: "SETATTR", 35: "SETCLIENTID", 36: "SETCLIENTID_CONFIRM", 37: "VERIFY",
            38: "WRITE", 39: "RELEASE_LOCKOWNER", 40: "BACKCHANNEL_CTL",
            41: "BIND_CONN_TO_SESSION", 42: "EXCHANGE_ID", 43: "CREATE_SESSION",
            44: "DESTROY_SESSION", 45: "FREE_STATEID", 46: "GET_DIR_DELEGATION",
            47: "GETDEVICEINFO", 48: "GETDEVICELIST", 49: "LAYOUTCOMMIT", 50: "LAYOUTGET",
            51: "LAYOUTRETURN", 52: "SECINFO_NO_NAME", 53: "SEQUENCE", 54: "SET_SSV",
            55: "TEST_STATEID", 56: "WANT_DELEGATION", 57: "DESTROY_CLIENTID",
            58: "RECLAIM_COMPLETE"}


def tshark(cap, ports, extra):
    """tshark's output on cap with RPC decoded on the ports."""
    cmd = ["tshark", "-n", "-r", cap, "-o", "rpc.desegment_rpc_over_tcp:TRUE",
           "-o", "tcp.desegment_tcp_streams:TRUE"]
    if os.environ.get("TSHARK_REORDER") == "1":
        cmd += ["-o", "tcp.reassemble_out_of_order:TRUE"]
    for p in ports:
        cmd += ["-d", "udp.port==%s,rpc" % p, "-d", "tcp.port==%s,rpc" % p]
    return subprocess.run(cmd + extra, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=True).stdout


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
    """The first value of the first of keys tree has, or None."""
    for k in keys:
        v = values(tree, k, [])
        if v:
            return v[0]
    return None


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def hexfh(v):
    """A handle (or any bytes) as tshark writes them, in plain hex."""
    return v.replace(":", "").lower() if v else None
