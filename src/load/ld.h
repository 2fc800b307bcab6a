/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ld.h - the public interface of the load layer for programs: what
 * src/bin/sfs.c calls.  The option table and parser (options.h) turn argv
 * into a struct ld_config; ld_run then does everything an SFS 3.0 client
 * does for one standalone run (sfs-reference §1, §12.2): read the mix and
 * block-size files, size the file set, check the clock, fork PROCS
 * children, drive them through mount, init, warm-up and run, collect and
 * merge their results, print the client report on stdout and write the
 * YAML file.  Nothing here writes anywhere but the two streams main gives.
 *
 * The phases are separate commands (parent.h) so that the later prime can
 * drive them one by one across hosts; -M and -N are accepted and passed
 * through (CL<N> is the client's directory).
 */
#ifndef LD_H
#define LD_H

#include <stddef.h>
#include <stdio.h>

#include "common/cm.h"
#include "load/config.h"
#include "load/options.h"

/* Exit codes of sfs/sfs3 beyond options.h's (documented in docs/sfs.md). */
#define LD_EXIT_OK     0   /* the run completed (the report says if VALID) */
#define LD_EXIT_FAILED 1   /* mount, population or the run failed */
#define LD_EXIT_INPUT  2   /* a bad mix or block-size file */
#define LD_EXIT_CHILD  83  /* a child died: the others were stopped (SFS 83) */
#define LD_EXIT_INTR   130 /* SIGINT/SIGTERM: every child was stopped */

/*
 * Runs the whole client: prog is the name for messages ("sfs3"); the report
 * goes to out (stdout), progress, DEBUG lines and diagnostics to log
 * (stderr).  Blocks
 * for the warm-up plus the run plus the population.  Returns the exit code
 * for main(); err gets one line for any failure (already including the
 * cause; "FILE:LINE:" lines of bad input files are printed to stderr as
 * they are found).
 */
int ld_run(const struct ld_config *cfg, const char *prog, FILE *out, FILE *log, char *err,
           size_t errlen);

/*
 * -V LEVEL: runs the validation suite (src/validate, vd.h) on the one mount
 * point instead of a load; its report goes to out, the level-3 answers come
 * from in.  Returns LD_EXIT_OK when the server passed, LD_EXIT_FAILED when
 * it did not ("validation terminated with errors"), LD_EXIT_MOUNTS with
 * err for more than one mount point.
 */
int ld_validate(const struct ld_config *cfg, const char *prog, FILE *out, FILE *in,
                char *err, size_t errlen);

#endif /* LD_H */
