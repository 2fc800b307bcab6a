/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workloads.c - the registry of workloads (workload.h) and the one place
 * that chooses one.  A new workload is one more line in the table; its
 * order does not matter: --workload names one, or under auto (the
 * default) each table's accepts says how strongly the options ask for it
 * and the strongest claim wins - two equal claims are an error, never a
 * coin toss.  Only the options of the workload that runs may be given.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "client/cl.h"
#include "nfs/nf_proto.h"
#include "nreplay/nr.h"
#include "null/nl.h"
#include "replay/rl.h"
#include "synth/sy.h"

static const struct ld_workload_ops *const workloads[] = {
    &sy_workload, /* the SFS 3.0 mix: the default */
    &rl_workload, /* --trace: a block or POSIX trace (SPC, MaStA, sysio) */
    &nr_workload, /* --trace: an NFS capture (pcap, pcapng) or nfsdump text */
    &nl_workload, /* --workload null: NULL calls at the requested rate */
};

const struct ld_workload_ops *const *cl_workloads(size_t *n)
{
    *n = CM_ARRAY_LEN(workloads);
    return workloads;
}

const struct ld_workload_ops *cl_workload_named(const char *name)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(workloads); i++)
        if (strcmp(workloads[i]->name, name) == 0)
            return workloads[i];
    return NULL;
}

void cl_workload_readers(const struct ld_opt_group *g, char *buf, size_t len)
{
    size_t i, used = 0;

    buf[0] = '\0';
    for (i = 0; i < CM_ARRAY_LEN(workloads) && used < len; i++)
        if (ld_workload_reads(workloads[i], g))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     workloads[i]->name);
}

int cl_workload_foreign(const struct ld_config *cfg, const struct ld_workload_ops *wl,
                        char *err, size_t errlen)
{
    const struct ld_opt_group *g = NULL;
    const struct cm_opt *row = ld_config_foreign(cfg, wl, &g);
    char label[96], value[LD_PATH_MAX], who[128];

    if (row == NULL)
        return 0;
    cl_workload_readers(g, who, sizeof(who));
    cm_opt_format(row, ld_config_opts(cfg, g), value, sizeof(value));
    cm_errf(err, errlen, "%s %s: an option of the %s workload; this run's is %s",
            cm_opt_label(row, label, sizeof(label)), value, who, wl->name);
    return row->exit_code;
}

/* Whether every option group wl reads is in cfg (a config built for
 * other workloads cannot ask for it). */
static int registered(const struct ld_config *cfg, const struct ld_workload_ops *wl)
{
    const struct ld_opt_group *const *g;

    for (g = wl->options; g && *g; g++)
        if (ld_config_opts(cfg, *g) == NULL)
            return 0;
    return 1;
}

int cl_workload_over(const struct ld_config *cfg, const struct ld_workload_ops *wl,
                     char *err, size_t errlen)
{
    const struct nf_proto *p, *asked = nf_proto_by_version(cfg->nfs_version);
    char names[128];
    size_t i, used = 0;

    if (wl->nfs_versions & LD_NFS_V(cfg->nfs_version))
        return 0;
    names[0] = '\0';
    for (i = 0; (p = nf_proto_nth(i)) != NULL && used < sizeof(names); i++)
        if (wl->nfs_versions & LD_NFS_V(p->version))
            used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
                                     used ? ", " : "", p->name);
    cm_errf(err, errlen, "the %s workload does not run over %s yet (%s only)", wl->name,
            asked ? asked->name : "this NFS version", names);
    return CM_EXIT_SFS_WORKLOAD;
}

int cl_workload_choose(const struct ld_config *cfg, const struct ld_workload_ops **wl,
                       char *err, size_t errlen)
{
    const struct ld_workload_ops *best = NULL, *tie = NULL;
    int claim = LD_ACCEPT_NO, unreadable = 0;
    char why[CM_ERR_LEN] = "";
    size_t i;

    *wl = NULL;
    if (strcmp(cfg->workload, "auto") != 0) {
        best = cl_workload_named(cfg->workload);
        if (best == NULL || !registered(cfg, best))
            return cm_errf(err, errlen, "--workload %s: not a workload", cfg->workload),
                   CM_EXIT_SFS_WORKLOAD;
    } else {
        for (i = 0; i < CM_ARRAY_LEN(workloads); i++) {
            int c = registered(cfg, workloads[i])
                        ? workloads[i]->accepts(cfg, why, sizeof(why))
                        : LD_ACCEPT_NO;

            if (c == LD_ACCEPT_UNREADABLE)
                unreadable = 1;
            else if (c > claim)
                claim = c, best = workloads[i], tie = NULL;
            else if (c == claim && c > LD_ACCEPT_NO)
                tie = workloads[i];
        }
        if (unreadable && claim < LD_ACCEPT_YES)
            return cm_errf(err, errlen, "%s", why), CL_UNDECIDED;
        if (best == NULL || tie)
            return cm_errf(err, errlen,
                           "the options ask for the %s and the %s workloads alike: "
                           "choose one with --workload",
                           best ? best->name : "?", tie ? tie->name : "?"),
                   CM_EXIT_SFS_WORKLOAD;
    }
    i = (size_t)cl_workload_foreign(cfg, best, err, errlen);
    if (i != 0)
        return (int)i;
    *wl = best;
    return 0;
}
