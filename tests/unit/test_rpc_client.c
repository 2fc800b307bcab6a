/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rpc_client.c - unit tests of the rpc engine core against a scripted
 * peer on the other end of a socketpair (one test: UDP on 127.0.0.1): XID
 * matching with replies out of order and unknown XIDs, UDP retransmission
 * with the same XID under a stepped clock, a retransmitted call completing
 * once, bounded tries, TCP timeouts without retransmission, record marking
 * with replies split and joined, garbage and truncated replies, a record
 * without memory (-ENOMEM, not garbage), RPC-level errors,
 * AUTH_SYS credentials, the in-flight limit, cancel on close, lost
 * connections; and the regressions of the review: a UDP call too big for
 * IP fails alone, bytes_sent counts partial writes, a sync call that
 * finished before a poll failure completes once.  The engine's asserted
 * invariants are live in every build: a call started twice aborts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/alloc.h"
#include "rpc/recmark.h"
#include "rpc/rp.h"
#include "common/error.h"
#include "common/clock.h"

#define PROG 0x20000099u
#define VERS 1u

/* ---- a stepped clock ------------------------------------------------------ */

static uint64_t fake_now = 1000000000ull;
static uint64_t fake_clock_now(void *data)
{
    (void)data;
    return fake_now;
}
static const struct cm_clock fake_clock = {fake_clock_now, NULL};

/* ---- the scripted peer ---------------------------------------------------- */

struct peer_call {
    uint32_t xid, prog, vers, proc, arg;
    struct authunix_parms cred;
    char machine[256];
    gid_t gids[32];
};

/* Reads one call from the peer's end (blocking, bounded by poll); returns
 * 0 or -1 when nothing arrives within 1 s. */
static int peer_recv(int fd, int stream, struct peer_call *pc)
{
    uint8_t buf[4096], *p = buf;
    struct opaque_auth cred, verf;
    char credbuf[MAX_AUTH_BYTES], verfbuf[MAX_AUTH_BYTES];
    struct pollfd pf = {fd, POLLIN, 0};
    uint32_t mtype = 0, rpcvers = 0;
    ssize_t n;
    XDR x, cx;

    if (poll(&pf, 1, 1000) != 1)
        return -1;
    if (stream) {
        uint8_t m[4];
        size_t len;

        assert_int_equal(read(fd, m, 4), 4);
        len = ((size_t)(m[0] & 0x7f) << 24) | ((size_t)m[1] << 16) | ((size_t)m[2] << 8) |
              m[3];
        assert_true(m[0] & 0x80);
        assert_true(len <= sizeof(buf));
        n = 0;
        while ((size_t)n < len) {
            ssize_t k = read(fd, buf + n, len - (size_t)n);

            assert_true(k > 0);
            n += k;
        }
    } else {
        n = recv(fd, buf, sizeof(buf), 0);
        assert_true(n > 0);
    }
    xdrmem_create(&x, (char *)p, (u_int)n, XDR_DECODE);
    cred.oa_base = credbuf;
    verf.oa_base = verfbuf;
    assert_true(xdr_u_int(&x, &pc->xid) && xdr_u_int(&x, &mtype) &&
                xdr_u_int(&x, &rpcvers) && xdr_u_int(&x, &pc->prog) &&
                xdr_u_int(&x, &pc->vers) && xdr_u_int(&x, &pc->proc) &&
                xdr_opaque_auth(&x, &cred) && xdr_opaque_auth(&x, &verf) &&
                xdr_u_int(&x, &pc->arg));
    assert_int_equal(mtype, CALL);
    assert_int_equal(rpcvers, 2);
    assert_int_equal(cred.oa_flavor, AUTH_SYS);
    memset(&pc->cred, 0, sizeof(pc->cred));
    pc->cred.aup_machname = pc->machine;
    pc->cred.aup_gids = pc->gids;
    xdrmem_create(&cx, cred.oa_base, cred.oa_length, XDR_DECODE);
    assert_true(xdr_authunix_parms(&cx, &pc->cred));
    return 0;
}

/* 1 when nothing is waiting at the peer. */
static int peer_recv_nowait_empty(int fd)
{
    struct pollfd pf = {fd, POLLIN, 0};

    return poll(&pf, 1, 0) == 0;
}

/* Encodes a reply into buf (with a marker when stream); returns its size. */
static size_t make_reply(uint8_t *buf, size_t cap, int stream, uint32_t xid,
                         uint32_t accept, uint32_t value)
{
    uint32_t w[] = {xid, REPLY, MSG_ACCEPTED, AUTH_NONE, 0, accept, value, value + 2};
    size_t nw = accept == SUCCESS ? 7 : accept == PROG_MISMATCH ? 8 : 6;
    size_t off = stream ? 4 : 0, i;
    XDR x;

    xdrmem_create(&x, (char *)buf + off, (u_int)(cap - off), XDR_ENCODE);
    for (i = 0; i < nw; i++)
        assert_true(xdr_u_int(&x, &w[i]));
    if (stream)
        rp_recmark_put(buf, xdr_getpos(&x), 1);
    return off + xdr_getpos(&x);
}

static void peer_reply(int fd, int stream, uint32_t xid, uint32_t value)
{
    uint8_t buf[128];
    size_t n = make_reply(buf, sizeof(buf), stream, xid, SUCCESS, value);

    assert_int_equal(write(fd, buf, n), (ssize_t)n);
}

/* ---- the client side ------------------------------------------------------ */

struct tcall {
    struct rp_call call;
    uint32_t arg, res;
    int done_count;
};

static void tcall_done(struct rp_call *call, void *data)
{
    struct tcall *t = data;

    (void)call;
    t->done_count++;
}

static void tcall_prepare(struct tcall *t, uint32_t arg, uint32_t timeout_ms)
{
    memset(t, 0, sizeof(*t));
    t->arg = arg;
    rp_call_prepare(&t->call, 7, (xdrproc_t)xdr_u_int, &t->arg, (xdrproc_t)xdr_u_int,
                    &t->res, timeout_ms, tcall_done, t);
}

struct fixture {
    struct rp_client *c;
    int peer;
    int stream;
};

static void open_pair(struct fixture *f, int stream, struct rp_client_opts *o)
{
    int sv[2];
    char err[CM_ERR_LEN];

    assert_int_equal(socketpair(AF_UNIX, stream ? SOCK_STREAM : SOCK_DGRAM, 0, sv), 0);
    f->peer = sv[1];
    f->stream = stream;
    o->clock = &fake_clock;
    assert_int_equal(rp_client_open_fd(&f->c, sv[0], stream ? RP_TCP : RP_UDP, PROG, VERS,
                                       o, err, sizeof(err)),
                     0);
}

static void close_pair(struct fixture *f)
{
    rp_client_close(f->c);
    close(f->peer);
}

/* Services the client until it has nothing readable (bounded). */
static void pump_client(struct rp_client *c)
{
    int i;

    for (i = 0; i < 10; i++)
        (void)rp_client_service(c, POLLIN);
}

/* Starts n calls (arguments first_arg, first_arg + 1...) and has the peer
 * receive each. */
static void start_calls(struct fixture *f, struct tcall *t, struct peer_call *pc, int n,
                        uint32_t first_arg, uint32_t timeout_ms)
{
    int i;

    for (i = 0; i < n; i++) {
        tcall_prepare(&t[i], first_arg + (uint32_t)i, timeout_ms);
        assert_int_equal(rp_call_start(f->c, &t[i].call), 0);
        assert_int_equal(peer_recv(f->peer, f->stream, &pc[i]), 0);
    }
}

/* ---- tests ---------------------------------------------------------------- */

static void replies_match_calls_by_xid(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t[3];
    struct peer_call pc[3];
    struct rp_client_stats st;
    int i;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 0, &o);
    start_calls(&f, t, pc, 3, 10, 1000);
    assert_int_equal(rp_client_in_flight(f.c), 3);
    assert_true(pc[0].xid != pc[1].xid && pc[1].xid != pc[2].xid);
    peer_reply(f.peer, 0, pc[2].xid + 1000, 99); /* nobody waits for it */
    for (i = 2; i >= 0; i--)
        peer_reply(f.peer, 0, pc[i].xid, pc[i].arg + 1);
    fake_now += 5000;
    pump_client(f.c);
    for (i = 0; i < 3; i++) {
        assert_int_equal(t[i].done_count, 1);
        assert_int_equal(t[i].call.status, 0);
        assert_int_equal(t[i].res, t[i].arg + 1);
        assert_int_equal(t[i].call.xid, pc[i].xid);
        assert_int_equal(rp_call_usec(&t[i].call), 5);
    }
    rp_client_stats(f.c, &st);
    assert_int_equal(st.unknown_xid, 1);
    assert_int_equal(st.replies, 3);
    assert_int_equal(rp_client_in_flight(f.c), 0);
    close_pair(&f);
}

static void udp_retransmits_with_the_same_xid_and_completes_once(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;
    struct peer_call a, b;
    struct rp_client_stats st;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 0, &o);
    tcall_prepare(&t, 5, 1000);
    assert_int_equal(rp_call_start(f.c, &t.call), 0);
    assert_int_equal(peer_recv(f.peer, 0, &a), 0); /* dropped by the "network" */
    fake_now += 999ull * 1000000;
    pump_client(f.c);
    assert_int_equal(peer_recv_nowait_empty(f.peer), 1);
    fake_now += 2ull * 1000000;
    pump_client(f.c);
    assert_int_equal(peer_recv(f.peer, 0, &b), 0);
    assert_int_equal(a.xid, b.xid);
    assert_int_equal(t.done_count, 0);
    peer_reply(f.peer, 0, b.xid, 6);
    peer_reply(f.peer, 0, b.xid, 6); /* both sends answered */
    pump_client(f.c);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, 0);
    assert_int_equal(t.call.retransmits, 1);
    assert_int_equal(t.res, 6);
    rp_client_stats(f.c, &st);
    assert_int_equal(st.retransmits, 1);
    assert_int_equal(st.unknown_xid, 1);
    close_pair(&f);
}

static void udp_gives_up_after_the_tries(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;
    struct peer_call pc;
    int sends = 0, i;

    (void)state;
    rp_client_opts_init(&o);
    o.udp_tries = 3;
    open_pair(&f, 0, &o);
    tcall_prepare(&t, 1, 2000);
    assert_int_equal(rp_call_start(f.c, &t.call), 0);
    for (i = 0; i < 5; i++) {
        while (!peer_recv_nowait_empty(f.peer)) {
            assert_int_equal(peer_recv(f.peer, 0, &pc), 0);
            sends++;
        }
        fake_now += 2001ull * 1000000;
        pump_client(f.c);
    }
    assert_int_equal(sends, 3);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_TIMEDOUT);
    assert_int_equal(t.call.retransmits, 2);
    assert_int_equal(rp_client_timeout_ms(f.c), -1);
    close_pair(&f);
}

static void tcp_times_out_without_retransmitting(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;
    struct peer_call pc;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 1, &o);
    tcall_prepare(&t, 1, 3000);
    assert_int_equal(rp_call_start(f.c, &t.call), 0);
    assert_int_equal(peer_recv(f.peer, 1, &pc), 0);
    assert_int_equal(rp_client_timeout_ms(f.c), 3000);
    fake_now += 3001ull * 1000000;
    assert_int_equal(rp_client_timeout_ms(f.c), 0);
    pump_client(f.c);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_TIMEDOUT);
    assert_int_equal(peer_recv_nowait_empty(f.peer), 1);
    /* the late reply is dropped as unknown */
    peer_reply(f.peer, 1, pc.xid, 2);
    pump_client(f.c);
    assert_int_equal(t.done_count, 1);
    close_pair(&f);
}

static void tcp_replies_split_across_reads_and_joined_in_one(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t[3];
    struct peer_call pc[3];
    uint8_t buf[512];
    size_t n, i;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 1, &o);
    start_calls(&f, t, pc, 3, 0, 5000);
    /* reply 0 one byte at a time, the client servicing between bytes */
    n = make_reply(buf, sizeof(buf), 1, pc[0].xid, SUCCESS, 1000);
    for (i = 0; i < n; i++) {
        assert_int_equal(write(f.peer, buf + i, 1), 1);
        pump_client(f.c);
        assert_int_equal(t[0].done_count, i + 1 == n);
    }
    /* replies 2 and 1 in one write */
    n = make_reply(buf, sizeof(buf), 1, pc[2].xid, SUCCESS, 1002);
    n += make_reply(buf + n, sizeof(buf) - n, 1, pc[1].xid, SUCCESS, 1001);
    assert_int_equal(write(f.peer, buf, n), (ssize_t)n);
    pump_client(f.c);
    for (i = 0; i < 3; i++) {
        assert_int_equal(t[i].done_count, 1);
        assert_int_equal(t[i].call.status, 0);
        assert_int_equal(t[i].res, 1000 + i);
    }
    close_pair(&f);
}

/* An unsigned int read in place (xdr_inline), as the NFSv4 client's
 * decoder reads fixed parts: libtirpc's memory stream gives NULL on a
 * buffer that does not start on a word, whatever is left in it. */
static bool_t xdr_u_int_in_place(XDR *x, void *p)
{
    const int32_t *w;

    if (x->x_op != XDR_DECODE)
        return xdr_u_int(x, p);
    if ((w = xdr_inline(x, 4)) == NULL)
        return FALSE;
    *(u_int *)p = (u_int)ntohl((uint32_t)*w);
    return TRUE;
}

/* A read that ends inside a word (TCP cuts segments at any byte: at the
 * MSS, where the window closes) leaves every record of the next read off
 * a word in the receive buffer.  Each reply still decodes - sfs_ping
 * -4 at 64 calls in flight lost half its 4 KiB READ replies as undecodable
 * before. */
static void tcp_replies_after_a_read_ending_inside_a_word_decode(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t[4];
    struct peer_call pc[4];
    uint8_t buf[512];
    size_t n, cut, i;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 1, &o);
    start_calls(&f, t, pc, 4, 0, 5000);
    for (i = 0; i < 4; i++)
        t[i].call.res_codec = (xdrproc_t)xdr_u_int_in_place;
    /* reply 0 and the first 2 bytes of reply 1, then the rest of 1 with 2
     * and 3 whole: 2 and 3 arrive in one read that began 2 bytes into a
     * word */
    n = 0;
    for (i = 0; i < 4; i++)
        n += make_reply(buf + n, sizeof(buf) - n, 1, pc[i].xid, SUCCESS,
                        2000 + (uint32_t)i);
    cut = make_reply(buf, sizeof(buf), 1, pc[0].xid, SUCCESS, 2000) + 2;
    assert_int_equal(write(f.peer, buf, cut), (ssize_t)cut);
    pump_client(f.c);
    assert_int_equal(t[0].done_count, 1);
    assert_int_equal(t[1].done_count, 0);
    assert_int_equal(write(f.peer, buf + cut, n - cut), (ssize_t)(n - cut));
    pump_client(f.c);
    for (i = 0; i < 4; i++) {
        assert_int_equal(t[i].done_count, 1);
        assert_int_equal(t[i].call.status, 0);
        assert_int_equal(t[i].res, 2000 + i);
    }
    close_pair(&f);
}

static void garbage_and_truncated_replies_fail_with_eproto(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t[2];
    struct peer_call pc[2];
    struct rp_client_stats st;
    uint8_t buf[128];
    size_t n;
    int i;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 0, &o);
    start_calls(&f, t, pc, 2, 1, 1000);
    /* too short to be a reply: dropped, counted */
    assert_int_equal(write(f.peer, "\1\2\3", 3), 3);
    /* call 0: a reply cut before its result */
    n = make_reply(buf, sizeof(buf), 0, pc[0].xid, SUCCESS, 1);
    assert_int_equal(write(f.peer, buf, n - 4), (ssize_t)(n - 4));
    /* call 1: the right XID but not a reply at all */
    n = make_reply(buf, sizeof(buf), 0, pc[1].xid, SUCCESS, 1);
    buf[7] = 0; /* REPLY -> CALL */
    assert_int_equal(write(f.peer, buf, n), (ssize_t)n);
    pump_client(f.c);
    for (i = 0; i < 2; i++) {
        assert_int_equal(t[i].done_count, 1);
        assert_int_equal(t[i].call.status, RP_ERR_GARBAGE);
    }
    assert_true(strlen(rp_client_last_error(f.c)) > 0);
    rp_client_stats(f.c, &st);
    assert_int_equal(st.garbage, 3);
    close_pair(&f);
}

/* A TCP reply record the receive buffer cannot grow for is the client's
 * own shortage: the call fails with -ENOMEM and its text, counted as
 * no_memory, never as the server's garbage. */
static void a_record_without_memory_fails_with_enomem_not_garbage(void **state)
{
    static uint8_t rec[16384];
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;
    struct peer_call pc;
    struct rp_client_stats st;
    size_t n;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 1, &o);
    start_calls(&f, &t, &pc, 1, 1, 1000);
    n = make_reply(rec, sizeof(rec), 1, pc.xid, SUCCESS, 1);
    assert_true(n < 64);
    rp_recmark_put(rec, sizeof(rec) - 4, 1); /* padded to 16 KiB */
    /* half of it: the engine must keep the part (a whole record in one
     * read is decoded where it lies) */
    assert_int_equal(write(f.peer, rec, sizeof(rec) / 2), (ssize_t)sizeof(rec) / 2);
    cm_alloc_fail_nth(1, 1);
    pump_client(f.c);
    cm_alloc_fail_off();
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, -ENOMEM);
    assert_non_null(strstr(rp_client_last_error(f.c), "out of memory"));
    rp_client_stats(f.c, &st);
    assert_int_equal(st.no_memory, 1);
    assert_int_equal(st.garbage, 0);
    close_pair(&f);
}

static void rpc_errors_map_to_errnos(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t[2];
    struct peer_call pc[2];
    uint8_t buf[128];
    size_t n;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 0, &o);
    start_calls(&f, t, pc, 2, 1, 1000);
    n = make_reply(buf, sizeof(buf), 0, pc[0].xid, PROG_MISMATCH, 3);
    assert_int_equal(write(f.peer, buf, n), (ssize_t)n);
    n = make_reply(buf, sizeof(buf), 0, pc[1].xid, PROC_UNAVAIL, 0);
    assert_int_equal(write(f.peer, buf, n), (ssize_t)n);
    pump_client(f.c);
    assert_int_equal(t[0].call.status, RP_ERR_PROG_MISMATCH);
    assert_int_equal(t[0].call.low_version, 3);
    assert_int_equal(t[0].call.high_version, 5);
    assert_int_equal(t[1].call.status, RP_ERR_PROC_UNAVAIL);
    assert_string_equal(rp_status_text(RP_ERR_PROG_MISMATCH), "program version mismatch");
    close_pair(&f);
}

/* Every other reply the decoder can meet - denied, truncated, unknown
 * statuses - fails its call alone with the matching errno and a reason
 * naming what was wrong. */
static void denied_and_odd_replies_fail_with_their_reason(void **state)
{
    static const struct {
        uint32_t w[6]; /* after the XID and REPLY */
        int n;
        int status;
        const char *reason;
    } cases[] = {
        {{MSG_DENIED, RPC_MISMATCH, 2, 2},
         4,
         RP_ERR_RPC_MISMATCH,
         "server speaks RPC versions 2..2, not 2"},
        {{MSG_DENIED, RPC_MISMATCH, 2},
         3,
         RP_ERR_GARBAGE,
         "RPC_MISMATCH reply truncated"},
        {{MSG_DENIED, AUTH_ERROR, AUTH_TOOWEAK},
         3,
         RP_ERR_AUTH,
         "server refused the credentials (auth_stat 5)"},
        {{MSG_DENIED, AUTH_ERROR},
         2,
         RP_ERR_AUTH,
         "server refused the credentials (auth_stat 0)"},
        {{MSG_DENIED, 9}, 2, RP_ERR_GARBAGE, "unknown reject status 9"},
        {{MSG_DENIED}, 1, RP_ERR_GARBAGE, "denied reply truncated"},
        {{7}, 1, RP_ERR_GARBAGE, "bad reply status 7"},
        {{MSG_ACCEPTED, AUTH_NONE}, 2, RP_ERR_GARBAGE, "truncated header"},
        {{MSG_ACCEPTED, AUTH_NONE, 0, PROG_MISMATCH, 3},
         5,
         RP_ERR_GARBAGE,
         "PROG_MISMATCH reply truncated"},
        {{MSG_ACCEPTED, AUTH_NONE, 0, PROG_UNAVAIL},
         4,
         RP_ERR_PROG_UNAVAIL,
         "program 536871065 not available"},
        {{MSG_ACCEPTED, AUTH_NONE, 0, GARBAGE_ARGS},
         4,
         RP_ERR_GARBAGE_ARGS,
         "server could not decode the arguments of proc 7"},
        {{MSG_ACCEPTED, AUTH_NONE, 0, SYSTEM_ERR},
         4,
         RP_ERR_SYSTEM,
         "server system error (proc 7)"},
        {{MSG_ACCEPTED, AUTH_NONE, 0, 42}, 4, RP_ERR_GARBAGE, "unknown accept status 42"},
    };
    struct rp_client_opts o;
    struct fixture f;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 0, &o);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tcall t;
        struct peer_call pc;
        uint8_t buf[64];
        XDR x;
        uint32_t head[2];

        tcall_prepare(&t, 1, 1000);
        assert_int_equal(rp_call_start(f.c, &t.call), 0);
        assert_int_equal(peer_recv(f.peer, 0, &pc), 0);
        head[0] = pc.xid;
        head[1] = REPLY;
        xdrmem_create(&x, (char *)buf, sizeof(buf), XDR_ENCODE);
        for (int k = 0; k < 2; k++)
            assert_true(xdr_u_int(&x, &head[k]));
        for (int k = 0; k < cases[i].n; k++) {
            u_int w = cases[i].w[k];
            assert_true(xdr_u_int(&x, &w));
        }
        assert_int_equal(write(f.peer, buf, xdr_getpos(&x)), (ssize_t)xdr_getpos(&x));
        pump_client(f.c);
        assert_int_equal(t.done_count, 1);
        assert_int_equal(t.call.status, cases[i].status);
        assert_non_null(strstr(rp_client_last_error(f.c), cases[i].reason));
    }
    assert_int_equal(rp_client_in_flight(f.c), 0);
    close_pair(&f);
}

static void auth_sys_carries_the_requested_ids(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;
    struct peer_call pc;

    (void)state;
    rp_client_opts_init(&o);
    o.uid = 4321;
    o.gid = 765;
    o.ngids = 2;
    o.gids[0] = 11;
    o.gids[1] = 12;
    o.machine_name = "client7";
    open_pair(&f, 0, &o);
    tcall_prepare(&t, 1, 1000);
    assert_int_equal(rp_call_start(f.c, &t.call), 0);
    assert_int_equal(peer_recv(f.peer, 0, &pc), 0);
    assert_int_equal(pc.prog, PROG);
    assert_int_equal(pc.vers, VERS);
    assert_int_equal(pc.proc, 7);
    assert_int_equal(pc.cred.aup_uid, 4321);
    assert_int_equal(pc.cred.aup_gid, 765);
    assert_int_equal(pc.cred.aup_len, 2);
    assert_int_equal(pc.cred.aup_gids[1], 12);
    assert_string_equal(pc.cred.aup_machname, "client7");
    close_pair(&f);
}

static void in_flight_limit_refuses_without_callback(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t[3];
    int i;

    (void)state;
    rp_client_opts_init(&o);
    o.max_in_flight = 2;
    open_pair(&f, 0, &o);
    for (i = 0; i < 3; i++)
        tcall_prepare(&t[i], 1, 1000);
    assert_int_equal(rp_call_start(f.c, &t[0].call), 0);
    assert_int_equal(rp_call_start(f.c, &t[1].call), 0);
    assert_int_equal(rp_call_start(f.c, &t[2].call), -EAGAIN);
    /* closing cancels the two in flight, each once; the refused one never */
    rp_client_close(f.c);
    close(f.peer);
    assert_int_equal(t[0].done_count, 1);
    assert_int_equal(t[0].call.status, RP_ERR_CANCELED);
    assert_int_equal(t[1].done_count, 1);
    assert_int_equal(t[2].done_count, 0);
}

static void lost_connection_fails_calls_and_refuses_new_ones(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 1, &o);
    tcall_prepare(&t, 1, 1000);
    assert_int_equal(rp_call_start(f.c, &t.call), 0);
    close(f.peer);
    pump_client(f.c);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_CONNRESET);
    tcall_prepare(&t, 1, 1000);
    assert_int_equal(rp_call_start(f.c, &t.call), -ENOTCONN);
    rp_client_close(f.c);
    assert_int_equal(t.done_count, 0);
}

/* ---- large arguments ------------------------------------------------------ */

struct big_args {
    u_int len;
    char data[65536];
};

static bool_t xdr_big_args(XDR *x, void *p)
{
    struct big_args *b = p;

    return xdr_opaque(x, b->data, b->len);
}

static struct big_args big; /* static: 64 KiB is too much for a test's stack */

/* Regression: a UDP call between 65508 and 65536 bytes used to pass the
 * encoder (capped at 65536) and then fail in sendmmsg with EMSGSIZE, which
 * the core took for a socket failure and failed every call in flight.  Now
 * the encoder knows the largest UDP payload, so only that call fails, with
 * RP_ERR_ENCODE, and the others go on.  Real UDP sockets on 127.0.0.1: the
 * limit is IP's, an AF_UNIX socketpair would not show it. */
static void udp_oversize_call_fails_alone(void **state)
{
    struct rp_client_opts o;
    struct rp_client *c;
    struct sockaddr_in sin;
    socklen_t slen = sizeof(sin);
    struct tcall a, b;
    struct peer_call pc;
    char err[CM_ERR_LEN];
    int peer;

    (void)state;
    peer = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(peer >= 0);
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(peer, (struct sockaddr *)&sin, sizeof(sin)), 0);
    assert_int_equal(getsockname(peer, (struct sockaddr *)&sin, &slen), 0);
    rp_client_opts_init(&o);
    o.clock = &fake_clock;
    o.machine_name = "m";
    o.uid = o.gid = 0;
    o.ngids = 0; /* header: 24 + 32 (AUTH_SYS) + 8 (verifier) = 64 bytes */
    assert_int_equal(rp_client_open(&c, (struct sockaddr *)&sin, sizeof(sin), PROG, VERS,
                                    &o, 1000, err, sizeof(err)),
                     0);
    tcall_prepare(&a, 1, 1000);
    assert_int_equal(rp_call_start(c, &a.call), 0);
    assert_int_equal(peer_recv(peer, 0, &pc), 0);
    /* 64 + 65456 = 65520 bytes: over IPv4's 65507, under 65536 */
    big.len = 65456;
    memset(&b, 0, sizeof(b));
    rp_call_prepare(&b.call, 8, (xdrproc_t)xdr_big_args, &big, (xdrproc_t)xdr_u_int,
                    &b.res, 1000, tcall_done, &b);
    assert_int_equal(rp_call_start(c, &b.call), 0);
    pump_client(c);
    assert_int_equal(b.done_count, 1);
    assert_int_equal(b.call.status, RP_ERR_ENCODE);
    /* the first call is still waiting and its reply completes it */
    assert_int_equal(a.done_count, 0);
    {
        struct sockaddr_storage from;
        socklen_t flen = sizeof(from);
        uint8_t buf[128];
        size_t n = make_reply(buf, sizeof(buf), 0, pc.xid, SUCCESS, 42);

        assert_int_equal(getsockname(rp_client_fd(c), (struct sockaddr *)&from, &flen),
                         0);
        assert_int_equal(sendto(peer, buf, n, 0, (struct sockaddr *)&from, flen),
                         (ssize_t)n);
    }
    for (int i = 0; i < 100 && a.done_count == 0; i++) {
        struct pollfd pf = {rp_client_fd(c), POLLIN, 0};

        (void)poll(&pf, 1, 10);
        (void)rp_client_service(c, pf.revents);
    }
    assert_int_equal(a.done_count, 1);
    assert_int_equal(a.call.status, 0);
    assert_int_equal(a.res, 42);
    rp_client_close(c);
    close(peer);
}

/* Regression: bytes_sent lost the bytes of a partial write (the socket
 * filled up mid-batch): pump counted only what the last, completing flush
 * wrote.  Fills a small stream socket, drains it at the peer, and checks
 * that the client counted exactly the bytes the peer read. */
static void bytes_sent_counts_partial_writes(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    static struct tcall t[64];
    struct rp_client_stats st;
    uint8_t buf[65536];
    size_t got = 0;
    int i, busy = 0;

    (void)state;
    rp_client_opts_init(&o);
    o.sndbuf_bytes = 4096;
    o.max_in_flight = 64;
    open_pair(&f, 1, &o);
    big.len = 30000; // more than the socket takes at once: partial writes
    for (i = 0; i < 64; i++) {
        memset(&t[i], 0, sizeof(t[i]));
        rp_call_prepare(&t[i].call, 8, (xdrproc_t)xdr_big_args, &big,
                        (xdrproc_t)xdr_u_int, &t[i].res, 60000, tcall_done, &t[i]);
        assert_int_equal(rp_call_start(f.c, &t[i].call), 0);
        if (rp_client_events(f.c) & POLLOUT)
            busy = 1;
    }
    assert_true(busy); /* the socket did fill up */
    for (i = 0; i < 10000; i++) {
        struct pollfd pf = {f.peer, POLLIN, 0};
        ssize_t n;

        if (poll(&pf, 1, 0) == 1) {
            n = read(f.peer, buf, sizeof(buf));
            assert_true(n > 0);
            got += (size_t)n;
        }
        (void)rp_client_service(f.c, POLLOUT);
        if (!(rp_client_events(f.c) & POLLOUT) && poll(&pf, 1, 0) == 0)
            break;
    }
    assert_false(rp_client_events(f.c) & POLLOUT);
    rp_client_stats(f.c, &st);
    assert_int_equal(st.bytes_sent, got);
    close_pair(&f);
}

/* Starts n calls of 30 000 bytes on a stream whose socket holds 4 KiB, so
 * that the later ones wait on the send queue; returns the first XID (the
 * others follow it: XIDs are sequential). */
static uint32_t fill_the_socket(struct fixture *f, struct tcall *t, int n,
                                uint32_t timeout_ms)
{
    struct rp_client_opts o;

    rp_client_opts_init(&o);
    o.sndbuf_bytes = 4096;
    o.max_in_flight = (unsigned)n;
    open_pair(f, 1, &o);
    big.len = 30000;
    for (int i = 0; i < n; i++) {
        memset(&t[i], 0, sizeof(t[i]));
        rp_call_prepare(&t[i].call, 8, (xdrproc_t)xdr_big_args, &big,
                        (xdrproc_t)xdr_u_int, &t[i].res, timeout_ms, tcall_done, &t[i]);
        assert_int_equal(rp_call_start(f->c, &t[i].call), 0);
    }
    assert_true(rp_client_events(f->c) & POLLOUT); /* calls wait for room */
    return t[0].call.xid;
}

/* Reads everything the client still sends (servicing its POLLOUT) and
 * says whether a record with XID xid went by.  Bounded. */
static int peer_sees_xid(struct fixture *f, uint32_t xid)
{
    static uint8_t stream[4 << 20];
    size_t len = 0, off = 0;
    int seen = 0;

    for (int i = 0; i < 10000; i++) {
        struct pollfd pf = {f->peer, POLLIN, 0};

        if (poll(&pf, 1, 0) == 1) {
            ssize_t n = read(f->peer, stream + len, sizeof(stream) - len);
            assert_true(n > 0);
            len += (size_t)n;
        }
        (void)rp_client_service(f->c, POLLOUT);
        if (!(rp_client_events(f->c) & POLLOUT) && poll(&pf, 1, 0) == 0)
            break;
    }
    while (off + 8 <= len) { /* record mark, then the XID */
        uint32_t rec = ((uint32_t)(stream[off] & 0x7f) << 24) |
                       (uint32_t)stream[off + 1] << 16 | (uint32_t)stream[off + 2] << 8 |
                       stream[off + 3];
        uint32_t x = (uint32_t)stream[off + 4] << 24 | (uint32_t)stream[off + 5] << 16 |
                     (uint32_t)stream[off + 6] << 8 | stream[off + 7];

        seen |= x == xid;
        off += 4 + rec;
    }
    return seen;
}

/* A reply for a call still waiting on the send queue (a re-send after a
 * reconnection or a UDP timeout that the socket could not take yet, when
 * the first transmission's reply arrives) completes it once and takes it
 * off the queue: it is never sent. */
static void a_reply_to_a_queued_call_takes_it_off_the_queue(void **state)
{
    struct fixture f;
    static struct tcall t[16];
    uint32_t first;

    (void)state;
    first = fill_the_socket(&f, t, 16, 60000);
    peer_reply(f.peer, 1, first + 15, 7);
    for (int i = 0; i < 10 && t[15].done_count == 0; i++)
        (void)rp_client_service(f.c, POLLIN);
    assert_int_equal(t[15].done_count, 1);
    assert_int_equal(t[15].call.status, 0);
    assert_int_equal(t[15].res, 7);
    assert_false(peer_sees_xid(&f, first + 15));
    assert_int_equal(rp_client_in_flight(f.c), 15);
    close_pair(&f);
    for (int i = 0; i < 16; i++)
        assert_int_equal(t[i].done_count, 1); /* the rest: canceled at close */
}

/* A TCP call whose timeout passes while it still waits for room fails
 * once with RP_ERR_TIMEDOUT and is never sent. */
static void a_call_timing_out_on_the_send_queue_fails_once_unsent(void **state)
{
    struct fixture f;
    static struct tcall t[16];
    uint32_t first;

    (void)state;
    first = fill_the_socket(&f, t, 16, 100);
    fake_now += 101ull * 1000000;
    (void)rp_client_service(f.c, 0);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(t[i].done_count, 1);
        assert_int_equal(t[i].call.status, RP_ERR_TIMEDOUT);
    }
    assert_int_equal(rp_client_in_flight(f.c), 0);
    assert_false(peer_sees_xid(&f, first + 15));
    close_pair(&f);
}

/* Regression: when poll() itself failed in rp_call_sync while the call had
 * already finished (failed at start with the socket, its callback parked
 * on the done list), the call was "withdrawn" a second time: in_flight
 * went below zero and the done list kept a pointer to the caller's call,
 * completed again at the next service, after rp_call_sync had returned
 * (a stack rp_call by then).  poll fails here with EINVAL because
 * RLIMIT_NOFILE is 0 for the duration of the call. */
static void sync_call_finished_before_a_poll_failure_completes_once(void **state)
{
    struct rp_client_opts o;
    struct fixture f;
    struct tcall t;
    struct rlimit old, none;
    int rc;

    (void)state;
    rp_client_opts_init(&o);
    open_pair(&f, 1, &o);
    close(f.peer); /* the send fails: the call completes at once */
    tcall_prepare(&t, 1, 1000);
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
    none = old;
    none.rlim_cur = 0;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &none), 0);
    rc = rp_call_sync(f.c, &t.call);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
    assert_int_equal(rc, RP_ERR_CONNRESET);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(rp_client_in_flight(f.c), 0);
    memset(&t, 0xA5, sizeof(t)); /* as a finished stack call would be */
    (void)rp_client_service(f.c, 0);
    assert_int_equal(rp_client_in_flight(f.c), 0);
    rp_client_close(f.c);
}

/* The engine's invariants are asserted in every build (docs/TESTING.md):
 * starting a call that is still in flight would put it in the XID table
 * twice and loop its chain; the assert stops the process at once instead.
 * Run in a child, whose death by SIGABRT is the expected outcome. */
static void a_call_started_twice_aborts_instead_of_corrupting_the_table(void **state)
{
    pid_t pid;
    int status = 0;

    (void)state;
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rp_client_opts o;
        struct fixture f;
        struct tcall t;
        int devnull = open("/dev/null", O_WRONLY);

        if (devnull >= 0) /* the assertion's message is expected */
            dup2(devnull, 2);
        rp_client_opts_init(&o);
        open_pair(&f, 0, &o);
        tcall_prepare(&t, 1, 1000);
        if (rp_call_start(f.c, &t.call) == 0)
            (void)rp_call_start(f.c, &t.call);
        _exit(0); /* not reached while the asserts are on */
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replies_match_calls_by_xid),
        cmocka_unit_test(udp_retransmits_with_the_same_xid_and_completes_once),
        cmocka_unit_test(udp_gives_up_after_the_tries),
        cmocka_unit_test(tcp_times_out_without_retransmitting),
        cmocka_unit_test(tcp_replies_split_across_reads_and_joined_in_one),
        cmocka_unit_test(tcp_replies_after_a_read_ending_inside_a_word_decode),
        cmocka_unit_test(garbage_and_truncated_replies_fail_with_eproto),
        cmocka_unit_test(a_record_without_memory_fails_with_enomem_not_garbage),
        cmocka_unit_test(rpc_errors_map_to_errnos),
        cmocka_unit_test(denied_and_odd_replies_fail_with_their_reason),
        cmocka_unit_test(auth_sys_carries_the_requested_ids),
        cmocka_unit_test(in_flight_limit_refuses_without_callback),
        cmocka_unit_test(lost_connection_fails_calls_and_refuses_new_ones),
        cmocka_unit_test(udp_oversize_call_fails_alone),
        cmocka_unit_test(bytes_sent_counts_partial_writes),
        cmocka_unit_test(sync_call_finished_before_a_poll_failure_completes_once),
        cmocka_unit_test(a_call_started_twice_aborts_instead_of_corrupting_the_table),
        cmocka_unit_test(a_reply_to_a_queued_call_takes_it_off_the_queue),
        cmocka_unit_test(a_call_timing_out_on_the_send_queue_fails_once_unsent),
    };

    return cmocka_run_group_tests_name("rpc_client", tests, NULL, NULL);
}
