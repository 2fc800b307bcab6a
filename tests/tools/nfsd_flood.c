/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_flood.c - clients that try to exhaust an NFS server's connections
 * and memory (test helper for tests/integration/0770_*.t), on 127.0.0.1:
 *   nfsd_flood flood PORT EXPORT CONNS
 *       makes a sparse 1 MiB file, then opens CONNS TCP connections that
 *       send READ calls of 64 KiB and never read a reply (bounded: 20000
 *       calls or 2 s of a full socket per connection); checks that another
 *       client is still answered (within ANSWER_MS), prints "flooded",
 *       waits for its standard input to close, then closes every
 *       connection.
 *   nfsd_flood mass PORT EXPORT CONNS CALLS
 *       raises its descriptor limit for CONNS connections (within the hard
 *       limit; exit 3 when that is too low), makes the file, connects one
 *       reader, then CONNS peers with a 4 KiB receive window that send up
 *       to CALLS READ calls of 64 KiB each, all at once from one poll loop,
 *       and never read a reply (a peer stops sending when its calls are
 *       sent, its socket stayed full for 2 s or the server reset it; the
 *       flood lasts until every peer is reset or has sent its calls and no
 *       reset came for 3 s nor for 20 of the reader's answers - passes of
 *       the server's loop, which a busy machine makes slower; 60 s at
 *       most).  Meanwhile the reader sends a READ every 20 ms and must have
 *       every reply within ANSWER_MS.  Prints how many peers the server
 *       reset so far ("peers_closed N") and the reader's slowest answer,
 *       checks the reader, prints "flooded", waits for its standard input
 *       to close (a line "shed N" on it says how many the server has shed
 *       by then), and counts the resets on until it has seen N of them
 *       (10 s at most): the server may still have been shedding when the
 *       flood ended.  Prints them ("peers_closed_final N"), closes
 *       everything and prints "closed".
 *   nfsd_flood idle PORT
 *       one NULL call, then waits (10 s at most) for the server to close
 *       the idle connection; prints the milliseconds it took.
 *   nfsd_flood limit PORT N
 *       N connections each answer a NULL call, one after the other; then
 *       one more: it must be answered, the first (idle the longest) closed
 *       by the server, and the last of the N still served.
 * Prints TAP lines; exits 1 if a check failed, 2 on a setup failure.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "tool_tap.h"

#include "nfs3_prot.h"
#include "mount_prot.h"

#define MAX_CONNS 256
#define MAX_MASS  4000
/* How long a client beside a flood may wait for its answer: about 0.5 s
 * on a quiet machine; a flood's pass takes longer when other work has the
 * CPUs, and a starved client is never answered at all. */
#define ANSWER_MS 15000

static struct sockaddr_in server;

static void check(int ok, const char *what)
{
    tool_check(ok, "%s", what);
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static int tcp_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || connect(fd, (struct sockaddr *)&server, sizeof(server)) != 0) {
        perror("nfsd_flood: connect");
        exit(2);
    }
    return fd;
}

/* A record-marked call with AUTH_NONE: header, then args through xa. */
static size_t encode(uint8_t *buf, size_t cap, uint32_t xid, uint32_t prog, uint32_t proc,
                     xdrproc_t xa, void *args)
{
    u_int hdr[10] = {xid, 0, 2, prog, 3, proc, 0, 0, 0, 0};
    XDR x;
    size_t len;

    xdrmem_create(&x, (char *)buf + 4, (u_int)(cap - 4), XDR_ENCODE);
    for (int i = 0; i < 10; i++)
        if (!xdr_u_int(&x, &hdr[i]))
            return 0;
    if (xa && !xa(&x, args))
        return 0;
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    buf[0] = (uint8_t)(0x80 | len >> 24);
    buf[1] = (uint8_t)(len >> 16);
    buf[2] = (uint8_t)(len >> 8);
    buf[3] = (uint8_t)len;
    return len + 4;
}

/* A NULL call on fd, answered within ms: 1 when the reply came. */
static int null_answered(int fd, uint32_t xid, int ms)
{
    uint8_t b[128], r[64];
    size_t n = encode(b, sizeof(b), xid, NFS3_PROGRAM, 0, NULL, NULL);
    size_t got = 0;
    long end = now_ms() + ms;

    if (send(fd, b, n, MSG_NOSIGNAL) != (ssize_t)n)
        return 0;
    while (got < 28 && now_ms() < end) {
        struct pollfd p = {fd, POLLIN, 0};
        ssize_t k;
        if (poll(&p, 1, (int)(end - now_ms())) <= 0)
            return 0;
        k = recv(fd, r + got, sizeof(r) - got, 0);
        if (k <= 0)
            return 0;
        got += (size_t)k;
    }
    return got >= 28 && r[4] == (uint8_t)(xid >> 24) && r[7] == (uint8_t)xid;
}

/* Waits up to ms for the server to close fd: 1 when it did. */
static int closed_by_server(int fd, int ms)
{
    uint8_t r[256];
    long end = now_ms() + ms;

    while (now_ms() < end) {
        struct pollfd p = {fd, POLLIN, 0};
        ssize_t k;
        if (poll(&p, 1, (int)(end - now_ms())) <= 0)
            return 0;
        k = recv(fd, r, sizeof(r), 0);
        if (k == 0 || (k < 0 && errno == ECONNRESET))
            return 1;
        if (k < 0)
            return 0;
    }
    return 0;
}

/* MNT + CREATE of a 1 MiB sparse file through libtirpc; its handle. */
static void make_file(const char *export, nfs_fh3 *fh, char *buf)
{
    struct timeval tv = {10, 0};
    int sock = RPC_ANYSOCK;
    CLIENT *m = clnttcp_create(&server, MOUNT3_PROGRAM, MOUNT_V3, &sock, 0, 0), *c;
    mnt3_dirpath p = (char *)export;
    mountres3 mr;
    CREATE3args ca;
    CREATE3res cr;

    if (m == NULL) {
        clnt_pcreateerror("nfsd_flood");
        exit(2);
    }
    memset(&mr, 0, sizeof(mr));
    if (clnt_call(m, MOUNTPROC3_MNT, (xdrproc_t)xdr_mnt3_dirpath, (char *)&p,
                  (xdrproc_t)xdr_mountres3, (char *)&mr, tv) != RPC_SUCCESS ||
        mr.fhs_status != MNT3_OK) {
        fprintf(stderr, "nfsd_flood: MNT %s failed\n", export);
        exit(2);
    }
    sock = RPC_ANYSOCK;
    c = clnttcp_create(&server, NFS3_PROGRAM, NFS_V3, &sock, 0, 0);
    if (c == NULL) {
        clnt_pcreateerror("nfsd_flood");
        exit(2);
    }
    memset(&ca, 0, sizeof(ca));
    ca.where.dir.data.data_len = mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len;
    ca.where.dir.data.data_val = mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val;
    ca.where.name = "flood";
    ca.how.mode = UNCHECKED;
    ca.how.createhow3_u.obj_attributes.size.set_it = 1;
    ca.how.createhow3_u.obj_attributes.size.set_size3_u.size = 1 << 20;
    memset(&cr, 0, sizeof(cr));
    if (clnt_call(c, NFSPROC3_CREATE, (xdrproc_t)xdr_CREATE3args, (char *)&ca,
                  (xdrproc_t)xdr_CREATE3res, (char *)&cr, tv) != RPC_SUCCESS ||
        cr.status != NFS3_OK || !cr.CREATE3res_u.resok.obj.handle_follows) {
        fprintf(stderr, "nfsd_flood: CREATE failed\n");
        exit(2);
    }
    fh->data.data_len = cr.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_len;
    memcpy(buf, cr.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_val,
           fh->data.data_len);
    fh->data.data_val = buf;
    clnt_freeres(c, (xdrproc_t)xdr_CREATE3res, (char *)&cr);
    clnt_freeres(m, (xdrproc_t)xdr_mountres3, (char *)&mr);
    clnt_destroy(c);
    clnt_destroy(m);
}

/* Sends READ calls on a non-blocking fd until 20000 went or the socket
 * stayed full for 2 s; returns how many went whole. */
static long flood_one(int fd, const nfs_fh3 *fh, uint32_t xid0)
{
    uint8_t b[256];
    long sent = 0, stuck_since = 0;

    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    while (sent < 20000) {
        READ3args ra = {*fh, (uint64_t)(sent % 16) * 65536, 65536};
        size_t n = encode(b, sizeof(b), xid0 + (uint32_t)sent, NFS3_PROGRAM,
                          NFSPROC3_READ, (xdrproc_t)xdr_READ3args, &ra);
        size_t off = 0;
        while (off < n) { /* a call is sent whole, or the socket stays full */
            ssize_t k = send(fd, b + off, n - off, MSG_NOSIGNAL);
            if (k > 0) {
                off += (size_t)k;
                stuck_since = 0;
                continue;
            }
            if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                return sent;
            if (stuck_since == 0)
                stuck_since = now_ms();
            else if (now_ms() - stuck_since > 2000)
                return sent;
            struct pollfd p = {fd, POLLOUT, 0};
            poll(&p, 1, 100);
        }
        sent++;
    }
    return sent;
}

static int flood(const char *export, int nconns)
{
    static int fds[MAX_CONNS];
    char fhbuf[NFS3_FHSIZE], line[16];
    nfs_fh3 fh;
    long total = 0;
    int other;

    make_file(export, &fh, fhbuf);
    for (int i = 0; i < nconns; i++) {
        fds[i] = tcp_connect();
        total += flood_one(fds[i], &fh, (uint32_t)(i + 1) << 20);
    }
    printf("# %ld READ calls of 64 KiB sent on %d connections, no reply read\n", total,
           nconns);
    other = tcp_connect();
    check(null_answered(other, 0x0ddba11, ANSWER_MS), "another client is still answered");
    close(other);
    printf("flooded\n");
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin) != NULL)
        ;
    for (int i = 0; i < nconns; i++)
        close(fds[i]);
    printf("closed\n");
    return 0;
}

/* Reads one whole record (marker and body) from a blocking fd within ms
 * into buf (cap bytes); its length, or 0 on a timeout, a close or a record
 * larger than cap. */
static size_t read_record(int fd, uint8_t *buf, size_t cap, int ms)
{
    long end = now_ms() + ms;
    size_t got = 0, want = 4;

    while (got < want) {
        struct pollfd p = {fd, POLLIN, 0};
        long left = end - now_ms();
        ssize_t k;
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            return 0;
        k = recv(fd, buf + got, want - got, 0);
        if (k <= 0)
            return 0;
        got += (size_t)k;
        if (got == 4 && want == 4) {
            want = 4 + ((size_t)(buf[0] & 0x7f) << 24 | (size_t)buf[1] << 16 |
                        (size_t)buf[2] << 8 | buf[3]);
            if (want > cap || !(buf[0] & 0x80))
                return 0;
        }
    }
    return got;
}

/* The reader: one READ of 64 KiB on fd, its whole reply (the xid back,
 * NFS3_OK and 64 KiB of data) within ms: 1 when it came. */
static int read_answered(int fd, const nfs_fh3 *fh, uint32_t xid, int ms)
{
    static uint8_t r[65536 + 512];
    uint8_t b[256];
    READ3args ra = {*fh, 0, 65536};
    size_t n = encode(b, sizeof(b), xid, NFS3_PROGRAM, NFSPROC3_READ,
                      (xdrproc_t)xdr_READ3args, &ra);

    if (send(fd, b, n, MSG_NOSIGNAL) != (ssize_t)n)
        return 0;
    n = read_record(fd, r, sizeof(r), ms);
    /* xid, reply, accepted, verifier (AUTH_NONE, empty), SUCCESS, NFS3_OK */
    return n > 65536 && r[4] == (uint8_t)(xid >> 24) && r[7] == (uint8_t)xid &&
           r[11] == 1 && r[15] == 0 && r[27] == 0 && r[31] == 0;
}

/* Descriptors for n connections and a few more, within the hard limit. */
static int enough_fds(int n)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)n + 64;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur >= want)
        return 1;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
        return 0;
    rl.rlim_cur = want;
    return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

struct peer {
    int fd;
    int sent, done, closed, counted;
    long stuck_since;
    uint8_t call[256]; /* the call being sent, from off */
    size_t len, off;
};

/* Sends what p's socket takes now, a call at a time (a call the socket
 * took in part is finished later); marks p done when its calls are sent,
 * it stayed full 2 s, or the server closed it. */
static void pump(struct peer *p, const nfs_fh3 *fh, int calls, uint32_t xid0)
{
    while (p->sent < calls) {
        ssize_t k;
        if (p->off == p->len) {
            READ3args ra = {*fh, (uint64_t)(p->sent % 16) * 65536, 65536};
            p->len = encode(p->call, sizeof(p->call), xid0 + (uint32_t)p->sent,
                            NFS3_PROGRAM, NFSPROC3_READ, (xdrproc_t)xdr_READ3args, &ra);
            p->off = 0;
        }
        k = send(p->fd, p->call + p->off, p->len - p->off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) {
            p->off += (size_t)k;
            p->sent += p->off == p->len;
            p->stuck_since = 0;
            continue;
        }
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (p->stuck_since == 0)
                p->stuck_since = now_ms();
            else if (now_ms() - p->stuck_since > 2000)
                p->done = 1;
            return;
        }
        p->done = p->closed = 1; /* the server closed it */
        return;
    }
    p->done = 1;
}

static int mass(const char *export, int nconns, int calls)
{
    static struct peer peers[MAX_MASS];
    static struct pollfd pfd[MAX_MASS];
    char fhbuf[NFS3_FHSIZE], line[16];
    nfs_fh3 fh;
    long total = 0, end, next_read, slowest = 0, quiet_since, quiet_reads = 0;
    int reader, small = 4096, left = nconns, closed = 0, reads = 0, answered = 0,
                expect = 0;
    uint32_t rxid = 0x7e000000;

    if (!enough_fds(nconns)) {
        printf("# the descriptor limit cannot reach %d connections\n", nconns + 64);
        return 3;
    }
    make_file(export, &fh, fhbuf);
    reader = tcp_connect();
    reads++;
    answered += read_answered(reader, &fh, rxid++, ANSWER_MS);
    for (int i = 0; i < nconns; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)) != 0 ||
            connect(fd, (struct sockaddr *)&server, sizeof(server)) != 0) {
            perror("nfsd_flood: peer");
            return 2;
        }
        peers[i].fd = fd;
    }
    /* until every peer is closed or has sent its calls, and no close came
     * for 3 s nor 20 reader answers (the server works through what they
     * sent, a share of each connection a pass) */
    end = now_ms() + 60000;
    next_read = now_ms();
    quiet_since = now_ms();
    while (now_ms() < end &&
           (left > 0 || now_ms() - quiet_since < 3000 || quiet_reads < 20)) {
        int n = 0;
        for (int i = 0; i < nconns; i++)
            if (!peers[i].closed) {
                pfd[n].fd = peers[i].fd;
                pfd[n].events = peers[i].done ? 0 : POLLOUT;
                pfd[n++].revents = 0;
            }
        if (n == 0)
            break;
        poll(pfd, (nfds_t)n, 20);
        for (int i = 0, k = 0; i < nconns; i++) {
            struct peer *p = &peers[i];
            if (p->closed)
                continue;
            if (pfd[k++].revents & (POLLERR | POLLHUP)) /* reset by the server */
                p->closed = 1;
            else if (!p->done)
                pump(p, &fh, calls, (uint32_t)(i + 1) << 16);
            if (p->closed) {
                closed++;
                quiet_since = now_ms();
                quiet_reads = 0;
            }
            if (p->closed || p->done) {
                left -= !p->counted;
                p->counted = 1;
            }
        }
        if (now_ms() >= next_read) { /* the reader, all along */
            long t0 = now_ms();
            reads++;
            answered += read_answered(reader, &fh, rxid++, ANSWER_MS);
            quiet_reads++;
            slowest = now_ms() - t0 > slowest ? now_ms() - t0 : slowest;
            next_read = now_ms() + 20;
        }
    }
    for (int i = 0; i < nconns; i++)
        total += peers[i].sent;
    printf("# %ld READ calls of 64 KiB sent on %d connections, no reply read; %d "
           "closed by the server, %d still sending at the end\n",
           total, nconns, closed, left);
    printf("peers_closed %d\n# the reader: %d READs, the slowest answered in %ld ms\n",
           closed, reads, slowest);
    reads++;
    answered += read_answered(reader, &fh, rxid++, ANSWER_MS);
    tool_check(answered == reads, "the reader had every READ answered (%d of %d)",
               answered, reads);
    printf("flooded\n");
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin) != NULL)
        sscanf(line, "shed %d", &expect);
    /* the resets since, until the server's count is reached (bounded) */
    end = now_ms() + 10000;
    do {
        int n = 0;
        for (int i = 0; i < nconns; i++)
            if (!peers[i].closed) {
                pfd[n].fd = peers[i].fd;
                pfd[n].events = 0;
                pfd[n++].revents = 0;
            }
        poll(pfd, (nfds_t)n, 20);
        for (int i = 0, k = 0; i < nconns; i++)
            if (!peers[i].closed && (pfd[k++].revents & (POLLERR | POLLHUP))) {
                peers[i].closed = 1;
                closed++;
            }
    } while (closed < expect && now_ms() < end);
    printf("peers_closed_final %d\n", closed);
    for (int i = 0; i < nconns; i++)
        close(peers[i].fd);
    close(reader);
    printf("closed\n");
    return 0;
}

static int idle(void)
{
    int fd = tcp_connect();
    long t0;

    check(null_answered(fd, 0x1d1e, 5000), "NULL answered");
    t0 = now_ms();
    check(closed_by_server(fd, 10000), "the idle connection is closed by the server");
    printf("idle_closed_ms %ld\n", now_ms() - t0);
    close(fd);
    return 0;
}

static int limit(int n)
{
    static int fds[MAX_CONNS + 1];
    int all = 1, extra;

    for (int i = 0; i < n; i++) {
        fds[i] = tcp_connect();
        all &= null_answered(fds[i], 0x1000u + (uint32_t)i, 5000);
        usleep(20000); /* distinct last-activity times */
    }
    check(all, "every connection up to the limit answered");
    extra = tcp_connect();
    check(null_answered(extra, 0x2000, 5000), "one connection beyond the limit answered");
    check(closed_by_server(fds[0], 3000), "the connection idle the longest was closed");
    check(null_answered(fds[n - 1], 0x3000, 5000), "the most recent one still answers");
    for (int i = 0; i < n; i++)
        close(fds[i]);
    close(extra);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: nfsd_flood flood PORT EXPORT CONNS | mass PORT EXPORT "
                        "CONNS CALLS | idle PORT | limit PORT N\n");
        return 2;
    }
    tool_loopback(&server, argv[2]);
    if (strcmp(argv[1], "flood") == 0 && argc == 5 && atoi(argv[4]) >= 1 &&
        atoi(argv[4]) <= MAX_CONNS)
        flood(argv[3], atoi(argv[4]));
    else if (strcmp(argv[1], "mass") == 0 && argc == 6 && atoi(argv[4]) >= 1 &&
             atoi(argv[4]) <= MAX_MASS && atoi(argv[5]) >= 1) {
        int rc = mass(argv[3], atoi(argv[4]), atoi(argv[5]));
        if (rc != 0)
            return rc;
    } else if (strcmp(argv[1], "idle") == 0 && argc == 3)
        idle();
    else if (strcmp(argv[1], "limit") == 0 && argc == 4 && atoi(argv[3]) >= 1 &&
             atoi(argv[3]) <= MAX_CONNS)
        limit(atoi(argv[3]));
    else {
        fprintf(stderr, "nfsd_flood: bad arguments (see the source's header)\n");
        return 2;
    }
    return tool_done();
}
