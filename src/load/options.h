/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.h - the sfs/sfs3 option table (docs/SFS30.md §13.1, docs/STYLE.md 2.7)
 * and the parser that turns argv into a struct ld_config.  The rows live in
 * options.c; the engine that reads them is common's cm_opt.  Nothing here
 * prints except ld_options_help, onto the stream given.
 */
#ifndef LD_OPTIONS_H
#define LD_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "common/exit.h"
#include "common/opt.h"
#include "load/config.h"

/* ld_options_parse returns this (> 0) when --help was asked for. */
#define LD_OPTIONS_HELP 1

/* The table (rows in a fixed order; cfg->src[] is indexed the same way). */
const struct cm_opt *ld_options_table(size_t *n);

/* Defaults for every field (SFS 3.0 values) and nfs_version. */
void ld_config_defaults(struct ld_config *cfg, int nfs_version);

/* The transport cfg's protocol allows: over one that runs over TCP only
 * (NFSv4), TCP is implied; UDP asked for explicitly (TCP off in the rc) is
 * refused: -EINVAL with one line in err.  ld_options_parse calls it; the
 * prime, for its own copy of the options. */
int ld_config_transport(struct ld_config *cfg, char *err, size_t errlen);

struct ld_workload_ops;

/*
 * Parses argv (argv[0] is the program name) into cfg, which it first resets
 * with ld_config_defaults(cfg, nfs_version) and ld_config_add_workloads(wl,
 * nwl): the workloads the program may run, whose options it takes too.
 * Checks every range, --workload's name, parses -d into debug_mask, checks
 * -T against the op numbers of the version, rejects -c ("-c: no longer
 * supported") and checks the mount-point count (1, PROCS or a multiple of
 * PROCS; none at all is allowed only for --help).  Returns 0,
 * LD_OPTIONS_HELP, or -EINVAL/-ERANGE with ONE line in err naming the
 * option and its range, and *exit_code set to the SFS-style exit code (may
 * be NULL).  cfg->mounts points into argv.
 */
int ld_options_parse(struct ld_config *cfg, int nfs_version,
                     const struct ld_workload_ops *const *wl, size_t nwl, int argc,
                     char **argv, int *exit_code, char *err, size_t errlen);
/* Writes "usage: prog [options] mount..." and the tables' help to out: the
 * generic options, then each workload's own under a heading that names
 * the workloads reading them. */
void ld_options_help(FILE *out, const char *prog, const struct ld_workload_ops *const *wl,
                     size_t nwl);
/* The mount point child k uses (docs/SFS30.md §5.3): with one mount point
 * every child uses it, with PROCS x k the (client-1) x PROCS + k-th when
 * there are as many groups as clients, else the (k mod nmounts)-th. */
const char *ld_config_mount_for_child(const struct ld_config *cfg, int child);

/* Nonzero when the option row named by long name (a workload's too) was
 * given explicitly. */
int ld_config_was_set(const struct ld_config *cfg, const char *long_name);

/* ---- the workloads' own options (wlopts.c) ------------------------------------ */

/* Registers every option group of the n workloads in cfg (each group once,
 * in order) with its defaults.  0, or -E2BIG with err when they do not fit
 * struct ld_config's room (a table bug). */
int ld_config_add_workloads(struct ld_config *cfg,
                            const struct ld_workload_ops *const *wl, size_t n, char *err,
                            size_t errlen);
/* A group's struct in cfg; NULL when it is not registered. */
const void *ld_config_opts(const struct ld_config *cfg, const struct ld_opt_group *g);
void *ld_config_opts_set(struct ld_config *cfg, const struct ld_opt_group *g);
/* The parse of cfg's options: the generic table, then each registered
 * group's rows over its struct (at most max; returns how many). */
size_t ld_config_sets(struct ld_config *cfg, struct cm_opt_set *sets, size_t max);
/* The registered groups' part of it. */
size_t ld_config_group_sets(struct ld_config *cfg, struct cm_opt_set *sets, size_t max);
/* A registered group's row of a long name, its source and the offset of
 * its group's struct in cfg->wl_opts; NULL when none. */
const struct cm_opt *ld_config_group_row(const struct ld_config *cfg,
                                         const char *long_name, const unsigned char **src,
                                         size_t *offset);
/* Whether wl reads group g. */
int ld_workload_reads(const struct ld_workload_ops *wl, const struct ld_opt_group *g);
/* The first row of a group wl does not read that was given (command line
 * or rc), with its group; NULL when none. */
const struct cm_opt *ld_config_foreign(const struct ld_config *cfg,
                                       const struct ld_workload_ops *wl,
                                       const struct ld_opt_group **group);
/* Sets one "--name=value" (or "--name" for a flag) word into cfg, as the
 * clients' parse would: 0, or -errno with one line in err. */
int ld_config_set_word(struct ld_config *cfg, const char *word, char *err, size_t errlen);
/* The row of a long option name, generic or a registered group's, and
 * where its source is kept; NULL when none. */
const struct cm_opt *ld_config_row(const struct ld_config *cfg, const char *long_name,
                                   const unsigned char **src);

#endif /* LD_OPTIONS_H */
