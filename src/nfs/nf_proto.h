/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_proto.h - the NFS protocols FreeSFS speaks, one table each (proto.c),
 * as the rpc layer's transports are: what a protocol is - its name, the
 * program that speaks it (sfs, sfs3, sfs4), its version of NFS's RPC program and
 * the SFS op set its mix uses - so that the programs, the prime and the
 * messages take a protocol from this list and never ask "version 3?".  A
 * new protocol is one more table and one more line in proto.c
 * (docs/ARCHITECTURE.md, "Where NFSv4.1 plugs in").
 */
#ifndef NF_PROTO_H
#define NF_PROTO_H

#include <stddef.h>

struct nf_proto {
    const char *name; /* "NFSv3" */
    const char *prog; /* the program that speaks it: "sfs3" */
    int version;      /* of program 100003 */
    int sfs_ops;      /* the SFS op set its mix uses (nf_op_in_version's 2 or 3) */
    int tcp_only;     /* runs over TCP only (NFSv4: RFC 8881 asks a congestion-
                         controlled transport): TCP implied, UDP refused */
};

/* The protocol of an RPC version, or of the name of the program that
 * speaks it; NULL when none. */
const struct nf_proto *nf_proto_by_version(int version);
const struct nf_proto *nf_proto_by_prog(const char *prog);
/* Every protocol, in version order: the i-th, NULL past the last. */
const struct nf_proto *nf_proto_nth(size_t i);
/* The lowest and highest version of them. */
void nf_proto_versions(int *lo, int *hi);

#endif /* NF_PROTO_H */
