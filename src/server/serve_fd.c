/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * serve_fd.c - a core served over sockets someone else connected (server
 * layer): a blocking poll loop over a few descriptors, datagram or stream
 * (record marking), until every peer has closed or stop_fd becomes
 * readable.  The unit tests' socketpair helper (tests/unit/helpers) runs
 * it in a thread, so that client code and the handlers meet without a
 * network; it is the same sv_core_handle that sv_server puts behind its
 * sockets.  Replies are written whole (a blocking write on the caller's
 * descriptor); --delay-us is not applied here.
 */
#include "rpc/recmark.h"
#include "server/sv_int.h"
#include "common/alloc.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/error.h"

#define SERVE_MAX_FDS 8

/* Writes all of buf, waiting for room; 0 or -errno. */
static int write_all(int fd, const uint8_t *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            struct pollfd p = {fd, POLLOUT, 0};
            poll(&p, 1, 1000);
            continue;
        }
        if (n <= 0)
            return n < 0 ? -errno : -EPIPE;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Stops watching a descriptor whose peer is gone (or broke the framing);
 * returns 1, the count of descriptors it takes off. */
static int drop(struct pollfd *p)
{
    p->fd = -1;
    return 1;
}

/* Answers one message; on a stream the reply gets its record mark. */
static int answer(struct sv_core *c, int fd, int stream, const uint8_t *msg, size_t len,
                  uint8_t *out)
{
    struct sv_reply r =
        sv_core_handle(c, msg, len, out + 4, SV_REPLY_MAX, "serve_fd", !stream);

    if (r.len == 0)
        return 0;
    if (!stream)
        return write_all(fd, out + 4, r.len);
    rp_recmark_put(out, r.len, 1);
    return write_all(fd, out, r.len + 4);
}

int sv_core_serve_fds(struct sv_core *c, const int *fds, const int *stream, int n,
                      int stop_fd, char *err, size_t errlen)
{
    struct pollfd p[SERVE_MAX_FDS + 1];
    struct rp_recmark rm[SERVE_MAX_FDS];
    uint8_t *in = cm_malloc(SV_MSG_MAX), *out = cm_malloc(SV_REPLY_MAX + 4);
    int open = n, rc = 0;

    if (n < 1 || n > SERVE_MAX_FDS || in == NULL || out == NULL) {
        free(in);
        free(out);
        return cm_errf(err, errlen, "serve: %d descriptors (1..%d) or out of memory", n,
                       SERVE_MAX_FDS);
    }
    for (int i = 0; i < n; i++) {
        p[i] = (struct pollfd){fds[i], POLLIN, 0};
        rp_recmark_init(&rm[i], SV_MSG_MAX);
    }
    p[n] = (struct pollfd){stop_fd, POLLIN, 0};
    while (open > 0 && rc == 0 && !c->exit_requested) {
        if (poll(p, (nfds_t)n + (stop_fd >= 0), -1) < 0) {
            if (errno == EINTR)
                continue;
            rc = cm_errf(err, errlen, "serve: poll: %s", strerror(errno));
            break;
        }
        if (stop_fd >= 0 && p[n].revents)
            break;
        for (int i = 0; i < n; i++) {
            size_t off = 0;
            ssize_t got;
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            got = recv(p[i].fd, in, SV_MSG_MAX, 0);
            if (got <= 0) { /* the peer closed */
                open -= drop(&p[i]);
                continue;
            }
            if (!stream[i]) {
                if (answer(c, fds[i], 0, in, (size_t)got, out) != 0)
                    open -= drop(&p[i]);
                continue;
            }
            while (off < (size_t)got && p[i].fd >= 0) {
                const uint8_t *rec;
                size_t len;
                ssize_t k =
                    rp_recmark_feed(&rm[i], in + off, (size_t)got - off, &rec, &len);
                if (k < 0) { /* a record too large: the stream is lost */
                    open -= drop(&p[i]);
                    break;
                }
                off += (size_t)k;
                if (rec != NULL && answer(c, fds[i], 1, rec, len, out) != 0)
                    open -= drop(&p[i]);
            }
        }
    }
    for (int i = 0; i < n; i++)
        rp_recmark_free(&rm[i]);
    free(in);
    free(out);
    return rc;
}
