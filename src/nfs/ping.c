/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ping.c - the sfs_ping loop (nf_ping.h): find the object, keep the calls
 * in flight through the async engine, count and time them.  Response times
 * go into a fixed histogram, so a run of 10^8 calls needs no more memory
 * than one of 10 (it kept 4 bytes per call and sorted them before).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "nfs/nf_ping.h"
#include "common/alloc.h"

#define READ_BYTES 8192u /* one SFS block */
#define SCAN_NAMES 16    /* root entries looked at for a regular file */

static const char *const op_names[] = {"null", "getattr", "lookup", "read"};

const char *nf_ping_op_name(int op)
{
    return op >= 0 && op < (int)CM_ARRAY_LEN(op_names) ? op_names[op] : NULL;
}

/* ---- finding what to operate on ----------------------------------------- */

static int lookup_name(struct nf_ping *p, const struct nf_fh *dir, const char *name,
                       struct nf_fh *out, int *is_reg, char *err, size_t errlen)
{
    uint32_t type = 0;
    int rc = nf_lookup(p->c, dir, name, out, &type, err, errlen);

    *is_reg = type == NF3REG; /* NFREG in v2: the same number */
    return rc;
}

/* The names of the first entries of the export root (first READDIR batch,
 * "." and ".." left out); returns how many, or -errno. */
static int root_names(struct nf_ping *p, char names[][256], int max, char *err,
                      size_t errlen)
{
    int n = 0, rc;

    if (p->version == 2) {
        readdirargs a;
        readdirres r;
        const entry *e;

        memset(&a, 0, sizeof(a));
        memset(&r, 0, sizeof(r));
        nf_fh_to_v2(&p->m->root, &a.dir);
        a.count = READ_BYTES;
        rc = nf2_readdir(p->c, &a, &r);
        if (rc == 0 && r.status == NFS_OK)
            for (e = r.readdirres_u.reply.entries; e && n < max; e = e->nextentry)
                if (strcmp(e->name, ".") && strcmp(e->name, ".."))
                    snprintf(names[n++], 256, "%.255s", e->name);
        if (rc == 0)
            rc = r.status == NFS_OK ? 0 : -EIO;
        xdr_free((xdrproc_t)xdr_readdirres, &r);
    } else {
        READDIR3args a;
        READDIR3res r;
        const entry3 *e;

        memset(&a, 0, sizeof(a));
        memset(&r, 0, sizeof(r));
        nf_fh_to_v3(&p->m->root, &a.dir);
        a.count = READ_BYTES;
        rc = nf3_readdir(p->c, &a, &r);
        if (rc == 0 && r.status == NFS3_OK)
            for (e = r.READDIR3res_u.resok.reply.entries; e && n < max; e = e->nextentry)
                if (strcmp(e->name, ".") && strcmp(e->name, ".."))
                    snprintf(names[n++], 256, "%.255s", e->name);
        if (rc == 0)
            rc = r.status == NFS3_OK ? 0 : -EIO;
        xdr_free((xdrproc_t)xdr_READDIR3res, &r);
    }
    if (rc < 0)
        return cm_errf(err, errlen, "READDIR of the export root failed"), rc;
    return n;
}

/* Picks the first name of the export root that is a regular file. */
static int find_regular_file(struct nf_ping *p, char *err, size_t errlen)
{
    char names[SCAN_NAMES][256];
    int n = root_names(p, names, SCAN_NAMES, err, errlen), i, is_reg;

    for (i = 0; i < n; i++) {
        if (lookup_name(p, &p->m->root, names[i], &p->target, &is_reg, err, errlen) ==
                0 &&
            is_reg) {
            snprintf(p->cfg.name, sizeof(p->cfg.name), "%s", names[i]);
            return 0;
        }
    }
    if (n < 0)
        return n;
    return cm_errf(err, errlen,
                   "no regular file in the first entries of the export root to read "
                   "(name one with -n)");
}

int nf_ping_prepare(struct nf_ping *p, const struct nf_ping_cfg *cfg,
                    const struct nf_mount *m, struct rp_client *c, char *err,
                    size_t errlen)
{
    int is_reg = 0, rc = 0, v2;

    memset(p, 0, sizeof(*p));
    p->cfg = *cfg;
    p->m = m;
    p->c = c;
    p->version = m->nfs_version;
    p->target = m->root;
    v2 = p->version == 2;
    if (p->cfg.op == NF_PING_READ && p->cfg.name[0])
        rc = lookup_name(p, &m->root, p->cfg.name, &p->target, &is_reg, err, errlen);
    else if (p->cfg.op == NF_PING_READ)
        rc = find_regular_file(p, err, errlen);
    else if (p->cfg.op == NF_PING_LOOKUP && !p->cfg.name[0])
        snprintf(p->cfg.name, sizeof(p->cfg.name), ".");
    if (rc < 0)
        return rc;
    switch (p->cfg.op) {
    case NF_PING_NULL:
        p->proc = 0;
        break;
    case NF_PING_GETATTR:
        p->proc = v2 ? NFSPROC_GETATTR : NFSPROC3_GETATTR;
        if (v2)
            nf_fh_to_v2(&p->target, &p->args.fh2);
        else
            nf_fh_to_v3(&p->target, &p->args.getattr3.object);
        break;
    case NF_PING_LOOKUP:
        p->proc = v2 ? NFSPROC_LOOKUP : NFSPROC3_LOOKUP;
        if (v2) {
            nf_fh_to_v2(&p->target, &p->args.lookup2.dir);
            p->args.lookup2.name = p->cfg.name;
        } else {
            nf_fh_to_v3(&p->target, &p->args.lookup3.what.dir);
            p->args.lookup3.what.name = p->cfg.name;
        }
        break;
    case NF_PING_READ:
        p->proc = v2 ? NFSPROC_READ : NFSPROC3_READ;
        if (v2) {
            nf_fh_to_v2(&p->target, &p->args.read2.file);
            p->args.read2.count = READ_BYTES;
        } else {
            nf_fh_to_v3(&p->target, &p->args.read3.file);
            p->args.read3.count = READ_BYTES;
        }
        break;
    default:
        return cm_errf(err, errlen, "unknown ping op %d", p->cfg.op);
    }
    return 0;
}

/* ---- the loop ------------------------------------------------------------ */

struct nf_ping_slot {
    struct rp_call call;
    union {
        nf_void none;
        attrstat attr2;
        GETATTR3res getattr3;
        diropres lookup2;
        LOOKUP3res lookup3;
        readres read2;
        READ3res read3;
    } res;
    struct nf_ping *p;
};

static void slot_done(struct rp_call *call, void *data);

static int slot_start(struct nf_ping_slot *s)
{
    struct nf_ping *p = s->p;
    int rc;

    memset(&s->res, 0, sizeof(s->res));
    rc = nf_call_init(&s->call, p->c, p->proc, &p->args, &s->res, slot_done, s);
    if (rc < 0)
        return rc;
    if (p->cfg.timeout_ms)
        s->call.timeout_ms = p->cfg.timeout_ms;
    rc = rp_call_start(p->c, &s->call);
    if (rc == 0)
        p->started++;
    return rc;
}

void nf__ping_count(struct nf_ping *p, uint64_t us, const char *rpc_failure,
                    int nfs_error)
{
    cm_hist_add(&p->rt, us);
    p->rt_sum_us += us;
    p->completed++;
    if (rpc_failure) {
        if (p->rpc_errors++ == 0)
            snprintf(p->first_error, sizeof(p->first_error), "%s", rpc_failure);
    } else if (nfs_error) {
        if (p->nfs_errors++ == 0)
            p->first_nfs_status = (uint32_t)nfs_error;
    }
}

static void slot_done(struct rp_call *call, void *data)
{
    struct nf_ping_slot *s = data;
    struct nf_ping *p = s->p;

    if (call->status < 0) {
        nf__ping_count(p, rp_call_usec(call),
                       rp_client_last_error(p->c)[0] ? rp_client_last_error(p->c)
                                                     : rp_status_text(call->status),
                       0);
    } else {
        nf__ping_count(p, rp_call_usec(call), NULL, (int)nf_call_nfs_status(call));
        nf_call_free(call);
    }
    if (p->started < p->cfg.count && slot_start(s) < 0)
        p->cfg.count = p->started; /* the client is dead: stop issuing */
}

static double cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void nf__ping_clock(struct nf_ping *p, int end)
{
    if (!end) {
        p->cpu_s = cpu_seconds();
        p->elapsed_ns = cm_now_ns();
        return;
    }
    p->elapsed_ns = cm_now_ns() - p->elapsed_ns;
    p->cpu_s = cpu_seconds() - p->cpu_s;
}

void nf__ping_check_stop(struct nf_ping *p)
{
    if (p->cfg.stop && *p->cfg.stop && p->started < p->cfg.count) {
        p->cfg.count = p->started;
        p->interrupted = 1;
    }
}

int nf_ping_run(struct nf_ping *p)
{
    struct nf_ping_slot *slots = cm_calloc(p->cfg.outstanding, sizeof(*slots));
    unsigned i;
    int rc = 0;

    if (slots == NULL)
        return -ENOMEM;
    nf__ping_clock(p, 0);
    for (i = 0; i < p->cfg.outstanding && p->started < p->cfg.count; i++) {
        slots[i].p = p;
        rc = slot_start(&slots[i]);
        if (rc < 0)
            break;
    }
    while (rc == 0 && p->completed < p->started) {
        rc = rp_poll(&p->c, 1, -1);
        if (rc == -EINTR)
            rc = 0;
        rc = rc > 0 ? 0 : rc;
        nf__ping_check_stop(p);
    }
    nf__ping_clock(p, 1);
    free(slots);
    return rc;
}

/* What the NFSv4 client counted: its session, and the errors it answered
 * itself (docs/sfs_ping.md). */
static void print_v4(FILE *out, const struct nf4_client *cl)
{
    struct nf4_client_stats v;

    nf4_client_stats(cl, &v);
    if (nf4_client_minor(cl) >= 1)
        fprintf(out, "slots      %u (%u asked)\n", v.slots_granted, v.slots_asked);
    fprintf(out, "lease_s    %u\n", v.lease_s);
    fprintf(out, "delays     %llu\n", (unsigned long long)v.delays);
    fprintf(out, "graces     %llu\n", (unsigned long long)v.graces);
    fprintf(out, "new_sessions %llu\n", (unsigned long long)v.new_sessions);
    fprintf(out, "new_clients %llu\n", (unsigned long long)v.new_clients);
    fprintf(out, "slot_repairs %llu\n", (unsigned long long)v.slot_repairs);
    fprintf(out, "slot_waits %llu\n", (unsigned long long)v.slot_waits);
    fprintf(out, "renewals   %llu\n", (unsigned long long)v.renewals);
    fprintf(out, "delegations %llu (%llu returned)\n", (unsigned long long)v.delegations,
            (unsigned long long)v.delegreturns);
}

/* A percentile in whole microseconds (the histogram works in ms). */
static unsigned long long pct_us(const struct cm_hist *h, double q)
{
    return (unsigned long long)(cm_hist_quantile_ms(h, q) * 1000.0 + 0.5);
}

void nf_ping_print(FILE *out, const struct nf_ping *p, const char *spec)
{
    struct rp_client_stats st;
    double secs = (double)p->elapsed_ns / 1e9;
    int64_t n = p->completed;

    rp_client_stats(p->c, &st);
    if (p->cl4)
        fprintf(out, "mount      %s (NFSv4.%u over TCP, nfs port %u)\n", spec,
                nf4_client_minor(p->cl4), p->m->nfs_port);
    else
        fprintf(out, "mount      %s (NFSv%d over %s, nfs port %u, mount port %u)\n", spec,
                p->version, rp_client_transport(p->c) == RP_TCP ? "TCP" : "UDP",
                p->m->nfs_port, p->m->mount_port);
    fprintf(out, "source_port %d\n", rp_client_local_port(p->c));
    fprintf(out, "op         %s%s%s\n", nf_ping_op_name(p->cfg.op),
            p->cfg.name[0] ? " " : "", p->cfg.name);
    fprintf(out, "calls      %lld\n", (long long)n);
    fprintf(out, "errors     %lld\n", (long long)p->rpc_errors);
    fprintf(out, "nfs_errors %lld\n", (long long)p->nfs_errors);
    fprintf(out, "retransmits %llu\n", (unsigned long long)st.retransmits);
    fprintf(out, "ops/s      %.1f\n", secs > 0 ? (double)n / secs : 0.0);
    fprintf(out, "mean_us    %.1f\n", n ? (double)p->rt_sum_us / (double)n : 0.0);
    fprintf(out, "p50_us     %llu\n", pct_us(&p->rt, 0.50));
    fprintf(out, "p99_us     %llu\n", pct_us(&p->rt, 0.99));
    fprintf(out, "max_us     %llu\n", (unsigned long long)p->rt.max_us);
    fprintf(out, "pct_resolution %.2f%%\n", cm_hist_resolution_pct());
    fprintf(out, "cpu_us/call %.2f\n", n ? p->cpu_s * 1e6 / (double)n : 0.0);
    if (p->cl4)
        print_v4(out, p->cl4);
}
