/* SPDX-License-Identifier: BSD-2-Clause */
/* th_pcap.c - a pcap in memory for the capture reader's tests (th_pcap.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/bytes.h"
#include "helpers/th_pcap.h"

static void put(struct th_pc *p, const void *d, size_t n)
{
    assert_true(p->len + n <= sizeof(p->buf));
    memcpy(p->buf + p->len, d, n);
    p->len += n;
}

static void le32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

void th_pc_begin(struct th_pc *p)
{
    uint8_t h[24] = {0};

    p->len = 0;
    p->t_ns = 1700000000ll * 1000000000;
    le32(h, 0xa1b2c3d4);
    h[4] = 2;
    h[6] = 4;
    le32(h + 16, 262144);
    le32(h + 20, 101); /* raw IP */
    put(p, h, sizeof(h));
}

void th_pc_frame(struct th_pc *p, const uint8_t *d, size_t n, int64_t dt_ms)
{
    uint8_t h[16];

    p->t_ns += dt_ms * 1000000;
    le32(h, (uint32_t)(p->t_ns / 1000000000));
    le32(h + 4, (uint32_t)(p->t_ns % 1000000000 / 1000));
    le32(h + 8, (uint32_t)n);
    le32(h + 12, (uint32_t)n);
    put(p, h, 16);
    put(p, d, n);
}

size_t th_ipv4(uint8_t *out, int from_client, uint8_t proto, const uint8_t *l4, size_t n,
               uint16_t id, uint16_t frag)
{
    memset(out, 0, 20);
    out[0] = 0x45;
    cm_be16_put(out + 2, (uint16_t)(20 + n));
    cm_be16_put(out + 4, id);
    cm_be16_put(out + 6, frag);
    out[8] = 64;
    out[9] = proto;
    out[12] = out[16] = 127;
    out[15] = from_client ? 2 : 1;
    out[19] = from_client ? 1 : 2;
    memcpy(out + 20, l4, n);
    return 20 + n;
}

void th_tcp_frame(struct th_pc *p, int from_client, uint32_t seq, uint8_t fl,
                  const uint8_t *d, size_t n, int64_t dt_ms)
{
    static uint8_t seg[70000], pkt[70100];
    size_t len;

    assert_true(n + 20 <= sizeof(seg));
    memset(seg, 0, 20);
    cm_be16_put(seg, from_client ? 901 : 2049);
    cm_be16_put(seg + 2, from_client ? 2049 : 901);
    cm_be32_put(seg + 4, seq);
    seg[12] = 5 << 4;
    seg[13] = fl;
    if (n)
        memcpy(seg + 20, d, n);
    len = th_ipv4(pkt, from_client, 6, seg, 20 + n, 1, 0);
    th_pc_frame(p, pkt, len, dt_ms);
}

static size_t record(uint8_t *out, size_t cap, const uint32_t *head, size_t nhead,
                     xdrproc_t codec, void *body)
{
    XDR x;
    size_t i;

    xdrmem_create(&x, (char *)out + 4, (u_int)(cap - 4), XDR_ENCODE);
    for (i = 0; i < nhead; i++) {
        uint32_t v = head[i];
        assert_true(xdr_u_int(&x, &v));
    }
    assert_true(codec(&x, body));
    i = xdr_getpos(&x);
    xdr_destroy(&x);
    cm_be32_put(out, 0x80000000u | (uint32_t)i); /* the record mark */
    return i + 4;
}

size_t th_rpc_call(uint8_t *out, size_t cap, uint32_t xid, uint32_t prog, uint32_t vers,
                   uint32_t proc, xdrproc_t codec, void *args)
{
    uint32_t v[10] = {xid, CALL, 2, prog, vers, proc, 0, 0, 0, 0};

    return record(out, cap, v, 10, codec, args);
}

size_t th_rpc_reply(uint8_t *out, size_t cap, uint32_t xid, xdrproc_t codec, void *res)
{
    uint32_t v[6] = {xid, REPLY, 0, 0, 0, 0};

    return record(out, cap, v, 6, codec, res);
}
