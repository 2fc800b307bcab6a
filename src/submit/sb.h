/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sb.h - the submit layer: sfs_generate, SFS 3.0's submission tool
 * (docs/SFS30.md §20.2; docs/generate.md).  From the static
 * information (company, server, load-generator types, networks, notes;
 * asked for or imported from a YAML file), the rc file and the sfssum file
 * of a run, and an answer per client (its type and network), it writes a
 * submission file with every disclosure item of the run rules.
 *
 *   sfssum.c   the sfssum lines (docs/SFS30.md §16.5) and the curve's figures
 *   info.c     the static information: one table of fields drives the
 *              questions, the YAML import and the output order
 *   write.c    the submission file (load-generator blocks merged when they
 *              differ only in tb_lg_number), written atomically
 *   session.c  the questions: [1] prompt (the static information, from info.c's
 *              field table), [2] import, [3] exit, the files,
 *              the clients, the output name
 *
 * Library code: nothing here exits; questions and messages go to the
 * streams given.
 */
#ifndef SB_H
#define SB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/exit.h"
#include "common/rc.h"

/* sfs_generate exit codes */
#define SB_EXIT_OK    CM_EXIT_OK     /* a submission file was written, or [3] Exit */
#define SB_EXIT_INPUT CM_EXIT_FAILED /* the input ended before the file was written */
#define SB_EXIT_WRITE                                                                    \
    CM_EXIT_USAGE /* the file could not be written, or a file the                        \
                     command line named cannot be used */

#define SB_MAX_POINTS  1000
#define SB_MAX_CLIENTS 4096
#define SB_MAX_TYPES   100

/* ---- sfssum.c ----------------------------------------------------------------- */

/* One sfssum line (docs/SFS30.md §16.5). */
struct sb_point {
    int invalid;
    uint64_t requested;
    double ops, resp; /* achieved ops/s, average response ms */
    uint64_t total_ops, time_s;
    int nfs_version;
    char transport; /* 'U' or 'T' */
    uint64_t fileset_kb;
    unsigned clients, procs, biod_reads, biod_writes;
    char version[16];
    long line;
};

struct sb_sum {
    struct sb_point pts[SB_MAX_POINTS];
    size_t n;
};

/* Reads an sfssum file: every line one point, all of one run (the same
 * version, transport, clients, processes and biod settings).  Errors are
 * "FILE:LINE: ..." to diag, the first in err; returns 0 or -EINVAL/-errno. */
int sb_sum_load(const char *path, struct sb_sum *sum, FILE *diag, char *err,
                size_t errlen);

/* The overall response time of the valid points (docs/SFS30.md §17.3) and
 * the throughput of the rightmost valid point (the metric); 0 and 0 when no
 * point is valid.  Returns the number of valid points. */
size_t sb_sum_curve(const struct sb_sum *sum, double *ort_ms, double *peak_ops);

/* ---- info.c --------------------------------------------------------------------- */

/* A field of the static information: its YAML path, its key in the
 * submission file, the question that asks for it. */
struct sb_field {
    const char *path;     /* "server.model"; NULL: a section heading */
    const char *key;      /* "sut_model" (a heading: its [section] name) */
    const char *question; /* "Server model number" (a heading: its title) */
    unsigned flags;
};
#define SB_F_MULTI    0x1u /* several lines (a YAML list or block) */
#define SB_F_OPTIONAL 0x2u /* may be left out */

/* The tables: the top-level fields (with headings), the fields of one
 * load-generator type, those of one network. */
const struct sb_field *sb_info_fields(size_t *n);
const struct sb_field *sb_lg_fields(size_t *n);
const struct sb_field *sb_net_fields(size_t *n);

#define SB_MAX_FIELDS 96
struct sb_record {
    char *vals[SB_MAX_FIELDS]; /* by table index; NULL when not given */
};

struct sb_info {
    struct sb_record top;
    struct sb_record types[SB_MAX_TYPES];
    size_t ntypes;
    struct sb_record nets[SB_MAX_TYPES];
    size_t nnets;
};

/* Imports the static information from a YAML file (common/yaml.h: no
 * aliases).  Unknown keys, missing or empty fields (write "none" when there
 * is nothing to disclose), duplicate type or network names are errors at
 * their FILE:LINE.  Returns 0 or a negative errno; info is freed on error. */
int sb_info_load(const char *path, struct sb_info *info, FILE *diag, char *err,
                 size_t errlen);

void sb_info_free(struct sb_info *info);

/* ---- session.c (and the line reader the questions share) ----------------------- */

/* Writes prompt to out and reads one line from in into buf (without its
 * newline; blanks around it removed).  Returns 0, or -ENODATA at the end of
 * the input.  A line longer than buf is refused and asked again. */
int sb_ask(FILE *in, FILE *out, const char *prompt, char *buf, size_t len);

/* What the command line gave instead of asking (each NULL or "" when not
 * given): --info (the static information: no menu), --rc, --sfssum and
 * --output (replaced without asking: the caller named it). */
struct sb_given {
    const char *info, *rc, *sum, *out;
};

/* The whole tool: the menu, the files, the clients, the output - each file
 * the command line gave (given may be NULL) taken from it without a
 * question; one it gives that cannot be used ends the session with its
 * FILE:LINE errors (SB_EXIT_WRITE), as scripts need.  Returns an SB_EXIT_*
 * code. */
int sb_session(FILE *in, FILE *out, FILE *diag, const struct sb_given *given);

/* ---- write.c --------------------------------------------------------------------- */

/* One client's answers. */
struct sb_client {
    const char *host;
    size_t type, net; /* indexes into info->types, info->nets */
    char comments[512];
};

struct sb_run {
    const char *info_name, *rc_name, *sum_name; /* as the user gave them */
    const struct sb_info *info;
    const struct cm_rc *rc;
    const struct sb_sum *sum;
    const struct sb_client *clients;
    size_t nclients;
    const char *test_date; /* from the info, else the sfssum file's date */
};

/* Writes the submission file to path (cm_atomic: whole or not at all).
 * *blocks gets the number of load-generator blocks after merging.  Returns
 * 0 or a negative errno with the reason in err. */
int sb_write(const char *path, const struct sb_run *run, size_t *blocks, char *err,
             size_t errlen);

#endif /* SB_H */
