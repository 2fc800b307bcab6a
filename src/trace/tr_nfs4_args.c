/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs4_args.c - the arguments of an NFSv4 COMPOUND call (RFC 7530,
 * RFC 8881): the tag, the minor version and each operation, decoded with
 * the rpcgen codecs of src/nfs/proto/nfs4_prot.x into the slot's
 * operations (struct tr_nfs4_op).
 *
 * Why the rpcgen codecs and not a decoder by hand: the v3 path decodes
 * with them, and measured on v4.1 captures (docs/PERFORMANCE.md, "NFSv4
 * captures") sfs_trace stats spends about a fifth of its time in the XDR
 * codecs, RPC headers included, and is 40 times as fast as tshark
 * extracting the same fields (the target is 10): a decoder by hand could
 * gain at most that fifth, and would be a second copy of the XDR, beside
 * the one the server and the load generator share, to keep right.
 *
 * Two ways through the codecs:
 *  - the operations whose arguments hold strings, handles, bitmaps,
 *    attributes or data (PUTFH, LOOKUP, GETATTR, OPEN, CREATE, REMOVE,
 *    RENAME, LINK, SETATTR, READDIR, WRITE, SECINFO, VERIFY, NVERIFY) are
 *    composed field by field from the codecs of their parts, into buffers
 *    on the stack: nothing is allocated, WRITE's data is skipped by its
 *    length (never copied), and a call cut by the snap length keeps every
 *    field before the cut;
 *  - every other operation goes through the union's codec
 *    (xdr_nfs_argop4) from its operation number and is freed at once:
 *    most have fixed-size arguments (nothing allocated), the rest
 *    (EXCHANGE_ID, CREATE_SESSION, SETCLIENTID, LOCK, ...) are rare.
 * An operation number the XDR does not know (a later minor version's, a
 * vendor's) ends the COMPOUND's decoding there, counted; so does one that
 * does not decode, or more than TR_NFS4_OPS_MAX operations.
 */
#include <errno.h>
#include <string.h>

#include "nfs/nf4.h"
#include "trace/tr_nfs_int.h"

/* ---- callback programs ----------------------------------------------------- */

void tr__cb_prog_learn(struct tr__cb_progs *c, uint32_t prog)
{
    uint32_t i;

    for (i = 0; i < c->n; i++)
        if (c->prog[i] == prog)
            return;
    if (c->n < TR__CB_PROGS) {
        c->prog[c->n++] = prog;
        return;
    }
    c->prog[c->next] = prog;
    c->next = (c->next + 1) % TR__CB_PROGS;
}

int tr__cb_prog_is(const struct tr__cb_progs *c, uint32_t prog, uint32_t vers)
{
    uint32_t i;

    for (i = 0; i < c->n; i++)
        if (c->prog[i] == prog)
            return 1;
    return vers == 1 && prog >= 0x40000000u && prog <= 0x5fffffffu;
}

/* ---- composed operations ---------------------------------------------------- */

static int name_into(struct tr__x4 *d, struct tr__op4x *ox, int which)
{
    return tr__x4_str(d, &ox->soff[which]);
}

static int putfh(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    if (!tr__x4_fh(d, &op->fh))
        return 0;
    op->res_fh = op->fh;
    op->flags |= TR_NFS4_O_FH | TR_NFS4_O_RES_FH;
    return 1;
}

static int create(struct tr__x4 *d, struct tr_nfs4_op *op, struct tr__op4x *ox)
{
    uint32_t type;

    if (!xdr_u_int(&d->x, &type))
        return 0;
    op->how = type;
    if (type == NF4LNK) {
        if (!name_into(d, ox, TR__S4_TEXT))
            return 0;
    } else if (type == NF4BLK || type == NF4CHR) {
        specdata4 sd;
        if (!xdr_specdata4(&d->x, &sd))
            return 0;
    }
    return name_into(d, ox, TR__S4_NAME) && tr__x4_fattr(d, &op->sattr, NULL);
}

static int open_how(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    uint32_t type, mode;
    verifier4 v;

    op->how = TR_NFS4_NOCREATE;
    if (!xdr_u_int(&d->x, &type))
        return 0;
    if (type != OPEN4_CREATE)
        return 1;
    if (!xdr_u_int(&d->x, &mode))
        return 0;
    op->how = mode;
    switch (mode) {
    case UNCHECKED4:
    case GUARDED4:
        return tr__x4_fattr(d, &op->sattr, NULL);
    case EXCLUSIVE4:
        return xdr_verifier4(&d->x, v);
    case EXCLUSIVE4_1:
        return xdr_verifier4(&d->x, v) && tr__x4_fattr(d, &op->sattr, NULL);
    default:
        return 0;
    }
}

static int open_claim(struct tr__x4 *d, struct tr_nfs4_op *op, struct tr__op4x *ox)
{
    uint32_t dtype;

    if (!xdr_u_int(&d->x, &op->claim))
        return 0;
    switch (op->claim) {
    case CLAIM_NULL:
    case CLAIM_DELEGATE_PREV:
        return name_into(d, ox, TR__S4_NAME);
    case CLAIM_PREVIOUS:
        return xdr_u_int(&d->x, &dtype);
    case CLAIM_DELEGATE_CUR:
        if (!tr__x4_stateid(d, &op->stateid))
            return 0;
        op->flags |= TR_NFS4_O_STATEID;
        return name_into(d, ox, TR__S4_NAME);
    case CLAIM_DELEG_CUR_FH:
        if (!tr__x4_stateid(d, &op->stateid))
            return 0;
        op->flags |= TR_NFS4_O_STATEID;
        return 1;
    case CLAIM_FH:
    case CLAIM_DELEG_PREV_FH:
        return 1;
    default:
        return 0;
    }
}

static int open_(struct tr__x4 *d, struct tr_nfs4_op *op, struct tr__op4x *ox)
{
    if (!xdr_u_int(&d->x, &op->seqid) || !xdr_u_int(&d->x, &op->share_access) ||
        !xdr_u_int(&d->x, &op->share_deny) || !tr__x4_owner(d, &op->clientid, &op->owner))
        return 0;
    op->flags |= TR_NFS4_O_CLIENTID | TR_NFS4_O_OWNER;
    return open_how(d, op) && open_claim(d, op, ox);
}

static int write_(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    offset4 off;
    int all;

    if (!tr__x4_stateid(d, &op->stateid))
        return 0;
    op->flags |= TR_NFS4_O_STATEID;
    if (!xdr_offset4(&d->x, &off) || !xdr_u_int(&d->x, &op->how) ||
        !tr__x4_skip_opaque(d, &op->count, &all))
        return 0;
    op->offset = off;
    if (!all)
        op->flags |= TR_NFS4_O_DATA_CUT;
    return all;
}

static int readdir_(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    uint32_t mask[NFS4_XDR_BITMAP], n, dircount;
    nfs_cookie4 cookie;
    verifier4 v;

    if (!xdr_nfs_cookie4(&d->x, &cookie) || !xdr_verifier4(&d->x, v) ||
        !xdr_u_int(&d->x, &dircount) || !xdr_u_int(&d->x, &op->count))
        return 0;
    op->offset = cookie;
    return tr__x4_bitmap(d, mask, &n);
}

/* ---- the other operations, through the union's codec ------------------------ */

static void set_stateid(struct tr_nfs4_op *op, const stateid4 *st)
{
    tr__x4_stateid_of(&op->stateid, st);
    op->flags |= TR_NFS4_O_STATEID;
}

static void set_clientid(struct tr_nfs4_op *op, uint64_t id)
{
    op->clientid = id;
    op->flags |= TR_NFS4_O_CLIENTID;
}

static void lock_owner(struct tr_nfs4_op *op, const lock_owner4 *o)
{
    set_clientid(op, o->clientid);
    op->owner = tr__x4_owner_hash(o->clientid, o->owner.owner_val, o->owner.owner_len);
    op->flags |= TR_NFS4_O_OWNER;
}

static void session_of(struct tr__slot *s, const SEQUENCE4args *a)
{
    memcpy(s->c4.sessionid, a->sa_sessionid, sizeof(s->c4.sessionid));
    s->c4.sequenceid = a->sa_sequenceid;
    s->c4.slotid = a->sa_slotid;
    s->c4.highest_slotid = a->sa_highest_slotid;
    s->c4.flags |= TR_NFS4_C_SEQUENCE;
}

static void union_fields(struct tr__x4 *d, struct tr_nfs4_op *op, const nfs_argop4 *a)
{
    const struct tr__slot *s = d->s;

    switch (a->argop) {
    case OP_ACCESS:
        op->how = a->nfs_argop4_u.opaccess.access;
        break;
    case OP_CLOSE:
        op->seqid = a->nfs_argop4_u.opclose.seqid;
        set_stateid(op, &a->nfs_argop4_u.opclose.open_stateid);
        break;
    case OP_COMMIT:
        op->offset = a->nfs_argop4_u.opcommit.offset;
        op->count = a->nfs_argop4_u.opcommit.count;
        break;
    case OP_DELEGRETURN:
        set_stateid(op, &a->nfs_argop4_u.opdelegreturn.deleg_stateid);
        break;
    case OP_LOCK: {
        const LOCK4args *l = &a->nfs_argop4_u.oplock;
        op->how = l->locktype;
        op->offset = l->offset;
        op->length = l->length;
        if (l->locker.new_lock_owner) {
            const open_to_lock_owner4 *o = &l->locker.locker4_u.open_owner;
            op->seqid = o->open_seqid;
            set_stateid(op, &o->open_stateid);
            lock_owner(op, &o->lock_owner);
        } else {
            op->seqid = l->locker.locker4_u.lock_owner.lock_seqid;
            set_stateid(op, &l->locker.locker4_u.lock_owner.lock_stateid);
        }
        break;
    }
    case OP_LOCKT:
        op->how = a->nfs_argop4_u.oplockt.locktype;
        op->offset = a->nfs_argop4_u.oplockt.offset;
        op->length = a->nfs_argop4_u.oplockt.length;
        lock_owner(op, &a->nfs_argop4_u.oplockt.owner);
        break;
    case OP_LOCKU:
        op->how = a->nfs_argop4_u.oplocku.locktype;
        op->seqid = a->nfs_argop4_u.oplocku.seqid;
        set_stateid(op, &a->nfs_argop4_u.oplocku.lock_stateid);
        op->offset = a->nfs_argop4_u.oplocku.offset;
        op->length = a->nfs_argop4_u.oplocku.length;
        break;
    case OP_OPEN_CONFIRM:
        op->seqid = a->nfs_argop4_u.opopen_confirm.seqid;
        set_stateid(op, &a->nfs_argop4_u.opopen_confirm.open_stateid);
        break;
    case OP_OPEN_DOWNGRADE:
        op->seqid = a->nfs_argop4_u.opopen_downgrade.seqid;
        op->share_access = a->nfs_argop4_u.opopen_downgrade.share_access;
        op->share_deny = a->nfs_argop4_u.opopen_downgrade.share_deny;
        set_stateid(op, &a->nfs_argop4_u.opopen_downgrade.open_stateid);
        break;
    case OP_READ:
        set_stateid(op, &a->nfs_argop4_u.opread.stateid);
        op->offset = a->nfs_argop4_u.opread.offset;
        op->count = a->nfs_argop4_u.opread.count;
        break;
    case OP_RENEW:
        set_clientid(op, a->nfs_argop4_u.oprenew.clientid);
        break;
    case OP_SETCLIENTID:
        tr__cb_prog_learn(&d->r->cb, a->nfs_argop4_u.opsetclientid.callback.cb_program);
        break;
    case OP_SETCLIENTID_CONFIRM:
        set_clientid(op, a->nfs_argop4_u.opsetclientid_confirm.clientid);
        break;
    case OP_RELEASE_LOCKOWNER:
        lock_owner(op, &a->nfs_argop4_u.oprelease_lockowner.lock_owner);
        break;
    case OP_BACKCHANNEL_CTL:
        tr__cb_prog_learn(&d->r->cb, a->nfs_argop4_u.opbackchannel_ctl.bca_cb_program);
        break;
    case OP_CREATE_SESSION:
        set_clientid(op, a->nfs_argop4_u.opcreate_session.csa_clientid);
        tr__cb_prog_learn(&d->r->cb, a->nfs_argop4_u.opcreate_session.csa_cb_program);
        break;
    case OP_DESTROY_SESSION:
        memcpy(op->sessionid, a->nfs_argop4_u.opdestroy_session.dsa_sessionid, 16);
        op->flags |= TR_NFS4_O_SESSION;
        break;
    case OP_BIND_CONN_TO_SESSION:
        memcpy(op->sessionid, a->nfs_argop4_u.opbind_conn_to_session.bctsa_sessid, 16);
        op->flags |= TR_NFS4_O_SESSION;
        break;
    case OP_DESTROY_CLIENTID:
        set_clientid(op, a->nfs_argop4_u.opdestroy_clientid.dca_clientid);
        break;
    case OP_FREE_STATEID:
        set_stateid(op, &a->nfs_argop4_u.opfree_stateid.fsa_stateid);
        break;
    case OP_LAYOUTGET:
        set_stateid(op, &a->nfs_argop4_u.oplayoutget.loga_stateid);
        op->offset = a->nfs_argop4_u.oplayoutget.loga_offset;
        op->length = a->nfs_argop4_u.oplayoutget.loga_length;
        break;
    case OP_LAYOUTRETURN: {
        const layoutreturn4 *lr = &a->nfs_argop4_u.oplayoutreturn.lora_layoutreturn;
        if (lr->lr_returntype == LAYOUTRETURN4_FILE) {
            set_stateid(op, &lr->layoutreturn4_u.lr_layout.lrf_stateid);
            op->offset = lr->layoutreturn4_u.lr_layout.lrf_offset;
            op->length = lr->layoutreturn4_u.lr_layout.lrf_length;
        }
        break;
    }
    case OP_READ_PLUS:
        set_stateid(op, &a->nfs_argop4_u.opread_plus.rpa_stateid);
        op->offset = a->nfs_argop4_u.opread_plus.rpa_offset;
        op->count = a->nfs_argop4_u.opread_plus.rpa_count;
        break;
    case OP_SEEK:
        set_stateid(op, &a->nfs_argop4_u.opseek.sa_stateid);
        op->offset = a->nfs_argop4_u.opseek.sa_offset;
        op->how = a->nfs_argop4_u.opseek.sa_what;
        break;
    case OP_ALLOCATE:
    case OP_DEALLOCATE:
        /* the same three fields in both */
        set_stateid(op, &a->nfs_argop4_u.opallocate.aa_stateid);
        op->offset = a->nfs_argop4_u.opallocate.aa_offset;
        op->length = a->nfs_argop4_u.opallocate.aa_length;
        break;
    case OP_COPY:
        set_stateid(op, &a->nfs_argop4_u.opcopy.ca_dst_stateid);
        op->offset = a->nfs_argop4_u.opcopy.ca_dst_offset;
        op->length = a->nfs_argop4_u.opcopy.ca_count;
        break;
    case OP_CLONE:
        set_stateid(op, &a->nfs_argop4_u.opclone.cl_dst_stateid);
        op->offset = a->nfs_argop4_u.opclone.cl_dst_offset;
        op->length = a->nfs_argop4_u.opclone.cl_count;
        break;
    case OP_SEQUENCE:
        if (s->c4.nops == 1)
            session_of(d->s, &a->nfs_argop4_u.opsequence);
        break;
    default:
        break;
    }
}

/* The operation at start (its number already read) through the union's
 * codec. */
static int by_union(struct tr__x4 *d, struct tr_nfs4_op *op, u_int start)
{
    nfs_argop4 a;
    int ok = tr__x4_union(d, start, (xdrproc_t)xdr_nfs_argop4, &a, sizeof(a));

    if (ok)
        union_fields(d, op, &a);
    xdr_free((xdrproc_t)xdr_nfs_argop4, (char *)&a);
    return ok;
}

/* One operation's arguments (its number read, start is where it began). */
static int op_args(struct tr__x4 *d, struct tr_nfs4_op *op, struct tr__op4x *ox,
                   u_int start)
{
    struct tr_nfs_attr scratch;
    uint32_t mask[NFS4_XDR_BITMAP], n;

    switch (op->op) {
    case OP_PUTFH:
        return putfh(d, op);
    case OP_LOOKUP:
    case OP_REMOVE:
    case OP_LINK:
    case OP_SECINFO:
        return name_into(d, ox, TR__S4_NAME);
    case OP_RENAME:
        return name_into(d, ox, TR__S4_NAME) && name_into(d, ox, TR__S4_NAME2);
    case OP_GETATTR:
        return tr__x4_bitmap(d, mask, &n);
    case OP_CREATE:
        return create(d, op, ox);
    case OP_OPEN:
        return open_(d, op, ox);
    case OP_SETATTR:
        if (!tr__x4_stateid(d, &op->stateid))
            return 0;
        op->flags |= TR_NFS4_O_STATEID;
        return tr__x4_fattr(d, &op->sattr, NULL);
    case OP_VERIFY:
    case OP_NVERIFY:
        memset(&scratch, 0, sizeof(scratch));
        return tr__x4_fattr(d, &scratch, NULL);
    case OP_READDIR:
        return readdir_(d, op);
    case OP_WRITE:
        return write_(d, op);
    default:
        return by_union(d, op, start);
    }
}

/* ---- the COMPOUND ------------------------------------------------------------ */

/* The call's operations stop before their count: cut by the capture, or
 * not XDR. */
static void stopped(struct tr__x4 *d)
{
    if (!(d->s->ev.flags & TR_NFS_F_CALL_CUT)) {
        d->s->ev.flags |= TR_NFS_F_CALL_CUT;
        d->r->cnt[d->cut ? TR__C_CALL_CUT : TR__C_NFSV4_BAD_OPS]++;
    }
}

int tr__nfs4_args(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                  size_t len, int cut)
{
    struct tr__x4 d = {.len = len, .cut = cut, .r = r, .s = s};
    char tag[NFS4_XDR_STRING];
    utf8str_cs t;
    uint32_t count, i;
    int rc = 1;

    if (s->ev.proc != NFSPROC4_COMPOUND)
        return 1; /* NULL: no arguments */
    xdrmem_create(&d.x, (char *)buf, (u_int)len, XDR_DECODE);
    t.utf8string_val = tag;
    t.utf8string_len = 0;
    if (!xdr_utf8str_cs(&d.x, &t) || !xdr_u_int(&d.x, &s->c4.minor) ||
        !xdr_u_int(&d.x, &count)) {
        rc = 0;
        goto out;
    }
    s->c4.nops_call = count;
    if (t.utf8string_len && tr__slot_put(s, tag, t.utf8string_len, &s->tag_off) < 0) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < count; i++) {
        u_int start = xdr_getpos(&d.x);
        struct tr_nfs4_op *op;
        uint32_t opnum;
        if (!xdr_u_int(&d.x, &opnum)) {
            stopped(&d);
            break;
        }
        if (!nf4_op_name(opnum)) {
            s->c4.flags |= TR_NFS4_C_UNKNOWN_OP;
            s->c4.unknown_op = opnum;
            r->cnt[TR__C_NFSV4_UNKNOWN_OPS]++;
            break;
        }
        int orc;
        op = tr__slot_op4(s, &orc);
        if (!op) {
            if (orc < 0) {
                rc = orc;
                goto out;
            }
            s->c4.flags |= TR_NFS4_C_OPS_CUT;
            r->cnt[TR__C_NFSV4_OPS_CUT]++;
            break;
        }
        op->op = opnum;
        if (!op_args(&d, op, &s->ops4x[s->c4.nops - 1], start)) {
            if (d.nomem) {
                rc = -ENOMEM;
                goto out;
            }
            if (op->flags & TR_NFS4_O_DATA_CUT) {
                s->ev.flags |= TR_NFS_F_DATA_CUT;
                if (i + 1 == count) {
                    op->flags |= TR_NFS4_O_ARGS; /* the WRITE's fields are all there */
                    break;
                }
            }
            op->flags |= TR_NFS4_O_CUT;
            stopped(&d);
            break;
        }
        op->flags |= TR_NFS4_O_ARGS;
    }
out:
    xdr_destroy(&d.x);
    return rc;
}
