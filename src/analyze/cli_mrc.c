/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli_mrc.c - the mrc subcommand of sfs_trace on a trace its caller feeds
 * (block traces from cli.c, NFS traces from nfs_cli.c): the options as
 * struct az_mrc_opts, the default cache sizes (powers of two up to the
 * footprint), then the table, the YAML and the picture.
 */
#include <stdlib.h>

#include "common/alloc.h"
#include "common/plot.h"
#include "analyze/cli_int.h"

int az__cli_mrc(struct az_cli *c, const struct az_source *src, az__mrc_feed_fn feed,
                void *data, unsigned unit_bits, uint64_t bs, uint64_t *sizes, size_t n,
                FILE *out, FILE *diag)
{
    struct az_mrc_opts o = {.block_size = bs,
                            .per_unit = c->per_unit,
                            .isolated = c->isolated,
                            .sample_rate = c->sample,
                            .sample_check = c->sample_check,
                            .method = (enum az_sd_method)c->method,
                            .max_record_blocks = (uint64_t)c->max_record_blocks,
                            .lenient = c->lenient,
                            .cache_sizes = sizes,
                            .ncache_sizes = n,
                            .sample_seed = (uint64_t)c->sample_seed,
                            .distance_rate = c->sample_distance,
                            .unit_bits = unit_bits};
    char err[CM_ERR_LEN];
    struct az_mrc *m = cm_malloc(sizeof(*m)); /* large: the histogram bins */
    int code = AZ_EXIT_OK, rc;

    if (!m || az_mrc_init(m, &o, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", m ? err : "out of memory");
        free(m);
        return AZ_EXIT_INPUT;
    }
    if (feed(m, data, err, sizeof(err)) < 0) {
        fprintf(diag, "%s\n", err);
        code = AZ_EXIT_INPUT;
    }
    if (code == AZ_EXIT_OK && !sizes) {
        /* default sizes: powers of two up to the (estimated) footprint */
        double unique =
            (double)az_sd_unique(m->main.sd) / (m->threshold ? c->sample : 1.0);
        if (az_cache_sizes(NULL, (uint64_t)unique, &sizes, &n, err, sizeof(err)) < 0) {
            fprintf(diag, "sfs_trace: %s\n", err);
            code = AZ_EXIT_INPUT;
        }
    }
    if (code == AZ_EXIT_OK && !c->quiet)
        az_mrc_table(out, src, m, sizes, n);
    if (code == AZ_EXIT_OK && c->yaml[0]) {
        struct cm_yaml *y = az__cli_yaml_begin(c, diag);
        if (!y)
            code = AZ_EXIT_INPUT;
        else {
            az_mrc_yaml(y, src, m, sizes, n);
            code = az__cli_yaml_end(y, diag);
        }
    }
    if (code == AZ_EXIT_OK && c->plot[0]) {
        rc = az_mrc_plot(m, c->trace, sizes, n, c->plot, err, sizeof(err));
        if (rc == CM_PLOT_NO_GNUPLOT)
            fprintf(diag, "sfs_trace: %s (the table and YAML have the same curve)\n",
                    err);
        else if (rc < 0) {
            fprintf(diag, "sfs_trace: %s\n", err);
            code = AZ_EXIT_INPUT;
        } else {
            fprintf(out, "Picture: %s\n", c->plot);
        }
    }
    if (sizes != o.cache_sizes)
        free(sizes);
    az_mrc_free(m);
    free(m);
    return code;
}
