/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan4.c - which operations of a traced NFSv4 COMPOUND become calls of an
 * NFSv4 plan (nr_int.h), and why the others do not.  An operation with an
 * NFSv3 form (tr_nfs4_op_event: LOOKUP, OPEN by name, CREATE, REMOVE,
 * RENAME, LINK, READ, WRITE, COMMIT, SETATTR, GETATTR, ACCESS, READDIR,
 * READLINK) is a call, planned by v3's rules - objects, names,
 * dependencies, the traced status - but for a GETATTR that follows
 * another call of the same COMPOUND: that one stands for the post-operation
 * attributes v3 replies carry, and is part of its call; the NULL procedure
 * is a call as v3's is.  The handle
 * operations and SEQUENCE only carry the calls; PUTROOTFH is the MNT of
 * "/" (skipped as MOUNT).  The client, session and open state operations
 * (EXCHANGE_ID ... RECLAIM_COMPLETE, OPEN by handle, CLOSE, locks,
 * delegations) are counted apart: the replay's own client stands for the
 * client and the session, and opens and locks are not replayed yet.
 */
#include "nfs4_prot.h"
#include "nreplay/nr_int.h"

/* Operations that only carry the calls: the current and saved handles,
 * the session's slot. */
static int carries(uint32_t op)
{
    switch (op) {
    case OP_PUTFH:
    case OP_PUTPUBFH:
    case OP_PUTROOTFH:
    case OP_GETFH:
    case OP_SAVEFH:
    case OP_RESTOREFH:
    case OP_SEQUENCE:
        return 1;
    default:
        return 0;
    }
}

/* The client's, the session's and the opens' and locks' state. */
static int state_op(uint32_t op)
{
    switch (op) {
    case OP_OPEN:
    case OP_OPEN_CONFIRM:
    case OP_OPEN_DOWNGRADE:
    case OP_CLOSE:
    case OP_LOCK:
    case OP_LOCKT:
    case OP_LOCKU:
    case OP_RELEASE_LOCKOWNER:
    case OP_DELEGRETURN:
    case OP_DELEGPURGE:
    case OP_FREE_STATEID:
    case OP_TEST_STATEID:
    case OP_RENEW:
    case OP_SETCLIENTID:
    case OP_SETCLIENTID_CONFIRM:
    case OP_EXCHANGE_ID:
    case OP_CREATE_SESSION:
    case OP_DESTROY_SESSION:
    case OP_DESTROY_CLIENTID:
    case OP_BIND_CONN_TO_SESSION:
    case OP_RECLAIM_COMPLETE:
        return 1;
    default:
        return 0;
    }
}

/* Whether operation op of ev ran, as far as the trace shows: its call
 * without a reply, or its result in the reply. */
static int ran(const struct tr_nfs_event *ev, const struct tr_nfs4_op *op)
{
    if (!(ev->flags & TR_NFS_F_REPLY))
        return 1;
    return ev->rpc_status == TR_NFS_RPC_SUCCESS && (op->flags & TR_NFS4_O_RES);
}

int nr__v4_calls(const struct tr_nfs_event *ev, uint64_t *skipped,
                 int (*fn)(void *data, const struct tr_nfs_event *call), void *data)
{
    const struct tr_nfs4_compound *c = ev->v4;
    struct tr_nfs_event o;
    uint32_t i;
    int others = 0, rc;

    if (!c) { /* the NULL procedure (a COMPOUND not decoded: the reader's counts) */
        if (ev->proc != 0)
            return 0;
        o = *ev;
        o.op = NF_OP_NULL_OP;
        return fn(data, &o);
    }
    for (i = 0; i < c->nops && !others; i++)
        others = tr_nfs4_op_event(ev, i, &o) && o.op != NF_OP_GETATTR &&
                 o.prog == TR_NFS_PROG_NFS;
    for (i = 0; i < c->nops; i++) {
        const struct tr_nfs4_op *op = &c->ops[i];

        if (tr_nfs4_op_event(ev, i, &o)) {
            if (o.op == NF_OP_GETATTR && others)
                continue; /* the attributes after the call before it */
            if ((rc = fn(data, &o)) < 0)
                return rc;
        } else if (!carries(op->op) && ran(ev, op)) {
            skipped[!(op->flags & TR_NFS4_O_ARGS) ? NR_SKIP_CUT
                    : state_op(op->op)             ? NR_SKIP_V4_STATE
                                                   : NR_SKIP_PROC]++;
        }
    }
    return 0;
}
