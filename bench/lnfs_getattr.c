/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs_getattr.c - the baseline of bench/ping.sh: a bare libnfs raw-async
 * GETATTR loop (rpc_nfs3_getattr_async, or rpc_nfs2_getattr_async with
 * -2) over TCP that keeps OUTSTANDING calls in flight until COUNT have
 * completed, and prints calls, errors, ops/s and client CPU per call in
 * the same form as sfs_ping.  It uses only libnfs's headers: never our
 * rpcgen nfs3_prot.h (the two define the same RFC 1813 names).
 *
 *   lnfs_getattr [-2] -n NFSPORT -m MOUNTPORT -e EXPORT [-c COUNT] [-o N] [HOST]
 */
#include <sys/time.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-mount.h>
#include <nfsc/libnfs-raw-nfs.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lnfs_loop.h"

struct bench {
    struct rpc_context *rpc;
    int version;
    int step_done, step_ok;
    char fh[64];
    u_int fh_len;
    GETATTR3args a3;
    GETATTR2args a2;
    long count, started, completed, errors;
};

/* Services rpc until b->step_done (bounded: 10 s). */
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

static void mnt_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
    struct bench *b = priv;

    (void)rpc;
    b->step_done = 1;
    b->step_ok = 0;
    if (status != RPC_STATUS_SUCCESS)
        return;
    if (b->version == 2) {
        mountres1 *r = data;

        if (r->fhs_status == 0) {
            memcpy(b->fh, r->mountres1_u.mountinfo.fhandle, 32);
            b->fh_len = 32;
            b->step_ok = 1;
        }
    } else {
        mountres3 *r = data;

        if (r->fhs_status == 0 && r->mountres3_u.mountinfo.fhandle.fhandle3_len <= 64) {
            b->fh_len = r->mountres3_u.mountinfo.fhandle.fhandle3_len;
            memcpy(b->fh, r->mountres3_u.mountinfo.fhandle.fhandle3_val, b->fh_len);
            b->step_ok = 1;
        }
    }
}

static int issue(struct bench *b);

static void getattr_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
    struct bench *b = priv;

    (void)rpc;
    b->completed++;
    if (status != RPC_STATUS_SUCCESS)
        b->errors++;
    else if (b->version == 3 ? ((GETATTR3res *)data)->status != 0
                             : ((GETATTR2res *)data)->status != 0)
        b->errors++;
    if (b->started < b->count && issue(b) != 0)
        b->count = b->started;
}

static int issue(struct bench *b)
{
    int rc = b->version == 3 ? rpc_nfs3_getattr_async(b->rpc, getattr_cb, &b->a3, b)
                             : rpc_nfs2_getattr_async(b->rpc, getattr_cb, &b->a2, b);

    if (rc == 0)
        b->started++;
    return rc;
}

static int connect_to(struct bench *b, const char *host, int port, int prog, int vers)
{
    b->step_done = 0;
    if (rpc_connect_port_async(b->rpc, host, port, prog, vers, step_cb, b) != 0)
        return -1;
    return wait_step(b);
}

int main(int argc, char **argv)
{
    static struct bench b;
    const char *host = "127.0.0.1";
    char *export_path = NULL;
    int nport = 0, mport = 0, opt;
    long outstanding = 1, i;
    double t0, c0, secs, cpu;

    b.version = 3;
    b.count = 100000;
    while ((opt = getopt(argc, argv, "2n:m:e:c:o:")) != -1) {
        switch (opt) {
        case '2':
            b.version = 2;
            break;
        case 'n':
            nport = atoi(optarg);
            break;
        case 'm':
            mport = atoi(optarg);
            break;
        case 'e':
            export_path = optarg;
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
    if (!export_path || nport <= 0 || mport <= 0 || b.count <= 0 || outstanding <= 0 ||
        strncmp(host, "127.", 4) != 0)
        goto usage;

    b.rpc = rpc_init_context();
    if (!b.rpc ||
        connect_to(&b, host, mport, MOUNT_PROGRAM, b.version == 2 ? 1 : 3) != 0) {
        fprintf(stderr, "lnfs_getattr: MOUNT connect failed: %s\n",
                b.rpc ? rpc_get_error(b.rpc) : "no context");
        return 1;
    }
    b.step_done = 0;
    if ((b.version == 2 ? rpc_mount1_mnt_async(b.rpc, mnt_cb, export_path, &b)
                        : rpc_mount3_mnt_async(b.rpc, mnt_cb, export_path, &b)) != 0 ||
        wait_step(&b) != 0) {
        fprintf(stderr, "lnfs_getattr: MNT %s failed\n", export_path);
        return 1;
    }
    rpc_disconnect(b.rpc, "mounted");
    rpc_destroy_context(b.rpc);
    b.rpc = rpc_init_context();
    if (!b.rpc || connect_to(&b, host, nport, NFS_PROGRAM, b.version) != 0) {
        fprintf(stderr, "lnfs_getattr: NFS connect failed\n");
        return 1;
    }
    b.a3.object.data.data_len = b.fh_len;
    b.a3.object.data.data_val = b.fh;
    memcpy(b.a2.fhandle, b.fh, 32);

    c0 = lnfs_loop_cpu_s();
    t0 = lnfs_loop_now_s();
    for (i = 0; i < outstanding && b.started < b.count; i++)
        if (issue(&b) != 0)
            break;
    while (b.completed < b.started) {
        struct pollfd p = {rpc_get_fd(b.rpc), (short)rpc_which_events(b.rpc), 0};

        if (poll(&p, 1, 1000) < 0 || rpc_service(b.rpc, p.revents) < 0) {
            fprintf(stderr, "lnfs_getattr: %s\n", rpc_get_error(b.rpc));
            return 1;
        }
    }
    secs = lnfs_loop_now_s() - t0;
    cpu = lnfs_loop_cpu_s() - c0;
    lnfs_loop_print(b.completed, b.errors, secs, cpu);
    rpc_disconnect(b.rpc, "done");
    rpc_destroy_context(b.rpc);
    return b.errors ? 1 : 0;

usage:
    fprintf(stderr,
            "usage: lnfs_getattr [-2] -n NFSPORT -m MOUNTPORT -e EXPORT [-c COUNT] "
            "[-o OUTSTANDING] [127.x.x.x]\n");
    return 2;
}
