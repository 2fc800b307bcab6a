/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * daemon.c - how sfs_nfsd starts serving (server layer): in the foreground,
 * or detached into a child process that leaves its starter's session and
 * descriptors, registers with rpcbind on request and tells the starter it
 * is ready; the pidfile is written atomically.  The sockets were bound
 * before, so calls already queue in the kernel.  Nothing here prints: a
 * registration failure comes back as warning text for main() to show.
 */
#include "server/sv_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/error.h"
#include "common/atomic.h"

int sv_write_pidfile(const char *path, long pid, char *err, size_t errlen)
{
    struct cm_atomic_file af;

    if (cm_atomic_open(&af, path, err, errlen) != 0)
        return -EIO;
    fprintf(af.fp, "%ld\n", pid);
    return cm_atomic_commit(&af, err, errlen) != 0 ? -EIO : 0;
}

/* The detached child: registers, lets go of the starter's descriptors (a
 * shell's $(sfs_nfsd) would otherwise wait for it) and sends "r" plus any
 * warning down the pipe.  Returns 0, or exits when it cannot. */
static int child(struct sv_server *s, int do_register, int fd)
{
    char msg[CM_ERR_LEN + 1] = "r";

    setsid();
    if (do_register && sv_server_register(s, msg + 1, sizeof(msg) - 1) == 0)
        msg[1] = '\0';
    if (freopen("/dev/null", "r", stdin) == NULL ||
        freopen("/dev/null", "w", stdout) == NULL ||
        freopen("/dev/null", "w", stderr) == NULL)
        _exit(1);
    if (write(fd, msg, strlen(msg)) != (ssize_t)strlen(msg))
        _exit(1);
    close(fd);
    return SV_START_SERVE;
}

/* The detached server stopped as a user would stop it (SIGTERM), then
 * for good when it has not ended within 2 s; reaped. */
static void stop_child(pid_t kid)
{
    int i;

    kill(kid, SIGTERM);
    for (i = 0; i < 200; i++) {
        if (waitpid(kid, NULL, WNOHANG) != 0)
            return;
        poll(NULL, 0, 10);
    }
    kill(kid, SIGKILL);
    waitpid(kid, NULL, 0);
}

int sv_server_start(struct sv_server *s, int foreground, int do_register,
                    const char *pidfile, long *pid, char *warn, size_t warnlen, char *err,
                    size_t errlen)
{
    char msg[CM_ERR_LEN + 1];
    ssize_t got;
    int p[2];
    pid_t kid;

    warn[0] = '\0';
    *pid = (long)getpid();
    if (foreground) {
        if (do_register && sv_server_register(s, warn, warnlen) != 0)
            ; /* the warning is the caller's to show; serving goes on */
        else
            warn[0] = '\0';
        if (pidfile && pidfile[0] && sv_write_pidfile(pidfile, *pid, err, errlen) != 0)
            return -EIO;
        return SV_START_SERVE;
    }
    fflush(NULL);
    if (pipe(p) != 0 || (kid = fork()) < 0)
        return cm_errf(err, errlen, "cannot detach: %s", strerror(errno));
    if (kid == 0) {
        close(p[0]);
        return child(s, do_register, p[1]);
    }
    close(p[1]);
    got = read(p[0], msg, sizeof(msg) - 1);
    close(p[0]);
    if (got < 1 || msg[0] != 'r')
        return cm_errf(err, errlen, "the server process died while starting");
    msg[got] = '\0';
    snprintf(warn, warnlen, "%s", msg + 1);
    *pid = (long)kid;
    if (pidfile && pidfile[0] && sv_write_pidfile(pidfile, *pid, err, errlen) != 0) {
        stop_child(kid); /* a server nobody can find by its pidfile stops */
        return -EIO;
    }
    return SV_START_PARENT;
}
