/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reply.c - decoding of one RPC reply message (rpc layer).  The engine
 * (client.c) reads the XID raw, so that a reply nobody waits for is dropped
 * without decoding anything, and hands the matched call here: the rest of
 * the header and the result are decoded with libtirpc's XDR primitives into
 * the call's own result, and the reply's status is mapped to the RP_ERR_*
 * errnos.  The verifier goes into a buffer of the client, never into the
 * heap.  Nothing here changes a call's state: completing it is client.c's.
 */
#include "rpc/rp_int.h"
#include "common/bytes.h"

#include <string.h>

static int decode_accepted(struct rp_client *c, struct rp_call *call, XDR *x)
{
    struct opaque_auth verf;
    enum accept_stat ast;
    uint32_t lo, hi;

    verf.oa_base = (caddr_t)c->verf_buf;
    if (!xdr_opaque_auth(x, &verf) || !xdr_enum(x, (enum_t *)&ast))
        return rp__set_error(c, RP_ERR_GARBAGE, "reply to xid %08x: truncated header",
                             call->xid);
    switch (ast) {
    case SUCCESS:
        if (!call->res_codec(x, call->res)) {
            xdr_free(call->res_codec, call->res);
            return rp__set_error(c, RP_ERR_GARBAGE,
                                 "reply to xid %08x (proc %u): result does not decode",
                                 call->xid, call->proc);
        }
        return 0;
    case PROG_MISMATCH:
        if (!xdr_u_int(x, &lo) || !xdr_u_int(x, &hi))
            return rp__set_error(c, RP_ERR_GARBAGE, "PROG_MISMATCH reply truncated");
        call->low_version = lo;
        call->high_version = hi;
        return rp__set_error(c, RP_ERR_PROG_MISMATCH,
                             "program %u: server offers versions %u..%u, not %u", c->prog,
                             lo, hi, c->vers);
    case PROG_UNAVAIL:
        return rp__set_error(c, RP_ERR_PROG_UNAVAIL, "program %u not available", c->prog);
    case PROC_UNAVAIL:
        return rp__set_error(c, RP_ERR_PROC_UNAVAIL,
                             "program %u version %u: procedure %u unavailable", c->prog,
                             c->vers, call->proc);
    case GARBAGE_ARGS:
        return rp__set_error(c, RP_ERR_GARBAGE_ARGS,
                             "server could not decode the arguments of proc %u",
                             call->proc);
    case SYSTEM_ERR:
        return rp__set_error(c, RP_ERR_SYSTEM, "server system error (proc %u)",
                             call->proc);
    default:
        return rp__set_error(c, RP_ERR_GARBAGE, "unknown accept status %d", (int)ast);
    }
}

static int decode_denied(struct rp_client *c, struct rp_call *call, XDR *x)
{
    enum reject_stat rs;
    uint32_t lo, hi, why;

    if (!xdr_enum(x, (enum_t *)&rs))
        return rp__set_error(c, RP_ERR_GARBAGE, "denied reply truncated");
    if (rs == RPC_MISMATCH) {
        if (!xdr_u_int(x, &lo) || !xdr_u_int(x, &hi))
            return rp__set_error(c, RP_ERR_GARBAGE, "RPC_MISMATCH reply truncated");
        call->low_version = lo;
        call->high_version = hi;
        return rp__set_error(c, RP_ERR_RPC_MISMATCH,
                             "server speaks RPC versions %u..%u, not 2", lo, hi);
    }
    if (rs == AUTH_ERROR) {
        if (!xdr_u_int(x, &why))
            why = 0;
        return rp__set_error(c, RP_ERR_AUTH,
                             "server refused the credentials (auth_stat %u)", why);
    }
    return rp__set_error(c, RP_ERR_GARBAGE, "unknown reject status %d", (int)rs);
}

int rp__reply_decode(struct rp_client *c, struct rp_call *call, const uint8_t *msg,
                     size_t len)
{
    uint32_t stat = cm_be32_get(msg + 8);
    int status;
    XDR x;

    /* the framer (recmark.h) and the datagram buffer give word-aligned
     * replies: on any other address libtirpc's memory stream has no
     * xdr_inline, and the NFSv4 decoder's fixed parts would not decode */
    CM_ASSERT_DEBUG(((uintptr_t)msg & 3u) == 0);
    if (cm_be32_get(msg + 4) != REPLY)
        return rp__set_error(c, RP_ERR_GARBAGE, "xid %08x: message is not a reply",
                             call->xid);
    xdrmem_create(&x, (char *)(uintptr_t)(msg + RP_REPLY_MIN),
                  (u_int)(len - RP_REPLY_MIN), XDR_DECODE);
    if (stat == MSG_ACCEPTED)
        status = decode_accepted(c, call, &x);
    else if (stat == MSG_DENIED)
        status = decode_denied(c, call, &x);
    else
        status = rp__set_error(c, RP_ERR_GARBAGE, "xid %08x: bad reply status %u",
                               call->xid, stat);
    xdr_destroy(&x);
    return status;
}
