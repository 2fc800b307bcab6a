/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * status.c - short texts for the call statuses of rp.h (rpc layer), in RPC
 * terms where the errno was chosen to stand for an RPC condition, so that
 * "program version mismatch" is not printed as "protocol family not
 * supported"; and the codec of "nothing".
 */
#include "rpc/rp.h"

#include <string.h>

bool_t rp_xdr_void(XDR *xdrs, void *unused)
{
    (void)xdrs;
    (void)unused;
    return TRUE;
}

const char *rp_status_text(int status)
{
    switch (status) {
    case 0:
        return "ok";
    case RP_ERR_TIMEDOUT:
        return "timed out";
    case RP_ERR_GARBAGE:
        return "undecodable reply";
    case RP_ERR_PROG_UNAVAIL:
        return "program unavailable";
    case RP_ERR_PROG_MISMATCH:
        return "program version mismatch";
    case RP_ERR_PROC_UNAVAIL:
        return "procedure unavailable";
    case RP_ERR_GARBAGE_ARGS:
        return "server could not decode the arguments";
    case RP_ERR_SYSTEM:
        return "server system error";
    case RP_ERR_RPC_MISMATCH:
        return "RPC version mismatch";
    case RP_ERR_AUTH:
        return "authentication error";
    case RP_ERR_CONNRESET:
        return "connection reset";
    case RP_ERR_CANCELED:
        return "canceled";
    case RP_ERR_ENCODE:
        return "arguments do not encode";
    default:
        return status < 0 ? strerror(-status) : "unknown status";
    }
}
