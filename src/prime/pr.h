/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pr.h - the prime layer: what sfs_mgr and sfs_prime call (
 * docs/SFS30.md §1, §12-§17; docs/DECISIONS.md D8-D10).
 *
 *   pr_run_load    the rc file (D9, common/rc.h) resolved into a run: load
 *                  points, clients with their mount points, the options
 *                  every client gets (any row of the load option table with
 *                  an rc name passes through generically), remote shell,
 *                  directories; every value checked before it can reach a
 *                  command line;
 *   pr_run_check   prints the resolved run (sfs_mgr --check);
 *   pr_mgr_run     runs every load point: for each, clients started over
 *                  RSH (or directly on this host), driven through the
 *                  phases over the control plane by one poll() loop,
 *                  aggregated, and the SFS result files written (D10);
 *   pr_clean       removes the CL<n> trees through libnfs (sfs_mgr -c);
 *   pr_kill        stops what an earlier crash left behind (sfs_mgr -k).
 *
 * Library code: nothing here exits; messages go to the streams given.
 */
#ifndef PR_H
#define PR_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/exit.h"
#include "load/config.h"
#include "load/workload.h"

#define PR_MAX_CLIENTS 4096
#define PR_MAX_POINTS  1000
#define PR_AUTO_POINTS 10 /* LOAD=auto: the points after the search (NUM_RUNS) */
#define PR_AUTO_FIRST  50 /* LOAD=auto: the first probe's ops/s per process */

struct pr_client {
    unsigned num;     /* 1-based place in CLIENTS (-N, CL<num>) */
    const char *host; /* as CLIENTS lists it */
    int local;        /* localhost or this machine: no remote shell */
    char **mounts;    /* its PROCS mount points (or 1, shared by all children) */
    int nmounts;
};

struct pr_run {
    char rc_path[LD_PATH_MAX];
    char rc_dir[LD_PATH_MAX];
    const char *suffix; /* result-file suffix */
    int nfs_version;
    const char *prog; /* "sfs" or "sfs3" */
    unsigned npoints;
    unsigned *points; /* aggregate loads, increasing */
    /* LOAD=auto: the points to run once the search found the peak
     * (search.c); points then holds the first probe's load.  0: LOAD's */
    unsigned auto_points;
    /* the workload the options ask for (cl_workload_choose); NULL while
     * the clients must say it (ask_clients: the prime cannot read the
     * input that decides, ask_why says why; pr_workload_ask) */
    const struct ld_workload_ops *wl;
    int ask_clients;
    char ask_why[CM_ERR_LEN];
    const char *forced_workload; /* pr_run_load_as's workload, or NULL */
    /* per point, the values of the workload's point variables (a replay's
     * TRACE_SPEED: wl->rc_points); NULL when the points are LOAD's */
    struct ld_point *values;
    unsigned nclients;
    struct pr_client *clients;
    int procs;
    const char *sfs_dir, *work_dir, *sfs_user, *prime_host;
    char **rsh; /* the remote shell's words */
    int nrsh;
    const char *mon_script;
    char **mon_args;
    int nmon_args;
    int prime_sleep, prime_timeout, prime_port;
    int any_remote;
    int populate_only;
    /* what every client gets besides -l, -M, -N and its mount points:
     * "--long-name=value" words from the rc names of the option table */
    char **opts;
    int nopts;
    struct ld_config cfg; /* those options applied (load = first point's share) */
    char tag[17];         /* hash of WORK_DIR: names the clients' pid files */
    /* everything above points into allocations kept here */
    void **allocs;
    size_t nallocs, capallocs;
    int nomem; /* one of them failed: pr_run_load reports it and fails */
};

/* An rc variable the prime reads itself: its kind for front ends ("int",
 * "loads", "hosts", "mounts", "path", "word", "text") and, for "int" and
 * "loads", its range; kind NULL: the load option table's row describes it. */
struct pr_rc_var {
    const char *name, *kind;
    double min, max;
    unsigned page; /* runsfs's settings page (1-3; 0: none) */
};
const struct pr_rc_var *pr_rc_vars(size_t *n);

/* `sfs_rc describe`: one line per rc variable, "NAME KIND [MIN MAX]"
 * (KIND "enum" is followed by its values), for names (every known one when
 * n is 0).  Returns 0, or -ENOENT when a name is unknown (named on err). */
int pr_rc_describe(FILE *out, FILE *err, char **names, int n);
/* `sfs_rc pages`: runsfs's settings pages, one line each, its variables'
 * names in order. */
void pr_rc_pages(FILE *out);

/* Options of sfs_mgr / sfs_prime beyond the rc file. */
struct pr_opts {
    const char *name;   /* "sfs_mgr" or "sfs_prime", for messages */
    const char *suffix; /* -s, NULL = SUFFIX, else the rc file's name */
    int validate;       /* -v LEVEL, 0 = none */
    int launch;         /* 1: start the clients (sfs_mgr); 0: wait for them (sfs_prime) */
    const char *token_file; /* sfs_prime: where the run's token is written */
    FILE *out;              /* the user's terminal: dates and "Executing run ..." */
    unsigned progress_s;    /* --progress: a line this often in the load phases
                               (0 none) */
    FILE *diag;             /* errors and warnings (stderr) */
};

/* Reads and resolves the rc file.  Every problem is reported to diag as
 * "FILE:LINE: ..." (all of them); returns 0, or -EINVAL when there was any
 * error.  The run must be freed with pr_run_free either way. */
int pr_run_load(struct pr_run *run, const char *rc_path, const char *suffix, FILE *diag);
/* The same with the workload given (the clients' answer, pr_workload_ask),
 * as if WORKLOAD named it. */
int pr_run_load_as(struct pr_run *run, const char *rc_path, const char *suffix,
                   FILE *diag, const char *workload);
void pr_run_free(struct pr_run *run);

/* The resolved run, for sfs_mgr --check: yaml = 0 gives "key: value"
 * text lines, 1 the same as a YAML document. */
void pr_run_check(const struct pr_run *run, FILE *out, int yaml);

/* The command line of client c for point `point` (aggregate load `load`;
 * the workload's words for the point), with the prime at prime:port.  argv gets at most
 * max words (NULL-terminated, pointing into buf); returns the count or -E2BIG. */
int pr_client_argv(const struct pr_run *run, const struct pr_client *c, unsigned point,
                   unsigned load, const char *prime, unsigned port, char **argv, int max,
                   char *buf, size_t buflen);

/* The pid file client num records itself in (sfs_mgr -k reads it). */
void pr_client_pidfile(const struct pr_run *run, unsigned num, char *buf, size_t len);

/* Runs every load point.  Returns a PR_EXIT_* code. */
int pr_mgr_run(const struct pr_run *run, const struct pr_opts *o);

/* sfs_mgr -c: removes CL<n> from every mount point (libnfs).  Returns
 * CM_EXIT_OK or CM_EXIT_FAILED; says what it did on out. */
int pr_clean(const struct pr_run *run, FILE *out, FILE *diag);

/* Whether the mount points hold CL<n> trees of an earlier run: 1 fresh, 0
 * not fresh, -1 unknown (libnfs could not look); buf says which and where
 * (the report's "Test directories:" line, sfs_mgr --trees). */
int pr_trees_state(const struct pr_run *run, char *buf, size_t len);

/* sfs_mgr -k: stops every client recorded for this rc file on every host
 * (over RSH, by pid file) and a stuck sfs_mgr of the same WORK_DIR. */
int pr_kill(const struct pr_run *run, FILE *out, FILE *diag);

#endif /* PR_H */
