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
 *
 * A mount session (nf_mount) reaches the core through th_core_connect,
 * which hands out the pairs no client took yet, one per client the session
 * opens (stream pairs for RP_TCP, datagram pairs for RP_UDP:
 * th_core_start_pairs makes both kinds):
 *
 *     th_core_start_pairs(&t, NULL, 3, 0);
 *     o.connect = th_core_connect; o.connect_data = &t;
 *     nf_mount(&m, "core:/export", &o, err, sizeof(err));
 */
#ifndef TH_CORE_H
#define TH_CORE_H

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/alloc.h"
#include "helpers/th_serve.h"
#include "nfs/nf.h"
#include "rpc/rp.h"
#include "server/sv.h"
#include "common/error.h"

struct th_core {
    struct sv_core *core;
    struct th_serve serve;
    int fds[TH_SERVE_MAX]; /* near ends, until a client takes one */
    struct rp_client *clients[TH_SERVE_MAX];
    char err[CM_ERR_LEN];
    /* the failing-allocator hook in the server thread (th_core_start_failing) */
    long fail_nth;
    int fail_sticky;
    unsigned long failed; /* allocations it made fail, once the thread ended */
};

static inline void th_core_serve(void *ctx, const int *fds, const int *stream, int n,
                                 int stop_fd)
{
    struct th_core *t = ctx;

    cm_alloc_fail_nth(t->fail_nth, t->fail_sticky); /* this thread's hook; 0: off */
    if (sv_core_serve_fds(t->core, fds, stream, n, stop_fd, t->err, sizeof(t->err)) < 0)
        for (int i = 0; i < n; i++) /* the clients see the end at once */
            shutdown(fds[i], SHUT_RDWR);
    t->failed = cm_alloc_failed();
    cm_alloc_fail_off();
}

/* Creates a core from cfg (NULL: sv_config_defaults with handles of
 * instance 1) and serves it on nstream stream socketpairs (pairs
 * 0..nstream-1) and ndgram datagram socketpairs (the next ones).  Returns
 * 0 or -1 with the reason in t->err.  The server thread's nth allocation
 * fails (and every later one with sticky), counted from the start of the
 * thread (nth = 0: none); the core is created before, outside the hook
 * (common/alloc.h).  th_core_stop leaves the failures the hook made in
 * t->failed. */
static inline int th_core_start_failing(struct th_core *t, const struct sv_config *cfg,
                                        int nstream, int ndgram, long nth, int sticky)
{
    struct sv_config def;

    memset(t, 0, sizeof(*t));
    t->fail_nth = nth;
    t->fail_sticky = sticky;
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
    for (int i = 0; i < nstream + ndgram; i++)
        if ((t->fds[i] =
                 th_serve_pair(&t->serve, i < nstream ? SOCK_STREAM : SOCK_DGRAM)) < 0)
            return -1;
    return th_serve_start(&t->serve, th_core_serve, t) == 0 ? 0 : -1;
}

/* th_core_start_failing without failures. */
static inline int th_core_start_pairs(struct th_core *t, const struct sv_config *cfg,
                                      int nstream, int ndgram)
{
    return th_core_start_failing(t, cfg, nstream, ndgram, 0, 0);
}

/* th_core_start_pairs with stream pairs only. */
static inline int th_core_start(struct th_core *t, const struct sv_config *cfg,
                                int npairs)
{
    return th_core_start_pairs(t, cfg, npairs, 0);
}

/* An nf_connect_fn (nf_mount_opts.connect, data = the struct th_core):
 * the near end of the first pair of the kind transport asks for that no
 * client took yet, or -EMFILE when none is left.  The session owns it. */
static inline int th_core_connect(void *data, uint32_t prog,
                                  enum rp_transport_kind transport)
{
    struct th_core *t = data;

    (void)prog; /* every pair serves every program */
    for (int i = 0; i < t->serve.n; i++)
        if (t->fds[i] >= 0 && t->serve.stream[i] == (transport == RP_TCP)) {
            int fd = t->fds[i];
            t->fds[i] = -1;
            return fd;
        }
    return -EMFILE;
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

/* The file type of a mounted export's root by GETATTR on the session's
 * client (NF3DIR or NFDIR for a directory), or -1 when the call or the
 * NFS status failed. */
static inline int th_root_type(const struct nf_mount *m)
{
    int type = -1;

    if (m->nfs_version == 3) {
        GETATTR3args a;
        GETATTR3res r;

        memset(&r, 0, sizeof(r));
        nf_fh_to_v3(&m->root, &a.object);
        if (nf3_getattr(m->nfs, &a, &r) == 0 && r.status == NFS3_OK)
            type = (int)r.GETATTR3res_u.resok.obj_attributes.type;
        xdr_free((xdrproc_t)xdr_GETATTR3res, (char *)&r);
    } else {
        nfs_fh fh;
        attrstat r;

        memset(&r, 0, sizeof(r));
        if (nf_fh_to_v2(&m->root, &fh) == 0 && nf2_getattr(m->nfs, &fh, &r) == 0 &&
            r.status == NFS_OK)
            type = (int)r.attrstat_u.attributes.type;
        xdr_free((xdrproc_t)xdr_attrstat, (char *)&r);
    }
    return type;
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
