/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_trace_pcap.c - libFuzzer driver for the NFS capture path
 * (src/trace/tr_nfs_pcap.c, _ip.c, _tcp.c, _rpc.c, _xdr.c).  An input that
 * starts with 'R' is a whole capture file for libpcap (hostile files);
 * any other is turned into a pcap whose link type the first byte picks,
 * each packet a 2-byte length and that many bytes, its length on the wire
 * raised by the byte after (snap-length cuts), so that the fuzzer spends
 * its time in the reader's own parsing: link headers, IP fragments, TCP
 * streams and record marks, RPC and NFS decoding.  Inputs of odd length
 * are read with NFSv4 COMPOUNDs as events (tr_nfs_options.nfsv4) and each
 * operation turned into its NFSv3 form (tr_nfs4_op_event); the seeds hold
 * v4.0 and v4.1 captures, one cut by a snap length.  The reader must end
 * with events or a message, never a crash, a leak or undefined behaviour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_nfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void le32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

/* The pcap the input describes, into buf; returns its length. */
static size_t build(const uint8_t *d, size_t n, uint8_t *buf, size_t cap)
{
    static const uint32_t links[] = {1, 113, 276, 0, 108, 101, 228, 229};
    size_t o = 24, i = 1;
    uint32_t t = 0;

    memset(buf, 0, 24);
    le32(buf, 0xa1b2c3d4);
    buf[4] = 2;
    buf[6] = 4;
    le32(buf + 16, 65535);
    le32(buf + 20, links[d[0] % 8]);
    while (i + 3 <= n && o + 16 < cap) {
        size_t len = (size_t)d[i] << 8 | d[i + 1];
        size_t extra = d[i + 2];
        i += 3;
        if (len > n - i)
            len = n - i;
        if (o + 16 + len > cap)
            break;
        le32(buf + o, 1700000000);
        le32(buf + o + 4, t += 997);
        le32(buf + o + 8, (uint32_t)len);
        le32(buf + o + 12, (uint32_t)(len + extra));
        memcpy(buf + o + 16, d + i, len);
        o += 16 + len;
        i += len;
    }
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tr_nfs_options o = {.format = "pcap", .lenient = 1, .nfsv4 = (int)(size & 1)};
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    char err[CM_ERR_LEN];
    uint8_t *buf = NULL;
    size_t len;
    FILE *fp;
    unsigned n = 0;

    if (size < 2)
        return 0;
    if (data[0] == 'R') {
        fp = fmemopen((void *)(data + 1), size - 1, "rb");
    } else {
        buf = malloc(size * 6 + 64);
        if (!buf)
            return 0;
        len = build(data, size, buf, size * 6 + 64);
        fp = fmemopen(buf, len, "rb");
    }
    if (fp && tr_nfs_open_fp(&r, fp, "fuzz", &o, err, sizeof(err)) == 0) {
        while (n++ < 100000 && tr_nfs_next(r, &ev) > 0) {
            struct tr_nfs_event op;
            uint32_t i;
            for (i = 0; ev.v4 && i < ev.v4->nops; i++)
                tr_nfs4_op_event(&ev, i, &op);
        }
        tr_nfs_close(r);
    }
    if (fp)
        fclose(fp);
    free(buf);
    return 0;
}
