/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * validate.c - sfs, sfs3 and sfs4 -V LEVEL (cl.h: cl_validate): the options of the
 * run handed to the validation suite (src/validate), which does the work.
 * SFS validates one directory at a time (docs/SFS30.md §19).
 */
#include "client/cl.h"
#include "nfs/nf_proto.h"
#include "validate/vd.h"

int cl_validate(const struct ld_config *cfg, const char *prog, FILE *out, FILE *in,
                char *err, size_t errlen)
{
    struct vd_opts o;

    if (cfg->nmounts != 1) {
        cm_errf(err, errlen, "Can only validate one directory at a time.");
        return CM_EXIT_SFS_MOUNTS;
    }
    if (!vd_speaks(cfg->nfs_version)) {
        const struct nf_proto *p = nf_proto_by_version(cfg->nfs_version);

        cm_errf(err, errlen,
                "-V: validation does not run over %s yet (NFSv2, NFSv3 only)",
                p ? p->name : "this NFS version");
        return CM_EXIT_SFS_VALIDATE;
    }
    vd_opts_init(&o);
    o.level = cfg->validate;
    o.nfs_version = cfg->nfs_version;
    o.tcp = cfg->tcp;
    o.mount = cfg->mounts[0];
    o.prog = prog;
    o.restart_cmd = cfg->restart_cmd[0] ? cfg->restart_cmd : NULL;
    return vd_run(&o, out, in) == VD_PASSED ? CM_EXIT_OK : CM_EXIT_FAILED;
}
