/* SPDX-License-Identifier: BSD-2-Clause */
/* tool_nf4.h - what the NFSv4 test clients share (nf4_procs, nf4_owners):
 * one synchronous compound at a time on the nfs layer's client, and its
 * line ("ok WHAT SHAPE", "nfs WHAT STATUS", "rpc WHAT ERROR").
 * Header-only because each tool is one program. */
#ifndef TOOL_NF4_H
#define TOOL_NF4_H

#include <stdio.h>

#include "nfs/nf4_client.h"

struct tool_nf4 {
    struct nf4_client *cl;
    struct nf4_call call;
    char buf[8192];
    int failures;
};

/* Sends what x->call holds (built by the caller) and prints its line;
 * returns 0 when the compound's status is `want`, counting a failure
 * otherwise. */
static inline int tool_nf4_send(struct tool_nf4 *x, const char *what, nfsstat4 want)
{
    char shape[256];
    int rc;

    x->call.res.data = x->buf;
    x->call.res.data_max = sizeof(x->buf);
    x->call.done = NULL;
    rc = nf4_call_sync(x->cl, &x->call);
    if (rc < 0) {
        printf("rpc %s %s\n", what,
               nf4_client_last_error(x->cl)[0] ? nf4_client_last_error(x->cl)
                                               : rp_status_text(rc));
        x->failures++;
        return -1;
    }
    if (x->call.res.status != NFS4_OK)
        printf("nfs %s %s\n", what, nf4_status_name(x->call.res.status));
    else
        printf("ok %s %s\n", what,
               nf4_compound_shape(&x->call.args, shape, sizeof(shape)));
    if (x->call.res.status != want) {
        x->failures++;
        return -1;
    }
    return 0;
}

#endif
