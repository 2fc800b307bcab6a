/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_decode.c - COMPOUND4res decoded into a struct nf4_res (nf4_client.h).
 * Written by hand because rpcgen's xdr_COMPOUND4res allocates the result
 * array and, inside it, every handle, attribute list, READ buffer and
 * directory entry - several allocations per call on the hot path, and
 * freeing them after.  This decoder keeps what FreeSFS uses in the
 * caller's struct (handles and attributes by value, READ data and link
 * text in the caller's buffer) and reads the rest over.  The fixed-size
 * parts (stateids, change_info4, SEQUENCE's and WRITE's results) go
 * through rpcgen's codecs, which allocate nothing for them.  Every length
 * is checked against its bound before anything is read.
 */
#include <string.h>

#include "common/bytes.h"
#include "nfs/nf4_int.h"

/* The next n bytes of the reply, in place (NULL: fewer are left).  The
 * engine decodes replies from memory, where this is one bound check: the
 * fixed-size parts of the hot results are read through it instead of a
 * codec call per word.  It holds because the engine's replies start on a
 * word (recmark.h): libtirpc's memory stream gives no xdr_inline at all
 * on an unaligned buffer. */
static const uint8_t *take(XDR *x, u_int n)
{
    return (const uint8_t *)xdr_inline(x, (int)n);
}

/* Reads over n bytes (padded to a word) without copying them. */
static bool_t skip_bytes(XDR *x, u_int n)
{
    u_int pos = xdr_getpos(x);

    if (RNDUP(n) < n)
        return FALSE;
    return xdr_setpos(x, pos + RNDUP(n));
}

/* A variable-length opaque or string of at most max bytes, read over. */
static bool_t skip_opaque(XDR *x, u_int max)
{
    u_int len;

    return xdr_u_int(x, &len) && len <= max && skip_bytes(x, len);
}

/* A variable-length opaque of at most max bytes into buf (NULL: read
 * over); its length in *len. */
static bool_t opaque_into(XDR *x, char *buf, u_int max, u_int *len)
{
    if (!xdr_u_int(x, len))
        return FALSE;
    if (!buf)
        return *len <= NFS4_XDR_DATA && skip_bytes(x, *len);
    return *len <= max && xdr_opaque(x, buf, *len);
}

/* A bitmap4: its first NF4_ATTR_WORDS words into w (zeroed first; NULL:
 * read over), *n the words it had. */
static bool_t bitmap_into(XDR *x, uint32_t *w, u_int *n)
{
    const uint8_t *p;
    u_int i;

    if (w)
        memset(w, 0, NF4_ATTR_WORDS * sizeof(*w));
    if (!xdr_u_int(x, n) || *n > NFS4_XDR_BITMAP)
        return FALSE;
    if (*n == 0)
        return TRUE;
    if (!(p = take(x, 4 * *n)))
        return FALSE;
    for (i = 0; w && i < *n && i < NF4_ATTR_WORDS; i++)
        w[i] = cm_be32_get(p + 4 * i);
    return TRUE;
}

static bool_t skip_bitmap(XDR *x)
{
    u_int n;

    return bitmap_into(x, NULL, &n);
}

/* A fattr4 into a (NULL: read over).  The values are decoded in place in
 * the receive buffer (xdr_inline), never copied. */
static bool_t fattr_into(XDR *x, struct nf4_attrs *a)
{
    uint32_t w[NF4_ATTR_WORDS];
    u_int n, len;
    const char *vals;

    if (!bitmap_into(x, w, &n) || !xdr_u_int(x, &len) || len > NFS4_XDR_ATTRLIST)
        return FALSE;
    if (!a)
        return skip_bytes(x, len);
    vals = (const char *)xdr_inline(x, (int)RNDUP(len));
    memset(a, 0, sizeof(*a));
    if (!vals)
        return FALSE;
    return nf4_attrs_decode(a, w, n < NF4_ATTR_WORDS ? n : NF4_ATTR_WORDS, vals, len) ==
           0;
}

/* An entry's name: into the caller's buffer, NUL-terminated, while it
 * fits (nf4_res.data, when set), else read over. */
static bool_t entry_name(XDR *x, struct nf4_res *r, struct nf4_resop *o)
{
    uint32_t used = o->u.readdir.names_len;
    u_int len;

    if (!r->data)
        return skip_opaque(x, NFS4_XDR_STRING);
    if (!xdr_u_int(x, &len) || len > NFS4_XDR_STRING)
        return FALSE;
    if ((uint64_t)used + len + 1 > r->data_max)
        return skip_bytes(x, len);
    if (!xdr_opaque(x, r->data + used, len))
        return FALSE;
    r->data[used + len] = '\0';
    o->u.readdir.names_len = used + len + 1;
    return TRUE;
}

/* An entry's attributes: read over, or, with r->dir_fileids and its name
 * kept (names_len moved past before), its fileid after the name's NUL
 * while it fits (else the name is taken back). */
static bool_t entry_attrs(XDR *x, struct nf4_res *r, struct nf4_resop *o, uint32_t before)
{
    struct nf4_attrs a;
    uint32_t used = o->u.readdir.names_len;
    uint64_t id;

    if (!r->dir_fileids || used == before)
        return fattr_into(x, NULL);
    if (!fattr_into(x, &a))
        return FALSE;
    if ((uint64_t)used + sizeof(id) > r->data_max) {
        o->u.readdir.names_len = before;
        return TRUE;
    }
    id = nf4_attr_isset(a.have, FATTR4_FILEID) ? a.fileid : UINT64_MAX;
    memcpy(r->data + used, &id, sizeof(id));
    o->u.readdir.names_len = used + (uint32_t)sizeof(id);
    return TRUE;
}

/* The entries of a READDIR reply: counted, the last cookie kept, the
 * names kept when the caller gave a buffer, attributes read over.  Ends
 * because every entry consumes bytes. */
static bool_t dir_entries(XDR *x, struct nf4_res *r, struct nf4_resop *o)
{
    bool_t more, eof;
    uint64_t cookie;

    o->u.readdir.entries = 0;
    o->u.readdir.last_cookie = 0;
    o->u.readdir.names_len = 0;
    if (!xdr_bool(x, &more))
        return FALSE;
    while (more) {
        uint32_t before = o->u.readdir.names_len;

        if (!xdr_uint64_t(x, &cookie) || !entry_name(x, r, o) ||
            !entry_attrs(x, r, o, before) || !xdr_bool(x, &more))
            return FALSE;
        o->u.readdir.entries++;
        o->u.readdir.last_cookie = cookie;
    }
    if (!xdr_bool(x, &eof))
        return FALSE;
    o->u.readdir.eof = eof != 0;
    return TRUE;
}

/* An nfsace4 read over (a delegation's permissions). */
static bool_t skip_ace(XDR *x)
{
    uint32_t w;

    return xdr_uint32_t(x, &w) && xdr_uint32_t(x, &w) && xdr_uint32_t(x, &w) &&
           skip_opaque(x, NFS4_XDR_STRING);
}

/* open_delegation4: the type kept, and the stateid of a READ or WRITE
 * delegation (to hand it back at once). */
static bool_t delegation(XDR *x, struct nf4_resop *o)
{
    uint32_t t, w;
    bool_t b;

    if (!xdr_uint32_t(x, &t))
        return FALSE;
    o->u.open.deleg_type = t;
    switch (t) {
    case OPEN_DELEGATE_NONE:
        return TRUE;
    case OPEN_DELEGATE_READ:
        return xdr_stateid4(x, &o->u.open.deleg) && xdr_bool(x, &b) && skip_ace(x);
    case OPEN_DELEGATE_WRITE:
        if (!xdr_stateid4(x, &o->u.open.deleg) || !xdr_bool(x, &b) ||
            !xdr_uint32_t(x, &w))
            return FALSE;
        if (w == NFS_LIMIT_SIZE) {
            uint64_t size;

            if (!xdr_uint64_t(x, &size))
                return FALSE;
        } else if (w == NFS_LIMIT_BLOCKS) {
            if (!xdr_uint32_t(x, &w) || !xdr_uint32_t(x, &w))
                return FALSE;
        } else {
            return FALSE;
        }
        return skip_ace(x);
    case OPEN_DELEGATE_NONE_EXT:
        if (!xdr_uint32_t(x, &w))
            return FALSE;
        return (w != WND4_CONTENTION && w != WND4_RESOURCE) || xdr_bool(x, &b);
    default:
        return FALSE;
    }
}

/* channel_attrs4, its RDMA array (at most one word) read over. */
static bool_t channel(XDR *x, channel_attrs4 *c)
{
    u_int n;
    uint32_t w;

    if (!xdr_uint32_t(x, &c->ca_headerpadsize) ||
        !xdr_uint32_t(x, &c->ca_maxrequestsize) ||
        !xdr_uint32_t(x, &c->ca_maxresponsesize) ||
        !xdr_uint32_t(x, &c->ca_maxresponsesize_cached) ||
        !xdr_uint32_t(x, &c->ca_maxoperations) || !xdr_uint32_t(x, &c->ca_maxrequests) ||
        !xdr_u_int(x, &n) || n > 1)
        return FALSE;
    c->ca_rdma_ird.ca_rdma_ird_len = 0;
    c->ca_rdma_ird.ca_rdma_ird_val = NULL;
    return n == 0 || xdr_uint32_t(x, &w);
}

/* A variable-length opaque of at most max bytes, read over, folded into
 * the FNV-1a digest *h (its length too: "ab" "c" is not "a" "bc"). */
static bool_t digest_opaque(XDR *x, u_int max, uint64_t *h)
{
    const uint8_t *p = NULL;
    u_int len, i;

    if (!xdr_u_int(x, &len) || len > max)
        return FALSE;
    if (len > 0 && !(p = take(x, RNDUP(len))))
        return FALSE;
    for (i = 0; i < 4 + len; i++) {
        *h ^= i < 4 ? (len >> (8 * i) & 0xffu) : p[i - 4];
        *h *= 0x100000001b3ull;
    }
    return TRUE;
}

static bool_t exchange_id(XDR *x, struct nf4_resop *o)
{
    uint32_t how;
    uint64_t minor_id, h = 0xcbf29ce484222325ull;
    u_int n;
    nfstime4 t;

    if (!xdr_uint64_t(x, &o->u.exchange_id.clientid) ||
        !xdr_uint32_t(x, &o->u.exchange_id.sequenceid) ||
        !xdr_uint32_t(x, &o->u.exchange_id.flags) || !xdr_uint32_t(x, &how))
        return FALSE;
    if (how == SP4_MACH_CRED) {
        if (!skip_bitmap(x) || !skip_bitmap(x))
            return FALSE;
    } else if (how != SP4_NONE) {
        return FALSE; /* SSV: never asked for */
    }
    /* server_owner4 and server_scope, kept as a digest (a restarted
     * server may present itself anew), the implementation id (at most one) */
    if (!xdr_uint64_t(x, &minor_id) || !digest_opaque(x, NFS4_OPAQUE_LIMIT, &h) ||
        !digest_opaque(x, NFS4_OPAQUE_LIMIT, &h) || !xdr_u_int(x, &n) || n > 1)
        return FALSE;
    o->u.exchange_id.server_id = h ^ minor_id;
    return n == 0 || (skip_opaque(x, NFS4_XDR_STRING) &&
                      skip_opaque(x, NFS4_XDR_STRING) && xdr_nfstime4(x, &t));
}

/* LOCK4denied (the conflicting lock: its range, type and owner), read over. */
static bool_t lock_denied(XDR *x)
{
    uint64_t w64;
    uint32_t w;

    return xdr_uint64_t(x, &w64) && xdr_uint64_t(x, &w64) && xdr_uint32_t(x, &w) &&
           xdr_uint64_t(x, &w64) && skip_opaque(x, NFS4_OPAQUE_LIMIT);
}

/* The result of one operation after its status. */
static bool_t op_result(XDR *x, struct nf4_res *r, struct nf4_resop *o)
{
    int ok = o->status == NFS4_OK;
    change_info4 ci;
    channel_attrs4 back;
    bool_t b;

    switch (o->op) {
    case OP_ACCESS:
        return !ok || xdr_ACCESS4resok(x, &o->u.access);
    case OP_CLOSE:
    case OP_OPEN_CONFIRM:
    case OP_OPEN_DOWNGRADE:
        return !ok || xdr_stateid4(x, &o->u.close);
    case OP_COMMIT:
        return !ok || xdr_COMMIT4resok(x, &o->u.commit);
    case OP_CREATE:
        return !ok || (xdr_change_info4(x, &o->u.cinfo) && skip_bitmap(x));
    case OP_GETATTR:
        return !ok || fattr_into(x, &o->u.getattr);
    case OP_GETFH:
        return !ok ||
               opaque_into(x, (char *)o->u.getfh.data, NF4_FH_MAX, &o->u.getfh.len);
    case OP_LINK:
    case OP_REMOVE:
        return !ok || xdr_change_info4(x, &o->u.cinfo);
    case OP_RENAME: /* the source directory's, then the target's */
        return !ok || (xdr_change_info4(x, &ci) && xdr_change_info4(x, &o->u.cinfo));
    case OP_OPEN:
        o->u.open.deleg_type = OPEN_DELEGATE_NONE;
        return !ok ||
               (xdr_stateid4(x, &o->u.open.stateid) &&
                xdr_change_info4(x, &o->u.open.cinfo) &&
                xdr_uint32_t(x, &o->u.open.rflags) && skip_bitmap(x) && delegation(x, o));
    case OP_READ:
        if (!ok)
            return TRUE;
        if (!xdr_bool(x, &b))
            return FALSE;
        o->u.read.eof = b != 0;
        return opaque_into(x, r->data, r->data_max, &o->u.read.len);
    case OP_READDIR:
        return !ok || (xdr_opaque(x, o->u.readdir.cookieverf, NFS4_VERIFIER_SIZE) &&
                       dir_entries(x, r, o));
    case OP_READLINK:
        return !ok || opaque_into(x, r->data, r->data_max, &o->u.readlink.len);
    case OP_SETATTR: /* attrsset follows the status, whatever it is */
        return skip_bitmap(x);
    case OP_WRITE:
        return !ok || xdr_WRITE4resok(x, &o->u.write);
    case OP_SEQUENCE: {
        SEQUENCE4resok *q = &o->u.sequence;
        const uint8_t *p;

        if (!ok)
            return TRUE;
        if (!(p = take(x, NFS4_SESSIONID_SIZE + 5 * 4)))
            return FALSE;
        memcpy(q->sr_sessionid, p, NFS4_SESSIONID_SIZE);
        p += NFS4_SESSIONID_SIZE;
        q->sr_sequenceid = cm_be32_get(p);
        q->sr_slotid = cm_be32_get(p + 4);
        q->sr_highest_slotid = cm_be32_get(p + 8);
        q->sr_target_highest_slotid = cm_be32_get(p + 12);
        q->sr_status_flags = cm_be32_get(p + 16);
        return TRUE;
    }
    case OP_EXCHANGE_ID:
        return !ok || exchange_id(x, o);
    case OP_CREATE_SESSION:
        return !ok ||
               (xdr_opaque(x, o->u.create_session.sessionid, NFS4_SESSIONID_SIZE) &&
                xdr_uint32_t(x, &o->u.create_session.sequence) &&
                xdr_uint32_t(x, &o->u.create_session.flags) &&
                channel(x, &o->u.create_session.fore) && channel(x, &back));
    case OP_SETCLIENTID:
        if (o->status == NFS4ERR_CLID_INUSE) /* clientaddr4: netid, address */
            return skip_opaque(x, NFS4_XDR_STRING) && skip_opaque(x, NFS4_XDR_STRING);
        return !ok || xdr_SETCLIENTID4resok(x, &o->u.setclientid);
    case OP_LOCK:
    case OP_LOCKU: /* the lock's stateid; a conflict read over */
        return ok ? xdr_stateid4(x, &o->u.close)
                  : o->status != NFS4ERR_DENIED || o->op == OP_LOCKU || lock_denied(x);
    case OP_LOCKT:
        return ok || o->status != NFS4ERR_DENIED || lock_denied(x);
    case OP_DELEGPURGE:
    case OP_DELEGRETURN:
    case OP_LOOKUP:
    case OP_LOOKUPP:
    case OP_NVERIFY:
    case OP_OPENATTR:
    case OP_PUTFH:
    case OP_PUTPUBFH:
    case OP_PUTROOTFH:
    case OP_RENEW:
    case OP_RESTOREFH:
    case OP_SAVEFH:
    case OP_SETCLIENTID_CONFIRM:
    case OP_VERIFY:
    case OP_RELEASE_LOCKOWNER:
    case OP_DESTROY_SESSION:
    case OP_FREE_STATEID:
    case OP_DESTROY_CLIENTID:
    case OP_RECLAIM_COMPLETE:
    case OP_ILLEGAL:
        return TRUE;
    default: /* an operation FreeSFS never sends */
        return FALSE;
    }
}

bool_t nf4_xdr_res(XDR *x, void *res)
{
    struct nf4_res *r = res;
    u_int n, i;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return FALSE;
    r->nops = 0;
    if (!xdr_uint32_t(x, &r->status) || !skip_opaque(x, NFS4_OPAQUE_LIMIT) ||
        !xdr_u_int(x, &n) || n > NF4_MAX_OPS)
        return FALSE;
    for (i = 0; i < n; i++) {
        struct nf4_resop *o = &r->op[i];
        const uint8_t *p = take(x, 8); /* the operation and its status */

        if (!p)
            return FALSE;
        o->op = cm_be32_get(p);
        o->status = cm_be32_get(p + 4);
        if (!op_result(x, r, o))
            return FALSE;
        r->nops = i + 1;
    }
    return TRUE;
}

const struct nf4_resop *nf4_res_find(const struct nf4_res *r, uint32_t op, uint32_t from)
{
    uint32_t i;

    for (i = from; i < r->nops; i++)
        if (r->op[i].op == op)
            return &r->op[i];
    return NULL;
}
