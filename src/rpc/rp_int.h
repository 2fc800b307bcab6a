/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rp_int.h - private declarations of the rpc layer: the client structure
 * shared by the core (client.c), the XID table (xid.c), the call header and
 * AUTH_SYS (auth.c), the reply decoder (reply.c), fault injection (fault.c),
 * the error text (error.c) and the transports.  No other layer includes
 * this file.  The dependencies between these files go one way: the core
 * calls the others; the transports call back only rp__reply, and fault.c
 * only the deliver function it is handed.
 */
#ifndef RP_INT_H
#define RP_INT_H

#include "rpc/recmark.h"
#include "rpc/rp.h"
#include "rpc/transport.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/clock.h"
#include "common/rng.h"

#define RP_HDR_MAX    (6 * 4 + 2 * (8 + MAX_AUTH_BYTES))
#define RP_SBUF_START 65536u /* first send buffer; grows to a batch + one record */
#define RP_UDP_MAX    65536u /* largest datagram we read */
/* Largest datagram we send: IPv4's UDP payload limit (65535 - 20 - 8).
 * Anything larger fails in sendmmsg with EMSGSIZE, which would read as a
 * socket failure; the encoder refuses it instead, for that call alone. */
#define RP_UDP_MAX_SEND 65507u
#define RP_TCP_CHUNK    65536u /* bytes per read() on a stream */
#define RP_READ_BUDGET  64     /* messages/reads per service call (fairness) */
#define RP_BATCH_BYTES  65536u /* calls gathered into one send on a stream */
#define RP_DGRAM_BATCH  16     /* datagrams per sendmmsg / recvmmsg */
#define RP_REPLY_MIN    12     /* xid, REPLY, reply status: the least a reply holds */

/* rp_call.rp_state, the life of a call:
 *   IDLE   not started, or completed (its callback has run or is running);
 *   QUEUED in flight, in the XID table and on the send queue;
 *   SENT   in flight, in the XID table, sent (or in the send buffer);
 *   DONE   finished outside a service: out of the XID table, on the done
 *          list until the next service runs its callback.
 * A call is in the XID table exactly while QUEUED or SENT, on the send
 * queue exactly while QUEUED, and counted in in_flight from rp_call_start
 * until it completes.  rp__call_in_flight and the asserts at each
 * transition (client.c, xid.c) hold the engine to it. */
enum { RP_CS_IDLE = 0, RP_CS_QUEUED = 1, RP_CS_SENT = 2, RP_CS_DONE = 3 };

/* Whether a call's state is one of the two in-flight states (for asserts;
 * no side effect). */
static inline int rp__call_in_flight(const struct rp_call *call)
{
    return call->rp_state == RP_CS_QUEUED || call->rp_state == RP_CS_SENT;
}

struct rp_client {
    const struct rp_transport_ops *ops;
    int fd;
    int dead;       /* fatal error: fail calls, refuse new ones */
    int in_service; /* inside rp_client_service (callbacks run) */
    uint32_t prog, vers;
    struct rp_client_opts opts;
    struct cm_clock clock;
    int local_port;

    /* call header template: xid, CALL, 2, prog, vers, proc, cred, verf */
    uint8_t hdr[RP_HDR_MAX];
    size_t hdr_len;
    uint32_t next_xid;

    /* XID table: chained hash, size a power of two >= 2 x max_in_flight */
    struct rp_call **buckets;
    uint32_t mask;
    unsigned in_flight;
    uint64_t next_deadline_ns; /* a lower bound of the earliest deadline */

    /* calls waiting for the send buffer (linked through rp_qnext) */
    struct rp_call *q_head, *q_tail;
    /* calls finished outside a service, callbacks pending (rp_qnext) */
    struct rp_call *done_head, *done_tail;

    /* encoded messages being written: a batch of records on streams, up to
     * RP_DGRAM_BATCH datagrams (ending at dg_end[]) on datagram sockets */
    uint8_t *sbuf;
    size_t scap, s_off, s_len;
    size_t dg_end[RP_DGRAM_BATCH];
    unsigned dg_n, dg_sent;
    /* the calls of the batch, where each ends in sbuf and under which XID:
     * a call is counted as sent (rp_call.sends) once s_off passes its end */
    struct rp__batched {
        struct rp_call *call;
        uint32_t xid;
        size_t end;
    } * bt;
    unsigned bt_n, bt_done, bt_cap;

    /* read buffer: one chunk on streams, RP_DGRAM_BATCH slots of rslot
     * bytes on datagram sockets */
    uint8_t *rbuf;
    size_t rcap, rslot;
    struct rp_recmark rm;
    unsigned rskew; /* streams: bytes of this connection received, mod 4
                       (tcp.c reads at rbuf + rskew so records start on a
                       word and are decoded in place) */
    uint8_t verf_buf[MAX_AUTH_BYTES];

    struct rp_client_stats st;
    char last_error[CM_ERR_LEN];

    /* adaptive retransmission: smoothed round trip and its variation */
    uint64_t srtt_ns, rttvar_ns;

    /* TCP reconnection (opts.reconnect_ms): the peer's address, and the
     * state while the connection is down */
    struct sockaddr_storage peer;
    socklen_t peerlen;
    int down;       /* lost; calls wait for a new connection */
    int connecting; /* a non-blocking connect is in progress on fd */
    uint64_t down_since_ns, next_try_ns;
    uint32_t backoff_ms;

    /* fault injection (fault.c); fault_on = 0 in production */
    int fault_on;
    struct rp_fault fault;
    struct cm_rng fault_rng;
    uint8_t *held;   /* a reply held back for reordering */
    size_t held_len; /* 0 = none held */
};

/* error.c: formats c->last_error; returns err (a negative errno) for tail
 * calls. */
int rp__set_error(struct rp_client *c, int err, const char *fmt, ...) CM_PRINTF(3, 4);

/* Where a reply message goes next (client.c's delivery to its call). */
typedef void (*rp__deliver_fn)(struct rp_client *c, const uint8_t *msg, size_t len,
                               uint64_t now);

/* xid.c */
int rp__xid_init(struct rp_client *c);
void rp__xid_free(struct rp_client *c);
void rp__xid_insert(struct rp_client *c, struct rp_call *call);
struct rp_call *rp__xid_find(const struct rp_client *c, uint32_t xid);
void rp__xid_remove(struct rp_client *c, struct rp_call *call);
/* Unlinks every call whose deadline is <= now and returns them as a list
 * through rp_next; recomputes next_deadline_ns over those that remain. */
struct rp_call *rp__xid_expire(struct rp_client *c, uint64_t now);
/* Unlinks every call (for a fatal error or close), as a list. */
struct rp_call *rp__xid_drain(struct rp_client *c);

/* auth.c: builds c->hdr from the options and the machine name (NULL = the
 * host name), AUTH_SYS through libtirpc.  0 or -errno with last_error. */
int rp__auth_header(struct rp_client *c, const char *machine_name);

/* client.c: one complete reply message from a transport (len bytes at
 * msg, received at now): matched to its call by XID, decoded, completed;
 * through fault injection first when it is on. */
void rp__reply(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now);

/* reply.c: decodes a reply message of at least RP_REPLY_MIN bytes whose XID
 * is call's, into call->res (and the version range of a PROG_MISMATCH).
 * Returns 0 or an RP_ERR_* with last_error; changes no state. */
int rp__reply_decode(struct rp_client *c, struct rp_call *call, const uint8_t *msg,
                     size_t len);

/* fault.c: fault injection between the transports and the engine.  A reply
 * that survives (or is duplicated, cut, or released after the next one) is
 * handed to deliver. */
int rp__fault_init(struct rp_client *c, const struct rp_fault *f);
void rp__fault_free(struct rp_client *c);
void rp__fault_reply(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now,
                     rp__deliver_fn deliver);
/* Delivers a reply held back for reordering (end of a read). */
void rp__fault_release(struct rp_client *c, uint64_t now, rp__deliver_fn deliver);

/* Grows the send buffer to at least need bytes, doubling (the caller,
 * encode(), keeps one message within the record limit). */
int rp__sbuf_reserve(struct rp_client *c, size_t need);

#endif /* RP_INT_H */
