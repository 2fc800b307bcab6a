/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * auth.c - the call header of a client (rpc layer): XID, CALL, RPC version
 * 2, program, version, procedure, and the AUTH_SYS credential and AUTH_NONE
 * verifier, encoded once with libtirpc's authunix_create and XDR.  AUTH_SYS
 * carries no per-call state, so every call copies this template and patches
 * its XID and procedure: the cheapest correct way to build a call.
 */
#include "rpc/rp_int.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

int rp__auth_header(struct rp_client *c, const char *machine_name)
{
    const struct rp_client_opts *o = &c->opts;
    char host[256];
    gid_t gids[RP_MAX_GIDS];
    int ngids, i, ok;
    uid_t uid = o->uid >= 0 ? (uid_t)o->uid : getuid();
    gid_t gid = o->gid >= 0 ? (gid_t)o->gid : getgid();
    uint32_t word[6];
    AUTH *auth;
    XDR x;

    if (machine_name) {
        snprintf(host, sizeof(host), "%s", machine_name);
    } else if (gethostname(host, sizeof(host)) != 0) {
        snprintf(host, sizeof(host), "localhost");
    }
    host[sizeof(host) - 1] = '\0';
    if (o->ngids >= 0) {
        ngids = o->ngids > RP_MAX_GIDS ? RP_MAX_GIDS : o->ngids;
        for (i = 0; i < ngids; i++)
            gids[i] = (gid_t)o->gids[i];
    } else {
        /* getgroups fails with EINVAL when the caller has more groups than
         * AUTH_SYS carries; then send the primary group only. */
        ngids = getgroups(RP_MAX_GIDS, gids);
        if (ngids < 0)
            ngids = 0;
    }
    auth = authunix_create(host, uid, gid, ngids, gids);
    if (!auth)
        return rp__set_error(c, -ENOMEM, "cannot create AUTH_SYS credentials");

    word[0] = 0; /* xid, patched per call */
    word[1] = CALL;
    word[2] = RPC_MSG_VERSION;
    word[3] = c->prog;
    word[4] = c->vers;
    word[5] = 0; /* proc, patched per call */
    xdrmem_create(&x, (char *)c->hdr, sizeof(c->hdr), XDR_ENCODE);
    ok = 1;
    for (i = 0; i < 6 && ok; i++)
        ok = xdr_u_int(&x, &word[i]);
    ok = ok && xdr_opaque_auth(&x, &auth->ah_cred) && xdr_opaque_auth(&x, &auth->ah_verf);
    c->hdr_len = xdr_getpos(&x);
    xdr_destroy(&x);
    AUTH_DESTROY(auth);
    if (!ok)
        return rp__set_error(c, -EMSGSIZE, "AUTH_SYS credentials do not fit");
    return 0;
}
