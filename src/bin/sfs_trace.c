/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_trace.c - main() of sfs_trace: "how does cache size affect
 * performance?" answered from an I/O trace before it is replayed.
 * Subcommands: stats (trace statistics), mrc (exact LRU stack distances and
 * the miss-ratio curve, optionally SHARDS-sampled), convert (to SPC text).
 * The options and the commands are the analysis layer's (analyze/cli.h);
 * this file parses, runs, and returns the exit code: 0 success, 1 bad
 * input or failure, 2 usage.  docs/sfs_trace.md describes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cli.h"
#include "common/alloc.h"
#include "common/opt.h"

int main(int argc, char **argv)
{
    char err[512];
    struct az_cli *c = cm_malloc(sizeof(*c)); /* the option table rows are large */
    int rc, code;

    if (!c)
        return AZ_EXIT_INPUT;
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        free(c);
        cm_opt_version(stdout);
        return AZ_EXIT_OK;
    }
    rc = az_cli_parse(c, argc, argv, err, sizeof(err));
    if (rc == AZ_CLI_HELP) {
        az_cli_help(stdout, c->cmd);
        free(c);
        return AZ_EXIT_OK;
    }
    if (rc < 0) {
        fprintf(stderr, "sfs_trace: %s (sfs_trace --help)\n", err);
        free(c);
        return AZ_EXIT_USAGE;
    }
    code = az_cli_run(c, stdout, stderr);
    free(c);
    return code;
}
