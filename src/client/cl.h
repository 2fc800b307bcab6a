/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cl.h - src/client is the load generator sfs/sfs3 (a "client" in SFS's
 * sense: a host that generates load, alone or for a prime; not an NFS
 * client library - that is src/nfs), what src/bin/sfs.c calls.  The
 * option table and parser (load/options.h) turn argv into a struct
 * ld_config; the functions below then do everything an SFS 3.0 client does
 * for one run (docs/SFS30.md §1, §12.2): read the mix and block-size files
 * and the workload's input, size the file set, check the clock, fork PROCS
 * children, drive them through mount, init, warm-up and run, collect and
 * merge their results, print the client report on stdout and write the
 * YAML file.  Nothing here writes anywhere but the two streams main gives.
 *
 * The phases are separate commands (parent.h) so that the prime can drive
 * them one by one across hosts (-M: remote.c); -N is the client's number
 * (CL<N> is its directory).  The workload the options ask for is chosen
 * here, in one place, for the client and the prime alike.
 */
#ifndef CL_H
#define CL_H

#include <stddef.h>
#include <stdio.h>

#include "load/config.h"
#include "load/options.h"
#include "load/workload.h"

/*
 * A client's body, in the order main() calls it: cl_setup reads the mix
 * and block-size files, the workload's plan and the file set's sizing into
 * su (the caller's; every child inherits it through fork) and checks what
 * can be checked before the load; cl_begin checks the clock and prints
 * what the workload shows before the run; then cl_run runs the client
 * alone (the report goes to su->out, progress and DEBUG lines to su->log)
 * or cl_remote_run runs it for the prime -M names; cl_setup_free releases
 * the set-up.  Each returns 0 (CM_EXIT_OK) or the exit code for main(),
 * with one line in err for any failure ("FILE:LINE:" lines of bad input
 * files are printed on log as they are found, err is then empty).  The
 * runs block for the population, the warm-up and the run.
 */
int cl_setup(struct ld_setup *su, const struct ld_config *cfg, const char *prog,
             FILE *out, FILE *log, char *err, size_t errlen);
void cl_setup_free(struct ld_setup *su);
int cl_begin(const struct ld_setup *su, char *err, size_t errlen);
int cl_run(const struct ld_setup *su, char *err, size_t errlen);

/* The client of a prime (-M HOST:PORT -N K; remote.c): reads the run's
 * token from standard input, connects, forks its children and serves the
 * prime's phases until its results are sent. */
int cl_remote_run(const struct ld_setup *su, char *err, size_t errlen);

/* --kill-run FILE: stops the client (and its children) a --pid-file names;
 * says what it did on log.  CM_EXIT_OK or CM_EXIT_FAILED. */
int cl_kill(const struct ld_config *cfg, const char *prog, FILE *log, char *err,
            size_t errlen);

/*
 * -V LEVEL: runs the validation suite (src/validate, vd.h) on the one mount
 * point instead of a load; its report goes to out, the level-3 answers come
 * from in.  Returns CM_EXIT_OK when the server passed, CM_EXIT_FAILED when
 * it did not ("validation terminated with errors"), CM_EXIT_SFS_MOUNTS with
 * err for more than one mount point.
 */
int cl_validate(const struct ld_config *cfg, const char *prog, FILE *out, FILE *in,
                char *err, size_t errlen);

/* The workload the options ask for (workloads.c: the one place that
 * chooses; the prime asks it too). */
/* ---- workloads.c: the registry and the one place that chooses ---------- */

/* Every workload sfs and sfs3 may run (their order does not matter). */
const struct ld_workload_ops *const *cl_workloads(size_t *n);
/* The workload of that name; NULL when none. */
const struct ld_workload_ops *cl_workload_named(const char *name);

/* cl_workload_choose's answer when the input that decides cannot be read
 * on this host (a trace only the clients can read). */
#define CL_UNDECIDED (-1)

/* The workload cfg asks for: --workload's, or under auto the one whose
 * accepts claims the options most (workload.h: enum ld_accept).  Returns
 * 0 with *wl; CL_UNDECIDED (*wl NULL); or an exit code (CM_EXIT_*) with
 * one line in err: an unknown name, two workloads claiming the options
 * alike, an option of another workload given (cl_workload_foreign). */
int cl_workload_choose(const struct ld_config *cfg, const struct ld_workload_ops **wl,
                       char *err, size_t errlen);
/* Whether wl runs over cfg's NFS version (its nfs_versions): 0, or
 * CM_EXIT_SFS_WORKLOAD with one line in err naming those it runs over. */
int cl_workload_over(const struct ld_config *cfg, const struct ld_workload_ops *wl,
                     char *err, size_t errlen);
/* "a, b": the workloads that read group g, into buf. */
void cl_workload_readers(const struct ld_opt_group *g, char *buf, size_t len);
/* 0, or the exit code of an option given that wl does not read, with one
 * line in err naming it and the workloads it belongs to. */
int cl_workload_foreign(const struct ld_config *cfg, const struct ld_workload_ops *wl,
                        char *err, size_t errlen);

#endif /* CL_H */
