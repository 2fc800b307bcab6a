/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_net.c - unit tests of sfs_nfsd's sockets and event loop
 * (src/server/net.c): a server on loopback (127.0.0.1 and ::1, free ports)
 * run by sv_server_run in a thread, stopped by its flag and a signal to
 * that thread, and the project's own mount session and client engine as
 * its peers.  Covers NFSv3 over TCP and NFSv2 over UDP on separate ports
 * and on one port for both programs, IPv6 peers, a port in use and a bad
 * bind address named in one line, the connection counters, a stats dump
 * on request, and delayed replies (--delay-us) answered in order or freed
 * when the server stops first, or lost and counted when there is no
 * memory to hold them, and the budget on all connections' buffers (the
 * peers that pin the most while not reading are closed, a reader is
 * served on).  Network safety: loopback only. */
#define _GNU_SOURCE /* POLLRDHUP */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers/th_core.h" /* th_root_type */
#include "helpers/th_nfsd.h"
#include "helpers/th_text.h"
#include "nfs/nf.h"
#include "rpc/recmark.h"
#include "server/sv.h"

/* Mounts url (version v, transport t), checks the root with GETATTR and
 * unmounts.  Returns nf_mount's result; err holds its message. */
static int mount_and_getattr(const char *url, int v, enum rp_transport_kind t, char *err,
                             size_t errlen)
{
    struct nf_mount_opts o;
    struct nf_mount m;
    int rc;

    nf_mount_opts_init(&o, v);
    o.transport = o.mount_transport = t;
    o.timeout_ms = 5000;
    rc = nf_mount(&m, url, &o, err, errlen);
    if (rc < 0)
        return rc;
    assert_int_equal(th_root_type(&m), v == 3 ? NF3DIR : NFDIR);
    nf_umount(&m);
    return 0;
}

/* ---- tests ---------------------------------------------------------------- */

static void serves_v3_over_tcp_and_v2_over_udp_on_loopback(void **state)
{
    struct sv_config cfg;
    struct sv_conn_stats st;
    struct th_nfsd v;
    char err[CM_ERR_LEN];

    (void)state;
    th_nfsd_config(&cfg, "127.0.0.1");
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    assert_true(v.nfs_port != 0 && v.mnt_port != 0 && v.nfs_port != v.mnt_port);
    assert_int_equal(mount_and_getattr(v.url, 3, RP_TCP, err, sizeof(err)), 0);
    assert_int_equal(mount_and_getattr(v.url, 2, RP_UDP, err, sizeof(err)), 0);
    assert_int_equal(th_nfsd_halt(&v), 0);
    /* TCP connections: NFS, MNT, UMNT */
    sv_server_conn_stats(v.s, &st);
    assert_int_equal(st.accepted, 3);
    sv_server_destroy(v.s);
}

static void one_port_serves_both_programs(void **state)
{
    struct sv_config cfg;
    struct th_nfsd v;
    char err[CM_ERR_LEN], url[128];
    uint16_t port;

    (void)state;
    /* a free port number: taken by a first server, given back */
    th_nfsd_config(&cfg, "127.0.0.1");
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    port = v.nfs_port;
    assert_int_equal(th_nfsd_stop(&v), 0);
    cfg.nfs_port = cfg.mount_port = port;
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    assert_int_equal(v.nfs_port, port);
    assert_int_equal(v.mnt_port, port);
    snprintf(url, sizeof(url), "127.0.0.1:%u:/export", port);
    assert_int_equal(mount_and_getattr(url, 3, RP_UDP, err, sizeof(err)), 0);
    assert_int_equal(th_nfsd_stop(&v), 0);
}

static void ipv6_loopback_serves_its_peers(void **state)
{
    struct sv_config cfg;
    struct th_nfsd v;
    char err[CM_ERR_LEN];

    (void)state;
    th_nfsd_config(&cfg, "::1");
    if (th_nfsd_start(&v, &cfg) != 0) {
        /* a machine without IPv6 on lo: nothing to test */
        print_message("skipped: no ::1 (%s)\n", v.err);
        return;
    }
    assert_non_null(strstr(v.url, "nfs://[::1]:"));
    assert_int_equal(mount_and_getattr(v.url, 3, RP_TCP, err, sizeof(err)), 0);
    assert_int_equal(mount_and_getattr(v.url, 3, RP_UDP, err, sizeof(err)), 0);
    assert_int_equal(th_nfsd_stop(&v), 0);
}

static void a_port_in_use_and_a_bad_address_are_one_line_each(void **state)
{
    struct sv_config cfg, other;
    struct th_nfsd v;
    char err[CM_ERR_LEN], want[96];

    (void)state;
    th_nfsd_config(&cfg, "127.0.0.1");
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    th_nfsd_config(&other, "127.0.0.1");
    other.nfs_port = v.nfs_port;
    assert_null(sv_server_create(&other, err, sizeof(err)));
    snprintf(want, sizeof(want), "tcp 127.0.0.1 port %u: Address already in use",
             v.nfs_port);
    assert_string_equal(err, want);
    assert_int_equal(th_nfsd_stop(&v), 0);

    th_nfsd_config(&other, "not-an-address");
    assert_null(sv_server_create(&other, err, sizeof(err)));
    assert_non_null(strstr(err, "-b not-an-address: "));
}

static void a_stats_dump_on_request(void **state)
{
    struct sv_config cfg;
    struct th_nfsd v;
    char err[CM_ERR_LEN], path[] = "/tmp/freesfs-test-net.XXXXXX", file[64], text[4096];

    (void)state;
    assert_non_null(mkdtemp(path));
    snprintf(file, sizeof(file), "%s/stats.yaml", path);
    th_nfsd_config(&cfg, "127.0.0.1");
    cfg.stats_file = file;
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    assert_int_equal(mount_and_getattr(v.url, 3, RP_TCP, err, sizeof(err)), 0);
    assert_int_equal(mount_and_getattr(v.url, 3, RP_TCP, err, sizeof(err)), 0);
    assert_int_equal(th_nfsd_poke(&v, &v.dump), 0);
    for (int i = 0; i < 200 && access(file, R_OK) != 0; i++)
        usleep(10000); /* bounded: 2 s */
    assert_true(th_text_of_file(file, text, sizeof(text)) > 0);
    assert_non_null(strstr(text, "getattr"));
    assert_int_equal(th_nfsd_stop(&v), 0);
    unlink(file);
    rmdir(path);
}

struct done_count {
    struct rp_call call;
    int done;
};

static void count_done(struct rp_call *call, void *data)
{
    struct done_count *d = data;

    (void)call;
    d->done++;
}

/* n NULL calls in flight at once on transport t; every one answered. */
static void null_calls_all_answered(struct th_nfsd *v, enum rp_transport_kind t, int n)
{
    struct rp_client *c;
    struct done_count d[16];
    nf_void none = {0};
    int finished = 0;
    uint64_t end = cm_now_ns() + 10000000000ull;

    assert_int_equal(th_nfsd_client(v, t, NULL, &c), 0);
    for (int i = 0; i < n; i++) {
        memset(&d[i], 0, sizeof(d[i]));
        assert_int_equal(
            nf_call_init(&d[i].call, c, NFSPROC3_NULL, &none, &none, count_done, &d[i]),
            0);
        assert_int_equal(rp_call_start(c, &d[i].call), 0);
    }
    while (finished < n && cm_now_ns() < end) {
        int k = rp_poll(&c, 1, 1000);
        assert_true(k >= 0);
        finished += k;
    }
    for (int i = 0; i < n; i++) {
        assert_int_equal(d[i].done, 1);
        assert_int_equal(d[i].call.status, 0);
    }
    rp_client_close(c);
}

static void delayed_replies_are_all_sent_after_their_delay(void **state)
{
    struct sv_config cfg;
    struct th_nfsd v;
    uint64_t t0;

    (void)state;
    th_nfsd_config(&cfg, "127.0.0.1");
    cfg.fault.seed = 1;
    cfg.fault.delay_us = 20000;  /* 20 ms, */
    cfg.fault.jitter_us = 30000; /* + up to 30: replies leave out of order */
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    t0 = cm_now_ns();
    null_calls_all_answered(&v, RP_UDP, 16);
    null_calls_all_answered(&v, RP_TCP, 16);
    assert_true(cm_now_ns() - t0 >= 2 * 20000000ull);
    assert_int_equal(th_nfsd_stop(&v), 0);
}

/* A delayed reply the server has no memory to hold is lost, as a
 * congested network would lose it, and counted (delayed_lost), never
 * dropped without a trace; the server goes on serving. */
static void a_delayed_reply_without_memory_is_counted_as_lost(void **state)
{
    struct sv_config cfg;
    struct sv_conn_stats st;
    struct rp_client_opts o;
    struct rp_client *c;
    struct th_nfsd v;
    nf_void none = {0};

    (void)state;
    th_nfsd_config(&cfg, "127.0.0.1");
    cfg.fault.seed = 1;
    cfg.fault.delay_us = 1000;
    assert_int_equal(th_nfsd_start_failing(&v, &cfg, 1), 0);
    rp_client_opts_init(&o);
    o.udp_tries = 1;
    assert_int_equal(th_nfsd_client(&v, RP_UDP, &o, &c), 0);
    for (int i = 0; i < 3; i++) {
        struct rp_call call;
        int rc;

        assert_int_equal(nf_call_init(&call, c, NFSPROC3_NULL, &none, &none, NULL, NULL),
                         0);
        call.timeout_ms = 100;
        rc = rp_call_sync(c, &call);
        assert_int_equal(rc == 0 ? call.status : rc, RP_ERR_TIMEDOUT);
    }
    rp_client_close(c);
    assert_int_equal(th_nfsd_halt(&v), 0);
    sv_server_conn_stats(v.s, &st);
    assert_int_equal(st.delayed_lost, 3);
    sv_server_destroy(v.s);
}

/* Each allocation of the server thread fails in turn, for good, while a
 * TCP peer makes NULL calls (its connection's reply queue): the peer's
 * calls fail at once
 * (the connection closed), never hang; the closure is counted
 * (closed_no_memory) and the server stops cleanly. */
static void a_connection_without_memory_is_closed_and_counted(void **state)
{
    struct sv_config cfg;
    struct sv_conn_stats st;
    long n;

    (void)state;
    th_nfsd_config(&cfg, "127.0.0.1");
    for (n = 1;; n++) {
        struct rp_client *c;
        struct th_nfsd v;
        int ok = 0;

        assert_true(n < 50);
        assert_int_equal(th_nfsd_start_failing(&v, &cfg, n), 0);
        assert_int_equal(th_nfsd_client(&v, RP_TCP, NULL, &c), 0);
        for (int i = 0; i < 4; i++) {
            struct rp_call call;
            nf_void none = {0};
            int rc;

            assert_int_equal(
                nf_call_init(&call, c, NFSPROC3_NULL, &none, &none, NULL, NULL), 0);
            call.timeout_ms = 5000; /* a hang would show as a timeout */
            rc = rp_call_sync(c, &call);
            if (rc == 0)
                rc = call.status;
            /* lost, then the client closed after that error */
            assert_true(rc == 0 || rc == RP_ERR_CONNRESET || rc == -ENOTCONN);
            ok += rc == 0;
        }
        rp_client_close(c);
        assert_int_equal(th_nfsd_halt(&v), 0);
        sv_server_conn_stats(v.s, &st);
        sv_server_destroy(v.s);
        if (v.failed == 0) {
            assert_int_equal(ok, 4);
            assert_int_equal(st.closed_no_memory, 0);
            break;
        }
        assert_true(ok < 4);
        assert_int_equal(st.closed_no_memory, 1);
        assert_int_equal(st.open, 0);
        assert_int_equal(st.buffer_bytes, 0);
    }
    assert_true(n > 1); /* the reply queue */
}

/* ---- the budget on all connections' buffers (--max-buffer-mb) ---------- */

/* A 1 MiB file (sparse) in the export through the mount m; its handle. */
static void make_file(struct nf_mount *m, nfs_fh3 *fh, char *buf)
{
    CREATE3args a;
    CREATE3res r;

    memset(&a, 0, sizeof(a));
    nf_fh_to_v3(&m->root, &a.where.dir);
    a.where.name = "big";
    a.how.mode = UNCHECKED;
    a.how.createhow3_u.obj_attributes.size.set_it = 1;
    a.how.createhow3_u.obj_attributes.size.set_size3_u.size = 1 << 20;
    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_create(m->nfs, &a, &r), 0);
    assert_int_equal(r.status, NFS3_OK);
    assert_true(r.CREATE3res_u.resok.obj.handle_follows);
    fh->data.data_len = r.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_len;
    memcpy(buf, r.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_val,
           fh->data.data_len);
    fh->data.data_val = buf;
    xdr_free((xdrproc_t)xdr_CREATE3res, (char *)&r);
}

/* A record-marked NFSv3 READ call of 64 KiB (AUTH_NONE) into buf. */
static size_t read_call(uint8_t *buf, size_t cap, uint32_t xid, const nfs_fh3 *fh)
{
    u_int hdr[10] = {xid, 0, 2, NFS_PROGRAM, 3, NFSPROC3_READ, 0, 0, 0, 0};
    READ3args ra = {*fh, 0, 65536};
    XDR x;
    size_t len;

    xdrmem_create(&x, (char *)buf + 4, (u_int)(cap - 4), XDR_ENCODE);
    for (int i = 0; i < 10; i++)
        assert_true(xdr_u_int(&x, &hdr[i]));
    assert_true(xdr_READ3args(&x, &ra));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    rp_recmark_put(buf, len, 1);
    return len + 4;
}

/* A peer that sends READ calls and never reads a reply, through a small
 * receive window, so that the replies pile up in the server: up to calls
 * of them, or until its socket stays full 1 s or the server closes it.
 * Returns the socket, open. */
static int flood_peer(uint16_t port, const nfs_fh3 *fh, int calls)
{
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0), small = 4096;
    uint8_t b[256];
    uint64_t stuck = 0;

    assert_true(fd >= 0);
    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)), 0);
    inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
    for (int i = 0; i < calls;) {
        size_t n = read_call(b, sizeof(b), 0x5000u + (uint32_t)i, fh);
        ssize_t k = send(fd, b, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        struct pollfd p = {fd, POLLOUT, 0};

        if (k == (ssize_t)n) {
            i++;
            stuck = 0;
            continue;
        }
        if (k >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            break; /* a part went (the next call would be garbled), or closed */
        if (stuck == 0)
            stuck = cm_now_ns();
        else if (cm_now_ns() - stuck > 1000000000ull)
            break;
        poll(&p, 1, 50);
    }
    return fd;
}

/* Whether the server closed fd (waits up to ms; 0: looks once). */
static int closed_by_server(int fd, int ms)
{
    uint64_t end = cm_now_ns() + (uint64_t)ms * 1000000u;

    do {
        struct pollfd p = {fd, POLLIN | POLLRDHUP, 0};
        if (poll(&p, 1, ms > 0 ? 50 : 0) > 0 &&
            (p.revents & (POLLERR | POLLHUP | POLLRDHUP)))
            return 1;
    } while (cm_now_ns() < end);
    return 0;
}

/* One 64 KiB READ on the reader's connection, answered in full. */
static void read_answered(struct rp_client *c, const nfs_fh3 *fh)
{
    READ3args a = {*fh, 0, 65536};
    READ3res r;

    memset(&r, 0, sizeof(r));
    assert_int_equal(nf3_read(c, &a, &r), 0);
    assert_int_equal(r.status, NFS3_OK);
    assert_int_equal(r.READ3res_u.resok.count, 65536);
    xdr_free((xdrproc_t)xdr_READ3res, (char *)&r);
}

/* Six peers that flood READ calls without reading the replies could pin
 * about 4.5 MiB each; with an 8 MiB budget the server closes those that
 * pin the most until the sum is under it (shed, counted with their
 * bytes), while a client that reads its replies, connected all along, is
 * answered before, during and after and never closed. */
static void offenders_are_shed_past_the_budget_and_readers_served(void **state)
{
    enum { PEERS = 6, CALLS = 400 };
    struct sv_config cfg;
    struct sv_conn_stats st;
    struct nf_mount_opts o;
    struct nf_mount m;
    struct th_nfsd v;
    char err[CM_ERR_LEN], fhbuf[NFS3_FHSIZE];
    nfs_fh3 fh;
    int fds[PEERS], closed = 0;

    (void)state;
    th_nfsd_config(&cfg, "127.0.0.1");
    cfg.max_buffer_bytes = 8u << 20;
    assert_int_equal(th_nfsd_start(&v, &cfg), 0);
    nf_mount_opts_init(&o, 3);
    o.transport = o.mount_transport = RP_TCP;
    o.timeout_ms = 5000;
    assert_int_equal(nf_mount(&m, v.url, &o, err, sizeof(err)), 0);
    make_file(&m, &fh, fhbuf);
    read_answered(m.nfs, &fh);
    for (int i = 0; i < PEERS; i++) {
        fds[i] = flood_peer(v.nfs_port, &fh, CALLS);
        read_answered(m.nfs, &fh); /* served while the others pile up */
    }
    /* the shedding takes what a busy machine gives it: until three peers
     * saw their reset (20 s at most); then, the server halted, every reset
     * it sent has arrived, and the peers that saw one are those it shed */
    for (uint64_t end = cm_now_ns() + 20000000000u; cm_now_ns() < end;) {
        closed = 0;
        for (int i = 0; i < PEERS; i++)
            closed += closed_by_server(fds[i], 0);
        if (closed >= 3)
            break;
        poll(NULL, 0, 50);
    }
    read_answered(m.nfs, &fh);
    nf_umount(&m);
    assert_int_equal(th_nfsd_halt(&v), 0);
    closed = 0;
    for (int i = 0; i < PEERS; i++)
        closed += closed_by_server(fds[i], 100);
    sv_server_conn_stats(v.s, &st);
    print_message("shed %llu connections (%llu bytes), %d seen closed; peak %llu\n",
                  (unsigned long long)st.shed, (unsigned long long)st.shed_bytes, closed,
                  (unsigned long long)st.buffer_bytes_peak);
    assert_int_equal(st.buffer_limit, 8u << 20);
    assert_true(st.shed >= 3 && st.shed < PEERS); /* 6 x 4.5 MiB down to 8 MiB */
    assert_int_equal(closed, (int)st.shed);
    assert_true(st.shed_bytes >= st.shed * (2u << 20));
    /* never more than the budget and one connection's growth */
    assert_true(st.buffer_bytes_peak <= (8u << 20) + (5u << 20));
    assert_true(st.buffer_bytes <= 8u << 20);
    assert_int_equal(st.closed_no_memory, 0);
    sv_server_destroy(v.s);
    for (int i = 0; i < PEERS; i++)
        close(fds[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(serves_v3_over_tcp_and_v2_over_udp_on_loopback),
        cmocka_unit_test(one_port_serves_both_programs),
        cmocka_unit_test(ipv6_loopback_serves_its_peers),
        cmocka_unit_test(a_port_in_use_and_a_bad_address_are_one_line_each),
        cmocka_unit_test(a_stats_dump_on_request),
        cmocka_unit_test(delayed_replies_are_all_sent_after_their_delay),
        cmocka_unit_test(a_delayed_reply_without_memory_is_counted_as_lost),
        cmocka_unit_test(a_connection_without_memory_is_closed_and_counted),
        cmocka_unit_test(offenders_are_shed_past_the_budget_and_readers_served),
    };

    th_nfsd_signals();
    return cmocka_run_group_tests_name("server_net", tests, NULL, NULL);
}
