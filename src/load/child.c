/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * child.c - what every child does whatever its workload (workload.h): its
 * context (log and failure lines, seed, the parent's socket, the mount
 * session's end) and its phase loop.  The parent sends one command per
 * phase; the loop hands it to the workload's child_phase and answers when
 * it is done, or sends CT_MSG_ERROR with the child's last error and ends.
 * The workload's files call these functions; this file reaches the
 * workload only through its table, so no call goes back and forth between
 * files.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ctl/ct.h"
#include "load/debug.h"
#include "load/workload.h"
#include "common/alloc.h"

void ld_child_log(struct ld_child *c, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    int n;

    if (c->log == NULL)
        return;
    /* one write per line: the children share stderr */
    n = snprintf(line, sizeof(line), "%s: child %u: ", c->setup->prog, c->index);
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    va_end(ap);
    n = (int)strlen(line);
    line[n++] = '\n';
    fflush(c->log);
    if (write(fileno(c->log), line, (size_t)n) < 0)
        return;
}

int ld_child_fail(struct ld_child *c, int rc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->last_error, sizeof(c->last_error), fmt, ap);
    va_end(ap);
    return rc;
}

int64_t ld_child_seed(const struct ld_config *cfg, unsigned index)
{
    /* Every child of every client draws its own stream: the clients of a
     * multi-client run must not repeat each other's op sequence (-N is 1 for
     * a standalone run, so its children keep seed + k). */
    return cfg->seed + (int64_t)LD_MAX_PROCS * (cfg->client_num - 1) + index;
}

/* SIGINT or SIGTERM arrived in a child whose protocol keeps client state
 * on the server: the child ends as when its parent is gone, through its
 * session's end (NFSv4.1: DESTROY_SESSION, DESTROY_CLIENTID), instead of
 * dying with it left there until its lease runs out. */
static volatile sig_atomic_t stopped_by_signal;

static void on_stop_signal(int sig)
{
    stopped_by_signal = sig;
}

static void catch_stop_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void ld_child_setup(struct ld_child *c, const struct ld_setup *su, unsigned index,
                    int ctl_fd)
{
    c->setup = su;
    c->cfg = su->cfg;
    c->index = index;
    c->ses.proto = nf_proto_by_version(su->cfg->nfs_version);
    c->ses.stats = (void *)ld_results_proto(&su->results, c->results);
    if (c->ses.proto && (c->ses.proto->file_enter || c->ses.proto->keepalive))
        catch_stop_signals(); /* its state must be destroyed at any end */
    /* the session's waits end with the process */
    c->ses.stop = &stopped_by_signal;
    c->ctl_fd = ctl_fd;
    c->log = su->log;
    c->debug = su->cfg->debug_mask;
    ld_stats_reset(&c->stats);
}

void ld_child_run_window(struct ld_child *c, uint64_t start_ns, uint64_t end_ns)
{
    if (end_ns < start_ns)
        end_ns = start_ns;
    c->stats.runtime_ns = end_ns - start_ns;
    c->stats.run_start_ns = start_ns;
    c->stats.run_end_ns = end_ns;
    ld_child_count_stop(c);
}

/* CHILD_GENERAL: where the protocol's counting starts or stops, as the
 * next XID of the session's calls (a capture of the same run is cut
 * there to compare its operations with the counters: test 0226). */
static void log_count_edge(struct ld_child *c, const char *what)
{
    if (c->ses.rpc && ld_debug_child_on(c->debug, LD_DBG_CHILD_GENERAL, (int)c->index))
        ld_child_log(c, "%s counters %s at xid %08x", c->ses.proto->name, what,
                     rp_client_next_xid(c->ses.rpc));
}

void ld_child_count_stop(struct ld_child *c)
{
    const struct nf_proto *p = c->ses.proto;

    if (p && p->counters.stop && c->ses.stats) {
        p->counters.stop(&c->ses);
        log_count_edge(c, "stop");
    }
}

int ld_child_parent_gone(const struct ld_child *c)
{
    struct pollfd pf = {c->ctl_fd, POLLIN, 0};

    if (stopped_by_signal)
        return 1;
    return c->ctl_fd >= 0 && poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR));
}

void ld_child_publish(struct ld_child *c, int force)
{
    uint64_t now;

    if (c->setup->live == NULL)
        return;
    now = cm_now_ns();
    if (!force && now - c->live_at_ns < LD_LIVE_PUBLISH_NS)
        return;
    c->live_at_ns = now;
    c->live.at_ms = now / 1000000u;
    if (c->setup->wl->child_live)
        c->setup->wl->child_live(c);
    ld_live_publish(c->setup->live, c->index, &c->live);
}

int ld_child_check_parent(struct ld_child *c)
{
    struct pollfd pf = {c->ctl_fd, POLLIN, 0};
    struct ct_msg_hdr h;

    ld_child_publish(c, 0);
    if (stopped_by_signal)
        return -EPIPE; /* as a parent gone: the child ends, its session too */
    if (c->ctl_fd < 0)
        return 0;
    while (!c->has_pending && poll(&pf, 1, 0) > 0) {
        if (ct_msg_recv(c->ctl_fd, &h, NULL, 0) < 0)
            return -EPIPE;
        c->stop = 1;
        if (h.type != CT_MSG_STOP) {
            c->pending = h;
            c->has_pending = 1;
        }
    }
    return 0;
}

int ld_child_parent_spoke(const struct ld_child *c)
{
    struct pollfd pf = {c->ctl_fd, POLLIN, 0};

    /* as ld_child_check_parent: a kept command is read no further */
    return !c->has_pending && c->ctl_fd >= 0 && poll(&pf, 1, 0) > 0;
}

void ld_child_unmount(struct ld_child *c)
{
    nf_session_close(&c->ses);
}

/* ---- the phase loop --------------------------------------------------------- */

/* This process's user + system CPU time so far, in microseconds (a child
 * is a process of its own: parent.c forks it). */
static uint64_t cpu_us(void)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec +
           (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
}

static int answer(struct ld_child *c, uint32_t type, const void *buf, uint32_t len)
{
    return ct_msg_send(c->ctl_fd, type, 0, buf, len);
}

static int send_results(struct ld_child *c)
{
    const struct ld_wstats *w = &c->setup->results.all;
    unsigned char *buf = cm_malloc(ld_stats_wire_max(w));
    size_t n;
    int rc;

    if (buf == NULL)
        return -ENOMEM;
    c->setup->wl->child_results(c);
    n = ld_stats_encode(&c->stats, w, c->results, buf);
    rc = answer(c, CT_MSG_RESULTS, buf, (uint32_t)n);
    free(buf);
    return rc;
}

void ld_child_results_reset(struct ld_child *c)
{
    const struct nf_proto *p = c->ses.proto;

    ld_stats_reset(&c->stats);
    if (c->results)
        memset(c->results, 0, c->setup->results.all.size);
    if (p && p->counters.start && c->ses.stats) {
        p->counters.start(&c->ses);
        log_count_edge(c, "start");
    }
}

/*
 * Waits for the parent's next command.  A protocol that keeps client
 * state on a lease (NFSv4.1) is kept alive meanwhile: its session is
 * serviced as its timers say (a SEQUENCE alone once the process was idle
 * for a third of the lease, its reply read), so that a child waiting for
 * WARMUP, RUN or RESULTS - a prompt, the other clients of a prime - keeps
 * its client.  Returns ct_msg_recv's result.
 */
static int wait_command(struct ld_child *c, struct ct_msg_hdr *h)
{
    const struct nf_proto *p = c->ses.proto;
    uint64_t since = cm_now_ns();
    struct pollfd pf[2];
    int n;

    while (p && p->keepalive && p->fd && p->events && p->next_ms && c->ses.mounted &&
           c->ctl_fd >= 0 && !stopped_by_signal) {
        pf[0].fd = c->ctl_fd;
        pf[0].events = POLLIN;
        pf[1].fd = p->fd(&c->ses);
        pf[1].events = p->events(&c->ses);
        pf[0].revents = pf[1].revents = 0;
        n = poll(pf, pf[1].fd >= 0 ? 2 : 1, p->next_ms(&c->ses));
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0 && pf[0].revents)
            break;
        if (n < 0)
            continue; /* a signal: the loop's condition looks */
        if (p->keepalive(&c->ses, cm_now_ns() - since) < 0)
            break; /* the session is gone: nothing to keep */
    }
    if (stopped_by_signal)
        return -EINTR;
    return ct_msg_recv(c->ctl_fd, h, NULL, 0);
}

struct ld_child *ld_child_alloc(const struct ld_setup *su)
{
    size_t at = (su->wl->child_size + 15) & ~(size_t)15;
    struct ld_child *c = cm_calloc(1, at + su->results.all.size);

    if (c && su->results.all.size)
        c->results = (char *)c + at;
    return c;
}

int ld_child_main(int fd, unsigned child, void *data)
{
    const struct ld_setup *setup = data;
    const struct ld_workload_ops *wl = setup->wl;
    struct ld_child *c = ld_child_alloc(setup);
    struct ct_msg_hdr h;
    int rc, status = 1;
    uint64_t cpu0;

    if (c == NULL)
        return 1;
    rc = wl->child_init(c, setup, child, fd);
    if (rc < 0) {
        (void)ct_msg_send(fd, CT_MSG_ERROR, 0, c->last_error,
                          (uint32_t)strlen(c->last_error));
        wl->child_free(c);
        free(c);
        return 1;
    }
    for (;;) {
        if (c->has_pending) {
            h = c->pending;
            c->has_pending = 0;
        } else if (wait_command(c, &h) < 0) {
            break; /* the parent is gone */
        }
        if (h.type == CT_MSG_STOP)
            continue; /* arrived between phases */
        if (h.type == CT_MSG_RESULTS) {
            status = send_results(c) < 0;
            break;
        }
        cpu0 = cpu_us();
        rc = wl->child_phase(c, h.type, h.arg);
        /* the run phase's own CPU, set after the workload reset its
         * results at the phase's start: neither the population nor the
         * warm-up's hold is in it */
        if (h.type == CT_MSG_RUN)
            c->stats.run_cpu_us = cpu_us() - cpu0;
        ld_child_publish(c, 1); /* the phase's last reading, before it is answered */
        if (rc == 0 && h.type == CT_MSG_WARMUP) {
            /* Load stays on until START (SFS): the warm-up is answered when
             * its time is up, and the workload may keep its load on,
             * unmeasured, until the next command (normally the run)
             * arrives, so that a pause before START does not let the
             * server cool down. */
            if (answer(c, h.type, NULL, 0) < 0)
                break;
            if (!c->has_pending && wl->child_hold)
                rc = wl->child_hold(c);
            if (rc == 0)
                continue;
        }
        /* a phase that failed because the process is to end (a signal:
         * its session's calls were refused) is the parent's end, not a
         * failure to tell it of */
        if (rc == -EPIPE || (rc < 0 && stopped_by_signal))
            break;
        if (rc < 0) {
            (void)answer(c, CT_MSG_ERROR, c->last_error, (uint32_t)strlen(c->last_error));
            break;
        }
        if (answer(c, h.type, NULL, 0) < 0)
            break;
    }
    wl->child_free(c);
    free(c);
    return status;
}
