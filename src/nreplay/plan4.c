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
 * client and the session, its own opens for the traced ones (call4.c),
 * and locks are not replayed.  The
 * stateids the trace shows in use but never made (an OPEN before the
 * capture began) are counted: the opens a replay has to make first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nfs4_prot.h"
#include "common/alloc.h"
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

/* ---- the traced state: stateids made, and those only seen in use ---------- */

/* A stateid's key: a hash of the 12 bytes that name the state (never 0). */
static uint64_t sid_key(const struct tr_nfs4_stateid *sid)
{
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned i;

    for (i = 0; i < sizeof(sid->other); i++)
        h = (h ^ sid->other[i]) * 0x100000001b3ull;
    return h ? h : 1;
}

/* The special stateids (RFC 8881 8.2.3): all zeros (anonymous, and the
 * current stateid's), all ones (READ bypass). */
static int special(const struct tr_nfs4_stateid *sid)
{
    unsigned i, zeros = 0, ones = 0;

    for (i = 0; i < sizeof(sid->other); i++) {
        zeros += sid->other[i] == 0;
        ones += sid->other[i] == 0xff;
    }
    return zeros == sizeof(sid->other) || ones == sizeof(sid->other);
}

/* Adds key to the set; 1 when it was not there, 0 when it was, -ENOMEM. */
static int sid_add(struct nr__v4_state *st, uint64_t key)
{
    uint64_t i;

    if ((st->used + 1) * 2 > st->mask + 1) {
        uint64_t n = st->mask ? (st->mask + 1) * 2 : 256, j, *old = st->seen;
        uint64_t *t = cm_calloc(n, sizeof(*t));

        if (!t)
            return -ENOMEM;
        for (j = 0; old && j <= st->mask; j++) {
            if (!old[j])
                continue;
            for (i = old[j] & (n - 1); t[i]; i = (i + 1) & (n - 1))
                ;
            t[i] = old[j];
        }
        free(old);
        st->seen = t;
        st->mask = n - 1;
    }
    for (i = key & st->mask; st->seen[i]; i = (i + 1) & st->mask)
        if (st->seen[i] == key)
            return 0;
    st->seen[i] = key;
    st->used++;
    return 1;
}

/* The stateids operation op uses and makes: one used that the trace never
 * showed made is state from before the capture (counted once). */
static int follow_state(struct nr__v4_state *st, const struct tr_nfs4_op *op)
{
    int rc = 0;

    switch (op->op) {
    case OP_READ:
    case OP_WRITE:
    case OP_SETATTR:
    case OP_CLOSE:
    case OP_OPEN_CONFIRM:
    case OP_OPEN_DOWNGRADE:
    case OP_LOCK:
    case OP_LOCKU: /* not DELEGRETURN: a delegation is no open */
        if ((op->flags & TR_NFS4_O_STATEID) && !special(&op->stateid) &&
            (rc = sid_add(st, sid_key(&op->stateid))) > 0)
            st->in_use++;
        break;
    default:
        break;
    }
    if (rc >= 0 && (op->flags & TR_NFS4_O_RES_STATEID) && op->status == NFS4_OK)
        rc = sid_add(st, sid_key(&op->res_stateid));
    return rc < 0 ? rc : 0;
}

/* A state key apart from the plan's object keys (below 2^33) and name
 * keys (bit 63 set). */
static uint64_t state_key(uint64_t h, uint64_t tag)
{
    h = (h ^ tag) * 0x100000001b3ull;
    return (h & ~(3ull << 62)) | (1ull << 62);
}

unsigned nr__v4_dep_keys(const struct nr__v4_state *st, uint64_t *keys, int *changes)
{
    const struct tr_nfs4_op *op = st->op;
    unsigned n = 0;

    if (!op)
        return 0;
    switch (op->op) {
    case OP_OPEN:
        if (op->flags & TR_NFS4_O_OWNER) {
            keys[n] = state_key(op->owner, 1);
            changes[n++] = 1;
        }
        if ((op->flags & TR_NFS4_O_RES_STATEID) && !special(&op->res_stateid)) {
            keys[n] = state_key(sid_key(&op->res_stateid), 2);
            changes[n++] = 1;
        }
        break;
    case OP_READ:
    case OP_WRITE:
    case OP_SETATTR:
        if ((op->flags & TR_NFS4_O_STATEID) && !special(&op->stateid)) {
            keys[n] = state_key(sid_key(&op->stateid), 2);
            changes[n++] = 0;
        }
        break;
    default:
        break;
    }
    return n;
}

void nr__v4_state_free(struct nr__v4_state *st)
{
    free(st->seen);
    memset(st, 0, sizeof(*st));
}

/* ---- the calls ------------------------------------------------------------- */

/* Whether operation op of ev ran, as far as the trace shows: its call
 * without a reply, or its result in the reply. */
static int ran(const struct tr_nfs_event *ev, const struct tr_nfs4_op *op)
{
    if (!(ev->flags & TR_NFS_F_REPLY))
        return 1;
    return ev->rpc_status == TR_NFS_RPC_SUCCESS && (op->flags & TR_NFS4_O_RES);
}

int nr__v4_calls(struct nr__v4_state *st, const struct tr_nfs_event *ev,
                 uint64_t *skipped,
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

        if (ran(ev, op) && (rc = follow_state(st, op)) < 0)
            return rc;
        if (tr_nfs4_op_event(ev, i, &o)) {
            if (o.op == NF_OP_GETATTR && others)
                continue; /* the attributes after the call before it */
            st->op = op;
            rc = fn(data, &o);
            st->op = NULL;
            if (rc < 0)
                return rc;
        } else if (!carries(op->op) && ran(ev, op)) {
            skipped[!(op->flags & TR_NFS4_O_ARGS) ? NR_SKIP_CUT
                    : state_op(op->op)            ? NR_SKIP_V4_STATE
                                                  : NR_SKIP_PROC]++;
        }
    }
    return 0;
}
