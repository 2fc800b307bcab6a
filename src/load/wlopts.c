/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wlopts.c - the workloads' own options in a struct ld_config
 * (options.h): each workload names the option groups it reads
 * (workload.h: ld_workload_ops.options); the groups of every workload a
 * program may run are registered in the config, their structs side by
 * side in its wl_opts area, so that one command line or rc file sets them
 * all, the chooser reads what it needs, and a copy of the config copies
 * them.  Only the groups of the workload that runs may be given: an
 * option of another workload is refused with one line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/cm.h"
#include "common/opt.h"
#include "load/options.h"
#include "load/workload.h"

static int registered(const struct ld_config *cfg, const struct ld_opt_group *g)
{
    unsigned k;

    for (k = 0; k < cfg->ngroups; k++)
        if (cfg->group[k].g == g)
            return (int)k;
    return -1;
}

/* One group into cfg: its struct after the last one, its defaults. */
static int add_group(struct ld_config *cfg, const struct ld_opt_group *g, char *err,
                     size_t errlen)
{
    struct ld_config_group *at = &cfg->group[cfg->ngroups];
    unsigned offset = 0, src0 = 0;

    if (cfg->ngroups > 0) {
        const struct ld_config_group *last = &cfg->group[cfg->ngroups - 1];

        offset = (unsigned)((last->offset + last->g->size + 15) & ~(size_t)15);
        src0 = last->src0 + (unsigned)last->g->nrows;
    }
    if (cfg->ngroups == LD_WL_GROUPS || offset + g->size > LD_WL_OPT_BYTES ||
        src0 + g->nrows > LD_WL_OPT_ROWS)
        return cm_errf(err, errlen, "%s: no room for its options in struct ld_config",
                       g->title),
               -E2BIG;
    at->g = g;
    at->offset = offset;
    at->src0 = src0;
    cfg->ngroups++;
    return cm_opt_defaults(g->rows, g->nrows, cfg->wl_opts + offset, cfg->wl_src + src0,
                           err, errlen);
}

int ld_config_add_workloads(struct ld_config *cfg,
                            const struct ld_workload_ops *const *wl, size_t n, char *err,
                            size_t errlen)
{
    size_t i;
    int rc;

    for (i = 0; i < n; i++) {
        const struct ld_opt_group *const *g;

        for (g = wl[i]->options; g && *g; g++)
            if (registered(cfg, *g) < 0 && (rc = add_group(cfg, *g, err, errlen)) < 0)
                return rc;
    }
    return 0;
}

const void *ld_config_opts(const struct ld_config *cfg, const struct ld_opt_group *g)
{
    int k = registered(cfg, g);

    return k < 0 ? NULL : cfg->wl_opts + cfg->group[k].offset;
}

void *ld_config_opts_set(struct ld_config *cfg, const struct ld_opt_group *g)
{
    int k = registered(cfg, g);

    return k < 0 ? NULL : cfg->wl_opts + cfg->group[k].offset;
}

size_t ld_config_group_sets(struct ld_config *cfg, struct cm_opt_set *sets, size_t max)
{
    size_t k;

    for (k = 0; k < cfg->ngroups && k < max; k++) {
        sets[k].t = cfg->group[k].g->rows;
        sets[k].n = cfg->group[k].g->nrows;
        sets[k].base = cfg->wl_opts + cfg->group[k].offset;
        sets[k].src = cfg->wl_src + cfg->group[k].src0;
        sets[k].title = cfg->group[k].g->title;
    }
    return k;
}

int ld_workload_reads(const struct ld_workload_ops *wl, const struct ld_opt_group *g)
{
    const struct ld_opt_group *const *o;

    for (o = wl->options; o && *o; o++)
        if (*o == g)
            return 1;
    return 0;
}

const struct cm_opt *ld_config_foreign(const struct ld_config *cfg,
                                       const struct ld_workload_ops *wl,
                                       const struct ld_opt_group **group)
{
    unsigned k;
    size_t i;

    for (k = 0; k < cfg->ngroups; k++) {
        const struct ld_opt_group *g = cfg->group[k].g;

        if (ld_workload_reads(wl, g))
            continue;
        for (i = 0; i < g->nrows; i++)
            if (cfg->wl_src[cfg->group[k].src0 + i] != CM_SRC_DEFAULT) {
                *group = g;
                return &g->rows[i];
            }
    }
    return NULL;
}

const struct cm_opt *ld_config_group_row(const struct ld_config *cfg,
                                         const char *long_name, const unsigned char **src,
                                         size_t *offset)
{
    unsigned k;
    size_t i;

    for (k = 0; k < cfg->ngroups; k++) {
        const struct ld_opt_group *g = cfg->group[k].g;

        for (i = 0; i < g->nrows; i++)
            if (g->rows[i].long_name && strcmp(g->rows[i].long_name, long_name) == 0) {
                *src = &cfg->wl_src[cfg->group[k].src0 + i];
                *offset = cfg->group[k].offset;
                return &g->rows[i];
            }
    }
    return NULL;
}
