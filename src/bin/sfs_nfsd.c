/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_nfsd.c - main() of the bundled NFSv2/v3 server (docs/sfs_nfsd.md):
 * parses the command line (the server layer's option table), creates the
 * server, starts it (foreground or detached) and prints the "ready" line,
 * serves until SIGTERM or SIGINT (SIGUSR1 writes the --stats-file), and
 * maps the outcome to an exit code: 0 stopped by a signal, 1 start-up or
 * serving failure, 2 usage error, 3 --exit-after reached.
 */
#include "server/sv.h"
#include "common/error.h"
#include "common/exit.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag, dump_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static void on_dump(int sig)
{
    (void)sig;
    dump_flag = 1;
}

/* Signals stay blocked except inside the loop's ppoll (sv.h), so none is
 * lost between a check and the wait. */
static void setup_signals(void)
{
    struct sigaction sa;
    sigset_t block;

    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = on_dump;
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int main(int argc, char **argv)
{
    static struct sv_options o;
    char err[CM_ERR_LEN], warn[CM_ERR_LEN], line[1024];
    struct sv_server *s;
    long pid;
    int rc, exited;

    rc = sv_options_parse(&o, argc, argv, err, sizeof(err));
    if (rc == SV_OPTIONS_HELP) {
        sv_options_help(stdout);
        return CM_EXIT_OK;
    }
    if (rc < 0) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        return CM_EXIT_USAGE;
    }
    setup_signals();
    s = sv_server_create(&o.cfg, err, sizeof(err));
    if (s == NULL) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        return CM_EXIT_FAILED;
    }
    sv_server_ready_line(s, line, sizeof(line));
    rc = sv_server_start(s, o.foreground, o.cfg.register_rpcbind, o.pidfile, &pid, warn,
                         sizeof(warn), err, sizeof(err));
    if (warn[0])
        fprintf(stderr, "sfs_nfsd: warning: %s\n", warn);
    if (rc != SV_START_SERVE) {
        if (rc < 0)
            fprintf(stderr, "sfs_nfsd: %s\n", err);
        else
            printf("%s pid %ld\n", line, pid);
        sv_server_destroy(s); /* the starter's copy: the child serves */
        return rc < 0 ? CM_EXIT_FAILED : CM_EXIT_OK;
    }
    printf("%s\n", line);
    fflush(stdout);

    rc = sv_server_run(s, &stop_flag, &dump_flag, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "sfs_nfsd: %s\n", err);
    if (sv_server_write_stats(s, err, sizeof(err)) != 0) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        rc = -1;
    }
    exited = !stop_flag && rc == 0;
    sv_server_destroy(s);
    if (o.pidfile[0])
        unlink(o.pidfile);
    /* --exit-after: it stopped as a crashed server would */
    return rc != 0 ? CM_EXIT_FAILED : exited ? CM_EXIT_STOPPED : CM_EXIT_OK;
}
