/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_nfs_capture.c - the capture path of the NFS trace reader
 * (tr_nfs_pcap.c, tr_nfs_ip.c, tr_nfs_tcp.c, tr_nfs_rpc.c) on pcaps built in
 * memory and read through fmemopen: record marks split across segments,
 * records of several fragments, several records in one segment, sequence
 * numbers wrapping, a segment ahead of its predecessor at the start, a hole
 * that waits past TR__GAP_WAIT, a reply that comes before its call (held
 * for it, within bounds), a connection reopened on the same ports,
 * IPv4 fragments repeated and overlapping, UDP that is not RPC.  Messages
 * are encoded with the project's rpcgen codecs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "helpers/th_pcap.h"
#include "trace/tr_nfs_int.h"

/* ---- RPC messages ---------------------------------------------------------- */

static size_t mk_call(uint8_t *out, uint32_t xid, uint32_t proc, xdrproc_t codec,
                      void *args)
{
    return th_rpc_call(out, 512, xid, 100003, 3, proc, codec, args);
}

static size_t mk_reply(uint8_t *out, uint32_t xid, xdrproc_t codec, void *res)
{
    return th_rpc_reply(out, 512, xid, codec, res);
}

static char fhbytes[32] = "0123456789abcdef0123456789abcdef";

static size_t getattr_call(uint8_t *out, uint32_t xid)
{
    GETATTR3args a;

    a.object.data.data_len = 32;
    a.object.data.data_val = fhbytes;
    return mk_call(out, xid, NFSPROC3_GETATTR, (xdrproc_t)xdr_GETATTR3args, &a);
}

static size_t getattr_reply(uint8_t *out, uint32_t xid)
{
    GETATTR3res r;

    memset(&r, 0, sizeof(r));
    r.status = NFS3_OK;
    r.GETATTR3res_u.resok.obj_attributes.type = NF3REG;
    r.GETATTR3res_u.resok.obj_attributes.size = 12345;
    return mk_reply(out, xid, (xdrproc_t)xdr_GETATTR3res, &r);
}

/* ---- reading ------------------------------------------------------------- */

struct got {
    struct tr_nfs_event ev[64];
    int n;
    struct tr_nfs_reader *r;
    FILE *fp;
};

static void read_all(struct th_pc *p, struct got *g)
{
    struct tr_nfs_options o = {.format = "pcap"};
    char err[CM_ERR_LEN];
    int rc;

    g->n = 0;
    g->fp = fmemopen(p->buf, p->len, "rb");
    assert_non_null(g->fp);
    assert_int_equal(tr_nfs_open_fp(&g->r, g->fp, "mem", &o, err, sizeof(err)), 0);
    while ((rc = tr_nfs_next(g->r, &g->ev[g->n])) > 0)
        assert_true(++g->n < 64);
    assert_int_equal(rc, 0);
}

static void done(struct got *g)
{
    tr_nfs_close(g->r);
    fclose(g->fp);
}

static struct th_pc pcap;

/* A handshake from client ISN c and server ISN s. */
static void handshake(struct th_pc *p, uint32_t c, uint32_t s)
{
    th_tcp_frame(p, 1, c, TH_SYN, NULL, 0, 1);
    th_tcp_frame(p, 0, s, TH_SYN | TH_ACK, NULL, 0, 0);
}

static void marks_split_and_records_joined(void **state)
{
    uint8_t a[512], b[512], two[1024];
    size_t na, nb;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 100, 9000);
    na = getattr_call(a, 1);
    /* the mark split 2 + 2, the rest after */
    th_tcp_frame(&pcap, 1, 101, TH_ACK, a, 2, 1);
    th_tcp_frame(&pcap, 1, 103, TH_ACK, a + 2, 2, 1);
    th_tcp_frame(&pcap, 1, 105, TH_ACK, a + 4, na - 4, 1);
    /* two replies in one segment: 1's and, after a second call, 2's */
    nb = getattr_call(b, 2);
    th_tcp_frame(&pcap, 1, 101 + (uint32_t)na, TH_ACK, b, nb, 1);
    na = getattr_reply(two, 1);
    nb = getattr_reply(two + na, 2);
    th_tcp_frame(&pcap, 0, 9001, TH_ACK, two, na + nb, 1);
    read_all(&pcap, &g);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.ev[0].xid, 1);
    assert_int_equal(g.ev[0].where, 5); /* the frame that completed it */
    assert_int_equal(g.ev[0].reply_where, 7);
    assert_int_equal(g.ev[1].reply_where, 7);
    assert_int_equal(g.ev[0].attr.size, 12345);
    assert_int_equal(g.ev[0].fh.len, 32);
    assert_memory_equal(g.ev[0].fh.data, fhbytes, 32);
    assert_int_equal(g.ev[0].conn, 1);
    assert_int_equal(g.ev[0].transport, TR_NFS_TCP);
    done(&g);
}

static void a_record_of_two_fragments(void **state)
{
    uint8_t a[512], f[600];
    size_t na, half;
    uint32_t body;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 100, 9000);
    na = getattr_call(a, 3);
    body = (uint32_t)na - 4;
    half = body / 2;
    /* fragment 1 (not last) and fragment 2 (last) of the same record */
    cm_be32_put(f, (uint32_t)half);
    memcpy(f + 4, a + 4, half);
    cm_be32_put(f + 4 + half, 0x80000000u | (uint32_t)(body - half));
    memcpy(f + 8 + half, a + 4 + half, body - half);
    th_tcp_frame(&pcap, 1, 101, TH_ACK, f, body + 8, 1);
    read_all(&pcap, &g);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.ev[0].proc, NFSPROC3_GETATTR);
    assert_int_equal(g.ev[0].fh.len, 32);
    done(&g);
}

static void sequence_numbers_wrap(void **state)
{
    uint8_t a[512], r[512];
    size_t na, nr;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 0xfffffff0u, 0xffffffffu);
    na = getattr_call(a, 4);
    th_tcp_frame(&pcap, 1, 0xfffffff1u, TH_ACK, a, 20, 1);
    th_tcp_frame(&pcap, 1, 0xfffffff1u + 20, TH_ACK, a + 20, na - 20, 1); /* wraps */
    nr = getattr_reply(r, 4);
    th_tcp_frame(&pcap, 0, 0, TH_ACK, r, nr, 1); /* server ISN + 1 is 0 */
    read_all(&pcap, &g);
    assert_int_equal(g.n, 1);
    assert_true(g.ev[0].flags & TR_NFS_F_REPLY);
    done(&g);
}

static void ahead_of_its_predecessor_at_the_start(void **state)
{
    uint8_t a[512];
    size_t na;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 100, 9000);
    na = getattr_call(a, 5);
    th_tcp_frame(&pcap, 1, 101 + 30, TH_ACK, a + 30, na - 30, 1);
    th_tcp_frame(&pcap, 1, 101, TH_ACK, a, 30, 1);
    read_all(&pcap, &g);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.ev[0].where, 4);
    assert_int_equal(tr_nfs_counter(g.r, "tcp_out_of_order"), 1);
    assert_int_equal(tr_nfs_counter(g.r, "tcp_gaps"), 0);
    done(&g);
}

static void a_hole_that_waits_too_long(void **state)
{
    uint8_t a[512], b[512];
    size_t na, nb;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 100, 9000);
    na = getattr_call(a, 6);
    nb = getattr_call(b, 7);
    /* bytes 60..na of call 6 (its handle) never come; call 7 follows */
    th_tcp_frame(&pcap, 1, 101, TH_ACK, a, 60, 1);
    th_tcp_frame(&pcap, 1, 101 + (uint32_t)na, TH_ACK, b, nb, 1);
    th_tcp_frame(&pcap, 0, 9001, TH_ACK, NULL, 0,
                 3000); /* 3 s later: the hole is a gap */
    read_all(&pcap, &g);
    assert_int_equal(tr_nfs_counter(g.r, "tcp_gaps"), 1);
    assert_int_equal(tr_nfs_counter(g.r, "tcp_gap_bytes"), na - 60);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.ev[0].xid, 6);
    assert_true(g.ev[0].flags & TR_NFS_F_CALL_CUT); /* the handle was in the hole */
    assert_int_equal(g.ev[1].xid, 7);
    assert_int_equal(g.ev[1].fh.len, 32);
    assert_int_equal(g.ev[1].where, 4); /* its own frame, not the one that waited */
    done(&g);
}

/* A hole in the calls' direction: the call after it waits until the hole
 * is a gap, while its reply is delivered at once; the reply is held and
 * decoded into the call's event when the call comes. */
static void a_reply_before_its_call(void **state)
{
    uint8_t a[512], b[512], r[512];
    size_t na, nb, nr;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 100, 9000);
    na = getattr_call(a, 8);
    nb = getattr_call(b, 9);
    th_tcp_frame(&pcap, 1, 101, TH_ACK, a, 60, 1); /* call 8's bytes 60.. never come */
    th_tcp_frame(&pcap, 1, 101 + (uint32_t)na, TH_ACK, b, nb, 1); /* call 9 waits */
    nr = getattr_reply(r, 9);
    th_tcp_frame(&pcap, 0, 9001, TH_ACK, r, nr, 1); /* frame 5: 9's reply first */
    th_tcp_frame(&pcap, 0, 9001 + (uint32_t)nr, TH_ACK, NULL, 0,
                 3000); /* the hole: a gap */
    read_all(&pcap, &g);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.ev[1].xid, 9);
    assert_true(g.ev[1].flags & TR_NFS_F_REPLY);
    assert_int_equal(g.ev[1].reply_where, 5);
    assert_int_equal(g.ev[1].attr.size, 12345);
    assert_int_equal(tr_nfs_counter(g.r, "replies_before_calls"), 1);
    assert_int_equal(tr_nfs_counter(g.r, "replies_without_calls"), 0);
    done(&g);
}

/* Replies held for calls not yet seen are bounded in number and bytes:
 * past either the oldest goes, as a reply without its call. */
static void replies_held_are_bounded(void **state)
{
    static uint8_t big[1 << 20];
    struct got g;
    struct tr__msg m;
    uint32_t i;

    (void)state;
    th_pc_begin(&pcap);
    read_all(&pcap, &g); /* a capture's reader, at its end */
    memset(&m, 0, sizeof(m));
    m.transport = TR_NFS_UDP;
    for (i = 0; i < 70000; i++) {
        m.xid = i;
        assert_int_equal(
            tr__early_put(g.r, tr__pair_key(&m.dst, m.transport, 0, i), &m, big, 8, 8),
            1);
    }
    assert_int_equal(tr_nfs_counter(g.r, "replies_without_calls"), 70000 - 65536);
    for (i = 0; i < 100; i++) {
        m.xid = 100000 + i;
        assert_int_equal(tr__early_put(g.r, tr__pair_key(&m.dst, m.transport, 0, m.xid),
                                       &m, big, sizeof(big), sizeof(big)),
                         1);
    }
    /* 64 MiB hold 64 of the 1 MiB replies and nothing else */
    assert_int_equal(tr_nfs_counter(g.r, "replies_without_calls"), 70000 + 100 - 64);
    tr__early_expire(g.r, 1);
    assert_int_equal(tr_nfs_counter(g.r, "replies_without_calls"), 70000 + 100);
    done(&g);
}

static void a_connection_reopened_on_the_same_ports(void **state)
{
    uint8_t a[512];
    size_t na;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    handshake(&pcap, 100, 9000);
    na = getattr_call(a, 8);
    th_tcp_frame(&pcap, 1, 101, TH_ACK, a, na, 1);
    th_tcp_frame(&pcap, 1, 101 + (uint32_t)na, TH_FIN | TH_ACK, NULL, 0, 1);
    th_tcp_frame(&pcap, 0, 9001, TH_FIN | TH_ACK, NULL, 0, 1);
    handshake(&pcap, 5000, 70000);
    na = getattr_call(a, 8); /* the same XID on the new connection */
    th_tcp_frame(&pcap, 1, 5001, TH_ACK, a, na, 1);
    read_all(&pcap, &g);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.ev[0].conn, 1);
    assert_int_equal(g.ev[1].conn, 2);
    assert_int_equal(tr_nfs_counter(g.r, "tcp_connections"), 2);
    assert_int_equal(tr_nfs_counter(g.r, "retransmissions"), 0);
    done(&g);
}

static void fragments_repeated_and_overlapping(void **state)
{
    static uint8_t dg[3000], pkt[3100];
    uint8_t a[512];
    size_t na, n;
    struct got g;

    (void)state;
    th_pc_begin(&pcap);
    na = getattr_call(a, 9);
    /* the call as a UDP datagram (no record mark), in fragments: bytes
     * 16..32 first, then 0..24 (overlapping it), 16..32 again, the rest */
    memset(dg, 0, sizeof(dg));
    cm_be16_put(dg, 900);
    cm_be16_put(dg + 2, 2049);
    cm_be16_put(dg + 4, (uint16_t)(8 + na - 4));
    memcpy(dg + 8, a + 4, na - 4);
    n = 8 + na - 4;
    assert_true(n > 48);
    th_pc_frame(&pcap, pkt, th_ipv4(pkt, 1, 17, dg + 16, 16, 77, 2 | 0x2000),
                1);                                                      /* 16..32 */
    th_pc_frame(&pcap, pkt, th_ipv4(pkt, 1, 17, dg, 24, 77, 0x2000), 1); /* 0..24 */
    th_pc_frame(&pcap, pkt, th_ipv4(pkt, 1, 17, dg + 16, 16, 77, 2 | 0x2000),
                1); /* again */
    th_pc_frame(&pcap, pkt, th_ipv4(pkt, 1, 17, dg + 32, n - 32, 77, 4),
                1); /* the last */
    /* a UDP datagram that is not RPC */
    memcpy(dg + 8, "hello, not rpc", 14);
    cm_be16_put(dg + 4, 22);
    th_pc_frame(&pcap, pkt, th_ipv4(pkt, 1, 17, dg, 22, 78, 0), 1);
    read_all(&pcap, &g);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.ev[0].xid, 9);
    assert_int_equal(g.ev[0].fh.len, 32);
    assert_int_equal(g.ev[0].where, 4);
    assert_int_equal(tr_nfs_counter(g.r, "ip_fragments"), 4);
    assert_int_equal(tr_nfs_counter(g.r, "ip_fragments_reassembled"), 1);
    assert_int_equal(tr_nfs_counter(g.r, "non_rpc_packets"), 1);
    done(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(marks_split_and_records_joined),
        cmocka_unit_test(a_record_of_two_fragments),
        cmocka_unit_test(sequence_numbers_wrap),
        cmocka_unit_test(ahead_of_its_predecessor_at_the_start),
        cmocka_unit_test(a_hole_that_waits_too_long),
        cmocka_unit_test(a_reply_before_its_call),
        cmocka_unit_test(replies_held_are_bounded),
        cmocka_unit_test(a_connection_reopened_on_the_same_ports),
        cmocka_unit_test(fragments_repeated_and_overlapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
