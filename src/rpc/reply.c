/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reply.c - decoding of one RPC reply message (rpc layer).  The XID is read
 * raw first, so that a reply nobody waits for is dropped without decoding
 * anything; a matched reply is decoded with libtirpc's XDR primitives into
 * the call's own result, and its status mapped to the RP_ERR_* errnos.  The
 * verifier goes into a buffer of the client, never into the heap.
 */
#include "rpc/rp_int.h"

#include <assert.h>
#include <string.h>

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void rp__complete(struct rp_client *c, struct rp_call *call, int status)
{
    /* a call completes once, after leaving the XID table */
    assert(call->rp_state != RP_CS_IDLE && c->in_flight > 0);
    assert(rp__xid_find(c, call->xid) != call);
    call->status = status;
    call->rp_state = RP_CS_IDLE;
    c->in_flight--;
    c->st.calls_done++;
    if (status == RP_ERR_TIMEDOUT)
        c->st.timeouts++;
    if (call->t_reply_ns)
        rp__rtt_sample(c, call);
    if (call->done)
        call->done(call, call->data);
}

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

void rp__reply(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now)
{
    if (c->fault_on)
        rp__fault_reply(c, msg, len, now);
    else
        rp__reply_direct(c, msg, len, now);
}

void rp__reply_direct(struct rp_client *c, const uint8_t *msg, size_t len, uint64_t now)
{
    struct rp_call *call;
    uint32_t stat;
    int status;
    XDR x;

    c->st.bytes_received += len;
    if (len < 12) {
        c->st.garbage++;
        rp__set_error(c, RP_ERR_GARBAGE, "short reply (%zu bytes) dropped", len);
        return;
    }
    call = rp__xid_find(c, be32(msg));
    if (!call) {
        c->st.unknown_xid++;
        return;
    }
    rp__xid_remove(c, call);
    /* A reply to a retransmission still waiting for the socket: the
     * queued send is no longer needed. */
    if (call->rp_state == RP_CS_QUEUED)
        rp__queue_remove(c, call);
    call->t_reply_ns = now;
    c->st.replies++;
    stat = be32(msg + 8);
    if (be32(msg + 4) != REPLY) {
        status = rp__set_error(c, RP_ERR_GARBAGE, "xid %08x: message is not a reply",
                               call->xid);
    } else {
        xdrmem_create(&x, (char *)(uintptr_t)(msg + 12), (u_int)(len - 12), XDR_DECODE);
        if (stat == MSG_ACCEPTED)
            status = decode_accepted(c, call, &x);
        else if (stat == MSG_DENIED)
            status = decode_denied(c, call, &x);
        else
            status = rp__set_error(c, RP_ERR_GARBAGE, "xid %08x: bad reply status %u",
                                   call->xid, stat);
        xdr_destroy(&x);
    }
    if (status == RP_ERR_GARBAGE)
        c->st.garbage++;
    rp__complete(c, call, status);
}
