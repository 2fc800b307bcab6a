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
 * delegations) are counted apart: the replay's own client for each
 * traced client stands for the client and the session.  Each COMPOUND's
 * traced client (its session's, the client id it names, else its TCP
 * connection's first: learnt in the image's pass, nr__v4_learn) is its
 * stream, so that the replay gives each one a client of its own.  The
 * traced open and lock state is followed:
 * each traced stateid gets a slot (an open's from the OPEN that made it,
 * or its first use, to its CLOSE; a lock's from its LOCK on) that the
 * OPEN's call, the READs, WRITEs and SETATTRs using it, its CLOSE and its
 * locks name, so that the replay maps the traced stateid to the one its
 * own OPEN or LOCK got; each open and lock owner a number, so that the
 * replay's OPENs and LOCKs go with an owner of their own per traced one.
 * The CLOSEs, the OPENs by handle and the LOCKs, LOCKUs and LOCKTs become
 * state records of the stream (still counted as v4_state, not as calls),
 * which the replay sends at their traced place.  The stateids the trace shows
 * in use but never made (an OPEN before the capture began) are counted:
 * the opens a replay has to make first.
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

/* ---- slots and owners ------------------------------------------------------- */

static uint64_t map_mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
}

/* The entry of key in m (its value NR_NONE when new or dropped), or NULL
 * when out of memory.  A growth keeps the live entries only. */
static uint32_t *map_at(struct nr__v4_map *m, uint64_t key)
{
    uint64_t i;

    if ((m->used + 1) * 2 > m->mask + 1) {
        uint64_t n = m->mask ? m->mask + 1 : 256, j, live = 0, *k;
        uint32_t *v;

        for (j = 0; m->key && j <= m->mask; j++)
            live += m->key[j] && m->val[j] != NR_NONE;
        while ((live + 1) * 4 > n)
            n *= 2;
        k = cm_calloc(n, sizeof(*k));
        v = cm_calloc(n, sizeof(*v));
        if (!k || !v) {
            free(k);
            free(v);
            return NULL;
        }
        m->used = 0;
        for (j = 0; m->key && j <= m->mask; j++) {
            if (!m->key[j] || m->val[j] == NR_NONE)
                continue;
            for (i = map_mix(m->key[j]) & (n - 1); k[i]; i = (i + 1) & (n - 1))
                ;
            k[i] = m->key[j];
            v[i] = m->val[j];
            m->used++;
        }
        free(m->key);
        free(m->val);
        m->key = k;
        m->val = v;
        m->mask = n - 1;
    }
    for (i = map_mix(key) & m->mask; m->key[i]; i = (i + 1) & m->mask)
        if (m->key[i] == key)
            return &m->val[i];
    m->key[i] = key;
    m->val[i] = NR_NONE;
    m->used++;
    return &m->val[i];
}

/* The number of open owner h (1, 2, ... in the order the trace shows
 * them), 0 when out of memory. */
static uint32_t owner_num(struct nr__v4_state *st, uint64_t h)
{
    uint32_t *v = map_at(&st->owners, h ? h : 1);

    if (!v)
        return 0;
    if (*v == NR_NONE)
        *v = ++st->nowners;
    return *v;
}

/* The slot of traced stateid key: its own, or a free one given to it (of
 * owner).  NR_NONE when out of memory (*oom set). */
static uint32_t slot_of(struct nr__v4_state *st, uint64_t key, uint32_t owner, int *oom)
{
    uint32_t *v = map_at(&st->sids, key), s;

    if (!v) {
        *oom = 1;
        return NR_NONE;
    }
    if (*v != NR_NONE)
        return *v;
    if (st->nfree > 0) {
        s = st->free[--st->nfree];
    } else {
        if (st->nslots == st->cap_slots) {
            uint32_t cap = st->cap_slots ? st->cap_slots * 2 : 64;
            uint32_t *o = cm_reallocarray(st->slot_owner, cap, sizeof(*o));

            if (!o) {
                *oom = 1;
                return NR_NONE;
            }
            st->slot_owner = o;
            o = cm_reallocarray(st->free, cap, sizeof(*o));
            if (!o) {
                *oom = 1;
                return NR_NONE;
            }
            st->free = o;
            st->cap_slots = cap;
        }
        s = st->nslots++;
    }
    st->slot_owner[s] = owner;
    *v = s;
    return s;
}

/* The traced CLOSE of key's state: its slot is free for the next. */
static void slot_free(struct nr__v4_state *st, uint64_t key)
{
    uint32_t *v = map_at(&st->sids, key);

    if (v && *v != NR_NONE) {
        st->free[st->nfree++] = *v;
        *v = NR_NONE;
    }
}

static int by_name(uint32_t claim)
{
    return claim == CLAIM_NULL || claim == CLAIM_DELEGATE_CUR ||
           claim == CLAIM_DELEGATE_PREV;
}

/* The state of operation op (it ran) into st: the slot it makes and the
 * one it uses, its owner, and whether it is a state record.  -ENOMEM. */
static int op_state(struct nr__v4_state *st, const struct tr_nfs4_op *op)
{
    int oom = 0;

    st->kind = st->share = NR_V4_CALL;
    st->sid = st->res_sid = NR_NONE;
    st->owner = 0;
    switch (op->op) {
    case OP_OPEN:
        st->share = (uint8_t)((op->share_access & 3u) | (op->share_deny & 3u) << 2);
        if (op->flags & TR_NFS4_O_OWNER)
            st->owner = owner_num(st, op->owner);
        /* an OPEN the traced server refused (or whose reply is not there)
         * gets a slot no stateid names: the replayed one may succeed, and
         * its open is CLOSEd at the end */
        st->res_sid = slot_of(st,
                              (op->flags & TR_NFS4_O_RES_STATEID) &&
                                      op->status == NFS4_OK && !special(&op->res_stateid)
                                  ? sid_key(&op->res_stateid)
                                  : (1ull << 63) | ++st->unnamed,
                              st->owner, &oom);
        if (!by_name(op->claim))
            st->kind = NR_V4_OPEN;
        break;
    case OP_CLOSE:
    case OP_OPEN_DOWNGRADE: /* its stateid stays the open's: the same slot */
    case OP_READ:
    case OP_WRITE:
    case OP_SETATTR:
        if ((op->flags & TR_NFS4_O_STATEID) && !special(&op->stateid)) {
            st->sid = slot_of(st, sid_key(&op->stateid), 0, &oom);
            if (op->op == OP_CLOSE)
                st->kind = NR_V4_CLOSE;
        }
        if (op->op == OP_OPEN_DOWNGRADE && st->sid != NR_NONE) {
            st->kind = NR_V4_DOWNGRADE;
            st->share = (uint8_t)((op->share_access & 3u) | (op->share_deny & 3u) << 2);
        }
        break;
    case OP_LOCK:
    case OP_LOCKU:
    case OP_LOCKT:
        /* a lock owner is numbered with the open owners, apart from them */
        st->kind = op->op == OP_LOCK    ? NR_V4_LOCK
                   : op->op == OP_LOCKU ? NR_V4_LOCKU
                                        : NR_V4_LOCKT;
        if (op->flags & TR_NFS4_O_OWNER) /* LOCKT's, a LOCK's new lock owner */
            st->owner = owner_num(st, op->owner ^ 0x4c4f434b4f574e52ull);
        if (op->op != OP_LOCKT && (op->flags & TR_NFS4_O_STATEID) &&
            !special(&op->stateid))
            st->sid = slot_of(st, sid_key(&op->stateid), 0, &oom);
        if (op->op == OP_LOCK && (op->flags & TR_NFS4_O_RES_STATEID) &&
            op->status == NFS4_OK && !special(&op->res_stateid))
            st->res_sid = slot_of(st, sid_key(&op->res_stateid), st->owner, &oom);
        break;
    default:
        break;
    }
    return oom ? -ENOMEM : 0;
}

void nr__v4_call_state(const struct nr__v4_state *st, struct nr_call *c)
{
    c->v4 = st->op ? st->kind : NR_V4_CALL;
    c->sid = st->op ? st->sid : NR_NONE;
    c->res_sid = st->op ? st->res_sid : NR_NONE;
    c->owner = st->op ? st->owner : 0;
    c->share = st->op ? st->share : 0;
    if (c->v4 >= NR_V4_LOCK && c->v4 <= NR_V4_LOCKT) { /* the range and the type */
        c->offset = st->op->offset;
        c->size = st->op->length;
        c->how = st->op->how;
    }
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
    /* OPEN, CLOSE, the locks: what the owner's state is after them */
    int seqid_op = st->kind != NR_V4_CALL || st->res_sid != NR_NONE;
    uint32_t owner = st->owner;
    unsigned n = 0;

    if (!st->op)
        return 0;
    if (st->res_sid != NR_NONE) {
        keys[n] = state_key(st->res_sid, 2);
        changes[n++] = 1;
    }
    if (st->sid != NR_NONE) {
        keys[n] = state_key(st->sid, 2);
        changes[n++] = st->kind == NR_V4_CLOSE || st->kind == NR_V4_LOCKU ||
                       st->kind == NR_V4_DOWNGRADE;
        if (owner == 0)
            owner = st->slot_owner[st->sid];
    }
    if (owner != 0) {
        keys[n] = state_key(owner, 1);
        changes[n++] = seqid_op;
    }
    return n;
}

void nr__v4_state_free(struct nr__v4_state *st)
{
    free(st->seen);
    free(st->sids.key);
    free(st->sids.val);
    free(st->owners.key);
    free(st->owners.val);
    free(st->slot_owner);
    free(st->free);
    free(st->clients.key);
    free(st->clients.val);
    free(st->sessions.key);
    free(st->sessions.val);
    free(st->conns.key);
    free(st->conns.val);
    memset(st, 0, sizeof(*st));
}

/* ---- the traced clients ------------------------------------------------------ */

/* Bytes' key (FNV-1a; never 0). */
static uint64_t bytes_key(const void *b, size_t n)
{
    const unsigned char *p = b;
    uint64_t h = 0xcbf29ce484222325ull;

    while (n-- > 0)
        h = (h ^ *p++) * 0x100000001b3ull;
    return h ? h : 1;
}

/* Key's number in m, a new client's when it has none (*v NR_NONE);
 * 0 when out of memory. */
static uint32_t client_num(struct nr__v4_state *st, struct nr__v4_map *m, uint64_t key)
{
    uint32_t *v = map_at(m, key);

    if (!v)
        return 0;
    if (*v == NR_NONE)
        *v = ++st->nclients;
    return *v;
}

/* The traced client of event ev (0: none known, or out of memory): its
 * session's, the client id it names, else its TCP connection's. */
static uint32_t client_of(struct nr__v4_state *st, const struct tr_nfs_event *ev)
{
    const struct tr_nfs4_compound *c = ev->v4;
    uint32_t *v;

    if (c && (c->flags & TR_NFS4_C_SEQUENCE))
        return client_num(st, &st->sessions,
                          bytes_key(c->sessionid, sizeof(c->sessionid)));
    if (c && (c->flags & TR_NFS4_C_CLIENTID))
        return client_num(st, &st->clients, bytes_key(&c->clientid, sizeof(c->clientid)));
    if (ev->conn == 0 || st->conns.key == NULL)
        return 0;
    v = map_at(&st->conns, ev->conn);
    return v && *v != NR_NONE ? *v : 0;
}

int nr__v4_learn(struct nr__v4_state *st, const struct tr_nfs_event *ev)
{
    const struct tr_nfs4_compound *c = ev->v4;
    uint32_t i, n, *v;

    if (ev->prog != TR_NFS_PROG_NFS || ev->vers != 4)
        return 0;
    for (i = 0; c && i < c->nops; i++) {
        const struct tr_nfs4_op *op = &c->ops[i];
        const uint32_t both = TR_NFS4_O_CLIENTID | TR_NFS4_O_SESSION;

        /* CREATE_SESSION: its session is its client id's */
        if (op->op != OP_CREATE_SESSION || (op->flags & both) != both)
            continue;
        n = client_num(st, &st->clients, bytes_key(&op->clientid, sizeof(op->clientid)));
        v = map_at(&st->sessions, bytes_key(op->sessionid, sizeof(op->sessionid)));
        if (!n || !v)
            return -ENOMEM;
        if (*v == NR_NONE)
            *v = n;
    }
    n = client_of(st, ev);
    if (n == 0 || ev->conn == 0)
        return 0;
    if (!(v = map_at(&st->conns, ev->conn)))
        return -ENOMEM;
    if (*v == NR_NONE)
        *v = n;
    return 0;
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

/* A state record of operation op (st holds its state): fn on it as an
 * event of no SFS op (NF_OP_NULL_OP; the record's kind says what it is)
 * on the handle op acts on, with op's status. */
static int state_record(struct nr__v4_state *st, const struct tr_nfs_event *ev,
                        const struct tr_nfs4_op *op,
                        int (*fn)(void *data, const struct tr_nfs_event *call),
                        void *data)
{
    struct tr_nfs_event o = *ev;
    int rc;

    o.op = NF_OP_NULL_OP;
    o.fh = op->fh;
    memset(&o.res_fh, 0, sizeof(o.res_fh));
    memset(&o.fh2, 0, sizeof(o.fh2));
    o.name = o.name2 = o.text = NULL;
    o.status = (op->flags & TR_NFS4_O_RES) ? op->status : 0;
    st->op = op;
    rc = fn(data, &o);
    st->op = NULL;
    return rc;
}

int nr__v4_calls(struct nr__v4_state *st, const struct tr_nfs_event *ev,
                 uint64_t *skipped,
                 int (*fn)(void *data, const struct tr_nfs_event *call), void *data)
{
    const struct tr_nfs4_compound *c = ev->v4;
    struct tr_nfs_event o;
    uint32_t i;
    int others = 0, rc;

    st->client = client_of(st, ev);
    if (!c) { /* the NULL procedure (a COMPOUND not decoded: the reader's counts) */
        if (ev->proc != 0)
            return 0;
        o = *ev;
        o.op = NF_OP_NULL_OP;
        rc = fn(data, &o);
        st->client = 0;
        return rc;
    }
    for (i = 0; i < c->nops && !others; i++)
        others = tr_nfs4_op_event(ev, i, &o) && o.op != NF_OP_GETATTR &&
                 o.prog == TR_NFS_PROG_NFS;
    for (i = 0; i < c->nops; i++) {
        const struct tr_nfs4_op *op = &c->ops[i];

        if (ran(ev, op) && (rc = follow_state(st, op)) < 0)
            return rc;
        if (ran(ev, op) && (op->flags & TR_NFS4_O_ARGS) && (rc = op_state(st, op)) < 0)
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
            if ((op->flags & TR_NFS4_O_ARGS) && st->kind != NR_V4_CALL &&
                (rc = state_record(st, ev, op, fn, data)) < 0)
                return rc;
        }
        if (op->op == OP_CLOSE && ran(ev, op) && (op->flags & TR_NFS4_O_STATEID) &&
            (!(op->flags & TR_NFS4_O_RES) || op->status == NFS4_OK))
            slot_free(st, sid_key(&op->stateid));
        st->kind = st->share = NR_V4_CALL;
        st->sid = st->res_sid = NR_NONE;
        st->owner = 0;
    }
    st->client = 0;
    return 0;
}
