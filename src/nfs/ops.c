/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ops.c - names, call classes and version membership of the SFS op numbers
 * (nfs layer), all derived from the one NF_OP_MAP table in nf_ops.h.
 */
#include "nfs/nf_ops.h"
#include "nfs/nf_proto.h"

#include <string.h>

static const char *const op_names[NF_NOPS + 1] = {
#define NF_OP_NAME(sym, num, name, cls) [num] = name,
    NF_OP_MAP(NF_OP_NAME)
#undef NF_OP_NAME
        [NF_OP_TOTAL] = "TOTAL",
};

static const enum nf_call_class op_classes[NF_NOPS] = {
#define NF_OP_CLASS(sym, num, name, cls) [num] = NF_CLASS_##cls,
    NF_OP_MAP(NF_OP_CLASS)
#undef NF_OP_CLASS
};

const char *nf_op_name(int op)
{
    if (op < 0 || op > NF_OP_TOTAL)
        return NULL;
    return op_names[op];
}

int nf_op_from_name(const char *name)
{
    int op;

    for (op = 0; op < NF_NOPS; op++)
        if (strcmp(op_names[op], name) == 0)
            return op;
    return -1;
}

enum nf_call_class nf_op_class(int op)
{
    if (op < 0 || op >= NF_NOPS)
        return NF_CLASS_LOOKUP;
    return op_classes[op];
}

int nf_op_in_version(int op, int nfs_version)
{
    /* a protocol's mix uses one of SFS's two op sets (NFSv4.1: v3's) */
    const struct nf_proto *p = nf_proto_by_version(nfs_version);

    if (p)
        nfs_version = p->sfs_ops;
    switch (op) {
    case NF_OP_ACCESS:
    case NF_OP_COMMIT:
    case NF_OP_FSINFO:
    case NF_OP_MKNOD:
    case NF_OP_PATHCONF:
    case NF_OP_READDIRPLUS:
        return nfs_version == 3;
    case NF_OP_ROOT:
    case NF_OP_WRCACHE:
        return nfs_version == 2;
    default:
        return op >= 0 && op < NF_NOPS;
    }
}

uint32_t nf_class_timeout_ms(enum nf_call_class cls, int tcp)
{
    if (tcp)
        return 60000;
    switch (cls) {
    case NF_CLASS_INIT:
        return 10000;
    case NF_CLASS_READ:
        return 2000;
    case NF_CLASS_WRITE:
        return 3000;
    case NF_CLASS_LOOKUP:
    default:
        return 1000;
    }
}
