/* SPDX-License-Identifier: BSD-2-Clause */
/* tool_net.h - the one socket helper the test peers share (v2_responder,
 * rpc_badpeer): an IPv4 socket bound to addr:port on loopback, listening
 * when it is a stream.  Header-only because each tool is one program. */
#ifndef TOOL_NET_H
#define TOOL_NET_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Returns the socket, or -1.  A stream socket is put to listen here
 * because libtirpc's svctcp_create does not listen on a socket that is
 * already bound (docs/TESTING.md, "NFSv2: FreeSFS's own
 * server"). */
static inline int tool_bound_socket(int type, const char *addr, int port)
{
    struct sockaddr_in sin;
    int fd = socket(AF_INET, type, 0), one = 1;

    if (fd < 0)
        return -1;
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1 ||
        bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0 ||
        (type == SOCK_STREAM && listen(fd, 64) != 0)) {
        close(fd);
        return -1;
    }
    return fd;
}

#endif /* TOOL_NET_H */
