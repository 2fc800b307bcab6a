/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * restart.c - runs the operator's server restart command for the COMMIT
 * verifier check (vd_int.h): /bin/sh -c CMD in a process group of its own,
 * its standard output sent to standard error (the validation's output is
 * the report), bounded by a time limit at which the whole group is killed.
 * The command is the operator's (--restart-cmd), never built from input.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "validate/vd_int.h"
#include "common/error.h"
#include "common/clock.h"

#define DEFAULT_LIMIT_MS 120000u
#define POLL_MS          20

int vd_run_restart(const struct vd_opts *o, char *err, size_t errlen)
{
    uint32_t limit = o->restart_limit_ms ? o->restart_limit_ms : DEFAULT_LIMIT_MS;
    uint64_t deadline = cm_now_ns() + (uint64_t)limit * 1000000u;
    int status;
    pid_t pid, w;

    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return cm_errf(err, errlen, "restart command: fork: %s", strerror(errno)), -errno;
    if (pid == 0) {
        setpgid(0, 0);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execl("/bin/sh", "sh", "-c", o->restart_cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no race with the child's own call */
    for (;;) {
        w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return cm_errf(err, errlen, "restart command: waitpid: %s", strerror(errno)),
                   -ECHILD;
        if (cm_now_ns() >= deadline) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            cm_errf(err, errlen, "restart command did not finish within %u ms: killed",
                    limit);
            return -ETIMEDOUT;
        }
        poll(NULL, 0, POLL_MS);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status))
        cm_errf(err, errlen, "restart command exited with status %d",
                WEXITSTATUS(status));
    else
        cm_errf(err, errlen, "restart command killed by signal %d", WTERMSIG(status));
    return -EIO;
}
