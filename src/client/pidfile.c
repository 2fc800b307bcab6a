/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pidfile.c - a prime-driven client records itself (--pid-file) so that
 * `sfs_mgr -k` can stop what a crash left behind (--kill-run), by process
 * id and never by name.  The file holds the client's pid and its start time
 * (field 22 of /proc/PID/stat): a pid that was reused by another program
 * since does not match and is left alone.  The client leads its own
 * process group (its children are in it), so stopping the group stops them
 * all: SIGCONT (a stopped client must see the signal), SIGTERM, a bounded
 * wait, then SIGKILL.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "client/cl_int.h"
#include "common/error.h"
#include "common/atomic.h"

/* Start time of pid in clock ticks since boot, 0 when it is gone (or a
 * zombie, which no longer runs anything). */
static unsigned long long start_time(pid_t pid)
{
    char path[64], buf[1024], *p;
    unsigned long long t = 0;
    FILE *f;
    int field;

    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(buf, sizeof(buf), f) == NULL) {
        fclose(f);
        return 0;
    }
    fclose(f);
    p = strrchr(buf, ')'); /* the command name may hold blanks */
    if (p == NULL || p[1] != ' ' || p[2] == 'Z')
        return 0;
    p += 2; /* field 3, the state */
    for (field = 3; field < 22 && p; field++) {
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    if (p)
        t = strtoull(p, NULL, 10);
    return t;
}

int cl_pidfile_write(const char *path, char *err, size_t errlen)
{
    struct cm_atomic_file af;

    if (cm_atomic_open(&af, path, err, errlen) < 0)
        return -EIO;
    fprintf(af.fp, "%ld %llu\n", (long)getpid(), start_time(getpid()));
    return cm_atomic_commit(&af, err, errlen);
}

/* Whether pid still runs with the start time recorded. */
static int same_process(pid_t pid, unsigned long long t)
{
    return t != 0 && start_time(pid) == t;
}

static void signal_all(pid_t pid, int sig)
{
    if (getpgid(pid) == pid)
        kill(-pid, sig);
    else
        kill(pid, sig);
}

int cl_pidfile_kill(const char *path, char *msg, size_t msglen)
{
    unsigned long long t = 0;
    long pid = 0;
    FILE *f = fopen(path, "r");
    int i, n;

    if (f == NULL) {
        if (errno == ENOENT)
            return cm_errf(msg, msglen, "%s: no client recorded (nothing to stop)", path),
                   0;
        return cm_errf(msg, msglen, "%s: %s", path, strerror(errno)), -errno;
    }
    n = fscanf(f, "%ld %llu", &pid, &t);
    fclose(f);
    if (n != 2 || pid <= 1) {
        unlink(path);
        return cm_errf(msg, msglen, "%s: not a FreeSFS pid file; removed", path), 0;
    }
    if (!same_process((pid_t)pid, t)) {
        unlink(path);
        return cm_errf(msg, msglen, "%s: client %ld no longer runs; removed", path, pid),
               0;
    }
    signal_all((pid_t)pid, SIGCONT);
    signal_all((pid_t)pid, SIGTERM);
    for (i = 0; i < 50 && same_process((pid_t)pid, t); i++)
        usleep(100000);
    if (same_process((pid_t)pid, t)) {
        signal_all((pid_t)pid, SIGKILL);
        for (i = 0; i < 20 && same_process((pid_t)pid, t); i++)
            usleep(100000);
    }
    if (same_process((pid_t)pid, t))
        return cm_errf(msg, msglen, "client %ld (%s) did not stop", pid, path), -EBUSY;
    unlink(path);
    return cm_errf(msg, msglen, "stopped client %ld and its children (%s)", pid, path), 0;
}

int cl_kill(const struct ld_config *cfg, const char *prog, FILE *log, char *err,
            size_t errlen)
{
    int rc = cl_pidfile_kill(cfg->kill_run, err, errlen);

    fprintf(log, "%s: %s\n", prog, err);
    err[0] = '\0';
    return rc < 0 ? CM_EXIT_FAILED : CM_EXIT_OK;
}
