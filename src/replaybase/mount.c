/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mount.c - a replay child's mount (rb.h): one NFS client with room for
 * the replay's window on the program's transport, the largest READ and
 * WRITE the server takes, and LOOKUP with the child's client, its error
 * in the child's last error.
 */
#include <string.h>

#include "common/error.h"
#include "load/options.h"
#include "replaybase/rb.h"

int rb_mount_window(struct ld_child *c, uint32_t window, uint32_t reconnect_ms)
{
    const char *spec = ld_config_mount_for_child(c->cfg, (int)c->index);
    struct nf_mount_opts o;
    char err[CM_ERR_LEN];
    int rc;

    nf_mount_opts_init(&o, c->ses.proto->version);
    o.transport = c->cfg->tcp ? RP_TCP : RP_UDP;
    o.mount_transport = o.transport;
    o.rpc.max_in_flight = window + 1;
    o.rpc.sndbuf_bytes = 4u << 20; /* the kernel caps it at [rw]mem_max */
    o.rpc.reconnect_ms = reconnect_ms;
    rc = nf_session_mount(&c->ses, c->ses.proto, window, spec, &o, err, sizeof(err));
    if (rc < 0)
        return ld_child_fail(c, rc, "Unable to mount %s: %s", spec, err);
    return 0;
}

void rb_transfer_maxima(struct ld_child *c, uint32_t *rtmax, uint32_t *wtmax)
{
    uint32_t cap = c->cfg->tcp ? RB_MAX_XFER : RB_MAX_XFER_UDP, st;
    FSINFO3args a;
    FSINFO3res res;

    *rtmax = *wtmax = 8192; /* NFSv2 (RFC 1094 MAXDATA) */
    if (c->ses.proto->version == 3) {
        memset(&res, 0, sizeof(res));
        nf_fh_to_v3(&c->ses.mnt.root, &a.fsroot);
        if (nf_call_sync_status(c->ses.rpc, NFSPROC3_FSINFO, &a, &res, &st) == 0) {
            if (st == NFS3_OK) {
                *rtmax = res.FSINFO3res_u.resok.rtmax;
                *wtmax = res.FSINFO3res_u.resok.wtmax;
            }
            nf_res_free(c->ses.rpc, NFSPROC3_FSINFO, &res);
        }
    }
    if (*rtmax == 0 || *rtmax > cap)
        *rtmax = cap;
    if (*wtmax == 0 || *wtmax > cap)
        *wtmax = cap;
}

int rb_lookup(struct ld_child *c, const struct nf_fh *dir, const char *name,
              struct nf_fh *out)
{
    return nf_lookup(c->ses.rpc, dir, name, out, NULL, c->last_error,
                     sizeof(c->last_error));
}
