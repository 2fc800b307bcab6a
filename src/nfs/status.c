/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * status.c - NFS status names and their errno mapping (nfs layer), both
 * generated from the one NF_STATUS_MAP list in nf.h, as libuv's
 * UV_ERRNO_MAP generates its names and messages.
 */
#include "nfs/nf.h"

const char *nf_status_name(uint32_t status)
{
    switch (status) {
#define NF_STATUS_NAME(sym, num, err)                                                    \
    case num:                                                                            \
        return #sym;
        NF_STATUS_MAP(NF_STATUS_NAME)
#undef NF_STATUS_NAME
    default:
        return "UNKNOWN";
    }
}

int nf_status_errno(uint32_t status)
{
    switch (status) {
#define NF_STATUS_ERRNO(sym, num, err)                                                   \
    case num:                                                                            \
        return -(err);
        NF_STATUS_MAP(NF_STATUS_ERRNO)
#undef NF_STATUS_ERRNO
    default:
        return -EIO;
    }
}
