/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_trace.c - main() of sfs_trace: "how does cache size affect
 * performance?" answered from an I/O trace before it is replayed.
 * Subcommands: stats (trace statistics), mrc (exact LRU stack distances and
 * the miss-ratio curve, optionally SHARDS-sampled), image, convert (to SPC
 * text or nfsdump), plan (an NFS replay's plan file).  The options and the
 * commands are the analysis layer's (analyze/cli.h); plan is the NFS
 * replay's (nreplay/nr.h), hooked in here; this file parses, runs, and
 * returns the exit code: 0 success, 1 bad input or failure, 2 usage.
 * docs/sfs_trace.md describes them.  A live capture (--interface) ends at
 * SIGINT or SIGTERM with its report.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cli.h"
#include "common/alloc.h"
#include "common/opt.h"
#include "image/im.h"
#include "nreplay/nr.h"

/* sfs_trace plan: the plan file written, then read back for its line. */
static int plan(const struct az_cli *c, FILE *out, FILE *diag)
{
    struct nr_plan_opts o = {c->format, c->lenient, c->nfs_version};
    struct nr_plan p;
    char err[512], ops[1024];

    if (nr_plan_write(c->trace, &o, c->output, err, sizeof(err)) < 0 ||
        nr_plan_open(&p, c->output, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return AZ_EXIT_INPUT;
    }
    fprintf(out,
            "%s: the plan of %s (%s): %llu NFSv%d calls of %u client(s) over %.3f s; "
            "image of %u objects\n",
            c->output, p.capture, p.format, (unsigned long long)p.ncalls, p.nfs_version,
            p.nstreams, (double)p.trace_ns / 1e9, im_nlive(p.img));
    if (nr_plan_summary(&p, ops, sizeof(ops), err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        nr_plan_free(&p);
        return AZ_EXIT_INPUT;
    }
    fprintf(out, "  %s\n", ops);
    nr_plan_free(&p);
    return AZ_EXIT_OK;
}

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

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
    c->plan = plan;
    if (c->interface[0]) {
        /* a live capture ends at SIGINT or SIGTERM with its report, as
         * tcpdump's does; poll() is interrupted (no SA_RESTART) */
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        c->stop = &stop_flag;
    }
    code = az_cli_run(c, stdout, stderr);
    free(c);
    return code;
}
