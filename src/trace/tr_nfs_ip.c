/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_ip.c - IPv4 and IPv6 of a capture: the header (IPv6 extension
 * headers walked, at most a few), fragment reassembly, and the UDP and TCP
 * that carry RPC.  A UDP datagram is one RPC message (tr_nfs_rpc.c); a TCP
 * segment goes to tr_nfs_tcp.c.  Reassembly (IPv4 by source, destination,
 * protocol and id; IPv6 by the fragment header's id) keeps at most
 * TR__FRAGS_MAX datagrams of at most 64 KiB, each dropped (counted) when
 * it has not completed TR__FRAG_WAIT of trace time after its first
 * fragment; a fragment cut by the snap length still counts by its length
 * on the wire, so a datagram completes and hands over its captured prefix
 * as cut.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/bytes.h"
#include "trace/tr_nfs_int.h"

#define PROTO_TCP 6
#define PROTO_UDP 17

#define V6_HOP      0
#define V6_ROUTING  43
#define V6_FRAGMENT 44
#define V6_DSTOPTS  60
#define V6_EXT_MAX  8 /* extension headers walked, at most */

/* A transport payload: the packet's addresses, protocol and bytes. */
struct l4 {
    struct tr__ep src, dst;
    uint8_t proto;
    const uint8_t *p;
    size_t caplen, wire;
};

static int udp(struct tr_nfs_reader *r, struct l4 *l)
{
    struct tr__msg m;
    size_t ulen, cap;
    int rc;

    if (l->caplen < 8) {
        r->cnt[TR__C_SHORT_PACKETS]++;
        return 0;
    }
    ulen = cm_be16_get(l->p + 4);
    if (ulen < 8 || ulen > l->wire)
        ulen = l->wire; /* a bad length: trust the IP payload's */
    memset(&m, 0, sizeof(m));
    m.src = l->src;
    m.dst = l->dst;
    m.src.port = cm_be16_get(l->p);
    m.dst.port = cm_be16_get(l->p + 2);
    m.transport = TR_NFS_UDP;
    m.t_ns = r->cap->last_t;
    m.where = r->cap->frame;
    cap = l->caplen < ulen ? l->caplen : ulen;
    rc = tr__rpc_msg(r, &m, l->p + 8, cap - 8, ulen - 8);
    if (rc == 0)
        r->cnt[TR__C_NON_RPC]++;
    return rc < 0 ? rc : 0;
}

static int transport(struct tr_nfs_reader *r, struct l4 *l)
{
    if (l->proto == PROTO_UDP)
        return udp(r, l);
    if (l->proto == PROTO_TCP)
        return tr__tcp_segment(r, &l->src, &l->dst, l->p, l->caplen, l->wire);
    r->cnt[TR__C_NON_RPC]++;
    return 0;
}

/* ---- fragments ----------------------------------------------------------- */

static void bits_set(uint8_t *map, uint32_t from, uint32_t to)
{
    uint32_t i;

    for (i = from; i < to; i++)
        map[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The number of leading units set in map, up to n. */
static uint32_t bits_prefix(const uint8_t *map, uint32_t n)
{
    uint32_t i = 0;

    while (i < n && (map[i >> 3] & (1u << (i & 7))))
        i++;
    return i;
}

static int frag_same(const struct tr__frag *f, const struct l4 *l, uint32_t id, int v6)
{
    return f->used && f->id == id && f->v6 == v6 && (v6 || f->proto == l->proto) &&
           memcmp(f->src.a, l->src.a, 16) == 0 && memcmp(f->dst.a, l->dst.a, 16) == 0;
}

/* Drops datagrams older than the wait (counted). */
static void frag_expire(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    unsigned i;

    for (i = 0; i < TR__FRAGS_MAX; i++) {
        struct tr__frag *f = c->frags[i];
        if (f && f->used && c->last_t - f->first_t > TR__FRAG_WAIT) {
            r->cnt[TR__C_FRAG_DROPPED] += f->nfrags;
            f->used = 0;
        }
    }
}

/* One fragment at byte offset off of its datagram's payload; more: more
 * fragments follow.  Hands the datagram on once every unit came. */
static int fragment(struct tr_nfs_reader *r, struct l4 *l, uint32_t id, uint32_t off,
                    int more, int v6)
{
    struct tr__cap *c = r->cap;
    struct tr__frag *f = NULL;
    uint32_t end = off + (uint32_t)l->wire, capend, i, units, have;
    int freeslot = -1;

    r->cnt[TR__C_FRAGMENTS]++;
    frag_expire(r);
    if (end > 65535 || (more && l->wire % 8)) {
        r->cnt[TR__C_FRAG_DROPPED]++; /* past 64 KiB, or a middle piece not in units */
        return 0;
    }
    for (i = 0; i < TR__FRAGS_MAX; i++) {
        if (c->frags[i] && frag_same(c->frags[i], l, id, v6)) {
            f = c->frags[i];
            break;
        }
        if (freeslot < 0 && (!c->frags[i] || !c->frags[i]->used))
            freeslot = (int)i;
    }
    if (!f) {
        if (freeslot < 0) {
            r->cnt[TR__C_FRAG_DROPPED]++;
            return 0;
        }
        if (!c->frags[freeslot] && !(c->frags[freeslot] = cm_malloc(sizeof(*f))))
            return -ENOMEM;
        f = c->frags[freeslot];
        memset(f, 0, offsetof(struct tr__frag, buf));
        f->used = 1;
        f->src = l->src;
        f->dst = l->dst;
        f->id = id;
        f->v6 = (uint8_t)v6;
        f->proto = v6 ? 0 : l->proto; /* IPv6: the first fragment names it */
        f->first_t = c->last_t;
    }
    f->nfrags++;
    if (off == 0)
        f->proto = l->proto;
    if (!more)
        f->total = end;
    capend = off + (uint32_t)l->caplen;
    memcpy(f->buf + off, l->p, l->caplen);
    bits_set(f->seen, off / 8, (end + 7) / 8);
    /* captured units: whole ones, and the last partial one at the end */
    bits_set(f->have, off / 8, capend == end ? (end + 7) / 8 : capend / 8);
    if (!f->total)
        return 0;
    units = (f->total + 7) / 8;
    if (bits_prefix(f->seen, units) < units)
        return 0;
    have = bits_prefix(f->have, units) * 8;
    if (have > f->total)
        have = f->total;
    r->cnt[TR__C_REASSEMBLED]++;
    f->used = 0;
    l->p = f->buf;
    l->caplen = have;
    l->wire = f->total;
    l->proto = f->proto;
    return transport(r, l);
}

/* ---- IPv4 and IPv6 ---------------------------------------------------------- */

static int ipv4(struct tr_nfs_reader *r, const uint8_t *p, size_t caplen, size_t wire)
{
    struct l4 l;
    size_t hl, total;
    uint16_t fl;

    if (caplen < 20 || (hl = (size_t)(p[0] & 15) * 4) < 20 || caplen < hl) {
        r->cnt[TR__C_SHORT_PACKETS]++;
        return 0;
    }
    total = cm_be16_get(p + 2);
    if (total < hl || total > wire)
        total = wire; /* a bad total length (or TSO): trust the frame */
    memset(&l, 0, sizeof(l));
    l.src.fam = l.dst.fam = TR__FAM_V4;
    l.src.len = l.dst.len = 4;
    memcpy(l.src.a, p + 12, 4);
    memcpy(l.dst.a, p + 16, 4);
    l.proto = p[9];
    l.p = p + hl;
    l.wire = total - hl;
    l.caplen = (caplen < total ? caplen : total) - hl;
    fl = cm_be16_get(p + 6);
    if ((fl & 0x2000) || (fl & 0x1fff))
        return fragment(r, &l, cm_be16_get(p + 4), (uint32_t)(fl & 0x1fff) * 8,
                        (fl & 0x2000) != 0, 0);
    return transport(r, &l);
}

static int ipv6(struct tr_nfs_reader *r, const uint8_t *p, size_t caplen, size_t wire)
{
    struct l4 l;
    size_t off = 40, plen;
    uint8_t next;
    unsigned n = 0;

    if (caplen < 40) {
        r->cnt[TR__C_SHORT_PACKETS]++;
        return 0;
    }
    plen = cm_be16_get(p + 4);
    if (plen + 40 > wire || plen == 0)
        plen = wire - 40; /* jumbograms and bad lengths: trust the frame */
    memset(&l, 0, sizeof(l));
    l.src.fam = l.dst.fam = TR__FAM_V6;
    l.src.len = l.dst.len = 16;
    memcpy(l.src.a, p + 8, 16);
    memcpy(l.dst.a, p + 24, 16);
    next = p[6];
    while (n++ < V6_EXT_MAX) {
        if (next == V6_HOP || next == V6_ROUTING || next == V6_DSTOPTS) {
            size_t len;
            if (caplen < off + 8)
                break;
            len = ((size_t)p[off + 1] + 1) * 8;
            next = p[off];
            off += len;
            continue;
        }
        if (next == V6_FRAGMENT) {
            uint16_t fo;
            uint32_t id;
            if (caplen < off + 8 || off + 8 > 40 + plen)
                break;
            fo = cm_be16_get(p + off + 2);
            id = cm_be32_get(p + off + 4);
            l.proto = p[off];
            l.p = p + off + 8;
            l.wire = 40 + plen - off - 8;
            l.caplen = (caplen < 40 + plen ? caplen : 40 + plen) - off - 8;
            return fragment(r, &l, id, (uint32_t)(fo >> 3) * 8, (fo & 1) != 0, 1);
        }
        if (off > 40 + plen || off > caplen)
            break;
        l.proto = next;
        l.p = p + off;
        l.wire = 40 + plen - off;
        l.caplen = (caplen < 40 + plen ? caplen : 40 + plen) - off;
        return transport(r, &l);
    }
    r->cnt[TR__C_SHORT_PACKETS]++;
    return 0;
}

int tr__ip_packet(struct tr_nfs_reader *r, const uint8_t *data, size_t caplen,
                  size_t wire, int version)
{
    if (wire < caplen)
        wire = caplen;
    return version == 4 ? ipv4(r, data, caplen, wire) : ipv6(r, data, caplen, wire);
}

void tr__ip_flush(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    unsigned i;

    for (i = 0; i < TR__FRAGS_MAX; i++)
        if (c->frags[i] && c->frags[i]->used) {
            r->cnt[TR__C_FRAG_DROPPED] += c->frags[i]->nfrags;
            c->frags[i]->used = 0;
        }
}

void tr__ip_free(struct tr__cap *c)
{
    unsigned i;

    for (i = 0; i < TR__FRAGS_MAX; i++) {
        free(c->frags[i]);
        c->frags[i] = NULL;
    }
}
