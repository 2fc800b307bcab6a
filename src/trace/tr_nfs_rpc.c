/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_rpc.c - one ONC RPC message of a capture (RFC 5531 section 9):
 * the call header (XID, program, version, procedure, the AUTH_SYS
 * credential) or the reply header (accepted or denied, accept status),
 * read with libtirpc's XDR primitives; then the NFSv2/v3 and MOUNT calls
 * go to the pairing and tr_nfs_xdr.c for their arguments, their replies
 * to their calls' slots for the results.  Other programs (NFSv4, NLM,
 * rpcbind...) are counted, and so are their replies, never decoded.  A
 * message cut by the snap length keeps what was captured before the cut
 * and is flagged; one that is whole but does not decode is counted.
 */
#include <errno.h>
#include <string.h>

#include "trace/tr_nfs_int.h"

/* What an RPC header says. */
struct hdr {
    uint32_t xid, type;
    /* call */
    uint32_t rpcvers, prog, vers, proc, uid, gid;
    /* reply */
    uint32_t rpc_status;
    size_t body; /* offset of the arguments or results */
};

enum { HDR_NOT_RPC = 0, HDR_OK = 1, HDR_SHORT = 2 };

static int auth(XDR *x, uint32_t *uid, uint32_t *gid)
{
    char body[MAX_AUTH_BYTES];
    struct opaque_auth a;

    a.oa_base = body;
    if (!xdr_opaque_auth(x, &a))
        return 0;
    if (uid && a.oa_flavor == AUTH_UNIX) {
        char machine[256], *mp = machine;
        u_int stamp, u, g;
        XDR b;
        xdrmem_create(&b, body, a.oa_length, XDR_DECODE);
        if (xdr_u_int(&b, &stamp) && xdr_string(&b, &mp, 255) && xdr_u_int(&b, &u) &&
            xdr_u_int(&b, &g)) {
            *uid = u;
            *gid = g;
        }
        xdr_destroy(&b);
    }
    return 1;
}

/* Reads the header of buf[0..len): HDR_OK, HDR_SHORT (cut inside the
 * header) or HDR_NOT_RPC. */
static int header(const uint8_t *buf, size_t len, struct hdr *h)
{
    XDR x;
    int rc = HDR_SHORT;

    memset(h, 0, sizeof(*h));
    if (len < 8)
        return HDR_SHORT;
    xdrmem_create(&x, (char *)buf, (u_int)len, XDR_DECODE);
    if (!xdr_u_int(&x, &h->xid) || !xdr_u_int(&x, &h->type))
        goto out;
    if (h->type == CALL) {
        if (!xdr_u_int(&x, &h->rpcvers))
            goto out;
        if (h->rpcvers != RPC_MSG_VERSION) {
            rc = HDR_NOT_RPC;
            goto out;
        }
        if (!xdr_u_int(&x, &h->prog) || !xdr_u_int(&x, &h->vers) ||
            !xdr_u_int(&x, &h->proc) || !auth(&x, &h->uid, &h->gid) ||
            !auth(&x, NULL, NULL))
            goto out;
    } else if (h->type == REPLY) {
        u_int stat, ast;
        if (!xdr_u_int(&x, &stat))
            goto out;
        if (stat == MSG_ACCEPTED) {
            if (!auth(&x, NULL, NULL) || !xdr_u_int(&x, &ast))
                goto out;
            if (ast > SYSTEM_ERR) {
                rc = HDR_NOT_RPC;
                goto out;
            }
            h->rpc_status = ast;
        } else if (stat == MSG_DENIED) {
            if (!xdr_u_int(&x, &ast))
                goto out;
            if (ast > AUTH_ERROR) {
                rc = HDR_NOT_RPC;
                goto out;
            }
            h->rpc_status =
                ast == RPC_MISMATCH ? TR_NFS_RPC_MISMATCH : TR_NFS_RPC_AUTH_ERROR;
        } else {
            rc = HDR_NOT_RPC;
            goto out;
        }
    } else {
        rc = HDR_NOT_RPC;
        goto out;
    }
    h->body = xdr_getpos(&x);
    rc = HDR_OK;
out:
    xdr_destroy(&x);
    /* a header that ran out of bytes in a message that had them all is
     * not RPC either */
    return rc;
}

/* The programs a capture of NFS traffic holds besides NFS and MOUNT. */
static int known_prog(uint32_t prog)
{
    return prog == TR_NFS_PROG_NFS || prog == TR_NFS_PROG_MOUNT || prog == 100000 ||
           prog == 100021 || prog == 100024 || prog == 100011 || prog == 100227;
}

int tr__rpc_plausible(struct tr_nfs_reader *r, const struct tr__msg *m,
                      const uint8_t *buf, size_t len)
{
    struct hdr h;
    struct tr__msg rm = *m;

    if (header(buf, len, &h) != HDR_OK)
        return 0;
    if (h.type == CALL)
        return known_prog(h.prog) && h.vers < 16;
    rm.xid = h.xid;
    return tr__pair_known(r, &rm);
}

static int call(struct tr_nfs_reader *r, const struct tr__msg *m, const struct hdr *h,
                const uint8_t *buf, size_t len, int cut)
{
    const struct tr__proc_fields *f = tr__proc_fields(h->prog, h->vers, h->proc);
    int v4 = h->prog == TR_NFS_PROG_NFS && h->vers == 4;
    /* NFSv4 NULL and COMPOUND become events when the caller asks */
    int v4_events = v4 && r->opt.nfsv4 && h->proc <= NFSPROC4_COMPOUND;
    int ours = (h->prog == TR_NFS_PROG_NFS && (h->vers == 2 || h->vers == 3)) ||
               (h->prog == TR_NFS_PROG_MOUNT && (h->vers == 1 || h->vers == 3));
    struct tr__slot *s;
    int rc;

    if (!v4_events && (!ours || !f)) {
        uint32_t kind = v4 ? TR__RECENT_NFSV4 : TR__RECENT_OTHER;
        if (!v4 && r->opt.nfsv4 && tr__cb_prog_is(&r->cb, h->prog, h->vers))
            kind = TR__RECENT_NFSV4_CB;
        rc = tr__pair_foreign_call(r, m, kind);
        if (rc < 0)
            return rc;
        if (rc > 0)
            r->cnt[kind == TR__RECENT_NFSV4      ? TR__C_NFSV4_CALLS
                   : kind == TR__RECENT_NFSV4_CB ? TR__C_NFSV4_CB_CALLS
                                                 : TR__C_OTHER_CALLS]++;
        if (ours)
            r->cnt[TR__C_BAD_CALLS]++; /* a procedure number past the table */
        return 1;
    }
    s = tr__pair_call(r, m, h->prog, h->vers, h->proc, &rc);
    if (!s)
        return rc < 0 ? rc : 1;
    if (v4_events)
        r->cnt[TR__C_NFSV4_CALLS]++;
    s->ev.uid = h->uid;
    s->ev.gid = h->gid;
    rc = v4_events ? tr__nfs4_args(r, s, buf + h->body, len - h->body, cut)
                   : tr__xdr_args(r, s, buf + h->body, len - h->body, cut);
    if (rc < 0)
        return rc;
    if (rc == 0 && cut) {
        s->ev.flags |= TR_NFS_F_CALL_CUT;
        r->cnt[TR__C_CALL_CUT]++;
    } else if (rc == 0) {
        r->cnt[TR__C_BAD_CALLS]++;
        tr__pair_drop(r, s);
    }
    if (s->ev.flags & TR_NFS_F_DATA_CUT)
        r->cnt[TR__C_DATA_CUT]++;
    return 1;
}

static int reply(struct tr_nfs_reader *r, const struct tr__msg *m, const struct hdr *h,
                 const uint8_t *buf, size_t len, int cut)
{
    struct tr__slot *s;
    uint32_t kind;
    int rc;

    s = tr__pair_reply(r, m, &kind);
    if (!s) {
        if (kind == TR__RECENT_DONE)
            r->cnt[TR__C_DUP_REPLIES]++;
        else if (kind == TR__RECENT_NFSV4)
            r->cnt[TR__C_NFSV4_REPLIES]++;
        else if (kind == TR__RECENT_OTHER)
            r->cnt[TR__C_OTHER_REPLIES]++;
        else if (kind == TR__RECENT_NFSV4_CB)
            r->cnt[TR__C_NFSV4_CB_REPLIES]++;
        else if (kind == 0)
            r->cnt[TR__C_NO_CALL]++;
        return 1;
    }
    s->ev.rpc_status = h->rpc_status;
    if (h->rpc_status != TR_NFS_RPC_SUCCESS) {
        r->cnt[TR__C_RPC_ERRORS]++;
        return 1;
    }
    rc = s->ev.vers == 4 ? tr__nfs4_res(r, s, buf + h->body, len - h->body, cut)
                         : tr__xdr_res(r, s, buf + h->body, len - h->body, cut);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        s->ev.flags |= TR_NFS_F_REPLY_CUT;
        r->cnt[cut ? TR__C_REPLY_CUT : TR__C_BAD_REPLIES]++;
    }
    if ((s->ev.flags & TR_NFS_F_DATA_CUT) && s->ev.vers < 4 &&
        s->ev.proc == NFSPROC3_READ)
        r->cnt[TR__C_DATA_CUT]++;
    return 1;
}

int tr__rpc_msg(struct tr_nfs_reader *r, const struct tr__msg *m, const uint8_t *buf,
                size_t len, size_t wire)
{
    struct tr__msg mm = *m;
    struct hdr h;
    int cut = len < wire, rc;

    rc = header(buf, len, &h);
    if (rc == HDR_NOT_RPC || (rc == HDR_SHORT && !cut))
        return 0;
    if (cut)
        r->cnt[TR__C_TRUNC_RECORDS]++;
    if (rc == HDR_SHORT)
        return 1; /* counted: the snap length cut the RPC header itself */
    mm.xid = h.xid;
    if (h.type == CALL)
        return call(r, &mm, &h, buf, len, cut);
    return reply(r, &mm, &h, buf, len, cut);
}
