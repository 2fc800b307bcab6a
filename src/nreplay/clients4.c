/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clients4.c - each traced NFSv4 client replayed as a client of its own on
 * the server under test (nr_int.h, docs/nfs_replay.md "NFSv4"): the plan
 * makes every traced client (its client id, its session) a stream, and a
 * process here holds one NFSv4.1 client per stream and copy it replays -
 * the first the session's (the one the image was made with), each other
 * a mount of its own (its connection, EXCHANGE_ID with an owner of its
 * own, CREATE_SESSION with the session's slots, RECLAIM_COMPLETE) made
 * once in INIT, so that the traced clients' opens and locks live in their
 * own client's state, as the trace had them.  The run waits on all of
 * them at once.  Nothing here allocates after INIT.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "nfs/nf4_load.h"
#include "nfs/nf_proto.h"
#include "nreplay/nr_int.h"

struct nr_v4clients {
    uint32_t n;                    /* clients: the session's, then the mounts' */
    struct nf4_client **cl;        /* n: cl[0] the session's */
    struct nf4_mount *m;           /* n - 1: the clients beyond the session's */
    struct nf4_client_stats *mark; /* n: what each had counted at the start */
    uint32_t *unit;                /* per copy k and stream s: its client, or NR_NONE */
    struct pollfd *pf;             /* n */
};

static struct nf4_client *session_client(const struct nr_replay *rp)
{
    const struct nf4_mount *m = nf4_session_mount(&rp->cx.ses);

    return m ? m->cl : NULL;
}

/* Mounts one more client as the session's was (rb_mount_window): TCP, the
 * window's calls in flight, a slot per call and one more each for the
 * replay's own OPENs and CLOSEs. */
static int mount_one(struct nr_replay *rp, struct nf4_mount *m, char *err, size_t len)
{
    const char *spec = ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index);
    struct nf_mount_opts o;
    struct nf4_client_opts v4;
    unsigned n = rp->window ? rp->window : 1;

    nf_mount_opts_init(&o, 4);
    o.transport = o.mount_transport = RP_TCP;
    o.rpc.max_in_flight = n + 1;
    o.rpc.sndbuf_bytes = 4u << 20;
    o.rpc.reconnect_ms = rp->give_up_ms;
    nf4_client_opts_init(&v4);
    v4.slots = 2 * n < NF4_MAX_SLOTS ? 2 * n : NF4_MAX_SLOTS;
    return nf4_mount(m, spec, &o, &v4, err, len);
}

static void free_clients(struct nr_v4clients *v)
{
    if (v == NULL)
        return;
    free(v->cl);
    free(v->m);
    free(v->mark);
    free(v->unit);
    free(v->pf);
    free(v);
}

int nr_clients4_open(struct nr_replay *rp)
{
    struct nr_v4clients *v;
    uint32_t k, s, units = 0;
    char err[CM_ERR_LEN];
    int rc;

    for (k = 0; k < rp->ncopies; k++)
        for (s = 0; s < rp->nstreams; s++)
            units += nr_mine(rp, k, s);
    if (units <= 1 || session_client(rp) == NULL)
        return 0; /* the session's client is the one traced client's */
    if (units > NR_V4_CLIENTS_MAX)
        return ld_child_fail(&rp->cx, -E2BIG,
                             "%u traced NFSv4 clients (copies x the trace's clients) in "
                             "one process, more than %u: give it more processes (-p)",
                             units, NR_V4_CLIENTS_MAX);
    v = cm_calloc(1, sizeof(*v));
    if (v == NULL || !(v->cl = cm_calloc(units, sizeof(*v->cl))) ||
        !(v->m = cm_calloc(units - 1, sizeof(*v->m))) ||
        !(v->mark = cm_calloc(units, sizeof(*v->mark))) ||
        !(v->pf = cm_calloc(units, sizeof(*v->pf))) ||
        !(v->unit = cm_calloc((size_t)rp->ncopies * rp->nstreams, sizeof(*v->unit)))) {
        free_clients(v);
        return ld_child_fail(&rp->cx, -ENOMEM, "out of memory");
    }
    rp->v4cls = v;
    for (k = 0; k < rp->ncopies; k++)
        for (s = 0; s < rp->nstreams; s++) {
            uint32_t *u = &v->unit[(size_t)k * rp->nstreams + s];

            *u = NR_NONE;
            if (!nr_mine(rp, k, s))
                continue;
            if (v->n == 0) {
                v->cl[0] = session_client(rp);
            } else if ((rc = mount_one(rp, &v->m[v->n - 1], err, sizeof(err))) < 0) {
                return ld_child_fail(&rp->cx, rc,
                                     "the NFSv4 client of copy %u's traced client %u: %s",
                                     k, s, err);
            } else {
                v->cl[v->n] = v->m[v->n - 1].cl;
            }
            *u = v->n++;
        }
    return 0;
}

struct nf4_client *nr_client4(const struct nr_replay *rp, uint32_t k, uint32_t s)
{
    const struct nr_v4clients *v = rp->v4cls;
    uint32_t u;

    if (v == NULL || k >= rp->ncopies || s >= rp->nstreams)
        return session_client(rp);
    u = v->unit[(size_t)k * rp->nstreams + s];
    return u == NR_NONE ? session_client(rp) : v->cl[u];
}

/* The session's client alone: its descriptor and hooks. */
static int wait_session(struct nr_replay *rp, uint64_t wake)
{
    struct nf_session *ses = &rp->cx.ses;
    const struct nf_proto *p = ses->proto;
    int rev = rb_wait_fd(&rp->loop, p->fd(ses), p->events(ses), p->next_ms(ses), wake);

    return rev < 0 ? rev : p->service(ses, (short)rev);
}

int nr_clients4_wait(struct nr_replay *rp, uint64_t wake)
{
    struct nr_v4clients *v = rp->v4cls;
    int timeout = -1, t, rc, done = 0;
    uint32_t i;

    if (v == NULL)
        return wait_session(rp, wake);
    for (i = 0; i < v->n; i++) {
        v->pf[i].fd = nf4_client_fd(v->cl[i]);
        v->pf[i].events = nf4_client_events(v->cl[i]);
        t = nf4_client_timeout_ms(v->cl[i]);
        if (t >= 0 && (timeout < 0 || t < timeout))
            timeout = t;
    }
    rc = rb_wait_fds(&rp->loop, v->pf, v->n, timeout, wake);
    if (rc < 0)
        return rc;
    /* every client serviced: its timers (renewals, DELAY's holds) too */
    for (i = 0; i < v->n; i++) {
        rc = nf4_client_service(v->cl[i], v->pf[i].revents);
        if (rc < 0)
            return rc;
        done += rc;
    }
    return done;
}

void nr_clients4_mark(struct nr_replay *rp)
{
    struct nr_v4clients *v = rp->v4cls;
    uint32_t i;

    for (i = 0; v && i < v->n; i++)
        nf4_client_stats(v->cl[i], &v->mark[i]);
}

void nr_clients4_count(struct nr_replay *rp)
{
    struct nr_v4clients *v = rp->v4cls;
    struct nf4_client_stats now;
    uint32_t i;

    if (rp->cx.ses.stats == NULL)
        return;
    for (i = 1; v && i < v->n; i++) { /* the session's counts its own */
        nf4_client_stats(v->cl[i], &now);
        nf4_load_client(rp->cx.ses.stats, &now, &v->mark[i]);
    }
}

void nr_clients4_close(struct nr_replay *rp)
{
    struct nr_v4clients *v = rp->v4cls;
    uint32_t i;

    for (i = 1; v && i < v->n; i++)
        nf4_umount(&v->m[i - 1]); /* bounded: DESTROY_SESSION, DESTROY_CLIENTID */
    free_clients(v);
    rp->v4cls = NULL;
}
