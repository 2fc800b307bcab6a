#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nfs-craft.py - writes the captures of the NFS capture reader's tests
that no loopback run makes: other link types, IPv6, IP fragments, VLAN
tags, TCP streams with reordered, retransmitted, overlapping and missing
segments, a capture that starts inside a connection, pcapng with
nanosecond stamps, stamps that step back, calls sent again and replies
seen twice, NFSv4, and hostile streams.

    nfs-craft.py CASE OUT        (nfs-craft.py --list names the cases)

Every capture holds one NFSv3 session between client 127.0.0.2 (or
fd00::2) and server 127.0.0.1 (fd00::1), NFS on port 2049 and MOUNT on
20048: MNT, NULL, GETATTR, LOOKUP "hello.txt", a 32 KiB READ, an 8 KiB
WRITE and a READDIRPLUS of three entries, each call answered.  The bytes
follow RFC 1813, RFC 5531 and the link, IP, UDP and TCP headers;
tshark decodes every file as the independent check.
"""
import random
import struct
import sys

# ---------------------------------------------------------------- XDR ----

def u32(v):
    return struct.pack(">I", v & 0xffffffff)


def u64(v):
    return struct.pack(">Q", v)


def opaque(b):
    return u32(len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def string(s):
    return opaque(s.encode())


FH_ROOT = bytes(range(1, 33))
FH_FILE = bytes(range(101, 133))


def fattr3(ftype, size, fileid):
    t = u32(1700000000) + u32(5)
    return (u32(ftype) + u32(0o644) + u32(1) + u32(1000) + u32(1000) + u64(size) +
            u64(size) + u32(0) + u32(0) + u64(7) + u64(fileid) + t + t + t)


def post_attr(ftype, size, fileid):
    return u32(1) + fattr3(ftype, size, fileid)


def call(xid, prog, vers, proc, args):
    cred = u32(1) + opaque(u32(1) + string("craft") + u32(1000) + u32(1000) + u32(0))
    return (u32(xid) + u32(0) + u32(2) + u32(prog) + u32(vers) + u32(proc) + cred +
            u32(0) + u32(0) + args)


def reply(xid, res):
    return u32(xid) + u32(1) + u32(0) + u32(0) + u32(0) + u32(0) + res


def session(first_xid=0x1000, nfsv4=False):
    """(from_client, port, bytes) messages of one session, in order."""
    x = first_xid
    m = []

    def nfs(proc, args, res):
        nonlocal x
        m.append((True, 2049, call(x, 100003, 3, proc, args)))
        m.append((False, 2049, reply(x, res)))
        x += 1

    m.append((True, 20048, call(x, 100005, 3, 1, string("/export"))))
    m.append((False, 20048, reply(x, u32(0) + opaque(FH_ROOT) + u32(1) + u32(1))))
    x += 1
    nfs(0, b"", b"")
    nfs(1, opaque(FH_ROOT), u32(0) + fattr3(2, 4096, 2))
    nfs(3, opaque(FH_ROOT) + string("hello.txt"),
        u32(0) + opaque(FH_FILE) + post_attr(1, 65536, 42) + post_attr(2, 4096, 2))
    data = bytes(i % 251 for i in range(32768))
    nfs(6, opaque(FH_FILE) + u64(0) + u32(32768),
        u32(0) + post_attr(1, 65536, 42) + u32(32768) + u32(0) + opaque(data))
    wdata = bytes(i % 13 for i in range(8192))
    nfs(7, opaque(FH_FILE) + u64(32768) + u32(8192) + u32(0) + opaque(wdata),
        u32(0) + u32(0) + u32(0) + post_attr(1, 65536, 42) + u32(8192) + u32(0) + b"verifier")
    ents = b""
    for i, n in enumerate(["a", "bb", "ccc"]):
        fh = bytes([i + 1]) * 32
        ents += (u32(1) + u64(200 + i) + string(n) + u64(i + 1) + post_attr(1, i * 10, 200 + i)
                 + u32(1) + opaque(fh))
    nfs(17, opaque(FH_ROOT) + u64(0) + b"\0" * 8 + u32(4096) + u32(32768),
        u32(0) + post_attr(2, 4096, 2) + b"\0" * 8 + ents + u32(0) + u32(1))
    if nfsv4:
        args = string("") + u32(0) + u32(1) + u32(24)  # COMPOUND: PUTROOTFH
        m.append((True, 2049, call(x, 100003, 4, 1, args)))
        m.append((False, 2049, reply(x, u32(0) + string("") + u32(1) + u32(24) + u32(0))))
        x += 1
    return m

# ------------------------------------------------------- IP, UDP, TCP ----

CLI4, SRV4 = bytes([127, 0, 0, 2]), bytes([127, 0, 0, 1])
CLI6 = bytes.fromhex("fd000000000000000000000000000002")
SRV6 = bytes.fromhex("fd000000000000000000000000000001")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(src, dst, proto, payload, ident=1, frag=0):
    h = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, frag, 64, proto, 0,
                    src, dst)
    h = h[:10] + struct.pack(">H", csum(h)) + h[12:]
    return h + payload


def ipv6(src, dst, nxt, payload):
    return struct.pack(">IHBB16s16s", 0x60000000, len(payload), nxt, 64, src, dst) + payload


def udp(sport, dport, data):
    return struct.pack(">HHHH", sport, dport, 8 + len(data), 0) + data


def tcp(sport, dport, seq, ack, flags, data=b""):
    return struct.pack(">HHIIBBHHH", sport, dport, seq & 0xffffffff, ack & 0xffffffff,
                       5 << 4, flags, 65535, 0, 0) + data


SYN, ACK, PSH, FIN = 0x02, 0x10, 0x08, 0x01


def ip_packet(v6, src, dst, proto, payload):
    return ipv6(src, dst, proto, payload) if v6 else ipv4(src, dst, proto, payload)


def udp_packets(msgs, v6=False, mtu=None, shuffle=False):
    """One datagram per message; IP fragments when it exceeds mtu."""
    out = []
    ident = 100
    cli, srv = (CLI6, SRV6) if v6 else (CLI4, SRV4)
    for from_cli, port, m in msgs:
        src, dst = (cli, srv) if from_cli else (srv, cli)
        sp, dp = (900, port) if from_cli else (port, 900)
        dg = udp(sp, dp, m)
        ident += 1
        if not mtu or len(dg) + 40 <= mtu:
            out.append(ip_packet(v6, src, dst, 17, dg))
            continue
        piece = (mtu - (48 if v6 else 20)) // 8 * 8
        frags = []
        for off in range(0, len(dg), piece):
            more = off + piece < len(dg)
            part = dg[off:off + piece]
            if v6:
                fh = struct.pack(">BBHI", 17, 0, off | int(more), ident)
                frags.append(ipv6(src, dst, 44, fh + part))
            else:
                frags.append(ipv4(src, dst, 17, part, ident, (off // 8) | (0x2000 if more else 0)))
        if shuffle:
            random.Random(7).shuffle(frags)
        out += frags
    return out


def tcp_stream(msgs, v6=False, mss=1448, handshake=True):
    """Segments of one connection per port: (from_client, seq_offset, bytes, packet)."""
    cli, srv = (CLI6, SRV6) if v6 else (CLI4, SRV4)
    segs = []
    isn = {True: 1000, False: 500000}
    sent = {}
    for port in sorted({m[1] for m in msgs}):
        sent[(True, port)] = 0
        sent[(False, port)] = 0
        if handshake:
            segs.append((True, port, None, ip_packet(v6, cli, srv, 6,
                         tcp(901, port, isn[True], 0, SYN))))
            segs.append((False, port, None, ip_packet(v6, srv, cli, 6,
                         tcp(port, 901, isn[False], isn[True] + 1, SYN | ACK))))
    for msg in msgs:
        from_cli, port, m = msg[:3]
        rec = m if len(msg) > 3 else u32(0x80000000 | len(m)) + m  # (.., "raw"): as is
        src, dst = (cli, srv) if from_cli else (srv, cli)
        sp, dp = (901, port) if from_cli else (port, 901)
        for off in range(0, len(rec), mss):
            part = rec[off:off + mss]
            o = sent[(from_cli, port)]
            seq = isn[from_cli] + 1 + o
            ack = isn[not from_cli] + 1 + sent[(not from_cli, port)]
            segs.append((from_cli, port, o, ip_packet(v6, src, dst, 6,
                         tcp(sp, dp, seq, ack, ACK | PSH, part))))
            sent[(from_cli, port)] += len(part)
    return segs

# -------------------------------------------------------------- links ----

MAC_C, MAC_S = b"\x02\0\0\0\0\x02", b"\x02\0\0\0\0\x01"


def link(kind, pkt, v6):
    et = struct.pack(">H", 0x86dd if v6 else 0x0800)
    if kind == "eth":
        return MAC_S + MAC_C + et + pkt
    if kind == "vlan":
        return MAC_S + MAC_C + b"\x81\x00\x00\x2a" + et + pkt
    if kind == "qinq":
        return MAC_S + MAC_C + b"\x88\xa8\x00\x07\x81\x00\x00\x2a" + et + pkt
    if kind == "sll":
        return struct.pack(">HHH", 0, 772, 6) + MAC_C + b"\0\0" + et + pkt
    if kind == "sll2":
        return et + b"\0\0" + struct.pack(">IHBB", 1, 772, 0, 6) + MAC_C + b"\0\0" + pkt
    if kind == "null":
        return struct.pack("<I", 2) + pkt
    if kind == "loop":
        return struct.pack(">I", 2) + pkt
    return pkt  # raw


LINKTYPE = {"eth": 1, "vlan": 1, "qinq": 1, "sll": 113, "sll2": 276, "null": 0,
            "loop": 108, "raw": 101}

# ------------------------------------------------------------- files ----

T0 = 1700000000 * 10**9 + 123456789


def write_pcap(path, linktype, frames, nano=False, snap=262144, step=1000037, stamps=None):
    """Frame i stamped T0 + i * step, or T0 + stamps[i] where given."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b23c4d if nano else 0xa1b2c3d4, 2, 4, 0, 0,
                            snap, linktype))
        for i, fr in enumerate(frames):
            t = T0 + (stamps or {}).get(i, i * step)
            frac = t % 10**9 if nano else (t % 10**9) // 1000
            cap = fr[:snap]
            f.write(struct.pack("<IIII", t // 10**9, frac, len(cap), len(fr)) + cap)


def write_pcapng(path, linktype, frames, unknown_block=False):
    def block(btype, body):
        body += b"\0" * ((4 - len(body) % 4) % 4)
        n = 12 + len(body)
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)
    with open(path, "wb") as f:
        f.write(block(0x0a0d0d0a, struct.pack("<IHHq", 0x1a2b3c4d, 1, 0, -1)))
        opt = struct.pack("<HHB", 9, 1, 9) + b"\0\0\0" + struct.pack("<HH", 0, 0)
        f.write(block(1, struct.pack("<HHI", linktype, 0, 262144) + opt))
        for i, fr in enumerate(frames):
            if unknown_block and i == 3:
                f.write(block(0x0badcafe, b"not a block libpcap knows"))
            t = T0 + i * 1000037
            f.write(block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xffffffff, len(fr), len(fr))
                          + fr))

# -------------------------------------------------------------- cases ----


def tcp_case(segs, order):
    return [segs[i][3] for i in order]


def case(name, out):
    msgs = session()
    v6 = "ipv6" in name or "frag6" in name
    if name in ("eth", "vlan", "qinq", "sll", "sll2", "null", "loop", "raw"):
        pk = udp_packets(msgs[:6]) + [s[3] for s in tcp_stream(msgs[6:])]
        write_pcap(out, LINKTYPE[name], [link(name, p, False) for p in pk])
    elif name == "ipv6-udp":
        write_pcap(out, 1, [link("eth", p, True) for p in udp_packets(msgs, v6=True)])
    elif name == "ipv6-tcp":
        write_pcap(out, 1, [link("eth", s[3], True) for s in tcp_stream(msgs, v6=True)])
    elif name == "frag4":
        write_pcap(out, 1, [link("eth", p, False) for p in udp_packets(msgs, mtu=1500)])
    elif name == "frag4-shuffled":
        write_pcap(out, 1, [link("eth", p, False)
                            for p in udp_packets(msgs, mtu=1500, shuffle=True)])
    elif name == "frag6":
        write_pcap(out, 1, [link("eth", p, True) for p in udp_packets(msgs, v6=True, mtu=1500)])
    elif name == "pcapng-ns":
        pk = udp_packets(msgs[:6]) + [s[3] for s in tcp_stream(msgs[6:])]
        write_pcapng(out, 1, [link("eth", p, False) for p in pk], unknown_block=True)
    elif name == "nsec-pcap":
        write_pcap(out, 1, [link("eth", p, False) for p in udp_packets(msgs)], nano=True)
    elif name == "time-back":
        # the WRITE call (frame 10) stamped 50 us before the READ call
        # (frame 8), as two CPUs stamping one capture can
        write_pcap(out, 1, [link("eth", p, False) for p in udp_packets(msgs)], nano=True,
                   stamps={10: 8 * 1000037 - 50000})
    elif name == "copies":
        # GETATTR sent twice before its reply and answered twice, WRITE sent
        # again after its reply
        m = msgs[:5] + [msgs[4], msgs[5], msgs[5]] + msgs[6:12] + [msgs[10]] + msgs[12:]
        write_pcap(out, 1, [link("eth", p, False) for p in udp_packets(m)], nano=True)
    elif name == "nfsv4":
        write_pcap(out, 1, [link("eth", p, False) for p in udp_packets(session(nfsv4=True))])
    elif name.startswith("tcp-"):
        segs = tcp_stream(msgs)
        n = len(segs)
        # the READ reply is the run of server segments after the READ call
        big = [i for i, s in enumerate(segs) if not s[0] and s[2] is not None]
        order = list(range(n))
        if name == "tcp-reorder":
            a, b = big[5], big[6]
            order[a], order[b] = order[b], order[a]
            order[big[10]], order[big[13]] = order[big[13]], order[big[10]]
            frames = tcp_case(segs, order)
        elif name == "tcp-retrans":
            frames = tcp_case(segs, order[:big[8]] + [big[3], big[7]] + order[big[8]:])
        elif name == "tcp-overlap":
            frames = []
            for i in order:
                frames.append(segs[i][3])
                if i == big[9]:
                    # a copy of the next two segments' bytes as one, sent early
                    fc, port, o, _ = segs[big[10]]
                    data = b"".join(segs[j][3][40:] for j in (big[10], big[11]))
                    frames.append(ipv4(SRV4, CLI4, 6, tcp(port, 901, 500001 + o,
                                                          1001, ACK, data[:2000])))
        elif name == "tcp-gap-data":
            frames = tcp_case(segs, [i for i in order if i != big[12]])
        elif name == "tcp-gap-mark":
            # drop the segment holding the WRITE reply's record mark
            wr = [i for i, s in enumerate(segs) if not s[0] and s[2] is not None]
            frames = tcp_case(segs, [i for i in order if i != wr[-2]])
        elif name == "tcp-midstream":
            # the capture starts inside the READ reply
            frames = tcp_case(segs, order[big[8]:])
        else:
            raise SystemExit("unknown case " + name)
        write_pcap(out, 1, [link("eth", f, False) for f in frames])
    elif name == "hostile-bigmark":
        # a record mark claiming 2 GiB before the calls of a TCP session
        bogus = (True, 2049, u32(0xfffffff0) + b"\0" * 100, "raw")
        segs = tcp_stream([msgs[2], msgs[3], bogus] + msgs[4:])
        write_pcap(out, 1, [link("eth", s[3], False) for s in segs])
    elif name == "hostile-unanswered":
        # 100000 GETATTR calls a microsecond apart and no reply
        frames = [link("eth", ipv4(CLI4, SRV4, 17, udp(900, 2049, call(
            0x10000 + i, 100003, 3, 1, opaque(FH_FILE)))), False) for i in range(100000)]
        write_pcap(out, 1, frames, step=1000)
    elif name == "hostile-endless-record":
        # a TCP record that announces 1 MiB and stops after 3 segments
        segs = tcp_stream([(True, 2049, call(0x77, 100003, 3, 7, opaque(FH_FILE) + u64(0) +
                                             u32(1 << 19) + u32(2) + u32(1 << 19) +
                                             b"\0" * (1 << 19)))])
        write_pcap(out, 1, [link("eth", s[3], False) for s in segs[:5]])
    elif name == "bench-udp-meta":
        # small metadata calls over UDP: GETATTR, LOOKUP, ACCESS, 50000 each
        frames = []
        for i in range(150000):
            kind = i % 3
            if kind == 0:
                c, r = call(i, 100003, 3, 1, opaque(FH_FILE)), u32(0) + fattr3(1, i, 42)
                proc = 1
            elif kind == 1:
                c = call(i, 100003, 3, 3, opaque(FH_ROOT) + string("f%06d" % i))
                r = u32(0) + opaque(FH_FILE) + post_attr(1, i, 42) + post_attr(2, 4096, 2)
            else:
                c = call(i, 100003, 3, 4, opaque(FH_FILE) + u32(0x3f))
                r = u32(0) + post_attr(1, i, 42) + u32(0x3f)
            frames.append(link("eth", ipv4(CLI4, SRV4, 17, udp(900, 2049, c)), False))
            frames.append(link("eth", ipv4(SRV4, CLI4, 17, udp(2049, 900, reply(i, r))),
                               False))
        write_pcap(out, 1, frames, step=20000)
    elif name == "bench-tcp-rw":
        # 32 KiB READs and WRITEs over one TCP connection, 1448-byte segments
        data = bytes(i % 251 for i in range(32768))
        msgs = []
        for i in range(3200):
            off = u64(i * 32768)
            if i % 2:
                msgs.append((True, 2049, call(i, 100003, 3, 6, opaque(FH_FILE) + off + u32(32768))))
                msgs.append((False, 2049, reply(i, u32(0) + post_attr(1, 1 << 26, 42) +
                                                u32(32768) + u32(0) + opaque(data))))
            else:
                msgs.append((True, 2049, call(i, 100003, 3, 7, opaque(FH_FILE) + off + u32(32768)
                                              + u32(0) + opaque(data))))
                msgs.append((False, 2049, reply(i, u32(0) + u32(0) + u32(0) +
                                                post_attr(1, 1 << 26, 42) + u32(32768) +
                                                u32(0) + b"verifier")))
        write_pcap(out, 1, [link("eth", s[3], False) for s in tcp_stream(msgs)], step=20000)
    elif name == "hostile-endless-frags":
        frames = []
        for i in range(3000):
            frames.append(ipv4(CLI4, SRV4, 17, b"\0" * 1480, 77 + i % 300,
                               ((i % 40) * 185) | 0x2000))
        write_pcap(out, 1, [link("eth", p, False) for p in frames])
    else:
        raise SystemExit("unknown case " + name)


CASES = ["eth", "vlan", "qinq", "sll", "sll2", "null", "loop", "raw", "ipv6-udp", "ipv6-tcp",
         "frag4", "frag4-shuffled", "frag6", "pcapng-ns", "nsec-pcap", "time-back", "copies",
         "nfsv4", "tcp-reorder",
         "tcp-retrans", "tcp-overlap", "tcp-gap-data", "tcp-gap-mark", "tcp-midstream",
         "hostile-bigmark", "hostile-unanswered", "hostile-endless-record",
         "hostile-endless-frags"]

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print(" ".join(CASES))
    elif len(sys.argv) == 3:
        case(sys.argv[1], sys.argv[2])
    else:
        raise SystemExit(__doc__)
