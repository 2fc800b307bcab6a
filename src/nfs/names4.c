/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * names4.c - the names of NFSv4's operations and callback operations
 * (nf4.h), one X-macro list each over the rpcgen constants of
 * nfs4_prot.x (OP_<name>), so that a number and its name cannot disagree.
 */
#include "nfs/nf4.h"
#include "nfs4_prot.h"

/* The operations 3-71 and ILLEGAL: X(name), the number is OP_##name. */
#define NF4_OP_MAP(X)                                                                    \
    X(ACCESS)                                                                            \
    X(CLOSE)                                                                             \
    X(COMMIT)                                                                            \
    X(CREATE)                                                                            \
    X(DELEGPURGE)                                                                        \
    X(DELEGRETURN)                                                                       \
    X(GETATTR)                                                                           \
    X(GETFH)                                                                             \
    X(LINK)                                                                              \
    X(LOCK)                                                                              \
    X(LOCKT)                                                                             \
    X(LOCKU)                                                                             \
    X(LOOKUP)                                                                            \
    X(LOOKUPP)                                                                           \
    X(NVERIFY)                                                                           \
    X(OPEN)                                                                              \
    X(OPENATTR)                                                                          \
    X(OPEN_CONFIRM)                                                                      \
    X(OPEN_DOWNGRADE)                                                                    \
    X(PUTFH)                                                                             \
    X(PUTPUBFH)                                                                          \
    X(PUTROOTFH)                                                                         \
    X(READ)                                                                              \
    X(READDIR)                                                                           \
    X(READLINK)                                                                          \
    X(REMOVE)                                                                            \
    X(RENAME)                                                                            \
    X(RENEW)                                                                             \
    X(RESTOREFH)                                                                         \
    X(SAVEFH)                                                                            \
    X(SECINFO)                                                                           \
    X(SETATTR)                                                                           \
    X(SETCLIENTID)                                                                       \
    X(SETCLIENTID_CONFIRM)                                                               \
    X(VERIFY)                                                                            \
    X(WRITE)                                                                             \
    X(RELEASE_LOCKOWNER)                                                                 \
    X(BACKCHANNEL_CTL)                                                                   \
    X(BIND_CONN_TO_SESSION)                                                              \
    X(EXCHANGE_ID)                                                                       \
    X(CREATE_SESSION)                                                                    \
    X(DESTROY_SESSION)                                                                   \
    X(FREE_STATEID)                                                                      \
    X(GET_DIR_DELEGATION)                                                                \
    X(GETDEVICEINFO)                                                                     \
    X(GETDEVICELIST)                                                                     \
    X(LAYOUTCOMMIT)                                                                      \
    X(LAYOUTGET)                                                                         \
    X(LAYOUTRETURN)                                                                      \
    X(SECINFO_NO_NAME)                                                                   \
    X(SEQUENCE)                                                                          \
    X(SET_SSV)                                                                           \
    X(TEST_STATEID)                                                                      \
    X(WANT_DELEGATION)                                                                   \
    X(DESTROY_CLIENTID)                                                                  \
    X(RECLAIM_COMPLETE)                                                                  \
    X(ALLOCATE)                                                                          \
    X(COPY)                                                                              \
    X(COPY_NOTIFY)                                                                       \
    X(DEALLOCATE)                                                                        \
    X(IO_ADVISE)                                                                         \
    X(LAYOUTERROR)                                                                       \
    X(LAYOUTSTATS)                                                                       \
    X(OFFLOAD_CANCEL)                                                                    \
    X(OFFLOAD_STATUS)                                                                    \
    X(READ_PLUS)                                                                         \
    X(SEEK)                                                                              \
    X(WRITE_SAME)                                                                        \
    X(CLONE)                                                                             \
    X(ILLEGAL)

/* The callback operations 3-15 and CB_ILLEGAL (OP_##name). */
#define NF4_CB_OP_MAP(X)                                                                 \
    X(CB_GETATTR)                                                                        \
    X(CB_RECALL)                                                                         \
    X(CB_LAYOUTRECALL)                                                                   \
    X(CB_NOTIFY)                                                                         \
    X(CB_PUSH_DELEG)                                                                     \
    X(CB_RECALL_ANY)                                                                     \
    X(CB_RECALLABLE_OBJ_AVAIL)                                                           \
    X(CB_RECALL_SLOT)                                                                    \
    X(CB_SEQUENCE)                                                                       \
    X(CB_WANTS_CANCELLED)                                                                \
    X(CB_NOTIFY_LOCK)                                                                    \
    X(CB_NOTIFY_DEVICEID)                                                                \
    X(CB_OFFLOAD)                                                                        \
    X(CB_ILLEGAL)

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
