/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_session.c - NFSv4.1 sessions of sfs_nfsd (server layer, RFC 8881
 * 2.10, 18.33-18.37, 18.46): CREATE_SESSION with its own replay cache (the
 * client record's sequence), DESTROY_SESSION, BIND_CONN_TO_SESSION,
 * BACKCHANNEL_CTL, and SEQUENCE over the session's slot table: a request
 * one ahead of the slot is new, the same one again is a retry answered
 * from the slot's cached reply (exactly once: nothing is executed again),
 * anything else is SEQ_MISORDERED; a retry whose request differs from
 * the original (a hash of its first bytes and its length) is
 * SEQ_FALSE_RETRY, and one whose reply was not cached (the client did not
 * ask, sa_cachethis) RETRY_UNCACHED_REP.
 *
 * No back channel: no delegation or layout is ever granted, so the server
 * never calls back; CREATE_SESSION's reply flags say the connection is not
 * bound to one (no CONN_BACK_CHAN) and the session is not persistent.
 */
#include "server/nfs4_int.h"
#include "common/alloc.h"
#include "common/bytes.h"

#include <stdlib.h>
#include <string.h>

/* Session ids: the instance word, the client's number, a session number
 * and a check word, so SEQUENCE finds the client without a search. */
static void session_id(struct sv4 *v, const struct sv4_client *cl, uint8_t id[16])
{
    uint32_t n = ++v->next_session;

    cm_be32_put(id, v->instance32);
    cm_be32_put(id + 4, cl->number);
    cm_be32_put(id + 8, n);
    cm_be32_put(id + 12, n * 2654435761u ^ v->instance32);
}

static struct sv4_session *session_find(struct sv4 *v, const char *id)
{
    const uint8_t *p = (const uint8_t *)id;
    struct sv4_client *cl;

    if (cm_be32_get(p) != v->instance32)
        return NULL;
    cl = sv4_client_numbered(v, cm_be32_get(p + 4));
    for (struct sv4_session *s = cl ? cl->sessions : NULL; s != NULL; s = s->next)
        if (memcmp(s->id, p, NFS4_SESSIONID_SIZE) == 0)
            return s;
    return NULL;
}

uint64_t sv4_request_hash(const uint8_t *msg, size_t len)
{
    /* over the first 512 bytes and the length: a false retry sends other
     * operations or arguments, and hashing a whole WRITE's data would cost
     * more than the write.  A word at a time (FNV-1a's constants, a shift
     * to fold the high bits down): the hash is taken for every 4.1
     * compound, and byte by byte it cost more than the GETATTR after it. */
    uint64_t h = 14695981039346656037ull ^ len;
    size_t n = len < 512 ? len : 512, i = 0;

    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, msg + i, sizeof(w));
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ msg[i]) * 1099511628211ull;
    return h;
}

static uint32_t min32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* ---- CREATE_SESSION -------------------------------------------------------- */

static nfsstat4 create(struct sv4_call *x, struct sv4_client *cl,
                       const CREATE_SESSION4args *args, CREATE_SESSION4resok *ok)
{
    const channel_attrs4 *f = &args->csa_fore_chan_attrs;
    struct sv4 *v = x->v;
    struct sv4_session *s;
    uint32_t nslots;

    if (args->csa_flags &
        ~(CREATE_SESSION4_FLAG_PERSIST | CREATE_SESSION4_FLAG_CONN_BACK_CHAN |
          CREATE_SESSION4_FLAG_CONN_RDMA))
        return NFS4ERR_INVAL;
    if (f->ca_maxrequestsize < SV4_MIN_CHANNEL ||
        f->ca_maxresponsesize < SV4_MIN_CHANNEL ||
        args->csa_back_chan_attrs.ca_maxrequestsize < SV4_MIN_CHANNEL ||
        args->csa_back_chan_attrs.ca_maxresponsesize < SV4_MIN_CHANNEL)
        return NFS4ERR_TOOSMALL; /* the back channel's too, though unused */
    if (cl->nsessions >= SV4_MAX_SESSIONS)
        return NFS4ERR_NOSPC;
    nslots = min32(f->ca_maxrequests ? f->ca_maxrequests : 1, SV4_MAX_SLOTS);
    s = cm_calloc(1, sizeof(*s));
    if (s == NULL || (s->slots = cm_calloc(nslots, sizeof(*s->slots))) == NULL) {
        free(s);
        return NFS4ERR_DELAY;
    }
    s->cl = cl;
    s->nslots = nslots;
    session_id(v, cl, s->id);
    s->fore.ca_headerpadsize = 0;
    s->fore.ca_maxrequestsize = min32(f->ca_maxrequestsize, SV_MSG_MAX);
    s->fore.ca_maxresponsesize = min32(f->ca_maxresponsesize, SV_REPLY_MAX - 64);
    s->fore.ca_maxresponsesize_cached =
        min32(f->ca_maxresponsesize_cached, SV4_CACHED_MAX);
    s->fore.ca_maxoperations = min32(f->ca_maxoperations, SV4_MAX_OPS);
    s->fore.ca_maxrequests = nslots;
    s->back = args->csa_back_chan_attrs; /* no back channel: echoed */
    s->back.ca_rdma_ird.ca_rdma_ird_len = 0;
    s->back.ca_rdma_ird.ca_rdma_ird_val = NULL;
    s->flags = 0; /* not persistent, no back channel on this connection */
    s->next = cl->sessions;
    cl->sessions = s;
    cl->nsessions++;
    if (!cl->confirmed) {
        /* the first session confirms the record; a confirmed one of the
         * same owner was the client before it restarted, and goes */
        for (struct sv4_client *old = v->clients; old != NULL; old = old->next)
            if (old != cl && old->minor == 1 && old->confirmed &&
                old->ownerlen == cl->ownerlen &&
                memcmp(old->owner, cl->owner, cl->ownerlen) == 0) {
                sv4_client_free(v, old);
                break;
            }
        cl->confirmed = 1;
    }
    memcpy(ok->csr_sessionid, s->id, NFS4_SESSIONID_SIZE);
    ok->csr_sequence = args->csa_sequence;
    ok->csr_flags = s->flags;
    ok->csr_fore_chan_attrs = s->fore;
    ok->csr_back_chan_attrs = s->back;
    return NFS4_OK;
}

nfsstat4 sv4_op_create_session(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const CREATE_SESSION4args *args = &a->nfs_argop4_u.opcreate_session;
    CREATE_SESSION4res *res = &r->nfs_resop4_u.opcreate_session;
    struct sv4_client *cl = sv4_client_find(x->v, args->csa_clientid);

    if (cl == NULL || cl->minor != 1)
        return res->csr_status = NFS4ERR_STALE_CLIENTID;
    if (args->csa_sequence == cl->cs_seq && cl->cs_cached) {
        /* a retry: the reply the first one got, and nothing done again */
        res->CREATE_SESSION4res_u.csr_resok4 = cl->cs_reply;
        return res->csr_status = cl->cs_status;
    }
    if (args->csa_sequence != cl->cs_seq + 1)
        return res->csr_status = NFS4ERR_SEQ_MISORDERED;
    if (!cl->confirmed && cl->uid != x->c->cred_uid)
        /* another principal confirming the record (RFC 8881 18.36.4) */
        return res->csr_status = NFS4ERR_CLID_INUSE;
    res->csr_status = create(x, cl, args, &res->CREATE_SESSION4res_u.csr_resok4);
    sv4_client_renew(x, cl);
    if (res->csr_status != NFS4_OK)
        return res->csr_status; /* refused: the sequence does not advance */
    cl->cs_seq = args->csa_sequence;
    cl->cs_cached = 1;
    cl->cs_status = res->csr_status;
    cl->cs_reply = res->CREATE_SESSION4res_u.csr_resok4;
    return res->csr_status;
}

static void destroy(struct sv4_call *x, struct sv4_session *s)
{
    struct sv4_session **pp;

    if (s == x->sess) {
        /* the compound's own session: its reply is not cached any more */
        x->sess = NULL;
        x->slot = NULL;
    }
    for (pp = &s->cl->sessions; *pp != s;)
        pp = &(*pp)->next;
    *pp = s->next;
    s->cl->nsessions--;
    sv4_session_free(s);
}

nfsstat4 sv4_op_destroy_session(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv4_session *s =
        session_find(x->v, a->nfs_argop4_u.opdestroy_session.dsa_sessionid);

    if (s == NULL)
        return r->nfs_resop4_u.opdestroy_session.dsr_status = NFS4ERR_BADSESSION;
    destroy(x, s);
    return r->nfs_resop4_u.opdestroy_session.dsr_status = NFS4_OK;
}

void sv4_session_fault(struct sv4_call *x, const SEQUENCE4args *args, nfsstat4 st)
{
    struct sv4_session *s = session_find(x->v, args->sa_sessionid);

    if (s == NULL)
        return;
    if (st == NFS4ERR_BADSESSION)
        destroy(x, s);
    else if (st == NFS4ERR_DEADSESSION)
        s->dead = 1;
}

nfsstat4 sv4_op_bind_conn_to_session(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const BIND_CONN_TO_SESSION4args *args = &a->nfs_argop4_u.opbind_conn_to_session;
    BIND_CONN_TO_SESSION4res *res = &r->nfs_resop4_u.opbind_conn_to_session;
    struct sv4_session *s = session_find(x->v, args->bctsa_sessid);

    if (s == NULL)
        return res->bctsr_status = NFS4ERR_BADSESSION;
    if (args->bctsa_dir != CDFC4_FORE && args->bctsa_dir != CDFC4_FORE_OR_BOTH)
        return res->bctsr_status = NFS4ERR_INVAL; /* there is no back channel */
    sv4_client_renew(x, s->cl);
    memcpy(res->BIND_CONN_TO_SESSION4res_u.bctsr_resok4.bctsr_sessid, s->id,
           NFS4_SESSIONID_SIZE);
    res->BIND_CONN_TO_SESSION4res_u.bctsr_resok4.bctsr_dir = CDFS4_FORE;
    res->BIND_CONN_TO_SESSION4res_u.bctsr_resok4.bctsr_use_conn_in_rdma_mode = FALSE;
    return res->bctsr_status = NFS4_OK;
}

/* Accepted and kept nowhere: the server never calls back. */
nfsstat4 sv4_op_backchannel_ctl(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    (void)x, (void)a;
    return r->nfs_resop4_u.opbackchannel_ctl.bcr_status = NFS4_OK;
}

/* ---- SEQUENCE --------------------------------------------------------------- */

nfsstat4 sv4_op_sequence(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const SEQUENCE4args *args = &a->nfs_argop4_u.opsequence;
    SEQUENCE4res *res = &r->nfs_resop4_u.opsequence;
    SEQUENCE4resok *ok = &res->SEQUENCE4res_u.sr_resok4;
    struct sv4_session *s = session_find(x->v, args->sa_sessionid);
    struct sv4_slot *slot;

    if (s != NULL && sv4_lease_cut(x, s->cl))
        s = NULL; /* --expire-leases: the client went, its sessions too */
    if (s == NULL)
        return res->sr_status = NFS4ERR_BADSESSION;
    if (s->dead)
        return res->sr_status = NFS4ERR_DEADSESSION;
    if (args->sa_slotid >= s->nslots)
        return res->sr_status = NFS4ERR_BADSLOT;
    slot = &s->slots[args->sa_slotid];
    x->req_hash = sv4_request_hash(x->req_args, x->req_args_len);
    if (args->sa_sequenceid == slot->seqid && slot->seqid != 0) {
        if (!slot->cached)
            return res->sr_status = NFS4ERR_RETRY_UNCACHED_REP;
        if (slot->req_hash != x->req_hash)
            return res->sr_status = NFS4ERR_SEQ_FALSE_RETRY;
        x->replay = slot->reply;
        x->replay_len = slot->len;
        x->v->slot_replays++;
        sv4_client_renew(x, s->cl);
        return res->sr_status = NFS4_OK;
    }
    if (args->sa_sequenceid != slot->seqid + 1)
        return res->sr_status = NFS4ERR_SEQ_MISORDERED;
    if (x->nops > s->fore.ca_maxoperations)
        return res->sr_status = NFS4ERR_TOO_MANY_OPS;
    if (x->req_len > s->fore.ca_maxrequestsize)
        return res->sr_status = NFS4ERR_REQ_TOO_BIG;
    slot->seqid = args->sa_sequenceid;
    slot->cached = 0;
    slot->req_hash = x->req_hash;
    x->sess = s;
    x->slot = slot;
    x->cl = s->cl;
    x->cachethis = args->sa_cachethis;
    if (x->reply_room > s->fore.ca_maxresponsesize - x->reply_start)
        x->reply_room =
            s->fore.ca_maxresponsesize - x->reply_start; /* with the RPC header */
    if (x->cachethis && x->reply_room > s->fore.ca_maxresponsesize_cached)
        x->reply_room = s->fore.ca_maxresponsesize_cached;
    sv4_client_renew(x, s->cl);
    memcpy(ok->sr_sessionid, s->id, NFS4_SESSIONID_SIZE);
    ok->sr_sequenceid = args->sa_sequenceid;
    ok->sr_slotid = args->sa_slotid;
    ok->sr_highest_slotid = s->nslots - 1;
    ok->sr_target_highest_slotid = s->nslots - 1;
    ok->sr_status_flags = 0;
    return res->sr_status = NFS4_OK;
}

void sv4_slot_store(struct sv4_call *x, const uint8_t *reply, uint32_t len)
{
    struct sv4_slot *slot = x->slot;

    if (slot == NULL || !x->cachethis)
        return;
    if (len > slot->cap) {
        uint8_t *b = cm_realloc(slot->reply, len);
        if (b == NULL)
            return; /* not cached: a retry is told RETRY_UNCACHED_REP */
        slot->reply = b;
        slot->cap = len;
    }
    memcpy(slot->reply, reply, len);
    slot->len = len;
    slot->cached = 1;
}
