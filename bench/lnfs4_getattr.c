/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs4_getattr.c - the NFSv4 baseline of bench/ping.sh: libnfs's own
 * asynchronous loop at NFS_V4 (libnfs speaks NFSv4.0: SETCLIENTID at
 * mount, then PUTFH GETATTR compounds, no SEQUENCE), keeping OUTSTANDING
 * nfs_stat64_async calls of the export's root in flight until COUNT have
 * completed.  Prints calls, errors, ops/s and client CPU per call in the
 * same form as sfs_ping.  It uses only libnfs's headers.
 *
 *   lnfs4_getattr -n NFSPORT -e EXPORT [-c COUNT] [-o N] [HOST]
 */
#include <sys/time.h>

#include <nfsc/libnfs.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct bench {
    struct nfs_context *nfs;
    long count, started, completed, errors;
};

static int issue(struct bench *b);

static void stat_cb(int status, struct nfs_context *nfs, void *data, void *priv)
{
    struct bench *b = priv;

    (void)nfs;
    (void)data;
    b->completed++;
    if (status < 0)
        b->errors++;
    if (b->started < b->count && issue(b) != 0)
        b->count = b->started;
}

static int issue(struct bench *b)
{
    int rc = nfs_stat64_async(b->nfs, "/", stat_cb, b);

    if (rc == 0)
        b->started++;
    return rc;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    static struct bench b;
    const char *host = "127.0.0.1";
    char *export_path = NULL, url[1024];
    struct nfs_url *u;
    int nport = 0, opt;
    long outstanding = 1, i;
    double t0, c0, secs, cpu;

    b.count = 100000;
    while ((opt = getopt(argc, argv, "n:e:c:o:")) != -1) {
        switch (opt) {
        case 'n':
            nport = atoi(optarg);
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
    if (!export_path || nport <= 0 || b.count <= 0 || outstanding <= 0 ||
        strncmp(host, "127.", 4) != 0)
        goto usage;
    b.nfs = nfs_init_context();
    snprintf(url, sizeof(url), "nfs://%s%s?version=4&nfsport=%d", host, export_path,
             nport);
    u = b.nfs ? nfs_parse_url_dir(b.nfs, url) : NULL;
    if (!u || nfs_mount(b.nfs, u->server, u->path) != 0) {
        fprintf(stderr, "lnfs4_getattr: mount %s failed: %s\n", url,
                b.nfs ? nfs_get_error(b.nfs) : "no context");
        return 1;
    }
    nfs_destroy_url(u);

    c0 = cpu_s();
    t0 = now_s();
    for (i = 0; i < outstanding && b.started < b.count; i++)
        if (issue(&b) != 0)
            break;
    while (b.completed < b.started) {
        struct pollfd p = {nfs_get_fd(b.nfs), (short)nfs_which_events(b.nfs), 0};

        if (poll(&p, 1, 1000) < 0 || nfs_service(b.nfs, p.revents) < 0) {
            fprintf(stderr, "lnfs4_getattr: %s\n", nfs_get_error(b.nfs));
            return 1;
        }
    }
    secs = now_s() - t0;
    cpu = cpu_s() - c0;
    printf("calls      %ld\n", b.completed);
    printf("errors     %ld\n", b.errors);
    printf("ops/s      %.1f\n", secs > 0 ? (double)b.completed / secs : 0.0);
    printf("cpu_us/call %.2f\n", b.completed ? cpu * 1e6 / (double)b.completed : 0.0);
    nfs_umount(b.nfs);
    nfs_destroy_context(b.nfs);
    return b.errors ? 1 : 0;

usage:
    fprintf(stderr,
            "usage: lnfs4_getattr -n NFSPORT -e EXPORT [-c COUNT] [-o OUTSTANDING] "
            "[127.x.x.x]\n");
    return 2;
}
