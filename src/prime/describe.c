/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * describe.c - `sfs_rc describe`: every rc variable's kind and range, from
 * the tables that check them in a run - the prime's own variables
 * (pr_rc_vars), the load option table's rc names (load/options.h) and
 * those of every workload's own options (client/cl.h: the registry) - so
 * that a front end (runsfs) checks what a user types without a copy of
 * its own (docs/runsfs.md); and `sfs_rc pages`: which variables each of
 * runsfs's settings pages shows, from the prime's table.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "client/cl.h"
#include "load/options.h"
#include "prime/pr.h"

/* The option tables with rc names: the load table's, then each group of
 * each workload's own (workload.h), once. */
static size_t opt_tables(struct cm_opt_set *sets, size_t max)
{
    static struct ld_config cfg; /* large: not on the stack */
    const struct ld_workload_ops *const *wl;
    char err[CM_ERR_LEN];
    size_t nwl;

    ld_config_defaults(&cfg, 3);
    wl = cl_workloads(&nwl);
    (void)ld_config_add_workloads(&cfg, wl, nwl, err, sizeof(err));
    return ld_config_sets(&cfg, sets, max);
}

/* The option row of an rc name, NULL when none. */
static const struct cm_opt *opt_row(const char *name)
{
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    size_t n = opt_tables(sets, CM_ARRAY_LEN(sets)), k, i;

    for (k = 0; k < n; k++)
        for (i = 0; i < sets[k].n; i++)
            if (sets[k].t[i].rc_name && strcmp(sets[k].t[i].rc_name, name) == 0)
                return &sets[k].t[i];
    return NULL;
}

static void opt_line(FILE *out, const char *name, const struct cm_opt *o)
{
    const struct cm_opt_enum *e;

    switch (o->type) {
    case CM_OPT_INT:
    case CM_OPT_I64:
    case CM_OPT_SIZE:
        fprintf(out, "%s int %.0f %.0f\n", name, o->min, o->max);
        break;
    case CM_OPT_DOUBLE:
        fprintf(out, "%s number %g %g\n", name, o->min, o->max);
        break;
    case CM_OPT_FLAG:
        fprintf(out, "%s bool\n", name);
        break;
    case CM_OPT_ENUM:
        fprintf(out, "%s enum", name);
        for (e = o->enums; e && e->name; e++)
            fprintf(out, " %s", e->name);
        fputc('\n', out);
        break;
    case CM_OPT_STRING:
    case CM_OPT_LIST:
        fprintf(out, "%s %s\n", name,
                o->arg_name && strcmp(o->arg_name, "FILE") == 0 ? "path" : "text");
        break;
    }
}

/* One variable's line; -ENOENT when it is not known. */
static int one(FILE *out, const char *name)
{
    size_t n, i;
    const struct pr_rc_var *v = pr_rc_vars(&n);
    const struct cm_opt *o;

    for (i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0 && v[i].kind) {
            if (strcmp(v[i].kind, "int") == 0 || strcmp(v[i].kind, "loads") == 0)
                fprintf(out, "%s %s %.0f %.0f\n", name, v[i].kind, v[i].min, v[i].max);
            else
                fprintf(out, "%s %s\n", name, v[i].kind);
            return 0;
        }
    o = opt_row(name);
    if (o == NULL)
        return -ENOENT;
    opt_line(out, name, o);
    return 0;
}

int pr_rc_describe(FILE *out, FILE *err, char **names, int n)
{
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    size_t nv, ns = opt_tables(sets, CM_ARRAY_LEN(sets)), i, s;
    const struct pr_rc_var *v = pr_rc_vars(&nv);
    int k, rc = 0;

    for (k = 0; k < n; k++)
        if (one(out, names[k]) < 0) {
            fprintf(err, "sfs_rc: %s is not an rc variable\n", names[k]);
            rc = -ENOENT;
        }
    if (n > 0)
        return rc;
    for (i = 0; i < nv; i++)
        if (v[i].kind || opt_row(v[i].name))
            (void)one(out, v[i].name);
    for (s = 0; s < ns; s++) /* FreeSFS's own: the ones the list above has not */
        for (i = 0; i < sets[s].n; i++) {
            const struct cm_opt *t = &sets[s].t[i];
            size_t j;

            if (t->rc_name == NULL || (t->flags & CM_OPT_CLI_ONLY))
                continue;
            for (j = 0; j < nv && strcmp(v[j].name, t->rc_name) != 0; j++)
                ;
            if (j == nv)
                opt_line(out, t->rc_name, t);
        }
    return 0;
}

void pr_rc_pages(FILE *out)
{
    size_t nv, i;
    const struct pr_rc_var *v = pr_rc_vars(&nv);
    unsigned page, any;

    for (page = 1;; page++) {
        any = 0;
        for (i = 0; i < nv; i++)
            if (v[i].page == page) {
                fprintf(out, "%s%s", any ? " " : "", v[i].name);
                any = 1;
            }
        if (!any)
            return;
        fputc('\n', out);
    }
}
