/* SPDX-License-Identifier: BSD-2-Clause */
/* th_serve.c - the socketpair server thread of th_serve.h. */
#include "helpers/th_serve.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void th_serve_init(struct th_serve *t)
{
    memset(t, 0, sizeof(*t));
    t->stop[0] = t->stop[1] = -1;
}

int th_serve_pair(struct th_serve *t, int sock_type)
{
    int sv[2];

    if (t->running || t->n == TH_SERVE_MAX ||
        socketpair(AF_UNIX, sock_type | SOCK_CLOEXEC, 0, sv) != 0)
        return -1;
    t->far[t->n] = sv[1];
    t->stream[t->n] = sock_type == SOCK_STREAM;
    t->n++;
    return sv[0];
}

static void *run(void *arg)
{
    struct th_serve *t = arg;

    t->fn(t->ctx, t->far, t->stream, t->n, t->stop[0]);
    return NULL;
}

int th_serve_start(struct th_serve *t, th_serve_fn fn, void *ctx)
{
    int rc;

    if (t->running || t->n == 0 || pipe(t->stop) != 0)
        return -EINVAL;
    t->fn = fn;
    t->ctx = ctx;
    rc = pthread_create(&t->thread, NULL, run, t);
    if (rc != 0)
        return -rc;
    t->running = 1;
    return 0;
}

void th_serve_stop(struct th_serve *t)
{
    if (t->running) {
        char b = 's';
        if (write(t->stop[1], &b, 1) != 1) {
            /* cannot happen on a fresh pipe; the join below would hang */
        }
        pthread_join(t->thread, NULL);
        t->running = 0;
    }
    for (int i = 0; i < 2; i++)
        if (t->stop[i] >= 0)
            close(t->stop[i]);
    for (int i = 0; i < t->n; i++)
        close(t->far[i]);
    th_serve_init(t);
}
