/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli_out.c - what every sfs_trace runner (block traces in cli.c, NFS
 * traces in nfs_cli.c and nfs_run.c) prints the same way: the reader's
 * warnings on diag (the first MAX_PRINTED, then only counted) and the
 * YAML output of --yaml, opened and closed atomically.
 */
#include <stdio.h>

#include "analyze/cli_int.h"

#define MAX_PRINTED 20

void az__cli_warning(void *data, const char *msg)
{
    struct az__warn_state *w = data;

    if (w->n++ < MAX_PRINTED)
        fprintf(w->diag, "%s\n", msg);
    else if (w->n == MAX_PRINTED + 1)
        fprintf(w->diag, "sfs_trace: further warnings are only counted\n");
}

struct cm_yaml *az__cli_yaml_begin(const struct az_cli *c, FILE *diag)
{
    char err[CM_ERR_LEN];
    struct cm_yaml *y = cm_yaml_open(c->yaml, err, sizeof(err));

    if (!y)
        fprintf(diag, "sfs_trace: %s\n", err);
    return y;
}

int az__cli_yaml_end(struct cm_yaml *y, FILE *diag)
{
    char err[CM_ERR_LEN];

    if (cm_yaml_close(y, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return AZ_EXIT_INPUT;
    }
    return AZ_EXIT_OK;
}
