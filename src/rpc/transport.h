/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * transport.h - the interface between the engine core (client.c) and its
 * transports (udp.c, tcp.c), in the fio ioengine style (docs/STYLE.md 2.5).  A
 * transport only moves bytes: it opens the socket, writes the encoded call
 * the core left in the client's send buffer, and reads replies, handing each
 * complete one to rp__reply().  XIDs, timestamps, timeouts and the decision
 * to retransmit stay in the core, so they cannot differ between transports.
 */
#ifndef RP_TRANSPORT_H
#define RP_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct rp_client;

#define RP_TRANSPORT_VERSION 1

/* Capability bits. */
#define RP_T_STREAM    0x1u /* records need record marking; no retransmission */
#define RP_T_DGRAM     0x2u /* one datagram a message; retransmit same XID */
#define RP_T_RESV_PORT 0x4u /* can bind a reserved source port */

/* What flush returns besides -errno. */
#define RP_FLUSH_DONE 0 /* the send buffer is empty */
#define RP_FLUSH_BUSY 1 /* the socket is full: wait for POLLOUT */

struct rp_transport_ops {
    const char *name;
    unsigned version; /* RP_TRANSPORT_VERSION */
    unsigned flags;
    int sock_type; /* SOCK_DGRAM or SOCK_STREAM */
    /* Connects c->fd (already created and bound by the core) to addr, with
     * a bounded wait.  0 or -errno with c->last_error set.  A stream with
     * timeout_ms 0 only starts the connect and may return -EINPROGRESS
     * (the core then waits for POLLOUT: reconnection). */
    int (*connect)(struct rp_client *c, const struct sockaddr *addr, socklen_t addrlen,
                   uint32_t timeout_ms);
    /* Writes c->sbuf[c->s_off .. c->s_len).  RP_FLUSH_DONE, RP_FLUSH_BUSY,
     * or -errno (fatal for streams; datagrams report -ECONNREFUSED). */
    int (*flush)(struct rp_client *c);
    /* Reads what is available (bounded), calling rp__reply per message.
     * Returns 0, or -errno when the socket failed or the peer closed. */
    int (*read)(struct rp_client *c);
};

extern const struct rp_transport_ops rp__udp_ops;
extern const struct rp_transport_ops rp__tcp_ops;

#endif /* RP_TRANSPORT_H */
