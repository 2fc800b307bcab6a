/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * iodist.h - the read and write transfer-size distributions (
 * docs/SFS30.md §3, block-size file §18.2): rows of (percent, blocks, fragment), stored
 * cumulatively; the transfer drawn for one logical request is `blocks` full
 * blocks of KB_PER_BLOCK (-B) plus, when the row says so, one fragment of a
 * whole number of KB in 1..KB_PER_BLOCK-1.  Also the calls per request
 * (1.64 / 2.00 by default) that op selection needs and the largest transfer
 * (17 blocks = 136 KB) that bounds file sizes.  No allocation.
 */
#ifndef LD_IODIST_H
#define LD_IODIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/rng.h"

#define LD_IODIST_MAX_ROWS 32
#define LD_KB              1024u

struct ld_iodist_row {
    int pct;    /* share of requests, percent */
    int blocks; /* full blocks */
    int frag;   /* 1 = one fragment follows */
};

struct ld_iodist_table {
    int nrows;
    struct ld_iodist_row row[LD_IODIST_MAX_ROWS];
    int cum[LD_IODIST_MAX_ROWS]; /* cumulative percent, last = 100 */
    double calls_per_req;        /* sum(pct x (blocks + frag)) / 100 */
    int max_blocks;              /* largest blocks value */
};

struct ld_iodist {
    struct ld_iodist_table read, write;
    uint32_t kb_per_block; /* -B, 1..8 */
    uint32_t block_bytes;  /* kb_per_block x 1024 */
    int from_file;         /* a -b file was used (makes the run INVALID) */
    char file[1024];
};

/* One logical request's transfer, split as the wire calls go. */
struct ld_xfer {
    uint32_t bytes;      /* total */
    uint32_t full_calls; /* calls of block_bytes each */
    uint32_t frag_bytes; /* 0 or the last call's size */
    uint32_t calls;      /* full_calls + (frag_bytes != 0) */
};

/* The SFS default tables (docs/SFS30.md §3) with the given KB per block (1..8). */
void ld_iodist_default(struct ld_iodist *d, uint32_t kb_per_block);

/*
 * Reads a block-size distribution file: sections "Read"/"read" and
 * "Write"/"write" (each at most once), each followed by lines
 * "percent blocks frag" (frag 0 or 1); '#' lines and blank lines are
 * skipped.  Each section must sum to 100.  Diagnostics go to diag as
 * "FILE:LINE: error: message"; returns 0 or -EINVAL/-errno with the first
 * error line in err.  A missing section keeps its default table.
 */
int ld_iodist_load(struct ld_iodist *d, uint32_t kb_per_block, const char *path,
                   FILE *diag, char *err, size_t errlen);
int ld_iodist_parse(struct ld_iodist *d, uint32_t kb_per_block, const char *name,
                    const char *text, size_t len, FILE *diag, char *err, size_t errlen);

/* Draws one request's transfer (hot path: no allocation).  write selects
 * the write table.  The fragment, when present, is 1..kb_per_block-1 KB
 * (1 KB, a call of its own, when kb_per_block is 1). */
void ld_iodist_draw(const struct ld_iodist *d, int write, struct cm_rng *rng,
                    struct ld_xfer *x);

/* The transfer of one given row (its blocks, plus a random fragment when
 * the row has one): what ld_iodist_draw does once it has picked the row.
 * For callers that pick rows themselves (e.g. a shuffled deck). */
void ld_iodist_row_xfer(const struct ld_iodist *d, const struct ld_iodist_row *r,
                        struct cm_rng *rng, struct ld_xfer *x);

/* Largest transfer either table can draw: (max blocks + 1) blocks, the
 * reference's maximum file/transfer size (136 KB by default). */
uint32_t ld_iodist_max_bytes(const struct ld_iodist *d);

#endif /* LD_IODIST_H */
