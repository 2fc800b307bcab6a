/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpc_badpeer.c - a misbehaving RPC server for the bad-input integration
 * tests of the engine: it listens on one loopback port (UDP and TCP) and
 * answers every call wrongly, in the way its mode says:
 *
 *   garbage    bytes that are no RPC message at all
 *   badxid     a well-formed reply to another XID
 *   truncated  the right XID, MSG_ACCEPTED, SUCCESS, then nothing
 *   junk       the right XID followed by nonsense
 *   huge       (TCP) a record marker announcing a 2 GB record
 *   silent     no answer
 *
 *   rpc_badpeer -p PORT -m MODE     prints "ready PORT", runs until a signal
 *
 * Test-only; it binds 127.0.0.1 and nothing else.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/bytes.h"
#include "rpc/recmark.h"
#include "tool_net.h"

#define MAX_CONN 8

enum mode { GARBAGE, BADXID, TRUNCATED, JUNK, HUGE, SILENT };
static const char *const mode_names[] = {"garbage", "badxid", "truncated",
                                         "junk",    "huge",   "silent"};

/* Builds the wrong answer to call (len bytes); returns its length. */
static size_t answer(enum mode m, const uint8_t *call, size_t len, uint8_t *out)
{
    static const uint32_t accepted_ok[] = {1, 0, 0, 0, 0}; /* REPLY, ACCEPTED,
                                                              AUTH_NONE 0, SUCCESS */
    size_t i;

    if (len < 4)
        return 0;
    switch (m) {
    case GARBAGE:
        for (i = 0; i < 37; i++)
            out[i] = (uint8_t)(0xa5 ^ (i * 29));
        return 37;
    case BADXID:
    case TRUNCATED:
        memcpy(out, call, 4);
        if (m == BADXID)
            out[3] ^= 0x5a;
        for (i = 0; i < 5; i++)
            cm_be32_put(out + 4 + 4 * i, accepted_ok[i]);
        /* badxid adds a plausible result (a zero status); truncated stops */
        if (m == BADXID) {
            cm_be32_put(out + 24, 0);
            return 28;
        }
        return 24;
    case JUNK:
        memcpy(out, call, 4);
        memset(out + 4, 0xff, 16);
        return 20;
    default:
        return 0;
    }
}

static void serve_udp(int fd, enum mode m)
{
    uint8_t buf[65536], out[256];
    struct sockaddr_storage from;
    socklen_t fl = sizeof(from);
    ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
    size_t k;

    if (n <= 0)
        return;
    k = answer(m, buf, (size_t)n, out);
    if (k)
        (void)sendto(fd, out, k, 0, (struct sockaddr *)&from, fl);
}

/* Reads from a connection; answers each complete call.  Returns -1 when
 * the connection is over. */
static int serve_tcp(int fd, struct rp_recmark *rm, enum mode m)
{
    uint8_t buf[65536], out[260];
    ssize_t n = read(fd, buf, sizeof(buf));
    size_t used = 0;

    if (n <= 0)
        return -1;
    while (used < (size_t)n) {
        const uint8_t *rec;
        size_t rl, k;
        ssize_t c = rp_recmark_feed(rm, buf + used, (size_t)n - used, &rec, &rl);

        if (c < 0)
            return -1;
        used += (size_t)c;
        if (!rec)
            continue;
        if (m == HUGE) {
            cm_be32_put(out, 0xfffffff0u);
            (void)write(fd, out, 4);
            continue;
        }
        k = answer(m, rec, rl, out + 4);
        if (k) {
            rp_recmark_put(out, k, 1);
            if (write(fd, out, k + 4) < 0)
                return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct pollfd pf[2 + MAX_CONN];
    struct rp_recmark rm[MAX_CONN];
    enum mode m = SILENT;
    int port = 0, opt, nconn = 0, i;
    size_t k;

    while ((opt = getopt(argc, argv, "p:m:")) != -1) {
        if (opt == 'p') {
            port = atoi(optarg);
        } else if (opt == 'm') {
            for (k = 0; k < sizeof(mode_names) / sizeof(mode_names[0]); k++)
                if (strcmp(optarg, mode_names[k]) == 0)
                    break;
            if (k == sizeof(mode_names) / sizeof(mode_names[0])) {
                fprintf(stderr, "rpc_badpeer: unknown mode %s\n", optarg);
                return 2;
            }
            m = (enum mode)k;
        } else {
            fprintf(stderr, "usage: rpc_badpeer -p PORT -m MODE\n");
            return 2;
        }
    }
    pf[0].fd = tool_bound_socket(SOCK_DGRAM, "127.0.0.1", port);
    pf[1].fd = tool_bound_socket(SOCK_STREAM, "127.0.0.1", port);
    if (port <= 0 || pf[0].fd < 0 || pf[1].fd < 0) {
        fprintf(stderr, "rpc_badpeer: cannot bind 127.0.0.1:%d\n", port);
        return 1;
    }
    printf("ready %d\n", port);
    fflush(stdout);
    for (;;) {
        for (i = 0; i < 2 + nconn; i++)
            pf[i].events = POLLIN;
        if (poll(pf, (nfds_t)(2 + nconn), -1) < 0)
            return 1;
        if (pf[0].revents & POLLIN)
            serve_udp(pf[0].fd, m);
        if ((pf[1].revents & POLLIN) && nconn < MAX_CONN) {
            int c = accept(pf[1].fd, NULL, NULL);

            if (c >= 0) {
                pf[2 + nconn].fd = c;
                rp_recmark_init(&rm[nconn], 1 << 20);
                nconn++;
            }
        }
        for (i = 0; i < nconn; i++) {
            if (!(pf[2 + i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (serve_tcp(pf[2 + i].fd, &rm[i], m) < 0) {
                close(pf[2 + i].fd);
                rp_recmark_free(&rm[i]);
                nconn--;
                pf[2 + i] = pf[2 + nconn];
                rm[i] = rm[nconn];
                i--;
            }
        }
    }
}
