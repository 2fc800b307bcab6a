/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * names4.c - the names of NFSv4's operations, callback operations and
 * status values, from the lists of nf4.h.
 */
#include "nfs/nf4.h"

const char *nf4_op_name(uint32_t op)
{
    switch (op) {
#define NF4_OP_NAME(sym)                                                                 \
    case OP_##sym:                                                                       \
        return #sym;
        NF4_OP_MAP(NF4_OP_NAME)
#undef NF4_OP_NAME
    default:
        return NULL;
    }
}

const char *nf4_cb_op_name(uint32_t op)
{
    switch (op) {
#define NF4_CB_NAME(sym)                                                                 \
    case OP_##sym:                                                                       \
        return #sym;
        NF4_CB_OP_MAP(NF4_CB_NAME)
#undef NF4_CB_NAME
    default:
        return NULL;
    }
}

const char *nf4_status_name(uint32_t status)
{
    switch (status) {
#define NF4_STATUS_NAME(sym)                                                             \
    case sym:                                                                            \
        return #sym;
        NF4_STATUS_MAP(NF4_STATUS_NAME)
#undef NF4_STATUS_NAME
    default:
        return "UNKNOWN";
    }
}
