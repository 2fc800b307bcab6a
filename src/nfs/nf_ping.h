/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_ping.h - the ping loop behind sfs_ping (nfs layer): on a mounted
 * export, keep `outstanding` calls of one procedure (NULL, GETATTR, LOOKUP
 * or READ) in flight on one client until `count` have completed, and
 * measure them - calls, RPC failures, NFS error replies, response-time
 * histogram (common/hist.h: constant memory whatever the count), wall time
 * and client CPU.  It drives the rpc engine through the same typed tables
 * the load generator uses, so a clean ping means the engine, the network
 * path and the server are ready.  No printing except nf_ping_print, which
 * writes to the stream it is given.
 */
#ifndef NF_PING_H
#define NF_PING_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/hist.h"
#include "nfs/nf.h"
#include "nfs/nf4_client.h"

#define NF_PING_MAX_OUTSTANDING 1024

enum nf_ping_op { NF_PING_NULL, NF_PING_GETATTR, NF_PING_LOOKUP, NF_PING_READ };

/* What to ping (all plain values: a program's option table fills them). */
struct nf_ping_cfg {
    int op;               /* enum nf_ping_op */
    char name[256];       /* lookup/read name; "" = '.' / first regular file */
    uint32_t timeout_ms;  /* per call; 0 = the SFS call class's */
    int64_t count;        /* calls to complete */
    unsigned outstanding; /* calls in flight, 1..NF_PING_MAX_OUTSTANDING */
    /* When *stop becomes non-zero (a signal handler sets it), the run
     * starts no more calls, waits for those in flight and returns with
     * interrupted set; NULL: never. */
    const volatile sig_atomic_t *stop;
};

struct nf_ping_slot;

struct nf_ping {
    /* set by nf_ping_prepare (nf4_ping_prepare) */
    struct rp_client *c;
    const struct nf_mount *m;
    int version;
    struct nf4_client *cl4; /* NFSv4: the client the calls go through */
    struct nf4_fh target4;  /* ... the handle the op works on */
    stateid4 sid4;          /* ... READ's: an OPEN's (4.1), anonymous (4.0) */
    int opened4;            /* sid4 is an open to CLOSE at the end */
    struct nf_ping_cfg cfg;
    uint32_t proc;
    struct nf_fh target; /* the handle the op works on */
    union {
        nf_void none;
        nfs_fh fh2;
        GETATTR3args getattr3;
        diropargs lookup2;
        LOOKUP3args lookup3;
        readargs read2;
        READ3args read3;
    } args; /* shared read-only by every call in flight */
    /* results of nf_ping_run */
    int64_t started, completed, rpc_errors, nfs_errors;
    int interrupted;   /* stopped by cfg.stop before count calls */
    struct cm_hist rt; /* response times, us */
    uint64_t rt_sum_us;
    uint64_t elapsed_ns;
    double cpu_s;                 /* process CPU (user + system) during the run */
    char first_error[CM_ERR_LEN]; /* text of the first RPC failure */
    uint32_t first_nfs_status;    /* NFSv2/v3: the first NFS error's status */
};

/* "null", "getattr", "lookup", "read" by enum value; NULL past the end. */
const char *nf_ping_op_name(int op);

/*
 * Resolves what the op works on (LOOKUP of cfg->name; for READ without a
 * name, the first regular file among the export root's first entries) and
 * builds the shared arguments.  c is the client the calls go through (the
 * mount's, or one of its own); m the mount (its root handle).  Returns 0
 * or -errno with one line in err.
 */
int nf_ping_prepare(struct nf_ping *p, const struct nf_ping_cfg *cfg,
                    const struct nf_mount *m, struct rp_client *c, char *err,
                    size_t errlen);

/* Runs the loop until cfg.count calls completed (or the client died: then
 * the calls already started still complete).  Returns 0 or -errno. */
int nf_ping_run(struct nf_ping *p);

/*
 * The same for NFSv4 (v4_ping.c) on the mounted export m4, the calls going
 * through cl (m4's client, or another on the same server): GETATTR is
 * SEQUENCE PUTFH GETATTR, LOOKUP of a name (default: the export root's
 * first entry) SEQUENCE PUTFH LOOKUP GETFH GETATTR, READ of 8 KB from a
 * file OPENed first (4.1; 4.0 reads with the anonymous stateid) SEQUENCE
 * PUTFH READ; NULL is the RPC NULL procedure.
 */
int nf4_ping_prepare(struct nf_ping *p, const struct nf_ping_cfg *cfg,
                     const struct nf4_mount *m4, struct nf4_client *cl, char *err,
                     size_t errlen);
/* Runs the loop as nf_ping_run, then CLOSEs what prepare opened. */
int nf4_ping_run(struct nf_ping *p);

/* For v4_ping.c: one completed call counted (its response time, whether
 * the RPC failed - with the text of the failure - or the server answered
 * an error: nfs_error is its status, or any non-zero value), and the
 * clocks around the loop. */
void nf__ping_count(struct nf_ping *p, uint64_t us, const char *rpc_failure,
                    int nfs_error);
void nf__ping_clock(struct nf_ping *p, int end);
/* Called by the loops at every wake-up: once cfg.stop is set, no more
 * calls start (count becomes what started) and interrupted is set. */
void nf__ping_check_stop(struct nf_ping *p);

/* The result lines sfs_ping prints ("calls      N", "p99_us     N"...;
 * docs/sfs_ping.md), percentiles from the histogram with its resolution. */
void nf_ping_print(FILE *out, const struct nf_ping *p, const char *spec);

/* sfs_ping's command line (ping_cli.c): what its option table fills. */
struct nf_ping_opts {
    int v2, v3, v4, minor, tcp, resv, exports;
    int64_t count;
    int outstanding, op, timeout_ms;
    char name[256];
    char faults[256];
};

struct cm_opt;

/* sfs_ping's option table (common/opt.h rows over struct nf_ping_opts). */
const struct cm_opt *nf_ping_options(size_t *n);

/* sfs_ping's run: mounts spec as the options say, runs the loop until its
 * calls completed or *stop is set (a signal handler's flag), prints the
 * result lines (or the exports, -E) to out; returns the exit code
 * (common/exit.h) with one line in err when something failed. */
int nf_ping_cli(const struct nf_ping_opts *o, const char *spec,
                const volatile sig_atomic_t *stop, FILE *out, char *err, size_t errlen);

#endif /* NF_PING_H */
