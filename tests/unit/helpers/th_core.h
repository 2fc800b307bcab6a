/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_core.h - unit-test helper: the server layer's core (an sfs_nfsd
 * without sockets of its own) served over socketpairs by th_serve, and
 * rp_clients on the near ends.  Header-only, so that only the tests that
 * include it link the server layer (name them test_server_* or give them
 * a second word that is not a layer, which links every layer).
 *
 *     struct th_core t;
 *     struct rp_client *mnt, *nfs;
 *     th_core_start(&t, NULL, 2);               // default core, 2 pairs
 *     th_core_client(&t, 0, MOUNT_PROGRAM, 3, NULL, &mnt);
 *     th_core_client(&t, 1, NFS_PROGRAM, 3, &opts, &nfs);
 *     ... nfm3_mnt(mnt, ...), nf3_lookup(nfs, ...) ...
 *     th_core_stop(&t);                         // closes the clients too
 */
#ifndef TH_CORE_H
#define TH_CORE_H

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helpers/th_serve.h"
#include "rpc/rp.h"
#include "server/sv.h"

struct th_core {
    struct sv_core *core;
    struct th_serve serve;
    int fds[TH_SERVE_MAX]; /* near ends, until a client takes one */
    struct rp_client *clients[TH_SERVE_MAX];
    char err[CM_ERR_LEN];
};

static inline void th_core_serve(void *ctx, const int *fds, const int *stream, int n,
                                 int stop_fd)
{
    struct th_core *t = ctx;
    (void)sv_core_serve_fds(t->core, fds, stream, n, stop_fd, t->err, sizeof(t->err));
}

/* Creates a core from cfg (NULL: sv_config_defaults with handles of
 * instance 1) and serves it on npairs stream socketpairs.  Returns 0 or
 * -1 with the reason in t->err. */
static inline int th_core_start(struct th_core *t, const struct sv_config *cfg,
                                int npairs)
{
    struct sv_config def;

    memset(t, 0, sizeof(*t));
    th_serve_init(&t->serve);
    for (int i = 0; i < TH_SERVE_MAX; i++)
        t->fds[i] = -1;
    if (cfg == NULL) {
        sv_config_defaults(&def);
        def.instance = 1;
        cfg = &def;
    }
    t->core = sv_core_create(cfg, t->err, sizeof(t->err));
    if (t->core == NULL)
        return -1;
    for (int i = 0; i < npairs; i++)
        if ((t->fds[i] = th_serve_pair(&t->serve, SOCK_STREAM)) < 0)
            return -1;
    return th_serve_start(&t->serve, th_core_serve, t) == 0 ? 0 : -1;
}

/* An rp_client (TCP framing) of prog/vers on pair i; opts may be NULL.
 * The client is t's: th_core_stop closes it. */
static inline int th_core_client(struct th_core *t, int i, uint32_t prog, uint32_t vers,
                                 const struct rp_client_opts *opts, struct rp_client **c)
{
    int rc =
        rp_client_open_fd(c, t->fds[i], RP_TCP, prog, vers, opts, t->err, sizeof(t->err));
    t->fds[i] = -1;
    t->clients[i] = rc == 0 ? *c : NULL;
    return rc;
}

/* Closes the clients, stops the server thread, frees the core. */
static inline void th_core_stop(struct th_core *t)
{
    for (int i = 0; i < TH_SERVE_MAX; i++) {
        if (t->clients[i] != NULL)
            rp_client_close(t->clients[i]);
        else if (t->fds[i] >= 0)
            close(t->fds[i]);
    }
    th_serve_stop(&t->serve);
    sv_core_destroy(t->core);
    t->core = NULL;
}

#endif /* TH_CORE_H */
