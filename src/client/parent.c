/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parent.c - fork the children, drive their phases, notice a dead child
 * and stop the others (parent.h; docs/SFS30.md §12.2, docs/DECISIONS.md D8).
 * The one volatile sig_atomic_t flag of the parent process lives here: the
 * SIGINT/SIGTERM handler only sets it and every wait polls with a bounded
 * timeout, so the parent reacts within a tick and never blocks for good.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client/parent.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/clock.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

int cl_parent_interrupted(void)
{
    return interrupted != 0;
}

/* ---- spawning ----------------------------------------------------------- */

static void install_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

/* In the child: default dispositions again (SIGTERM from the parent must
 * end it), and only its own socket open. */
static void child_setup(struct cl_parent *p, unsigned k)
{
    struct sigaction sa;
    unsigned j;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    for (j = 0; j < k; j++)
        close(p->procs[j].fd);
}

int cl_parent_spawn(struct cl_parent *p, unsigned n, cl_child_fn fn, void *data)
{
    sigset_t term, old;
    unsigned k;

    p->procs = cm_calloc(n, sizeof(*p->procs));
    if (p->procs == NULL)
        return cm_errf(p->last_error, sizeof(p->last_error), "out of memory"), -ENOMEM;
    if (p->log == NULL)
        p->log = stderr; /* the documented default when the caller sets none */
    install_handlers();
    sigemptyset(&term);
    sigaddset(&term, SIGINT);
    sigaddset(&term, SIGTERM);
    fflush(NULL); /* nothing buffered may be written twice */
    for (k = 0; k < n; k++) {
        int sv[2];
        pid_t pid;

        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
            int e = errno;
            cm_errf(p->last_error, sizeof(p->last_error), "socketpair: %s", strerror(e));
            cl_parent_kill_all(p);
            return -e;
        }
        /* SIGINT/SIGTERM held across the fork: one sent to the child
         * before it restored the default dispositions would otherwise
         * reach the parent's handler in it and be lost (a child stopped at
         * once would need SIGKILL, seconds later); held, it is delivered
         * once they are restored, and ends the child. */
        sigprocmask(SIG_BLOCK, &term, &old);
        pid = fork();
        if (pid != 0)
            sigprocmask(SIG_SETMASK, &old, NULL);
        if (pid < 0) {
            int e = errno;
            close(sv[0]);
            close(sv[1]);
            cm_errf(p->last_error, sizeof(p->last_error), "fork: %s", strerror(e));
            cl_parent_kill_all(p);
            return -e;
        }
        if (pid == 0) {
            close(sv[0]);
            child_setup(p, k);
            sigprocmask(SIG_SETMASK, &old, NULL);
            /* The child's top level: fn is its main(), so its status is
             * the process's exit status (_exit: no atexit handlers or
             * stdio buffers inherited from the parent run twice). */
            fflush(NULL);
            _exit(fn(sv[1], k, data));
        }
        close(sv[1]);
        p->procs[k].pid = pid;
        p->procs[k].fd = sv[0];
        p->nprocs = k + 1;
    }
    return 0;
}

/* ---- phases ------------------------------------------------------------- */

static void describe_exit(struct cl_parent *p, unsigned k, int status, const char *why)
{
    if (WIFEXITED(status))
        cm_errf(p->last_error, sizeof(p->last_error),
                "child %u (pid %ld) %s: exit status %d", k, (long)p->procs[k].pid, why,
                WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        cm_errf(p->last_error, sizeof(p->last_error),
                "child %u (pid %ld) %s: killed by signal %d (%s)", k,
                (long)p->procs[k].pid, why, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
    else
        cm_errf(p->last_error, sizeof(p->last_error), "child %u (pid %ld) %s", k,
                (long)p->procs[k].pid, why);
}

/* A child's socket hit EOF: find out how it ended (bounded wait). */
static void child_gone(struct cl_parent *p, unsigned k)
{
    int status = 0, i;

    for (i = 0; i < 200; i++) {
        pid_t r = waitpid(p->procs[k].pid, &status, WNOHANG);
        if (r == p->procs[k].pid) {
            describe_exit(p, k, status, "died");
            p->procs[k].pid = 0;
            return;
        }
        if (r < 0)
            break;
        poll(NULL, 0, 10);
    }
    cm_errf(p->last_error, sizeof(p->last_error), "child %u (pid %ld) closed its channel",
            k, (long)p->procs[k].pid);
}

/* Reads one answer from child k.  Returns 1 when it completed the phase,
 * 0 when it was something else to ignore, -errno on failure. */
static int read_answer(struct cl_parent *p, unsigned k, uint32_t cmd)
{
    struct cl_proc *c = &p->procs[k];
    struct ct_msg_hdr h;
    char *buf = cm_malloc(CT_MSG_MAX_PAYLOAD + 1);
    int rc;

    if (buf == NULL)
        return cm_errf(p->last_error, sizeof(p->last_error), "out of memory"), -ENOMEM;
    rc = ct_msg_recv(c->fd, &h, buf, CT_MSG_MAX_PAYLOAD);
    if (rc == -EPIPE) {
        free(buf);
        child_gone(p, k);
        return -ECHILD;
    }
    if (rc < 0) {
        free(buf);
        cm_errf(p->last_error, sizeof(p->last_error), "child %u: bad message: %s", k,
                strerror(-rc));
        return -EIO;
    }
    if (h.type == CT_MSG_ERROR) {
        buf[h.len] = '\0';
        cm_errf(p->last_error, sizeof(p->last_error), "child %u: %s", k, buf);
        free(buf);
        return -EIO;
    }
    if (h.type != cmd) {
        free(buf);
        return 0;
    }
    free(c->payload);
    c->payload = buf;
    c->payload_len = h.len;
    c->done = 1;
    return 1;
}

int cl_parent_command(struct cl_parent *p, uint32_t cmd, uint32_t arg)
{
    unsigned k;
    int rc = 0;

    for (k = 0; k < p->nprocs; k++)
        p->procs[k].done = 0;
    for (k = 0; k < p->nprocs && rc == 0; k++) {
        if (ct_msg_send(p->procs[k].fd, cmd, arg, NULL, 0) < 0) {
            /* It may have said why before it went: read that first. */
            rc = read_answer(p, k, cmd);
            if (rc >= 0) {
                child_gone(p, k);
                rc = -ECHILD;
            }
        }
    }
    return rc;
}

unsigned cl_parent_pollfds(const struct cl_parent *p, struct pollfd *pf)
{
    unsigned k;

    for (k = 0; k < p->nprocs; k++) {
        pf[k].fd = p->procs[k].done ? -1 : p->procs[k].fd;
        pf[k].events = POLLIN;
        pf[k].revents = 0;
    }
    return p->nprocs;
}

int cl_parent_service(struct cl_parent *p, const struct pollfd *pf, uint32_t cmd)
{
    unsigned k, left = 0;

    for (k = 0; k < p->nprocs; k++) {
        if (!p->procs[k].done && pf[k].fd >= 0 && pf[k].revents != 0) {
            int r = read_answer(p, k, cmd);
            if (r < 0)
                return r;
        }
        left += !p->procs[k].done;
    }
    return (int)left;
}

int cl_parent_phase(struct cl_parent *p, uint32_t cmd, uint32_t arg, unsigned timeout_s)
{
    struct pollfd *pf;
    uint64_t deadline = cm_now_ms() + (uint64_t)timeout_s * 1000u;
    int rc, left;

    pf = cm_calloc(p->nprocs, sizeof(*pf));
    if (pf == NULL) { /* a failed phase stops every child, this one too */
        cm_errf(p->last_error, sizeof(p->last_error), "out of memory");
        cl_parent_kill_all(p);
        return -ENOMEM;
    }
    rc = cl_parent_command(p, cmd, arg);
    left = (int)p->nprocs;
    while (rc == 0 && left > 0) {
        uint64_t now = cm_now_ms();
        int n;

        if (interrupted) {
            cm_errf(p->last_error, sizeof(p->last_error), "interrupted by %s",
                    strsignal(interrupted));
            rc = -EINTR;
            break;
        }
        if (now >= deadline) {
            cm_errf(p->last_error, sizeof(p->last_error),
                    "%d child(ren) did not finish the phase in %u s", left, timeout_s);
            rc = -ETIMEDOUT;
            break;
        }
        cl_parent_pollfds(p, pf);
        /* short ticks so that a signal is seen even if poll restarts */
        n = poll(pf, p->nprocs, (int)(deadline - now < 200 ? deadline - now : 200));
        if (n < 0 && errno != EINTR) {
            rc = -errno;
            cm_errf(p->last_error, sizeof(p->last_error), "poll: %s", strerror(errno));
            break;
        }
        if (n > 0) {
            left = cl_parent_service(p, pf, cmd);
            if (left < 0)
                rc = left;
        }
        if (p->tick && rc == 0 && left > 0)
            p->tick(p->tick_data);
    }
    free(pf);
    if (rc < 0)
        cl_parent_kill_all(p);
    return rc;
}

void cl_parent_stop_phase(struct cl_parent *p)
{
    unsigned k;

    for (k = 0; k < p->nprocs; k++)
        if (p->procs[k].pid > 0)
            (void)ct_msg_send(p->procs[k].fd, CT_MSG_STOP, 0, NULL, 0);
}

/* ---- ending ------------------------------------------------------------- */

/* Waits up to tries x 10 ms for child k; returns 1 when it was reaped. */
static int reap_one(struct cl_parent *p, unsigned k, int tries, int *status)
{
    int i;

    for (i = 0; i < tries; i++) {
        pid_t r = waitpid(p->procs[k].pid, status, WNOHANG);
        if (r == p->procs[k].pid || (r < 0 && errno == ECHILD)) {
            p->procs[k].pid = 0;
            return 1;
        }
        poll(NULL, 0, 10);
    }
    return 0;
}

int cl_parent_reap(struct cl_parent *p)
{
    unsigned k;
    int rc = 0;

    for (k = 0; k < p->nprocs; k++) {
        int status = 0;
        if (p->procs[k].pid <= 0)
            continue;
        if (!reap_one(p, k, 1000, &status)) {
            cm_errf(p->last_error, sizeof(p->last_error),
                    "child %u (pid %ld) did not exit after its results", k,
                    (long)p->procs[k].pid);
            rc = -ECHILD;
            continue;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            describe_exit(p, k, status, "failed");
            rc = -ECHILD;
        }
    }
    if (rc < 0)
        cl_parent_kill_all(p);
    return rc;
}

void cl_parent_kill_all(struct cl_parent *p)
{
    unsigned k;
    int status;

    for (k = 0; k < p->nprocs; k++) {
        if (p->procs[k].pid <= 0)
            continue;
        if (p->debug_signals)
            fprintf(p->log, "sfs: SIGTERM to child %u (pid %ld)\n", k,
                    (long)p->procs[k].pid);
        kill(p->procs[k].pid, SIGTERM);
    }
    for (k = 0; k < p->nprocs; k++) {
        if (p->procs[k].pid <= 0)
            continue;
        if (!reap_one(p, k, 300, &status)) {
            if (p->debug_signals)
                fprintf(p->log, "sfs: SIGKILL to child %u (pid %ld)\n", k,
                        (long)p->procs[k].pid);
            kill(p->procs[k].pid, SIGKILL);
            reap_one(p, k, 300, &status);
        }
    }
}

void cl_parent_free(struct cl_parent *p)
{
    unsigned k;

    for (k = 0; k < p->nprocs; k++) {
        if (p->procs[k].fd > 0)
            close(p->procs[k].fd);
        free(p->procs[k].payload);
    }
    free(p->procs);
    p->procs = NULL;
    p->nprocs = 0;
}
