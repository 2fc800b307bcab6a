/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_names.c - the names of NFSv4 statuses and operations (nf4.h), for
 * messages, reports and the per-operation counts.  The numbers are
 * rpcgen's constants from proto/nfs4_prot.x, never typed again here; the
 * names are the constants' without their NFS4ERR_ and OP_ prefixes.
 */
#include "common/cm.h"
#include "nfs/nf4.h"

/* Every nfsstat4 but NFS4_OK, in the order of their numbers. */
#define NF4_ERRORS(X)                                                                    \
    X(PERM)                                                                              \
    X(NOENT)                                                                             \
    X(IO)                                                                                \
    X(NXIO)                                                                              \
    X(ACCESS)                                                                            \
    X(EXIST)                                                                             \
    X(XDEV)                                                                              \
    X(NOTDIR)                                                                            \
    X(ISDIR)                                                                             \
    X(INVAL)                                                                             \
    X(FBIG)                                                                              \
    X(NOSPC)                                                                             \
    X(ROFS)                                                                              \
    X(MLINK)                                                                             \
    X(NAMETOOLONG)                                                                       \
    X(NOTEMPTY)                                                                          \
    X(DQUOT)                                                                             \
    X(STALE)                                                                             \
    X(BADHANDLE)                                                                         \
    X(BAD_COOKIE)                                                                        \
    X(NOTSUPP)                                                                           \
    X(TOOSMALL)                                                                          \
    X(SERVERFAULT)                                                                       \
    X(BADTYPE)                                                                           \
    X(DELAY)                                                                             \
    X(SAME)                                                                              \
    X(DENIED)                                                                            \
    X(EXPIRED)                                                                           \
    X(LOCKED)                                                                            \
    X(GRACE)                                                                             \
    X(FHEXPIRED)                                                                         \
    X(SHARE_DENIED)                                                                      \
    X(WRONGSEC)                                                                          \
    X(CLID_INUSE)                                                                        \
    X(RESOURCE)                                                                          \
    X(MOVED)                                                                             \
    X(NOFILEHANDLE)                                                                      \
    X(MINOR_VERS_MISMATCH)                                                               \
    X(STALE_CLIENTID)                                                                    \
    X(STALE_STATEID)                                                                     \
    X(OLD_STATEID)                                                                       \
    X(BAD_STATEID)                                                                       \
    X(BAD_SEQID)                                                                         \
    X(NOT_SAME)                                                                          \
    X(LOCK_RANGE)                                                                        \
    X(SYMLINK)                                                                           \
    X(RESTOREFH)                                                                         \
    X(LEASE_MOVED)                                                                       \
    X(ATTRNOTSUPP)                                                                       \
    X(NO_GRACE)                                                                          \
    X(RECLAIM_BAD)                                                                       \
    X(RECLAIM_CONFLICT)                                                                  \
    X(BADXDR)                                                                            \
    X(LOCKS_HELD)                                                                        \
    X(OPENMODE)                                                                          \
    X(BADOWNER)                                                                          \
    X(BADCHAR)                                                                           \
    X(BADNAME)                                                                           \
    X(BAD_RANGE)                                                                         \
    X(LOCK_NOTSUPP)                                                                      \
    X(OP_ILLEGAL)                                                                        \
    X(DEADLOCK)                                                                          \
    X(FILE_OPEN)                                                                         \
    X(ADMIN_REVOKED)                                                                     \
    X(CB_PATH_DOWN)                                                                      \
    X(BADIOMODE)                                                                         \
    X(BADLAYOUT)                                                                         \
    X(BAD_SESSION_DIGEST)                                                                \
    X(BADSESSION)                                                                        \
    X(BADSLOT)                                                                           \
    X(COMPLETE_ALREADY)                                                                  \
    X(CONN_NOT_BOUND_TO_SESSION)                                                         \
    X(DELEG_ALREADY_WANTED)                                                              \
    X(BACK_CHAN_BUSY)                                                                    \
    X(LAYOUTTRYLATER)                                                                    \
    X(LAYOUTUNAVAILABLE)                                                                 \
    X(NOMATCHING_LAYOUT)                                                                 \
    X(RECALLCONFLICT)                                                                    \
    X(UNKNOWN_LAYOUTTYPE)                                                                \
    X(SEQ_MISORDERED)                                                                    \
    X(SEQUENCE_POS)                                                                      \
    X(REQ_TOO_BIG)                                                                       \
    X(REP_TOO_BIG)                                                                       \
    X(REP_TOO_BIG_TO_CACHE)                                                              \
    X(RETRY_UNCACHED_REP)                                                                \
    X(UNSAFE_COMPOUND)                                                                   \
    X(TOO_MANY_OPS)                                                                      \
    X(OP_NOT_IN_SESSION)                                                                 \
    X(HASH_ALG_UNSUPP)                                                                   \
    X(CLIENTID_BUSY)                                                                     \
    X(PNFS_IO_HOLE)                                                                      \
    X(SEQ_FALSE_RETRY)                                                                   \
    X(BAD_HIGH_SLOT)                                                                     \
    X(DEADSESSION)                                                                       \
    X(ENCR_ALG_UNSUPP)                                                                   \
    X(PNFS_NO_LAYOUT)                                                                    \
    X(NOT_ONLY_OP)                                                                       \
    X(WRONG_CRED)                                                                        \
    X(WRONG_TYPE)                                                                        \
    X(DIRDELEG_UNAVAIL)                                                                  \
    X(REJECT_DELEG)                                                                      \
    X(RETURNCONFLICT)                                                                    \
    X(DELEG_REVOKED)

/* Every operation, in the order of their numbers (ILLEGAL apart). */
#define NF4_OPS(X)                                                                       \
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
    X(RECLAIM_COMPLETE)

struct status_name {
    uint32_t num;
    const char *name;
};

static const struct status_name statuses[] = {{NFS4_OK, "OK"},
#define NF4_STATUS_ROW(sym) {NFS4ERR_##sym, #sym},
                                              NF4_ERRORS(NF4_STATUS_ROW)
#undef NF4_STATUS_ROW
};

static const char *const op_names[OP_RECLAIM_COMPLETE + 1] = {
#define NF4_OP_ROW(sym) [OP_##sym] = #sym,
    NF4_OPS(NF4_OP_ROW)
#undef NF4_OP_ROW
};

const char *nf4_status_name(uint32_t status)
{
    size_t lo = 0, hi = CM_ARRAY_LEN(statuses);

    while (lo < hi) { /* the rows are in the order of their numbers */
        size_t mid = (lo + hi) / 2;

        if (statuses[mid].num == status)
            return statuses[mid].name;
        if (statuses[mid].num < status)
            lo = mid + 1;
        else
            hi = mid;
    }
    return "UNKNOWN";
}

const char *nf4_op_name(uint32_t op)
{
    if (op == OP_ILLEGAL)
        return "ILLEGAL";
    return op < CM_ARRAY_LEN(op_names) ? op_names[op] : NULL;
}

const char *nf4_compound_shape(const struct nf4_compound *c, char *buf, size_t len)
{
    size_t used = 0;
    u_int i;

    if (len)
        buf[0] = '\0';
    for (i = 0; i < c->args.argarray.argarray_len && used < len; i++) {
        const char *n = nf4_op_name(c->op[i].argop);
        int k = snprintf(buf + used, len - used, "%s%s", i ? " " : "", n ? n : "?");

        used += k > 0 ? (size_t)k : 0;
    }
    return buf;
}
