/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto4.c - NFSv4.1's table of the protocol seam (nf_proto.h): who it is
 * (sfs4, version 4, the SFS 3.0 mix's v3 op set as the compounds of
 * v4_sfs.c, TCP only).  Its session, calls, file and counter hooks are
 * not here yet: until they are, no workload runs over it (each says so in
 * one line; load/workload.h nfs_versions).
 */
#include "nfs/nf_proto.h"

const struct nf_proto nf_proto_v4 = {
    .name = "NFSv4.1",
    .prog = "sfs4",
    .version = 4,
    .sfs_ops = 3,
    .tcp_only = 1,
};
