/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ping_cli.c - sfs_ping's program over the ping loop (nf_ping.h), so that
 * src/bin/sfs_ping.c only parses, catches SIGINT and SIGTERM and returns
 * the exit code: the option table, then the mount (NFSv2/v3 through MOUNT,
 * NFSv4 with a session of -o slots), the loop on a client of its own when
 * reply faults are injected, the result lines and the exit code - 0 all
 * calls succeeded, 1 some failed or the server could not be used, 2 bad
 * usage, 130 interrupted (common/exit.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/exit.h"
#include "common/opt.h"
#include "nfs/nf_ping.h"

#define F(field)                                                                         \
    offsetof(struct nf_ping_opts, field), sizeof(((struct nf_ping_opts *)0)->field)

static const struct cm_opt_enum ops[] = {
    {"null", NF_PING_NULL},
    {"getattr", NF_PING_GETATTR},
    {"lookup", NF_PING_LOOKUP},
    {"read", NF_PING_READ},
    {NULL, 0},
};

static const struct cm_opt rows[] = {
    {'2', "v2", NULL, CM_OPT_FLAG, F(v2), NULL, 0, 1, NULL, NULL, "NFS version 2.", NULL,
     NULL, 0, CM_EXIT_USAGE},
    {'3', "v3", NULL, CM_OPT_FLAG, F(v3), NULL, 0, 1, NULL, NULL,
     "NFS version 3 (the default).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'4', "v4", NULL, CM_OPT_FLAG, F(v4), NULL, 0, 1, NULL, NULL,
     "NFS version 4 over TCP: 4.1 with a session, or 4.0 with --minor 0.", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {0, "minor", NULL, CM_OPT_INT, F(minor), "1", 0, 1, NULL, "N",
     "NFSv4 minor version: 1 (sessions) or 0.", NULL, NULL, 0, CM_EXIT_USAGE},
    {'Q', "tcp", NULL, CM_OPT_FLAG, F(tcp), NULL, 0, 1, NULL, NULL,
     "NFS over TCP (MOUNT stays on UDP; NFSv4 always).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'c', "count", NULL, CM_OPT_I64, F(count), "1000", 1, 100000000, "calls", "COUNT",
     "Calls to complete.", NULL, NULL, 0, CM_EXIT_USAGE},
    {'o', "outstanding", NULL, CM_OPT_INT, F(outstanding), "1", 1,
     NF_PING_MAX_OUTSTANDING, "calls", "N", "Calls kept in flight.", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {'p', "proc", NULL, CM_OPT_ENUM, F(op), "getattr", 0, 0, NULL, "OP",
     "Procedure: null, getattr, lookup or read.", ops, NULL, 0, CM_EXIT_USAGE},
    {'n', "name", NULL, CM_OPT_STRING, F(name), "", 0, 0, NULL, "NAME",
     "Name for lookup ('.') and read (the export's first regular file).", NULL, NULL, 0,
     2},
    {'t', "timeout", NULL, CM_OPT_INT, F(timeout_ms), "0", 0, 3600000, "ms", "MS",
     "Per-call timeout (0 = the SFS call class's).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'r', "resv-port", NULL, CM_OPT_FLAG, F(resv), NULL, 0, 1, NULL, NULL,
     "Bind a reserved source port (root or CAP_NET_BIND_SERVICE).", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {'E', "exports", NULL, CM_OPT_FLAG, F(exports), NULL, 0, 1, NULL, NULL,
     "List the server's exports (MOUNT EXPORT) and exit.", NULL, NULL, 0, CM_EXIT_USAGE},
    {'F', "faults", NULL, CM_OPT_STRING, F(faults), "", 0, 0, NULL, "SPEC",
     "Inject reply faults (tests): drop=P,dup=P,trunc=P,reorder=P,seed=N.", NULL, NULL, 0,
     2},
};

static void print_export(const char *dir, void *data)
{
    fprintf(data, "export     %s\n", dir);
}

/* The run and its report (or the failure): one line in err when some
 * calls failed.  Returns run's status. */
static int run_and_report(struct nf_ping *p, int (*run)(struct nf_ping *),
                          const char *spec, FILE *out, char *err, size_t errlen)
{
    int rc = run(p);

    if (rc < 0)
        return cm_errf(err, errlen, "%s: %s", spec, rp_status_text(rc)), rc;
    nf_ping_print(out, p, spec);
    if (p->interrupted)
        cm_errf(err, errlen, "interrupted after %lld calls", (long long)p->completed);
    else if (p->rpc_errors)
        cm_errf(err, errlen, "%lld of %lld calls failed; first: %s",
                (long long)p->rpc_errors, (long long)p->completed, p->first_error);
    else if (p->completed > 0 && p->nfs_errors == p->completed && p->version == 4)
        cm_errf(err, errlen, "%s: all %lld calls failed with an NFS error", spec,
                (long long)p->completed);
    else if (p->completed > 0 && p->nfs_errors == p->completed)
        /* the usual cause: the root handle came from another server's MOUNT
         * (rpcbind's, when no mount port was given), so the NFS server
         * refuses it */
        cm_errf(err, errlen,
                "%s: all %lld calls failed with NFS error %s; the handle came from the "
                "MOUNT server at port %u: give this NFS server's mount port "
                "(host:port:/path or ?mountport=N)",
                spec, (long long)p->completed, nf_status_name(p->first_nfs_status),
                (unsigned)p->m->mount_port);
    return 0;
}

/* Some RPC failed, or every call was answered with an NFS error: the
 * server could not be used. */
static int ping_failed(const struct nf_ping *p)
{
    return p->rpc_errors || (p->completed > 0 && p->nfs_errors == p->completed);
}

/* The NFSv4 ping: mounts (a session of -o slots), runs, prints. */
static int ping4(const struct nf_ping_opts *o, const struct nf_ping_cfg *cfg,
                 struct nf_mount_opts *mo, const char *spec, FILE *out, char *err,
                 size_t errlen)
{
    static struct nf_ping p;
    static struct nf4_mount m;
    struct nf4_client_opts co;
    struct nf4_client *cl = NULL;
    struct rp_client *c = NULL;
    struct rp_fault fault;
    char why[CM_ERR_LEN];
    int rc;

    nf4_client_opts_init(&co);
    co.minor = (uint32_t)o->minor;
    co.slots = (unsigned)o->outstanding;
    mo->transport = RP_TCP;
    if (o->faults[0] && rp_fault_parse("-F", o->faults, &fault, err, errlen) < 0)
        return CM_EXIT_USAGE;
    if (nf4_mount(&m, spec, mo, &co, err, errlen) < 0)
        return CM_EXIT_FAILED;
    cl = m.cl;
    /* faults go to a client (and session) of its own, so that the mount
     * itself ran clean */
    m.m.opts.rpc.fault = o->faults[0] ? &fault : NULL;
    m.m.opts.rpc.max_in_flight = co.slots + 8;
    rc = o->faults[0] ? nf_mount_open_client(&m.m, RP_TCP, &c, err, errlen) : 0;
    if (rc == 0 && c && (rc = nf4_client_open(&cl, c, &co, why, sizeof(why))) < 0)
        cm_errf(err, errlen, "%s: %s", spec, why);
    if (rc == 0 && nf4_ping_prepare(&p, cfg, &m, cl, why, sizeof(why)) < 0)
        rc = cm_errf(err, errlen, "%s: %s", spec, why);
    if (rc == 0)
        rc = run_and_report(&p, nf4_ping_run, spec, out, err, errlen);
    if (cl && cl != m.cl)
        nf4_client_close(cl);
    nf4_umount(&m);
    return p.interrupted               ? CM_EXIT_INTR
           : rc < 0 || ping_failed(&p) ? CM_EXIT_FAILED
                                       : CM_EXIT_OK;
}

const struct cm_opt *nf_ping_options(size_t *n)
{
    *n = CM_ARRAY_LEN(rows);
    return rows;
}

int nf_ping_cli(const struct nf_ping_opts *o, const char *spec,
                const volatile sig_atomic_t *stop, FILE *out, char *err, size_t errlen)
{
    static struct nf_ping p;
    struct nf_ping_cfg cfg;
    struct nf_mount m;
    struct nf_mount_opts mo;
    struct rp_fault fault;
    struct rp_client *c;
    char why[CM_ERR_LEN];
    int rc;

    nf_mount_opts_init(&mo, o->v4 ? 4 : o->v2 && !o->v3 ? 2 : 3);
    mo.transport = o->tcp ? RP_TCP : RP_UDP;
    mo.rpc.resv_port = o->resv ? RP_RESV_MUST : RP_RESV_NO;
    mo.rpc.max_in_flight = (unsigned)o->outstanding;
    if (o->timeout_ms)
        mo.timeout_ms = (uint32_t)o->timeout_ms;
    memset(&cfg, 0, sizeof(cfg));
    cfg.op = o->op;
    snprintf(cfg.name, sizeof(cfg.name), "%s", o->name);
    cfg.timeout_ms = (uint32_t)o->timeout_ms;
    cfg.count = o->count;
    cfg.outstanding = (unsigned)o->outstanding;
    cfg.stop = stop;
    if (o->v4 && o->exports)
        return cm_errf(err, errlen, "-E: NFSv4 has no MOUNT program to list exports"),
               CM_EXIT_USAGE;
    if (o->v4)
        return ping4(o, &cfg, &mo, spec, out, err, errlen);
    if (o->faults[0] && rp_fault_parse("-F", o->faults, &fault, err, errlen) < 0)
        return CM_EXIT_USAGE;
    if (o->exports)
        return nf_exports(spec, &mo, print_export, out, err, errlen) < 0 ? CM_EXIT_FAILED
                                                                         : CM_EXIT_OK;
    if (nf_mount(&m, spec, &mo, err, errlen) < 0)
        return CM_EXIT_FAILED;
    c = m.nfs;
    /* faults go to a client of its own, so that the mount itself ran clean */
    m.opts.rpc.fault = o->faults[0] ? &fault : NULL;
    rc = o->faults[0] ? nf_mount_open_client(&m, mo.transport, &c, err, errlen) : 0;
    if (rc == 0 && nf_ping_prepare(&p, &cfg, &m, c, why, sizeof(why)) < 0)
        rc = cm_errf(err, errlen, "%s: %s", spec, why);
    if (rc == 0)
        rc = run_and_report(&p, nf_ping_run, spec, out, err, errlen);
    if (c != m.nfs)
        rp_client_close(c);
    nf_umount(&m);
    return p.interrupted               ? CM_EXIT_INTR
           : rc < 0 || ping_failed(&p) ? CM_EXIT_FAILED
                                       : CM_EXIT_OK;
}
