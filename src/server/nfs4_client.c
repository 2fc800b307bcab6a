/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_client.c - NFSv4 client records and what hangs from them (server
 * layer): the records themselves (NFSv4.0 SETCLIENTID/SETCLIENTID_CONFIRM/
 * RENEW, RFC 7530 16.33-16.34; NFSv4.1 EXCHANGE_ID/DESTROY_CLIENTID/
 * RECLAIM_COMPLETE, RFC 8881 18.35, 18.50, 18.51), leases and their
 * expiry, and the memory of a client's sessions, owners and stateids, so
 * that a client that goes - destroyed, replaced after a reboot, or silent
 * past its lease - takes all of it along.  The operations on sessions and
 * state (nfs4_session.c, nfs4_state.c) use the records kept here.
 *
 * Client ids are the server instance's low word and a record number, so
 * an id from before a restart is STALE_CLIENTID; stateids carry the
 * instance word, the client's number and the state's key, so a stateid of
 * a client whose lease ran out is EXPIRED rather than unknown, and so is
 * that client's id to a 4.0 operation (the numbers of the last
 * SV4_EXPIRED_MAX expired clients are kept: looked through only on the
 * error paths).
 */
#include "server/nfs4_int.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- records --------------------------------------------------------------- */

struct sv4_client *sv4_client_numbered(const struct sv4 *v, uint32_t number)
{
    return sv__map_get(&v->by_number, number);
}

struct sv4_client *sv4_client_find(struct sv4 *v, clientid4 id)
{
    struct sv4_client *cl;

    if ((uint32_t)(id >> 32) != v->instance32)
        return NULL;
    cl = sv4_client_numbered(v, (uint32_t)id);
    return cl != NULL && cl->clientid == id ? cl : NULL;
}

/* The record of an owner string, confirmed or not, of a minor version. */
static struct sv4_client *find_owner(struct sv4 *v, uint32_t minor, int confirmed,
                                     const char *owner, u_int len)
{
    for (struct sv4_client *cl = v->clients; cl != NULL; cl = cl->next)
        if (cl->minor == minor && cl->confirmed == confirmed && cl->ownerlen == len &&
            memcmp(cl->owner, owner, len) == 0)
            return cl;
    return NULL;
}

static struct sv4_client *client_new(struct sv4_call *x, const char *owner, u_int len,
                                     const char *verifier)
{
    struct sv4 *v = x->v;
    struct sv4_client *cl;

    if (v->nclients >= SV4_MAX_CLIENTS || len > SV4_OWNER_MAX)
        return NULL;
    cl = cm_calloc(1, sizeof(*cl));
    if (cl == NULL)
        return NULL;
    cl->number = ++v->next_client;
    if (sv__map_put(&v->by_number, cl->number, cl) != 0) {
        free(cl);
        return NULL;
    }
    cl->clientid = (uint64_t)v->instance32 << 32 | cl->number;
    cl->minor = x->minor;
    cl->uid = x->c->cred_uid;
    memcpy(cl->verifier, verifier, NFS4_VERIFIER_SIZE);
    memcpy(cl->owner, owner, len);
    cl->ownerlen = len;
    cl->renewed_ns = x->now_ns;
    cl->next = v->clients;
    v->clients = cl;
    v->nclients++;
    return cl;
}

void sv4_session_free(struct sv4_session *s)
{
    if (s == NULL)
        return;
    for (uint32_t i = 0; i < s->nslots; i++)
        free(s->slots[i].reply);
    free(s->slots);
    free(s);
}

/* ---- state memory ----------------------------------------------------------- */

struct sv4_file *sv4_file_get(struct sv4 *v, uint64_t fileid, int create)
{
    struct sv4_file *f = sv__map_get(&v->files, fileid);

    if (f != NULL || !create)
        return f;
    f = cm_calloc(1, sizeof(*f));
    if (f == NULL)
        return NULL;
    f->fileid = fileid;
    if (sv__map_put(&v->files, fileid, f) != 0) {
        free(f);
        return NULL;
    }
    /* a file with state outlives its last name until the state goes
     * (RFC 7530 9.1.1: a removed file's handle stays good until CLOSE) */
    sv__fs_hold(v->c->fs, fileid);
    return f;
}

void sv4_file_put(struct sv4 *v, struct sv4_file *f)
{
    if (f != NULL && f->opens == NULL && f->locks == NULL) {
        sv__map_del(&v->files, f->fileid);
        sv__fs_release(v->c->fs, f->fileid);
        free(f);
    }
}

struct sv4_owner *sv4_owner_find(struct sv4_client *cl, int lock, const char *data,
                                 u_int len)
{
    for (struct sv4_owner *o = cl->owners; o != NULL; o = o->next)
        if (o->lock == lock && o->len == len && memcmp(o->data, data, len) == 0)
            return o;
    return NULL;
}

struct sv4_owner *sv4_owner_new(struct sv4_client *cl, int lock, const char *data,
                                u_int len)
{
    struct sv4_owner *o;

    if (cl->nowners >= SV4_MAX_OWNERS || len > SV4_OWNER_MAX)
        return NULL;
    o = cm_calloc(1, sizeof(*o) + len);
    if (o == NULL)
        return NULL;
    o->cl = cl;
    o->lock = lock;
    o->len = len;
    memcpy(o->data, data, len);
    o->next = cl->owners;
    cl->owners = o;
    cl->nowners++;
    return o;
}

void sv4_owner_free(struct sv4_owner *o)
{
    struct sv4_owner **pp = &o->cl->owners;

    while (*pp != o)
        pp = &(*pp)->next;
    *pp = o->next;
    o->cl->nowners--;
    free(o->last_reply);
    free(o);
}

struct sv4_state *sv4_state_new(struct sv4 *v, struct sv4_client *cl, struct sv4_owner *o,
                                struct sv4_file *f, int lock)
{
    struct sv4_state *st;

    if (cl->nstates >= SV4_MAX_STATES)
        return NULL;
    st = cm_calloc(1, sizeof(*st));
    if (st == NULL)
        return NULL;
    st->key = ++v->next_state;
    if (st->key == 0)
        st->key = ++v->next_state;
    if (sv__map_put(&v->states, st->key, st) != 0) {
        free(st);
        return NULL;
    }
    st->cl = cl;
    st->owner = o;
    st->file = f;
    st->lock = lock;
    st->seqid = 1;
    if (lock) {
        st->next_in_file = f->locks;
        f->locks = st;
    } else {
        st->next_in_file = f->opens;
        f->opens = st;
    }
    st->next_in_client = cl->states;
    cl->states = st;
    cl->nstates++;
    o->nstates++;
    return st;
}

void sv4_state_free(struct sv4 *v, struct sv4_state *st)
{
    struct sv4_state **pp = st->lock ? &st->file->locks : &st->file->opens;

    while (*pp != st)
        pp = &(*pp)->next_in_file;
    *pp = st->next_in_file;
    for (pp = &st->cl->states; *pp != st;)
        pp = &(*pp)->next_in_client;
    *pp = st->next_in_client;
    st->cl->nstates--;
    st->owner->nstates--;
    while (st->ranges != NULL) {
        struct sv4_range *r = st->ranges;
        st->ranges = r->next;
        st->cl->nranges--;
        free(r);
    }
    sv__map_del(&v->states, st->key);
    sv4_file_put(v, st->file);
    free(st);
}

/* ---- clients going ---------------------------------------------------------- */

void sv4_client_free(struct sv4 *v, struct sv4_client *cl)
{
    struct sv4_client **pp = &v->clients;

    while (cl->states != NULL) {
        /* a lock state before the open it came from */
        struct sv4_state *st = cl->states;
        for (struct sv4_state *s = cl->states; s != NULL; s = s->next_in_client)
            if (s->lock) {
                st = s;
                break;
            }
        sv4_state_free(v, st);
    }
    while (cl->owners != NULL)
        sv4_owner_free(cl->owners);
    while (cl->sessions != NULL) {
        struct sv4_session *s = cl->sessions;
        cl->sessions = s->next;
        sv4_session_free(s);
    }
    while (*pp != cl)
        pp = &(*pp)->next;
    *pp = cl->next;
    v->nclients--;
    sv__map_del(&v->by_number, cl->number);
    free(cl);
}

void sv4_clients_free(struct sv4 *v)
{
    while (v->clients != NULL)
        sv4_client_free(v, v->clients);
    sv__map_free(&v->states);
    sv__map_free(&v->files);
    sv__map_free(&v->by_number);
}

int sv4_client_gone(const struct sv4 *v, uint32_t number)
{
    uint32_t n = v->nexpired < SV4_EXPIRED_MAX ? v->nexpired : SV4_EXPIRED_MAX;

    for (uint32_t i = 0; i < n; i++)
        if (v->expired[i] == number)
            return v->rebooted[i] ? SV4_GONE_REBOOT : SV4_GONE_LEASE;
    return 0;
}

/* Removes cl, keeping its number and why it went: its stateids are
 * EXPIRED from now on, not unknown (and its id too when its lease ran
 * out). */
static void client_gone(struct sv4 *v, struct sv4_client *cl, int rebooted)
{
    v->rebooted[v->nexpired % SV4_EXPIRED_MAX] = (uint8_t)rebooted;
    v->expired[v->nexpired++ % SV4_EXPIRED_MAX] = cl->number;
    sv4_client_free(v, cl);
}

void sv4_client_expire(struct sv4 *v, struct sv4_client *cl)
{
    v->leases_expired++;
    client_gone(v, cl, 0);
}

void sv4_reap(struct sv4 *v, uint64_t now_ns)
{
    uint64_t lease_ns = (uint64_t)v->lease_s * 1000000000ull;
    struct sv4_client *cl, *next;

    if (now_ns - v->last_reap_ns < 1000000000ull && v->last_reap_ns != 0)
        return;
    v->last_reap_ns = now_ns;
    for (cl = v->clients; cl != NULL; cl = next) {
        next = cl->next;
        if (now_ns - cl->renewed_ns > lease_ns)
            sv4_client_expire(v, cl);
    }
}

void sv4_client_renew(struct sv4_call *x, struct sv4_client *cl)
{
    cl->renewed_ns = x->now_ns;
}

nfsstat4 sv4_client_lookup40(struct sv4_call *x, clientid4 id, struct sv4_client **out)
{
    struct sv4_client *cl = sv4_client_find(x->v, id);

    *out = NULL;
    if (cl == NULL && (uint32_t)(id >> 32) == x->v->instance32 &&
        sv4_client_gone(x->v, (uint32_t)id) == SV4_GONE_LEASE)
        return NFS4ERR_EXPIRED; /* removed when its lease ran out (RFC 7530 9.6) */
    if (cl == NULL || !cl->confirmed || cl->minor != 0)
        return NFS4ERR_STALE_CLIENTID;
    sv4_client_renew(x, cl);
    *out = cl;
    return NFS4_OK;
}

/* ---- NFSv4.0 ------------------------------------------------------------------- */

static void new_confirm(struct sv4 *v, struct sv4_client *cl)
{
    uint64_t c = (uint64_t)++v->next_session << 32 | cl->number;

    memcpy(cl->confirm, &c, sizeof(c));
}

nfsstat4 sv4_op_setclientid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const SETCLIENTID4args *args = &a->nfs_argop4_u.opsetclientid;
    SETCLIENTID4res *res = &r->nfs_resop4_u.opsetclientid;
    const char *id = args->client.id.id_val;
    u_int len = args->client.id.id_len;
    struct sv4 *v = x->v;
    struct sv4_client *conf = find_owner(v, 0, 1, id, len);
    struct sv4_client *unconf = find_owner(v, 0, 0, id, len);
    struct sv4_client *cl;

    if (conf != NULL && conf->uid != x->c->cred_uid && conf->nstates > 0) {
        /* another principal naming a client that holds state: not the
         * same client, and it may not take that state (RFC 7530 16.33.5) */
        res->SETCLIENTID4res_u.client_using.na_r_netid = "tcp";
        res->SETCLIENTID4res_u.client_using.na_r_addr = "";
        return res->status = NFS4ERR_CLID_INUSE;
    }
    if (unconf != NULL)
        sv4_client_free(v, unconf); /* a newer SETCLIENTID replaces it */
    cl = client_new(x, id, len, args->client.verifier);
    if (cl == NULL)
        return res->status = NFS4ERR_RESOURCE;
    if (conf != NULL &&
        memcmp(conf->verifier, args->client.verifier, NFS4_VERIFIER_SIZE) == 0)
        /* the same client instance updating its callback: same id */
        cl->clientid = conf->clientid;
    new_confirm(v, cl);
    res->SETCLIENTID4res_u.resok4.clientid = cl->clientid;
    memcpy(res->SETCLIENTID4res_u.resok4.setclientid_confirm, cl->confirm,
           NFS4_VERIFIER_SIZE);
    return res->status = NFS4_OK;
}

nfsstat4 sv4_op_setclientid_confirm(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const SETCLIENTID_CONFIRM4args *args = &a->nfs_argop4_u.opsetclientid_confirm;
    struct sv4 *v = x->v;
    struct sv4_client *cl, *unconf = NULL, *conf = NULL;
    nfsstat4 *st = &r->nfs_resop4_u.opsetclientid_confirm.status;

    for (cl = v->clients; cl != NULL; cl = cl->next) {
        if (cl->clientid != args->clientid || cl->minor != 0)
            continue;
        if (cl->confirmed)
            conf = cl;
        else if (memcmp(cl->confirm, args->setclientid_confirm, NFS4_VERIFIER_SIZE) == 0)
            unconf = cl;
    }
    if (unconf == NULL) {
        if (conf != NULL &&
            memcmp(conf->confirm, args->setclientid_confirm, NFS4_VERIFIER_SIZE) == 0) {
            sv4_client_renew(x, conf); /* a retransmission */
            return *st = NFS4_OK;
        }
        return *st = NFS4ERR_STALE_CLIENTID;
    }
    if (conf != NULL) {
        /* a callback update of a confirmed client: it keeps its state */
        memcpy(conf->confirm, unconf->confirm, NFS4_VERIFIER_SIZE);
        sv4_client_free(v, unconf);
        sv4_client_renew(x, conf);
        return *st = NFS4_OK;
    }
    /* a client that rebooted: its earlier incarnation goes, state and all,
     * and the stateids it held are EXPIRED (RFC 7530 16.34: its lease
     * state is gone, as when a lease runs out) */
    conf = find_owner(v, 0, 1, (const char *)unconf->owner, unconf->ownerlen);
    if (conf != NULL)
        client_gone(v, conf, 1);
    unconf->confirmed = 1;
    sv4_client_renew(x, unconf);
    return *st = NFS4_OK;
}

/* --expire-leases: this call finds its client's lease run out. */
int sv4_lease_cut(struct sv4_call *x, struct sv4_client *cl)
{
    if (!sv__fault_hit(x->c, x->c->fault.expire_lease_pct))
        return 0;
    x->v->leases_cut++;
    sv4_client_expire(x->v, cl);
    return 1;
}

nfsstat4 sv4_op_renew(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    clientid4 id = a->nfs_argop4_u.oprenew.clientid;
    struct sv4_client *cl = sv4_client_find(x->v, id);

    if (cl != NULL && cl->confirmed && sv4_lease_cut(x, cl))
        return r->nfs_resop4_u.oprenew.status = NFS4ERR_EXPIRED;
    return r->nfs_resop4_u.oprenew.status = sv4_client_lookup40(x, id, &cl);
}

/* ---- NFSv4.1 ------------------------------------------------------------------- */

#define EXCHGID4_FLAGS_ASKED                                                             \
    (EXCHGID4_FLAG_SUPP_MOVED_REFER | EXCHGID4_FLAG_SUPP_MOVED_MIGR |                    \
     EXCHGID4_FLAG_BIND_PRINC_STATEID | EXCHGID4_FLAG_MASK_PNFS |                        \
     EXCHGID4_FLAG_UPD_CONFIRMED_REC_A)

nfsstat4 sv4_op_exchange_id(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const EXCHANGE_ID4args *args = &a->nfs_argop4_u.opexchange_id;
    EXCHANGE_ID4res *res = &r->nfs_resop4_u.opexchange_id;
    EXCHANGE_ID4resok *ok = &res->EXCHANGE_ID4res_u.eir_resok4;
    const char *owner = args->eia_clientowner.co_ownerid.co_ownerid_val;
    u_int len = args->eia_clientowner.co_ownerid.co_ownerid_len;
    const char *verf = args->eia_clientowner.co_verifier;
    struct sv4 *v = x->v;
    struct sv4_client *conf, *unconf, *cl;

    if (args->eia_flags & ~EXCHGID4_FLAGS_ASKED)
        return res->eir_status = NFS4ERR_INVAL;
    if (args->eia_state_protect.spa_how == SP4_SSV)
        return res->eir_status = NFS4ERR_ENCR_ALG_UNSUPP; /* no SSV */
    if (len == 0)
        return res->eir_status = NFS4ERR_INVAL;
    conf = find_owner(v, 1, 1, owner, len);
    unconf = find_owner(v, 1, 0, owner, len);
    if (args->eia_flags & EXCHGID4_FLAG_UPD_CONFIRMED_REC_A) {
        if (conf == NULL)
            return res->eir_status = NFS4ERR_NOENT;
        if (memcmp(conf->verifier, verf, NFS4_VERIFIER_SIZE) != 0)
            return res->eir_status = NFS4ERR_NOT_SAME;
        if (conf->uid != x->c->cred_uid)
            return res->eir_status = NFS4ERR_PERM; /* RFC 8881 18.35.4 */
        cl = conf;
    } else if (conf != NULL && conf->uid != x->c->cred_uid) {
        /* another principal with the owner of a confirmed record (RFC 8881
         * 18.35.4, a client collision): refused while that record holds
         * state (or carries this very compound), else the record goes at
         * once, sessions and all, and a new one is made */
        if (conf->nstates > 0 || (x->sess != NULL && x->sess->cl == conf))
            return res->eir_status = NFS4ERR_CLID_INUSE;
        sv4_client_free(v, conf);
        if (unconf != NULL)
            sv4_client_free(v, unconf);
        cl = client_new(x, owner, len, verf);
        if (cl == NULL)
            return res->eir_status = NFS4ERR_DELAY;
    } else if (conf != NULL && memcmp(conf->verifier, verf, NFS4_VERIFIER_SIZE) == 0) {
        cl = conf; /* the same incarnation asking again */
    } else {
        /* new, or restarted (the confirmed record stays until the new one
         * is confirmed by CREATE_SESSION): a new unconfirmed record */
        if (unconf != NULL)
            sv4_client_free(v, unconf);
        cl = client_new(x, owner, len, verf);
        if (cl == NULL)
            return res->eir_status = NFS4ERR_DELAY;
    }
    sv4_client_renew(x, cl);
    ok->eir_clientid = cl->clientid;
    ok->eir_sequenceid = cl->cs_seq + 1;
    ok->eir_flags =
        EXCHGID4_FLAG_USE_NON_PNFS | (cl->confirmed ? EXCHGID4_FLAG_CONFIRMED_R : 0);
    ok->eir_state_protect.spr_how = args->eia_state_protect.spa_how;
    if (ok->eir_state_protect.spr_how == SP4_MACH_CRED) {
        /* nothing enforced: the lists stay empty */
        ok->eir_state_protect.state_protect4_r_u.spr_mach_ops.spo_must_enforce
            .bitmap4_len = 0;
        ok->eir_state_protect.state_protect4_r_u.spr_mach_ops.spo_must_allow.bitmap4_len =
            0;
    }
    ok->eir_server_owner.so_minor_id = 0;
    ok->eir_server_owner.so_major_id.so_major_id_len = v->scope_len;
    ok->eir_server_owner.so_major_id.so_major_id_val = v->scope;
    ok->eir_server_scope.eir_server_scope_len = v->scope_len;
    ok->eir_server_scope.eir_server_scope_val = v->scope;
    ok->eir_server_impl_id.eir_server_impl_id_len = 0;
    return res->eir_status = NFS4_OK;
}

nfsstat4 sv4_op_destroy_clientid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv4_client *cl =
        sv4_client_find(x->v, a->nfs_argop4_u.opdestroy_clientid.dca_clientid);
    nfsstat4 *st = &r->nfs_resop4_u.opdestroy_clientid.dcr_status;

    if (cl == NULL || cl->minor != 1)
        return *st = NFS4ERR_STALE_CLIENTID;
    if (cl->sessions != NULL || cl->states != NULL)
        return *st = NFS4ERR_CLIENTID_BUSY;
    sv4_client_free(x->v, cl);
    return *st = NFS4_OK;
}

nfsstat4 sv4_op_reclaim_complete(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    nfsstat4 *st = &r->nfs_resop4_u.opreclaim_complete.rcr_status;

    if (a->nfs_argop4_u.opreclaim_complete.rca_one_fs) {
        struct sv_node *n;
        /* per file system: there is one, and nothing to reclaim in it */
        return *st = sv4_cur(x, &n);
    }
    if (x->cl->reclaim_complete)
        return *st = NFS4ERR_COMPLETE_ALREADY;
    x->cl->reclaim_complete = 1;
    return *st = NFS4_OK;
}
