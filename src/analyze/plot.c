/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c - the miss-ratio curve as a picture: the curve of the main run
 * (exact or sampled), cache sizes in bytes on a log2 axis (tics in KiB,
 * MiB, GiB...) with the same sizes in blocks on the axis above, drawn
 * through common's gnuplot runner (cm_plot_draw: temp files, a time limit,
 * the picture renamed into place, the legend below the curve).  A sampled
 * curve says so in its title.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/az.h"
#include "common/plot.h"

int az_mrc_plot(const struct az_mrc *m, const char *trace, const uint64_t *sizes,
                size_t n, const char *output, char *err, size_t errlen)
{
    double *x = NULL, *y = NULL;
    uint64_t *hits = NULL;
    int room = az_mrc_report_arrays(m, n, &x, &y, &hits);
    struct cm_plot_series s = {.title = "LRU miss ratio", .x = x, .y = y, .n = n};
    struct cm_plot p = {.output = output,
                        .xlabel = "cache size (bytes)",
                        .ylabel = "miss ratio",
                        .logx = 2,
                        .ymin = 0,
                        .ymax = 1,
                        .xbytes = 1,
                        .x2scale = (double)m->opt.block_size,
                        .series = &s,
                        .nseries = 1};
    char title[512], x2label[96];
    size_t i;

    if (room < 0)
        return cm_errf(err, errlen, "%zu cache sizes: more than the analysis allowed for",
                       n);
    az_mrc_ratios(m, &m->main, &m->main.total, sizes, n, y, hits);
    for (i = 0; i < n; i++) {
        x[i] = (double)sizes[i] * (double)m->opt.block_size;
        y[i] = 1.0 - y[i];
    }
    snprintf(x2label, sizeof(x2label), "cache size (blocks of %llu B)",
             (unsigned long long)m->opt.block_size);
    p.x2label = x2label;
    snprintf(title, sizeof(title), "miss-ratio curve: %s (block %llu B%s)", trace,
             (unsigned long long)m->opt.block_size,
             m->threshold ? ", SHARDS sample" : "");
    p.title = title;
    return cm_plot_draw(&p, err, errlen);
}
