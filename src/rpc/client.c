/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * client.c - the core of the rpc engine (rpc layer): opening clients, the
 * life of a call (start, encode, send queue, reply, timeout, UDP
 * retransmission with the same XID, completion) and the poll helpers.  It
 * owns every decision that must not vary between transports (docs/STYLE.md 2.5);
 * udp.c and tcp.c only move bytes.  Callbacks run only from
 * rp_client_service and the functions that call it (rp_poll, rp_call_sync,
 * rp_client_close), never from rp_call_start: a failure found while
 * starting is parked on the done list and reported at the next service.
 * Also here: adaptive UDP retransmission timers (round-trip estimate of
 * RFC 6298) and the reconnection of a lost TCP connection, whose calls stay
 * in flight and are sent again with the same XID.
 *
 * Every transition of a call's state machine (rp_int.h) is made here, and
 * asserted: started, queued, sent, matched to its reply, timed out, parked
 * on the done list, completed.  The files below it only serve it: xid.c
 * (the XID table), reply.c (decoding a reply message), fault.c (fault
 * injection, which hands replies back through a function pointer), the
 * transports (which hand complete messages to rp__reply), auth.c and
 * error.c; none of them calls back into this file but through rp__reply.
 */
#include "rpc/rp_int.h"
#include "common/alloc.h"
#include "common/bytes.h"

#include <assert.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/cm.h"
#include "common/error.h"
#include "common/clock.h"

/* ---- options, errors -------------------------------------------------- */

void rp_client_opts_init(struct rp_client_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->transport = RP_UDP;
    o->resv_port = RP_RESV_NO;
    o->uid = -1;
    o->gid = -1;
    o->ngids = -1;
    o->max_in_flight = RP_DEFAULT_MAX_IN_FLIGHT;
    o->udp_tries = RP_DEFAULT_UDP_TRIES;
    o->max_record_bytes = RP_DEFAULT_MAX_RECORD;
}

void rp_call_prepare(struct rp_call *call, uint32_t proc, xdrproc_t args_codec,
                     const void *args, xdrproc_t res_codec, void *res,
                     uint32_t timeout_ms, rp_done_fn done, void *data)
{
    memset(call, 0, sizeof(*call));
    call->proc = proc;
    call->args_codec = args_codec;
    call->args = args;
    call->res_codec = res_codec;
    call->res = res;
    call->timeout_ms = timeout_ms;
    call->done = done;
    call->data = data;
}

const char *rp_client_last_error(const struct rp_client *c)
{
    return c->last_error;
}

/* ---- opening and closing ---------------------------------------------- */

static const struct rp_transport_ops *const transports[] = {
    [RP_UDP] = &rp__udp_ops,
    [RP_TCP] = &rp__tcp_ops,
};

/* Checks a transport once, as fio's check_engine_ops does. */
static int check_ops(const struct rp_transport_ops *ops)
{
    return ops && ops->version == RP_TRANSPORT_VERSION && ops->connect && ops->flush &&
           ops->read &&
           ((ops->flags & RP_T_STREAM) != 0) != ((ops->flags & RP_T_DGRAM) != 0);
}

static struct rp_client *client_new(enum rp_transport_kind t, uint32_t prog,
                                    uint32_t vers, const struct rp_client_opts *opts,
                                    char *err, size_t errlen)
{
    struct rp_client *c;
    const struct rp_transport_ops *ops =
        (unsigned)t < CM_ARRAY_LEN(transports) ? transports[t] : NULL;

    if (!check_ops(ops)) {
        cm_errf(err, errlen, "unknown or broken transport %d", (int)t);
        return NULL;
    }
    c = cm_calloc(1, sizeof(*c));
    if (!c) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    c->fd = -1;
    c->ops = ops;
    c->prog = prog;
    c->vers = vers;
    if (opts)
        c->opts = *opts;
    else
        rp_client_opts_init(&c->opts);
    c->opts.transport = t;
    c->opts.machine_name = NULL; /* not kept: copied into the header */
    if (!c->opts.max_in_flight)
        c->opts.max_in_flight = RP_DEFAULT_MAX_IN_FLIGHT;
    if (!c->opts.udp_tries)
        c->opts.udp_tries = RP_DEFAULT_UDP_TRIES;
    if (c->opts.max_record_bytes < 1024)
        c->opts.max_record_bytes = RP_DEFAULT_MAX_RECORD;
    if ((ops->flags & RP_T_DGRAM) && c->opts.max_record_bytes > RP_UDP_MAX)
        c->opts.max_record_bytes = RP_UDP_MAX;
    c->clock = opts && opts->clock ? *opts->clock : cm_monotonic_clock;
    c->rslot = (ops->flags & RP_T_DGRAM) ? c->opts.max_record_bytes : RP_TCP_CHUNK;
    c->rcap = (ops->flags & RP_T_DGRAM) ? c->rslot * RP_DGRAM_BATCH : RP_TCP_CHUNK;
    c->rbuf = cm_malloc(c->rcap);
    c->scap = RP_SBUF_START;
    c->sbuf = cm_malloc(c->scap);
    /* a batch holds each call in flight once, and the few started again
     * after completing before it was written */
    c->bt_cap = c->opts.max_in_flight + RP_DGRAM_BATCH;
    c->bt = cm_calloc(c->bt_cap, sizeof(*c->bt));
    rp_recmark_init(&c->rm, c->opts.max_record_bytes);
    if (!c->rbuf || !c->sbuf || !c->bt || rp__xid_init(c) < 0) {
        cm_errf(err, errlen, "out of memory");
        rp_client_close(c);
        return NULL;
    }
    if (rp__fault_init(c, opts ? opts->fault : NULL) < 0) {
        cm_errf(err, errlen, "out of memory");
        rp_client_close(c);
        return NULL;
    }
    c->opts.fault = NULL; /* copied into c->fault */
    if (rp__auth_header(c, opts ? opts->machine_name : NULL) < 0) {
        cm_errf(err, errlen, "%s", c->last_error);
        rp_client_close(c);
        return NULL;
    }
    return c;
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -errno;
    return 0;
}

static void note_local_port(struct rp_client *c)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);

    c->local_port = -1;
    if (getsockname(c->fd, (struct sockaddr *)&ss, &len) != 0)
        return;
    if (ss.ss_family == AF_INET)
        c->local_port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
    else if (ss.ss_family == AF_INET6)
        c->local_port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* Binds a port below 1024 when asked; RP_RESV_TRY falls back quietly. */
static int bind_reserved(struct rp_client *c, int family)
{
    struct sockaddr_storage ss;

    if (c->opts.resv_port == RP_RESV_NO)
        return 0;
    memset(&ss, 0, sizeof(ss));
    ss.ss_family = (sa_family_t)family;
    if (bindresvport_sa(c->fd, (struct sockaddr *)&ss) == 0)
        return 0;
    if (c->opts.resv_port == RP_RESV_MUST)
        return rp__set_error(c, -EACCES,
                             "cannot bind a reserved source port (needs root or "
                             "CAP_NET_BIND_SERVICE): %s",
                             strerror(errno));
    return 0;
}

static void set_bufs(struct rp_client *c)
{
    int sz = c->opts.sndbuf_bytes > INT_MAX ? INT_MAX : (int)c->opts.sndbuf_bytes;

    if (sz > 0) {
        (void)setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
        (void)setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
    }
}

int rp_client_open(struct rp_client **out, const struct sockaddr *addr, socklen_t addrlen,
                   uint32_t prog, uint32_t vers, const struct rp_client_opts *opts,
                   uint32_t connect_timeout_ms, char *err, size_t errlen)
{
    enum rp_transport_kind t = opts ? opts->transport : RP_UDP;
    struct rp_client *c;
    int rc;

    *out = NULL;
    if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
        return cm_errf(err, errlen, "address family %d not supported",
                       (int)addr->sa_family);
    c = client_new(t, prog, vers, opts, err, errlen);
    if (!c)
        return -ENOMEM;
    c->fd = socket(addr->sa_family, c->ops->sock_type | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        rc = -errno;
        cm_errf(err, errlen, "socket: %s", strerror(errno));
        rp_client_close(c);
        return rc;
    }
    set_bufs(c);
    rc = bind_reserved(c, addr->sa_family);
    if (rc == 0)
        rc = set_nonblock(c->fd);
    if (rc == 0)
        rc = c->ops->connect(c, addr, addrlen,
                             connect_timeout_ms ? connect_timeout_ms : 10000);
    if (rc < 0) {
        cm_errf(err, errlen, "%s", c->last_error[0] ? c->last_error : strerror(-rc));
        rp_client_close(c);
        return rc;
    }
    note_local_port(c);
    if (addrlen <= sizeof(c->peer)) {
        memcpy(&c->peer, addr, addrlen);
        c->peerlen = addrlen;
    }
    *out = c;
    return 0;
}

int rp_client_open_fd(struct rp_client **out, int fd, enum rp_transport_kind transport,
                      uint32_t prog, uint32_t vers, const struct rp_client_opts *opts,
                      char *err, size_t errlen)
{
    struct rp_client *c;
    int rc;

    *out = NULL;
    c = client_new(transport, prog, vers, opts, err, errlen);
    if (!c) {
        close(fd);
        return -ENOMEM;
    }
    c->fd = fd;
    rc = set_nonblock(fd);
    if (rc < 0) {
        cm_errf(err, errlen, "fcntl: %s", strerror(-rc));
        rp_client_close(c);
        return rc;
    }
    note_local_port(c);
    *out = c;
    return 0;
}

/* ---- the done list ------------------------------------------------------ */

static void complete(struct rp_client *c, struct rp_call *call, int status);

/* Calls that finished outside a service (found while starting, or failed
 * with the socket) wait here, linked through rp_qnext, for the next service
 * to run their callbacks. */
static void defer_complete(struct rp_client *c, struct rp_call *call, int status)
{
    /* a call in flight that has already left the XID table */
    assert(rp__call_in_flight(call));
    CM_ASSERT_DEBUG(rp__xid_find(c, call->xid) != call);
    call->status = status;
    call->rp_state = RP_CS_DONE;
    call->rp_qnext = NULL;
    if (c->done_tail)
        c->done_tail->rp_qnext = call;
    else
        c->done_head = call;
    c->done_tail = call;
}

static void run_done_list(struct rp_client *c)
{
    while (c->done_head) {
        struct rp_call *call = c->done_head;

        assert(call->rp_state == RP_CS_DONE);
        c->done_head = call->rp_qnext;
        if (!c->done_head)
            c->done_tail = NULL;
        call->rp_qnext = NULL;
        complete(c, call, call->status);
    }
}

/* The send buffer is empty again: what it held was written, or is not
 * to be (a connection lost, every call failed). */
static void batch_reset(struct rp_client *c)
{
    c->s_off = c->s_len = 0;
    c->dg_n = c->dg_sent = 0;
    c->bt_n = c->bt_done = 0;
}

/* The calls of the batch whose whole message the socket took (s_off is
 * past their end) are counted as sent, unless they completed meanwhile
 * (a timeout while the socket was full) or their slot holds another call
 * now. */
static void batch_written(struct rp_client *c)
{
    while (c->bt_done < c->bt_n && c->bt[c->bt_done].end <= c->s_off) {
        const struct rp__batched *b = &c->bt[c->bt_done++];

        if (b->call->xid == b->xid && b->call->rp_state == RP_CS_SENT)
            b->call->sends++;
    }
}

/* Fails every call in flight or queued with status; a stream client is dead
 * after that (its byte stream is out of step). */
static void fail_all(struct rp_client *c, int status)
{
    struct rp_call *list = rp__xid_drain(c);

    c->q_head = c->q_tail = NULL;
    batch_reset(c);
    while (list) {
        struct rp_call *call = list;

        list = call->rp_next;
        call->rp_next = NULL;
        defer_complete(c, call, status);
    }
    if (c->ops->flags & RP_T_STREAM)
        c->dead = 1;
}

void rp_client_close(struct rp_client *c)
{
    if (!c)
        return;
    if (c->buckets) {
        fail_all(c, RP_ERR_CANCELED);
        /* callbacks that start new calls now get -ENOTCONN */
        c->dead = 1;
        rp__set_error(c, -ENOTCONN, "client is closing");
        run_done_list(c);
        /* every call started has completed, once */
        assert(c->in_flight == 0 && !c->q_head && !c->done_head);
    }
    if (c->fd >= 0)
        close(c->fd);
    rp__xid_free(c);
    rp__fault_free(c);
    rp_recmark_free(&c->rm);
    free(c->rbuf);
    free(c->sbuf);
    free(c->bt);
    free(c);
}

/* ---- retransmission timers --------------------------------------------- */

static uint64_t ms_ns(uint32_t ms)
{
    return (uint64_t)ms * 1000000u;
}

static int adaptive(const struct rp_client *c)
{
    return c->opts.adaptive_rto && (c->ops->flags & RP_T_DGRAM);
}

/* A reply to a call that was sent once gives a round-trip sample for the
 * adaptive retransmission timer (Karn's rule). */
static void rtt_sample(struct rp_client *c, const struct rp_call *call)
{
    uint64_t rtt, err;

    /* Karn: the reply to a re-sent call may answer any of its sends */
    if (call->retransmits || call->t_reply_ns <= call->t_send_ns)
        return;
    rtt = call->t_reply_ns - call->t_send_ns;
    if (c->srtt_ns == 0) {
        c->srtt_ns = rtt;
        c->rttvar_ns = rtt / 2;
    } else {
        err = rtt > c->srtt_ns ? rtt - c->srtt_ns : c->srtt_ns - rtt;
        c->rttvar_ns = (3 * c->rttvar_ns + err) / 4;
        c->srtt_ns = (7 * c->srtt_ns + rtt) / 8;
    }
    c->st.srtt_us = c->srtt_ns / 1000;
}

/* How long to wait for a reply after send number `sends` of call: the
 * class timeout, or (adaptive) the smoothed round trip plus four times its
 * variation, at least RP_RTO_MIN_MS, doubled for every earlier send and
 * never beyond the class timeout. */
static uint64_t wait_ns(const struct rp_client *c, const struct rp_call *call,
                        uint32_t sends)
{
    uint64_t full = ms_ns(call->timeout_ms), w;
    uint32_t k;

    if (!adaptive(c))
        return full;
    w = c->srtt_ns ? c->srtt_ns + 4 * c->rttvar_ns : ms_ns(RP_RTO_INITIAL_MS);
    if (w < ms_ns(RP_RTO_MIN_MS))
        w = ms_ns(RP_RTO_MIN_MS);
    for (k = 1; k < sends && w < full; k++)
        w *= 2;
    return w < full ? w : full;
}

/* Whether an expired UDP call may be sent again: while tries remain, or
 * (adaptive) until timeout_ms x udp_tries have passed since the first send,
 * the same bound as the fixed timer's. */
static int may_resend(const struct rp_client *c, const struct rp_call *call, uint64_t now)
{
    if (!(c->ops->flags & RP_T_DGRAM) || c->dead)
        return 0;
    if (adaptive(c))
        return now - call->t_send_ns < ms_ns(call->timeout_ms) * c->opts.udp_tries;
    return call->rp_tries < c->opts.udp_tries;
}

void rp_client_set_adaptive_rto(struct rp_client *c, int on)
{
    c->opts.adaptive_rto = on;
}

/* ---- sending ------------------------------------------------------------ */

int rp__sbuf_reserve(struct rp_client *c, size_t need)
{
    size_t cap = c->scap;
    uint8_t *nb;

    if (need <= cap)
        return 0;
    while (cap < need)
        cap *= 2;
    nb = cm_realloc(c->sbuf, cap);
    if (!nb) /* the call fails with this; say why */
        return rp__set_error(c, -ENOMEM, "out of memory for a send buffer of %zu bytes",
                             cap);
    c->sbuf = nb;
    c->scap = cap;
    return 0;
}

/* Takes a QUEUED call off the send queue. */
static void queue_remove(struct rp_client *c, struct rp_call *call)
{
    struct rp_call **pp = &c->q_head, *prev = NULL;

    /* a call is on the send queue exactly while QUEUED */
    assert(call->rp_state == RP_CS_QUEUED);
    while (*pp && *pp != call) {
        prev = *pp;
        pp = &(*pp)->rp_qnext;
    }
    assert(*pp != NULL);
    if (!*pp)
        return;
    *pp = call->rp_qnext;
    if (c->q_tail == call)
        c->q_tail = prev;
    call->rp_qnext = NULL;
}

static void queue_push(struct rp_client *c, struct rp_call *call)
{
    /* never queued twice (the list would loop), never once finished */
    assert(call->rp_state == RP_CS_IDLE || call->rp_state == RP_CS_SENT);
    call->rp_qnext = NULL;
    call->rp_state = RP_CS_QUEUED;
    if (c->q_tail)
        c->q_tail->rp_qnext = call;
    else
        c->q_head = call;
    c->q_tail = call;
}

/* Encodes a call at the end of the send buffer (after any messages still
 * waiting there): the header template with this XID and procedure, then the
 * arguments, growing the buffer when they do not fit, up to the record
 * limit for one message. */
static int encode(struct rp_client *c, struct rp_call *call)
{
    size_t mark = (c->ops->flags & RP_T_STREAM) ? 4 : 0;
    size_t base = c->s_len + mark; /* where this message's header starts */
    size_t limit = c->opts.max_record_bytes;

    if ((c->ops->flags & RP_T_DGRAM) && limit > RP_UDP_MAX_SEND)
        limit = RP_UDP_MAX_SEND;
    for (;;) {
        size_t room;
        int ok;
        XDR x;

        if (c->scap < base + c->hdr_len + 64 &&
            rp__sbuf_reserve(c, base + c->hdr_len + 64))
            return -ENOMEM;
        memcpy(c->sbuf + base, c->hdr, c->hdr_len);
        cm_be32_put(c->sbuf + base, call->xid);
        cm_be32_put(c->sbuf + base + 20, call->proc);
        room = c->scap - base - c->hdr_len;
        if (room > limit - c->hdr_len)
            room = limit - c->hdr_len;
        xdrmem_create(&x, (char *)c->sbuf + base + c->hdr_len, (u_int)room, XDR_ENCODE);
        ok = call->args_codec(&x, (void *)(uintptr_t)call->args);
        room = xdr_getpos(&x);
        xdr_destroy(&x);
        if (ok) {
            if (mark)
                rp_recmark_put(c->sbuf + c->s_len, c->hdr_len + room, 1);
            c->s_len = base + c->hdr_len + room;
            return 0;
        }
        if (c->scap - base >= limit)
            return rp__set_error(c, RP_ERR_ENCODE,
                                 "arguments of proc %u do not encode in %zu bytes",
                                 call->proc, limit);
        if (rp__sbuf_reserve(c, c->scap * 2))
            return -ENOMEM;
    }
}

/* Whether one more queued call may join the send buffer: a stream takes
 * calls up to RP_BATCH_BYTES, a datagram socket up to RP_DGRAM_BATCH
 * messages; either takes one when the buffer is empty. */
static int batch_has_room(const struct rp_client *c)
{
    if (c->bt_n == c->bt_cap && c->s_len > c->s_off)
        return 0;
    if (c->s_len == c->s_off)
        return 1;
    if (c->ops->flags & RP_T_STREAM)
        return c->s_len - c->s_off < RP_BATCH_BYTES;
    return c->dg_n < RP_DGRAM_BATCH && c->s_len < RP_BATCH_BYTES;
}

/* Moves queued calls into the send buffer and writes it, until the queue
 * is empty or the socket is full.  The calls gathered in one batch leave
 * with one send() on a stream, one sendmmsg() on a datagram socket: that is
 * where most of the per-call system call cost goes otherwise.  Returns
 * RP_FLUSH_DONE, RP_FLUSH_BUSY, or -errno from the transport. */
static int pump(struct rp_client *c)
{
    for (;;) {
        size_t off;
        int rc;

        while (c->q_head && batch_has_room(c)) {
            struct rp_call *call = c->q_head;

            assert(call->rp_state == RP_CS_QUEUED);
            if (c->s_len == c->s_off)
                batch_reset(c);
            c->q_head = call->rp_qnext;
            if (!c->q_head)
                c->q_tail = NULL;
            call->rp_qnext = NULL;
            rc = encode(c, call);
            if (rc < 0) {
                rp__xid_remove(c, call);
                defer_complete(c, call, rc);
                continue;
            }
            if (c->ops->flags & RP_T_DGRAM)
                c->dg_end[c->dg_n++] = c->s_len;
            c->bt[c->bt_n].call = call;
            c->bt[c->bt_n].xid = call->xid;
            c->bt[c->bt_n++].end = c->s_len;
            if (call->rp_tries++ == 0) {
                call->t_send_ns = cm_clock_now(&c->clock);
                call->rp_deadline_ns = call->t_send_ns + wait_ns(c, call, 1);
            }
            call->rp_state = RP_CS_SENT;
        }
        if (c->s_len == c->s_off) {
            batch_reset(c);
            return RP_FLUSH_DONE;
        }
        off = c->s_off;
        rc = c->ops->flush(c);
        /* Count what this flush wrote, also when the socket filled up
         * half-way (or failed after some datagrams): the next flush starts
         * at the new s_off. */
        batch_written(c);
        if (rc >= 0)
            c->st.bytes_sent += c->s_off - off;
        if (rc != RP_FLUSH_DONE)
            return rc;
        batch_reset(c);
    }
}

/* ---- reconnection (TCP, opts.reconnect_ms) ------------------------------- */

static int can_reconnect(const struct rp_client *c)
{
    return (c->ops->flags & RP_T_STREAM) && c->opts.reconnect_ms > 0 && !c->dead &&
           (c->opts.reopen || c->peerlen > 0);
}

/* The connection is lost: close it and keep every call.  Calls already
 * sent are sent again when a new connection is up (come_up); the rest of
 * a record half read is forgotten. */
static void go_down(struct rp_client *c)
{
    uint64_t now = cm_clock_now(&c->clock);

    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->connecting = 0;
    batch_reset(c);
    rp_recmark_reset(&c->rm);
    c->rskew = 0;
    if (!c->down) {
        c->down = 1;
        c->down_since_ns = now;
        c->backoff_ms = RP_RECONNECT_FIRST_MS;
        c->next_try_ns = now;
        c->st.connection_losses++;
    }
}

/* Starts a connection: 0 when connected, -EINPROGRESS while connecting,
 * else -errno (c->fd is then closed by the caller). */
static int open_again(struct rp_client *c)
{
    int rc;

    if (c->opts.reopen) {
        rc = c->opts.reopen(c->opts.reopen_data);
        if (rc < 0)
            return rc;
        c->fd = rc;
        return set_nonblock(c->fd);
    }
    c->fd = socket(c->peer.ss_family, c->ops->sock_type | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return -errno;
    set_bufs(c);
    rc = bind_reserved(c, c->peer.ss_family);
    if (rc == 0)
        rc = set_nonblock(c->fd);
    if (rc == 0)
        rc = c->ops->connect(c, (const struct sockaddr *)&c->peer, c->peerlen, 0);
    return rc;
}

static int pump(struct rp_client *c);
static void transport_failed(struct rp_client *c, int rc);

/* A new connection is up: every call that went out on the old one goes
 * out again, same XID, first send time and deadline unchanged. */
static void come_up(struct rp_client *c)
{
    uint32_t i;
    int rc;

    c->down = 0;
    c->connecting = 0;
    c->st.reconnects++;
    note_local_port(c);
    for (i = 0; i <= c->mask; i++) {
        struct rp_call *call;

        for (call = c->buckets[i]; call; call = call->rp_next)
            if (call->rp_state == RP_CS_SENT) {
                call->retransmits++;
                c->st.retransmits++;
                queue_push(c, call);
            }
    }
    rc = pump(c);
    if (rc < 0)
        transport_failed(c, rc);
}

static void retry_later(struct rp_client *c, uint64_t now, int err)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->connecting = 0;
    c->next_try_ns = now + ms_ns(c->backoff_ms);
    c->backoff_ms =
        c->backoff_ms * 2 < RP_RECONNECT_MAX_MS ? c->backoff_ms * 2 : RP_RECONNECT_MAX_MS;
    rp__set_error(c, err, "connection lost; reconnecting: %s", strerror(-err));
}

static int socket_error(int fd)
{
    int soerr = 0;
    socklen_t len = sizeof(soerr);

    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
        soerr = errno;
    return -soerr;
}

/* One step of reconnection: finishes a connect in progress, starts the
 * next attempt when its backoff has passed, gives up after reconnect_ms. */
static void reconnect_step(struct rp_client *c, short revents)
{
    uint64_t now = cm_clock_now(&c->clock);
    int rc;

    if (c->connecting) {
        if (revents & (POLLOUT | POLLERR | POLLHUP)) {
            rc = socket_error(c->fd);
            if (rc == 0) {
                come_up(c);
                return;
            }
            retry_later(c, now, rc);
        }
    } else if (now >= c->next_try_ns) {
        rc = open_again(c);
        if (rc == 0) {
            come_up(c);
            return;
        }
        if (rc == -EINPROGRESS)
            c->connecting = 1;
        else
            retry_later(c, now, rc);
    }
    if (c->down && now - c->down_since_ns >= ms_ns(c->opts.reconnect_ms)) {
        char why[CM_ERR_LEN];

        snprintf(why, sizeof(why), "%s", c->last_error);
        if (c->fd >= 0)
            close(c->fd);
        c->fd = -1;
        c->down = c->connecting = 0;
        rp__set_error(c, RP_ERR_CONNRESET,
                      "connection lost and not re-established in %u ms (%s)",
                      c->opts.reconnect_ms, why);
        fail_all(c, RP_ERR_CONNRESET);
    }
}

/* Handles a transport error: datagram errors (ICMP port unreachable...)
 * fail the calls in flight but keep the client; stream errors kill it,
 * unless it may reconnect. */
static void transport_failed(struct rp_client *c, int rc)
{
    if (rc == -ECONNREFUSED)
        rp__set_error(c, rc, "connection refused (no server at that port)");
    else if (rc == -ECONNRESET)
        rp__set_error(c, rc, "connection closed by the server");
    else if (!c->last_error[0])
        rp__set_error(c, rc, "socket error: %s", strerror(-rc));
    if (can_reconnect(c)) {
        go_down(c);
        return;
    }
    fail_all(c, rc);
}

/* ---- replies and completion -------------------------------------------- */

/* A call leaves the engine: it has left the XID table and the send queue,
 * its status is final, and its callback runs (once). */
static void complete(struct rp_client *c, struct rp_call *call, int status)
{
    /* a call completes once, after leaving the XID table */
    assert(call->rp_state != RP_CS_IDLE && c->in_flight > 0);
    CM_ASSERT_DEBUG(rp__xid_find(c, call->xid) != call);
    call->status = status;
    call->rp_state = RP_CS_IDLE;
    c->in_flight--;
    c->st.calls_done++;
    if (status == RP_ERR_TIMEDOUT)
        c->st.timeouts++;
    if (call->t_reply_ns)
        rtt_sample(c, call);
    if (call->done)
        call->done(call, call->data);
}

/* One reply message: the call it answers leaves the XID table (and the
 * send queue, when the answer beat a retransmission still waiting for the
 * socket), is stamped and decoded (reply.c) and completes.  A reply nobody
 * waits for is counted and dropped without decoding anything. */
static void reply_direct(struct rp_client *c, const uint8_t *msg, size_t len,
                         uint64_t now)
{
    struct rp_call *call;
    int status;

    c->st.bytes_received += len;
    if (len < RP_REPLY_MIN) {
        c->st.garbage++;
        rp__set_error(c, RP_ERR_GARBAGE, "short reply (%zu bytes) dropped", len);
        return;
    }
    call = rp__xid_find(c, cm_be32_get(msg));
    if (!call) {
        c->st.unknown_xid++;
        return;
    }
    rp__xid_remove(c, call);
    if (call->rp_state == RP_CS_QUEUED)
        queue_remove(c, call);
    call->t_reply_ns = now;
    c->st.replies++;
    status = rp__reply_decode(c, call, msg, len);
    if (status == RP_ERR_GARBAGE)
        c->st.garbage++;
    complete(c, call, status);
}

void rp__reply(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now)
{
    if (c->fault_on)
        rp__fault_reply(c, msg, len, now, reply_direct);
    else
        reply_direct(c, msg, len, now);
}

/* ---- starting calls ----------------------------------------------------- */

int rp_call_start(struct rp_client *c, struct rp_call *call)
{
    int rc;

    /* a call is started once: a call in flight (or waiting for its
     * callback) started again would corrupt the XID table and the queue */
    assert(call->rp_state == RP_CS_IDLE);
    if (!call->done || !call->args_codec || !call->res_codec)
        return rp__set_error(c, -EINVAL, "call without callback or codecs");
    if (c->dead) /* the error that closed it stays the client's last one */
        return -ENOTCONN;
    if (c->in_flight >= c->opts.max_in_flight)
        return -EAGAIN;
    call->status = 0;
    call->xid = c->next_xid++;
    call->t_send_ns = cm_clock_now(&c->clock);
    call->t_reply_ns = 0;
    call->retransmits = 0;
    call->sends = 0;
    call->low_version = call->high_version = 0;
    call->rp_tries = 0;
    call->rp_deadline_ns = call->t_send_ns + wait_ns(c, call, 1);
    queue_push(c, call);
    rp__xid_insert(c, call);
    c->in_flight++;
    c->st.calls_started++;
    /* Inside a service (a callback starting the next call) the send waits
     * for the end of the service, so that the calls started by all the
     * replies of one read leave in one batch.  While a lost connection is
     * being re-established the call waits for the new one. */
    if (c->in_service || c->down)
        return 0;
    rc = pump(c);
    if (rc < 0)
        transport_failed(c, rc);
    return 0;
}

/* ---- servicing ---------------------------------------------------------- */

/* Retransmits expired UDP calls with the same XID while tries remain, and
 * times out the rest. */
static void fire_timeouts(struct rp_client *c, uint64_t now)
{
    struct rp_call *list;

    if (now < c->next_deadline_ns)
        return;
    list = rp__xid_expire(c, now);
    while (list) {
        struct rp_call *call = list;

        assert(rp__call_in_flight(call));
        list = call->rp_next;
        call->rp_next = NULL;
        if (may_resend(c, call, now)) {
            uint64_t end = call->t_send_ns + ms_ns(call->timeout_ms) * c->opts.udp_tries;

            call->rp_deadline_ns = now + wait_ns(c, call, call->rp_tries + 1);
            if (adaptive(c) && call->rp_deadline_ns > end)
                call->rp_deadline_ns = end;
            rp__xid_insert(c, call);
            if (call->rp_state != RP_CS_QUEUED) {
                call->retransmits++;
                c->st.retransmits++;
                queue_push(c, call);
            }
            continue;
        }
        if (call->rp_state == RP_CS_QUEUED)
            queue_remove(c, call);
        rp__set_error(c, RP_ERR_TIMEDOUT, "xid %08x (proc %u): no reply after %u tr%s",
                      call->xid, call->proc, call->rp_tries,
                      call->rp_tries == 1 ? "y" : "ies");
        defer_complete(c, call, RP_ERR_TIMEDOUT);
    }
}

/* Sends what is queued; a transport failure fails every call (their
 * callbacks wait on the done list). */
static void send_queued(struct rp_client *c)
{
    int rc;

    if (c->dead || c->down || (!c->q_head && c->s_len == c->s_off))
        return;
    rc = pump(c);
    if (rc < 0)
        transport_failed(c, rc);
}

int rp_client_service(struct rp_client *c, short revents)
{
    uint64_t before = c->st.calls_done;
    int rc = 0;

    if (c->in_service)
        return -EDEADLK;
    c->in_service = 1;
    if (c->down)
        reconnect_step(c, revents);
    if (!c->dead && !c->down && (revents & (POLLIN | POLLERR | POLLHUP))) {
        rc = c->ops->read(c);
        if (c->fault_on)
            rp__fault_release(c, cm_clock_now(&c->clock), reply_direct);
        if (rc < 0)
            transport_failed(c, rc);
    }
    fire_timeouts(c, cm_clock_now(&c->clock));
    /* Calls started by the reply callbacks, and retransmissions. */
    send_queued(c);
    run_done_list(c);
    /* Calls started by the callbacks of the done list. */
    send_queued(c);
    run_done_list(c);
    c->in_service = 0;
    if (c->dead && (c->ops->flags & RP_T_STREAM))
        return c->st.calls_done > before ? (int)(c->st.calls_done - before) : -ENOTCONN;
    return (int)(c->st.calls_done - before);
}

int rp_client_fd(const struct rp_client *c)
{
    return c->fd;
}

short rp_client_events(const struct rp_client *c)
{
    if (c->dead)
        return 0;
    if (c->down)
        return c->connecting ? POLLOUT : 0;
    return (short)(POLLIN | (c->s_len > c->s_off || c->q_head ? POLLOUT : 0));
}

int rp_client_timeout_ms(const struct rp_client *c)
{
    uint64_t now, left, next = c->next_deadline_ns;

    if (c->done_head)
        return 0;
    if (!c->in_flight)
        return -1;
    if (c->down) { /* the next attempt, and the end of the patience */
        uint64_t limit = c->down_since_ns + ms_ns(c->opts.reconnect_ms);

        if (!c->connecting && c->next_try_ns < next)
            next = c->next_try_ns;
        if (limit < next)
            next = limit;
    }
    if (next == UINT64_MAX)
        return -1;
    now = cm_clock_now(&c->clock);
    if (now >= next)
        return 0;
    left = (next - now + 999999) / 1000000;
    return left > INT_MAX ? INT_MAX : (int)left;
}

#define RP_POLL_MAX 256

int rp_poll(struct rp_client *const *clients, size_t n, int timeout_ms)
{
    struct pollfd pfd[RP_POLL_MAX];
    size_t i;
    int rc, done = 0;

    if (n > RP_POLL_MAX)
        return -E2BIG;
    for (i = 0; i < n; i++) {
        int t = rp_client_timeout_ms(clients[i]);

        if (t >= 0 && (timeout_ms < 0 || t < timeout_ms))
            timeout_ms = t;
        pfd[i].fd = clients[i]->dead ? -1 : clients[i]->fd;
        pfd[i].events = rp_client_events(clients[i]);
        pfd[i].revents = 0;
    }
    rc = poll(pfd, (nfds_t)n, timeout_ms);
    if (rc < 0)
        return -errno;
    for (i = 0; i < n; i++) {
        int k = rp_client_service(clients[i], pfd[i].revents);

        if (k > 0)
            done += k;
    }
    return done;
}

struct sync_wait {
    int finished;
    rp_done_fn user_done;
    void *user_data;
};

static void sync_done(struct rp_call *call, void *data)
{
    struct sync_wait *w = data;

    w->finished = 1;
    call->done = w->user_done;
    call->data = w->user_data;
    if (call->done)
        call->done(call, call->data);
}

int rp_call_sync(struct rp_client *c, struct rp_call *call)
{
    struct sync_wait w = {0, call->done, call->data};
    struct rp_client *one[1] = {c};
    int rc;

    if (c->in_service)
        return rp__set_error(c, -EDEADLK, "rp_call_sync called from a callback");
    call->done = sync_done;
    /* w outlives the call: every path below completes or withdraws it. */
    // cppcheck-suppress autoVariables
    call->data = &w;
    for (;;) {
        rc = rp_call_start(c, call);
        if (rc != -EAGAIN)
            break;
        /* The client is full of asynchronous calls: let some finish. */
        rc = rp_poll(one, 1, -1);
        if (rc < 0 && rc != -EINTR)
            break;
    }
    if (rc < 0) {
        call->done = w.user_done;
        call->data = w.user_data;
        return rc;
    }
    while (!w.finished) {
        rc = rp_poll(one, 1, -1);
        if (rc < 0 && rc != -EINTR) {
            /* poll itself failed.  A call that already finished (at start,
             * with the socket) only waits on the done list for its
             * callback: run that, so that it completes exactly once and
             * nothing keeps a pointer to it after we return. */
            if (call->rp_state == RP_CS_DONE) {
                run_done_list(c);
                break;
            }
            /* Still in flight: withdraw it, nothing will come. */
            rp__set_error(c, rc, "poll: %s", strerror(-rc));
            rp__xid_remove(c, call);
            if (call->rp_state == RP_CS_QUEUED)
                queue_remove(c, call);
            call->rp_state = RP_CS_IDLE;
            c->in_flight--;
            call->done = w.user_done;
            call->data = w.user_data;
            break;
        }
    }
    return w.finished ? call->status : rc;
}

/* ---- small accessors ---------------------------------------------------- */

enum rp_client_state rp_client_state(const struct rp_client *c)
{
    return c->dead ? RP_STATE_DEAD : c->down ? RP_STATE_DOWN : RP_STATE_UP;
}

unsigned rp_client_in_flight(const struct rp_client *c)
{
    return c->in_flight;
}

enum rp_transport_kind rp_client_transport(const struct rp_client *c)
{
    return c->opts.transport;
}

uint32_t rp_client_next_xid(const struct rp_client *c)
{
    return c->next_xid;
}

uint32_t rp_client_prog(const struct rp_client *c)
{
    return c->prog;
}

uint32_t rp_client_vers(const struct rp_client *c)
{
    return c->vers;
}

int rp_client_local_port(const struct rp_client *c)
{
    return c->local_port;
}

void rp_client_stats(const struct rp_client *c, struct rp_client_stats *st)
{
    *st = c->st;
}
