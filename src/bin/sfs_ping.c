/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_ping.c - main() of sfs_ping, the quick test-bed check the SFS FAQ
 * asks for (docs/sfs_ping.md): parse the options (nfs/ping_cli.c's
 * table), catch SIGINT and SIGTERM, hand the run to nf_ping_cli and print
 * its one line of error.  Exit codes: 0 the calls completed, 1 an RPC
 * failed, every call was an NFS error or the server could not be used,
 * 2 bad usage.
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/exit.h"
#include "common/opt.h"
#include "nfs/nf_ping.h"

#define PING_USAGE                                                                       \
    "usage: sfs_ping [options] MOUNT\n"                                                  \
    "  MOUNT is host:/path, host:port:/path or nfs://host[:port]/path?mountport=N\n"     \
    "  (NFSv4: the port is the NFS port; no MOUNT port is used)\n"

/* SIGINT or SIGTERM: the loop starts no more calls, finishes those in
 * flight, reports them and unmounts (NFSv4: DESTROY_SESSION and
 * DESTROY_CLIENTID, so that no session is left on the server). */
static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static void catch_stop(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop; /* no SA_RESTART: the loop's poll returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
    struct nf_ping_opts o;
    char err[CM_ERR_LEN] = "";
    const struct cm_opt *table;
    size_t rows;
    int first, rc;

    table = nf_ping_options(&rows);
    rc = cm_opt_main(table, rows, &o, argc, argv, PING_USAGE, stdout, &first, NULL, err,
                     sizeof(err));
    if (rc == 1)
        return CM_EXIT_OK;
    if (rc == 0 && o.v2 + o.v3 + o.v4 > 1)
        rc = cm_errf(err, sizeof(err), "-2, -3 and -4: one NFS version at a time");
    if (rc < 0 || first != argc - 1) {
        fprintf(stderr, "sfs_ping: %s\n", rc < 0 ? err : "one MOUNT argument expected");
        fprintf(stderr, "usage: sfs_ping [options] MOUNT (sfs_ping --help lists them)\n");
        return CM_EXIT_USAGE;
    }
    catch_stop();
    rc = nf_ping_cli(&o, argv[first], &stop_flag, stdout, err, sizeof(err));
    if (err[0])
        fprintf(stderr, "sfs_ping: %s\n", err);
    return rc;
}
