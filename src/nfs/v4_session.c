/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_session.c - the NFSv4 client's state calls and its slot table
 * (nf4_int.h): the compound of each step of establishing a client -
 * EXCHANGE_ID, CREATE_SESSION, RECLAIM_COMPLETE (4.1, RFC 8881 18.35,
 * 18.36, 18.51), SETCLIENTID and SETCLIENTID_CONFIRM (4.0, RFC 7530
 * 16.33-34), the lease time - what each successful reply changes, and the
 * compounds that keep the lease and end the client.  v4_client.c decides
 * when each is sent; nothing here sends.
 */
#include <assert.h>
#include <string.h>
#include <strings.h>

#include "nfs/nf4_int.h"

/* The fore channel asked for: requests up to a 1 MB WRITE and its
 * headers, replies up to a 1 MB READ, cached replies (those of calls that
 * change something) small, as many operations as a compound of FreeSFS
 * holds.  The back channel is declared because the RFC requires its
 * attributes, but never bound (no CONN_BACK_CHAN flag): no callbacks, so
 * no delegations a correct server could grant. */
#define FORE_MAX_REQUEST  (1048576u + 4096u)
#define FORE_MAX_RESPONSE (1048576u + 4096u)
#define FORE_MAX_CACHED   8192u
#define BACK_MAX_MESSAGE  4096u

static void fore_channel(channel_attrs4 *a, unsigned slots)
{
    memset(a, 0, sizeof(*a));
    a->ca_maxrequestsize = FORE_MAX_REQUEST;
    a->ca_maxresponsesize = FORE_MAX_RESPONSE;
    a->ca_maxresponsesize_cached = FORE_MAX_CACHED;
    a->ca_maxoperations = NF4_MAX_OPS;
    a->ca_maxrequests = slots;
}

static void back_channel(channel_attrs4 *a)
{
    memset(a, 0, sizeof(*a));
    a->ca_maxrequestsize = BACK_MAX_MESSAGE;
    a->ca_maxresponsesize = BACK_MAX_MESSAGE;
    a->ca_maxoperations = 2;
    a->ca_maxrequests = 1;
}

/* The callback's security: none (the back channel is never used).  The
 * encoder only reads it. */
static callback_sec_parms4 cb_sec_none = {.cb_secflavor = AUTH_NONE};
static char cb_netid[] = "tcp";
static char cb_addr[] = "0.0.0.0.0.0";

void nf4__state_compound(const struct nf4_client *cl, enum nf4_state st,
                         struct nf4_compound *c)
{
    uint32_t minor = cl->opts.minor;
    nfs_argop4 *a;

    nf4_compound_init(c, minor,
                      st == NF4_ST_NEW_CLIENT || st == NF4_ST_CONFIRM ||
                          st == NF4_ST_NEW_SESSION);
    switch (st) {
    case NF4_ST_NEW_CLIENT:
        if (minor == 0) {
            SETCLIENTID4args *s = &nf4_op(c, OP_SETCLIENTID)->nfs_argop4_u.opsetclientid;

            memcpy(s->client.verifier, cl->boot_verf, NFS4_VERIFIER_SIZE);
            s->client.id.id_len = cl->owner_len;
            s->client.id.id_val = (char *)(uintptr_t)cl->owner;
            s->callback.cb_location.na_r_netid = cb_netid;
            s->callback.cb_location.na_r_addr = cb_addr;
        } else {
            EXCHANGE_ID4args *e = &nf4_op(c, OP_EXCHANGE_ID)->nfs_argop4_u.opexchange_id;

            memcpy(e->eia_clientowner.co_verifier, cl->boot_verf, NFS4_VERIFIER_SIZE);
            e->eia_clientowner.co_ownerid.co_ownerid_len = cl->owner_len;
            e->eia_clientowner.co_ownerid.co_ownerid_val = (char *)(uintptr_t)cl->owner;
            e->eia_flags = EXCHGID4_FLAG_USE_NON_PNFS;
            e->eia_state_protect.spa_how = SP4_NONE;
        }
        break;
    case NF4_ST_CONFIRM:
        a = nf4_op(c, OP_SETCLIENTID_CONFIRM);
        a->nfs_argop4_u.opsetclientid_confirm.clientid = cl->clientid;
        memcpy(a->nfs_argop4_u.opsetclientid_confirm.setclientid_confirm, cl->confirm,
               NFS4_VERIFIER_SIZE);
        break;
    case NF4_ST_NEW_SESSION: {
        CREATE_SESSION4args *s =
            &nf4_op(c, OP_CREATE_SESSION)->nfs_argop4_u.opcreate_session;

        s->csa_clientid = cl->clientid;
        s->csa_sequence = cl->cs_seq;
        s->csa_flags = 0;
        fore_channel(&s->csa_fore_chan_attrs, cl->opts.slots);
        back_channel(&s->csa_back_chan_attrs);
        s->csa_cb_program = NFS4_CALLBACK;
        s->csa_sec_parms.csa_sec_parms_len = 1;
        s->csa_sec_parms.csa_sec_parms_val = &cb_sec_none;
        break;
    }
    case NF4_ST_RECLAIM:
        a = nf4_op(c, OP_RECLAIM_COMPLETE);
        a->nfs_argop4_u.opreclaim_complete.rca_one_fs = FALSE;
        break;
    case NF4_ST_LEASE:
        nf4_op_putrootfh(c);
        nf4_op_getattr(c, NF4_MASK_SERVER);
        break;
    default:
        break;
    }
}

/*
 * Whether the client EXCHANGE_ID (result o) just made follows a restart of
 * the server rather than a lease that ran out (RFC 8881 8.4.2, 8.4.3): the
 * recovery began with STALE_CLIENTID (the server does not know the old
 * client id at all, where a lost lease is EXPIRED to a server that still
 * remembers it), the server holds no confirmed record of this owner (no
 * CONFIRMED_R), and the server is a new instance - its owner and scope
 * differ from the last EXCHANGE_ID's, or the client id's upper word
 * differs, where servers put their boot instance so that an old id is
 * known stale (nfs-ganesha's epoch, sfs_nfsd's instance).  A server that
 * only let the lease run out keeps both.  Only then are opens reclaimed.
 */
static void restart_seen(struct nf4_client *cl, const struct nf4_resop *o)
{
    uint64_t id = o->u.exchange_id.server_id;

    cl->restarted = cl->established && cl->stale_seen &&
                    !(o->u.exchange_id.flags & EXCHGID4_FLAG_CONFIRMED_R) &&
                    (id != cl->server_id || (uint32_t)(o->u.exchange_id.clientid >> 32) !=
                                                (uint32_t)(cl->clientid >> 32));
    if (cl->restarted)
        cl->st.restarts++;
    cl->server_id = id;
    cl->stale_seen = 0;
}

enum nf4_state nf4__state_apply(struct nf4_client *cl, enum nf4_state st,
                                const struct nf4_res *r)
{
    const struct nf4_resop *o = r->nops ? &r->op[r->nops - 1] : NULL;

    switch (st) {
    case NF4_ST_NEW_CLIENT:
        if (cl->opts.minor == 0) {
            cl->clientid = o->u.setclientid.clientid;
            memcpy(cl->confirm, o->u.setclientid.setclientid_confirm, NFS4_VERIFIER_SIZE);
            return NF4_ST_CONFIRM;
        }
        restart_seen(cl, o);
        cl->clientid = o->u.exchange_id.clientid;
        cl->cs_seq = o->u.exchange_id.sequenceid;
        cl->from_new_client = 1;
        return NF4_ST_NEW_SESSION;
    case NF4_ST_CONFIRM:
        cl->epoch++;
        return cl->established ? NF4_ST_UP : NF4_ST_LEASE;
    case NF4_ST_NEW_SESSION: {
        unsigned granted = o->u.create_session.fore.ca_maxrequests;

        memcpy(cl->sessionid, o->u.create_session.sessionid, NFS4_SESSIONID_SIZE);
        cl->cs_seq++;
        cl->session_gen++;
        if (granted == 0 || granted > cl->opts.slots)
            granted = cl->opts.slots;
        nf4__slots_reset(cl, granted);
        cl->st.slots_granted = granted;
        cl->st.max_ops = o->u.create_session.fore.ca_maxoperations;
        cl->st.max_request = o->u.create_session.fore.ca_maxrequestsize;
        cl->st.max_response = o->u.create_session.fore.ca_maxresponsesize;
        if (!cl->from_new_client)
            return NF4_ST_UP;
        if (cl->from_new_client == 1) {
            /* the new client's first session (not one made again before
             * its RECLAIM_COMPLETE): its epoch begins here, so that what
             * it reclaims before RECLAIM_COMPLETE is already its own */
            cl->from_new_client = 2;
            cl->epoch++;
            if (cl->restarted && cl->opts.reclaim)
                return NF4_ST_RECLAIMING;
        }
        return NF4_ST_RECLAIM;
    }
    case NF4_ST_RECLAIM:
        cl->from_new_client = 0;
        cl->restarted = 0;
        return cl->established ? NF4_ST_UP : NF4_ST_LEASE;
    case NF4_ST_LEASE: {
        const struct nf4_resop *g = nf4_res_find(r, OP_GETATTR, 0);

        if (g) {
            cl->server = g->u.getattr;
            if (nf4_attr_isset(g->u.getattr.have, FATTR4_LEASE_TIME) &&
                g->u.getattr.lease_time)
                cl->lease_ms = g->u.getattr.lease_time * 1000u;
        }
        cl->st.lease_s = cl->lease_ms / 1000u;
        return NF4_ST_UP;
    }
    default:
        return st;
    }
}

void nf4__destroy_session(const struct nf4_client *cl, struct nf4_compound *c)
{
    nf4_compound_init(c, 1, 1); /* alone in its compound: no SEQUENCE */
    memcpy(nf4_op(c, OP_DESTROY_SESSION)->nfs_argop4_u.opdestroy_session.dsa_sessionid,
           cl->sessionid, NFS4_SESSIONID_SIZE);
}

void nf4__destroy_clientid(const struct nf4_client *cl, struct nf4_compound *c)
{
    nf4_compound_init(c, 1, 1);
    nf4_op(c, OP_DESTROY_CLIENTID)->nfs_argop4_u.opdestroy_clientid.dca_clientid =
        cl->clientid;
}

void nf4__renew_compound(const struct nf4_client *cl, struct nf4_compound *c)
{
    nf4_compound_init(c, cl->opts.minor, 0);
    if (cl->opts.minor == 0)
        nf4_op(c, OP_RENEW)->nfs_argop4_u.oprenew.clientid = cl->clientid;
}

const char *nf4__state_name(const struct nf4_client *cl, enum nf4_state st)
{
    switch (st) {
    case NF4_ST_NEW_CLIENT:
        return cl->opts.minor == 0 ? "SETCLIENTID" : "EXCHANGE_ID";
    case NF4_ST_CONFIRM:
        return "SETCLIENTID_CONFIRM";
    case NF4_ST_NEW_SESSION:
        return "CREATE_SESSION";
    case NF4_ST_RECLAIMING:
        return "reclaim";
    case NF4_ST_RECLAIM:
        return "RECLAIM_COMPLETE";
    case NF4_ST_LEASE:
        return "PUTROOTFH GETATTR";
    default:
        return "state";
    }
}

/* ---- the slot table -------------------------------------------------------- */

int nf4__slot_get(struct nf4_client *cl)
{
    unsigned w, words = (cl->usable + 31) / 32;

    for (w = 0; w < words; w++) {
        uint32_t freebits = ~cl->busy_bits[w];
        unsigned s;

        if (!freebits)
            continue;
        s = w * 32 + (unsigned)(ffs((int)freebits) - 1);
        if (s >= cl->usable)
            return -1;
        cl->busy_bits[w] |= 1u << (s % 32);
        cl->busy++;
        if (s > cl->highest || cl->busy == 1)
            cl->highest = s;
        return (int)s;
    }
    return -1;
}

void nf4__slot_put(struct nf4_client *cl, unsigned s)
{
    assert(cl->busy_bits[s / 32] >> (s % 32) & 1u); /* a slot freed twice */
    cl->busy_bits[s / 32] &= ~(1u << (s % 32));
    cl->busy--;
    while (cl->busy && s == cl->highest && s > 0 &&
           !(cl->busy_bits[s / 32] >> (s % 32) & 1u))
        cl->highest = --s;
}

void nf4__slots_reset(struct nf4_client *cl, unsigned n)
{
    unsigned s;

    for (s = 0; s < cl->opts.slots; s++) {
        cl->slots[s].seqid = 1;
        cl->slots[s].uncertain = 0;
    }
    cl->nslots = n;
    cl->usable = n;
}
