/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rp.h - the public interface of the rpc layer: FreeSFS's own ONC RPC client
 * engine (docs/DECISIONS.md D2).  One struct rp_client is one non-blocking socket
 * (UDP or TCP) to one (address, program, version); many calls are in flight
 * on it at once, matched to replies by XID.  XDR coding and AUTH_SYS come
 * from libtirpc; everything else (framing, XID table, timestamps, timeouts,
 * UDP retransmission with the same XID) lives here.  The layer knows nothing
 * of NFS: the nfs layer (nf.h) puts procedure tables on top of it.
 *
 * Contract (docs/STYLE.md 2.4, libuv/libnfs): rp_call_start either returns a
 * negative errno and never calls the done callback, or returns 0 and calls
 * it exactly once, from inside rp_client_service / rp_poll / rp_call_sync /
 * rp_client_close.  Nothing here prints; error text goes to the client's
 * last_error.  Nothing allocates per call: struct rp_call is the caller's.
 */
#ifndef RP_H
#define RP_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <rpc/rpc.h>

#include "common/clock.h"

/* ---- statuses ----------------------------------------------------------- */

/*
 * struct rp_call.status is 0 when a reply was accepted (MSG_ACCEPTED,
 * SUCCESS) and its result decoded, else one of these negative errnos.  An
 * NFS status inside a decoded result is data, not an RPC error.
 */
#define RP_ERR_TIMEDOUT      (-ETIMEDOUT)       /* no reply within the tries */
#define RP_ERR_GARBAGE       (-EPROTO)          /* undecodable reply */
#define RP_ERR_PROG_UNAVAIL  (-EPROTONOSUPPORT) /* PROG_UNAVAIL */
#define RP_ERR_PROG_MISMATCH (-EPFNOSUPPORT)    /* PROG_MISMATCH: see low/high */
#define RP_ERR_PROC_UNAVAIL  (-EOPNOTSUPP)      /* PROC_UNAVAIL */
#define RP_ERR_GARBAGE_ARGS  (-EBADMSG)         /* server could not decode args */
#define RP_ERR_SYSTEM        (-EREMOTEIO)       /* SYSTEM_ERR */
#define RP_ERR_RPC_MISMATCH  (-EPROTOTYPE)      /* MSG_DENIED, RPC_MISMATCH */
#define RP_ERR_AUTH          (-EACCES)          /* MSG_DENIED, AUTH_ERROR */
#define RP_ERR_CONNRESET     (-ECONNRESET)      /* TCP connection lost */
#define RP_ERR_CANCELED      (-ECANCELED)       /* client closed while in flight */
#define RP_ERR_ENCODE        (-EMSGSIZE)        /* arguments did not encode */

/* A short text for a status above ("timed out", "program unavailable"...),
 * or strerror's text for any other negative errno; "ok" for 0.  Static. */
const char *rp_status_text(int status);

/* ---- options ------------------------------------------------------------ */

enum rp_transport_kind { RP_UDP = 0, RP_TCP = 1 };

/* Reserved source port policy: never required (D2). */
enum rp_resv_port {
    RP_RESV_NO = 0,   /* any port (default) */
    RP_RESV_TRY = 1,  /* bind a port below 1024 if allowed, else any port */
    RP_RESV_MUST = 2, /* bind a port below 1024 or fail with -EACCES */
};

#define RP_DEFAULT_MAX_IN_FLIGHT 64
#define RP_DEFAULT_UDP_TRIES     5       /* first send + 4 retransmissions */
#define RP_DEFAULT_MAX_RECORD    1200000 /* bytes; fits a 1 MB READ reply */
#define RP_MAX_GIDS              16

/*
 * Fault injection (fault.c, docs/STYLE.md 2.5): under a seed, replies read from
 * the socket are dropped, delivered twice, cut in half, or held back and
 * delivered after the next one (at the latest at the end of that read).
 * Percentages of replies, applied in that order.  For tests and
 * robustness checks only; NULL in production.
 */
struct rp_fault {
    uint32_t seed;
    unsigned drop_pct;
    unsigned dup_pct;
    unsigned truncate_pct;
    unsigned reorder_pct;
};

/* Parses a fault spec "drop=P,dup=P,trunc=P,reorder=P,seed=N" (P in
 * percent, their sum at most 100; any subset, any order) into f (zeroed
 * first).  Returns 0, or -EINVAL with one line naming the bad item in err.
 * what names the option in messages ("-F"). */
int rp_fault_parse(const char *what, const char *spec, struct rp_fault *f, char *err,
                   size_t errlen);

struct rp_client_opts {
    enum rp_transport_kind transport; /* RP_UDP (default) or RP_TCP */
    enum rp_resv_port resv_port;      /* default RP_RESV_NO */
    /* AUTH_SYS credentials; -1 = the calling process's (getuid, getgid,
     * getgroups, the host name). */
    int64_t uid;
    int64_t gid;
    int ngids;                    /* -1 = caller's supplementary groups */
    uint32_t gids[RP_MAX_GIDS];   /* used when ngids >= 0 */
    const char *machine_name;     /* NULL = gethostname() */
    const struct cm_clock *clock; /* NULL = cm_monotonic_clock; copied */
    unsigned max_in_flight;       /* calls; rp_call_start gives -EAGAIN beyond */
    unsigned udp_tries;           /* total sends of one UDP call (>= 1) */
    size_t max_record_bytes;      /* largest reply accepted (TCP record, UDP
                                     datagram buffer) */
    size_t sndbuf_bytes;          /* SO_SNDBUF/SO_RCVBUF, 0 = system default */
    const struct rp_fault *fault; /* NULL = none (default); copied */
    /* UDP: adaptive retransmission (population, docs/DECISIONS.md D2): the
     * first re-send after about four measured round trips (RP_RTO_MIN_MS at
     * least), each later wait doubled up to
     * the call's timeout_ms; the call fails when timeout_ms x udp_tries
     * have passed, the same bound as without.  0 (default): every wait is
     * timeout_ms, SFS's fixed class timer.  rp_client_set_adaptive_rto
     * changes it on an open client. */
    int adaptive_rto;
    /* TCP: how long to keep reconnecting after the connection is lost, in
     * ms (0, the default: a lost connection is fatal).  Reconnection
     * attempts back off from RP_RECONNECT_FIRST_MS to RP_RECONNECT_MAX_MS;
     * calls in flight stay in flight and are sent again with the same XID
     * on the new connection (each still fails at its own deadline).  After
     * reconnect_ms without a connection every call fails with
     * RP_ERR_CONNRESET and the client is closed for new calls. */
    uint32_t reconnect_ms;
    /* Opens the new connection (a connected stream fd, or -errno); NULL =
     * connect again to the address given to rp_client_open.  Lets a client
     * opened with rp_client_open_fd (and the unit tests) reconnect. */
    int (*reopen)(void *data);
    void *reopen_data;
};

#define RP_RTO_MIN_MS         50u   /* shortest adaptive first wait */
#define RP_RTO_INITIAL_MS     250u  /* adaptive wait before any round trip is measured */
#define RP_RECONNECT_FIRST_MS 50u   /* first wait between reconnection attempts */
#define RP_RECONNECT_MAX_MS   1000u /* the backoff's bound */

/* Fills o with the defaults above. */
void rp_client_opts_init(struct rp_client_opts *o);

/* ---- calls -------------------------------------------------------------- */

struct rp_call;
/* Called exactly once per started call, with call->status set.  The call
 * may be started again (or freed) from inside the callback. */
typedef void (*rp_done_fn)(struct rp_call *call, void *data);

/*
 * One RPC call, owned by the caller and valid (with args and res) until the
 * done callback returns.  Fill the inputs (rp_call_prepare does that), then
 * rp_call_start.  res must be zeroed by the caller before the call and freed
 * by the caller with xdr_free(res_codec, res) after a status 0 (decoded
 * strings and arrays are allocated by XDR; on any other status nothing is
 * left allocated in res).
 */
struct rp_call {
    /* inputs */
    uint32_t proc;
    xdrproc_t args_codec; /* rp_xdr_void for no arguments */
    const void *args;     /* read again on every UDP retransmission */
    xdrproc_t res_codec;  /* rp_xdr_void for no result */
    void *res;
    uint32_t timeout_ms; /* SFS call-class timeout (nf_class_timeout_ms):
                            UDP retransmits after it, TCP gives up after it */
    rp_done_fn done;     /* NULL only for rp_call_sync */
    void *data;          /* the caller's, passed to done */

    /* outputs, valid in the done callback */
    int status; /* 0 or a negative errno (RP_ERR_*) */
    uint32_t xid;
    uint64_t t_send_ns;   /* CLOCK_MONOTONIC (the client's clock) at the
                             FIRST send */
    uint64_t t_reply_ns;  /* when the reply was read; 0 when none */
    uint32_t retransmits; /* re-sends of this call: UDP after a timeout, TCP
                             on a new connection after a lost one */
    uint32_t sends;       /* times the transport took the whole message (the
                             socket accepted its bytes): 0 for a call that
                             never left this host (a connection down, a
                             send refused) */
    uint32_t low_version; /* PROG_MISMATCH: the versions the server offers */
    uint32_t high_version;

    /* private to the engine */
    struct rp_call *rp_next;  /* XID hash chain */
    struct rp_call *rp_qnext; /* send queue */
    uint64_t rp_deadline_ns;
    uint32_t rp_state;
    uint32_t rp_tries;
};

/* The codec of "no arguments" / "no result".  Use it instead of libtirpc's
 * xdr_void, whose parameterless prototype cannot be cast to xdrproc_t
 * without -Wcast-function-type. */
bool_t rp_xdr_void(XDR *xdrs, void *unused);

/* Fills the inputs of a call and clears its outputs. */
void rp_call_prepare(struct rp_call *call, uint32_t proc, xdrproc_t args_codec,
                     const void *args, xdrproc_t res_codec, void *res,
                     uint32_t timeout_ms, rp_done_fn done, void *data);

/* Response time of a finished call in microseconds (t_reply - t_send). */
static inline uint64_t rp_call_usec(const struct rp_call *call)
{
    return call->t_reply_ns > call->t_send_ns
               ? (call->t_reply_ns - call->t_send_ns) / 1000
               : 0;
}

/* ---- clients ------------------------------------------------------------ */

struct rp_client;

/*
 * Opens a non-blocking socket to addr (IPv4 or IPv6) for program prog,
 * version vers.  TCP connects synchronously with a bounded wait
 * (connect_timeout_ms, 0 = 10 s).  Returns 0 and *out, or -errno
 * (-ECONNREFUSED, -ETIMEDOUT, -EACCES for RP_RESV_MUST, -ENOMEM) with the
 * reason in err.  opts may be NULL for the defaults.
 */
int rp_client_open(struct rp_client **out, const struct sockaddr *addr, socklen_t addrlen,
                   uint32_t prog, uint32_t vers, const struct rp_client_opts *opts,
                   uint32_t connect_timeout_ms, char *err, size_t errlen);

/*
 * Wraps an already connected socket (a socketpair in the unit tests, or a
 * socket the caller set up itself): the client owns fd from now on, even on
 * failure.  transport says how to frame calls.  Returns 0 or -errno.
 */
int rp_client_open_fd(struct rp_client **out, int fd, enum rp_transport_kind transport,
                      uint32_t prog, uint32_t vers, const struct rp_client_opts *opts,
                      char *err, size_t errlen);

/* Completes every call still in flight or queued with RP_ERR_CANCELED
 * (their callbacks run here; calls they start get -ENOTCONN), closes the
 * socket, frees c.  NULL is fine.  Never call it from a done callback of
 * the same client (the service that runs the callback still uses c). */
void rp_client_close(struct rp_client *c);

/*
 * Starts a call: stamps t_send_ns, assigns an XID, sends or queues it.
 * Returns 0 (done will be called exactly once later) or -EAGAIN when
 * max_in_flight calls are in flight, -EINVAL for a call without done,
 * -ENOTCONN after a fatal socket error (rp_client_last_error still says
 * which) or while closing; then done is never called.  Never blocks.  Called from a done
 * callback of the same client, the call leaves at the end of that service, batched with
 * the others started there.  A call whose arguments do not encode completes with
 * RP_ERR_ENCODE.
 */
int rp_call_start(struct rp_client *c, struct rp_call *call);

/*
 * Runs one call to completion, servicing only this client (other calls in
 * flight on it keep completing meanwhile).  Returns call->status, or the
 * start error.  done may be NULL.  Blocks at most about
 * timeout_ms x udp_tries.
 */
int rp_call_sync(struct rp_client *c, struct rp_call *call);

/* The socket, and the poll events it wants now (POLLIN, plus POLLOUT while
 * output is queued), for an external poll loop. */
int rp_client_fd(const struct rp_client *c);
short rp_client_events(const struct rp_client *c);

/*
 * Services the socket after poll reported revents (0 is fine: then only the
 * timeouts are checked): sends queued output, reads every reply available,
 * completes matched calls, fires timeouts and UDP retransmissions.  Never
 * blocks.  Returns the number of calls completed, or -errno after a fatal
 * socket error (every call in flight was then completed with it).
 */
int rp_client_service(struct rp_client *c, short revents);

/* Milliseconds until the earliest deadline of a call in flight (0 when one
 * has passed), or -1 when nothing is in flight. */
int rp_client_timeout_ms(const struct rp_client *c);

/*
 * Polls n clients for at most timeout_ms (-1 = until the next call deadline;
 * never longer than that), services them and fires timeouts.  Returns the
 * number of calls completed (0 on a quiet timeout), or -errno when poll
 * itself failed (-EINTR after a signal).
 */
int rp_poll(struct rp_client *const *clients, size_t n, int timeout_ms);

/* Calls started and not yet completed (queued + sent). */
unsigned rp_client_in_flight(const struct rp_client *c);

/* Turns adaptive UDP retransmission (rp_client_opts.adaptive_rto) on or
 * off for the calls started from now on. */
void rp_client_set_adaptive_rto(struct rp_client *c, int on);

/* Where a client stands: RP_STATE_UP; RP_STATE_DOWN while a lost TCP
 * connection is being re-established (calls wait); RP_STATE_DEAD after a
 * fatal error (new calls get -ENOTCONN). */
enum rp_client_state { RP_STATE_UP = 0, RP_STATE_DOWN = 1, RP_STATE_DEAD = 2 };
enum rp_client_state rp_client_state(const struct rp_client *c);

/* The text of the last error on this client ("" when none). */
const char *rp_client_last_error(const struct rp_client *c);

/* Transport of the client (for the call-class timeout). */
enum rp_transport_kind rp_client_transport(const struct rp_client *c);
/* The program and version the client was opened for. */
uint32_t rp_client_prog(const struct rp_client *c);
uint32_t rp_client_vers(const struct rp_client *c);
/* The XID the next call started will get (XIDs go up by one per call
 * started; a retransmission keeps its call's): what a capture of the
 * client's calls from a moment on is told apart by (debug lines). */
uint32_t rp_client_next_xid(const struct rp_client *c);
/* The local port the socket is bound to (to check reserved ports). */
int rp_client_local_port(const struct rp_client *c);

struct rp_client_stats {
    uint64_t calls_started;
    uint64_t calls_done;  /* every completion, any status */
    uint64_t replies;     /* replies matched to a call */
    uint64_t retransmits; /* UDP re-sends */
    uint64_t timeouts;    /* calls completed with RP_ERR_TIMEDOUT */
    uint64_t unknown_xid; /* replies with no call in flight: dropped */
    uint64_t garbage;     /* replies or records that did not decode */
    uint64_t no_memory;   /* TCP records lost because the receive buffer could
                             not grow: the connection is given up (-ENOMEM) */
    uint64_t bytes_sent;
    uint64_t bytes_received;
    uint64_t faults;            /* replies dropped/duplicated/cut/held by
                                   fault injection */
    uint64_t connection_losses; /* TCP connections lost (reconnect_ms > 0) */
    uint64_t reconnects;        /* ... and re-established */
    uint64_t srtt_us;           /* smoothed round trip (adaptive_rto), 0 = none */
};
void rp_client_stats(const struct rp_client *c, struct rp_client_stats *st);

/* ---- rpcbind / portmapper (pmap.c) -------------------------------------- */

/*
 * Asks the portmapper (PMAPPROC_GETPORT, version 2, UDP) at addr (its port
 * is ignored; 111 is used unless pmap_port != 0) for the port of
 * (prog, vers, proto = IPPROTO_UDP or IPPROTO_TCP).  Returns 0 with *port
 * (0 when the program/version is not registered), -ECONNREFUSED or
 * -ETIMEDOUT when no portmapper answers, with the reason in err.
 * Blocks up to timeout_ms x RP_DEFAULT_UDP_TRIES.
 */
int rp_pmap_getport(const struct sockaddr *addr, socklen_t addrlen, uint16_t pmap_port,
                    uint32_t prog, uint32_t vers, int proto, uint32_t timeout_ms,
                    uint16_t *port, char *err, size_t errlen);

#endif /* RP_H */
