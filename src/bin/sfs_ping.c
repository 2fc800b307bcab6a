/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_ping.c - the quick test-bed check the SFS FAQ asks for: mount a
 * server, keep OUTSTANDING calls in flight until COUNT have completed, and
 * print calls, errors, ops/s, response times and client CPU per call.  It
 * drives the rpc engine through the nfs layer exactly as the load generator
 * does, so a clean sfs_ping means the engine, the network path and the
 * server are ready.  Exit codes: 0 all calls succeeded, 1 some failed or
 * the server could not be used, 2 bad usage.
 */
#include "nfs/nf.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define PING_MAX_OUTSTANDING 1024
#define PING_MAX_COUNT       100000000LL

enum ping_op { PING_NULL, PING_GETATTR, PING_LOOKUP, PING_READ };
static const char *const ping_op_names[] = {"null", "getattr", "lookup", "read"};

/* Arguments of the op, shared read-only by every call in flight. */
union ping_args {
    nf_void none;
    nfs_fh fh2;
    GETATTR3args getattr3;
    diropargs lookup2;
    LOOKUP3args lookup3;
    readargs read2;
    READ3args read3;
};

union ping_res {
    nf_void none;
    attrstat attr2;
    GETATTR3res getattr3;
    diropres lookup2;
    LOOKUP3res lookup3;
    readres read2;
    READ3res read3;
};

struct ping;

struct ping_slot {
    struct rp_call call;
    union ping_res res;
    struct ping *p;
};

struct ping {
    struct nf_mount m;
    struct rp_client *c;
    int version;
    enum ping_op op;
    uint32_t proc;
    union ping_args args;
    struct nf_fh target; /* handle the op works on */
    char name[256];      /* lookup name */
    uint32_t timeout_ms; /* 0 = the call class's */
    long long count, started, completed, rpc_errors, nfs_errors;
    uint32_t *rt_us; /* response time of each completed call */
    int first_error; /* status of the first failed call */
    char first_error_text[CM_ERR_LEN];
};

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: sfs_ping [-2|-3] [-Q] [-c COUNT] [-o OUTSTANDING]\n"
        "                [-p null|getattr|lookup|read] [-n NAME] [-t MS] [-r] MOUNT\n"
        "       sfs_ping [-2|-3] -E MOUNT\n"
        "  -2, -3          NFS version (default 3)\n"
        "  -Q              NFS over TCP (default UDP; MOUNT uses UDP)\n"
        "  -c COUNT        calls to complete (default 1000)\n"
        "  -o OUTSTANDING  calls kept in flight (default 1, at most %d)\n"
        "  -p OP           procedure: null, getattr (default), lookup, read\n"
        "  -n NAME         name for lookup and read (default: '.' for lookup,\n"
        "                  the first regular file of the export for read)\n"
        "  -t MS           per-call timeout (default: the SFS call class)\n"
        "  -r              reserved source port (needs root or\n"
        "                  CAP_NET_BIND_SERVICE)\n"
        "  -E              list the server's exports (MOUNT EXPORT) and exit\n"
        "  -F FAULTS       inject faults into the replies of the ping calls (tests):\n"
        "                  drop=P,dup=P,trunc=P,reorder=P,seed=N (P in percent)\n"
        "  MOUNT           host:/path, host:port:/path or\n"
        "                  nfs://host[:port]/path?mountport=N\n",
        PING_MAX_OUTSTANDING);
}

/* ---- finding what to operate on ----------------------------------------- */

static int lookup_name(struct ping *p, const struct nf_fh *dir, const char *name,
                       struct nf_fh *out, int *is_reg, char *err, size_t errlen)
{
    int rc;
    uint32_t st;

    if (p->version == 2) {
        diropargs a;
        diropres r;

        memset(&r, 0, sizeof(r));
        nf_fh_to_v2(dir, &a.dir);
        a.name = (char *)(uintptr_t)name;
        rc = nf2_lookup(p->c, &a, &r);
        if (rc < 0) {
            cm_errf(err, errlen, "LOOKUP %s: %s", name, rp_client_last_error(p->c));
            return rc;
        }
        st = (uint32_t)r.status;
        if (st == NFS_OK) {
            nf_fh_from_v2(out, &r.diropres_u.diropres.file);
            *is_reg = r.diropres_u.diropres.attributes.type == NFREG;
        }
        xdr_free((xdrproc_t)xdr_diropres, &r);
    } else {
        LOOKUP3args a;
        LOOKUP3res r;

        memset(&r, 0, sizeof(r));
        nf_fh_to_v3(dir, &a.what.dir);
        a.what.name = (char *)(uintptr_t)name;
        rc = nf3_lookup(p->c, &a, &r);
        if (rc < 0) {
            cm_errf(err, errlen, "LOOKUP %s: %s", name, rp_client_last_error(p->c));
            return rc;
        }
        st = (uint32_t)r.status;
        if (st == NFS3_OK) {
            post_op_attr *pa = &r.LOOKUP3res_u.resok.obj_attributes;

            rc = nf_fh_from_v3(out, &r.LOOKUP3res_u.resok.object);
            *is_reg =
                pa->attributes_follow && pa->post_op_attr_u.attributes.type == NF3REG;
        }
        xdr_free((xdrproc_t)xdr_LOOKUP3res, &r);
        if (rc < 0)
            return cm_errf(err, errlen, "LOOKUP %s: handle too long", name);
    }
    if (st != 0) {
        cm_errf(err, errlen, "LOOKUP %s: %s", name, nf_status_name(st));
        return -ENOENT;
    }
    return 0;
}

/* Reads the root directory (first batch only) and picks the first name
 * that is a regular file. */
static int find_regular_file(struct ping *p, char *err, size_t errlen)
{
    char names[16][256];
    int n = 0, i, rc, is_reg;

    if (p->version == 2) {
        readdirargs a;
        readdirres r;
        entry *e;

        memset(&a, 0, sizeof(a));
        memset(&r, 0, sizeof(r));
        nf_fh_to_v2(&p->m.root, &a.dir);
        a.count = 8192;
        rc = nf2_readdir(p->c, &a, &r);
        if (rc < 0 || r.status != NFS_OK) {
            if (rc == 0)
                xdr_free((xdrproc_t)xdr_readdirres, &r);
            return cm_errf(err, errlen, "READDIR of the export root failed");
        }
        for (e = r.readdirres_u.reply.entries; e && n < 16; e = e->nextentry)
            if (strcmp(e->name, ".") && strcmp(e->name, ".."))
                snprintf(names[n++], sizeof(names[0]), "%.255s", e->name);
        xdr_free((xdrproc_t)xdr_readdirres, &r);
    } else {
        READDIR3args a;
        READDIR3res r;
        entry3 *e;

        memset(&a, 0, sizeof(a));
        memset(&r, 0, sizeof(r));
        nf_fh_to_v3(&p->m.root, &a.dir);
        a.count = 8192;
        rc = nf3_readdir(p->c, &a, &r);
        if (rc < 0 || r.status != NFS3_OK) {
            if (rc == 0)
                xdr_free((xdrproc_t)xdr_READDIR3res, &r);
            return cm_errf(err, errlen, "READDIR of the export root failed");
        }
        for (e = r.READDIR3res_u.resok.reply.entries; e && n < 16; e = e->nextentry)
            if (strcmp(e->name, ".") && strcmp(e->name, ".."))
                snprintf(names[n++], sizeof(names[0]), "%.255s", e->name);
        xdr_free((xdrproc_t)xdr_READDIR3res, &r);
    }
    for (i = 0; i < n; i++) {
        if (lookup_name(p, &p->m.root, names[i], &p->target, &is_reg, err, errlen) == 0 &&
            is_reg) {
            snprintf(p->name, sizeof(p->name), "%.255s", names[i]);
            return 0;
        }
    }
    return cm_errf(err, errlen,
                   "no regular file in the first entries of the export root to read "
                   "(name one with -n)");
}

/* Fills p->args for the op. */
static int setup_op(struct ping *p, char *err, size_t errlen)
{
    int is_reg = 0, rc;

    p->target = p->m.root;
    if (p->op == PING_READ) {
        if (p->name[0])
            rc = lookup_name(p, &p->m.root, p->name, &p->target, &is_reg, err, errlen);
        else
            rc = find_regular_file(p, err, errlen);
        if (rc < 0)
            return rc;
    } else if (p->op == PING_LOOKUP && !p->name[0]) {
        snprintf(p->name, sizeof(p->name), ".");
    }
    switch (p->op) {
    case PING_NULL:
        p->proc = 0;
        break;
    case PING_GETATTR:
        p->proc = p->version == 2 ? NFSPROC_GETATTR : NFSPROC3_GETATTR;
        if (p->version == 2)
            nf_fh_to_v2(&p->target, &p->args.fh2);
        else
            nf_fh_to_v3(&p->target, &p->args.getattr3.object);
        break;
    case PING_LOOKUP:
        p->proc = p->version == 2 ? NFSPROC_LOOKUP : NFSPROC3_LOOKUP;
        if (p->version == 2) {
            nf_fh_to_v2(&p->target, &p->args.lookup2.dir);
            p->args.lookup2.name = p->name;
        } else {
            nf_fh_to_v3(&p->target, &p->args.lookup3.what.dir);
            p->args.lookup3.what.name = p->name;
        }
        break;
    case PING_READ:
        p->proc = p->version == 2 ? NFSPROC_READ : NFSPROC3_READ;
        if (p->version == 2) {
            nf_fh_to_v2(&p->target, &p->args.read2.file);
            p->args.read2.count = 8192;
        } else {
            nf_fh_to_v3(&p->target, &p->args.read3.file);
            p->args.read3.count = 8192;
        }
        break;
    }
    return 0;
}

/* ---- the loop ------------------------------------------------------------ */

static void slot_done(struct rp_call *call, void *data);

static int slot_start(struct ping_slot *s)
{
    struct ping *p = s->p;
    int rc;

    memset(&s->res, 0, sizeof(s->res));
    rc = nf_call_init(&s->call, p->c, p->proc, &p->args, &s->res, slot_done, s);
    if (rc < 0)
        return rc;
    if (p->timeout_ms)
        s->call.timeout_ms = p->timeout_ms;
    rc = rp_call_start(p->c, &s->call);
    if (rc == 0)
        p->started++;
    return rc;
}

static void slot_done(struct rp_call *call, void *data)
{
    struct ping_slot *s = data;
    struct ping *p = s->p;

    p->rt_us[p->completed] =
        (uint32_t)(rp_call_usec(call) > UINT32_MAX ? UINT32_MAX : rp_call_usec(call));
    p->completed++;
    if (call->status < 0) {
        if (p->rpc_errors++ == 0) {
            p->first_error = call->status;
            snprintf(p->first_error_text, sizeof(p->first_error_text), "%s",
                     rp_client_last_error(p->c)[0] ? rp_client_last_error(p->c)
                                                   : rp_status_text(call->status));
        }
    } else {
        if (nf_call_nfs_status(call) != 0)
            p->nfs_errors++;
        nf_call_free(call);
    }
    if (p->started < p->count && slot_start(s) < 0)
        p->count = p->started; /* the client is dead: stop issuing */
}

static void print_export(const char *dir, void *data)
{
    (void)data;
    printf("export     %s\n", dir);
}

/* Closes the fault-injecting client, if any, then unmounts. */
static void finish(struct ping *p)
{
    if (p->c && p->c != p->m.nfs)
        rp_client_close(p->c);
    p->c = NULL;
    nf_umount(&p->m);
}

/* Parses -F: "drop=P,dup=P,trunc=P,reorder=P,seed=N". */
static int parse_faults(const char *s, struct rp_fault *f, char *err, size_t errlen)
{
    static const char *const keys[] = {"drop", "dup", "trunc", "reorder", "seed"};
    char buf[256], *tok, *save = NULL;
    int64_t v;
    size_t k;

    memset(f, 0, sizeof(*f));
    if (strlen(s) >= sizeof(buf))
        return cm_errf(err, errlen, "-F: too long");
    strcpy(buf, s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');

        for (k = 0; eq && k < CM_ARRAY_LEN(keys); k++)
            if (strlen(keys[k]) == (size_t)(eq - tok) &&
                strncmp(tok, keys[k], (size_t)(eq - tok)) == 0)
                break;
        if (!eq || k == CM_ARRAY_LEN(keys))
            return cm_errf(err, errlen,
                           "-F: '%s' is not drop=, dup=, trunc=, reorder= or seed=", tok);
        if (cm_parse_i64("-F", eq + 1, 0, k == 4 ? 2147483646 : 100, &v, err, errlen) < 0)
            return -EINVAL;
        switch (k) {
        case 0:
            f->drop_pct = (unsigned)v;
            break;
        case 1:
            f->dup_pct = (unsigned)v;
            break;
        case 2:
            f->truncate_pct = (unsigned)v;
            break;
        case 3:
            f->reorder_pct = (unsigned)v;
            break;
        default:
            f->seed = (uint32_t)v;
        }
    }
    if (f->drop_pct + f->dup_pct + f->truncate_pct + f->reorder_pct > 100)
        return cm_errf(err, errlen, "-F: the percentages add up to more than 100");
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

static double cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void report(const struct ping *p, const char *spec, double secs, double cpu)
{
    double sum = 0;
    long long i, n = p->completed;
    struct rp_client_stats st;

    rp_client_stats(p->c, &st);
    for (i = 0; i < n; i++)
        sum += p->rt_us[i];
    printf("mount      %s (NFSv%d over %s, nfs port %u, mount port %u)\n", spec,
           p->version, rp_client_transport(p->c) == RP_TCP ? "TCP" : "UDP", p->m.nfs_port,
           p->m.mount_port);
    printf("source_port %d\n", rp_client_local_port(p->c));
    printf("op         %s%s%s\n", ping_op_names[p->op], p->name[0] ? " " : "", p->name);
    printf("calls      %lld\n", n);
    printf("errors     %lld\n", p->rpc_errors);
    printf("nfs_errors %lld\n", p->nfs_errors);
    printf("retransmits %llu\n", (unsigned long long)st.retransmits);
    printf("ops/s      %.1f\n", secs > 0 ? (double)n / secs : 0.0);
    printf("mean_us    %.1f\n", n ? sum / (double)n : 0.0);
    printf("p50_us     %u\n", n ? p->rt_us[(n - 1) / 2] : 0);
    printf("p99_us     %u\n", n ? p->rt_us[(n * 99 + 99) / 100 - 1] : 0);
    printf("max_us     %u\n", n ? p->rt_us[n - 1] : 0);
    printf("cpu_us/call %.2f\n", n ? cpu * 1e6 / (double)n : 0.0);
}

static int run(struct ping *p, long long outstanding)
{
    struct ping_slot *slots = calloc((size_t)outstanding, sizeof(*slots));
    long long i;
    int rc = 0;

    if (!slots)
        return -ENOMEM;
    for (i = 0; i < outstanding && p->started < p->count; i++) {
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
    }
    free(slots);
    return rc;
}

int main(int argc, char **argv)
{
    static struct ping p;
    struct nf_mount_opts mo;
    long long outstanding = 1;
    int64_t v;
    char err[CM_ERR_LEN];
    uint64_t t0, t1;
    double cpu0;
    struct rp_fault fault;
    int opt, rc, i, list_exports = 0, use_fault = 0;

    p.version = 3;
    p.count = 1000;
    p.op = PING_GETATTR;
    nf_mount_opts_init(&mo, 3);
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    while ((opt = getopt(argc, argv, "23Qc:o:p:n:t:rEF:h")) != -1) {
        switch (opt) {
        case '2':
        case '3':
            p.version = opt - '0';
            break;
        case 'Q':
            mo.transport = RP_TCP;
            break;
        case 'c':
            if (cm_parse_i64("-c", optarg, 1, PING_MAX_COUNT, &v, err, sizeof(err)) < 0)
                goto bad;
            p.count = v;
            break;
        case 'o':
            if (cm_parse_i64("-o", optarg, 1, PING_MAX_OUTSTANDING, &v, err,
                             sizeof(err)) < 0)
                goto bad;
            outstanding = v;
            break;
        case 'p':
            for (i = 0; i < (int)CM_ARRAY_LEN(ping_op_names); i++)
                if (strcmp(optarg, ping_op_names[i]) == 0)
                    break;
            if (i == (int)CM_ARRAY_LEN(ping_op_names)) {
                snprintf(err, sizeof(err),
                         "-p: unknown op '%s' (null, getattr, lookup, read)", optarg);
                goto bad;
            }
            p.op = (enum ping_op)i;
            break;
        case 'n':
            if (strlen(optarg) >= sizeof(p.name) || !*optarg) {
                snprintf(err, sizeof(err), "-n: name empty or too long");
                goto bad;
            }
            snprintf(p.name, sizeof(p.name), "%s", optarg);
            break;
        case 't':
            if (cm_parse_i64("-t", optarg, 1, 3600000, &v, err, sizeof(err)) < 0)
                goto bad;
            p.timeout_ms = (uint32_t)v;
            break;
        case 'r':
            mo.rpc.resv_port = RP_RESV_MUST;
            break;
        case 'E':
            list_exports = 1;
            break;
        case 'F':
            if (parse_faults(optarg, &fault, err, sizeof(err)) < 0)
                goto bad;
            use_fault = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return 2;
    }
    mo.nfs_version = p.version;
    mo.rpc.max_in_flight = (unsigned)outstanding;
    if (p.timeout_ms)
        mo.timeout_ms = p.timeout_ms;
    if (list_exports) {
        rc = nf_exports(argv[optind], &mo, print_export, NULL, err, sizeof(err));
        if (rc < 0)
            fprintf(stderr, "sfs_ping: %s\n", err);
        return rc < 0 ? 1 : 0;
    }
    rc = nf_mount(&p.m, argv[optind], &mo, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "sfs_ping: %s\n", err);
        return 1;
    }
    p.c = p.m.nfs;
    if (use_fault) {
        /* a client of its own, so that the mount itself ran clean */
        p.m.opts.rpc.fault = &fault;
        if (nf_mount_open_client(&p.m, mo.transport, &p.c, err, sizeof(err)) < 0) {
            fprintf(stderr, "sfs_ping: %s\n", err);
            finish(&p);
            return 1;
        }
    }
    if (setup_op(&p, err, sizeof(err)) < 0) {
        fprintf(stderr, "sfs_ping: %s: %s\n", argv[optind], err);
        finish(&p);
        return 1;
    }
    p.rt_us = malloc((size_t)p.count * sizeof(*p.rt_us));
    if (!p.rt_us) {
        fprintf(stderr, "sfs_ping: out of memory for %lld response times\n", p.count);
        finish(&p);
        return 1;
    }
    cpu0 = cpu_seconds();
    t0 = cm_now_ns();
    rc = run(&p, outstanding);
    t1 = cm_now_ns();
    if (rc < 0) {
        fprintf(stderr, "sfs_ping: %s: %s\n", argv[optind], rp_status_text(rc));
        finish(&p);
        free(p.rt_us);
        return 1;
    }
    qsort(p.rt_us, (size_t)p.completed, sizeof(*p.rt_us), cmp_u32);
    report(&p, argv[optind], (double)(t1 - t0) / 1e9, cpu_seconds() - cpu0);
    if (p.rpc_errors)
        fprintf(stderr, "sfs_ping: %lld of %lld calls failed; first: %s\n", p.rpc_errors,
                p.completed, p.first_error_text);
    finish(&p);
    free(p.rt_us);
    return p.rpc_errors ? 1 : 0;

bad:
    fprintf(stderr, "sfs_ping: %s\n", err);
    usage(stderr);
    return 2;
}
