/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * status4.c - the names of NFSv4's statuses (nfs layer, nf4.h): one table
 * from nfsstat4 in nfs4_prot.x, read both ways.
 */
#include "nfs/nf4.h"
#include "common/cm.h"
#include "nfs4_prot.h"

#include <strings.h>

#define S(name)                                                                          \
    {                                                                                    \
#name, NFS4ERR_##name                                                            \
    }
static const struct {
    const char *name;
    uint32_t value;
} names[] = {
    {"OK", NFS4_OK},
    S(PERM),
    S(NOENT),
    S(IO),
    S(NXIO),
    S(ACCESS),
    S(EXIST),
    S(XDEV),
    S(NOTDIR),
    S(ISDIR),
    S(INVAL),
    S(FBIG),
    S(NOSPC),
    S(ROFS),
    S(MLINK),
    S(NAMETOOLONG),
    S(NOTEMPTY),
    S(DQUOT),
    S(STALE),
    S(BADHANDLE),
    S(BAD_COOKIE),
    S(NOTSUPP),
    S(TOOSMALL),
    S(SERVERFAULT),
    S(BADTYPE),
    S(DELAY),
    S(SAME),
    S(DENIED),
    S(EXPIRED),
    S(LOCKED),
    S(GRACE),
    S(FHEXPIRED),
    S(SHARE_DENIED),
    S(WRONGSEC),
    S(CLID_INUSE),
    S(RESOURCE),
    S(MOVED),
    S(NOFILEHANDLE),
    S(MINOR_VERS_MISMATCH),
    S(STALE_CLIENTID),
    S(STALE_STATEID),
    S(OLD_STATEID),
    S(BAD_STATEID),
    S(BAD_SEQID),
    S(NOT_SAME),
    S(LOCK_RANGE),
    S(SYMLINK),
    S(RESTOREFH),
    S(LEASE_MOVED),
    S(ATTRNOTSUPP),
    S(NO_GRACE),
    S(RECLAIM_BAD),
    S(RECLAIM_CONFLICT),
    S(BADXDR),
    S(LOCKS_HELD),
    S(OPENMODE),
    S(BADOWNER),
    S(BADCHAR),
    S(BADNAME),
    S(BAD_RANGE),
    S(LOCK_NOTSUPP),
    S(OP_ILLEGAL),
    S(DEADLOCK),
    S(FILE_OPEN),
    S(ADMIN_REVOKED),
    S(CB_PATH_DOWN),
    S(BADIOMODE),
    S(BADLAYOUT),
    S(BAD_SESSION_DIGEST),
    S(BADSESSION),
    S(BADSLOT),
    S(COMPLETE_ALREADY),
    S(CONN_NOT_BOUND_TO_SESSION),
    S(DELEG_ALREADY_WANTED),
    S(BACK_CHAN_BUSY),
    S(LAYOUTTRYLATER),
    S(LAYOUTUNAVAILABLE),
    S(NOMATCHING_LAYOUT),
    S(RECALLCONFLICT),
    S(UNKNOWN_LAYOUTTYPE),
    S(SEQ_MISORDERED),
    S(SEQUENCE_POS),
    S(REQ_TOO_BIG),
    S(REP_TOO_BIG),
    S(REP_TOO_BIG_TO_CACHE),
    S(RETRY_UNCACHED_REP),
    S(UNSAFE_COMPOUND),
    S(TOO_MANY_OPS),
    S(OP_NOT_IN_SESSION),
    S(HASH_ALG_UNSUPP),
    S(CLIENTID_BUSY),
    S(PNFS_IO_HOLE),
    S(SEQ_FALSE_RETRY),
    S(BAD_HIGH_SLOT),
    S(DEADSESSION),
    S(ENCR_ALG_UNSUPP),
    S(PNFS_NO_LAYOUT),
    S(NOT_ONLY_OP),
    S(WRONG_CRED),
    S(WRONG_TYPE),
    S(DIRDELEG_UNAVAIL),
    S(REJECT_DELEG),
    S(RETURNCONFLICT),
    S(DELEG_REVOKED),
    /* NFSv4.2's (RFC 7863) */
    S(PARTNER_NOTSUPP),
    S(PARTNER_NO_AUTH),
    S(UNION_NOTSUPP),
    S(OFFLOAD_DENIED),
    S(WRONG_LFS),
    S(BADLABEL),
    S(OFFLOAD_NO_REQS),
};

const char *nf4_status_name(uint32_t status)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(names); i++)
        if (names[i].value == status)
            return names[i].name;
    return "UNKNOWN";
}

int nf4_status_value(const char *name, uint32_t *status)
{
    if (strncasecmp(name, "NFS4ERR_", 8) == 0)
        name += 8;
    for (size_t i = 0; i < CM_ARRAY_LEN(names); i++)
        if (strcasecmp(names[i].name, name) == 0) {
            *status = names[i].value;
            return 0;
        }
    return -1;
}
