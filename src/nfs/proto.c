/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto.c - the list of the NFS protocols FreeSFS speaks (nf_proto.h), in
 * version order and without a gap (the prime's NFS_VERSION takes any
 * version from the first to the last).
 */
#include <string.h>

#include "common/cm.h"
#include "nfs/nf_proto.h"

static const struct nf_proto protos[] = {
    {"NFSv2", "sfs", 2, 2, 0},
    {"NFSv3", "sfs3", 3, 3, 0},
    {"NFSv4.1", "sfs4", 4, 3, 1}, /* the SFS 3.0 mix's v3 ops as v4 compounds */
};

const struct nf_proto *nf_proto_nth(size_t i)
{
    return i < CM_ARRAY_LEN(protos) ? &protos[i] : NULL;
}

const struct nf_proto *nf_proto_by_version(int version)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(protos); i++)
        if (protos[i].version == version)
            return &protos[i];
    return NULL;
}

const struct nf_proto *nf_proto_by_prog(const char *prog)
{
    size_t i;

    for (i = 0; prog && i < CM_ARRAY_LEN(protos); i++)
        if (strcmp(protos[i].prog, prog) == 0)
            return &protos[i];
    return NULL;
}

void nf_proto_versions(int *lo, int *hi)
{
    *lo = protos[0].version;
    *hi = protos[CM_ARRAY_LEN(protos) - 1].version;
}
