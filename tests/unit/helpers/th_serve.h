/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_serve.h - unit-test helper: a server thread on the far end of a few
 * socketpairs, so that client code (an rp_client opened with
 * rp_client_open_fd on the near end) and a server meet without a network.
 * Generic (libc and pthreads only, linked into every unit test): what the
 * thread runs is the caller's function.  th_core.h puts the server layer's
 * core behind it in a few lines.
 *
 *     struct th_serve t;
 *     th_serve_init(&t);
 *     int fd = th_serve_pair(&t, SOCK_STREAM);  // before th_serve_start
 *     th_serve_start(&t, fn, ctx);              // fn serves every pair
 *     ... rp_client_open_fd(&c, fd, RP_TCP, ...) ...
 *     rp_client_close(c);                       // closes fd
 *     th_serve_stop(&t);                        // joins the thread
 */
#ifndef TH_SERVE_H
#define TH_SERVE_H

#include <pthread.h>

#define TH_SERVE_MAX 8

/* Serves the far ends fds[0..n) (stream[i]: SOCK_STREAM, else datagrams)
 * until stop_fd becomes readable or every peer closed. */
typedef void (*th_serve_fn)(void *ctx, const int *fds, const int *stream, int n,
                            int stop_fd);

struct th_serve {
    int n;
    int far[TH_SERVE_MAX];    /* the server's ends */
    int stream[TH_SERVE_MAX]; /* 1 for SOCK_STREAM pairs */
    int stop[2];              /* a pipe: writing stops the thread */
    pthread_t thread;
    int running;
    th_serve_fn fn;
    void *ctx;
};

/* Starts a description with no pairs; call it first. */
void th_serve_init(struct th_serve *t);
/* Makes one more AF_UNIX socketpair of type SOCK_STREAM or SOCK_DGRAM and
 * returns the near end (the test's, e.g. for rp_client_open_fd), or -1.
 * Only before th_serve_start. */
int th_serve_pair(struct th_serve *t, int sock_type);
/* Runs fn(ctx, far ends...) in a thread.  Returns 0 or -errno. */
int th_serve_start(struct th_serve *t, th_serve_fn fn, void *ctx);
/* Stops the thread (it sees stop_fd readable), joins it and closes the
 * far ends.  Safe when never started. */
void th_serve_stop(struct th_serve *t);

#endif /* TH_SERVE_H */
