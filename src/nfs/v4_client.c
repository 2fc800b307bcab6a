/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_client.c - the NFSv4 client's calls (nf4_client.h): the wait list, the
 * slots, SEQUENCE in front of every 4.1 compound, and the answers a client
 * gives the server's errors itself (docs/nfsv4.md, "Errors"):
 *
 *   DELAY           the call is held and sent again after opts.delay_ms,
 *                   at most opts.delay_tries sends (as JUKEBOX in v3);
 *   GRACE           sent again every opts.grace_retry_ms for at most
 *                   opts.grace_max_ms (the server's grace period);
 *   BADSESSION, DEADSESSION, CONN_NOT_BOUND_TO_SESSION
 *                   a new session (CREATE_SESSION), then sent again;
 *   STALE_CLIENTID, EXPIRED
 *                   a new client (EXCHANGE_ID, CREATE_SESSION, after a
 *                   server restart the caller's reclaims (opts.reclaim),
 *                   RECLAIM_COMPLETE; 4.0: SETCLIENTID), then sent again:
 *                   the epoch changes, so the caller knows its opens are
 *                   gone (4.1: EXPIRED after a SEQUENCE that succeeded
 *                   names an earlier client's stateid: the call's answer);
 *   SEQ_MISORDERED  on a slot whose last call got no reply: the slot's
 *                   sequence id set back (the server never saw that call),
 *                   then sent again; anywhere else it is the answer.
 *
 * Every other status is the call's answer.  A slot is taken only while a
 * call is on the wire, so a caller with more calls than slots sees them
 * wait here, and their response time (from nf4_call_start) counts it.
 * The lease is kept by the calls themselves, and by a SEQUENCE alone
 * (RENEW in 4.0) when nothing was sent for a third of it.  Every wait is
 * bounded: calls by their timeouts, DELAY by its tries, GRACE and
 * recoveries by their time limits.  The state calls' compounds and
 * replies are v4_session.c's.
 */
#include <assert.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/clock.h"
#include "nfs/nf4_int.h"

#define NS_PER_MS         1000000ull
#define RECOVERY_RETRY_MS 1000u /* between tries of a failed state call */
#define DESTROY_MS        2000u /* DESTROY_SESSION, DESTROY_CLIENTID: a courtesy */
#define NF4_F_WAITED      4u    /* waited for a slot once (counted) */

void nf4_client_opts_init(struct nf4_client_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->minor = 1;
    o->slots = 64;
    o->timeout_ms = nf_class_timeout_ms(NF_CLASS_INIT, 0);
    o->delay_ms = 100;
    o->delay_tries = 16;
    o->grace_retry_ms = 1000;
}

static uint64_t now_ns(const struct nf4_client *cl)
{
    return cm_clock_now(&cl->clock);
}

static uint64_t ms_or_leases(const struct nf4_client *cl, uint32_t ms)
{
    return (uint64_t)(ms ? ms : 2u * cl->lease_ms) * NS_PER_MS;
}

static void set_error(struct nf4_client *cl, const char *fmt, const char *a,
                      const char *b)
{
    snprintf(cl->last_error, sizeof(cl->last_error), fmt, a, b);
}

/* ---- the wait and held lists --------------------------------------------- */

static void wait_push(struct nf4_client *cl, struct nf4_call *call, int front)
{
    call->state = NF4_C_WAITING;
    if (front) {
        call->next = cl->wait_head;
        cl->wait_head = call;
        if (!cl->wait_tail)
            cl->wait_tail = call;
        return;
    }
    call->next = NULL;
    if (cl->wait_tail)
        cl->wait_tail->next = call;
    else
        cl->wait_head = call;
    cl->wait_tail = call;
}

static struct nf4_call *wait_pop(struct nf4_client *cl)
{
    struct nf4_call *call = cl->wait_head;

    if (call) {
        cl->wait_head = call->next;
        if (!cl->wait_head)
            cl->wait_tail = NULL;
        call->next = NULL;
    }
    return call;
}

static void hold(struct nf4_client *cl, struct nf4_call *call, uint64_t until_ns)
{
    call->state = NF4_C_HELD;
    call->hold_until_ns = until_ns;
    call->next = cl->held;
    cl->held = call;
}

/* Held calls that came due go back to the wait list (state calls first). */
static void release_held(struct nf4_client *cl, uint64_t now)
{
    struct nf4_call **pp = &cl->held;

    while (*pp) {
        struct nf4_call *call = *pp;

        if (call->hold_until_ns > now) {
            pp = &call->next;
            continue;
        }
        *pp = call->next;
        wait_push(cl, call, (call->flags & NF4_F_CTL) != 0);
    }
}

/* ---- completion ------------------------------------------------------------ */

static void dispatch(struct nf4_client *cl);
static void start_internal(struct nf4_client *cl, struct nf4_call *call, nf4_done_fn done,
                           unsigned flags);

static void dret_done(struct nf4_call *call, void *data)
{
    struct nf4_dret *d = data;

    if (call->status == 0 && call->res.status == NFS4_OK)
        call->cl->st.delegreturns++;
    d->busy = 0;
}

/* The handle of the file OPEN (result index i) opened: the GETFH after it,
 * or, for CLAIM_FH, the PUTFH before it. */
static const struct nf4_fh *opened_fh(const struct nf4_call *call, uint32_t i,
                                      struct nf4_fh *tmp)
{
    const struct nf4_resop *g = nf4_res_find(&call->res, OP_GETFH, i + 1);
    uint32_t k;

    if (g && g->status == NFS4_OK)
        return &g->u.getfh;
    for (k = i; k-- > 0;) {
        const nfs_argop4 *a = &call->args.op[k];

        if (a->argop == OP_PUTFH &&
            a->nfs_argop4_u.opputfh.object.nfs_fh4_len <= NF4_FH_MAX) {
            tmp->len = a->nfs_argop4_u.opputfh.object.nfs_fh4_len;
            memcpy(tmp->data, a->nfs_argop4_u.opputfh.object.nfs_fh4_val, tmp->len);
            return tmp;
        }
    }
    return NULL;
}

/* No delegation is asked for (and none can be recalled: no back channel),
 * so any granted is handed back at once, and counted. */
static void give_back_delegations(struct nf4_client *cl, const struct nf4_call *call)
{
    uint32_t i;

    for (i = 0; i < call->res.nops; i++) {
        const struct nf4_resop *o = &call->res.op[i];
        const struct nf4_fh *fh;
        struct nf4_fh tmp;
        struct nf4_dret *d = NULL;
        unsigned k;

        if (o->op != OP_OPEN || o->status != NFS4_OK ||
            (o->u.open.deleg_type != OPEN_DELEGATE_READ &&
             o->u.open.deleg_type != OPEN_DELEGATE_WRITE))
            continue;
        cl->st.delegations++;
        for (k = 0; k < NF4_DELEGRETURNS && !d; k++)
            if (!cl->dret[k].busy)
                d = &cl->dret[k];
        fh = opened_fh(call, i, &tmp);
        if (!d || !fh)
            continue; /* counted, not returned: delegations - delegreturns */
        d->busy = 1;
        d->fh = *fh;
        nf4_compound_init(&d->call.args, cl->opts.minor, 0);
        nf4_op_putfh(&d->call.args, &d->fh);
        nf4_op_delegreturn(&d->call.args, &o->u.open.deleg);
        d->call.data = d;
        start_internal(cl, &d->call, dret_done, NF4_F_INTERNAL);
    }
}

static void finish(struct nf4_client *cl, struct nf4_call *call, int status,
                   uint64_t t_reply_ns)
{
    call->status = status;
    call->t_reply_ns = t_reply_ns ? t_reply_ns : now_ns(cl);
    call->state = NF4_C_DONE;
    if (!(call->flags & NF4_F_INTERNAL)) {
        assert(cl->pending > 0); /* a caller's call completed twice */
        cl->pending--;
    }
    if (status == 0 && call->args.nopen)
        give_back_delegations(cl, call);
    call->done(call, call->data);
}

/* Every waiting and held call completes with status (the client ends or
 * gave up). */
static void fail_all(struct nf4_client *cl, int status)
{
    struct nf4_call *call;

    while (cl->held) {
        call = cl->held;
        cl->held = call->next;
        wait_push(cl, call, 0);
    }
    while ((call = wait_pop(cl)))
        finish(cl, call, status, 0);
}

/* ---- recovery: a new session or a new client ---------------------------------- */

static void ctl_done(struct nf4_call *call, void *data);

static void ctl_start(struct nf4_client *cl)
{
    struct nf4_call *c = &cl->ctl;

    nf4__state_compound(cl, cl->state, &c->args);
    c->res.data = NULL;
    c->res.data_max = 0;
    c->timeout_ms = cl->opts.timeout_ms;
    c->data = cl;
    start_internal(cl, c, ctl_done, NF4_F_INTERNAL | NF4_F_CTL);
}

/* A recovery (step st) because of status. */
static void start_recovery(struct nf4_client *cl, enum nf4_state st, uint32_t status)
{
    if (cl->state != NF4_ST_UP)
        return; /* one recovery at a time: it escalates by itself */
    cl->state = st;
    cl->stale_seen = status == NFS4ERR_STALE_CLIENTID;
    cl->recovery_start_ns = now_ns(cl);
    ctl_start(cl);
}

/* The new client after a server restart has its session: the caller
 * reclaims its opens (opts.reclaim), bounded, before RECLAIM_COMPLETE. */
static void begin_reclaim(struct nf4_client *cl)
{
    cl->reclaim_until_ns = now_ns(cl) + ms_or_leases(cl, cl->opts.reclaim_max_ms);
    cl->opts.reclaim(cl, cl->opts.reclaim_data); /* may end it at once */
}

int nf4_reclaim_start(struct nf4_client *cl, struct nf4_call *call)
{
    if (!call->done || call->args.args.argarray.argarray_len == 0)
        return -EINVAL;
    if (cl->state != NF4_ST_RECLAIMING)
        return -EAGAIN;
    cl->pending++;
    cl->st.calls++;
    /* a state call: it goes while the caller's others wait */
    start_internal(cl, call, call->done, NF4_F_CTL);
    return 0;
}

void nf4_reclaim_end(struct nf4_client *cl)
{
    if (cl->state != NF4_ST_RECLAIMING)
        return;
    cl->state = NF4_ST_RECLAIM;
    ctl_start(cl);
}

int nf4_client_reclaiming(const struct nf4_client *cl)
{
    return cl->state == NF4_ST_RECLAIMING;
}

/* The step that follows a state call's failure, or NF4_ST_DEAD when the
 * failure is the answer. */
static enum nf4_state after_failure(const struct nf4_client *cl, const struct nf4_call *c)
{
    uint32_t s = c->res.status;

    if (c->status < 0)
        return NF4_ST_DEAD;
    if ((cl->state == NF4_ST_NEW_SESSION || cl->state == NF4_ST_CONFIRM ||
         cl->state == NF4_ST_RECLAIM) &&
        (s == NFS4ERR_STALE_CLIENTID || s == NFS4ERR_EXPIRED))
        return NF4_ST_NEW_CLIENT;
    if (cl->state == NF4_ST_RECLAIM &&
        (s == NFS4ERR_BADSESSION || s == NFS4ERR_DEADSESSION))
        return NF4_ST_NEW_SESSION;
    return NF4_ST_DEAD;
}

static void ctl_done(struct nf4_call *call, void *data)
{
    struct nf4_client *cl = data;
    enum nf4_state st = cl->state, next;
    uint32_t s = call->res.status;
    char why[CM_ERR_LEN / 2];

    if (st == NF4_ST_CLOSING || st == NF4_ST_DEAD)
        return;
    if (call->status == 0 &&
        (s == NFS4_OK || (st == NF4_ST_RECLAIM && s == NFS4ERR_COMPLETE_ALREADY))) {
        /* every session and client after the first, the set-up's own
         * recoveries included, so that the counts are the server's
         * CREATE_SESSIONs and EXCHANGE_IDs answered OK, less one */
        if (st == NF4_ST_NEW_SESSION && cl->session_gen > 0)
            cl->st.new_sessions++;
        if (st == NF4_ST_NEW_CLIENT && cl->clients_made++ > 0)
            cl->st.new_clients++;
        next = nf4__state_apply(cl, st, &call->res);
        cl->state = next;
        if (next == NF4_ST_UP) {
            cl->established = 1;
            cl->recovery_retry_ns = 0;
            return; /* the waiting calls go at the end of this service */
        }
        if (next == NF4_ST_RECLAIMING)
            begin_reclaim(cl);
        else
            ctl_start(cl);
        return;
    }
    next = after_failure(cl, call);
    if (next != NF4_ST_DEAD) {
        if (next == NF4_ST_NEW_CLIENT)
            cl->stale_seen = s == NFS4ERR_STALE_CLIENTID;
        cl->state = next;
        ctl_start(cl);
        return;
    }
    if (call->status == RP_ERR_TIMEDOUT)
        snprintf(why, sizeof(why), "no reply in %u ms", call->timeout_ms);
    else if (call->status < 0)
        snprintf(why, sizeof(why), "%s",
                 rp_client_last_error(cl->rpc)[0] ? rp_client_last_error(cl->rpc)
                                                  : rp_status_text(call->status));
    else if (s == NFS4ERR_MINOR_VERS_MISMATCH)
        snprintf(why, sizeof(why),
                 "MINOR_VERS_MISMATCH (the server does not speak "
                 "NFSv4.%u)",
                 cl->opts.minor);
    else
        snprintf(why, sizeof(why), "%s", nf4_status_name(s));
    set_error(cl, "%s: %s", nf4__state_name(cl, st), why);
    if (cl->established &&
        now_ns(cl) - cl->recovery_start_ns < ms_or_leases(cl, cl->opts.recovery_max_ms)) {
        cl->recovery_retry_ns = now_ns(cl) + RECOVERY_RETRY_MS * NS_PER_MS;
        return;
    }
    if (cl->established)
        cl->st.recovery_failed++;
    cl->state = NF4_ST_DEAD;
    fail_all(cl, -ENOTCONN);
}

/* ---- sending --------------------------------------------------------------- */

static void rpc_done(struct rp_call *rc, void *data);

/* The client's part of a compound: SEQUENCE on a slot, the open owner. */
static void fill_client_parts(struct nf4_client *cl, struct nf4_call *call, int slot)
{
    struct nf4_compound *c = &call->args;
    uint32_t i, n = c->args.argarray.argarray_len;

    c->args.argarray.argarray_val = c->op;
    if (c->nseq) {
        SEQUENCE4args *s = &c->op[0].nfs_argop4_u.opsequence;

        memcpy(s->sa_sessionid, cl->sessionid, NFS4_SESSIONID_SIZE);
        s->sa_sequenceid = cl->slots[slot].seqid;
        s->sa_slotid = (slotid4)slot;
        s->sa_highest_slotid = cl->highest;
        s->sa_cachethis = c->cachethis ? TRUE : FALSE;
    }
    for (i = 0; c->nopen && i < n; i++) {
        if (c->op[i].argop == OP_LOCK &&
            c->op[i].nfs_argop4_u.oplock.locker.new_lock_owner) {
            c->op[i].nfs_argop4_u.oplock.locker.locker4_u.open_owner.lock_owner.clientid =
                cl->clientid;
        } else if (c->op[i].argop == OP_LOCKT) {
            c->op[i].nfs_argop4_u.oplockt.owner.clientid = cl->clientid;
        } else if (c->op[i].argop == OP_OPEN) {
            open_owner4 *o = &c->op[i].nfs_argop4_u.opopen.owner;

            o->clientid = cl->clientid;
            if (o->owner.owner_len == 0) { /* else the caller's own (a replay's) */
                o->owner.owner_len = cl->owner_len;
                o->owner.owner_val = cl->owner;
            }
        }
    }
}

/* Counts the compound call carries as it goes on the wire. */
static void count_sent(struct nf4_client *cl, const struct nf4_call *call)
{
    const struct nf4_compound *c = &call->args;
    u_int i, n = c->args.argarray.argarray_len;

    cl->st.compounds++;
    for (i = 0; i < n && i < NF4_MAX_OPS; i++) {
        uint32_t op = c->op[i].argop;

        if (op < NF4_COUNTED_OPS)
            cl->st.ops[op]++;
        else
            cl->st.ops_other++;
    }
}

/* Sends call: 0 sent, 1 not now (the client is not up, no slot is free, or
 * the engine is full), or -errno. */
static int send_call(struct nf4_client *cl, struct nf4_call *call)
{
    int slot = -1, rc;

    if (!(call->flags & NF4_F_CTL) && cl->state != NF4_ST_UP)
        return 1;
    if (call->args.nseq && (slot = nf4__slot_get(cl)) < 0)
        return 1;
    fill_client_parts(cl, call, slot);
    call->slot = slot < 0 ? 0 : (uint32_t)slot;
    call->session_gen = cl->session_gen;
    call->epoch = cl->epoch;
    call->res.nops = 0;
    nf4__compound_kept(&call->args);
    rp_call_prepare(&call->rpc, NFSPROC4_COMPOUND, (xdrproc_t)nf4__xdr_compound,
                    &call->args, (xdrproc_t)nf4_xdr_res, &call->res,
                    call->timeout_ms ? call->timeout_ms
                                     : nf_class_timeout_ms(NF_CLASS_LOOKUP, 1),
                    rpc_done, call);
    rc = rp_call_start(cl->rpc, &call->rpc);
    if (rc < 0 && slot >= 0)
        nf4__slot_put(cl, (unsigned)slot);
    if (rc == -EAGAIN)
        return 1;
    if (rc < 0)
        return rc;
    call->state = NF4_C_SENT;
    cl->last_send_ns = call->rpc.t_send_ns;
    count_sent(cl, call);
    return 0;
}

static void dispatch(struct nf4_client *cl)
{
    struct nf4_call *call;

    if (cl->dispatching)
        return;
    cl->dispatching = 1;
    while ((call = wait_pop(cl))) {
        int rc = send_call(cl, call);

        if (rc == 1) {
            if (cl->state == NF4_ST_UP &&
                !(call->flags & (NF4_F_INTERNAL | NF4_F_WAITED))) {
                call->flags |= NF4_F_WAITED;
                cl->st.slot_waits++;
            }
            wait_push(cl, call, 1);
            break;
        }
        if (rc < 0) {
            if (rc == -ENOTCONN && rp_client_state(cl->rpc) == RP_STATE_DEAD &&
                cl->state != NF4_ST_CLOSING) {
                set_error(cl, "%s%s", "connection lost: ", rp_client_last_error(cl->rpc));
                cl->state = NF4_ST_DEAD;
            }
            finish(cl, call, rc, 0);
        }
    }
    cl->dispatching = 0;
    if (cl->state == NF4_ST_DEAD)
        fail_all(cl, -ENOTCONN);
}

static void start_internal(struct nf4_client *cl, struct nf4_call *call, nf4_done_fn done,
                           unsigned flags)
{
    call->cl = cl;
    call->done = done;
    call->flags = flags;
    call->status = 0;
    call->delays = call->graces = call->resends = 0;
    call->first_grace_ns = 0;
    call->t_start_ns = now_ns(cl);
    call->t_reply_ns = 0;
    wait_push(cl, call, (flags & NF4_F_CTL) != 0);
    dispatch(cl);
}

int nf4_call_start(struct nf4_client *cl, struct nf4_call *call)
{
    if (!call->done || call->args.args.argarray.argarray_len == 0)
        return -EINVAL;
    if (cl->state == NF4_ST_DEAD || cl->state == NF4_ST_CLOSING)
        return -ENOTCONN;
    cl->pending++;
    cl->st.calls++;
    start_internal(cl, call, call->done, 0);
    return 0;
}

/* ---- replies ---------------------------------------------------------------- */

/* The slot's sequence after a reply (or none); returns 1 when the slot was
 * repaired and the call should go again. */
static int slot_after(struct nf4_client *cl, struct nf4_call *call,
                      const struct rp_call *rc)
{
    const struct nf4_resop *seq = NULL;
    struct nf4_slot *sl = &cl->slots[call->slot];
    int repaired = 0;

    if (rc->status == 0 && call->res.nops > 0 && call->res.op[0].op == OP_SEQUENCE)
        seq = &call->res.op[0];
    if (call->session_gen == cl->session_gen) { /* an older session's slots are gone */
        if (rc->status < 0) {
            sl->seqid++; /* the server may have seen it: the next says so */
            sl->uncertain = 1;
        } else if (seq && seq->status == NFS4_OK) {
            uint32_t target = seq->u.sequence.sr_target_highest_slotid;

            sl->seqid++;
            sl->uncertain = 0;
            cl->usable = target + 1 < cl->nslots ? target + 1 : cl->nslots;
            if (seq->u.sequence.sr_status_flags)
                cl->st.status_flags++;
        } else if (seq && seq->status == NFS4ERR_SEQ_MISORDERED && sl->uncertain) {
            sl->seqid--; /* it had not: the call that got no reply never ran */
            sl->uncertain = 0;
            cl->st.slot_repairs++;
            repaired = 1;
        }
    }
    nf4__slot_put(cl, call->slot);
    return repaired;
}

/* 1 when the results are those of the operations sent, in order. */
static int results_match(const struct nf4_call *call)
{
    uint32_t i;

    if (call->res.nops > call->args.args.argarray.argarray_len)
        return 0;
    for (i = 0; i < call->res.nops; i++)
        if (call->res.op[i].op != call->args.op[i].argop &&
            call->res.op[i].op != OP_ILLEGAL)
            return 0;
    return 1;
}

/* 1 when call's compound began with a SEQUENCE that succeeded. */
static int sequence_ok(const struct nf4_call *call)
{
    return call->args.nseq && call->res.nops > 1 && call->res.op[0].op == OP_SEQUENCE &&
           call->res.op[0].status == NFS4_OK;
}

/* The recovery a status asks for (NF4_ST_UP: none). */
static enum nf4_state recovery_for(uint32_t status)
{
    switch (status) {
    case NFS4ERR_BADSESSION:
    case NFS4ERR_DEADSESSION:
    case NFS4ERR_CONN_NOT_BOUND_TO_SESSION:
        return NF4_ST_NEW_SESSION;
    case NFS4ERR_STALE_CLIENTID:
    case NFS4ERR_EXPIRED:
        return NF4_ST_NEW_CLIENT;
    default:
        return NF4_ST_UP;
    }
}

/* 1 when the client answers status itself (the call is held or waits);
 * 0 when status is the call's answer. */
static int answer_status(struct nf4_client *cl, struct nf4_call *call, uint64_t now)
{
    uint32_t s = call->res.status;
    enum nf4_state rec;

    if (cl->state == NF4_ST_CLOSING || cl->state == NF4_ST_DEAD)
        return 0;
    if (s == NFS4ERR_DELAY && call->delays + 1 < cl->opts.delay_tries) {
        call->delays++;
        cl->st.delays++; /* the client's own calls' too: every DELAY answered */
        hold(cl, call, now + (uint64_t)cl->opts.delay_ms * NS_PER_MS);
        return 1;
    }
    if (s == NFS4ERR_GRACE) {
        if (!call->first_grace_ns)
            call->first_grace_ns = now;
        if (now - call->first_grace_ns < ms_or_leases(cl, cl->opts.grace_max_ms)) {
            call->graces++;
            cl->st.graces++;
            hold(cl, call, now + (uint64_t)cl->opts.grace_retry_ms * NS_PER_MS);
            return 1;
        }
        return 0;
    }
    rec = recovery_for(s);
    if (rec == NF4_ST_NEW_CLIENT && s == NFS4ERR_EXPIRED && sequence_ok(call))
        /* 4.1: the SEQUENCE before it just renewed this client's lease, so
         * EXPIRED names a stateid of an earlier client (RFC 8881
         * 15.1.5.3), not this one.  An EXCHANGE_ID for it would get this
         * same client back, and CREATE_SESSION another session on it that
         * DESTROY_SESSION never names: DESTROY_CLIENTID is then refused
         * (CLIENTID_BUSY) and the client stays on the server.  It is the
         * call's answer: the caller sends it again with its present
         * state's stateid. */
        rec = NF4_ST_UP;
    if (rec == NF4_ST_UP || (call->flags & NF4_F_CTL) || call->resends >= NF4_RESENDS_MAX)
        return 0;
    if ((rec == NF4_ST_NEW_SESSION && call->session_gen == cl->session_gen) ||
        (rec == NF4_ST_NEW_CLIENT && call->epoch == cl->epoch))
        start_recovery(cl, rec, s); /* else one already made what it needs */
    call->resends++;
    wait_push(cl, call, 0);
    return 1;
}

static void rpc_done(struct rp_call *rc, void *data)
{
    struct nf4_call *call = data;
    struct nf4_client *cl = call->cl;

    if (call->args.nseq && slot_after(cl, call, rc) && cl->state != NF4_ST_CLOSING &&
        call->resends < NF4_RESENDS_MAX) {
        call->resends++;
        wait_push(cl, call, 1);
    } else if (rc->status < 0) {
        finish(cl, call, rc->status, rc->t_reply_ns);
    } else if (!results_match(call)) {
        snprintf(cl->last_error, sizeof(cl->last_error),
                 "xid %08x: the results are not those of the operations sent", rc->xid);
        finish(cl, call, RP_ERR_GARBAGE, rc->t_reply_ns);
    } else if (!answer_status(cl, call, now_ns(cl))) {
        finish(cl, call, 0, rc->t_reply_ns);
    }
    dispatch(cl);
}

/* ---- the lease and the loop ------------------------------------------------------ */

static void renew_done(struct nf4_call *call, void *data)
{
    (void)call;
    (void)data;
}

static uint64_t renew_due_ns(const struct nf4_client *cl)
{
    return cl->last_send_ns + (uint64_t)cl->lease_ms * NS_PER_MS / 3u;
}

static void timers(struct nf4_client *cl, uint64_t now)
{
    if (cl->held)
        release_held(cl, now);
    if (cl->state == NF4_ST_RECLAIMING && cl->reclaim_until_ns <= now) {
        cl->st.reclaims_cut++; /* the caller's reclaims still out answer late */
        nf4_reclaim_end(cl);
    }
    if (cl->recovery_retry_ns && cl->recovery_retry_ns <= now && cl->state != NF4_ST_UP &&
        cl->state != NF4_ST_DEAD && cl->state != NF4_ST_CLOSING) {
        cl->recovery_retry_ns = 0;
        ctl_start(cl);
    }
    if (cl->state == NF4_ST_UP &&
        (cl->renew.state == NF4_C_IDLE || cl->renew.state == NF4_C_DONE) &&
        renew_due_ns(cl) <= now) {
        nf4__renew_compound(cl, &cl->renew.args);
        cl->renew.timeout_ms = cl->opts.timeout_ms;
        cl->st.renewals++;
        start_internal(cl, &cl->renew, renew_done, NF4_F_INTERNAL);
    }
}

int nf4_client_fd(const struct nf4_client *cl)
{
    return rp_client_fd(cl->rpc);
}

short nf4_client_events(const struct nf4_client *cl)
{
    return rp_client_events(cl->rpc);
}

int nf4_client_service(struct nf4_client *cl, short revents)
{
    int n = rp_client_service(cl->rpc, revents);

    timers(cl, now_ns(cl));
    dispatch(cl);
    if (n < 0 && cl->state != NF4_ST_CLOSING && cl->state != NF4_ST_DEAD) {
        set_error(cl, "%s%s", "connection lost: ", rp_client_last_error(cl->rpc));
        cl->state = NF4_ST_DEAD;
        fail_all(cl, -ENOTCONN);
    }
    return n;
}

static int until_ms(uint64_t due, uint64_t now)
{
    uint64_t ms = due > now ? (due - now + NS_PER_MS - 1) / NS_PER_MS : 0;

    return ms > 3600000u ? 3600000 : (int)ms;
}

static int earlier(int a, int b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

int nf4_client_timeout_ms(const struct nf4_client *cl)
{
    uint64_t now = now_ns(cl);
    const struct nf4_call *call;
    int t = rp_client_timeout_ms(cl->rpc);

    for (call = cl->held; call; call = call->next)
        t = earlier(t, until_ms(call->hold_until_ns, now));
    if (cl->recovery_retry_ns)
        t = earlier(t, until_ms(cl->recovery_retry_ns, now));
    if (cl->state == NF4_ST_RECLAIMING)
        t = earlier(t, until_ms(cl->reclaim_until_ns, now));
    if (cl->state == NF4_ST_UP && cl->lease_ms &&
        (cl->renew.state == NF4_C_IDLE || cl->renew.state == NF4_C_DONE))
        t = earlier(t, until_ms(renew_due_ns(cl), now));
    return t;
}

int nf4_poll(struct nf4_client *cl, int timeout_ms)
{
    struct pollfd p;
    int t = earlier(timeout_ms, nf4_client_timeout_ms(cl)), rc;

    p.fd = nf4_client_fd(cl);
    p.events = nf4_client_events(cl);
    p.revents = 0;
    rc = poll(&p, 1, t);
    if (rc < 0)
        return -errno;
    return nf4_client_service(cl, rc > 0 ? p.revents : 0);
}

/* Services cl until call is done (bounded by the call's own bounds). */
static int run_until_done(struct nf4_client *cl, const struct nf4_call *call)
{
    while (call->state != NF4_C_DONE) {
        int rc = nf4_poll(cl, 1000);

        if (rc < 0 && rc != -EINTR)
            return rc;
    }
    return 0;
}

static void sync_done(struct nf4_call *call, void *data)
{
    (void)call;
    (void)data;
}

int nf4_call_sync(struct nf4_client *cl, struct nf4_call *call)
{
    nf4_done_fn saved = call->done;
    int rc;

    if (!call->done)
        call->done = sync_done;
    rc = nf4_call_start(cl, call);
    if (rc == 0)
        rc = run_until_done(cl, call);
    call->done = saved;
    return rc < 0 ? rc : call->status;
}

/* ---- open and close ---------------------------------------------------------------- */

/* An owner unique to this client: host, process, and the clock. */
static void make_owner(struct nf4_client *cl)
{
    char host[64] = "";
    uint64_t now = cm_now_ns() /* the real clock: unique */;
    pid_t pid = getpid();

    if (cl->opts.owner[0]) {
        snprintf(cl->owner, sizeof(cl->owner), "%s", cl->opts.owner);
    } else {
        gethostname(host, sizeof(host) - 1);
        snprintf(cl->owner, sizeof(cl->owner), "freesfs/%.32s/%ld/%llx", host, (long)pid,
                 (unsigned long long)now);
    }
    cl->owner_len = (uint32_t)strlen(cl->owner);
    memcpy(cl->boot_verf, &now, NFS4_VERIFIER_SIZE); /* 8 bytes, as now's */
}

int nf4_client_open(struct nf4_client **out, struct rp_client *rpc,
                    const struct nf4_client_opts *opts, char *err, size_t errlen)
{
    struct nf4_client *cl = cm_calloc(1, sizeof(*cl));
    int rc;

    *out = NULL;
    if (!cl) {
        rp_client_close(rpc);
        return cm_errf(err, errlen, "out of memory for the NFSv4 client"), -ENOMEM;
    }
    cl->rpc = rpc;
    if (opts)
        cl->opts = *opts;
    else
        nf4_client_opts_init(&cl->opts);
    cl->clock = cl->opts.clock ? *cl->opts.clock : cm_monotonic_clock;
    cl->opts.clock = NULL; /* copied */
    if (cl->opts.minor > 1 || cl->opts.slots == 0 || cl->opts.slots > NF4_MAX_SLOTS) {
        rc =
            cm_errf(err, errlen, "NFSv4.%u with %u slots: want minor 0 or 1, 1..%u slots",
                    cl->opts.minor, cl->opts.slots, NF4_MAX_SLOTS);
        nf4_client_close(cl);
        return rc;
    }
    cl->slots = cm_calloc(cl->opts.slots, sizeof(*cl->slots));
    if (!cl->slots) {
        nf4_client_close(cl);
        return cm_errf(err, errlen, "out of memory for %u NFSv4 slots", cl->opts.slots),
               -ENOMEM;
    }
    if (cl->opts.minor == 0)
        nf4__slots_reset(cl, cl->opts.slots); /* no session: no slots to ask for */
    cl->st.slots_asked = cl->opts.slots;
    cl->lease_ms = NF4_LEASE_DEFAULT_S * 1000u;
    make_owner(cl);
    cl->state = NF4_ST_NEW_CLIENT;
    cl->recovery_start_ns = now_ns(cl);
    ctl_start(cl);
    rc = run_until_done(cl, &cl->ctl);
    while (rc == 0 && cl->state != NF4_ST_UP && cl->state != NF4_ST_DEAD)
        rc = run_until_done(cl, &cl->ctl);
    if (rc < 0 || cl->state != NF4_ST_UP) {
        cm_errf(err, errlen, "%s", rc < 0 ? strerror(-rc) : cl->last_error);
        nf4_client_close(cl);
        return rc < 0 ? rc : -EPROTO;
    }
    *out = cl;
    return 0;
}

/* Sends one state call of close alone, bounded. */
static void destroy_call(struct nf4_client *cl, struct nf4_call *call)
{
    if (call->state != NF4_C_IDLE && call->state != NF4_C_DONE)
        return; /* the last one never ended: the close cancels it */
    call->timeout_ms = DESTROY_MS;
    call->res.data = NULL;
    start_internal(cl, call, sync_done, NF4_F_INTERNAL | NF4_F_CTL);
    (void)run_until_done(cl, call);
}

/* Lets a recovery under way (a new session or client) end, bounded by
 * DESTROY_MS: a CREATE_SESSION or EXCHANGE_ID the server already ran
 * would otherwise be cancelled unread, and DESTROY_SESSION and
 * DESTROY_CLIENTID would name the state before it - what the server made
 * for the recovery would stay there until its lease ran out. */
static void finish_recovery(struct nf4_client *cl)
{
    uint64_t end = cm_now_ns() + DESTROY_MS * NS_PER_MS; /* the real clock */

    while (cl->established && cl->state != NF4_ST_UP && cl->state != NF4_ST_DEAD &&
           rp_client_state(cl->rpc) == RP_STATE_UP) {
        uint64_t now = cm_now_ns();
        int rc;

        if (now >= end)
            break;
        rc = nf4_poll(cl, until_ms(end, now));
        if (rc < 0 && rc != -EINTR)
            break;
    }
}

int nf4_client_close(struct nf4_client *cl)
{
    struct nf4_call *last = NULL;
    int rc = 0;

    if (!cl)
        return 0;
    if (cl->rpc)
        finish_recovery(cl);
    cl->state = NF4_ST_CLOSING;
    fail_all(cl, RP_ERR_CANCELED);
    /* what the server keeps of this client goes now, not at the lease's
     * end (4.0 has no call for it) */
    if (cl->rpc && rp_client_state(cl->rpc) == RP_STATE_UP && cl->opts.minor >= 1 &&
        cl->clientid && (last = cm_calloc(1, sizeof(*last))) != NULL) {
        if (cl->session_gen) {
            nf4__destroy_session(cl, &last->args);
            destroy_call(cl, last);
        }
        nf4__destroy_clientid(cl, &last->args);
        destroy_call(cl, last);
        if (last->state != NF4_C_DONE)
            rc = -ETIMEDOUT;
        else
            rc = last->status < 0 ? last->status : (int)last->res.status;
    }
    fail_all(cl, RP_ERR_CANCELED);
    rp_client_close(cl->rpc); /* the calls in flight complete, canceled */
    free(last);
    free(cl->slots);
    free(cl);
    return rc;
}

/* ---- accessors -------------------------------------------------------------------- */

unsigned nf4_client_pending(const struct nf4_client *cl)
{
    return cl->pending;
}

uint32_t nf4_client_epoch(const struct nf4_client *cl)
{
    return cl->epoch;
}

uint32_t nf4_client_minor(const struct nf4_client *cl)
{
    return cl->opts.minor;
}

struct rp_client *nf4_client_rpc(const struct nf4_client *cl)
{
    return cl->rpc;
}

void nf4_client_stats(const struct nf4_client *cl, struct nf4_client_stats *st)
{
    *st = cl->st;
}

const char *nf4_client_last_error(const struct nf4_client *cl)
{
    return cl->last_error;
}
