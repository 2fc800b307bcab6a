/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs4_getattr.c - the NFSv4 baselines of bench/ping.sh: libnfs at NFS_V4
 * (libnfs speaks NFSv4.0: no SEQUENCE), keeping OUTSTANDING GETATTRs in
 * flight until COUNT have completed, each one compound, PUTFH GETATTR, as
 * sfs_ping -4 --minor 0 sends:
 *
 *   default  libnfs's own asynchronous loop: nfs_fstat64_async of an open
 *            file (SETCLIENTID and OPEN at mount).  It turns the owner and
 *            group names of every reply into ids with getpwnam/getgrnam.
 *            (nfs_stat64_async of a path would walk it from the root every
 *            time: PUTFH, a LOOKUP per component, GETATTR.)
 *   -r       the raw compound (rpc_nfs4_compound_async), asking the
 *            attributes sfs_ping asks, decoded by libnfs but not
 *            interpreted: the RPC engines side by side, as the NFSv3 row's
 *            rpc_nfs3_getattr_async.
 *
 * Prints calls, errors, ops/s and client CPU per call in the same form as
 * sfs_ping.  It uses only libnfs's headers.
 *
 *   lnfs4_getattr [-r] -n NFSPORT -e EXPORT [-f FILE] [-c COUNT] [-o N] [HOST]
 */
#include <sys/time.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs4.h>

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lnfs_loop.h"

struct bench {
    int raw;
    struct nfs_context *nfs; /* the default loop */
    struct nfsfh *fh;
    struct rpc_context *rpc; /* -r */
    char rawfh[NFS4_FHSIZE];
    u_int rawfh_len;
    uint32_t mask[2];
    nfs_argop4 ops[3];
    COMPOUND4args args;
    int step_done, step_ok;
    long count, started, completed, errors;
};

static int issue(struct bench *b);

static void done_one(struct bench *b, int failed)
{
    b->completed++;
    if (failed)
        b->errors++;
    if (b->started < b->count && issue(b) != 0)
        b->count = b->started;
}

static void stat_cb(int status, struct nfs_context *nfs, void *data, void *priv)
{
    (void)nfs;
    (void)data;
    done_one(priv, status < 0);
}

static void raw_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
    (void)rpc;
    done_one(priv,
             status != RPC_STATUS_SUCCESS || ((COMPOUND4res *)data)->status != NFS4_OK);
}

static int issue(struct bench *b)
{
    int rc = b->raw ? rpc_nfs4_compound_async(b->rpc, raw_cb, &b->args, b)
                    : nfs_fstat64_async(b->nfs, b->fh, stat_cb, b);

    if (rc == 0)
        b->started++;
    return rc;
}

/* ---- -r: the raw compounds --------------------------------------------------- */

static int wait_step(struct bench *b)
{
    int i;

    for (i = 0; i < 1000 && !b->step_done; i++) {
        struct pollfd p = {rpc_get_fd(b->rpc), (short)rpc_which_events(b->rpc), 0};

        if (poll(&p, 1, 10) < 0 || rpc_service(b->rpc, p.revents) < 0)
            return -1;
    }
    return b->step_done && b->step_ok ? 0 : -1;
}

static void step_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
    struct bench *b = priv;

    (void)rpc;
    (void)data;
    b->step_done = 1;
    b->step_ok = status == RPC_STATUS_SUCCESS;
}

/* PUTROOTFH LOOKUP(component) GETFH: the export's handle (one component). */
static void walk_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
    struct bench *b = priv;
    COMPOUND4res *r = data;

    (void)rpc;
    b->step_done = 1;
    b->step_ok = 0;
    if (status != RPC_STATUS_SUCCESS || r->status != NFS4_OK ||
        r->resarray.resarray_len != 3)
        return;
    {
        nfs_fh4 *fh =
            &r->resarray.resarray_val[2].nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object;

        if (fh->nfs_fh4_len > sizeof(b->rawfh))
            return;
        memcpy(b->rawfh, fh->nfs_fh4_val, fh->nfs_fh4_len);
        b->rawfh_len = fh->nfs_fh4_len;
        b->step_ok = 1;
    }
}

static int raw_setup(struct bench *b, const char *host, int nport,
                     const char *export_path)
{
    const char *comp = export_path[0] == '/' ? export_path + 1 : export_path;

    b->rpc = rpc_init_context();
    if (!b->rpc ||
        rpc_connect_port_async(b->rpc, host, nport, NFS4_PROGRAM, NFS_V4, step_cb, b) !=
            0 ||
        wait_step(b) != 0)
        return -1;
    memset(b->ops, 0, sizeof(b->ops));
    b->ops[0].argop = OP_PUTROOTFH;
    b->ops[1].argop = OP_LOOKUP;
    b->ops[1].nfs_argop4_u.oplookup.objname.utf8string_len = (u_int)strlen(comp);
    b->ops[1].nfs_argop4_u.oplookup.objname.utf8string_val = (char *)(uintptr_t)comp;
    b->ops[2].argop = OP_GETFH;
    memset(&b->args, 0, sizeof(b->args));
    b->args.argarray.argarray_len = 3;
    b->args.argarray.argarray_val = b->ops;
    b->step_done = 0;
    if (rpc_nfs4_compound_async(b->rpc, walk_cb, &b->args, b) != 0 || wait_step(b) != 0)
        return -1;
    /* the attributes sfs_ping's GETATTR asks: what stat(2) needs */
    b->mask[0] = 1u << FATTR4_TYPE | 1u << FATTR4_CHANGE | 1u << FATTR4_SIZE |
                 1u << FATTR4_FSID | 1u << FATTR4_FILEID;
    b->mask[1] = 1u << (FATTR4_MODE - 32) | 1u << (FATTR4_NUMLINKS - 32) |
                 1u << (FATTR4_OWNER - 32) | 1u << (FATTR4_OWNER_GROUP - 32) |
                 1u << (FATTR4_RAWDEV - 32) | 1u << (FATTR4_SPACE_USED - 32) |
                 1u << (FATTR4_TIME_ACCESS - 32) | 1u << (FATTR4_TIME_METADATA - 32) |
                 1u << (FATTR4_TIME_MODIFY - 32) | 1u << (FATTR4_MOUNTED_ON_FILEID - 32);
    memset(b->ops, 0, sizeof(b->ops));
    b->ops[0].argop = OP_PUTFH;
    b->ops[0].nfs_argop4_u.opputfh.object.nfs_fh4_len = b->rawfh_len;
    b->ops[0].nfs_argop4_u.opputfh.object.nfs_fh4_val = b->rawfh;
    b->ops[1].argop = OP_GETATTR;
    b->ops[1].nfs_argop4_u.opgetattr.attr_request.bitmap4_len = 2;
    b->ops[1].nfs_argop4_u.opgetattr.attr_request.bitmap4_val = b->mask;
    b->args.argarray.argarray_len = 2;
    return 0;
}

/* ---- the default: libnfs's own loop -------------------------------------------- */

static int nfs_setup(struct bench *b, const char *host, int nport,
                     const char *export_path, const char *file)
{
    char url[1024];
    struct nfs_url *u;

    b->nfs = nfs_init_context();
    snprintf(url, sizeof(url), "nfs://%s%s?version=4&nfsport=%d", host, export_path,
             nport);
    u = b->nfs ? nfs_parse_url_dir(b->nfs, url) : NULL;
    if (!u || nfs_mount(b->nfs, u->server, u->path) != 0) {
        fprintf(stderr, "lnfs4_getattr: mount %s failed: %s\n", url,
                b->nfs ? nfs_get_error(b->nfs) : "no context");
        return -1;
    }
    nfs_destroy_url(u);
    if (nfs_open(b->nfs, file, O_RDONLY, &b->fh) != 0) {
        fprintf(stderr, "lnfs4_getattr: open %s failed: %s\n", file,
                nfs_get_error(b->nfs));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static struct bench b;
    const char *host = "127.0.0.1";
    char *export_path = NULL, *file = NULL;
    int nport = 0, opt;
    long outstanding = 1, i;
    double t0, c0, secs, cpu;

    b.count = 100000;
    while ((opt = getopt(argc, argv, "rn:e:f:c:o:")) != -1) {
        switch (opt) {
        case 'r':
            b.raw = 1;
            break;
        case 'n':
            nport = atoi(optarg);
            break;
        case 'e':
            export_path = optarg;
            break;
        case 'f':
            file = optarg;
            break;
        case 'c':
            b.count = atol(optarg);
            break;
        case 'o':
            outstanding = atol(optarg);
            break;
        default:
            goto usage;
        }
    }
    if (optind < argc)
        host = argv[optind];
    if (!export_path || (!b.raw && !file) || nport <= 0 || b.count <= 0 ||
        outstanding <= 0 || strncmp(host, "127.", 4) != 0)
        goto usage;
    if (b.raw ? raw_setup(&b, host, nport, export_path)
              : nfs_setup(&b, host, nport, export_path, file)) {
        fprintf(stderr, "lnfs4_getattr: set-up failed\n");
        return 1;
    }
    c0 = lnfs_loop_cpu_s();
    t0 = lnfs_loop_now_s();
    for (i = 0; i < outstanding && b.started < b.count; i++)
        if (issue(&b) != 0)
            break;
    while (b.completed < b.started) {
        struct pollfd p = {
            b.raw ? rpc_get_fd(b.rpc) : nfs_get_fd(b.nfs),
            (short)(b.raw ? rpc_which_events(b.rpc) : nfs_which_events(b.nfs)), 0};

        if (poll(&p, 1, 1000) < 0 ||
            (b.raw ? rpc_service(b.rpc, p.revents) : nfs_service(b.nfs, p.revents)) < 0) {
            fprintf(stderr, "lnfs4_getattr: %s\n",
                    b.raw ? rpc_get_error(b.rpc) : nfs_get_error(b.nfs));
            return 1;
        }
    }
    secs = lnfs_loop_now_s() - t0;
    cpu = lnfs_loop_cpu_s() - c0;
    lnfs_loop_print(b.completed, b.errors, secs, cpu);
    if (b.raw) {
        rpc_disconnect(b.rpc, "done");
        rpc_destroy_context(b.rpc);
    } else {
        nfs_close(b.nfs, b.fh);
        nfs_umount(b.nfs);
        nfs_destroy_context(b.nfs);
    }
    return b.errors ? 1 : 0;

usage:
    fprintf(stderr, "usage: lnfs4_getattr [-r] -n NFSPORT -e EXPORT [-f FILE] [-c COUNT] "
                    "[-o OUTSTANDING] [127.x.x.x]\n");
    return 2;
}
