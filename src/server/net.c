/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * net.c - sfs_nfsd's sockets and event loop (server layer): UDP and TCP on
 * the NFS port and the MOUNT port (every socket serves every program and
 * version: the host:port:/path form of decisions.md D2 relies on it), one
 * single-threaded ppoll() loop, TCP record marking (RFC 5531 section 11),
 * replies held back by --delay-us in a small min-heap, and registration
 * with rpcbind on request.  The protocol work is sv_core_handle's; this file
 * only moves bytes.  TCP records are framed by the rpc layer's record
 * marker (rpc/recmark.h), shared with the client engine: every read lands
 * in one server-wide buffer and complete records are answered in place.
 */
#define _GNU_SOURCE /* accept4, ppoll */
#include "rpc/recmark.h"
#include "server/sv_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <rpc/pmap_clnt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS      1024
#define READ_BUF       (256 * 1024)
#define OUT_HIGH_WATER (4 * 1024 * 1024) /* stop reading a client beyond this */
#define UDP_BURST      64                /* datagrams per wake-up per socket */
#define MAX_DELAYED    65536

struct conn {
    int fd;
    uint32_t gen;
    struct rp_recmark rm; /* holds a record that spans reads */
    uint8_t *out;
    size_t out_off, out_len, out_cap;
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
    uint32_t next_gen;
    struct pollfd *pfd;
    int *pfd_conn;  /* for each pollfd: connection index, or -1 */
    uint8_t *reply; /* 4-byte record mark + SV_REPLY_MAX */
    uint8_t *udpbuf;
    uint8_t *rbuf; /* every TCP read (READ_BUF) */
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

struct sv_server *sv_server_create(const struct sv_config *cfg, char *err, size_t errlen)
{
    struct sv_server *s = calloc(1, sizeof(*s));

    if (s == NULL) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    s->udp[0] = s->udp[1] = s->tcp[0] = s->tcp[1] = -1;
    for (int i = 0; i < MAX_CONNS; i++)
        s->conns[i].fd = -1;
    snprintf(s->bind_addr, sizeof(s->bind_addr), "%s",
             cfg->bind_addr ? cfg->bind_addr : "127.0.0.1");
    if (cfg->stats_file) {
        snprintf(s->stats_file, sizeof(s->stats_file), "%s", cfg->stats_file);
        s->has_stats = 1;
    }
    s->reply = malloc(SV_REPLY_MAX + 4);
    s->udpbuf = malloc(65536);
    s->rbuf = malloc(READ_BUF);
    s->pfd = calloc(MAX_CONNS + 4, sizeof(*s->pfd));
    s->pfd_conn = calloc(MAX_CONNS + 4, sizeof(*s->pfd_conn));
    if (!s->reply || !s->udpbuf || !s->rbuf || !s->pfd || !s->pfd_conn) {
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

static void conn_close(struct sv_server *s, int i)
{
    struct conn *c = &s->conns[i];

    if (c->fd >= 0)
        close(c->fd);
    rp_recmark_free(&c->rm);
    free(c->out);
    memset(c, 0, sizeof(*c));
    c->fd = -1;
    while (s->nconns_used > 0 && s->conns[s->nconns_used - 1].fd < 0)
        s->nconns_used--;
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
    free(s->udpbuf);
    free(s->rbuf);
    free(s->pfd);
    free(s->pfd_conn);
    free(s);
}

int sv_server_write_stats(struct sv_server *s, char *err, size_t errlen)
{
    if (!s->has_stats)
        return 0;
    return sv_core_write_stats(s->core, s->stats_file, err, errlen);
}

/* ---- delayed replies (--delay-us) ----------------------------------------- */

static void heap_swap(struct delayed *a, struct delayed *b)
{
    struct delayed t = *a;
    *a = *b;
    *b = t;
}

static void heap_push(struct sv_server *s, struct delayed *d)
{
    size_t i;

    if (s->nheap == MAX_DELAYED) {
        free(d->data); /* bounded: beyond this the reply is lost, as a
                          congested network would lose it */
        return;
    }
    if (s->heap == NULL) {
        s->heap = malloc(MAX_DELAYED * sizeof(*s->heap));
        if (s->heap == NULL) {
            free(d->data);
            return;
        }
    }
    i = s->nheap++;
    s->heap[i] = *d;
    while (i > 0 && s->heap[(i - 1) / 2].due_ns > s->heap[i].due_ns) {
        heap_swap(&s->heap[(i - 1) / 2], &s->heap[i]);
        i = (i - 1) / 2;
    }
}

static void heap_pop(struct sv_server *s)
{
    size_t i = 0;

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
        size_t cap = c->out_cap ? c->out_cap : 64 * 1024;
        uint8_t *p;
        if (c->out_off > 0) { /* compact before growing */
            memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
            c->out_len -= c->out_off;
            c->out_off = 0;
        }
        while (cap < c->out_len + len)
            cap *= 2;
        if (cap != c->out_cap) {
            p = realloc(c->out, cap);
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
    }
    c->out_off = c->out_len = 0;
    return 0;
}

/* Answers one call and queues (or delays) the reply record. */
static int conn_answer(struct sv_server *s, int ci, const uint8_t *msg, size_t len)
{
    struct conn *c = &s->conns[ci];
    struct sv_reply r =
        sv_core_handle(s->core, msg, len, s->reply + 4, SV_REPLY_MAX, c->peer, 0);

    if (r.len == 0)
        return 0;
    rp_recmark_put(s->reply, r.len, 1);
    if (r.delay_ns) {
        struct delayed d = {cm_now_ns() + r.delay_ns, -1, ci, c->gen, {0}, 0, r.len + 4,
                            malloc(r.len + 4)};
        if (d.data == NULL)
            return 0;
        memcpy(d.data, s->reply, r.len + 4);
        heap_push(s, &d);
        return 0;
    }
    return conn_queue(c, s->reply, r.len + 4);
}

/* Reads what the peer sent (a bounded number of times) and answers every
 * record completed.  Returns -1 when the peer must go: closed, an error,
 * or a record larger than SV_MSG_MAX. */
static int conn_read(struct sv_server *s, int ci)
{
    struct conn *c = &s->conns[ci];

    for (int rounds = 0; rounds < 16; rounds++) {
        ssize_t n = recv(c->fd, s->rbuf, READ_BUF, 0);
        size_t off = 0;
        if (n == 0)
            return -1;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        while (off < (size_t)n && !s->core->exit_requested) {
            const uint8_t *rec;
            size_t len;
            ssize_t k =
                rp_recmark_feed(&c->rm, s->rbuf + off, (size_t)n - off, &rec, &len);
            if (k < 0)
                return -1;
            off += (size_t)k;
            if (rec != NULL && conn_answer(s, ci, rec, len) != 0)
                return -1;
        }
        if (c->out_len - c->out_off > OUT_HIGH_WATER || s->core->exit_requested)
            return 0;
    }
    return 0;
}

static void tcp_accept(struct sv_server *s, int lfd)
{
    for (int k = 0; k < 16; k++) {
        struct sockaddr_storage ss;
        socklen_t len = sizeof(ss);
        int fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        int one = 1, i;
        if (fd < 0)
            return;
        for (i = 0; i < MAX_CONNS && s->conns[i].fd >= 0; i++)
            ;
        if (i == MAX_CONNS) {
            close(fd); /* full: the client sees a reset and may retry */
            continue;
        }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        s->conns[i].fd = fd;
        s->conns[i].gen = ++s->next_gen;
        rp_recmark_init(&s->conns[i].rm, SV_MSG_MAX);
        if (ss.ss_family == AF_INET6)
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
                      s->conns[i].peer, sizeof(s->conns[i].peer));
        else
            inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, s->conns[i].peer,
                      sizeof(s->conns[i].peer));
        if (i + 1 > s->nconns_used)
            s->nconns_used = i + 1;
    }
}

/* ---- UDP ----------------------------------------------------------------- */

static void udp_read(struct sv_server *s, int fd)
{
    for (int k = 0; k < UDP_BURST && !s->core->exit_requested; k++) {
        struct sockaddr_storage ss;
        socklen_t alen = sizeof(ss);
        char peer[INET6_ADDRSTRLEN] = "";
        ssize_t n = recvfrom(fd, s->udpbuf, 65536, 0, (struct sockaddr *)&ss, &alen);
        struct sv_reply r;
        if (n < 0)
            return;
        if (ss.ss_family == AF_INET6)
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, peer,
                      sizeof(peer));
        else
            inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, peer,
                      sizeof(peer));
        r = sv_core_handle(s->core, s->udpbuf, (size_t)n, s->reply, SV_REPLY_MAX, peer,
                           1);
        if (r.len == 0)
            continue;
        if (r.delay_ns) {
            struct delayed d = {
                cm_now_ns() + r.delay_ns, fd, -1, 0, ss, alen, r.len, malloc(r.len)};
            if (d.data != NULL) {
                memcpy(d.data, s->reply, r.len);
                heap_push(s, &d);
            }
            continue;
        }
        /* a full socket buffer loses the reply, as UDP may */
        sendto(fd, s->reply, r.len, 0, (struct sockaddr *)&ss, alen);
    }
}

/* Sends the delayed replies that are due; returns ns until the next one,
 * or UINT64_MAX. */
static uint64_t send_due(struct sv_server *s)
{
    uint64_t now = cm_now_ns();

    while (s->nheap > 0 && s->heap[0].due_ns <= now) {
        struct delayed *d = &s->heap[0];
        if (d->udp_fd >= 0) {
            sendto(d->udp_fd, d->data, d->len, 0, (struct sockaddr *)&d->addr, d->alen);
        } else if (s->conns[d->conn].fd >= 0 && s->conns[d->conn].gen == d->gen) {
            if (conn_queue(&s->conns[d->conn], d->data, d->len) != 0 ||
                conn_flush(&s->conns[d->conn]) != 0)
                conn_close(s, d->conn);
        }
        free(d->data);
        heap_pop(s);
    }
    return s->nheap ? s->heap[0].due_ns - now : UINT64_MAX;
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
        uint64_t wait_ns = send_due(s);
        nfds_t n = 0;
        int rc;

        if (*dump) {
            *dump = 0;
            if (sv_server_write_stats(s, err, errlen) != 0)
                return -EIO;
        }
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
            if (c->out_len - c->out_off <= OUT_HIGH_WATER)
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
            if (ci == -2) {
                udp_read(s, s->pfd[k].fd);
            } else if (ci == -3) {
                tcp_accept(s, s->pfd[k].fd);
            } else {
                int bad = 0;
                if (re & (POLLIN | POLLHUP | POLLERR))
                    bad = conn_read(s, ci) != 0;
                if (!bad && s->conns[ci].out_len > s->conns[ci].out_off)
                    bad = conn_flush(&s->conns[ci]) != 0;
                if (bad)
                    conn_close(s, ci);
            }
        }
    }
    /* flush what the last calls produced before leaving (--exit-after
     * stops after a reply was queued) */
    for (int i = 0; i < s->nconns_used; i++)
        if (s->conns[i].fd >= 0)
            conn_flush(&s->conns[i]);
    return 0;
}
