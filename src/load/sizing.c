/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sizing.c - the file-set formulas of docs/SFS30.md §5.2 in SFS's integer
 * arithmetic, and the docs/SFS30.md §5.1 file-size draw.  Integer division is deliberate:
 * the reports' file-set sizes must match SFS's to the KB.
 */
#include <errno.h>
#include <string.h>

#include "common/rng.h"
#include "load/sizing.h"

const uint32_t ld_filesize_kb[LD_FILE_SIZE_ROWS] = {1,  2,  4,   8,   16,
                                                    32, 64, 128, 256, 1024};
const int ld_filesize_cum[LD_FILE_SIZE_ROWS] = {33, 54, 67, 77, 85, 90, 94, 97, 99, 100};

int ld_sizing_compute(const struct ld_config *cfg, struct ld_sizing *s)
{
    uint32_t p = cfg->procs > 0 ? (uint32_t)cfg->procs : 1;
    uint32_t dir = cfg->files_per_dir > 0 ? (uint32_t)cfg->files_per_dir : 30;
    uint64_t io;

    memset(s, 0, sizeof(*s));
    s->client_load = cfg->load > 0 ? (uint32_t)cfg->load : 0;
    if (cfg->io_files > 0) {
        io = (uint64_t)cfg->io_files; /* -F: non-SPEC */
    } else {
        /* (10 MiB / 1024 x L) / 1024 x 39 = 390 x L */
        io = (10ull * 1024 * 1024 / 1024 * s->client_load) / 1024 * LD_FILES_PER_MB;
    }
    if (io == 0)
        return -EINVAL;
    if (io / p + 1 > LD_MAX_IO_CHILD) {
        s->io_client = io > UINT32_MAX ? UINT32_MAX : (uint32_t)io;
        s->io_child = (uint32_t)(io / p + 1 > UINT32_MAX ? UINT32_MAX : io / p + 1);
        return -E2BIG;
    }
    s->io_client = (uint32_t)io;
    s->io_child = s->io_client / p + 1;
    s->nonio_client = s->io_client / 50; /* 2 % */
    if (s->nonio_client < LD_MIN_NONIO)
        s->nonio_client = LD_MIN_NONIO;
    s->nonio_child = s->nonio_client / p + 1;
    s->nonio_init = (uint32_t)(s->nonio_child * LD_NONIO_INIT_RATIO);
    s->dirs_child = s->io_child / dir + 1;
    s->symlinks_child = (uint32_t)(cfg->symlinks > 0 ? cfg->symlinks : 0) / p + 1;
    s->working_io =
        (uint32_t)((uint64_t)s->io_child * (uint64_t)cfg->access_pct / 100 + 1);
    s->working_nonio = s->nonio_child;
    s->base_kb = (uint64_t)s->working_io * LD_AVG_FILE_KB;
    s->total_kb = (uint64_t)s->io_child * LD_AVG_FILE_KB;
    s->limit_kb = s->base_kb + s->base_kb * (uint64_t)cfg->fss_delta_pct / 100;
    s->child_rate = (double)s->client_load / (double)p;
    return 0;
}

uint32_t ld_filesize_draw(struct cm_rng *rng)
{
    int v = (int)cm_rng_below(rng, 100), i = 0;

    while (i < LD_FILE_SIZE_ROWS - 1 && ld_filesize_cum[i] <= v)
        i++;
    return ld_filesize_kb[i] * 1024u;
}
