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

/*
 * Parses argv (argv[0] is the program name) into cfg, which it first resets
 * with ld_config_defaults(cfg, nfs_version).  Checks every range, parses -d
 * into debug_mask, checks -T against the op numbers of the version, rejects
 * -c ("-c: no longer supported") and checks the mount-point count (1, PROCS
 * or a multiple of PROCS; none at all is allowed only for --help).
 * Returns 0, LD_OPTIONS_HELP, or -EINVAL/-ERANGE with ONE line in err naming
 * the option and its range, and *exit_code set to the SFS-style exit code
 * (may be NULL).  cfg->mounts points into argv.
 */
int ld_options_parse(struct ld_config *cfg, int nfs_version, int argc, char **argv,
                     int *exit_code, char *err, size_t errlen);

/* Writes "usage: prog [options] mount..." and the table's help to out. */
void ld_options_help(FILE *out, const char *prog);

/* The mount point child k uses (docs/SFS30.md §5.3): with one mount point
 * every child uses it, with PROCS x k the (client-1) x PROCS + k-th when
 * there are as many groups as clients, else the (k mod nmounts)-th. */
const char *ld_config_mount_for_child(const struct ld_config *cfg, int child);

/* Nonzero when the option row named by long name was given explicitly. */
int ld_config_was_set(const struct ld_config *cfg, const char *long_name);

#endif /* LD_OPTIONS_H */
