/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs4_res.c - the results of an NFSv4 COMPOUND reply: the COMPOUND's
 * status and each operation's status and result, decoded with the rpcgen
 * codecs of src/nfs/proto/nfs4_prot.x into the operations of its call's
 * slot (tr_nfs4_args.c says why the codecs, and how: the same two ways
 * here).  Composed field by field, without allocating: GETATTR's
 * attributes, GETFH's handle, READ (its data skipped by its length),
 * READDIR's entries (one by one, at most TR_NFS_ENTRIES_MAX kept per
 * COMPOUND), READLINK's target, OPEN's stateid and delegation, CREATE;
 * every other result, and every error result, through the union's codec.
 *
 * Results are matched to the call's operations by position: a result
 * whose operation is not the call's at that place ends the matching
 * (counted); results past the operations the call gave (a call cut by the
 * capture) become operations known from their results only.
 */
#include <errno.h>
#include <string.h>

#include "nfs/nf4.h"
#include "trace/tr_nfs_int.h"

static void set_res_stateid(struct tr_nfs4_op *op, const stateid4 *st)
{
    tr__x4_stateid_of(&op->res_stateid, st);
    op->flags |= TR_NFS4_O_RES_STATEID;
}

/* ---- composed results (status OK) ------------------------------------------- */

static int read_(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    bool_t eof;
    int all;

    if (!xdr_bool(&d->x, &eof) || !tr__x4_skip_opaque(d, &op->res_count, &all))
        return 0;
    op->eof = eof != 0;
    if (!all) {
        op->flags |= TR_NFS4_O_DATA_CUT;
        d->s->ev.flags |= TR_NFS_F_DATA_CUT;
        d->r->cnt[TR__C_DATA_CUT]++;
    }
    return all;
}

/* READ_PLUS (4.2): its contents, data (skipped by its length) and holes;
 * res_count the bytes they cover. */
static int read_plus(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    uint32_t n, i, type, len;
    bool_t eof;
    offset4 off;
    length4 hole;
    int all;

    if (!xdr_bool(&d->x, &eof) || !xdr_u_int(&d->x, &n) || n > NFS4_XDR_ARRAY)
        return 0;
    op->eof = eof != 0;
    for (i = 0; i < n; i++) {
        if (!xdr_u_int(&d->x, &type) || !xdr_offset4(&d->x, &off))
            return 0;
        if (type == NFS4_CONTENT_HOLE) {
            if (!xdr_length4(&d->x, &hole))
                return 0;
            op->res_count += (uint32_t)(hole < UINT32_MAX ? hole : UINT32_MAX);
            continue;
        }
        if (type != NFS4_CONTENT_DATA || !tr__x4_skip_opaque(d, &len, &all))
            return 0;
        op->res_count += len;
        if (!all) {
            op->flags |= TR_NFS4_O_DATA_CUT;
            d->s->ev.flags |= TR_NFS_F_DATA_CUT;
            d->r->cnt[TR__C_DATA_CUT]++;
            return 0;
        }
    }
    return 1;
}

static int readdir_(struct tr__x4 *d, struct tr_nfs4_op *op, struct tr__op4x *ox)
{
    char name[NFS4_XDR_STRING];
    verifier4 v;
    bool_t more, eof;

    ox->ent0 = d->s->nents;
    if (!xdr_verifier4(&d->x, v))
        return 0;
    for (;;) {
        struct tr_nfs_dirent *e, scratch;
        nfs_cookie4 cookie;
        utf8string u;
        int rc;
        if (!xdr_bool(&d->x, &more))
            return 0;
        if (!more)
            break;
        u.utf8string_val = name;
        u.utf8string_len = 0;
        if (!xdr_nfs_cookie4(&d->x, &cookie) || !xdr_utf8string(&d->x, &u))
            return 0;
        e = tr__slot_dirent(d->s, name, u.utf8string_len, &rc);
        if (!e) {
            if (rc < 0) {
                d->nomem = 1;
                return 0;
            }
            d->r->cnt[TR__C_ENTRIES_CUT]++;
            e = &scratch;
        }
        memset(&e->attr, 0, sizeof(e->attr));
        e->fh.len = 0;
        if (!tr__x4_fattr(d, &e->attr, &e->fh))
            return 0;
        e->fileid = (e->attr.have & TR_NFS_A_FILEID) ? e->attr.fileid : 0;
        op->nentries = d->s->nents - ox->ent0;
    }
    op->nentries = d->s->nents - ox->ent0;
    if (!xdr_bool(&d->x, &eof))
        return 0;
    op->eof = eof != 0;
    return 1;
}

static int open_(struct tr__x4 *d, struct tr_nfs4_op *op)
{
    uint32_t mask[NFS4_XDR_BITMAP], n;
    open_delegation4 dl;
    change_info4 ci;
    int ok;

    if (!tr__x4_stateid(d, &op->res_stateid))
        return 0;
    op->flags |= TR_NFS4_O_RES_STATEID;
    if (!xdr_change_info4(&d->x, &ci) || !xdr_u_int(&d->x, &op->res_how) ||
        !tr__x4_bitmap(d, mask, &n))
        return 0;
    /* a delegation carries an ACE whose who-string libtirpc allocates:
     * rare enough to free at once */
    memset(&dl, 0, sizeof(dl));
    ok = xdr_open_delegation4(&d->x, &dl);
    if (ok)
        op->delegation = dl.delegation_type;
    xdr_free((xdrproc_t)xdr_open_delegation4, (char *)&dl);
    return ok;
}

static int create(struct tr__x4 *d)
{
    uint32_t mask[NFS4_XDR_BITMAP], n;
    change_info4 ci;

    return xdr_change_info4(&d->x, &ci) && tr__x4_bitmap(d, mask, &n);
}

/* ---- the other results, through the union's codec ---------------------------- */

static void union_fields(struct tr_nfs4_op *op, const nfs_resop4 *res)
{
    if (op->status != NFS4_OK)
        return;
    switch (res->resop) {
    case OP_ACCESS:
        op->res_how = res->nfs_resop4_u.opaccess.ACCESS4res_u.resok4.access;
        break;
    case OP_CLOSE:
        set_res_stateid(op, &res->nfs_resop4_u.opclose.CLOSE4res_u.open_stateid);
        break;
    case OP_OPEN_CONFIRM:
        set_res_stateid(
            op, &res->nfs_resop4_u.opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid);
        break;
    case OP_OPEN_DOWNGRADE:
        set_res_stateid(
            op,
            &res->nfs_resop4_u.opopen_downgrade.OPEN_DOWNGRADE4res_u.resok4.open_stateid);
        break;
    case OP_LOCK:
        set_res_stateid(op, &res->nfs_resop4_u.oplock.LOCK4res_u.resok4.lock_stateid);
        break;
    case OP_LOCKU:
        set_res_stateid(op, &res->nfs_resop4_u.oplocku.LOCKU4res_u.lock_stateid);
        break;
    case OP_SEEK:
        op->eof = res->nfs_resop4_u.opseek.SEEK4res_u.resok4.sr_eof != 0;
        break;
    case OP_WRITE:
        op->res_count = res->nfs_resop4_u.opwrite.WRITE4res_u.resok4.count;
        op->res_how = res->nfs_resop4_u.opwrite.WRITE4res_u.resok4.committed;
        break;
    case OP_SETCLIENTID:
        op->clientid = res->nfs_resop4_u.opsetclientid.SETCLIENTID4res_u.resok4.clientid;
        op->flags |= TR_NFS4_O_CLIENTID;
        break;
    case OP_CREATE_SESSION:
        memcpy(op->sessionid,
               res->nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4
                   .csr_sessionid,
               16);
        op->flags |= TR_NFS4_O_SESSION;
        break;
    case OP_EXCHANGE_ID:
        op->clientid =
            res->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_clientid;
        op->flags |= TR_NFS4_O_CLIENTID;
        break;
    default:
        break;
    }
}

static int by_union(struct tr__x4 *d, struct tr_nfs4_op *op, u_int start)
{
    nfs_resop4 res;
    int ok = tr__x4_union(d, start, (xdrproc_t)xdr_nfs_resop4, &res, sizeof(res));

    if (ok)
        union_fields(op, &res);
    xdr_free((xdrproc_t)xdr_nfs_resop4, (char *)&res);
    return ok;
}

/* One result (its operation number and status read). */
static int op_res(struct tr__x4 *d, struct tr_nfs4_op *op, struct tr__op4x *ox,
                  u_int start)
{
    if (op->status != NFS4_OK)
        return by_union(d, op, start);
    switch (op->op) {
    case OP_GETATTR:
        return tr__x4_fattr(d, &op->attr, NULL);
    case OP_GETFH:
        if (!tr__x4_fh(d, &op->res_fh))
            return 0;
        op->flags |= TR_NFS4_O_RES_FH;
        return 1;
    case OP_READ:
        return read_(d, op);
    case OP_READ_PLUS:
        return read_plus(d, op);
    case OP_READDIR:
        return readdir_(d, op, ox);
    case OP_READLINK:
        return tr__x4_str(d, &ox->soff[TR__S4_TEXT]);
    case OP_OPEN:
        return open_(d, op);
    case OP_CREATE:
        return create(d);
    default:
        return by_union(d, op, start);
    }
}

int tr__nfs4_res(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                 size_t len, int cut)
{
    struct tr__x4 d = {.len = len, .cut = cut, .r = r, .s = s};
    char tag[NFS4_XDR_STRING];
    utf8str_cs t;
    uint32_t count, i;
    int rc = 1;

    if (s->ev.proc != NFSPROC4_COMPOUND)
        return 1;
    xdrmem_create(&d.x, (char *)buf, (u_int)len, XDR_DECODE);
    t.utf8string_val = tag;
    t.utf8string_len = 0;
    if (!xdr_u_int(&d.x, &s->c4.status)) {
        rc = 0;
        goto out;
    }
    s->ev.status = s->c4.status;
    if (!xdr_utf8str_cs(&d.x, &t) || !xdr_u_int(&d.x, &count)) {
        rc = 0;
        goto out;
    }
    for (i = 0; i < count; i++) {
        u_int start = xdr_getpos(&d.x);
        struct tr_nfs4_op *op;
        uint32_t opnum, status;
        if (!xdr_u_int(&d.x, &opnum)) {
            rc = 0;
            break;
        }
        if (!nf4_op_name(opnum)) {
            s->c4.flags |= TR_NFS4_C_UNKNOWN_OP;
            s->c4.unknown_op = opnum;
            r->cnt[TR__C_NFSV4_UNKNOWN_OPS]++;
            break;
        }
        if (i < s->c4.nops) {
            op = &s->ops4[i];
            if (op->op != opnum) {
                r->cnt[TR__C_NFSV4_RES_MISMATCH]++;
                break;
            }
        } else if (!(s->ev.flags & TR_NFS_F_CALL_CUT) && i >= s->c4.nops_call) {
            /* more results than the call had operations */
            r->cnt[TR__C_NFSV4_RES_MISMATCH]++;
            break;
        } else {
            int orc;
            op = tr__slot_op4(s, &orc);
            if (!op) {
                if (orc < 0) {
                    rc = orc;
                    goto out;
                }
                s->c4.flags |= TR_NFS4_C_OPS_CUT;
                break;
            }
            op->op = opnum;
        }
        if (!xdr_u_int(&d.x, &status)) {
            rc = 0;
            break;
        }
        op->status = status;
        op->flags |= TR_NFS4_O_RES;
        s->c4.nres = i + 1;
        if (!op_res(&d, op, &s->ops4x[i], start)) {
            if (d.nomem) {
                rc = -ENOMEM;
                goto out;
            }
            if ((op->flags & TR_NFS4_O_DATA_CUT) && i + 1 == count)
                break; /* READ's fields are all there */
            op->flags |= TR_NFS4_O_CUT;
            rc = 0;
            break;
        }
    }
out:
    xdr_destroy(&d.x);
    return rc;
}
