/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_pcapng.c - the pcapng file a live capture keeps (sfs_trace
 * --interface --write FILE).  Written by hand because libpcap 1.10 writes
 * the older pcap format only, and pcapng is what dumpcap writes and can
 * hold the capture's drop figures: a section header, one interface
 * description (link type, snap length, name, filter, stamps in
 * nanoseconds), an enhanced packet block per packet, and at the end an
 * interface statistics block with the packets the filter passed and those
 * the kernel and the interface dropped.  Blocks are in this machine's
 * byte order, which the section header's magic tells a reader
 * (draft-ietf-opsawg-pcapng, sections 4.1-4.6).  libpcap reads the file
 * back (tr_nfs_pcap.c), as tshark does.  The file is written beside its
 * name and renamed into place at the end (common/atomic.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/atomic.h"
#include "common/error.h"
#include "trace/tr_nfs_int.h"

#define BT_SHB 0x0A0D0D0Au /* section header */
#define BT_IDB 0x00000001u /* interface description */
#define BT_ISB 0x00000005u /* interface statistics */
#define BT_EPB 0x00000006u /* enhanced packet */

#define BYTE_ORDER_MAGIC 0x1A2B3C4Du

/* option codes */
#define OPT_END              0
#define OPT_SHB_USERAPPL     4
#define OPT_IF_NAME          2
#define OPT_IF_TSRESOL       9
#define OPT_IF_FILTER        11
#define OPT_ISB_STARTTIME    2
#define OPT_ISB_ENDTIME      3
#define OPT_ISB_IFDROP       5
#define OPT_ISB_FILTERACCEPT 6
#define OPT_ISB_OSDROP       7

/* A block is built here before it is written: the largest is a packet of
 * TR__PCAPNG_SNAP_MAX bytes with its header and trailer. */
#define TR__PCAPNG_SNAP_MAX 262144u
#define BLOCK_MAX           (TR__PCAPNG_SNAP_MAX + 64u)
#define TEXT_MAX            1024u /* interface name, filter: cut past it */

struct tr__pcapng {
    struct cm_atomic_file af;
    uint8_t *buf; /* BLOCK_MAX bytes */
    uint32_t len; /* bytes of the block being built */
    int failed;   /* a write failed: -errno */
};

static void put(struct tr__pcapng *w, const void *p, uint32_t n)
{
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void put32(struct tr__pcapng *w, uint32_t v)
{
    put(w, &v, 4);
}

static void put16(struct tr__pcapng *w, uint16_t v)
{
    put(w, &v, 2);
}

static void pad4(struct tr__pcapng *w)
{
    static const uint8_t zero[4];

    put(w, zero, (4 - (w->len & 3)) & 3);
}

/* An option: code, length, value padded to 4 bytes. */
static void opt(struct tr__pcapng *w, uint16_t code, const void *v, uint16_t n)
{
    put16(w, code);
    put16(w, n);
    put(w, v, n);
    pad4(w);
}

static void opt_text(struct tr__pcapng *w, uint16_t code, const char *s, int lead0)
{
    uint8_t tmp[TEXT_MAX + 1];
    size_t n = strlen(s);

    if (n > TEXT_MAX)
        n = TEXT_MAX;
    /* if_filter's value starts with the filter's kind: 0, a libpcap string */
    tmp[0] = 0;
    memcpy(tmp + (lead0 ? 1 : 0), s, n);
    opt(w, code, tmp, (uint16_t)(n + (lead0 ? 1 : 0)));
}

static void opt64(struct tr__pcapng *w, uint16_t code, uint64_t v)
{
    opt(w, code, &v, 8);
}

/* A timestamp in the interface's unit (ns), high word first. */
static void stamp(struct tr__pcapng *w, int64_t t_ns)
{
    uint64_t t = t_ns < 0 ? 0 : (uint64_t)t_ns;

    put32(w, (uint32_t)(t >> 32));
    put32(w, (uint32_t)t);
}

static void begin(struct tr__pcapng *w, uint32_t type)
{
    w->len = 0;
    put32(w, type);
    put32(w, 0); /* the total length, set by end */
}

/* Sets the block's length at both ends and writes it. */
static int end(struct tr__pcapng *w)
{
    uint32_t total = w->len + 4;

    memcpy(w->buf + 4, &total, 4);
    put32(w, total);
    if (!w->failed && fwrite(w->buf, 1, w->len, w->af.fp) != w->len)
        w->failed = errno ? -errno : -EIO;
    return w->failed;
}

int tr__pcapng_open(struct tr__pcapng **out, const char *path, int linktype,
                    uint32_t snaplen, const char *ifname, const char *filter, char *err,
                    size_t errlen)
{
    struct tr__pcapng *w = cm_calloc(1, sizeof(*w));
    static const uint8_t tsresol = 9; /* 10^-9 s */
    int64_t unknown_length = -1;

    *out = NULL;
    if (!w || !(w->buf = cm_malloc(BLOCK_MAX))) {
        free(w);
        return cm_report_nomem(NULL, path, err, errlen);
    }
    if (cm_atomic_open(&w->af, path, err, errlen) < 0) {
        free(w->buf);
        free(w);
        return -EIO;
    }
    begin(w, BT_SHB);
    put32(w, BYTE_ORDER_MAGIC);
    put16(w, 1); /* version 1.0 */
    put16(w, 0);
    put(w, &unknown_length, 8);
    opt_text(w, OPT_SHB_USERAPPL, "FreeSFS sfs_trace", 0);
    put32(w, OPT_END);
    end(w);
    begin(w, BT_IDB);
    put16(w, (uint16_t)linktype);
    put16(w, 0);
    put32(w, snaplen);
    opt_text(w, OPT_IF_NAME, ifname, 0);
    if (filter && *filter)
        opt_text(w, OPT_IF_FILTER, filter, 1);
    opt(w, OPT_IF_TSRESOL, &tsresol, 1);
    put32(w, OPT_END);
    if (end(w) < 0) {
        cm_errf(err, errlen, "%s: %s", path, strerror(-w->failed));
        tr__pcapng_abort(w);
        return -EIO;
    }
    *out = w;
    return 0;
}

int tr__pcapng_packet(struct tr__pcapng *w, int64_t t_ns, const uint8_t *data,
                      uint32_t caplen, uint32_t len)
{
    if (caplen > TR__PCAPNG_SNAP_MAX)
        caplen = TR__PCAPNG_SNAP_MAX;
    begin(w, BT_EPB);
    put32(w, 0); /* the interface */
    stamp(w, t_ns);
    put32(w, caplen);
    put32(w, len);
    put(w, data, caplen);
    pad4(w);
    return end(w);
}

int tr__pcapng_close(struct tr__pcapng *w, const struct tr_nfs_drops *d, int64_t start_ns,
                     int64_t end_ns, char *err, size_t errlen)
{
    char path[sizeof(w->af.path)];

    if (!w)
        return 0;
    begin(w, BT_ISB);
    put32(w, 0);
    stamp(w, end_ns);
    put16(w, OPT_ISB_STARTTIME);
    put16(w, 8);
    stamp(w, start_ns);
    put16(w, OPT_ISB_ENDTIME);
    put16(w, 8);
    stamp(w, end_ns);
    if (d) {
        opt64(w, OPT_ISB_FILTERACCEPT, d->received);
        opt64(w, OPT_ISB_OSDROP, d->dropped);
        opt64(w, OPT_ISB_IFDROP, d->if_dropped);
    }
    put32(w, OPT_END);
    snprintf(path, sizeof(path), "%s", w->af.path);
    if (end(w) < 0) {
        cm_errf(err, errlen, "%s: %s", path, strerror(-w->failed));
        tr__pcapng_abort(w);
        return -EIO;
    }
    if (cm_atomic_commit(&w->af, err, errlen) < 0) {
        free(w->buf);
        free(w);
        return -EIO;
    }
    free(w->buf);
    free(w);
    return 0;
}

void tr__pcapng_abort(struct tr__pcapng *w)
{
    if (!w)
        return;
    cm_atomic_abort(&w->af);
    free(w->buf);
    free(w);
}
