/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4.h - NFSv4 names (nfs layer): the operations, the callback
 * operations and the status values of src/nfs/proto/nfs4_prot.x as the
 * RFCs and tshark write them ("PUTFH", "CB_RECALL", "NFS4ERR_NOENT").  One
 * X-macro list each, over the rpcgen constants (OP_<name>, NFS4<name>), so
 * that a number and its name cannot disagree; NFSv4.2's go at each list's
 * end with the XDR's.
 */
#ifndef NF4_H
#define NF4_H

#include <stdint.h>

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

/* nfsstat4: X(symbol). */
#define NF4_STATUS_MAP(X)                                                                \
    X(NFS4_OK)                                                                           \
    X(NFS4ERR_PERM)                                                                      \
    X(NFS4ERR_NOENT)                                                                     \
    X(NFS4ERR_IO)                                                                        \
    X(NFS4ERR_NXIO)                                                                      \
    X(NFS4ERR_ACCESS)                                                                    \
    X(NFS4ERR_EXIST)                                                                     \
    X(NFS4ERR_XDEV)                                                                      \
    X(NFS4ERR_NOTDIR)                                                                    \
    X(NFS4ERR_ISDIR)                                                                     \
    X(NFS4ERR_INVAL)                                                                     \
    X(NFS4ERR_FBIG)                                                                      \
    X(NFS4ERR_NOSPC)                                                                     \
    X(NFS4ERR_ROFS)                                                                      \
    X(NFS4ERR_MLINK)                                                                     \
    X(NFS4ERR_NAMETOOLONG)                                                               \
    X(NFS4ERR_NOTEMPTY)                                                                  \
    X(NFS4ERR_DQUOT)                                                                     \
    X(NFS4ERR_STALE)                                                                     \
    X(NFS4ERR_BADHANDLE)                                                                 \
    X(NFS4ERR_BAD_COOKIE)                                                                \
    X(NFS4ERR_NOTSUPP)                                                                   \
    X(NFS4ERR_TOOSMALL)                                                                  \
    X(NFS4ERR_SERVERFAULT)                                                               \
    X(NFS4ERR_BADTYPE)                                                                   \
    X(NFS4ERR_DELAY)                                                                     \
    X(NFS4ERR_SAME)                                                                      \
    X(NFS4ERR_DENIED)                                                                    \
    X(NFS4ERR_EXPIRED)                                                                   \
    X(NFS4ERR_LOCKED)                                                                    \
    X(NFS4ERR_GRACE)                                                                     \
    X(NFS4ERR_FHEXPIRED)                                                                 \
    X(NFS4ERR_SHARE_DENIED)                                                              \
    X(NFS4ERR_WRONGSEC)                                                                  \
    X(NFS4ERR_CLID_INUSE)                                                                \
    X(NFS4ERR_RESOURCE)                                                                  \
    X(NFS4ERR_MOVED)                                                                     \
    X(NFS4ERR_NOFILEHANDLE)                                                              \
    X(NFS4ERR_MINOR_VERS_MISMATCH)                                                       \
    X(NFS4ERR_STALE_CLIENTID)                                                            \
    X(NFS4ERR_STALE_STATEID)                                                             \
    X(NFS4ERR_OLD_STATEID)                                                               \
    X(NFS4ERR_BAD_STATEID)                                                               \
    X(NFS4ERR_BAD_SEQID)                                                                 \
    X(NFS4ERR_NOT_SAME)                                                                  \
    X(NFS4ERR_LOCK_RANGE)                                                                \
    X(NFS4ERR_SYMLINK)                                                                   \
    X(NFS4ERR_RESTOREFH)                                                                 \
    X(NFS4ERR_LEASE_MOVED)                                                               \
    X(NFS4ERR_ATTRNOTSUPP)                                                               \
    X(NFS4ERR_NO_GRACE)                                                                  \
    X(NFS4ERR_RECLAIM_BAD)                                                               \
    X(NFS4ERR_RECLAIM_CONFLICT)                                                          \
    X(NFS4ERR_BADXDR)                                                                    \
    X(NFS4ERR_LOCKS_HELD)                                                                \
    X(NFS4ERR_OPENMODE)                                                                  \
    X(NFS4ERR_BADOWNER)                                                                  \
    X(NFS4ERR_BADCHAR)                                                                   \
    X(NFS4ERR_BADNAME)                                                                   \
    X(NFS4ERR_BAD_RANGE)                                                                 \
    X(NFS4ERR_LOCK_NOTSUPP)                                                              \
    X(NFS4ERR_OP_ILLEGAL)                                                                \
    X(NFS4ERR_DEADLOCK)                                                                  \
    X(NFS4ERR_FILE_OPEN)                                                                 \
    X(NFS4ERR_ADMIN_REVOKED)                                                             \
    X(NFS4ERR_CB_PATH_DOWN)                                                              \
    X(NFS4ERR_BADIOMODE)                                                                 \
    X(NFS4ERR_BADLAYOUT)                                                                 \
    X(NFS4ERR_BAD_SESSION_DIGEST)                                                        \
    X(NFS4ERR_BADSESSION)                                                                \
    X(NFS4ERR_BADSLOT)                                                                   \
    X(NFS4ERR_COMPLETE_ALREADY)                                                          \
    X(NFS4ERR_CONN_NOT_BOUND_TO_SESSION)                                                 \
    X(NFS4ERR_DELEG_ALREADY_WANTED)                                                      \
    X(NFS4ERR_BACK_CHAN_BUSY)                                                            \
    X(NFS4ERR_LAYOUTTRYLATER)                                                            \
    X(NFS4ERR_LAYOUTUNAVAILABLE)                                                         \
    X(NFS4ERR_NOMATCHING_LAYOUT)                                                         \
    X(NFS4ERR_RECALLCONFLICT)                                                            \
    X(NFS4ERR_UNKNOWN_LAYOUTTYPE)                                                        \
    X(NFS4ERR_SEQ_MISORDERED)                                                            \
    X(NFS4ERR_SEQUENCE_POS)                                                              \
    X(NFS4ERR_REQ_TOO_BIG)                                                               \
    X(NFS4ERR_REP_TOO_BIG)                                                               \
    X(NFS4ERR_REP_TOO_BIG_TO_CACHE)                                                      \
    X(NFS4ERR_RETRY_UNCACHED_REP)                                                        \
    X(NFS4ERR_UNSAFE_COMPOUND)                                                           \
    X(NFS4ERR_TOO_MANY_OPS)                                                              \
    X(NFS4ERR_OP_NOT_IN_SESSION)                                                         \
    X(NFS4ERR_HASH_ALG_UNSUPP)                                                           \
    X(NFS4ERR_CLIENTID_BUSY)                                                             \
    X(NFS4ERR_PNFS_IO_HOLE)                                                              \
    X(NFS4ERR_SEQ_FALSE_RETRY)                                                           \
    X(NFS4ERR_BAD_HIGH_SLOT)                                                             \
    X(NFS4ERR_DEADSESSION)                                                               \
    X(NFS4ERR_ENCR_ALG_UNSUPP)                                                           \
    X(NFS4ERR_PNFS_NO_LAYOUT)                                                            \
    X(NFS4ERR_NOT_ONLY_OP)                                                               \
    X(NFS4ERR_WRONG_CRED)                                                                \
    X(NFS4ERR_WRONG_TYPE)                                                                \
    X(NFS4ERR_DIRDELEG_UNAVAIL)                                                          \
    X(NFS4ERR_REJECT_DELEG)                                                              \
    X(NFS4ERR_RETURNCONFLICT)                                                            \
    X(NFS4ERR_DELEG_REVOKED)

/* An operation's name ("PUTFH"), or NULL for a number no list holds. */
const char *nf4_op_name(uint32_t op);
/* A callback operation's name ("CB_RECALL"), or NULL. */
const char *nf4_cb_op_name(uint32_t op);
/* A status's name ("NFS4_OK", "NFS4ERR_NOENT"), or "UNKNOWN". */
const char *nf4_status_name(uint32_t status);

#endif /* NF4_H */
