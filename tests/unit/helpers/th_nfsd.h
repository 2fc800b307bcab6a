/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_nfsd.h - unit-test helper: sfs_nfsd's server (sv_server: sockets on
 * free loopback ports, the core, the event loop) run by sv_server_run in a
 * thread, for what needs real sockets (libnfs, the connection code).
 * Header-only, like th_core.h, so that only the tests that include it link
 * the server layer.  Network safety: loopback only.
 *
 *     th_nfsd_signals();                     // once, in main()
 *     struct th_nfsd v;
 *     struct sv_config cfg;
 *     th_nfsd_config(&cfg, "127.0.0.1");
 *     th_nfsd_start(&v, &cfg);              // v.url: nfs://...?mountport=N
 *     ... nf_mount(v.url), th_nfsd_client(&v, RP_TCP, &c) ...
 *     th_nfsd_stop(&v);
 *
 * The loop is stopped by its flag and SIGUSR1 to its thread: the signal is
 * blocked everywhere (th_nfsd_signals, inherited by the threads) and only
 * the loop's ppoll unblocks it, so a stop can never fall between the check
 * of the flag and the wait.
 */
#ifndef TH_NFSD_H
#define TH_NFSD_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "nfs/nf.h"
#include "rpc/rp.h"
#include "server/sv.h"

struct th_nfsd {
    struct sv_server *s;
    pthread_t thread;
    volatile sig_atomic_t stop, dump;
    int rc;
    char err[CM_ERR_LEN];
    char url[160]; /* nfs://ADDR:NFS/export?mountport=MNT */
    uint16_t nfs_port, mnt_port;
    long fail_nth;        /* the server thread's allocations fail from this one on */
    unsigned long failed; /* ... and how many did, once the loop ended */
};

static inline void th_nfsd_on_usr1(int sig)
{
    (void)sig;
}

/* SIGUSR1 handled (it only interrupts the loop's ppoll) and blocked in
 * this thread and every thread started after. */
static inline void th_nfsd_signals(void)
{
    struct sigaction sa;
    sigset_t usr1;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = th_nfsd_on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL);
}

/* Defaults, bound to addr, free ports, handles of instance 1. */
static inline void th_nfsd_config(struct sv_config *cfg, const char *addr)
{
    sv_config_defaults(cfg);
    cfg->bind_addr = addr;
    cfg->nfs_port = cfg->mount_port = 0;
    cfg->instance = 1;
}

static inline void *th_nfsd_serve(void *arg)
{
    struct th_nfsd *v = arg;

    cm_alloc_fail_nth(v->fail_nth, 1); /* this thread's hook; 0: off */
    v->rc = sv_server_run(v->s, &v->stop, &v->dump, v->err, sizeof(v->err));
    v->failed = cm_alloc_failed();
    cm_alloc_fail_off();
    return NULL;
}

/* The port after the last ':' of "ADDR:PORT" or "[ADDR]:PORT". */
static inline uint16_t th_nfsd_port_of(const char *hostport)
{
    const char *c = strrchr(hostport, ':');

    return c ? (uint16_t)atoi(c + 1) : 0;
}

/* Creates a server from cfg and runs it in a thread whose allocations
 * fail from the fail_nth on, for good (0: none).  Returns 0, or -1 with
 * the reason in v->err (nothing started). */
static inline int th_nfsd_start_failing(struct th_nfsd *v, const struct sv_config *cfg,
                                        long fail_nth)
{
    char line[256], nfs[80], mnt[80];

    memset(v, 0, sizeof(*v));
    v->fail_nth = fail_nth;
    v->s = sv_server_create(cfg, v->err, sizeof(v->err));
    if (v->s == NULL)
        return -1;
    sv_server_ready_line(v->s, line, sizeof(line));
    if (sscanf(line, "ready nfs %79s udp,tcp mount %79s udp,tcp", nfs, mnt) != 2 ||
        strrchr(nfs, ':') == NULL) {
        snprintf(v->err, sizeof(v->err), "unexpected ready line: %s", line);
        sv_server_destroy(v->s);
        return -1;
    }
    v->nfs_port = th_nfsd_port_of(nfs);
    v->mnt_port = th_nfsd_port_of(mnt);
    *strrchr(nfs, ':') = '\0';
    snprintf(v->url, sizeof(v->url), "nfs://%s:%u/export?mountport=%u", nfs, v->nfs_port,
             v->mnt_port);
    if (pthread_create(&v->thread, NULL, th_nfsd_serve, v) != 0) {
        snprintf(v->err, sizeof(v->err), "pthread_create failed");
        sv_server_destroy(v->s);
        return -1;
    }
    return 0;
}

static inline int th_nfsd_start(struct th_nfsd *v, const struct sv_config *cfg)
{
    return th_nfsd_start_failing(v, cfg, 0);
}

/* Wakes the loop (SIGUSR1 interrupts its ppoll) after setting a flag.
 * Returns pthread_kill's result. */
static inline int th_nfsd_poke(struct th_nfsd *v, volatile sig_atomic_t *flag)
{
    *flag = 1;
    return pthread_kill(v->thread, SIGUSR1);
}

/* Stops the loop and waits for it; the server stays for inspection.
 * Returns the loop's result (0), or -1 when the thread could not be
 * reached. */
static inline int th_nfsd_halt(struct th_nfsd *v)
{
    if (th_nfsd_poke(v, &v->stop) != 0 || pthread_join(v->thread, NULL) != 0)
        return -1;
    return v->rc;
}

static inline int th_nfsd_stop(struct th_nfsd *v)
{
    int rc = th_nfsd_halt(v);

    sv_server_destroy(v->s);
    return rc;
}

/* An rp_client of NFSv3 on the server's NFS port over transport t (IPv4
 * loopback).  0 or -errno with the reason in v->err. */
static inline int th_nfsd_client(struct th_nfsd *v, enum rp_transport_kind t,
                                 const struct rp_client_opts *opts, struct rp_client **c)
{
    struct sockaddr_in sin;
    struct rp_client_opts o;

    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons(v->nfs_port);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (opts != NULL)
        o = *opts;
    else
        rp_client_opts_init(&o);
    o.transport = t;
    return rp_client_open(c, (struct sockaddr *)&sin, sizeof(sin), NFS3_PROGRAM, NFS_V3,
                          &o, 2000, v->err, sizeof(v->err));
}

#endif /* TH_NFSD_H */
