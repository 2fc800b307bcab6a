/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_compound.c - NFS version 4's two procedures (server layer): NULL,
 * and COMPOUND (RFC 7530 15.2, RFC 8881 16.2): the operations evaluated in
 * order until the first that fails, each decoded by the rpcgen routine of
 * its arguments just before it runs and its result encoded right after, so
 * nothing of a compound is held but the operation at hand; the tag
 * echoed; the status of the last operation the compound's.
 *
 * Errors of the compound itself: an operation number no minor version has
 * (or one of 4.1 in a 4.0 compound) is OP_ILLEGAL, arguments that do not
 * decode BADXDR, a 4.0 compound of more than SV4_MAX_OPS operations
 * RESOURCE, a minor version above 1 MINOR_VERS_MISMATCH, a 4.0-only
 * operation in 4.1 NOTSUPP, a reply that would outgrow the buffer (or the
 * session's ca_maxresponsesize) RESOURCE in 4.0 and REP_TOO_BIG in 4.1.
 * In 4.1 every compound starts with SEQUENCE (OP_NOT_IN_SESSION), but for
 * the operations that create or undo sessions, which then stand alone
 * (NOT_ONLY_OP); SEQUENCE elsewhere is SEQUENCE_POS.  A retried SEQUENCE
 * whose slot cached its reply is answered with those bytes and nothing is
 * executed again; so is a 4.0 request sent again with its XID (nfs4_xid.c).
 */
#include "server/nfs4_int.h"
#include "common/bytes.h"

#include <string.h>

/* 4.1 operations that may come without SEQUENCE, alone (RFC 8881 2.6.3.1.1
 * and 18.35-18.37, 18.34, 18.50). */
static int sessionless(uint32_t op)
{
    return op == OP_EXCHANGE_ID || op == OP_CREATE_SESSION || op == OP_DESTROY_SESSION ||
           op == OP_BIND_CONN_TO_SESSION || op == OP_DESTROY_CLIENTID;
}

/* The status a compound's position gives an operation before it runs (0:
 * none). */
static nfsstat4 position_error(const struct sv4_call *x, uint32_t op)
{
    if (x->minor == 0)
        return NFS4_OK;
    if (x->opindex == 0) {
        if (op == OP_SEQUENCE)
            return NFS4_OK;
        if (!sessionless(op))
            return NFS4ERR_OP_NOT_IN_SESSION;
        return x->nops > 1 ? NFS4ERR_NOT_ONLY_OP : NFS4_OK;
    }
    return op == OP_SEQUENCE ? NFS4ERR_SEQUENCE_POS : NFS4_OK;
}

/* Encodes an operation's result that is only a status. */
static int put_status_result(XDR *out, uint32_t op, nfsstat4 st)
{
    u_int o = op;

    return xdr_u_int(out, &o) && xdr_nfsstat4(out, &st);
}

/* Replaces what an operation encoded from pos on by its failure: the reply
 * could not hold its result. */
static nfsstat4 too_big(struct sv4_call *x, XDR *out, u_int pos, uint32_t op)
{
    nfsstat4 st = x->minor == 0  ? NFS4ERR_RESOURCE
                  : x->cachethis ? NFS4ERR_REP_TOO_BIG_TO_CACHE
                                 : NFS4ERR_REP_TOO_BIG;

    xdr_setpos(out, pos);
    return put_status_result(out, op, st) ? st : NFS4ERR_SERVERFAULT;
}

/* Prepares args so that the operations of nearly every compound decode
 * into the server's own storage: rpcgen's decoder would allocate a handle
 * or a bitmap per operation, and xdr_free walk the union after it (a
 * tenth of a GETATTR compound).  Returns 1 when args then hold nothing
 * to free, 0 for the operations left to the decoder's allocations. */
static int args_in_place(struct sv4 *v, uint32_t op, nfs_argop4 *args)
{
    switch (op) {
    case OP_PUTFH:
        args->nfs_argop4_u.opputfh.object.nfs_fh4_val = (char *)v->fh_in;
        return 1;
    case OP_GETATTR:
        args->nfs_argop4_u.opgetattr.attr_request.bitmap4_val = v->bitmap_in;
        return 1;
    case OP_SEQUENCE: /* no pointers in their arguments */
    case OP_PUTROOTFH:
    case OP_GETFH:
    case OP_SAVEFH:
    case OP_RESTOREFH:
        return 1;
    default:
        return 0;
    }
}

/* Runs one operation and encodes its result.  Returns its status; *stop
 * says the compound ends here even so (a reply sent from a slot's cache). */
static nfsstat4 run_op(struct sv4_call *x, XDR *in, XDR *out, uint32_t op, u_int op_in,
                       u_int reply_start, int *stop)
{
    const struct sv4_op *row = sv4_op_row(op);
    struct sv4 *v = x->v;
    nfs_argop4 args;
    nfs_resop4 res;
    u_int op_out = xdr_getpos(out);
    nfsstat4 st;
    int in_place;

    if (row == NULL || (x->minor == 0 && !(row->minors & SV4_M0))) {
        v->ops[SV4_ILLEGAL_SLOT]++;
        return put_status_result(out, OP_ILLEGAL, NFS4ERR_OP_ILLEGAL)
                   ? NFS4ERR_OP_ILLEGAL
                   : NFS4ERR_SERVERFAULT;
    }
    v->ops[op]++;
    sv4_xid_note_op(x, op);
    st = !(row->minors & (1u << x->minor)) || row->fn == NULL ? NFS4ERR_NOTSUPP
                                                              : position_error(x, op);
    if (st != NFS4_OK)
        return put_status_result(out, op, st) ? st : NFS4ERR_SERVERFAULT;
    memset(&args, 0, sizeof(args));
    in_place = args_in_place(v, op, &args);
    xdr_setpos(in, op_in);
    if (!xdr_nfs_argop4(in, &args)) {
        if (!in_place)
            xdr_free((xdrproc_t)xdr_nfs_argop4, (char *)&args);
        return put_status_result(out, op, NFS4ERR_BADXDR) ? NFS4ERR_BADXDR
                                                          : NFS4ERR_SERVERFAULT;
    }
    memset(&res, 0, sizeof(res));
    res.resop = (nfs_opnum4)op;
    x->op_replay = NULL;
    x->seq_owner = NULL;
    if ((st = sv__fault_error(x->c, row->name)) != NFS4_OK) {
        /* --error: the status, the operation not run (every result starts
         * with its status; a zeroed rest encodes as that status's arm) */
        *(nfsstat4 *)(void *)&res.nfs_resop4_u = st;
        x->c->errors_injected++;
        if (op == OP_SEQUENCE)
            sv4_session_fault(x, &args.nfs_argop4_u.opsequence, st);
    } else {
        st = row->fn(x, &args, &res);
    }
    if (x->replay != NULL) {
        *stop = 1;
    } else if (x->op_replay != NULL) {
        /* 4.0: the owner's last reply, as its retransmission gets it */
        if (!xdr_opaque(out, (char *)x->op_replay, x->op_replay_len))
            st = too_big(x, out, op_out, op);
        else
            st = (nfsstat4)cm_be32_get(x->op_replay + 4); /* after the opnum */
    } else if (!xdr_nfs_resop4(out, &res) ||
               xdr_getpos(out) - reply_start > x->reply_room) {
        st = too_big(x, out, op_out, op);
    } else if (x->seq_owner != NULL) {
        sv4_owner_keep_reply(x, op, x->outbuf + op_out, xdr_getpos(out) - op_out);
    }
    if (!in_place)
        xdr_free((xdrproc_t)xdr_nfs_argop4, (char *)&args);
    return st;
}

/* Writes the word v at pos of out and comes back to where out was. */
static void patch(XDR *out, u_int pos, u_int v)
{
    u_int end = xdr_getpos(out);

    xdr_setpos(out, pos);
    xdr_u_int(out, &v);
    xdr_setpos(out, end);
}

/* Writes the reply cached for a request sent again (a session slot's, or
 * 4.0's by XID) in place of everything encoded after the RPC header. */
static int put_replay(const struct sv4_call *x, XDR *out, size_t out_cap)
{
    xdr_setpos(out, x->reply_start);
    if (x->replay_len > out_cap - x->reply_start)
        return -1;
    memcpy(x->outbuf + x->reply_start, x->replay, x->replay_len);
    xdr_setpos(out, x->reply_start + x->replay_len);
    return 0;
}

static int compound(struct sv_core *c, XDR *in, XDR *out, uint8_t *outbuf, size_t out_cap,
                    const uint8_t *msg, size_t msg_len)
{
    struct sv4 *v = c->v4;
    struct sv4_call x;
    char *tagp = v->tag;
    u_int taglen = 0, minor, nops, args_at = xdr_getpos(in);
    u_int reply_start = xdr_getpos(out), count_at, nres = 0;
    nfsstat4 status = NFS4_OK, zero = NFS4_OK;
    int stop = 0;
    uint32_t xid = cm_be32_get(msg);

    if (!xdr_bytes(in, &tagp, &taglen, sizeof(v->tag)) || !xdr_u_int(in, &minor) ||
        !xdr_u_int(in, &nops))
        return -1;
    memset(&x, 0, sizeof(x));
    x.c = c;
    x.v = v;
    x.minor = minor;
    x.nops = nops;
    x.now_ns = sv4_now(v);
    x.req_len = msg_len;
    x.outbuf = outbuf;
    x.reply_start = reply_start;
    x.req_args = msg + args_at; /* SEQUENCE hashes them */
    x.req_args_len = msg_len - args_at;
    x.reply_room =
        out_cap > reply_start + 64u ? (uint32_t)(out_cap - reply_start - 64) : 0;
    v->compounds[minor <= SV4_MINOR_MAX ? minor : SV4_MINOR_MAX + 1]++;
    if (minor == 0 && sv4_xid_lookup(&x, xid, &x.replay, &x.replay_len))
        return put_replay(&x, out, out_cap); /* a 4.0 request sent again */
    sv4_reap(v, x.now_ns);
    {
        utf8str_cs tag = {taglen, v->tag};
        if (!xdr_nfsstat4(out, &zero) || !xdr_utf8str_cs(out, &tag))
            return -1;
    }
    count_at = xdr_getpos(out);
    if (!xdr_u_int(out, &nres))
        return -1;
    if (minor > SV4_MINOR_MAX)
        status = NFS4ERR_MINOR_VERS_MISMATCH;
    else if (minor == 0 && nops > SV4_MAX_OPS)
        status = NFS4ERR_RESOURCE;
    for (x.opindex = 0; status == NFS4_OK && !stop && x.opindex < nops; x.opindex++) {
        u_int op_in = xdr_getpos(in), op;

        if (!xdr_u_int(in, &op)) {
            status = NFS4ERR_BADXDR; /* the compound ends before its count */
            break;
        }
        status = run_op(&x, in, out, op, op_in, reply_start, &stop);
        nres++;
    }
    if (x.replay != NULL)
        return put_replay(&x, out, out_cap);
    patch(out, reply_start, (u_int)status);
    patch(out, count_at, nres);
    if (x.slot != NULL)
        sv4_slot_store(&x, outbuf + reply_start, xdr_getpos(out) - reply_start);
    else if (x.xid_keep)
        sv4_xid_store(&x, xid, outbuf + reply_start, xdr_getpos(out) - reply_start);
    return 0;
}

int sv4_call_proc(struct sv_core *c, XDR *in, XDR *out, uint8_t *outbuf, size_t out_cap,
                  u_int proc, const uint8_t *msg, size_t msg_len)
{
    if (proc == NFSPROC4_NULL) {
        c->v4->null_calls++;
        return 0;
    }
    return compound(c, in, out, outbuf, out_cap, msg, msg_len);
}
