/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tcp.c - the TCP transport of the rpc engine (rpc layer): a non-blocking
 * stream socket, calls sent as single-fragment records, replies reassembled
 * by the record-marking framer (recmark.c), however the server's bytes are
 * split across reads.  A record that arrives whole is decoded in place:
 * each read lands at the offset from a word that the stream's position
 * has, so the records of a read (whose XDR lengths are whole words) start
 * on a word even when the read before ended inside one - TCP cuts a
 * segment at any byte, at the MSS or where the window closes, and the
 * framer copies a record that does not start on a word (recmark.h).  A
 * lost connection is reported to the core, which either reconnects
 * (rp_client_opts.reconnect_ms; connect with a zero timeout only starts a
 * non-blocking connect) or fails the calls in flight with -ECONNRESET.
 */
#include "rpc/rp_int.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/clock.h"

static int tcp_connect(struct rp_client *c, const struct sockaddr *addr,
                       socklen_t addrlen, uint32_t timeout_ms)
{
    int one = 1, soerr = 0;
    socklen_t len = sizeof(soerr);
    struct pollfd p;
    int rc;

    (void)setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (connect(c->fd, addr, addrlen) == 0)
        return 0;
    if (errno != EINPROGRESS)
        return rp__set_error(c, -errno, "connect (TCP): %s", strerror(errno));
    if (timeout_ms == 0) /* a reconnection: the core waits for POLLOUT */
        return -EINPROGRESS;
    p.fd = c->fd;
    p.events = POLLOUT;
    do {
        rc = poll(&p, 1, timeout_ms > INT32_MAX ? INT32_MAX : (int)timeout_ms);
    } while (rc < 0 && errno == EINTR);
    if (rc == 0)
        return rp__set_error(c, -ETIMEDOUT, "connect (TCP): no answer in %u ms",
                             timeout_ms);
    if (rc < 0)
        return rp__set_error(c, -errno, "poll: %s", strerror(errno));
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
        soerr = errno;
    if (soerr)
        return rp__set_error(c, -soerr, "connect (TCP): %s", strerror(soerr));
    return 0;
}

static int tcp_flush(struct rp_client *c)
{
    while (c->s_off < c->s_len) {
        ssize_t n = send(c->fd, c->sbuf + c->s_off, c->s_len - c->s_off, MSG_NOSIGNAL);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return RP_FLUSH_BUSY;
            return errno == EPIPE ? -ECONNRESET : -errno;
        }
        c->s_off += (size_t)n;
    }
    return RP_FLUSH_DONE;
}

static int tcp_read(struct rp_client *c)
{
    int i;

    for (i = 0; i < RP_READ_BUDGET; i++) {
        size_t skew = c->rskew, room = c->rcap - skew;
        uint8_t *data = c->rbuf + skew;
        ssize_t n = recv(c->fd, data, room, 0);
        size_t used = 0;
        uint64_t now;

        if (n == 0)
            return -ECONNRESET;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            return -errno;
        }
        c->rskew = (unsigned)((skew + (size_t)n) & 3u);
        now = cm_clock_now(&c->clock);
        while (used < (size_t)n) {
            const uint8_t *rec;
            size_t rec_len;
            ssize_t k =
                rp_recmark_feed(&c->rm, data + used, (size_t)n - used, &rec, &rec_len);

            if (k == -ENOMEM) { /* our shortage, not the server's garbage */
                c->st.no_memory++;
                return rp__set_error(c, -ENOMEM,
                                     "out of memory for a reply record (the receive "
                                     "buffer could not grow)");
            }
            if (k < 0) {
                c->st.garbage++;
                return rp__set_error(c, RP_ERR_GARBAGE,
                                     "reply record larger than %zu bytes",
                                     c->opts.max_record_bytes);
            }
            used += (size_t)k;
            if (rec)
                rp__reply(c, rec, rec_len, now);
        }
        if ((size_t)n < room)
            return 0; /* the socket is drained: save a recv */
    }
    return 0;
}

const struct rp_transport_ops rp__tcp_ops = {
    .name = "tcp",
    .version = RP_TRANSPORT_VERSION,
    .flags = RP_T_STREAM | RP_T_RESV_PORT,
    .sock_type = SOCK_STREAM,
    .connect = tcp_connect,
    .flush = tcp_flush,
    .read = tcp_read,
};
