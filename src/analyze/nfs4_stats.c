/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_stats.c - the NFSv4 part of `sfs_trace stats`: NULL and COMPOUND
 * calls as procedures, every operation (calls, results, errors, bytes,
 * the response time of the COMPOUNDs that hold it, once per result), the
 * COMPOUNDs' shapes (their operations in order: "SEQUENCE PUTFH GETATTR")
 * with their counts and response times, errors by operation and status,
 * minor versions, opens and how long they stayed open (OPEN's reply to
 * the CLOSE of its stateid), delegations, sessions (their client, their
 * COMPOUNDs, the slots they used) and client ids, callbacks.
 *
 * Tables that grow with the trace are bounded: shapes, sessions and
 * client ids at AZ_NFS4_ROWS_MAX each and opens held at AZ_NFS4_OPENS_MAX,
 * past which they are counted, not kept; Judy arrays index them (JudyHS
 * by bytes, JudyL by client id).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>

#include "analyze/az_nfs.h"
#include "common/alloc.h"
#include "nfs/nf4.h"
#include "nfs4_prot.h"

int az_nfs4_op_row(uint32_t op)
{
    if (op < AZ_NFS4_OP_ROWS - 1)
        return (int)op;
    return op == OP_ILLEGAL ? AZ_NFS4_OP_ROWS - 1 : -1;
}

uint32_t az_nfs4_row_op(int row)
{
    return row == AZ_NFS4_OP_ROWS - 1 ? OP_ILLEGAL : (uint32_t)row;
}

static struct az_nfs4_stats *new_v4(void)
{
    struct az_nfs4_stats *v = cm_calloc(1, sizeof(*v));
    unsigned i;

    if (!v)
        return NULL;
    for (i = 0; i < 2; i++)
        v->proc[i].rt_min_ns = INT64_MAX;
    for (i = 0; i < AZ_NFS4_OP_ROWS; i++)
        v->op[i].rt_min_ns = INT64_MAX;
    v->open_min_ns = INT64_MAX;
    return v;
}

void az_nfs4_stats_free(struct az_nfs4_stats *v)
{
    if (!v)
        return;
    JudyHSFreeArray(&v->shape_index, PJE0);
    JudyHSFreeArray(&v->session_index, PJE0);
    JudyHSFreeArray(&v->opens, PJE0);
    JudyLFreeArray(&v->client_index, PJE0);
    free(v->shapes);
    free(v->sessions);
    free(v->clients);
    free(v);
}

/* One call's figures into a row (reply: its response time, or -1). */
static void row_add(struct az_nfs_proc *p, const struct tr_nfs_event *ev, int64_t rt,
                    int error)
{
    p->calls++;
    if (ev->flags & TR_NFS_F_RETRANS)
        p->retransmitted++;
    if (rt < 0) {
        p->unanswered++;
        return;
    }
    az__nfs_proc_reply(p, rt);
    if (ev->rpc_status != TR_NFS_RPC_SUCCESS)
        p->rpc_errors++;
    else if (error)
        p->errors++;
}

/* ---- tables by key ---------------------------------------------------------- */

/* The row of key[0..len) in an array of rows indexed by a JudyHS, made
 * when new (a zeroed row of size bytes); NULL when the table is full
 * (*full set) or on no memory. */
static void *row_of(Pvoid_t *index, void **rows, uint32_t *n, uint32_t *cap, size_t size,
                    const void *key, size_t len, int *full, int *nomem)
{
    PPvoid_t pv = JudyHSGet(*index, (void *)key, len);
    char *r;

    *full = *nomem = 0;
    if (pv)
        return (char *)*rows + ((Word_t)*pv - 1) * size;
    if (*n == AZ_NFS4_ROWS_MAX) {
        *full = 1;
        return NULL;
    }
    if (*n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 16;
        void *v = cm_reallocarray(*rows, c, size);
        if (!v) {
            *nomem = 1;
            return NULL;
        }
        *rows = v;
        *cap = c;
    }
    pv = JudyHSIns(index, (void *)key, len, PJE0);
    if (!pv) {
        *nomem = 1;
        return NULL;
    }
    *pv = (void *)(Word_t)(*n + 1);
    r = (char *)*rows + (size_t)*n * size;
    memset(r, 0, size);
    (*n)++;
    return r;
}

static struct az_nfs4_shape *shape_of(struct az_nfs4_stats *v,
                                      const struct tr_nfs4_compound *c, int *nomem)
{
    uint16_t key[AZ_NFS4_SHAPE_OPS + 1];
    uint32_t i, n = c->nops < AZ_NFS4_SHAPE_OPS ? c->nops : AZ_NFS4_SHAPE_OPS;
    struct az_nfs4_shape *s;
    int full;

    for (i = 0; i < n; i++)
        key[i] = (uint16_t)c->ops[i].op;
    /* a COMPOUND whose operations the reader did not all keep ends its
     * shape with "..." (as a longer one does) */
    key[n] = c->nops > n || c->nops < c->nops_call ? 1 : 0;
    s = row_of(&v->shape_index, (void **)&v->shapes, &v->nshapes, &v->shapes_cap,
               sizeof(*s), key, (n + 1) * sizeof(key[0]), &full, nomem);
    if (s && !s->p.calls) {
        s->n = (uint8_t)n;
        s->more = (uint8_t)key[n];
        memcpy(s->ops, key, n * sizeof(key[0]));
        s->p.rt_min_ns = INT64_MAX;
    }
    if (full)
        v->shapes_not_kept++;
    return s;
}

static struct az_nfs4_session *session_of(struct az_nfs4_stats *v, const uint8_t *id,
                                          int *nomem)
{
    struct az_nfs4_session *s;
    int full;

    s = row_of(&v->session_index, (void **)&v->sessions, &v->nsessions, &v->sessions_cap,
               sizeof(*s), id, 16, &full, nomem);
    if (s && !s->seen) {
        memcpy(s->id, id, 16);
        s->seen = 1;
    }
    if (full)
        v->sessions_not_kept++;
    return s;
}

static struct az_nfs4_client *client_of(struct az_nfs4_stats *v, uint64_t id,
                                        uint32_t host, int *nomem)
{
    PWord_t pv = (PWord_t)JudyLGet(v->client_index, (Word_t)id, PJE0);
    struct az_nfs4_client *c;

    *nomem = 0;
    if (pv)
        return &v->clients[*pv - 1];
    if (v->nclients == AZ_NFS4_ROWS_MAX) {
        v->clients_not_kept++;
        return NULL;
    }
    if (v->nclients == v->clients_cap) {
        uint32_t cap = v->clients_cap ? v->clients_cap * 2 : 16;
        struct az_nfs4_client *n = cm_reallocarray(v->clients, cap, sizeof(*n));
        if (!n) {
            *nomem = 1;
            return NULL;
        }
        v->clients = n;
        v->clients_cap = cap;
    }
    pv = (PWord_t)JudyLIns(&v->client_index, (Word_t)id, PJE0);
    if (!pv) {
        *nomem = 1;
        return NULL;
    }
    *pv = v->nclients + 1;
    c = &v->clients[v->nclients++];
    memset(c, 0, sizeof(*c));
    c->id = id;
    c->host = host;
    return c;
}

/* ---- opens --------------------------------------------------------------- */

static int open_seen(struct az_nfs4_stats *v, const struct tr_nfs4_op *op, int64_t t)
{
    PPvoid_t pv;

    v->opens_ok++;
    if (op->delegation == OPEN_DELEGATE_READ || op->delegation == OPEN_DELEGATE_WRITE)
        v->delegations++;
    pv = JudyHSGet(v->opens, (void *)op->res_stateid.other, 12);
    if (pv)
        return 0; /* opened again by its owner: the first OPEN's time stays */
    if (v->opens_held == AZ_NFS4_OPENS_MAX) {
        v->opens_not_kept++;
        return 0;
    }
    pv = JudyHSIns(&v->opens, (void *)op->res_stateid.other, 12, PJE0);
    if (!pv)
        return -ENOMEM;
    *pv = (void *)(intptr_t)(t + 1); /* 0 marks a new cell */
    v->opens_held++;
    return 0;
}

static void close_seen(struct az_nfs4_stats *v, const struct tr_nfs4_op *op, int64_t t)
{
    PPvoid_t pv = JudyHSGet(v->opens, (void *)op->stateid.other, 12);
    int64_t d;

    if (!pv) {
        v->closes_not_opened++; /* opened before the capture began */
        return;
    }
    d = t - ((int64_t)(intptr_t)*pv - 1);
    if (d < 0)
        d = 0;
    v->opens_closed++;
    v->open_sum_ns += d;
    if (d < v->open_min_ns)
        v->open_min_ns = d;
    if (d > v->open_max_ns)
        v->open_max_ns = d;
    cm_hist_add(&v->open_time, (uint64_t)(d + 500) / 1000);
    JudyHSDel(&v->opens, (void *)op->stateid.other, 12, PJE0);
    v->opens_held--;
}

/* ---- one COMPOUND ---------------------------------------------------------- */

static int sessions(struct az_nfs4_stats *v, const struct tr_nfs_event *ev,
                    const struct tr_nfs4_compound *c)
{
    struct az_nfs4_session *s = NULL;
    struct az_nfs4_client *cl;
    uint32_t i;
    int nomem;

    if (c->flags & TR_NFS4_C_SEQUENCE) {
        s = session_of(v, c->sessionid, &nomem);
        if (nomem)
            return -ENOMEM;
        if (s) {
            s->compounds++;
            if (c->slotid + 1 > s->slots)
                s->slots = c->slotid + 1;
        }
    }
    for (i = 0; i < c->nops; i++) {
        const struct tr_nfs4_op *op = &c->ops[i];
        int ok = (op->flags & TR_NFS4_O_RES) && op->status == NFS4_OK;
        if (op->op == OP_CREATE_SESSION && ok && (op->flags & TR_NFS4_O_SESSION)) {
            struct az_nfs4_session *n = session_of(v, op->sessionid, &nomem);
            if (nomem)
                return -ENOMEM;
            if (n) {
                n->created = 1;
                n->clientid = op->clientid;
                n->has_client = 1;
                if ((cl = client_of(v, op->clientid, ev->client, &nomem)))
                    cl->sessions++;
                else if (nomem)
                    return -ENOMEM;
            }
        } else if (op->op == OP_DESTROY_SESSION && ok &&
                   (op->flags & TR_NFS4_O_SESSION)) {
            struct az_nfs4_session *n = session_of(v, op->sessionid, &nomem);
            if (nomem)
                return -ENOMEM;
            if (n)
                n->destroyed = 1;
        }
    }
    /* the client: one the COMPOUND names, else its session's */
    cl = NULL;
    if (c->flags & TR_NFS4_C_CLIENTID)
        cl = client_of(v, c->clientid, ev->client, &nomem);
    else if (s && s->has_client)
        cl = client_of(v, s->clientid, ev->client, &nomem);
    else
        nomem = 0;
    if (nomem)
        return -ENOMEM;
    if (cl)
        cl->compounds++;
    return 0;
}

int az_nfs4_stats_event(struct az_nfs_stats *st, const struct tr_nfs_event *ev,
                        uint64_t *read, uint64_t *written)
{
    struct az_nfs4_stats *v = st->v4;
    const struct tr_nfs4_compound *c = ev->v4;
    int reply = (ev->flags & TR_NFS_F_REPLY) != 0;
    int ok_rpc = reply && ev->rpc_status == TR_NFS_RPC_SUCCESS;
    int64_t rt = reply ? ev->reply_t_ns - ev->t_ns : -1;
    struct az_nfs4_shape *shape;
    uint32_t i;
    int nomem;

    *read = *written = 0;
    if (!v && !(v = st->v4 = new_v4()))
        return -ENOMEM;
    if (rt < -1)
        rt = 0;
    if (!c) { /* NULL */
        row_add(&v->proc[0], ev, rt, 0);
        return 0;
    }
    row_add(&v->proc[1], ev, rt, ok_rpc && c->status != NFS4_OK);
    if (c->minor < 3)
        v->minor[c->minor]++;
    else
        v->minor_other++;
    shape = shape_of(v, c, &nomem);
    if (nomem)
        return -ENOMEM;
    if (shape)
        row_add(&shape->p, ev, rt, ok_rpc && c->status != NFS4_OK);
    for (i = 0; i < c->nops; i++) {
        const struct tr_nfs4_op *op = &c->ops[i];
        int row = az_nfs4_op_row(op->op);
        int res = (op->flags & TR_NFS4_O_RES) != 0;
        struct az_nfs_proc *p;
        if (row < 0)
            continue;
        p = &v->op[row];
        if (op->flags & TR_NFS4_O_ARGS) {
            p->calls++;
            if (ev->flags & TR_NFS_F_RETRANS)
                p->retransmitted++;
            if (!reply)
                p->unanswered++;
            if (op->op == OP_WRITE) {
                p->bytes += op->count;
                v->bytes_written += op->count;
                *written += op->count;
            }
        }
        if (!res)
            continue;
        az__nfs_proc_reply(p, rt);
        if (op->status != NFS4_OK) {
            p->errors++;
            az__nfs_err_count(v->err, &v->nerr, &v->err_other, op->op, op->status);
            continue;
        }
        if (op->op == OP_READ || op->op == OP_READ_PLUS) {
            p->bytes += op->res_count;
            v->bytes_read += op->res_count;
            *read += op->res_count;
        } else if (op->op == OP_OPEN && (op->flags & TR_NFS4_O_RES_STATEID)) {
            if (open_seen(v, op, ev->reply_t_ns) < 0)
                return -ENOMEM;
        } else if (op->op == OP_CLOSE && (op->flags & TR_NFS4_O_STATEID)) {
            close_seen(v, op, ev->t_ns);
        } else if (op->op == OP_DELEGRETURN) {
            v->delegreturns++;
        }
    }
    return sessions(v, ev, c);
}
