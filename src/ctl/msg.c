/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.c - sending and receiving the phase messages of ct.h over a stream
 * socket: whole messages or an error, never half of one.
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl/ct.h"

const char *ct_msg_name(uint32_t type)
{
    switch (type) {
    case CT_MSG_MOUNT:
        return "mount";
    case CT_MSG_INIT:
        return "init";
    case CT_MSG_WARMUP:
        return "warm-up";
    case CT_MSG_RUN:
        return "run";
    case CT_MSG_RESULTS:
        return "results";
    case CT_MSG_STOP:
        return "stop";
    case CT_MSG_ERROR:
        return "error";
    default:
        return "?";
    }
}

/* Writes (out) or reads all len bytes, EINTR-safe.  Returns 0, -EPIPE when
 * a read meets EOF, or -errno. */
static int move_all(int fd, char *p, size_t len, int out)
{
    while (len > 0) {
        ssize_t n = out ? send(fd, p, len, MSG_NOSIGNAL) : read(fd, p, len);
        if (n == 0 && !out)
            return -EPIPE;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int ct_msg_send_all(int fd, const void *buf, size_t len)
{
    return move_all(fd, (char *)(uintptr_t)buf, len, 1);
}

int ct_msg_send(int fd, uint32_t type, uint32_t arg, const void *payload, uint32_t len)
{
    struct ct_msg_hdr h = {type, arg, len};
    int rc = ct_msg_send_all(fd, &h, sizeof(h));

    if (rc == 0 && len > 0)
        rc = ct_msg_send_all(fd, payload, len);
    return rc;
}

int ct_msg_recv(int fd, struct ct_msg_hdr *h, void *buf, size_t cap)
{
    int rc = move_all(fd, (char *)h, sizeof(*h), 0);

    if (rc < 0)
        return rc;
    if (h->len > cap || h->len > CT_MSG_MAX_PAYLOAD)
        return -EMSGSIZE;
    return h->len > 0 ? move_all(fd, buf, h->len, 0) : 0;
}
