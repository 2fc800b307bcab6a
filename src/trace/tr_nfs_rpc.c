/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_rpc.c - one ONC RPC message of a capture (RFC 5531 section 9):
 * the call header (XID, program, version, procedure, the AUTH_SYS
 * credential) or the reply header (accepted or denied, accept status),
 * read with libtirpc's XDR primitives; then the NFSv2/v3 and MOUNT calls
 * go to the pairing and tr_nfs_xdr.c for their arguments, their replies
 * to their calls' slots for the results, and so do NFSv4's when the
 * caller asks (tr_nfs4_args.c, tr_nfs4_res.c).  Other programs (NLM,
 * rpcbind...) are counted, and so are their replies, never decoded: one
 * table says what each program and version is.  A reply that comes before
 * its call (the calls' TCP direction held behind a hole) waits for it in
 * tr_nfs_early.c.  A message cut by the snap length keeps what was
 * captured before the cut and is flagged; one that is whole but does not
 * decode is counted.
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
    uint32_t verf_flavor; /* an accepted reply's verifier */
    size_t body;          /* offset of the arguments or results */
};

enum { HDR_NOT_RPC = 0, HDR_OK = 1, HDR_SHORT = 2 };

static int auth(XDR *x, uint32_t *uid, uint32_t *gid, uint32_t *flavor)
{
    char body[MAX_AUTH_BYTES];
    struct opaque_auth a;

    a.oa_base = body;
    if (!xdr_opaque_auth(x, &a))
        return 0;
    if (flavor)
        *flavor = (uint32_t)a.oa_flavor;
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
            !xdr_u_int(&x, &h->proc) || !auth(&x, &h->uid, &h->gid, NULL) ||
            !auth(&x, NULL, NULL, NULL))
            goto out;
    } else if (h->type == REPLY) {
        u_int stat, ast;
        if (!xdr_u_int(&x, &stat))
            goto out;
        if (stat == MSG_ACCEPTED) {
            if (!auth(&x, NULL, NULL, &h->verf_flavor) || !xdr_u_int(&x, &ast))
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

/* What the reader does with a program and version: decode its calls and
 * replies into events (NFSv2/v3, MOUNT v1/v3), or count them as NFSv4's,
 * or as another program's that an NFS capture holds (rpcbind, NLM, NSM,
 * rquota, NFS ACL, MOUNT v2).  NFSv4's row decodes when the caller asks
 * (tr_nfs_options.nfsv4: tr_nfs4_args.c, tr_nfs4_res.c).  A call of a
 * program not listed is still counted (other_rpc_calls; NFSv4 callbacks
 * apart, when NFSv4 is decoded), but is no sign of a record boundary. */
enum prog_kind { PK_DECODE, PK_NFSV4, PK_OTHER };
static const struct prog_row {
    uint32_t prog, vers_lo, vers_hi;
    enum prog_kind kind;
} progs[] = {
    {TR_NFS_PROG_NFS, 2, 3, PK_DECODE},
    {TR_NFS_PROG_NFS, 4, 4, PK_NFSV4},
    {TR_NFS_PROG_MOUNT, 1, 1, PK_DECODE},
    {TR_NFS_PROG_MOUNT, 2, 2, PK_OTHER},
    {TR_NFS_PROG_MOUNT, 3, 3, PK_DECODE},
    {100000, 2, 4, PK_OTHER}, /* rpcbind */
    {100021, 1, 4, PK_OTHER}, /* NLM */
    {100024, 1, 1, PK_OTHER}, /* NSM */
    {100011, 1, 2, PK_OTHER}, /* rquota */
    {100227, 2, 3, PK_OTHER}, /* NFS ACL */
};

static const struct prog_row *prog_row(uint32_t prog, uint32_t vers)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(progs); i++)
        if (progs[i].prog == prog && vers >= progs[i].vers_lo && vers <= progs[i].vers_hi)
            return &progs[i];
    return NULL;
}

/* A record mark followed by this is taken for a record's start when a TCP
 * stream looks for its framing again: a call of a program and version of
 * the table, or a reply - accepted with a verifier of a known flavor
 * (AUTH_NONE .. RPCSEC_GSS), or denied - whether or not its call is held
 * (the calls' direction may be held behind a hole of its own). */
int tr__rpc_plausible(const uint8_t *buf, size_t len)
{
    struct hdr h;

    if (header(buf, len, &h) != HDR_OK)
        return 0;
    if (h.type == CALL)
        return prog_row(h.prog, h.vers) != NULL;
    return h.rpc_status == TR_NFS_RPC_MISMATCH || h.rpc_status == TR_NFS_RPC_AUTH_ERROR ||
           h.verf_flavor <= 6;
}

static int reply(struct tr_nfs_reader *r, const struct tr__msg *m, const struct hdr *h,
                 const uint8_t *buf, size_t len, size_t wire);

/* The reply that came before call m, if one is held: decoded now. */
static int early_reply(struct tr_nfs_reader *r, const struct tr__msg *m)
{
    struct tr__early_reply e;
    struct hdr h;
    int rc = 1;

    if (!tr__early_take(r, tr__pair_key(&m->src, m->transport, m->conn, m->xid), &e))
        return 1;
    if (header(e.buf, e.len, &h) == HDR_OK) {
        r->cnt[TR__C_EARLY_REPLIES]++;
        rc = reply(r, &e.m, &h, e.buf, e.len, e.wire);
    }
    free(e.buf);
    return rc;
}

static int call(struct tr_nfs_reader *r, const struct tr__msg *m, const struct hdr *h,
                const uint8_t *buf, size_t len, int cut)
{
    const struct tr__proc_fields *f = tr__proc_fields(h->prog, h->vers, h->proc);
    const struct prog_row *row = prog_row(h->prog, h->vers);
    int v4 = row && row->kind == PK_NFSV4;
    /* NFSv4 NULL and COMPOUND become events when the caller asks: its row
     * decodes */
    int v4_events = v4 && r->opt.nfsv4 && h->proc <= NFSPROC4_COMPOUND;
    int ours = row && row->kind == PK_DECODE;
    struct tr__slot *s;
    int rc;

    if (!v4_events && (!ours || !f)) {
        uint32_t kind = v4 ? TR__RECENT_NFSV4 : TR__RECENT_OTHER;
        if (!row && r->opt.nfsv4 && tr__cb_prog_is(&r->cb, h->prog, h->vers))
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
        return early_reply(r, m);
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
    return early_reply(r, m);
}

static int reply(struct tr_nfs_reader *r, const struct tr__msg *m, const struct hdr *h,
                 const uint8_t *buf, size_t len, size_t wire)
{
    struct tr__slot *s;
    uint32_t kind;
    int cut = len < wire, rc;

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
        else if (kind == 0) {
            /* its call may still come: held until it does (or the window
             * passes: then counted as a reply without its call) */
            rc = tr__early_put(r, tr__pair_key(&m->dst, m->transport, m->conn, m->xid), m,
                               buf, len, wire);
            if (rc < 0)
                return rc;
            if (rc == 0)
                r->cnt[TR__C_DUP_REPLIES]++;
        }
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
    return reply(r, &mm, &h, buf, len, wire);
}
