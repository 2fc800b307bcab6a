/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli_int.h - what the sfs_trace runners of block traces (cli.c) and of
 * NFS traces (nfs_cli.c, nfs_run.c) share: the reader warnings printed to
 * diag (the first ones, then only counted) and the YAML output opened and
 * closed atomically (cli_out.c), and the miss-ratio run with its default
 * cache sizes, table, YAML and picture, fed by either kind of trace
 * (cli_mrc.c).
 */
#ifndef AZ_CLI_INT_H
#define AZ_CLI_INT_H

#include <stdio.h>

#include "analyze/az.h"
#include "analyze/az_nfs.h"
#include "analyze/cli.h"

struct az__warn_state {
    FILE *diag;
    unsigned long n;
};
/* cli_out.c */
/* A tr_warn_fn: data is a struct az__warn_state. */
void az__cli_warning(void *data, const char *msg);

/* Opens the YAML output of --yaml, or says why not on diag (NULL). */
struct cm_yaml *az__cli_yaml_begin(const struct az_cli *c, FILE *diag);
/* Closes (atomically renames) the YAML output: an AZ_EXIT_* code. */
int az__cli_yaml_end(struct cm_yaml *y, FILE *diag);

/* cli_mrc.c */
/* Feeds a whole trace to m: 0, or -errno with one line in err. */
typedef int (*az__mrc_feed_fn)(struct az_mrc *m, void *data, char *err, size_t errlen);
/* The mrc subcommand on a fed trace (unit_bits: az_mrc_opts.unit_bits;
 * sizes: the --cache-sizes list, or NULL for the default).  An AZ_EXIT_*
 * code. */
int az__cli_mrc(struct az_cli *c, const struct az_source *src, az__mrc_feed_fn feed,
                void *data, unsigned unit_bits, uint64_t bs, uint64_t *sizes, size_t n,
                FILE *out, FILE *diag);

/* nfs_live.c: the progress lines of --progress, over one interval. */
struct az__progress {
    FILE *diag;
    struct az__warn_state *warn; /* the reader's warnings (set by the caller) */
    struct tr_nfs_reader *reader;
    int live, started;
    int64_t every_ns;            /* 0: no lines */
    int64_t start_abs, next_abs; /* ns since the epoch */
    uint64_t calls, row[AZ_NFS_ROWS];
    double rt_sum_ms;
    struct cm_hist rt;
};
/* Opens c's NFS trace of the format given, or its live capture
 * (--interface: the filter, the bounds, the file kept, c->stop), with p
 * ready for az__progress_event.  0, or -errno with the message on diag. */
int az__nfs_open(const struct az_cli *c, const char *format, struct az__progress *p,
                 struct tr_nfs_reader **r, FILE *diag);
/* The name the reports give the trace: the file, or the interface. */
const char *az__nfs_trace_name(const struct az_cli *c);
/* Counts one event in the interval (and, for a trace read from a file,
 * prints the intervals its time has passed). */
void az__progress_event(struct az__progress *p, const struct tr_nfs_event *ev);

/* fit_cli.c: sfs_trace fit on an NFS trace of the format given (or live).
 * An AZ_EXIT_* code. */
int az__fit_run(struct az_cli *c, const char *format, uint64_t bs, FILE *out, FILE *diag);

/* stats, mrc and image on an NFS trace (nfs_cli.c) of the format
 * az_nfs_format found.  An AZ_EXIT_* code. */
int az__nfs_cli_run(struct az_cli *c, const char *format, uint64_t bs, uint64_t *sizes,
                    size_t n, FILE *out, FILE *diag);

#endif /* AZ_CLI_INT_H */
