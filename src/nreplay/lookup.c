/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lookup.c - a LOOKUP in the protocol the replay speaks (NFSv2/v3 through
 * nfs/lookup.c, NFSv4.1 through prep4.c), for the image's preparation
 * (prep.c) and for a client that looks up a copy another client made
 * (hosts.c): a file of its own so that neither of those calls the other.
 */
#include "nreplay/nr_int.h"

int nr_lookup(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
              struct nf_fh *out)
{
    if (rp->version == 4)
        return nr_prep4_lookup(rp, dir, name, out);
    return nf_lookup(rp->cx.ses.rpc, dir, name, out, NULL, rp->cx.last_error,
                     sizeof(rp->cx.last_error));
}
