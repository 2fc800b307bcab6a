/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_state.c - NFSv4 open and lock state of sfs_nfsd (server layer, RFC
 * 7530 section 9, RFC 8881 sections 8-9): stateids and their checks (BAD,
 * OLD, STALE, EXPIRED, ADMIN_REVOKED; the special anonymous and READ
 * bypass stateids; 4.1's current stateid), OPEN with its creation modes and
 * claims, OPEN_CONFIRM, OPEN_DOWNGRADE, CLOSE, share reservations, byte
 * range locks (LOCK, LOCKT, LOCKU, RELEASE_LOCKOWNER) with conflicts
 * answered DENIED and the holder, TEST_STATEID, FREE_STATEID, DELEGRETURN;
 * and in NFSv4.0 the sequence of an owner's requests: the next seqid is a
 * new request, the same one again gets the reply the first got (kept per
 * owner), anything else is BAD_SEQID.
 *
 * Locks are advisory, as POSIX's: READ and WRITE are not refused for a
 * lock another owner holds; share reservations (deny modes) are enforced
 * on OPEN and on I/O with the anonymous stateid.
 */
#include "server/nfs4_int.h"
#include "common/alloc.h"
#include "common/bytes.h"

#include <stdlib.h>
#include <string.h>

#define ACC_MASK 3u /* OPEN4_SHARE_ACCESS_BOTH, and DENY_BOTH */

/* ---- stateids ------------------------------------------------------------------ */

void sv4_stateid_of(const struct sv4 *v, const struct sv4_state *st, stateid4 *sid)
{
    sid->seqid = st->seqid;
    cm_be32_put((uint8_t *)sid->other, v->instance32);
    cm_be32_put((uint8_t *)sid->other + 4, st->cl->number);
    cm_be32_put((uint8_t *)sid->other + 8, st->key);
}

/* Remembers sid as 4.1's current stateid. */
static void set_cur_sid(struct sv4_call *x, const stateid4 *sid)
{
    x->cur_sid = *sid;
    x->cur_sid_set = 1;
}

static int is_current_sid(const struct sv4_call *x, const stateid4 *s)
{
    static const char zero[NFS4_OTHER_SIZE];

    return x->minor > 0 && s->seqid == 1 && memcmp(s->other, zero, NFS4_OTHER_SIZE) == 0;
}

nfsstat4 sv4_state_find(struct sv4_call *x, const stateid4 *sid_in, int want,
                        struct sv4_state **out)
{
    struct sv4 *v = x->v;
    const stateid4 *sid = sid_in;
    const uint8_t *o;
    struct sv4_state *st;
    uint32_t number;

    *out = NULL;
    if (is_current_sid(x, sid)) {
        if (!x->cur_sid_set)
            return NFS4ERR_BAD_STATEID;
        sid = &x->cur_sid;
    }
    o = (const uint8_t *)sid->other;
    if (cm_be32_get(o) != v->instance32)
        return x->minor == 0 && !sv4_sid_anonymous(sid) && !sv4_sid_bypass(sid)
                   ? NFS4ERR_STALE_STATEID
                   : NFS4ERR_BAD_STATEID;
    number = cm_be32_get(o + 4);
    st = sv__map_get(&v->states, cm_be32_get(o + 8));
    if (st == NULL || st->cl->number != number)
        return sv4_client_gone(v, number) ? NFS4ERR_EXPIRED : NFS4ERR_BAD_STATEID;
    if (x->minor > 0 && x->cl != NULL && st->cl != x->cl)
        return NFS4ERR_BAD_STATEID; /* another client's */
    if (st->revoked)
        return NFS4ERR_ADMIN_REVOKED;
    if ((want == SV4_SID_OPEN && st->lock) || (want == SV4_SID_LOCK && !st->lock))
        return NFS4ERR_BAD_STATEID;
    if (!(x->minor > 0 && sid->seqid == 0)) { /* 4.1: seqid 0 is "the current one" */
        if (sid->seqid > st->seqid)
            return NFS4ERR_BAD_STATEID;
        if (sid->seqid < st->seqid)
            return NFS4ERR_OLD_STATEID;
    }
    if (x->minor == 0 && !st->lock && !st->owner->confirmed)
        return NFS4ERR_BAD_STATEID; /* OPEN_CONFIRM first */
    sv4_client_renew(x, st->cl);
    *out = st;
    return NFS4_OK;
}

/* Whether an open on f denies what `access` asks, or holds what `deny`
 * refuses - the asking owner's own open too: an owner that denies reading
 * cannot open for reading again (RFC 7530 9.9; pynfs OPEN21, OPEN25). */
static int share_conflict(const struct sv4_file *f, uint32_t access, uint32_t deny)
{
    for (const struct sv4_state *s = f ? f->opens : NULL; s != NULL; s = s->next_in_file)
        if ((s->deny & access) || (s->access & deny))
            return 1;
    return 0;
}

nfsstat4 sv4_io_stateid(struct sv4_call *x, const stateid4 *sid, const struct sv_node *n,
                        int write)
{
    struct sv4_state *st;
    nfsstat4 rc;

    if (!is_current_sid(x, sid)) {
        /* READ bypasses share reservations (RFC 8881 8.2.3); in 4.0 a
         * WRITE (or a size change) with it is checked as with the
         * anonymous one (RFC 7530 9.1.4.3), 4.1 refuses it */
        if (sv4_sid_bypass(sid) && (!write || x->minor > 0))
            return write ? NFS4ERR_BAD_STATEID : NFS4_OK;
        if (sv4_sid_anonymous(sid) || sv4_sid_bypass(sid))
            return share_conflict(
                       sv4_file_get(x->v, n->fileid, 0),
                       write ? OPEN4_SHARE_ACCESS_WRITE : OPEN4_SHARE_ACCESS_READ, 0)
                       ? NFS4ERR_LOCKED
                       : NFS4_OK;
    }
    rc = sv4_state_find(x, sid, SV4_SID_ANY, &st);
    if (rc != NFS4_OK)
        return rc;
    if (st->file->fileid != n->fileid)
        return NFS4ERR_BAD_STATEID;
    if (st->lock)
        st = st->open;
    /* a WRITE needs an open for writing; a READ is let through on any
     * open (clients read to fill a page they write) */
    if (write && !(st->access & OPEN4_SHARE_ACCESS_WRITE))
        return NFS4ERR_OPENMODE;
    return NFS4_OK;
}

/* ---- NFSv4.0 owner sequencing ------------------------------------------------------ */

/* Errors after which an owner's seqid does not advance (RFC 7530 9.1.7). */
static int seqid_frozen(nfsstat4 st)
{
    return st == NFS4ERR_BAD_SEQID || st == NFS4ERR_STALE_CLIENTID ||
           st == NFS4ERR_STALE_STATEID || st == NFS4ERR_BAD_STATEID ||
           st == NFS4ERR_BADXDR || st == NFS4ERR_RESOURCE || st == NFS4ERR_NOFILEHANDLE ||
           st == NFS4ERR_MOVED;
}

/* A 4.0 request of o with seqid s: 0 to go on, 1 for a retransmission
 * answered with o's last reply (x->op_replay), or BAD_SEQID. */
int sv4_seq_check(struct sv4_call *x, struct sv4_owner *o, uint32_t op, seqid4 s,
                  nfsstat4 *bad)
{
    *bad = NFS4_OK;
    if (x->minor > 0 || !o->has_seqid)
        return 0;
    if (s == o->seqid && o->last_op == op && o->last_len > 0) {
        x->op_replay = o->last_reply;
        x->op_replay_len = o->last_len;
        return 1;
    }
    if (s != o->seqid + 1)
        *bad = NFS4ERR_BAD_SEQID;
    return 0;
}

/* The open owner of cl number `number` whose last CLOSE removed state
 * `key`. */
static struct sv4_owner *closed_by(const struct sv4 *v, uint32_t number, uint32_t key)
{
    const struct sv4_client *cl = sv4_client_numbered(v, number);

    for (struct sv4_owner *o = cl ? cl->owners : NULL; o != NULL; o = o->next)
        if (!o->lock && o->last_op == OP_CLOSE && o->closed_key == key)
            return o;
    return NULL;
}

int sv4_seq_replay(struct sv4_call *x, nfsstat4 st_rc, const stateid4 *sid, uint32_t op,
                   seqid4 s)
{
    const uint8_t *o = (const uint8_t *)sid->other;
    struct sv4_owner *ow = NULL;
    struct sv4_state *st;
    nfsstat4 bad;

    if (x->minor > 0 || (st_rc != NFS4ERR_OLD_STATEID && st_rc != NFS4ERR_BAD_STATEID) ||
        cm_be32_get(o) != x->v->instance32)
        return 0;
    /* the owner's seqid is checked before the stateid's, as a client
     * retransmitting holds the stateid it sent the first time */
    st = sv__map_get(&x->v->states, cm_be32_get(o + 8));
    if (st != NULL && st->cl->number == cm_be32_get(o + 4))
        ow = st->owner;
    else if (st == NULL && op == OP_CLOSE)
        ow = closed_by(x->v, cm_be32_get(o + 4), cm_be32_get(o + 8));
    return ow != NULL && sv4_seq_check(x, ow, op, s, &bad) == 1;
}

/* After a 4.0 request of o ran: its seqid is the owner's, and its reply
 * the one a retransmission gets (stored once encoded). */
void sv4_seq_done(struct sv4_call *x, struct sv4_owner *o, seqid4 s, nfsstat4 st)
{
    if (x->minor > 0 || o == NULL || seqid_frozen(st))
        return;
    o->seqid = s;
    o->has_seqid = 1;
    x->seq_owner = o;
}

void sv4_owner_keep_reply(struct sv4_call *x, uint32_t op, const uint8_t *bytes,
                          uint32_t len)
{
    struct sv4_owner *o = x->seq_owner;

    x->seq_owner = NULL;
    if (o == NULL)
        return;
    if (len > o->last_cap) {
        uint8_t *b = cm_realloc(o->last_reply, len);
        if (b == NULL) {
            o->last_len = 0; /* a retransmission is then BAD_SEQID */
            return;
        }
        o->last_reply = b;
        o->last_cap = len;
    }
    memcpy(o->last_reply, bytes, len);
    o->last_len = len;
    o->last_op = op;
}

/* ---- OPEN ------------------------------------------------------------------------ */

/* The status of a state cap: RESOURCE in 4.0, DELAY in 4.1. */
nfsstat4 sv4_no_room(const struct sv4_call *x)
{
    return x->minor == 0 ? NFS4ERR_RESOURCE : NFS4ERR_DELAY;
}

/* What an OPEN finds or makes, before the state: the file (a regular
 * one), and the directory's change before and after. */
struct opened {
    struct sv_node *dir, *n;
    uint64_t before, after;
    uint32_t attrset[SV4_ATTR_WORDS];
    int created;
};

nfsstat4 sv4_type_error(const struct sv4_call *x, const struct sv_node *n)
{
    if (n->type == SV_DIR)
        return NFS4ERR_ISDIR;
    if (n->type == SV_LNK)
        return NFS4ERR_SYMLINK;
    return x->minor > 0 ? NFS4ERR_WRONG_TYPE : NFS4ERR_INVAL;
}

/* OPEN of what is not a regular file: in 4.0 ISDIR for a directory and
 * SYMLINK for anything else (RFC 7530 16.16: a device, a socket or a
 * FIFO too), in 4.1 as elsewhere (WRONG_TYPE). */
static nfsstat4 open_type_error(const struct sv4_call *x, const struct sv_node *n)
{
    if (x->minor == 0 && n->type != SV_DIR)
        return NFS4ERR_SYMLINK;
    return sv4_type_error(x, n);
}

/* OPEN by name in the current directory, creating as openhow says. */
static nfsstat4 open_by_name(struct sv4_call *x, const OPEN4args *args,
                             const component4 *file, struct opened *o)
{
    const createhow4 *how = &args->openhow.openflag4_u.how;
    char name[SV_NAME_MAX + 1];
    struct sv_sattr sa;
    const fattr4 *fa = NULL;
    const char *verf = NULL;
    uint64_t v64 = 0;
    nfsstat4 st;
    int rc;

    if ((st = sv4_cur(x, &o->dir)) != NFS4_OK)
        return st;
    if (o->dir->type != SV_DIR)
        return o->dir->type == SV_LNK ? NFS4ERR_SYMLINK : NFS4ERR_NOTDIR;
    if ((st = sv4_name(file, name)) != NFS4_OK)
        return st;
    o->before = sv4_change(o->dir);
    if (args->openhow.opentype != OPEN4_CREATE) {
        if ((st = sv4_status(sv__lookup(x->c, o->dir, name, &o->n))) != NFS4_OK)
            return st;
        o->after = o->before;
        return o->n->type == SV_REG ? NFS4_OK : open_type_error(x, o->n);
    }
    if (sv4_is_pseudo(x, o->dir))
        return NFS4ERR_ROFS;
    memset(&sa, 0, sizeof(sa));
    switch (how->mode) {
    case UNCHECKED4:
    case GUARDED4:
        fa = &how->createhow4_u.createattrs;
        break;
    case EXCLUSIVE4:
        verf = how->createhow4_u.createverf;
        break;
    case EXCLUSIVE4_1:
        if (x->minor == 0)
            return NFS4ERR_INVAL;
        verf = how->createhow4_u.ch_createboth.cva_verf;
        fa = &how->createhow4_u.ch_createboth.cva_attrs;
        break;
    default:
        return NFS4ERR_INVAL;
    }
    if (fa != NULL && (st = sv4_attr_decode(x, fa, &sa, o->attrset)) != NFS4_OK)
        return st;
    if (verf != NULL)
        memcpy(&v64, verf, sizeof(v64));
    rc = sv__create(x->c, o->dir, name, SV_REG, &sa, NULL, &o->n);
    if (rc == 0) {
        o->created = 1;
        o->n->create_verf = v64;
    } else if (rc == NFS3ERR_EXIST && o->n != NULL) {
        if (o->n->type != SV_REG)
            return open_type_error(x, o->n);
        memset(o->attrset, 0, sizeof(o->attrset));
        if (how->mode == GUARDED4)
            return NFS4ERR_EXIST;
        if (verf != NULL && (v64 == 0 || o->n->create_verf != v64))
            return NFS4ERR_EXIST;
        if (how->mode == UNCHECKED4 && sa.set_size && sa.size == 0) {
            /* an existing file: its attributes are left alone but for a
             * size of 0, the truncation of an O_TRUNC open (RFC 7530
             * 16.16; Linux's nfsd does the same) */
            struct sv_sattr sz = {0};
            sz.set_size = 1;
            sz.size = sa.size;
            if ((st = sv4_status(sv__setattr(x->c, o->n, &sz))) != NFS4_OK)
                return st;
            o->attrset[0] = 1u << FATTR4_SIZE;
        }
    } else {
        return sv4_status(rc);
    }
    o->after = sv4_change(o->dir);
    return NFS4_OK;
}

/* Finds (or, for a new one, makes) the open owner of an OPEN.  4.0:
 * the client by the owner's clientid, and a retransmission answered from
 * the owner's last reply (*replay). */
static nfsstat4 open_owner(struct sv4_call *x, const OPEN4args *args,
                           struct sv4_owner **out, int *replay)
{
    const open_owner4 *ow = &args->owner;
    struct sv4_client *cl = x->cl;
    struct sv4_owner *o;
    nfsstat4 st;

    *out = NULL;
    *replay = 0;
    if (x->minor == 0 && (st = sv4_client_lookup40(x, ow->clientid, &cl)) != NFS4_OK)
        return st;
    o = sv4_owner_find(cl, 0, ow->owner.owner_val, ow->owner.owner_len);
    if (o != NULL && x->minor == 0 && !o->confirmed) {
        /* never confirmed: the new OPEN starts it afresh (RFC 7530 16.16.5) */
        while (o->nstates > 0) {
            struct sv4_state *s = cl->states;
            while (s->owner != o)
                s = s->next_in_client;
            sv4_state_free(x->v, s);
        }
        o->has_seqid = 0;
        o->last_len = 0;
    }
    if (o == NULL &&
        (o = sv4_owner_new(cl, 0, ow->owner.owner_val, ow->owner.owner_len)) == NULL)
        return sv4_no_room(x);
    *out = o;
    *replay = sv4_seq_check(x, o, OP_OPEN, args->seqid, &st);
    return st;
}

/* The state of the open: the owner's on this file, upgraded, or a new one. */
static nfsstat4 open_state(struct sv4_call *x, struct sv4_owner *ow,
                           const struct sv_node *n, uint32_t access, uint32_t deny,
                           struct sv4_state **out)
{
    struct sv4_file *f = sv4_file_get(x->v, n->fileid, 1);
    struct sv4_state *st;

    if (f == NULL)
        return sv4_no_room(x);
    for (st = f->opens; st != NULL && st->owner != ow; st = st->next_in_file)
        ;
    if (share_conflict(f, access, deny))
        return NFS4ERR_SHARE_DENIED; /* f has opens: it stays */
    if (st == NULL) {
        st = sv4_state_new(x->v, ow->cl, ow, f, 0);
        if (st == NULL) {
            sv4_file_put(x->v, f);
            return sv4_no_room(x);
        }
        st->access = access;
        st->deny = deny;
    } else {
        st->access |= access;
        st->deny |= deny;
        st->seqid++;
    }
    /* OPEN_DOWNGRADE may go to any mode an OPEN asked for, or the union
     * they made (RFC 7530 16.19.4) */
    st->access_seen |= 1u << access | 1u << st->access;
    st->deny_seen |= 1u << deny | 1u << st->deny;
    *out = st;
    return NFS4_OK;
}

/* The delegation part of OPEN's reply: none.  A 4.1 client that said
 * what it wants hears why not. */
static void no_delegation(const struct sv4_call *x, uint32_t share_access,
                          open_delegation4 *d)
{
    uint32_t want = share_access & OPEN4_SHARE_ACCESS_WANT_DELEG_MASK;

    if (x->minor == 0 || want == OPEN4_SHARE_ACCESS_WANT_NO_PREFERENCE) {
        d->delegation_type = OPEN_DELEGATE_NONE;
        return;
    }
    d->delegation_type = OPEN_DELEGATE_NONE_EXT;
    d->open_delegation4_u.od_whynone.ond_why =
        want == OPEN4_SHARE_ACCESS_WANT_NO_DELEG ? WND4_NOT_WANTED
        : want == OPEN4_SHARE_ACCESS_WANT_CANCEL ? WND4_CANCELLED
                                                 : WND4_RESOURCE;
}

static nfsstat4 open_checks(struct sv4_call *x, const OPEN4args *args, uint32_t *access,
                            uint32_t *deny)
{
    uint32_t extra = x->minor == 0
                         ? 0
                         : OPEN4_SHARE_ACCESS_WANT_DELEG_MASK |
                               OPEN4_SHARE_ACCESS_WANT_SIGNAL_DELEG_WHEN_RESRC_AVAIL |
                               OPEN4_SHARE_ACCESS_WANT_PUSH_DELEG_WHEN_UNCONTENDED;

    *access = args->share_access & ACC_MASK;
    *deny = args->share_deny;
    if (*access == 0 || (args->share_access & ~(ACC_MASK | extra)) || (*deny & ~ACC_MASK))
        return NFS4ERR_INVAL;
    switch (args->claim.claim) {
    case CLAIM_NULL:
    case CLAIM_FH:
        if (args->claim.claim == CLAIM_FH && x->minor == 0)
            return NFS4ERR_INVAL;
        /* 4.1: no new state before the client said it reclaims nothing
         * more (RFC 8881 18.51.3) */
        if (sv4_in_grace(x) || (x->cl != NULL && !x->cl->reclaim_complete))
            return NFS4ERR_GRACE;
        return NFS4_OK;
    case CLAIM_PREVIOUS:
        /* nothing survives a restart of an in-memory server */
        return sv4_in_grace(x) && !(x->cl && x->cl->reclaim_complete)
                   ? NFS4ERR_RECLAIM_BAD
                   : NFS4ERR_NO_GRACE;
    case CLAIM_DELEGATE_CUR:
    case CLAIM_DELEG_CUR_FH:
        return NFS4ERR_BAD_STATEID; /* no delegation was ever granted */
    case CLAIM_DELEGATE_PREV:
    case CLAIM_DELEG_PREV_FH:
        return NFS4ERR_NOTSUPP;
    default:
        return NFS4ERR_INVAL;
    }
}

nfsstat4 sv4_op_open(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const OPEN4args *args = &a->nfs_argop4_u.opopen;
    OPEN4res *res = &r->nfs_resop4_u.opopen;
    OPEN4resok *ok = &res->OPEN4res_u.resok4;
    struct sv4_owner *ow = NULL;
    struct sv4_state *st = NULL;
    struct opened o;
    uint32_t access, deny;
    int replay;

    memset(&o, 0, sizeof(o));
    res->status = open_owner(x, args, &ow, &replay);
    if (replay)
        return NFS4_OK; /* x->op_replay holds the reply */
    if (res->status == NFS4_OK)
        res->status = open_checks(x, args, &access, &deny);
    if (res->status == NFS4_OK && args->claim.claim == CLAIM_FH) {
        if ((res->status = sv4_cur(x, &o.n)) == NFS4_OK && o.n->type != SV_REG)
            res->status = sv4_type_error(x, o.n);
        if (res->status == NFS4_OK && args->openhow.opentype == OPEN4_CREATE)
            res->status = NFS4ERR_INVAL;
    } else if (res->status == NFS4_OK) {
        res->status = open_by_name(x, args, &args->claim.open_claim4_u.file, &o);
    }
    /* the creator may open what it just made whatever its mode */
    if (res->status == NFS4_OK && !o.created) {
        if (access & OPEN4_SHARE_ACCESS_READ)
            res->status = sv4_status(sv__data_check(x->c, o.n, 0));
        if (res->status == NFS4_OK && (access & OPEN4_SHARE_ACCESS_WRITE))
            res->status = sv4_status(sv__data_check(x->c, o.n, 1));
    }
    if (res->status == NFS4_OK)
        res->status = open_state(x, ow, o.n, access, deny, &st);
    sv4_seq_done(x, ow, args->seqid, res->status);
    if (res->status != NFS4_OK) {
        if (ow != NULL && x->minor > 0 && ow->nstates == 0)
            sv4_owner_free(ow);
        return res->status;
    }
    sv4_stateid_of(x->v, st, &ok->stateid);
    ok->cinfo.atomic = TRUE;
    ok->cinfo.before = o.before;
    ok->cinfo.after = o.after;
    ok->rflags = OPEN4_RESULT_LOCKTYPE_POSIX;
    /* an open file outlives its last name (sv4_file_get holds it); 4.1
     * has a flag that says so */
    if (x->minor >= 1)
        ok->rflags |= OPEN4_RESULT_PRESERVE_UNLINKED;
    if (x->minor == 0 && !ow->confirmed)
        ok->rflags |= OPEN4_RESULT_CONFIRM;
    memcpy(x->words, o.attrset, sizeof(o.attrset));
    sv4_bitmap(&ok->attrset, x->words, SV4_ATTR_WORDS);
    no_delegation(x, args->share_access, &ok->delegation);
    sv4_set_cur(x, o.n);
    set_cur_sid(x, &ok->stateid);
    return NFS4_OK;
}

nfsstat4 sv4_op_open_confirm(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const OPEN_CONFIRM4args *args = &a->nfs_argop4_u.opopen_confirm;
    OPEN_CONFIRM4res *res = &r->nfs_resop4_u.opopen_confirm;
    const uint8_t *o = (const uint8_t *)args->open_stateid.other;
    struct sv4_state *st = NULL;
    struct sv_node *n;
    nfsstat4 bad;

    if ((res->status = sv4_cur(x, &n)) != NFS4_OK)
        return res->status;
    if (n->type != SV_REG)
        return res->status = sv4_type_error(x, n);
    /* the stateid of an unconfirmed owner: found by hand (a special
     * stateid is no open's: BAD, not STALE, though not this instance's) */
    if (sv4_sid_anonymous(&args->open_stateid) || sv4_sid_bypass(&args->open_stateid))
        return res->status = NFS4ERR_BAD_STATEID;
    if (cm_be32_get(o) != x->v->instance32)
        return res->status = NFS4ERR_STALE_STATEID;
    st = sv__map_get(&x->v->states, cm_be32_get(o + 8));
    if (st == NULL || st->lock || st->cl->number != cm_be32_get(o + 4) ||
        st->file->fileid != n->fileid)
        return res->status = NFS4ERR_BAD_STATEID;
    if (sv4_seq_check(x, st->owner, OP_OPEN_CONFIRM, args->seqid, &bad))
        return NFS4_OK;
    if (bad != NFS4_OK)
        return res->status = bad;
    if (st->owner->confirmed)
        res->status = NFS4ERR_BAD_STATEID;
    else if (args->open_stateid.seqid != st->seqid)
        res->status = args->open_stateid.seqid < st->seqid ? NFS4ERR_OLD_STATEID
                                                           : NFS4ERR_BAD_STATEID;
    sv4_seq_done(x, st->owner, args->seqid, res->status);
    if (res->status != NFS4_OK)
        return res->status;
    st->owner->confirmed = 1;
    st->seqid++;
    sv4_client_renew(x, st->cl);
    sv4_stateid_of(x->v, st, &res->OPEN_CONFIRM4res_u.resok4.open_stateid);
    return NFS4_OK;
}

/* The open state of a seqid-ordered request (OPEN_DOWNGRADE, CLOSE) on
 * the current file: 0 to go on, or the status; *replay for a 4.0
 * retransmission. */
static nfsstat4 open_of(struct sv4_call *x, const stateid4 *sid, seqid4 seqid,
                        uint32_t op, struct sv4_state **st, int *replay)
{
    struct sv_node *n;
    nfsstat4 rc, bad;

    *replay = 0;
    /* an open file keeps its handle good even without a name (the open
     * holds it): a STALE handle here has no open */
    rc = sv4_cur(x, &n);
    if (rc != NFS4_OK)
        return rc;
    if (n->type != SV_REG)
        return sv4_type_error(x, n);
    if ((rc = sv4_state_find(x, sid, SV4_SID_OPEN, st)) != NFS4_OK) {
        *replay = sv4_seq_replay(x, rc, sid, op, seqid);
        return *replay ? NFS4_OK : rc;
    }
    if ((*st)->file->fileid != n->fileid)
        return NFS4ERR_BAD_STATEID;
    *replay = sv4_seq_check(x, (*st)->owner, op, seqid, &bad);
    return bad;
}

nfsstat4 sv4_op_open_downgrade(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const OPEN_DOWNGRADE4args *args = &a->nfs_argop4_u.opopen_downgrade;
    OPEN_DOWNGRADE4res *res = &r->nfs_resop4_u.opopen_downgrade;
    struct sv4_state *st = NULL;
    uint32_t access = args->share_access & ACC_MASK, deny = args->share_deny;
    int replay;

    res->status =
        open_of(x, &args->open_stateid, args->seqid, OP_OPEN_DOWNGRADE, &st, &replay);
    if (replay)
        return NFS4_OK;
    if (res->status == NFS4_OK &&
        (access == 0 || (deny & ~ACC_MASK) || (access & ~st->access) ||
         (deny & ~st->deny) || !(st->access_seen & (1u << access)) ||
         !(st->deny_seen & (1u << deny))))
        res->status = NFS4ERR_INVAL;
    sv4_seq_done(x, st ? st->owner : NULL, args->seqid, res->status);
    if (res->status != NFS4_OK)
        return res->status;
    st->access = access;
    st->deny = deny;
    st->seqid++;
    sv4_stateid_of(x->v, st, &res->OPEN_DOWNGRADE4res_u.resok4.open_stateid);
    set_cur_sid(x, &res->OPEN_DOWNGRADE4res_u.resok4.open_stateid);
    return NFS4_OK;
}

/* Whether a lock state of the open still holds ranges. */
static int locks_held(const struct sv4_state *open)
{
    for (const struct sv4_state *s = open->file->locks; s != NULL; s = s->next_in_file)
        if (s->open == open && s->ranges != NULL)
            return 1;
    return 0;
}

nfsstat4 sv4_op_close(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const CLOSE4args *args = &a->nfs_argop4_u.opclose;
    CLOSE4res *res = &r->nfs_resop4_u.opclose;
    struct sv4_state *st = NULL;
    struct sv4_owner *ow;
    int replay;

    res->status = open_of(x, &args->open_stateid, args->seqid, OP_CLOSE, &st, &replay);
    if (replay)
        return NFS4_OK;
    if (res->status == NFS4_OK && locks_held(st))
        res->status = NFS4ERR_LOCKS_HELD;
    ow = st ? st->owner : NULL;
    sv4_seq_done(x, ow, args->seqid, res->status);
    if (res->status != NFS4_OK)
        return res->status;
    if (x->minor == 0) {
        st->seqid++;
        sv4_stateid_of(x->v, st, &res->CLOSE4res_u.open_stateid);
    } else {
        /* RFC 8881 18.2.4: the special invalid stateid */
        res->CLOSE4res_u.open_stateid.seqid = NFS4_UINT32_MAX;
        memset(res->CLOSE4res_u.open_stateid.other, 0, NFS4_OTHER_SIZE);
    }
    /* the open's lock states, empty, go with it */
    for (struct sv4_state *s = st->file->locks, *next; s != NULL; s = next) {
        next = s->next_in_file;
        if (s->open == st)
            sv4_state_free(x->v, s);
    }
    ow->closed_key = st->key; /* 4.0: its retransmission is replayed */
    sv4_state_free(x->v, st);
    if (x->minor > 0 && ow->nstates == 0)
        sv4_owner_free(ow);
    x->cur_sid_set = 0;
    return NFS4_OK;
}

/* ---- stateids on their own (4.1) ----------------------------------------------- */

nfsstat4 sv4_op_test_stateid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const TEST_STATEID4args *args = &a->nfs_argop4_u.optest_stateid;
    TEST_STATEID4res *res = &r->nfs_resop4_u.optest_stateid;
    u_int n = args->ts_stateids.ts_stateids_len;
    nfsstat4 *codes = (nfsstat4 *)(void *)x->c->dirbuf.bytes;
    struct sv4_state *st;

    if (n > sizeof(x->c->dirbuf.bytes) / sizeof(*codes))
        return res->tsr_status = NFS4ERR_RESOURCE;
    for (u_int i = 0; i < n; i++) {
        const stateid4 *s = &args->ts_stateids.ts_stateids_val[i];
        /* special stateids and the current one are no client's state */
        codes[i] = sv4_sid_anonymous(s) || sv4_sid_bypass(s) || is_current_sid(x, s)
                       ? NFS4ERR_BAD_STATEID
                       : sv4_state_find(x, s, SV4_SID_ANY, &st);
    }
    res->TEST_STATEID4res_u.tsr_resok4.tsr_status_codes.tsr_status_codes_len = n;
    res->TEST_STATEID4res_u.tsr_resok4.tsr_status_codes.tsr_status_codes_val = codes;
    return res->tsr_status = NFS4_OK;
}

nfsstat4 sv4_op_free_stateid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    nfsstat4 *rc = &r->nfs_resop4_u.opfree_stateid.fsr_status;
    const stateid4 *sid = &a->nfs_argop4_u.opfree_stateid.fsa_stateid;
    const uint8_t *o = (const uint8_t *)sid->other;
    struct sv4_state *st;

    if (is_current_sid(x, sid)) {
        if (!x->cur_sid_set)
            return *rc = NFS4ERR_BAD_STATEID;
        sid = &x->cur_sid;
        o = (const uint8_t *)sid->other;
    }
    st = cm_be32_get(o) == x->v->instance32
             ? sv__map_get(&x->v->states, cm_be32_get(o + 8))
             : NULL;
    if (st != NULL && st->revoked && st->cl == x->cl) {
        sv4_state_free(x->v, st); /* a revoked one is freed whatever it was */
        return *rc = NFS4_OK;
    }
    if ((*rc = sv4_state_find(x, sid, SV4_SID_ANY, &st)) != NFS4_OK)
        return *rc;
    /* an open is closed, not freed; a lock state is freed once empty */
    if (!st->lock || st->ranges != NULL)
        return *rc = NFS4ERR_LOCKS_HELD;
    sv4_state_free(x->v, st);
    return *rc = NFS4_OK;
}

/* No delegation is ever granted: whatever the stateid names, it is none. */
nfsstat4 sv4_op_delegreturn(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv4_state *st;
    struct sv_node *n;
    nfsstat4 rc = sv4_cur(x, &n);

    if (rc == NFS4_OK) {
        rc = sv4_state_find(x, &a->nfs_argop4_u.opdelegreturn.deleg_stateid, SV4_SID_ANY,
                            &st);
        if (rc == NFS4_OK)
            rc = NFS4ERR_BAD_STATEID;
    }
    return r->nfs_resop4_u.opdelegreturn.status = rc;
}
