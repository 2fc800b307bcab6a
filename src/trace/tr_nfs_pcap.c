/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_pcap.c - packet captures through libpcap (pcap and pcapng, stamps
 * read in nanoseconds whatever the file's precision), and the link layers
 * NFS captures come with: Ethernet (with 802.1Q/802.1ad VLAN tags), Linux
 * cooked v1 and v2 ("-i any"), BSD loopback (DLT_NULL, DLT_LOOP) and raw
 * IP.  Each frame's IP packet goes to tr_nfs_ip.c with its stamp as
 * captured; stamps that step back are counted.  libpcap is the one pcap
 * reader: this file parses no file format of its own.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/bytes.h"
#include "trace/tr_nfs_int.h"

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif
#ifndef DLT_IPV4
#define DLT_IPV4 228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif

#define ETH_IPV4 0x0800
#define ETH_IPV6 0x86dd
#define ETH_VLAN 0x8100
#define ETH_QINQ 0x88a8
#define VLAN_MAX 4 /* tags followed, at most */

static int capture_probe(const unsigned char *buf, size_t len)
{
    static const uint32_t magics[] = {0xa1b2c3d4u, 0xd4c3b2a1u, 0xa1b23c4du, 0x4d3cb2a1u,
                                      0x0a0d0d0au};
    size_t i;

    if (len < 4)
        return 0;
    for (i = 0; i < CM_ARRAY_LEN(magics); i++)
        if (cm_be32_get(buf) == magics[i])
            return 1;
    return 0;
}

/* The IP version an ethertype or address family names, 0 for others. */
static int ethertype_ip(uint16_t t)
{
    return t == ETH_IPV4 ? 4 : t == ETH_IPV6 ? 6 : 0;
}

static int family_ip(uint32_t af)
{
    /* AF_INET is 2 everywhere; AF_INET6 is 10 (Linux), 24, 28 or 30 (BSDs) */
    return af == 2 ? 4 : (af == 10 || af == 24 || af == 28 || af == 30) ? 6 : 0;
}

/* The link header: the offset of the IP packet and its version, or 0 for a
 * frame that carries no IP (-1: cut before the IP packet). */
static int link(const struct tr__cap *c, const uint8_t *p, size_t caplen, size_t *off)
{
    uint16_t type;
    unsigned tags = 0;

    switch (c->dlt) {
    case DLT_EN10MB:
        *off = 14;
        if (caplen < 14)
            return -1;
        type = cm_be16_get(p + 12);
        while ((type == ETH_VLAN || type == ETH_QINQ) && tags++ < VLAN_MAX) {
            if (caplen < *off + 4)
                return -1;
            type = cm_be16_get(p + *off + 2);
            *off += 4;
        }
        return ethertype_ip(type);
    case DLT_LINUX_SLL:
        *off = 16;
        return caplen < 16 ? -1 : ethertype_ip(cm_be16_get(p + 14));
    case DLT_LINUX_SLL2:
        *off = 20;
        return caplen < 20 ? -1 : ethertype_ip(cm_be16_get(p));
    case DLT_NULL: {
        uint32_t le, be;
        *off = 4;
        if (caplen < 4)
            return -1;
        /* host order of the machine that captured: try both */
        be = cm_be32_get(p);
        le = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
             (uint32_t)p[3] << 24;
        return family_ip(be) ? family_ip(be) : family_ip(le);
    }
    case DLT_LOOP:
        *off = 4;
        return caplen < 4 ? -1 : family_ip(cm_be32_get(p));
    case DLT_RAW:
    case DLT_IPV4:
    case DLT_IPV6:
        *off = 0;
        if (caplen < 1)
            return -1;
        return (p[0] >> 4) == 4 ? 4 : (p[0] >> 4) == 6 ? 6 : 0;
    default:
        return 0;
    }
}

static int link_known(int dlt)
{
    return dlt == DLT_EN10MB || dlt == DLT_LINUX_SLL || dlt == DLT_LINUX_SLL2 ||
           dlt == DLT_NULL || dlt == DLT_LOOP || dlt == DLT_RAW || dlt == DLT_IPV4 ||
           dlt == DLT_IPV6;
}

static int capture_step(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    struct pcap_pkthdr *h;
    const u_char *data;
    size_t off = 0;
    int64_t t;
    int rc, v;

    rc = pcap_next_ex((pcap_t *)c->pcap, &h, &data);
    if (rc == PCAP_ERROR_BREAK) {
        tr__ip_flush(r);
        rc = tr__tcp_flush(r);
        tr__early_expire(r, 1);
        return rc < 0 ? rc : 0;
    }
    if (rc != 1) {
        tr__nfs_error(r, c->frame + 1, "the capture cannot be read on: %s",
                      pcap_geterr((pcap_t *)c->pcap));
        if (tr__nfs_damage(r, TR__C_CAPTURE_CUT) < 0)
            return -EINVAL;
        tr__ip_flush(r);
        rc = tr__tcp_flush(r);
        tr__early_expire(r, 1);
        return rc < 0 ? rc : 0;
    }
    c->frame++;
    r->cnt[TR__C_PACKETS]++;
    t = (int64_t)h->ts.tv_sec * 1000000000 +
        (int64_t)h->ts.tv_usec * (c->nano ? 1 : 1000);
    /* kept as captured, so that response times are the stamps' own; the
     * pairing keeps the events in order (tr__pair_next) */
    if (c->frame > 1 && t < c->max_t)
        r->cnt[TR__C_TIME_BACK]++;
    else
        c->max_t = t;
    c->last_t = t;
    tr__pair_time(r, t);
    v = link(c, data, h->caplen, &off);
    if (v < 0) {
        r->cnt[TR__C_SHORT_PACKETS]++;
        return 1;
    }
    if (v == 0) {
        r->cnt[TR__C_NON_IP]++;
        return 1;
    }
    rc =
        tr__ip_packet(r, data + off, h->caplen - off, h->len > off ? h->len - off : 0, v);
    return rc < 0 ? rc : 1;
}

static void capture_close(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;

    if (!c)
        return;
    if (c->pcap)
        pcap_close((pcap_t *)c->pcap);
    tr__ip_free(c);
    tr__tcp_free(c);
    tr__early_free(c);
    free(c);
    r->cap = NULL;
}

static int capture_open(struct tr_nfs_reader *r, char *err, size_t errlen)
{
    char perr[PCAP_ERRBUF_SIZE] = "";
    struct tr__cap *c = cm_calloc(1, sizeof(*c));
    FILE *fp;

    if (!c)
        return cm_report_nomem(NULL, r->file, err, errlen);
    r->cap = c;
    r->format = cm_be32_get(r->magic) == 0x0a0d0d0au ? "pcapng" : "pcap";
    fp = tr__stream_borrow(r->fp);
    if (!fp)
        return cm_report_nomem(NULL, r->file, err, errlen);
    c->pcap =
        pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, perr);
    if (!c->pcap) {
        fclose(fp);
        return cm_errf(err, errlen, "%s: not a capture libpcap can read: %s", r->file,
                       perr);
    }
    c->nano = pcap_get_tstamp_precision((pcap_t *)c->pcap) == PCAP_TSTAMP_PRECISION_NANO;
    c->dlt = pcap_datalink((pcap_t *)c->pcap);
    if (!link_known(c->dlt))
        return cm_errf(
            err, errlen,
            "%s: link type %s (%d) is not one this reader knows (Ethernet, "
            "Linux cooked v1/v2, loopback, raw IP)",
            r->file,
            pcap_datalink_val_to_name(c->dlt) ? pcap_datalink_val_to_name(c->dlt) : "?",
            c->dlt);
    c->next_conn_index = 1;
    return 0;
}

const struct tr__nfs_format tr__nfs_pcap_format = {
    .name = "pcap",
    .probe = capture_probe,
    .open = capture_open,
    .step = capture_step,
    .close = capture_close,
};
