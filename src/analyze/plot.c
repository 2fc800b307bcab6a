/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c - the miss-ratio curve as a picture: the curve of the main run
 * (exact or sampled), cache sizes in bytes on a log2 axis (tics in KiB,
 * MiB, GiB...) with the same sizes in blocks on the axis above, drawn
 * through common's gnuplot runner (cm_plot_draw: temp files, a time limit,
 * the picture renamed into place, the legend below the curve).  A sampled
 * curve says so in its title.  Several curves go in one picture (sfs_trace
 * fit: a trace's and its fitted run's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/az.h"
#include "common/plot.h"

int az_mrc_plot_curves(const struct az_mrc *const *ms, const char *const *names,
                       size_t nm, const char *title, const uint64_t *sizes, size_t n,
                       const char *output, char *err, size_t errlen)
{
    struct cm_plot_series s[AZ_PLOT_CURVES_MAX];
    struct cm_plot p = {.output = output,
                        .title = title,
                        .xlabel = "cache size (bytes)",
                        .ylabel = "miss ratio",
                        .logx = 2,
                        .ymin = 0,
                        .ymax = 1,
                        .xbytes = 1,
                        .x2scale = (double)ms[0]->opt.block_size,
                        .series = s,
                        .nseries = nm};
    char x2label[96];
    size_t i, k;

    if (nm == 0 || nm > AZ_PLOT_CURVES_MAX)
        return cm_errf(err, errlen, "%zu curves: 1 to %d", nm, AZ_PLOT_CURVES_MAX);
    for (k = 0; k < nm; k++) {
        double *x = NULL, *y = NULL;
        uint64_t *hits = NULL;
        if (az_mrc_report_arrays(ms[k], n, &x, &y, &hits) < 0)
            return cm_errf(err, errlen,
                           "%zu cache sizes: more than the analysis allowed for", n);
        az_mrc_ratios(ms[k], &ms[k]->main, &ms[k]->main.total, sizes, n, y, hits);
        for (i = 0; i < n; i++) {
            x[i] = (double)sizes[i] * (double)ms[k]->opt.block_size;
            y[i] = 1.0 - y[i];
        }
        s[k] = (struct cm_plot_series){.title = names[k], .x = x, .y = y, .n = n};
    }
    snprintf(x2label, sizeof(x2label), "cache size (blocks of %llu B)",
             (unsigned long long)ms[0]->opt.block_size);
    p.x2label = x2label;
    return cm_plot_draw(&p, err, errlen);
}

int az_mrc_plot(const struct az_mrc *m, const char *trace, const uint64_t *sizes,
                size_t n, const char *output, char *err, size_t errlen)
{
    const char *name = "LRU miss ratio";
    char title[512];

    snprintf(title, sizeof(title), "miss-ratio curve: %s (block %llu B%s)", trace,
             (unsigned long long)m->opt.block_size,
             m->threshold ? ", SHARDS sample" : "");
    return az_mrc_plot_curves(&m, &name, 1, title, sizes, n, output, err, errlen);
}
