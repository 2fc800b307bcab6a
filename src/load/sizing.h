/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sizing.h - the file set's size (docs/SFS30.md §5.1, §5.2): the file-size
 * distribution (33 % 1 KB ... 1 % 1 MB, average 27 351 B) and the integer
 * formulas that turn a client's load into io files, non-io files,
 * directories, symlinks, working-set sizes and the Base/Total/Limit KB that
 * the reports show (checked against the guide's sfssum sample: 2 028 208 KB
 * for LOAD 200 over 2 clients x 7 processes).  Pure arithmetic.
 */
#ifndef LD_SIZING_H
#define LD_SIZING_H

#include <stdint.h>

#include "common/rng.h"
#include "load/config.h"

#define LD_AVG_FILE_BYTES   27351u /* integer average of docs/SFS30.md §5.1 */
#define LD_AVG_FILE_KB      26u    /* its integer KB, used for the KB sums */
#define LD_FILES_PER_MB     39u    /* (1 MiB + avg) / avg */
#define LD_FILES_PER_OPS    390u   /* io files per op/s per client */
#define LD_MIN_NONIO        100u
#define LD_NONIO_INIT_RATIO 0.5 /* half of the non-io files pre-created */
#define LD_FILE_SIZE_ROWS   10
#define LD_MAX_IO_CHILD                                                                  \
    (1u << 22) /* io files one process can hold (its                                     \
                  file table: ~100 bytes an entry) */

/* Per-child file counts and per-child size accounting (KB). */
struct ld_sizing {
    uint32_t client_load;    /* ops/s of this client */
    uint32_t io_client;      /* io files per client (390 x L, or -F) */
    uint32_t io_child;       /* io_client / P + 1 */
    uint32_t nonio_client;   /* max(100, 2 % of io_client) */
    uint32_t nonio_child;    /* nonio_client / P + 1 */
    uint32_t nonio_init;     /* pre-created non-io files per child (half) */
    uint32_t dirs_child;     /* io_child / files_per_dir + 1 */
    uint32_t symlinks_child; /* symlinks / P + 1 */
    uint32_t working_io;     /* io_child x access / 100 + 1 (D5's W) */
    uint32_t working_nonio;  /* = nonio_child (all of them) */
    uint64_t base_kb;        /* working_io x 26 */
    uint64_t total_kb;       /* io_child x 26 */
    uint64_t limit_kb;       /* base x (1 + fss_delta / 100) */
    double child_rate;       /* client load / P, ops/s (float, docs/SFS30.md §1) */
};

/* Computes the per-child sizing for cfg (load, procs, -F, -D, -S, -a, -f).
 * Returns 0, -EINVAL when the result would be empty (load 0 without -F), or
 * -E2BIG when a process would get more than LD_MAX_IO_CHILD io files (the
 * counts are still filled in as far as they fit, for the message). */
int ld_sizing_compute(const struct ld_config *cfg, struct ld_sizing *s);

/* Draws one initial io-file size in bytes from docs/SFS30.md §5.1 (1 KB .. 1 MB). */
uint32_t ld_filesize_draw(struct cm_rng *rng);

/* The docs/SFS30.md §5.1 rows, for tests and reports: sizes in KB and cumulative %. */
extern const uint32_t ld_filesize_kb[LD_FILE_SIZE_ROWS];
extern const int ld_filesize_cum[LD_FILE_SIZE_ROWS];

#endif /* LD_SIZING_H */
