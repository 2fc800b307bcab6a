/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs.c - main() of sfs (NFSv2), sfs3 (NFSv3) and sfs4 (NFSv4.1): one
 * program, the version chosen by the name it runs under (nfs/proto.c's
 * list; docs/SFS30.md §13.1).  Parses the options, hands the run to the
 * client layer (cl.h: validation, --kill-run, or the set-up followed by a
 * standalone run or a prime's client) and turns its outcome into the exit
 * code; docs/sfs.md lists them.
 */
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "client/cl.h"
#include "nfs/nf_proto.h"

int main(int argc, char **argv)
{
    char progbuf[256], err[CM_ERR_LEN] = "";
    const char *prog;
    const struct nf_proto *proto;
    struct ld_config cfg;
    struct ld_setup su; /* the children inherit it through fork */
    const struct ld_workload_ops *const *wl;
    size_t nwl;
    int version, code = 0, rc;

    snprintf(progbuf, sizeof(progbuf), "%s", argc > 0 ? argv[0] : "sfs");
    prog = basename(progbuf);
    proto = nf_proto_by_prog(prog); /* sfs3, sfs4; any other name: NFSv2 */
    version = proto ? proto->version : 2;
    wl = cl_workloads(&nwl);
    rc = ld_options_parse(&cfg, version, wl, nwl, argc, argv, &code, err, sizeof(err));
    if (rc == LD_OPTIONS_HELP) {
        ld_options_help(stdout, prog, wl, nwl);
        return CM_EXIT_OK;
    }
    if (rc < 0) {
        /* no mount point at all (sfs3 alone): what to type, and where the
         * rest is */
        int none = code == CM_EXIT_SFS_MOUNTS && cfg.nmounts == 0;

        if (argc <= 1)
            fprintf(stderr, "usage: %s [options] mount-point...\n", prog);
        fprintf(stderr, "%s: %s%s%s%s\n", prog, err, none ? "; " : "", none ? prog : "",
                none ? " --help for more" : "");
        return code ? code : CM_EXIT_SFS_USAGE;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (cfg.validate > 0) {
        code = cl_validate(&cfg, prog, stdout, stdin, err, sizeof(err));
    } else if (cfg.kill_run[0]) {
        code = cl_kill(&cfg, prog, stderr, err, sizeof(err));
    } else {
        code = cl_setup(&su, &cfg, prog, stdout, stderr, err, sizeof(err));
        if (code == CM_EXIT_OK)
            code = cl_begin(&su, err, sizeof(err));
        if (code == CM_EXIT_OK) /* alone, or for the prime -M names */
            code = cfg.prime_host[0] ? cl_remote_run(&su, err, sizeof(err))
                                     : cl_run(&su, err, sizeof(err));
        cl_setup_free(&su);
    }
    if (code != CM_EXIT_OK && err[0])
        fprintf(stderr, "%s: %s\n", prog, err);
    return code;
}
