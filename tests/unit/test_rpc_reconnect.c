/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rpc_reconnect.c - unit tests of the rpc engine's survival of a lost
 * TCP connection and of its adaptive UDP retransmission, on socketpairs
 * and a stepped clock (docs/DECISIONS.md D2, "a lost TCP connection is
 * re-established"; "population survives packet loss"):
 *  - a lost connection is reopened and the calls in flight go out again on
 *    the new one with their own XIDs, and complete once;
 *  - reopening backs off (50 ms, doubling, bounded) and gives up after
 *    reconnect_ms, failing the calls and refusing new ones;
 *  - a call still unanswered at its class timeout fails while the client
 *    is reconnecting, and new calls wait for the new connection;
 *  - without reconnect_ms a lost connection stays fatal (as before);
 *  - adaptive UDP retransmission sends again after a few round trips
 *    instead of the class timeout, doubles each wait, and keeps the class
 *    timeout x tries as the overall bound.
 * Each test fails on an engine without these features: the calls fail
 * with ECONNRESET at the first loss, and UDP waits the full class timeout
 * before its first re-send. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/bytes.h"
#include "rpc/recmark.h"
#include "rpc/rp.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/clock.h"

#define PROG 0x20000099u
#define VERS 1u
#define MS   1000000ull

static uint64_t fake_now = 1000000000ull;
static uint64_t fake_clock_now(void *data)
{
    (void)data;
    return fake_now;
}
static const struct cm_clock fake_clock = {fake_clock_now, NULL};

/* ---- the peer: reads calls, writes replies --------------------------------- */

/* Reads one call; returns its XID and argument, or -1 when nothing came
 * within wait_ms. */
static int peer_recv_wait(int fd, int stream, uint32_t *xid, uint32_t *arg, int wait_ms)
{
    uint8_t buf[2048];
    struct pollfd pf = {fd, POLLIN, 0};
    uint32_t w[16];
    ssize_t n;
    size_t off = stream ? 4 : 0, cred_len, i;

    if (poll(&pf, 1, wait_ms) != 1)
        return -1;
    if (stream) {
        uint8_t m[4];
        size_t len, got = 0;

        if (read(fd, m, 4) != 4)
            return -1;
        len = ((size_t)(m[0] & 0x7f) << 24) | ((size_t)m[1] << 16) | ((size_t)m[2] << 8) |
              m[3];
        assert_true(len <= sizeof(buf) - 4);
        while (got < len) {
            ssize_t k = read(fd, buf + 4 + got, len - got);

            assert_true(k > 0);
            got += (size_t)k;
        }
        n = (ssize_t)(len + 4);
    } else {
        n = recv(fd, buf, sizeof(buf), 0);
        if (n <= 0)
            return -1;
    }
    /* xid, CALL, 2, prog, vers, proc, cred flavor, cred length, cred... */
    for (i = 0; i < 8; i++)
        w[i] = (uint32_t)buf[off + 4 * i] << 24 | (uint32_t)buf[off + 4 * i + 1] << 16 |
               (uint32_t)buf[off + 4 * i + 2] << 8 | buf[off + 4 * i + 3];
    cred_len = (w[7] + 3) & ~3u;
    i = off + 32 + cred_len + 8; /* past the verifier (AUTH_NONE, 0) */
    assert_true((ssize_t)(i + 4) <= n);
    *xid = w[0];
    *arg = (uint32_t)buf[i] << 24 | (uint32_t)buf[i + 1] << 16 |
           (uint32_t)buf[i + 2] << 8 | buf[i + 3];
    return 0;
}

static int peer_recv(int fd, int stream, uint32_t *xid, uint32_t *arg)
{
    return peer_recv_wait(fd, stream, xid, arg, 1000);
}

static void peer_reply(int fd, int stream, uint32_t xid, uint32_t value)
{
    uint32_t w[] = {xid, REPLY, MSG_ACCEPTED, AUTH_NONE, 0, SUCCESS, value};
    uint8_t buf[64];
    size_t off = stream ? 4 : 0, i;

    for (i = 0; i < CM_ARRAY_LEN(w); i++)
        cm_be32_put(buf + off + 4 * i, w[i]);
    if (stream)
        rp_recmark_put(buf, 4 * CM_ARRAY_LEN(w), 1);
    assert_int_equal(write(fd, buf, off + 4 * CM_ARRAY_LEN(w)),
                     (ssize_t)(off + 4 * CM_ARRAY_LEN(w)));
}

/* ---- the client side ------------------------------------------------------- */

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

static void tcall_start(struct rp_client *c, struct tcall *t, uint32_t arg,
                        uint32_t timeout_ms)
{
    memset(t, 0, sizeof(*t));
    t->arg = arg;
    rp_call_prepare(&t->call, 7, (xdrproc_t)xdr_u_int, &t->arg, (xdrproc_t)xdr_u_int,
                    &t->res, timeout_ms, tcall_done, t);
    assert_int_equal(rp_call_start(c, &t->call), 0);
}

/* The reopen hook: a new socketpair per connection while `refuse` is 0. */
struct line {
    int peer;   /* the server's end of the current connection */
    int refuse; /* answer -ECONNREFUSED */
    int opens;  /* reopen calls */
    uint64_t at[16];
};

static int reopen_pair(void *data)
{
    struct line *l = data;
    int sv[2];

    if (l->opens < 16)
        l->at[l->opens] = fake_now;
    l->opens++;
    if (l->refuse)
        return -ECONNREFUSED;
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    l->peer = sv[1];
    return sv[0];
}

static struct rp_client *open_stream(struct line *l, uint32_t reconnect_ms)
{
    struct rp_client_opts o;
    struct rp_client *c;
    char err[CM_ERR_LEN];
    int sv[2];

    memset(l, 0, sizeof(*l));
    rp_client_opts_init(&o);
    o.clock = &fake_clock;
    o.reconnect_ms = reconnect_ms;
    o.reopen = reopen_pair;
    o.reopen_data = l;
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    l->peer = sv[1];
    assert_int_equal(
        rp_client_open_fd(&c, sv[0], RP_TCP, PROG, VERS, &o, err, sizeof(err)), 0);
    return c;
}

static void service(struct rp_client *c, int times)
{
    while (times-- > 0)
        (void)rp_client_service(c, POLLIN | POLLOUT);
}

/* Starts one call, lets the peer read it, then closes the connection
 * (reconnection attempts refused when refuse) and services the client
 * once, so that it notices. */
static void lose_connection(struct rp_client *c, struct line *l, struct tcall *t,
                            uint32_t timeout_ms, int refuse)
{
    uint32_t xid, a;

    tcall_start(c, t, 1, timeout_ms);
    assert_int_equal(peer_recv(l->peer, 1, &xid, &a), 0);
    l->refuse = refuse;
    close(l->peer);
    service(c, 1);
}

/* ---- tests ----------------------------------------------------------------- */

static void lost_connection_resends_the_calls_with_their_xids(void **state)
{
    struct line l;
    struct rp_client *c = open_stream(&l, 5000);
    struct tcall t[3];
    uint32_t xid[3], x, a;
    struct rp_client_stats st;
    int i, seen = 0;

    (void)state;
    for (i = 0; i < 3; i++) {
        tcall_start(c, &t[i], 10 + (uint32_t)i, 60000);
        assert_int_equal(peer_recv(l.peer, 1, &xid[i], &a), 0);
        assert_int_equal(a, 10u + (uint32_t)i);
    }
    peer_reply(l.peer, 1, xid[0], 100); /* the first is answered in time */
    service(c, 1);
    assert_int_equal(t[0].done_count, 1);
    close(l.peer); /* the server goes away */
    fake_now += 1 * MS;
    service(c, 1);
    assert_int_equal(rp_client_state(c), RP_STATE_DOWN);
    assert_int_equal(t[1].done_count + t[2].done_count, 0);
    /* a call started now waits for the new connection */
    fake_now += 1 * MS;
    tcall_start(c, &t[0], 20, 60000);
    service(c, 2);
    assert_int_equal(l.opens, 1);
    assert_int_equal(rp_client_state(c), RP_STATE_UP);
    /* the new connection carries calls 1 and 2 with their XIDs, then 20 */
    for (i = 0; i < 3; i++) {
        assert_int_equal(peer_recv(l.peer, 1, &x, &a), 0);
        if (a == 11)
            assert_int_equal(x, xid[1]), seen |= 1;
        else if (a == 12)
            assert_int_equal(x, xid[2]), seen |= 2;
        else
            assert_int_equal(a, 20), seen |= 4;
        peer_reply(l.peer, 1, x, a + 100);
    }
    assert_int_equal(seen, 7);
    fake_now += 3 * MS;
    service(c, 2);
    for (i = 0; i < 3; i++) {
        assert_int_equal(t[i].done_count, 1);
        assert_int_equal(t[i].call.status, 0);
        assert_int_equal(t[i].res, t[i].arg + 100);
    }
    assert_int_equal(t[1].call.retransmits, 1);
    assert_int_equal(t[0].call.retransmits, 0);
    /* what the socket took: twice for the calls sent again, once for the
     * call that waited for the new connection */
    assert_int_equal(t[1].call.sends, 2);
    assert_int_equal(t[0].call.sends, 1);
    /* the response time runs from the first send */
    assert_true(t[1].call.t_reply_ns - t[1].call.t_send_ns >= 5 * MS);
    rp_client_stats(c, &st);
    assert_int_equal(st.connection_losses, 1);
    assert_int_equal(st.reconnects, 1);
    rp_client_close(c);
    close(l.peer);
}

static void reconnection_backs_off_then_gives_up(void **state)
{
    struct line l;
    struct rp_client *c = open_stream(&l, 3000);
    struct tcall t, late, down;
    int i;

    (void)state;
    lose_connection(c, &l, &t, 60000, 1); /* tries at once: refused */
    assert_int_equal(rp_client_state(c), RP_STATE_DOWN);
    tcall_start(c, &down, 2, 60000); /* waits for a connection that never comes */
    /* step 10 ms at a time through 2.9 s: attempts at 0, 50, 150, 350,
     * 750, 1550, 2550 ms (backoff doubling, at most 1 s) */
    for (i = 0; i < 290; i++) {
        int to = rp_client_timeout_ms(c);

        assert_true(to >= 0 && to <= 1000);
        fake_now += 10 * MS;
        service(c, 1);
    }
    assert_int_equal(rp_client_state(c), RP_STATE_DOWN);
    assert_int_equal(t.done_count, 0);
    assert_int_equal(l.opens, 7);
    assert_true(l.at[1] - l.at[0] >= 50 * MS && l.at[1] - l.at[0] < 60 * MS);
    assert_true(l.at[6] - l.at[5] >= 1000 * MS && l.at[6] - l.at[5] < 1010 * MS);
    /* 3 s after the loss it gives up: the call fails, new ones are refused */
    fake_now += 200 * MS;
    service(c, 1);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_CONNRESET);
    assert_int_equal(rp_client_state(c), RP_STATE_DEAD);
    assert_non_null(strstr(rp_client_last_error(c), "not re-established in 3000 ms"));
    /* the call sent before the loss reached the socket; the one started
     * while the connection was down never did */
    assert_int_equal(t.call.sends, 1);
    assert_int_equal(down.done_count, 1);
    assert_int_equal(down.call.status, RP_ERR_CONNRESET);
    assert_int_equal(down.call.sends, 0);
    memset(&late, 0, sizeof(late));
    rp_call_prepare(&late.call, 7, (xdrproc_t)xdr_u_int, &late.arg, (xdrproc_t)xdr_u_int,
                    &late.res, 1000, tcall_done, &late);
    assert_int_equal(rp_call_start(c, &late.call), -ENOTCONN);
    assert_int_equal(rp_call_start(c, &late.call), -ENOTCONN);
    /* the error that closed it stays, whole (it was once formatted into
     * itself, a prefix per refused call) */
    assert_int_equal(strncmp(rp_client_last_error(c),
                             "connection lost and not re-established in 3000 ms (", 51),
                     0);
    rp_client_close(c);
}

static void a_call_past_its_timeout_fails_while_reconnecting(void **state)
{
    struct line l;
    struct rp_client *c = open_stream(&l, 30000);
    struct tcall t;

    (void)state;
    lose_connection(c, &l, &t, 2000, 1);
    fake_now += 1999 * MS;
    service(c, 1);
    assert_int_equal(t.done_count, 0);
    fake_now += 2 * MS;
    service(c, 1);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_TIMEDOUT);
    assert_int_equal(rp_client_state(c), RP_STATE_DOWN);
    /* nothing in flight: no timer wakes the caller for reconnection */
    assert_int_equal(rp_client_timeout_ms(c), -1);
    rp_client_close(c);
}

static void without_reconnect_ms_a_lost_connection_is_fatal(void **state)
{
    struct line l;
    struct rp_client *c = open_stream(&l, 0);
    struct tcall t;

    (void)state;
    lose_connection(c, &l, &t, 2000, 0);
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_CONNRESET);
    assert_int_equal(rp_client_state(c), RP_STATE_DEAD);
    assert_int_equal(l.opens, 0);
    rp_client_close(c);
}

/* Adaptive UDP timers: a 4 ms round trip measured, then a lost reply is
 * sent again after 50 ms (the floor), 100 ms, 200 ms..., never more than
 * the 1 s class timeout a wait, and the call fails 5 x 1 s after its first
 * send. */
static void adaptive_udp_retransmission(void **state)
{
    struct rp_client_opts o;
    struct rp_client *c;
    struct tcall t;
    char err[CM_ERR_LEN];
    uint64_t t0, sent_at[32] = {0};
    uint32_t xid, x, a;
    int sv[2], sends = 0;
    struct rp_client_stats st;

    (void)state;
    rp_client_opts_init(&o);
    o.clock = &fake_clock;
    o.adaptive_rto = 1;
    assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
    assert_int_equal(
        rp_client_open_fd(&c, sv[0], RP_UDP, PROG, VERS, &o, err, sizeof(err)), 0);
    /* no round trip yet: the first wait is RP_RTO_INITIAL_MS */
    tcall_start(c, &t, 1, 1000);
    assert_int_equal(rp_client_timeout_ms(c), (int)RP_RTO_INITIAL_MS);
    assert_int_equal(peer_recv(sv[1], 0, &xid, &a), 0);
    fake_now += 4 * MS;
    peer_reply(sv[1], 0, xid, 2);
    service(c, 1);
    assert_int_equal(t.done_count, 1);
    rp_client_stats(c, &st);
    assert_int_equal(st.srtt_us, 4000);
    /* now a call whose replies are all lost */
    tcall_start(c, &t, 3, 1000);
    t0 = fake_now;
    while (fake_now - t0 < 6000 * MS && t.done_count == 0) {
        while (sends < 32 && peer_recv_wait(sv[1], 0, &x, &a, 0) == 0)
            sent_at[sends++] = fake_now - t0;
        fake_now += 1 * MS;
        service(c, 1);
    }
    assert_int_equal(t.done_count, 1);
    assert_int_equal(t.call.status, RP_ERR_TIMEDOUT);
    assert_true(fake_now - t0 >= 5000 * MS && fake_now - t0 <= 5002 * MS);
    /* sends at 0, 50, 150, 350, 750, 1750, 2750, 3750, 4750 ms */
    assert_int_equal(sends, 9);
    assert_true(sent_at[1] >= 50 * MS && sent_at[1] <= 52 * MS);
    assert_true(sent_at[2] - sent_at[1] >= 100 * MS &&
                sent_at[2] - sent_at[1] <= 102 * MS);
    assert_true(sent_at[4] - sent_at[3] >= 400 * MS &&
                sent_at[4] - sent_at[3] <= 402 * MS);
    assert_true(sent_at[6] - sent_at[5] >= 1000 * MS &&
                sent_at[6] - sent_at[5] <= 1002 * MS);
    /* back to SFS's fixed timer: the first wait is the class timeout */
    rp_client_set_adaptive_rto(c, 0);
    tcall_start(c, &t, 5, 1000);
    assert_int_equal(rp_client_timeout_ms(c), 1000);
    rp_client_close(c);
    close(sv[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lost_connection_resends_the_calls_with_their_xids),
        cmocka_unit_test(reconnection_backs_off_then_gives_up),
        cmocka_unit_test(a_call_past_its_timeout_fails_while_reconnecting),
        cmocka_unit_test(without_reconnect_ms_a_lost_connection_is_fatal),
        cmocka_unit_test(adaptive_udp_retransmission),
    };

    return cmocka_run_group_tests_name("rpc_reconnect", tests, NULL, NULL);
}
