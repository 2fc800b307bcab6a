/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmap.c - the portmapper (rpcbind version 2) GETPORT client (rpc layer),
 * made of the engine itself: one UDP client to port 111, one call, the
 * codecs xdr_pmap and xdr_u_int from libtirpc.  It is how "host:/path"
 * mount points find MOUNT and NFS, as SFS 3.0 did.
 */
#include "rpc/rp.h"

#include <netinet/in.h>
#include <rpc/pmap_prot.h>
#include <string.h>
#include "common/error.h"

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
    if (ss->ss_family == AF_INET)
        ((struct sockaddr_in *)ss)->sin_port = htons(port);
    else
        ((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

int rp_pmap_getport(const struct sockaddr *addr, socklen_t addrlen, uint16_t pmap_port,
                    uint32_t prog, uint32_t vers, int proto, uint32_t timeout_ms,
                    uint16_t *port, char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    struct rp_client *c;
    struct rp_client_opts o;
    struct rp_call call;
    struct pmap args;
    u_int res = 0;
    int rc;

    *port = 0;
    if (addrlen > sizeof(ss))
        return cm_errf(err, errlen, "address too long");
    memset(&ss, 0, sizeof(ss));
    memcpy(&ss, addr, addrlen);
    set_port(&ss, pmap_port ? pmap_port : PMAPPORT);
    rp_client_opts_init(&o);
    o.max_in_flight = 1;
    o.max_record_bytes = 1024;
    rc = rp_client_open(&c, (struct sockaddr *)&ss, addrlen, PMAPPROG, PMAPVERS, &o,
                        timeout_ms, err, errlen);
    if (rc < 0)
        return rc;
    args.pm_prog = prog;
    args.pm_vers = vers;
    args.pm_prot = (u_int)proto;
    args.pm_port = 0;
    rp_call_prepare(&call, PMAPPROC_GETPORT, (xdrproc_t)xdr_pmap, &args,
                    (xdrproc_t)xdr_u_int, &res, timeout_ms, NULL, NULL);
    rc = rp_call_sync(c, &call);
    if (rc == 0) {
        if (res > 65535) {
            rc = -EPROTO;
            cm_errf(err, errlen, "portmapper answered port %u", res);
        } else {
            *port = (uint16_t)res;
        }
    } else if (rc == -ECONNREFUSED || rc == RP_ERR_TIMEDOUT) {
        cm_errf(err, errlen, "no portmapper (rpcbind) answers at port %u",
                pmap_port ? pmap_port : PMAPPORT);
    } else {
        cm_errf(err, errlen, "portmapper: %s", rp_client_last_error(c));
    }
    rp_client_close(c);
    return rc;
}
