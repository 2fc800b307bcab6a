/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_prime.c - main() of sfs_prime (docs/SFS30.md §13.2; docs/sfs_mgr.md):
 * the prime alone, for clients started by hand.  It resolves the rc file
 * as sfs_mgr does, writes the run's token to --token-file (mode 0600),
 * prints the command line each client must run (`sfs3 -M HOST:PORT -N K
 * ... < TOKEN-FILE`), then synchronises the clients through the phases,
 * aggregates and writes the same result files.  sfs_mgr is the same prime
 * plus the remote start of the clients.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/opt.h"
#include "prime/pr.h"

struct prime_cli {
    char rc[4096];
    char suffix[128];
    char token_file[4096];
    int progress;
};

#define F(field) offsetof(struct prime_cli, field), sizeof(((struct prime_cli *)0)->field)

static const struct cm_opt prime_opts[] = {
    {'r', "rc", NULL, CM_OPT_STRING, F(rc), "", 0, 0, NULL, "RC",
     "The rc file (parsed as data, never executed).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'s', "suffix", NULL, CM_OPT_STRING, F(suffix), "", 0, 0, NULL, "SFX",
     "Suffix of the result files.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "token-file", NULL, CM_OPT_STRING, F(token_file), "", 0, 0, NULL, "FILE",
     "Where to write the run's token (mode 0600); each client reads it on stdin.", NULL,
     NULL, 0, CM_EXIT_USAGE},
    {0, "progress", NULL, CM_OPT_INT, F(progress), "10", 0, 86400, "s", "SEC",
     "A progress line this often during each point's warm-up and run, summed over the "
     "clients; 0 = none.",
     NULL, NULL, 0, CM_EXIT_USAGE},
};

int main(int argc, char **argv)
{
    struct prime_cli cli;
    struct pr_run run;
    struct pr_opts o;
    char err[CM_ERR_LEN];
    int first = argc, rc, code;

    memset(&cli, 0, sizeof(cli));
    rc = cm_opt_main(
        prime_opts, CM_ARRAY_LEN(prime_opts), &cli, argc, argv,
        "usage: sfs_prime -r RC --token-file FILE [-s SFX] [--progress SEC]\n", stdout,
        &first, NULL, err, sizeof(err));
    if (rc == 1)
        return CM_EXIT_OK;
    if (rc == 0 && (cli.rc[0] == '\0' || cli.token_file[0] == '\0'))
        rc = cm_errf(err, sizeof(err), "-r RC and --token-file FILE are required");
    if (rc < 0) {
        fprintf(stderr, "sfs_prime: %s\n", err);
        return CM_EXIT_USAGE;
    }
    /* an rc file that cannot be read: one line with the reason, not the rc
       errors' summary after it */
    if (access(cli.rc, R_OK) < 0) {
        fprintf(stderr, "sfs_prime: %s: %s\n", cli.rc, strerror(errno));
        return CM_EXIT_USAGE;
    }
    if (pr_run_load(&run, cli.rc, cli.suffix[0] ? cli.suffix : NULL, stderr) < 0) {
        fprintf(stderr, "sfs_prime: %s: the rc file has errors\n", cli.rc);
        pr_run_free(&run);
        return CM_EXIT_USAGE;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(&o, 0, sizeof(o));
    o.name = "sfs_prime";
    o.launch = 0;
    o.token_file = cli.token_file;
    o.progress_s = (unsigned)cli.progress;
    o.out = stdout;
    o.diag = stderr;
    code = pr_mgr_run(&run, &o);
    pr_run_free(&run);
    return code;
}
