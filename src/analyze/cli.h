/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.h - the sfs_trace command (stats, mrc, image, convert, plan) as the analysis layer
 * offers it to src/bin/sfs_trace.c: option tables on common/opt.c (the rows
 * of the subcommand given, so that one table gives its --help, range errors
 * and the YAML echo), and one run function that opens the trace, feeds the
 * analysis, and writes the table, the YAML and the picture.  Output goes to
 * the streams the caller hands in; exit codes are the AZ_EXIT_* below.
 */
#ifndef AZ_CLI_H
#define AZ_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "common/exit.h"
#include "common/opt.h"

#define AZ_EXIT_OK    CM_EXIT_OK
#define AZ_EXIT_INPUT CM_EXIT_FAILED /* bad input or failure */
#define AZ_EXIT_USAGE CM_EXIT_USAGE

#define AZ_CLI_PATH 4096

struct az_cli {
    /* every subcommand */
    char format[8];
    int lenient, quiet, threads;
    int64_t lba_size;
    double pair_window; /* NFS traces: s a call waits for its reply */
    char yaml[AZ_CLI_PATH];
    /* stats and mrc */
    char block_size[32];
    /* mrc */
    char cache_sizes[AZ_CLI_PATH], plot[AZ_CLI_PATH];
    int per_unit, isolated, sample_check, method;
    double sample, sample_distance;
    int64_t max_record_blocks, sample_seed;
    /* live captures (stats, mrc, fit): --interface and its bounds */
    char interface[64], filter[AZ_CLI_PATH], write[AZ_CLI_PATH];
    double duration, progress;
    int64_t count;
    int buffer_mb;
    /* set by the caller of az_cli_run: a live capture ends when *stop turns
     * nonzero (a SIGINT or SIGTERM handler's flag); NULL: never */
    const volatile sig_atomic_t *stop;
    /* fit */
    char mount[AZ_CLI_PATH], compare[AZ_CLI_PATH];
    int points;
    /* convert */
    char to[8];
    char output[AZ_CLI_PATH];
    char anonymize[256]; /* convert --to nfsdump: the key */
    /* plan: the NFS version whose calls are planned, and who plans: the
     * NFS replay, above this layer, hooked in by the program (NULL: the
     * command is not there) */
    int nfs_version;
    int (*plan)(const struct az_cli *c, FILE *out, FILE *diag);
    /* set by az_cli_parse: the command and its TRACE (with --interface: the
     * mount point whose ports are the capture's filter, or NULL) */
    const char *cmd, *trace;
    struct cm_opt rows[CM_OPT_MAX_ROWS]; /* the subcommand's table */
    size_t nrows;
};

/* az_cli_parse's return when --help was asked for. */
#define AZ_CLI_HELP 1

/* Parses "sfs_trace CMD TRACE [options]" (argv[0] is the program).  Returns
 * 0, AZ_CLI_HELP (c->cmd may be NULL: the general help), or -EINVAL with
 * one line in err (a usage error: exit AZ_EXIT_USAGE). */
int az_cli_parse(struct az_cli *c, int argc, char **argv, char *err, size_t errlen);
/* The usage, and the option table of cmd (NULL: of every subcommand). */
void az_cli_help(FILE *out, const char *cmd);
/* Runs the parsed command: results to out, messages to diag.  Returns an
 * AZ_EXIT_* code. */
int az_cli_run(struct az_cli *c, FILE *out, FILE *diag);

/* The NFS trace format of c (--format pcap|nfsdump, or detected from the
 * trace's first bytes under auto), or NULL for a block trace
 * (nfs_run.c). */
const char *az_nfs_format(const struct az_cli *c);
/* convert of an NFS trace (nfs_run.c; stats, mrc and image are nfs_cli.c's):
 * an AZ_EXIT_* code. */
int az_nfs_convert(struct az_cli *c, const char *format, FILE *out, FILE *diag);

#endif /* AZ_CLI_H */
