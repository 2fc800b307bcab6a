/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_read.c - the NFS trace reader's speed (bench/nfstrace.sh): reads a
 * capture or nfsdump file with tr_nfs_next and nothing else, and prints
 * "EVENTS PACKETS SECONDS" (CLOCK_MONOTONIC wall time of the whole read,
 * opening included).  With -4, NFSv4 COMPOUNDs are decoded into events
 * (tr_nfs_options.nfsv4); without, they are only counted: the difference
 * is what decoding them costs (bench/nfs4_stats.sh).
 *
 *   nfs_read [-4] TRACE
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace/tr_nfs.h"

int main(int argc, char **argv)
{
    struct tr_nfs_options o = {0};
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    char err[CM_ERR_LEN];
    uint64_t t0, n = 0;
    int rc;

    if (argc == 3 && strcmp(argv[1], "-4") == 0) {
        o.nfsv4 = 1;
        argv++;
        argc--;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: nfs_read [-4] TRACE\n");
        return 2;
    }
    t0 = cm_now_ns();
    if (tr_nfs_open(&r, argv[1], &o, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    while ((rc = tr_nfs_next(r, &ev)) > 0)
        n++;
    if (rc < 0) {
        fprintf(stderr, "%s\n", tr_nfs_error(r));
        return 1;
    }
    printf("%" PRIu64 " %" PRIu64 " %.3f\n", n, tr_nfs_counter(r, "packets"),
           (double)(cm_now_ns() - t0) / 1e9);
    tr_nfs_close(r);
    return 0;
}
