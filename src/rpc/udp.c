/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * udp.c - the UDP transport of the rpc engine (rpc layer): a connected,
 * non-blocking datagram socket, one message per datagram.  Connecting the
 * socket makes the kernel drop datagrams from anyone but the server and
 * report "port unreachable" as ECONNREFUSED, which is how a missing server
 * is told from a slow one.  Datagrams go out and come in batches
 * (sendmmsg, recvmmsg).  Retransmission policy lives in client.c.
 */
/* sendmmsg and recvmmsg are Linux (glibc declares them under _GNU_SOURCE);
 * this file is the one place that uses them. */
#define _GNU_SOURCE 1

#include "rpc/rp_int.h"

#include <string.h>
#include <sys/socket.h>
#include "common/clock.h"

static int udp_connect(struct rp_client *c, const struct sockaddr *addr,
                       socklen_t addrlen, uint32_t timeout_ms)
{
    (void)timeout_ms;
    if (connect(c->fd, addr, addrlen) != 0)
        return rp__set_error(c, -errno, "connect (UDP): %s", strerror(errno));
    return 0;
}

/* Sends the datagrams of the batch not sent yet with sendmmsg. */
static int udp_flush(struct rp_client *c)
{
    struct mmsghdr mm[RP_DGRAM_BATCH];
    struct iovec iov[RP_DGRAM_BATCH];

    while (c->dg_sent < c->dg_n) {
        unsigned i, n = c->dg_n - c->dg_sent;
        int k;

        memset(mm, 0, sizeof(mm[0]) * n);
        for (i = 0; i < n; i++) {
            unsigned m = c->dg_sent + i;
            size_t start = m ? c->dg_end[m - 1] : 0;

            iov[i].iov_base = c->sbuf + start;
            iov[i].iov_len = c->dg_end[m] - start;
            mm[i].msg_hdr.msg_iov = &iov[i];
            mm[i].msg_hdr.msg_iovlen = 1;
        }
        k = sendmmsg(c->fd, mm, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)
                return RP_FLUSH_BUSY;
            return -errno;
        }
        c->dg_sent += (unsigned)k;
        c->s_off = c->dg_end[c->dg_sent - 1];
    }
    return RP_FLUSH_DONE;
}

/* Reads the datagrams waiting, RP_DGRAM_BATCH per recvmmsg, until the
 * socket is drained or the read budget is spent. */
static int udp_read(struct rp_client *c)
{
    struct mmsghdr mm[RP_DGRAM_BATCH];
    struct iovec iov[RP_DGRAM_BATCH];
    int round, i, k;

    for (round = 0; round < RP_READ_BUDGET / RP_DGRAM_BATCH; round++) {
        uint64_t now;

        memset(mm, 0, sizeof(mm));
        for (i = 0; i < RP_DGRAM_BATCH; i++) {
            iov[i].iov_base = c->rbuf + (size_t)i * c->rslot;
            iov[i].iov_len = c->rslot;
            mm[i].msg_hdr.msg_iov = &iov[i];
            mm[i].msg_hdr.msg_iovlen = 1;
        }
        k = recvmmsg(c->fd, mm, RP_DGRAM_BATCH, MSG_DONTWAIT, NULL);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            return -errno;
        }
        now = cm_clock_now(&c->clock);
        for (i = 0; i < k; i++) {
            /* A datagram larger than a slot arrives cut: decoding it would
             * fail anyway, so say why. */
            if (mm[i].msg_hdr.msg_flags & MSG_TRUNC) {
                c->st.garbage++;
                rp__set_error(c, RP_ERR_GARBAGE, "reply larger than %zu bytes dropped",
                              c->rslot);
                continue;
            }
            rp__reply(c, iov[i].iov_base, mm[i].msg_len, now);
        }
        if (k < RP_DGRAM_BATCH)
            return 0; /* drained: save a recvmmsg that would say EAGAIN */
    }
    return 0;
}

const struct rp_transport_ops rp__udp_ops = {
    .name = "udp",
    .version = RP_TRANSPORT_VERSION,
    .flags = RP_T_DGRAM | RP_T_RESV_PORT,
    .sock_type = SOCK_DGRAM,
    .connect = udp_connect,
    .flush = udp_flush,
    .read = udp_read,
};
