/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * launch.c - the processes the prime starts (clients directly or through
 * the remote shell, the monitor script) and how it stops them: each in a
 * process group of its own, so that Ctrl-C on the terminal reaches only
 * sfs_mgr, which then stops them in order; stopped by process id and group,
 * never by name, with a bounded wait at every step.
 */
#define _GNU_SOURCE /* pipe2, accept4 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.h"
#include "prime/pr_int.h"

int pr_spawn(struct pr_proc *p, char *const *argv, int out_fd, char *const *env,
             char *err, size_t errlen)
{
    int in[2], ep[2], e = 0;
    pid_t pid;
    ssize_t n;

    memset(p, 0, sizeof(*p));
    p->in_fd = -1;
    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0) {
        e = errno;
        return cm_errf(err, errlen, "pipe: %s", strerror(e)), -e;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        e = errno;
        close(in[0]), close(in[1]), close(ep[0]), close(ep[1]);
        return cm_errf(err, errlen, "fork: %s", strerror(e)), -e;
    }
    if (pid == 0) {
        struct sigaction sa;
        int devnull = open("/dev/null", O_WRONLY);

        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGPIPE, &sa, NULL);
        sigaction(SIGCHLD, &sa, NULL);
        setpgid(0, 0);
        dup2(in[0], STDIN_FILENO);
        dup2(out_fd >= 0 ? out_fd : devnull, STDOUT_FILENO);
        dup2(out_fd >= 0 ? out_fd : devnull, STDERR_FILENO);
        for (; env && *env; env++)
            putenv(*env);
        execvp(argv[0], argv);
        e = errno;
        if (write(ep[1], &e, sizeof(e)) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, so there is no race with a kill */
    close(in[0]);
    close(ep[1]);
    n = read(ep[0], &e, sizeof(e)); /* EOF on a successful exec */
    close(ep[0]);
    if (n == (ssize_t)sizeof(e)) {
        close(in[1]);
        waitpid(pid, NULL, 0);
        return cm_errf(err, errlen, "%s: %s", argv[0], strerror(e)), -e;
    }
    p->pid = pid;
    p->in_fd = in[1];
    fcntl(p->in_fd, F_SETFL, O_NONBLOCK);
    return 0;
}

int pr_proc_poll(struct pr_proc *p)
{
    int status;

    if (p->pid <= 0 || p->exited)
        return p->exited;
    if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
        p->exited = 1;
        p->status = status;
    }
    return p->exited;
}

void pr_status_text(int status, char *buf, size_t len)
{
    if (WIFEXITED(status))
        snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "status 0x%x", (unsigned)status);
}

/* Waits up to ms for every process to have exited; 1 when they all have. */
static int wait_all(struct pr_proc **procs, size_t n, unsigned ms)
{
    unsigned waited = 0;

    for (;;) {
        size_t i, left = 0;
        for (i = 0; i < n; i++)
            left += procs[i]->pid > 0 && !pr_proc_poll(procs[i]);
        if (left == 0)
            return 1;
        if (waited >= ms)
            return 0;
        poll(NULL, 0, 20);
        waited += 20;
    }
}

static void signal_groups(struct pr_proc **procs, size_t n, int sig)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (procs[i]->pid > 0 && !procs[i]->exited)
            kill(-procs[i]->pid, sig);
}

void pr_procs_stop(struct pr_proc **procs, size_t n, unsigned grace_ms)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (procs[i]->in_fd >= 0) {
            close(procs[i]->in_fd);
            procs[i]->in_fd = -1;
        }
    if (wait_all(procs, n, grace_ms))
        return;
    signal_groups(procs, n, SIGCONT);
    signal_groups(procs, n, SIGTERM);
    if (wait_all(procs, n, 2000))
        return;
    signal_groups(procs, n, SIGKILL);
    (void)wait_all(procs, n, 1000);
}
