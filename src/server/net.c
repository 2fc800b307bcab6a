/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * net.c - sfs_nfsd's sockets and event loop (server layer): UDP and TCP on
 * the NFS port and the MOUNT port (every socket serves every program and
 * version: the host:port:/path form of docs/DECISIONS.md D2 relies on it), one
 * single-threaded ppoll() loop, UDP datagrams read and answered in batches
 * (recvmmsg, sendmmsg), TCP record marking (RFC 5531 section 11),
 * replies held back by --delay-us in a small min-heap, and registration
 * with rpcbind on request.  The protocol work is sv_core_handle's; this file
 * only moves bytes.  TCP records are framed by the rpc layer's record
 * marker (rpc/recmark.h), shared with the client engine: every read lands
 * in one server-wide buffer and complete records are answered in place.
 *
 * No client can take the server down or shut others out: a connection
 * whose replies are not drained past OUT_HIGH_WATER is not read from any
 * more (what was already read waits in a per-connection buffer of at most
 * one read), idle connections are closed after --idle-timeout, and at the
 * --max-connections limit the connection idle the longest makes room for
 * the new one.  Connection buffers are counted (current and peak) and
 * given back when a connection drains or closes.  Their sum has a budget
 * (--max-buffer-mb): past it, the connections that pin the most while
 * not taking their replies are closed (shed), largest first, until the
 * sum is back under it, so that a thousand such peers cannot take the
 * server's memory while the clients that read their replies are served
 * on.  The process's descriptor limit is raised to what --max-connections
 * needs, and a full descriptor table closes the connection idle the
 * longest, as the connection limit does.  Asserted: the buffer count is
 * the sum of what the open connections hold, and the delayed replies a
 * connection waits for are counted in it.
 */
#define _GNU_SOURCE /* accept4, ppoll */
#include "rpc/recmark.h"
#include "server/sv_int.h"
#include "common/alloc.h"
#include "common/atomic.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <rpc/pmap_clnt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "common/cm.h"
#include "common/error.h"
#include "common/clock.h"

#define MAX_CONNS      SV_MAX_CONNECTIONS
#define READ_BUF       (256 * 1024)
#define OUT_HIGH_WATER (4 * 1024 * 1024) /* stop reading a client beyond this */
#define OUT_KEEP       (64 * 1024)       /* a drained queue keeps this much */
#define OUT_MAX        (OUT_HIGH_WATER + SV_REPLY_MAX + 4)
#define UDP_BURST      64 /* datagrams per wake-up per socket */
#define UDP_BATCH      16 /* datagrams per recvmmsg, replies per sendmmsg */
#define UDP_MSG_MAX    65536
#define MAX_DELAYED    65536
#define SPARE_FDS      64           /* descriptors beside the connections' */
#define TURN_QUANTUM   (256 * 1024) /* reply bytes a connection makes per turn */

struct conn {
    int fd;
    uint32_t gen;
    struct rp_recmark rm; /* holds a record that spans reads */
    uint8_t *out;
    size_t out_off, out_len, out_cap;
    size_t delayed_bytes; /* its replies waiting in the --delay-us heap */
    uint8_t *pend;        /* read but not answered yet (throttled) */
    size_t pend_off, pend_len;
    size_t rbuf_len; /* bytes of the last read in s->rbuf */
    size_t held;     /* buffer bytes last counted in s->stats */
    int throttled;
    /* fairness: reply bytes made in turn (one pass of the loop); past
     * TURN_QUANTUM the rest of the input waits in pend (yielded) */
    uint64_t turn;
    size_t used;
    int yielded;
    uint64_t last_ns; /* last byte read or written */
    char peer[INET6_ADDRSTRLEN];
};

struct delayed {
    uint64_t due_ns;
    int udp_fd; /* >= 0: a datagram to addr */
    int conn;   /* else: a record for conns[conn] if gen still matches */
    uint32_t gen;
    struct sockaddr_storage addr;
    socklen_t alen;
    size_t len;
    uint8_t *data;
};

struct sv_server {
    struct sv_core *core;
    char bind_addr[INET6_ADDRSTRLEN];
    char stats_file[4096];
    int has_stats;
    uint16_t ports[2]; /* NFS, MOUNT (equal: one set of sockets) */
    int nports;
    int udp[2], tcp[2];
    int registered;
    struct conn conns[MAX_CONNS];
    int nconns_used; /* highest used slot + 1 */
    int max_conns;
    uint64_t idle_ns; /* 0 = connections never time out */
    struct sv_conn_stats stats;
    uint64_t shed_none_at; /* buffer bytes when no connection could be shed */
    uint64_t turn;         /* passes of the loop */
    uint32_t next_gen;
    struct pollfd *pfd;
    int *pfd_conn;  /* for each pollfd: connection index, or -1 */
    uint8_t *reply; /* 4-byte record mark + SV_REPLY_MAX */
    /* UDP: a batch of datagrams read by one recvmmsg, their replies sent
     * by one sendmmsg (two syscalls for up to UDP_BATCH calls, where
     * recvfrom and sendto took two per call) */
    struct mmsghdr udp_in[UDP_BATCH], udp_out[UDP_BATCH];
    struct iovec udp_in_iov[UDP_BATCH], udp_out_iov[UDP_BATCH];
    struct sockaddr_storage udp_addr[UDP_BATCH];
    uint8_t *udp_in_buf;  /* UDP_BATCH x UDP_MSG_MAX */
    uint8_t *udp_out_buf; /* UDP_BATCH x SV_REPLY_MAX (touched as used) */
    uint8_t *rbuf;        /* every TCP read (READ_BUF) */
    struct delayed *heap;
    size_t nheap;
};

/* ---- sockets ------------------------------------------------------------- */

static int nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int bind_one(const char *addr, uint16_t port, int type, char *err, size_t errlen)
{
    struct addrinfo hints, *ai = NULL;
    char ps[8];
    int fd, one = 1, rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    hints.ai_socktype = type;
    snprintf(ps, sizeof(ps), "%u", port);
    rc = getaddrinfo(addr, ps, &hints, &ai);
    if (rc != 0) {
        cm_errf(err, errlen, "-b %s: %s", addr, gai_strerror(rc));
        return -EINVAL;
    }
    fd = socket(ai->ai_family, type | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        rc = -errno;
        freeaddrinfo(ai);
        cm_errf(err, errlen, "socket: %s", strerror(-rc));
        return rc;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (type == SOCK_DGRAM) {
        int sz = 4 * 1024 * 1024;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
    }
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
        (type == SOCK_STREAM && listen(fd, 128) != 0) || nonblock(fd) != 0) {
        rc = -errno;
        cm_errf(err, errlen, "%s %s port %u: %s", type == SOCK_DGRAM ? "udp" : "tcp",
                addr, port, strerror(-rc));
        close(fd);
        freeaddrinfo(ai);
        return rc;
    }
    freeaddrinfo(ai);
    return fd;
}

static uint16_t local_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);

    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        return 0;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/* TCP and UDP on one port number.  Port 0 picks a free one (TCP first,
 * then UDP on the same number, retried a few times if UDP's is taken). */
static int bind_pair(struct sv_server *s, int i, uint16_t port, char *err, size_t errlen)
{
    for (int tries = 0; tries < 20; tries++) {
        int t = bind_one(s->bind_addr, port, SOCK_STREAM, err, errlen);
        if (t < 0)
            return t;
        uint16_t p = local_port(t);
        int u = bind_one(s->bind_addr, p, SOCK_DGRAM, err, errlen);
        if (u >= 0) {
            s->tcp[i] = t;
            s->udp[i] = u;
            s->ports[i] = p;
            return 0;
        }
        close(t);
        if (port != 0)
            return u;
    }
    return -EADDRINUSE;
}

/* ---- lifecycle ----------------------------------------------------------- */

/* Raises the soft descriptor limit to want, within the hard limit, so that
 * --max-connections is not cut short by a default of 1024; where the hard
 * limit is lower, a full table closes the idlest connection (tcp_accept). */
static void raise_fd_limit(rlim_t want)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= want)
        return;
    rl.rlim_cur =
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &rl);
}

struct sv_server *sv_server_create(const struct sv_config *cfg, char *err, size_t errlen)
{
    struct sv_server *s = cm_calloc(1, sizeof(*s));

    if (s == NULL) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    s->udp[0] = s->udp[1] = s->tcp[0] = s->tcp[1] = -1;
    for (int i = 0; i < MAX_CONNS; i++)
        s->conns[i].fd = -1;
    s->max_conns = cfg->max_connections > 0 && cfg->max_connections < MAX_CONNS
                       ? cfg->max_connections
                       : MAX_CONNS;
    s->idle_ns = (uint64_t)cfg->idle_timeout_s * 1000000000u;
    s->stats.buffer_limit = cfg->max_buffer_bytes;
    raise_fd_limit((rlim_t)s->max_conns + SPARE_FDS);
    /* Connection buffers above 128 KiB come from mmap, so that they go
     * back to the system when freed (glibc would otherwise raise the
     * threshold after the first free and keep them in the heap). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    snprintf(s->bind_addr, sizeof(s->bind_addr), "%s",
             cfg->bind_addr ? cfg->bind_addr : "127.0.0.1");
    if (cfg->stats_file) {
        struct cm_atomic_file af;

        /* a file it cannot write is said now, not after the run it counts */
        if (cm_atomic_open(&af, cfg->stats_file, err, errlen) != 0) {
            sv_server_destroy(s);
            return NULL;
        }
        cm_atomic_abort(&af);
        snprintf(s->stats_file, sizeof(s->stats_file), "%s", cfg->stats_file);
        s->has_stats = 1;
    }
    s->reply = cm_malloc(SV_REPLY_MAX + 4);
    s->udp_in_buf = cm_malloc((size_t)UDP_BATCH * UDP_MSG_MAX);
    s->udp_out_buf = cm_malloc((size_t)UDP_BATCH * SV_REPLY_MAX);
    s->rbuf = cm_malloc(READ_BUF);
    s->pfd = cm_calloc(MAX_CONNS + 4, sizeof(*s->pfd));
    s->pfd_conn = cm_calloc(MAX_CONNS + 4, sizeof(*s->pfd_conn));
    if (!s->reply || !s->udp_in_buf || !s->udp_out_buf || !s->rbuf || !s->pfd ||
        !s->pfd_conn) {
        cm_errf(err, errlen, "out of memory");
        sv_server_destroy(s);
        return NULL;
    }
    s->core = sv_core_create(cfg, err, errlen);
    if (s->core == NULL) {
        sv_server_destroy(s);
        return NULL;
    }
    s->nports = (cfg->nfs_port == cfg->mount_port && cfg->nfs_port != 0) ? 1 : 2;
    for (int i = 0; i < s->nports; i++) {
        if (bind_pair(s, i, i == 0 ? cfg->nfs_port : cfg->mount_port, err, errlen) < 0) {
            sv_server_destroy(s);
            return NULL;
        }
    }
    if (s->nports == 1)
        s->ports[1] = s->ports[0];
    return s;
}

void sv_server_ready_line(const struct sv_server *s, char *buf, size_t len)
{
    /* IPv6 addresses in brackets, so that the port stays unambiguous */
    const char *l = strchr(s->bind_addr, ':') ? "[" : "", *r = *l ? "]" : "";
    int n =
        snprintf(buf, len, "ready nfs %s%s%s:%u udp,tcp mount %s%s%s:%u udp,tcp exports",
                 l, s->bind_addr, r, s->ports[0], l, s->bind_addr, r, s->ports[1]);
    for (int i = 0; i < s->core->nexports && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? "," : " ",
                      s->core->exports[i]);
}

int sv_server_register(struct sv_server *s, char *err, size_t errlen)
{
    static const struct {
        unsigned long prog, vers;
        int port_index;
    } regs[] = {{100003, 2, 0}, {100003, 3, 0}, {100005, 1, 1}, {100005, 3, 1}};

    for (size_t i = 0; i < CM_ARRAY_LEN(regs); i++) {
        unsigned short port = s->ports[regs[i].port_index];
        pmap_unset(regs[i].prog, regs[i].vers);
        if (!pmap_set(regs[i].prog, regs[i].vers, IPPROTO_UDP, port) ||
            !pmap_set(regs[i].prog, regs[i].vers, IPPROTO_TCP, port)) {
            cm_errf(err, errlen,
                    "rpcbind registration of %lu v%lu failed (is rpcbind running?)",
                    regs[i].prog, regs[i].vers);
            s->registered = 1; /* undo what did get in */
            return -ECONNREFUSED;
        }
    }
    s->registered = 1;
    return 0;
}

/* Buffer bytes a connection holds now. */
static size_t conn_bytes(const struct conn *c)
{
    return c->out_cap + c->rm.cap + (c->pend ? READ_BUF : 0) + c->delayed_bytes;
}

/* Brings the server's count of connection buffer bytes up to date. */
static void conn_account(struct sv_server *s, struct conn *c)
{
    size_t now = c->fd >= 0 ? conn_bytes(c) : 0;

    assert(s->stats.buffer_bytes >= c->held);
    s->stats.buffer_bytes = s->stats.buffer_bytes - c->held + now;
    c->held = now;
    if (s->stats.buffer_bytes > s->stats.buffer_bytes_peak)
        s->stats.buffer_bytes_peak = s->stats.buffer_bytes;
}

static void conn_close(struct sv_server *s, int i)
{
    struct conn *c = &s->conns[i];

    if (c->fd >= 0) {
        assert(s->stats.open > 0);
        close(c->fd);
        s->stats.open--;
    }
    c->fd = -1;
    conn_account(s, c); /* before the buffers go: held drops to 0 */
    rp_recmark_free(&c->rm);
    free(c->out);
    free(c->pend);
    memset(c, 0, sizeof(*c));
    c->fd = -1;
    while (s->nconns_used > 0 && s->conns[s->nconns_used - 1].fd < 0)
        s->nconns_used--;
}

/* Whether a connection pins buffers its peer does not drain: replies it
 * has not taken (the socket would block) or calls held back unanswered. */
static int conn_offends(const struct conn *c)
{
    return c->fd >= 0 && (c->out_len > c->out_off || c->pend != NULL);
}

/* While the connections' buffers are over --max-buffer-mb, closes the
 * offending connection that holds the most (the oldest activity breaks a
 * tie).  A peer that reads its replies is never chosen; when only such
 * peers remain nothing is closed, and the search waits until the count
 * grows again. */
static void budget_shed(struct sv_server *s)
{
    while (s->stats.buffer_limit && s->stats.buffer_bytes > s->stats.buffer_limit &&
           s->stats.buffer_bytes > s->shed_none_at) {
        int worst = -1;

        for (int i = 0; i < s->nconns_used; i++) {
            const struct conn *c = &s->conns[i];
            if (conn_offends(c) && (worst < 0 || c->held > s->conns[worst].held ||
                                    (c->held == s->conns[worst].held &&
                                     c->last_ns < s->conns[worst].last_ns)))
                worst = i;
        }
        if (worst < 0) {
            s->shed_none_at = s->stats.buffer_bytes;
            return;
        }
        s->stats.shed++;
        s->stats.shed_bytes += s->conns[worst].held;
        /* a reset, not a FIN queued behind replies the peer never takes:
         * the kernel's buffers for it go at once too, and the peer learns */
        (void)setsockopt(s->conns[worst].fd, SOL_SOCKET, SO_LINGER,
                         &(struct linger){.l_onoff = 1, .l_linger = 0},
                         sizeof(struct linger));
        conn_close(s, worst);
    }
    if (s->stats.buffer_bytes <= s->stats.buffer_limit)
        s->shed_none_at = 0;
}

void sv_server_destroy(struct sv_server *s)
{
    if (s == NULL)
        return;
    if (s->registered) {
        pmap_unset(100003, 2);
        pmap_unset(100003, 3);
        pmap_unset(100005, 1);
        pmap_unset(100005, 3);
    }
    for (int i = 0; i < MAX_CONNS; i++)
        if (s->conns[i].fd >= 0)
            conn_close(s, i);
    for (int i = 0; i < 2; i++) {
        if (s->udp[i] >= 0)
            close(s->udp[i]);
        if (s->tcp[i] >= 0)
            close(s->tcp[i]);
    }
    for (size_t i = 0; i < s->nheap; i++)
        free(s->heap[i].data);
    free(s->heap);
    sv_core_destroy(s->core);
    free(s->reply);
    free(s->udp_in_buf);
    free(s->udp_out_buf);
    free(s->rbuf);
    free(s->pfd);
    free(s->pfd_conn);
    free(s);
}

int sv_server_write_stats(struct sv_server *s, char *err, size_t errlen)
{
    if (!s->has_stats)
        return 0;
    return sv_core_write_stats(s->core, s->stats_file, &s->stats, err, errlen);
}

void sv_server_conn_stats(const struct sv_server *s, struct sv_conn_stats *st)
{
    *st = s->stats;
}

/* ---- delayed replies (--delay-us) ----------------------------------------- */

static void heap_swap(struct delayed *a, struct delayed *b)
{
    struct delayed t = *a;
    *a = *b;
    *b = t;
}

/* Holds a reply until d->due_ns.  Returns 0, or -1 when it was lost
 * (d->data NULL: no memory for it, the heap is full or out of memory;
 * d->data is freed), counted in the stats. */
static int heap_push(struct sv_server *s, struct delayed *d)
{
    size_t i;

    /* bounded: beyond MAX_DELAYED the reply is lost, as a congested
     * network would lose it */
    if (d->data == NULL || s->nheap == MAX_DELAYED ||
        (s->heap == NULL &&
         (s->heap = cm_malloc(MAX_DELAYED * sizeof(*s->heap))) == NULL)) {
        free(d->data);
        s->stats.delayed_lost++;
        return -1;
    }
    i = s->nheap++;
    s->heap[i] = *d;
    while (i > 0 && s->heap[(i - 1) / 2].due_ns > s->heap[i].due_ns) {
        heap_swap(&s->heap[(i - 1) / 2], &s->heap[i]);
        i = (i - 1) / 2;
    }
    return 0;
}

static void heap_pop(struct sv_server *s)
{
    size_t i = 0;

    assert(s->nheap > 0);
    s->heap[0] = s->heap[--s->nheap];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nheap && s->heap[l].due_ns < s->heap[m].due_ns)
            m = l;
        if (r < s->nheap && s->heap[r].due_ns < s->heap[m].due_ns)
            m = r;
        if (m == i)
            break;
        heap_swap(&s->heap[i], &s->heap[m]);
        i = m;
    }
}

/* ---- TCP ----------------------------------------------------------------- */

static int conn_queue(struct conn *c, const uint8_t *data, size_t len)
{
    if (c->out_off > 0 && c->out_off == c->out_len)
        c->out_off = c->out_len = 0;
    if (c->out_len + len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : OUT_KEEP;
        uint8_t *p;
        if (c->out_off > 0) { /* compact before growing */
            memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
            c->out_len -= c->out_off;
            c->out_off = 0;
        }
        while (cap < c->out_len + len)
            cap *= 2;
        /* the backlog never passes the mark by more than one reply */
        if (cap > OUT_MAX && c->out_len + len <= OUT_MAX)
            cap = OUT_MAX;
        if (cap != c->out_cap) {
            p = cm_realloc(c->out, cap);
            if (p == NULL)
                return -ENOMEM;
            c->out = p;
            c->out_cap = cap;
        }
    }
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
    return 0;
}

static int conn_flush(struct conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t n =
            send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
        c->out_off += (size_t)n;
        c->last_ns = cm_now_ns();
    }
    c->out_off = c->out_len = 0;
    if (c->out_cap > OUT_KEEP) { /* a burst is over: give its memory back */
        free(c->out);
        c->out = NULL;
        c->out_cap = 0;
    }
    return 0;
}

/* Reply bytes a connection has not taken yet (queued or delayed). */
static size_t conn_backlog(const struct conn *c)
{
    return c->out_len - c->out_off + c->delayed_bytes;
}

/* Answers one call and queues (or delays) the reply record. */
static int conn_answer(struct sv_server *s, int ci, const uint8_t *msg, size_t len)
{
    struct conn *c = &s->conns[ci];
    struct sv_reply r =
        sv_core_handle(s->core, msg, len, s->reply + 4, SV_REPLY_MAX, c->peer, 0);

    if (r.len == 0)
        return 0;
    c->used += r.len + 4;
    rp_recmark_put(s->reply, r.len, 1);
    if (r.delay_ns) {
        struct delayed d = {cm_now_ns() + r.delay_ns, -1, ci, c->gen, {0}, 0, r.len + 4,
                            cm_malloc(r.len + 4)};
        if (d.data != NULL)
            memcpy(d.data, s->reply, r.len + 4);
        if (heap_push(s, &d) == 0)
            c->delayed_bytes += r.len + 4;
        return 0;
    }
    if (conn_queue(c, s->reply, r.len + 4) != 0) {
        s->stats.closed_no_memory++; /* the caller closes it */
        return -ENOMEM;
    }
    return 0;
}

/* Keeps the input from off on for later: in c->pend (what is left of it
 * when it came from there).  -1 when there is no memory for it. */
static int conn_hold(struct sv_server *s, struct conn *c, const uint8_t *data, size_t off,
                     size_t n, int from_pend)
{
    if (from_pend) {
        c->pend_off += off;
        return 0;
    }
    if (c->pend == NULL && (c->pend = cm_malloc(READ_BUF)) == NULL) {
        s->stats.closed_no_memory++;
        return -1;
    }
    memcpy(c->pend, data + off, n - off); /* n <= READ_BUF */
    c->pend_off = 0;
    c->pend_len = n - off;
    return 0;
}

/* Answers the records in data[0..n): new bytes in s->rbuf, or (from_pend)
 * the rest of c->pend.  Stops before a record while the connection's
 * backlog is over OUT_HIGH_WATER (throttled), or once it made
 * TURN_QUANTUM bytes of replies in this turn (yielded: the loop comes back
 * to it in the next one, after the others had theirs), and keeps the rest
 * in c->pend.  Returns -1 when the peer must go (a record too large, out
 * of memory). */
/* The connection is not read from until its backlog drains: counted once
 * per time it happens. */
static void conn_throttle(struct sv_server *s, struct conn *c)
{
    if (!c->throttled) {
        c->throttled = 1;
        s->stats.throttled++;
    }
}

static int conn_feed(struct sv_server *s, int ci, int from_pend)
{
    struct conn *c = &s->conns[ci];
    const uint8_t *data = from_pend ? c->pend + c->pend_off : s->rbuf;
    size_t n = from_pend ? c->pend_len - c->pend_off : c->rbuf_len, off = 0;

    if (c->turn != s->turn) {
        c->turn = s->turn;
        c->used = 0;
    }
    while (off < n && !s->core->exit_requested) {
        const uint8_t *rec;
        size_t len;
        ssize_t k;
        if (conn_backlog(c) > OUT_HIGH_WATER) {
            conn_throttle(s, c);
            return conn_hold(s, c, data, off, n, from_pend);
        }
        if (c->used >= TURN_QUANTUM) {
            c->yielded = 1;
            return conn_hold(s, c, data, off, n, from_pend);
        }
        k = rp_recmark_feed(&c->rm, data + off, n - off, &rec, &len);
        if (k < 0) { /* a record too large, or no memory to hold it */
            s->stats.closed_no_memory += k == -ENOMEM;
            return -1;
        }
        off += (size_t)k;
        if (rec != NULL && conn_answer(s, ci, rec, len) != 0)
            return -1;
    }
    if (from_pend) { /* all answered: the buffer goes */
        free(c->pend);
        c->pend = NULL;
        c->pend_off = c->pend_len = 0;
    }
    /* the last record may have taken the backlog over the mark: the
     * connection is then not read (nor polled for input) until it drains,
     * throttled as much as one stopped before a record - which is how it
     * goes when calls arrive a few at a time, on a busy machine */
    if (conn_backlog(c) > OUT_HIGH_WATER)
        conn_throttle(s, c);
    else
        c->throttled = 0;
    return 0;
}

/* Answers what a throttled connection had read once its backlog is under
 * the mark again, then reads what the peer sent (a bounded number of
 * times).  Returns -1 when the peer must go: closed, an error, or a
 * record larger than SV_MSG_MAX. */
static int conn_read(struct sv_server *s, int ci)
{
    struct conn *c = &s->conns[ci];

    if (c->pend != NULL && conn_feed(s, ci, 1) != 0)
        return -1;
    for (int rounds = 0; rounds < 16 && c->pend == NULL; rounds++) {
        ssize_t n;
        if (conn_backlog(c) > OUT_HIGH_WATER || s->core->exit_requested)
            return 0;
        n = recv(c->fd, s->rbuf, READ_BUF, 0);
        if (n == 0)
            return -1;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        c->last_ns = cm_now_ns();
        c->rbuf_len = (size_t)n;
        if (conn_feed(s, ci, 0) != 0)
            return -1;
        /* a short read emptied the socket: another recv would mostly say
         * EAGAIN (a third of the syscalls of a client with one call in
         * flight); ppoll tells when more comes */
        if ((size_t)n < READ_BUF)
            break;
    }
    return 0;
}

/* The open connection idle the longest, or -1. */
static int conn_idlest(const struct sv_server *s)
{
    int oldest = -1;

    for (int i = 0; i < s->nconns_used; i++)
        if (s->conns[i].fd >= 0 &&
            (oldest < 0 || s->conns[i].last_ns < s->conns[oldest].last_ns))
            oldest = i;
    return oldest;
}

/* A slot for a new connection: a free one, or at the limit the one idle
 * the longest (closed to make room); -1 when none is open to take. */
static int conn_slot(struct sv_server *s)
{
    int oldest;

    if (s->stats.open < (uint64_t)s->max_conns)
        for (int i = 0; i < s->max_conns; i++)
            if (s->conns[i].fd < 0)
                return i;
    oldest = conn_idlest(s);
    if (oldest >= 0) {
        conn_close(s, oldest);
        s->stats.evicted++;
    }
    return oldest;
}

static void tcp_accept(struct sv_server *s, int lfd)
{
    for (int k = 0; k < 16; k++) {
        struct sockaddr_storage ss;
        socklen_t len = sizeof(ss);
        int fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        int one = 1, i;
        struct conn *c;
        if (fd < 0 && (errno == EMFILE || errno == ENFILE) && conn_idlest(s) >= 0) {
            /* no descriptor left: the idlest connection makes room, as at
             * --max-connections (else the pending one keeps ppoll awake) */
            conn_close(s, conn_idlest(s));
            s->stats.evicted++;
            fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        }
        if (fd < 0)
            return;
        i = conn_slot(s);
        if (i < 0) {
            close(fd);
            continue;
        }
        c = &s->conns[i];
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        c->fd = fd;
        c->gen = ++s->next_gen;
        c->last_ns = cm_now_ns();
        s->stats.accepted++;
        s->stats.open++;
        rp_recmark_init(&c->rm, SV_MSG_MAX);
        if (ss.ss_family == AF_INET6)
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, c->peer,
                      sizeof(c->peer));
        else
            inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, c->peer,
                      sizeof(c->peer));
        if (i + 1 > s->nconns_used)
            s->nconns_used = i + 1;
    }
}

/* ---- UDP ----------------------------------------------------------------- */

/* Sends the first n replies of the batch: one sendmmsg, again past a
 * reply the kernel refused (lost, as a datagram may be: a full socket
 * buffer, one too large). */
static void udp_send_batch(struct sv_server *s, int fd, unsigned n)
{
    unsigned done = 0;

    while (done < n) {
        int rc = sendmmsg(fd, s->udp_out + done, n - done, 0);
        if (rc < 0 && errno == EINTR)
            continue;
        done += rc > 0 ? (unsigned)rc : 1; /* rc <= 0: skip the one refused */
    }
}

/* Answers the batch's datagram i: its reply joins the replies to send
 * (udp_out[*nout]), or the --delay-us heap. */
static void udp_answer(struct sv_server *s, int fd, unsigned i, unsigned *nout)
{
    struct sockaddr_storage *ss = &s->udp_addr[i];
    socklen_t alen = s->udp_in[i].msg_hdr.msg_namelen;
    uint8_t *out = s->udp_out_buf + (size_t)*nout * SV_REPLY_MAX;
    char peer[INET6_ADDRSTRLEN] = "";
    struct sv_reply r;

    if (ss->ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ss)->sin6_addr, peer, sizeof(peer));
    else
        inet_ntop(AF_INET, &((struct sockaddr_in *)ss)->sin_addr, peer, sizeof(peer));
    r = sv_core_handle(s->core, s->udp_in_buf + (size_t)i * UDP_MSG_MAX,
                       s->udp_in[i].msg_len, out, SV_REPLY_MAX, peer, 1);
    if (r.len == 0)
        return;
    if (r.delay_ns) {
        struct delayed d = {cm_now_ns() + r.delay_ns, fd, -1, 0, *ss, alen, r.len,
                            cm_malloc(r.len)};
        if (d.data != NULL)
            memcpy(d.data, out, r.len);
        (void)heap_push(s, &d); /* a reply lost when full, as UDP may */
        return;
    }
    s->udp_out_iov[*nout] = (struct iovec){out, r.len};
    s->udp_out[*nout].msg_hdr = (struct msghdr){.msg_name = ss,
                                                .msg_namelen = alen,
                                                .msg_iov = &s->udp_out_iov[*nout],
                                                .msg_iovlen = 1};
    (*nout)++;
}

static void udp_read(struct sv_server *s, int fd)
{
    for (int k = 0; k < UDP_BURST && !s->core->exit_requested; k += UDP_BATCH) {
        unsigned nout = 0;
        int n;

        for (unsigned i = 0; i < UDP_BATCH; i++) {
            s->udp_in_iov[i] =
                (struct iovec){s->udp_in_buf + (size_t)i * UDP_MSG_MAX, UDP_MSG_MAX};
            s->udp_in[i].msg_hdr = (struct msghdr){.msg_name = &s->udp_addr[i],
                                                   .msg_namelen = sizeof(s->udp_addr[i]),
                                                   .msg_iov = &s->udp_in_iov[i],
                                                   .msg_iovlen = 1};
        }
        n = recvmmsg(fd, s->udp_in, UDP_BATCH, MSG_DONTWAIT, NULL);
        if (n <= 0)
            return;
        for (unsigned i = 0; i < (unsigned)n && !s->core->exit_requested; i++)
            udp_answer(s, fd, i, &nout);
        udp_send_batch(s, fd, nout);
        if (n < UDP_BATCH)
            return; /* the socket is empty: ppoll tells when more comes */
    }
}

/* Resumes a throttled connection whose backlog went under the mark,
 * and brings its buffer count up to date; closes it when it failed. */
static void conn_settle(struct sv_server *s, int ci, int bad)
{
    struct conn *c = &s->conns[ci];

    if (!bad && c->pend != NULL && conn_backlog(c) <= OUT_HIGH_WATER)
        bad = conn_read(s, ci) != 0 || (c->out_len > c->out_off && conn_flush(c) != 0);
    if (bad)
        conn_close(s, ci);
    else
        conn_account(s, c);
    budget_shed(s);
}

/* Sends the delayed replies that are due; returns ns until the next one,
 * or UINT64_MAX. */
static uint64_t send_due(struct sv_server *s)
{
    uint64_t now = cm_now_ns();

    while (s->nheap > 0 && s->heap[0].due_ns <= now) {
        struct delayed d = s->heap[0];
        heap_pop(s);
        if (d.udp_fd >= 0) {
            sendto(d.udp_fd, d.data, d.len, 0, (struct sockaddr *)&d.addr, d.alen);
        } else if (s->conns[d.conn].fd >= 0 && s->conns[d.conn].gen == d.gen) {
            struct conn *c = &s->conns[d.conn];
            assert(c->delayed_bytes >= d.len);
            int bad = conn_queue(c, d.data, d.len) != 0;

            c->delayed_bytes -= d.len;
            s->stats.closed_no_memory += (uint64_t)bad;
            conn_settle(s, d.conn, bad || conn_flush(c) != 0);
        }
        free(d.data);
    }
    return s->nheap ? s->heap[0].due_ns - now : UINT64_MAX;
}

/* Closes the connections idle for --idle-timeout; returns ns until the
 * next one would be, or UINT64_MAX. */
static uint64_t close_idle(struct sv_server *s)
{
    uint64_t now = cm_now_ns(), next = UINT64_MAX;

    if (s->idle_ns == 0)
        return next;
    for (int i = 0; i < s->nconns_used; i++) {
        struct conn *c = &s->conns[i];
        if (c->fd < 0)
            continue;
        if (now - c->last_ns >= s->idle_ns) {
            conn_close(s, i);
            s->stats.closed_idle++;
        } else if (c->last_ns + s->idle_ns - now < next) {
            next = c->last_ns + s->idle_ns - now;
        }
    }
    return next;
}

/* One connection's poll events. */
static void conn_event(struct sv_server *s, int ci, short re)
{
    struct conn *c = &s->conns[ci];
    int bad = 0;

    if ((re & POLLERR) || ((re & POLLHUP) && c->pend != NULL))
        bad = 1; /* gone, and nothing more can be read */
    else if (re & (POLLIN | POLLHUP))
        bad = conn_read(s, ci) != 0;
    if (!bad && c->out_len > c->out_off)
        bad = conn_flush(c) != 0;
    conn_settle(s, ci, bad);
}

/* ---- the loop ------------------------------------------------------------ */

int sv_server_run(struct sv_server *s, volatile sig_atomic_t *stop,
                  volatile sig_atomic_t *dump, char *err, size_t errlen)
{
    sigset_t waitmask;

    sigprocmask(SIG_BLOCK, NULL, &waitmask);
    sigdelset(&waitmask, SIGTERM);
    sigdelset(&waitmask, SIGINT);
    sigdelset(&waitmask, SIGUSR1);
    while (!*stop && !s->core->exit_requested) {
        struct timespec ts, *tsp = NULL;
        uint64_t wait_ns = send_due(s), idle_ns = close_idle(s);
        nfds_t n = 0;
        int rc;

        /* a new turn: the connections that yielded go on first (their
         * input waits in pend, so no event would wake them) */
        s->turn++;
        for (int i = 0; i < s->nconns_used && !s->core->exit_requested; i++)
            if (s->conns[i].fd >= 0 && s->conns[i].yielded) {
                s->conns[i].yielded = 0;
                conn_settle(s, i, 0);
                if (s->conns[i].fd >= 0 && s->conns[i].yielded)
                    wait_ns = 0; /* it yielded again: poll without waiting */
            }

        if (*dump) {
            *dump = 0;
            if (sv_server_write_stats(s, err, errlen) != 0)
                return -EIO;
        }
        if (idle_ns < wait_ns)
            wait_ns = idle_ns;
        if (wait_ns != UINT64_MAX) {
            ts.tv_sec = (time_t)(wait_ns / 1000000000u);
            ts.tv_nsec = (long)(wait_ns % 1000000000u);
            tsp = &ts;
        }
        for (int i = 0; i < s->nports; i++) {
            s->pfd[n] = (struct pollfd){s->udp[i], POLLIN, 0};
            s->pfd_conn[n++] = -2;
            s->pfd[n] = (struct pollfd){s->tcp[i], POLLIN, 0};
            s->pfd_conn[n++] = -3;
        }
        for (int i = 0; i < s->nconns_used; i++) {
            struct conn *c = &s->conns[i];
            short ev = 0;
            if (c->fd < 0)
                continue;
            /* a connection over the mark is not read: its peer's calls
             * wait in the kernel until it takes its replies */
            if (c->pend == NULL && conn_backlog(c) <= OUT_HIGH_WATER)
                ev |= POLLIN;
            if (c->out_len > c->out_off)
                ev |= POLLOUT;
            s->pfd[n] = (struct pollfd){c->fd, ev, 0};
            s->pfd_conn[n++] = i;
        }
        rc = ppoll(s->pfd, n, tsp, &waitmask);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            cm_errf(err, errlen, "ppoll: %s", strerror(errno));
            return -errno;
        }
        for (nfds_t k = 0; k < n && !s->core->exit_requested; k++) {
            short re = s->pfd[k].revents;
            int ci = s->pfd_conn[k];
            if (re == 0)
                continue;
            if (ci == -2)
                udp_read(s, s->pfd[k].fd);
            else if (ci == -3)
                tcp_accept(s, s->pfd[k].fd);
            else if (s->conns[ci].fd == s->pfd[k].fd) /* not evicted meanwhile */
                conn_event(s, ci, re);
        }
    }
    /* flush what the last calls produced before leaving (--exit-after
     * stops after a reply was queued) */
    for (int i = 0; i < s->nconns_used; i++)
        if (s->conns[i].fd >= 0)
            conn_flush(&s->conns[i]);
    return 0;
}
