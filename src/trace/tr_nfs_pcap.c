/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_pcap.c - packet captures through libpcap (pcap and pcapng, stamps
 * read in nanoseconds whatever the file's precision), and the link layers
 * NFS captures come with: Ethernet (with 802.1Q/802.1ad VLAN tags), Linux
 * cooked v1 and v2 ("-i any"), BSD loopback (DLT_NULL, DLT_LOOP) and raw
 * IP.  Each frame's IP packet goes to tr_nfs_ip.c with its stamp as
 * captured; stamps that step back are counted.  libpcap is the one pcap
 * reader: this file parses no file format of its own.
 *
 * A live capture (tr_nfs_open_live) is the same path on a libpcap handle
 * of an interface: in immediate mode, non-blocking, waited for in poll() at
 * most 100 ms at a time so that the bounds (duration, packets, the
 * caller's stop flag) and the caller's tick are checked while no packet
 * comes; at the end the packets the kernel already holds are read (for at
 * most 100 ms), so that what was sent before the end is in; each packet checked
 * against the filter again in user space (the kernel may hand over
 * packets that came before the filter was set), and kept in a pcapng file
 * when asked (tr_nfs_pcapng.c).
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/bytes.h"
#include "common/clock.h"
#include "common/error.h"
#include "trace/tr_nfs_int.h"

#define LIVE_WAIT_NS   (100ll * 1000000) /* longest wait in poll() */
#define LIVE_DRAIN_NS  (100ll * 1000000) /* longest read of what is held at the end */
#define LIVE_SNAP      262144u
#define LIVE_BUFFER_MB 64u

/* A live capture's state. */
struct tr__live {
    struct tr_nfs_live lv; /* the caller's, strings copied below */
    char *iface, *filter, *write;
    struct bpf_program prog;
    int have_prog;
    int fd;                 /* pcap_get_selectable_fd */
    uint64_t deadline_mono; /* 0 = none */
    uint64_t drain_until;   /* ended: the packets already held are read until
                               none is left, or until this time */
    int64_t start_ns, next_tick_ns;
    int ended;
    struct tr_nfs_drops drops; /* the final figures once ended */
    struct tr__pcapng *keep;
};

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif
#ifndef DLT_IPV4
#define DLT_IPV4 228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif

#define LINKTYPE_RAW 101 /* DLT_RAW in a file */

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

/* The capture's end: what is held is flushed (0), or -errno. */
static int capture_end(struct tr_nfs_reader *r)
{
    int rc;

    tr__ip_flush(r);
    rc = tr__tcp_flush(r);
    tr__early_expire(r, 1);
    return rc < 0 ? rc : 0;
}

/* One frame: counted, its stamp kept, its IP packet handed on.  1, or
 * -errno. */
static int frame(struct tr_nfs_reader *r, const struct pcap_pkthdr *h, const u_char *data)
{
    struct tr__cap *c = r->cap;
    size_t off = 0;
    int64_t t;
    int rc, v;

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

static int capture_step(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    struct pcap_pkthdr *h;
    const u_char *data;
    int rc;

    rc = pcap_next_ex((pcap_t *)c->pcap, &h, &data);
    if (rc == PCAP_ERROR_BREAK)
        return capture_end(r);
    if (rc != 1) {
        tr__nfs_error(r, c->frame + 1, "the capture cannot be read on: %s",
                      pcap_geterr((pcap_t *)c->pcap));
        if (tr__nfs_damage(r, TR__C_CAPTURE_CUT) < 0)
            return -EINVAL;
        return capture_end(r);
    }
    return frame(r, h, data);
}

/* ---- live --------------------------------------------------------------- */

static int64_t wall_ns(void)
{
    uint32_t sec, nsec;

    cm_wall_time(&sec, &nsec);
    return (int64_t)sec * 1000000000 + nsec;
}

/* The figures so far from the kernel (pcap_stats), or the final ones. */
static void live_stats(const struct tr__cap *c, struct tr_nfs_drops *d)
{
    struct pcap_stat st;

    if (c->live->ended || !c->pcap || pcap_stats((pcap_t *)c->pcap, &st) != 0) {
        *d = c->live->drops;
        return;
    }
    d->received = st.ps_recv;
    d->dropped = st.ps_drop;
    d->if_dropped = st.ps_ifdrop;
}

/* The end of a live capture: the final figures, the file kept renamed
 * into place, what is held flushed.  0, or -errno. */
static int live_end(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    struct tr__live *l = c->live;
    char err[CM_ERR_LEN];
    int rc;

    live_stats(c, &l->drops);
    l->ended = 1;
    rc = tr__pcapng_close(l->keep, &l->drops, l->start_ns, wall_ns(), err, sizeof(err));
    l->keep = NULL;
    if (rc < 0)
        return cm_errf(r->last_error, sizeof(r->last_error), "%s", err), rc;
    return capture_end(r);
}

static int live_step(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    struct tr__live *l = c->live;
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t mono = cm_now_ns();
    int64_t now = wall_ns(), wait_ns = LIVE_WAIT_NS;
    struct pollfd pfd;
    int rc;

    if (l->lv.tick && now >= l->next_tick_ns) {
        l->lv.tick(l->lv.tick_data, now);
        l->next_tick_ns = now + LIVE_WAIT_NS;
    }
    if (l->lv.count && c->frame >= l->lv.count)
        return live_end(r);
    if (!l->drain_until &&
        ((l->lv.stop && *l->lv.stop) || (l->deadline_mono && mono >= l->deadline_mono)))
        l->drain_until = mono + LIVE_DRAIN_NS;
    if (l->drain_until && mono >= l->drain_until)
        return live_end(r);
    rc = pcap_next_ex((pcap_t *)c->pcap, &h, &data);
    if (rc == 0 && l->drain_until) /* what the kernel held at the end is read */
        return live_end(r);
    if (rc == 1) {
        if (l->have_prog && !pcap_offline_filter(&l->prog, h, data))
            return 1; /* came before the filter was set */
        if (l->keep &&
            tr__pcapng_packet(l->keep,
                              (int64_t)h->ts.tv_sec * 1000000000 +
                                  (int64_t)h->ts.tv_usec * (c->nano ? 1 : 1000),
                              data, h->caplen, h->len) < 0)
            return tr__nfs_error(r, c->frame + 1, "%s: cannot write the capture: %s",
                                 l->write, strerror(errno ? errno : EIO)),
                   -EIO;
        return frame(r, h, data);
    }
    if (rc != 0)
        return tr__nfs_error(r, c->frame + 1, "the live capture on %s failed: %s",
                             l->iface, pcap_geterr((pcap_t *)c->pcap)),
               -EIO;
    /* nothing now: wait, then let the pairing see the time pass (a call
     * unanswered for the window is released without its reply) */
    if (l->deadline_mono && (int64_t)(l->deadline_mono - mono) < wait_ns)
        wait_ns = (int64_t)(l->deadline_mono - mono);
    pfd.fd = l->fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (poll(&pfd, 1, (int)((wait_ns + 999999) / 1000000)) < 0 && errno != EINTR)
        return tr__nfs_error(r, c->frame + 1, "the live capture on %s: poll: %s",
                             l->iface, strerror(errno)),
               -EIO;
    tr__pair_time(r, wall_ns());
    return 1;
}

static int step(struct tr_nfs_reader *r)
{
    return r->cap->live ? live_step(r) : capture_step(r);
}

static void capture_close(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;

    if (!c)
        return;
    if (c->live) {
        /* a capture stopped early (an error of the caller's) still keeps
         * what it read */
        if (c->live->keep) {
            char err[CM_ERR_LEN];
            live_stats(c, &c->live->drops);
            (void)tr__pcapng_close(c->live->keep, &c->live->drops, c->live->start_ns,
                                   wall_ns(), err, sizeof(err));
        }
        if (c->live->have_prog)
            pcap_freecode(&c->live->prog);
        free(c->live->iface);
        free(c->live->filter);
        free(c->live->write);
        free(c->live);
    }
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

static int live_open(struct tr_nfs_reader *r, const struct tr_nfs_live *lv, char *err,
                     size_t errlen)
{
    char perr[PCAP_ERRBUF_SIZE] = "";
    struct tr__cap *c = cm_calloc(1, sizeof(*c));
    struct tr__live *l = cm_calloc(1, sizeof(*l));
    const char *iface = lv->interface;
    pcap_t *p;
    int rc;

    if (c)
        c->live = l;
    r->cap = c;
    if (!c || !l || !(l->iface = cm_strdup(iface)) ||
        !(l->filter = cm_strdup(lv->filter ? lv->filter : "")) ||
        !(l->write = cm_strdup(lv->write ? lv->write : ""))) {
        if (!c)
            free(l);
        return cm_report_nomem(NULL, iface, err, errlen);
    }
    l->lv = *lv;
    l->lv.interface = l->iface;
    l->lv.filter = l->filter;
    l->lv.write = l->write;
    r->format = "live";
    c->pcap = p = pcap_create(iface, perr);
    if (!p)
        return cm_errf(err, errlen, "live capture on %s: %s", iface, perr), -ENODEV;
    pcap_set_snaplen(p, (int)(lv->snaplen ? lv->snaplen : LIVE_SNAP));
    pcap_set_promisc(p, 0);
    pcap_set_timeout(p, (int)(LIVE_WAIT_NS / 1000000));
    /* each packet as it comes, so that what was sent before the end is read */
    pcap_set_immediate_mode(p, 1);
    pcap_set_buffer_size(p,
                         (int)((lv->buffer_mb ? lv->buffer_mb : LIVE_BUFFER_MB) << 20));
    (void)pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO); /* else us */
    rc = pcap_activate(p);
    if (rc == PCAP_ERROR_PERM_DENIED || rc == PCAP_ERROR_PROMISC_PERM_DENIED)
        return cm_errf(err, errlen,
                       "live capture on %s: permission denied: capturing needs the "
                       "CAP_NET_RAW capability (run as root, or give it to the program: "
                       "setcap cap_net_raw+ep sfs_trace) (libpcap: %s)",
                       iface, pcap_geterr(p)),
               -EPERM;
    if (rc == PCAP_ERROR_NO_SUCH_DEVICE)
        return cm_errf(err, errlen, "live capture on %s: no such interface (libpcap: %s)",
                       iface, pcap_geterr(p)),
               -ENODEV;
    if (rc < 0)
        return cm_errf(err, errlen, "live capture on %s: %s (libpcap: %s)", iface,
                       pcap_statustostr(rc), pcap_geterr(p)),
               -EIO;
    c->nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
    c->dlt = pcap_datalink(p);
    if (!link_known(c->dlt))
        return cm_errf(
                   err, errlen,
                   "live capture on %s: link type %s (%d) is not one this reader knows "
                   "(Ethernet, Linux cooked v1/v2, loopback, raw IP)",
                   iface,
                   pcap_datalink_val_to_name(c->dlt) ? pcap_datalink_val_to_name(c->dlt)
                                                     : "?",
                   c->dlt),
               -EINVAL;
    if (l->filter[0]) {
        if (pcap_compile(p, &l->prog, l->filter, 1, PCAP_NETMASK_UNKNOWN) < 0)
            return cm_errf(err, errlen, "live capture on %s: filter '%s': %s", iface,
                           l->filter, pcap_geterr(p)),
                   -EINVAL;
        l->have_prog = 1;
        if (pcap_setfilter(p, &l->prog) < 0)
            return cm_errf(err, errlen, "live capture on %s: filter '%s': %s", iface,
                           l->filter, pcap_geterr(p)),
                   -EINVAL;
    }
    if (pcap_setnonblock(p, 1, perr) < 0 || (l->fd = pcap_get_selectable_fd(p)) < 0)
        return cm_errf(err, errlen, "live capture on %s: cannot wait for packets: %s",
                       iface, perr[0] ? perr : "no selectable descriptor"),
               -EIO;
    /* a file's link type is LINKTYPE_*, which equals DLT_* but for raw IP */
    if (l->write[0] &&
        tr__pcapng_open(&l->keep, l->write, c->dlt == DLT_RAW ? LINKTYPE_RAW : c->dlt,
                        (uint32_t)pcap_snapshot(p), iface, l->filter, err, errlen) < 0)
        return -EIO;
    l->start_ns = wall_ns();
    l->next_tick_ns = l->start_ns + LIVE_WAIT_NS;
    if (lv->duration_ns > 0)
        l->deadline_mono = cm_now_ns() + (uint64_t)lv->duration_ns;
    c->next_conn_index = 1;
    return 0;
}

static int live_drops(const struct tr_nfs_reader *r, struct tr_nfs_drops *d)
{
    if (!r->cap || !r->cap->live)
        return -ENOTSUP;
    live_stats(r->cap, d);
    return 0;
}

const struct tr__nfs_format tr__nfs_pcap_format = {
    .name = "pcap",
    .probe = capture_probe,
    .open = capture_open,
    .step = step,
    .close = capture_close,
    .open_live = live_open,
    .drops = live_drops,
};
