/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_pcapng.c - the pcapng file a live capture keeps
 * (tr_nfs_pcapng.c), read back by the NFS trace reader through libpcap: an
 * NFSv3 GETATTR over UDP written as two packets (the reply cut by the snap
 * length) comes back as one answered event with its stamps to the
 * nanosecond; the file appears only when closed (never half written), and
 * an aborted one leaves nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bytes.h"
#include "trace/tr_nfs_int.h"

#define LINKTYPE_RAW 101

/* An IPv4 UDP datagram 127.0.0.2:901 <-> 127.0.0.1:2049 around rpc[0..n). */
static size_t udp_packet(uint8_t *out, int from_client, const uint8_t *rpc, size_t n)
{
    memset(out, 0, 28);
    out[0] = 0x45;
    cm_be16_put(out + 2, (uint16_t)(28 + n));
    out[8] = 64;
    out[9] = 17;
    out[12] = out[16] = 127;
    out[15] = from_client ? 2 : 1;
    out[19] = from_client ? 1 : 2;
    cm_be16_put(out + 20, from_client ? 901 : 2049);
    cm_be16_put(out + 22, from_client ? 2049 : 901);
    cm_be16_put(out + 24, (uint16_t)(8 + n));
    memcpy(out + 28, rpc, n);
    return 28 + n;
}

static char fhbytes[32] = "0123456789abcdef0123456789abcdef";

/* A GETATTR call (or its reply) as RPC bytes. */
static size_t getattr(uint8_t *out, int call)
{
    uint32_t hdr[10] = {77, CALL, 2, 100003, 3, NFSPROC3_GETATTR, 0, 0, 0, 0};
    uint32_t rhdr[6] = {77, REPLY, 0, 0, 0, 0};
    GETATTR3args a;
    GETATTR3res r;
    size_t i, len;
    XDR x;

    xdrmem_create(&x, (char *)out, 400, XDR_ENCODE);
    for (i = 0; i < (call ? 10u : 6u); i++)
        assert_true(xdr_u_int(&x, call ? &hdr[i] : &rhdr[i]));
    if (call) {
        a.object.data.data_len = 32;
        a.object.data.data_val = fhbytes;
        assert_true(xdr_GETATTR3args(&x, &a));
    } else {
        memset(&r, 0, sizeof(r));
        r.status = NFS3_OK;
        r.GETATTR3res_u.resok.obj_attributes.type = NF3REG;
        r.GETATTR3res_u.resok.obj_attributes.size = 12345;
        assert_true(xdr_GETATTR3res(&x, &r));
    }
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    return len;
}

static void a_kept_capture_reads_back_to_the_nanosecond(void **state)
{
    char path[] = "/tmp/test_trace_pcapng.XXXXXX", err[CM_ERR_LEN];
    struct tr_nfs_drops d = {10, 3, 1};
    struct tr_nfs_options o = {.format = "auto"};
    struct tr__pcapng *w;
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    uint8_t rpc[512], pkt[600];
    int64_t t0 = 1700000000123456789ll;
    size_t n;
    int fd;

    (void)state;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(tr__pcapng_open(&w, path, LINKTYPE_RAW, 262144, "lo", "port 2049",
                                     err, sizeof(err)),
                     0);
    assert_int_equal(access(path, F_OK), -1); /* not there before it is whole */
    n = udp_packet(pkt, 1, rpc, getattr(rpc, 1));
    assert_int_equal(tr__pcapng_packet(w, t0, pkt, (uint32_t)n, (uint32_t)n), 0);
    n = udp_packet(pkt, 0, rpc, getattr(rpc, 0));
    /* the reply cut after its status: 28 + 24 + 4 bytes kept */
    assert_int_equal(tr__pcapng_packet(w, t0 + 1234567, pkt, 56, (uint32_t)n), 0);
    assert_int_equal(tr__pcapng_close(w, &d, t0 - 5, t0 + 2000000, err, sizeof(err)), 0);

    assert_int_equal(tr_nfs_open(&r, path, &o, err, sizeof(err)), 0);
    assert_string_equal(tr_nfs_format(r), "pcapng");
    assert_int_equal(tr_nfs_next(r, &ev), 1);
    assert_int_equal(ev.op, NF_OP_GETATTR);
    assert_true(ev.flags & TR_NFS_F_REPLY);
    assert_true(ev.flags & TR_NFS_F_REPLY_CUT);
    assert_int_equal(ev.status, NFS3_OK);
    assert_int_equal(ev.reply_t_ns - ev.t_ns, 1234567);
    assert_int_equal(tr_nfs_origin_ns(r), t0);
    assert_int_equal(tr_nfs_next(r, &ev), 0);
    assert_int_equal(tr_nfs_counter(r, "packets"), 2);
    assert_int_equal(tr_nfs_live_drops(r, &d), -ENOTSUP); /* a file */
    tr_nfs_close(r);
    unlink(path);
}

static void an_aborted_capture_leaves_no_file(void **state)
{
    char path[] = "/tmp/test_trace_pcapng.XXXXXX", err[CM_ERR_LEN], tmp[600];
    struct tr__pcapng *w;
    uint8_t pkt[600], rpc[512];
    size_t n;
    int fd;

    (void)state;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(
        tr__pcapng_open(&w, path, LINKTYPE_RAW, 65535, "lo", "", err, sizeof(err)), 0);
    n = udp_packet(pkt, 1, rpc, getattr(rpc, 1));
    assert_int_equal(tr__pcapng_packet(w, 1, pkt, (uint32_t)n, (uint32_t)n), 0);
    tr__pcapng_abort(w);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    assert_int_equal(access(tmp, F_OK), -1);
    /* a directory that does not exist: an error, nothing made */
    assert_true(tr__pcapng_open(&w, "/nonexistent-dir/x.pcapng", 1, 65535, "lo", "", err,
                                sizeof(err)) < 0);
    assert_non_null(strstr(err, "/nonexistent-dir/x.pcapng"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_kept_capture_reads_back_to_the_nanosecond),
        cmocka_unit_test(an_aborted_capture_leaves_no_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
