/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_hostile.c - hostile input for an NFS server on 127.0.0.1 (test
 * helper for tests/integration/0740_*.t): random datagrams and records,
 * every truncation of a valid call, absurd string and credential lengths,
 * a wrong RPC version, a 2 GiB record mark, an endless record of empty
 * fragments, a call split into one-byte fragments, and records abandoned
 * half-way.  Checks the answers that RFC 5531 defines (RPC_MISMATCH,
 * GARBAGE_ARGS, AUTH_ERROR for a bad credential, connection closed on a
 * record too large) and that the server still answers afterwards.
 *   nfsd_hostile PORT SEED
 * Prints TAP lines; exits 1 if a check failed.  Bounded in count and time.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/bytes.h"
#include "tool_tap.h"

static struct sockaddr_in server;

static void check(int ok, const char *what)
{
    tool_check(ok, "%s", what);
}

static size_t put32(uint8_t *p, size_t at, uint32_t v)
{
    cm_be32_put(p + at, v);
    return at + 4;
}

/* A call header with AUTH_NONE; returns its length. */
static size_t call_header(uint8_t *p, uint32_t xid, uint32_t rpcvers, uint32_t prog,
                          uint32_t vers, uint32_t proc)
{
    size_t n = 0;
    n = put32(p, n, xid);
    n = put32(p, n, 0); /* CALL */
    n = put32(p, n, rpcvers);
    n = put32(p, n, prog);
    n = put32(p, n, vers);
    n = put32(p, n, proc);
    n = put32(p, n, 0); /* cred AUTH_NONE */
    n = put32(p, n, 0);
    n = put32(p, n, 0); /* verf */
    return put32(p, n, 0);
}

/* A socket of type (SOCK_DGRAM or SOCK_STREAM) connected to the server. */
static int connected(int type)
{
    int fd = socket(AF_INET, type, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&server, sizeof(server)) != 0) {
        perror(type == SOCK_DGRAM ? "nfsd_hostile: udp" : "nfsd_hostile: tcp");
        exit(2);
    }
    return fd;
}

/* Waits up to ms for a datagram or stream bytes; returns the length read,
 * 0 on orderly close, -1 on timeout. */
static ssize_t recv_wait(int fd, uint8_t *buf, size_t len, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0)
        return -1;
    return recv(fd, buf, len, 0);
}

/* Reads exactly len bytes; 0 on success, -1 on timeout or close. */
static int recv_exact(int fd, uint8_t *buf, size_t len, int ms)
{
    size_t got = 0;
    while (got < len) {
        struct pollfd p = {fd, POLLIN, 0};
        ssize_t n;
        if (poll(&p, 1, ms) <= 0)
            return -1;
        n = recv(fd, buf + got, len - got, 0);
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

/* Reads one reply record on TCP (single fragment, as the server sends):
 * the mark stays in buf[0..3]. */
static ssize_t tcp_reply(int fd, uint8_t *buf, size_t len, int ms)
{
    size_t body;

    if (recv_exact(fd, buf, 4, ms) != 0)
        return -1;
    body = cm_be32_get(buf) & 0x7fffffff;
    if (body + 4 > len || recv_exact(fd, buf + 4, body, ms) != 0)
        return -1;
    return (ssize_t)(body + 4);
}

/* Sends a call on UDP and waits for the reply with its xid: drains what
 * earlier hostile datagrams left queued first, and tries three times (UDP
 * may lose a datagram).  Returns the reply length or -1. */
static ssize_t udp_ask(int fd, const uint8_t *call, size_t len, uint8_t *reply,
                       size_t cap)
{
    uint32_t xid = cm_be32_get(call);

    while (recv_wait(fd, reply, cap, 0) > 0)
        ;
    for (int tries = 0; tries < 3; tries++) {
        ssize_t got;
        send(fd, call, len, 0);
        while ((got = recv_wait(fd, reply, cap, 1000)) > 0)
            if (got >= 20 && cm_be32_get(reply) == xid)
                return got;
    }
    return -1;
}

/* Sends a NULL call on a fresh UDP socket and checks its reply. */
static int udp_alive(void)
{
    uint8_t b[512], r[512];
    int fd = connected(SOCK_DGRAM);
    size_t n = call_header(b, 0xa11e, 2, 100003, 3, 0);
    ssize_t got = udp_ask(fd, b, n, r, sizeof(r));

    close(fd);
    return got >= 24 && cm_be32_get(r + 8) == 0 && cm_be32_get(r + 20) == 0;
}

int main(int argc, char **argv)
{
    static uint8_t b[70000], r[70000];
    uint8_t call[256];
    size_t clen, n;
    ssize_t got;
    int fd, i, ok;

    if (argc != 3) {
        fprintf(stderr, "usage: nfsd_hostile PORT SEED\n");
        return 2;
    }
    tool_loopback(&server, argv[1]);
    srand((unsigned)atoi(argv[2]));

    /* UDP: random datagrams, some with a valid-looking header */
    fd = connected(SOCK_DGRAM);
    for (i = 0; i < 3000; i++) {
        size_t len = (size_t)(rand() % 1500);
        for (size_t k = 0; k < len; k++)
            b[k] = (uint8_t)rand();
        if (i % 3 == 0 && len >= 40)
            call_header(b, (uint32_t)i, 2, i % 2 ? 100003 : 100005,
                        (uint32_t)(rand() % 4), (uint32_t)(rand() % 24));
        send(fd, b, len, 0);
        if (i % 100 == 0)
            while (recv_wait(fd, r, sizeof(r), 0) > 0)
                ;
    }
    check(udp_alive(), "alive after 3000 random datagrams");

    /* every truncation of a LOOKUP3 call */
    clen = call_header(call, 77, 2, 100003, 3, 3);
    clen = put32(call, clen, 32);
    memset(call + clen, 0x53, 32);
    clen += 32;
    clen = put32(call, clen, 4);
    memcpy(call + clen, "name", 4);
    clen += 4;
    for (n = 0; n < clen; n++)
        send(fd, call, n, 0);
    check(udp_alive(), "alive after every truncation of a LOOKUP call");

    /* wrong RPC version: MSG_DENIED, RPC_MISMATCH 2..2 */
    n = call_header(b, 4242, 3, 100003, 3, 0);
    got = udp_ask(fd, b, n, r, sizeof(r));
    ok = got >= 24 && cm_be32_get(r + 8) == 1 && cm_be32_get(r + 12) == 0 &&
         cm_be32_get(r + 16) == 2 && cm_be32_get(r + 20) == 2;
    check(ok, "RPC version 3: MSG_DENIED RPC_MISMATCH 2..2");

    /* a name claiming 4 GiB: GARBAGE_ARGS, nothing allocated */
    n = call_header(b, 4343, 2, 100003, 3, 3);
    n = put32(b, n, 32);
    memset(b + n, 0x53, 32);
    n += 32;
    n = put32(b, n, 0xfffffff0u);
    got = udp_ask(fd, b, n + 8, r, sizeof(r));
    ok = got >= 24 && cm_be32_get(r + 8) == 0 &&
         cm_be32_get(r + 20) == 4; /* GARBAGE_ARGS */
    check(ok, "name length 0xfffffff0: GARBAGE_ARGS");

    /* a WRITE claiming 4 GiB of data */
    n = call_header(b, 4444, 2, 100003, 3, 7);
    n = put32(b, n, 32);
    memset(b + n, 0x53, 32);
    n += 32;
    n = put32(b, n, 0);
    n = put32(b, n, 0);
    n = put32(b, n, 1000);
    n = put32(b, n, 0);
    n = put32(b, n, 0xffffffffu);
    got = udp_ask(fd, b, n, r, sizeof(r));
    ok = got >= 24 && cm_be32_get(r + 20) == 4;
    check(ok, "WRITE data length 0xffffffff: GARBAGE_ARGS");

    /* a credential claiming 4 GiB, or an AUTH_SYS body that does not
     * decode: MSG_DENIED, AUTH_ERROR, AUTH_BADCRED (RFC 5531 section 9) */
    n = call_header(b, 4545, 2, 100003, 3, 0);
    put32(b, 28, 0xffffffffu);
    got = udp_ask(fd, b, n, r, sizeof(r));
    ok = got >= 20 && cm_be32_get(r + 8) == 1 && cm_be32_get(r + 12) == 1 &&
         cm_be32_get(r + 16) == 1;
    check(ok, "credential length 0xffffffff: AUTH_ERROR BADCRED");
    n = call_header(b, 4646, 2, 100003, 3, 0);
    put32(b, 24, 1); /* AUTH_SYS ... */
    put32(b, 28, 8); /* ... with an 8-byte body: stamp and a name of 2^32-1 */
    put32(b, 32, 7);
    put32(b, 36, 0xffffffffu);
    n = put32(b, 40, 0);
    n = put32(b, n, 0);
    got = udp_ask(fd, b, n, r, sizeof(r));
    ok = got >= 20 && cm_be32_get(r + 8) == 1 && cm_be32_get(r + 12) == 1 &&
         cm_be32_get(r + 16) == 1;
    check(ok, "malformed AUTH_SYS body: AUTH_ERROR BADCRED");
    close(fd);

    /* TCP: a record mark of 2 GiB closes the connection */
    fd = connected(SOCK_STREAM);
    put32(b, 0, 0xffffffffu);
    memset(b + 4, 0, 100);
    send(fd, b, 104, MSG_NOSIGNAL);
    got = recv_wait(fd, r, sizeof(r), 2000);
    check(got == 0 || (got < 0 && errno == ECONNRESET),
          "record of 2 GiB: connection closed");
    close(fd);

    /* TCP: a record of empty fragments that never ends is refused like a
     * record too large (70 000 markers are 280 KB, over the 256 KiB limit) */
    fd = connected(SOCK_STREAM);
    for (i = 0; i < 10000; i++)
        put32(b, (size_t)i * 4, 0);
    for (i = 0; i < 7; i++)
        if (send(fd, b, 40000, MSG_NOSIGNAL) != 40000)
            break;
    got = recv_wait(fd, r, sizeof(r), 2000);
    check(got == 0 || (got < 0 && errno == ECONNRESET) || i < 7,
          "70000 empty fragments: connection closed");
    close(fd);

    /* TCP: random records, then a NULL call on the same connection */
    fd = connected(SOCK_STREAM);
    for (i = 0; i < 300; i++) {
        size_t len = (size_t)(rand() % 600);
        put32(b, 0, 0x80000000u | (uint32_t)len);
        for (size_t k = 0; k < len; k++)
            b[4 + k] = (uint8_t)rand();
        if (i % 2 == 0 && len >= 40)
            call_header(b + 4, (uint32_t)(1000 + i), 2, i % 4 ? 100003 : 100005,
                        (uint32_t)(rand() % 4), (uint32_t)(rand() % 24));
        send(fd, b, 4 + len, MSG_NOSIGNAL);
    }
    n = call_header(b + 4, 0xbeef, 2, 100003, 3, 0);
    put32(b, 0, 0x80000000u | (uint32_t)n);
    send(fd, b, 4 + n, MSG_NOSIGNAL);
    ok = 0;
    for (i = 0; i < 400 && !ok; i++) {
        got = tcp_reply(fd, r, sizeof(r), 2000);
        if (got < 0)
            break;
        ok = got >= 28 && cm_be32_get(r + 4) == 0xbeef && cm_be32_get(r + 24) == 0;
    }
    check(ok, "NULL answered after 300 random records on the same connection");
    close(fd);

    /* TCP: a NULL call in one-byte fragments */
    fd = connected(SOCK_STREAM);
    n = call_header(call, 0xf00d, 2, 100005, 3, 0);
    for (size_t k = 0; k < n; k++) {
        uint8_t frag[5];
        put32(frag, 0, (k + 1 == n ? 0x80000000u : 0) | 1u);
        frag[4] = call[k];
        send(fd, frag, 5, MSG_NOSIGNAL);
    }
    got = tcp_reply(fd, r, sizeof(r), 2000);
    check(got >= 28 && cm_be32_get(r + 4) == 0xf00d && cm_be32_get(r + 24) == 0,
          "call in one-byte fragments answered");
    close(fd);

    /* TCP: half records abandoned, many connections */
    for (i = 0; i < 50; i++) {
        fd = connected(SOCK_STREAM);
        put32(b, 0, 0x80000000u | 60000u);
        memset(b + 4, 0xee, 1000);
        send(fd, b, 1004, MSG_NOSIGNAL);
        close(fd);
    }
    check(udp_alive(), "alive after 50 abandoned half records");
    return tool_done();
}
