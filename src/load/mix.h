/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mix.h - the NFS operation mix: the default v2 and v3 mixes (
 * docs/SFS30.md §2.2, docs/DECISIONS.md D4), the mix-file parsers (version 2 and the
 * older nfsstat version 1, docs/SFS30.md §18.1) with "FILE:LINE: message" diagnostics,
 * and the op selector that draws REQUESTS so that the resulting CALL mix meets the target
 * (a read request averages 1.64 calls, a write 2.0: docs/SFS30.md §3 and §22 item 7). Ops
 * are indexed by nf_ops.h's NF_OP_*.  No allocation anywhere.
 */
#ifndef LD_MIX_H
#define LD_MIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/rng.h"
#include "nfs/nf_ops.h"

struct ld_iodist;

/* A mix: percent of NFS calls per op. */
struct ld_mix {
    int pct[NF_NOPS];      /* 0..100 each */
    int total;             /* sum of pct */
    int file_version;      /* 0 = built-in default, 1 or 2 = mix file version */
    uint32_t foreign_mask; /* bits (1 << op) of ops with pct > 0 that the run's
                            * NFS version lacks (v3-only ops in a v2 run: SFS
                            * counted their calls as bad) */
    char file[1024];       /* the mix file's name, "" for the default */
};

/* The SFS default mix for an NFS version (2 or 3). */
void ld_mix_default(struct ld_mix *m, int nfs_version);

/*
 * Reads a mix file (version 2 "SFS MIXFILE VERSION 2" or version 1 nfsstat
 * output) for an NFS version.  Version 2 starts from the version's default
 * mix: unlisted ops keep their defaults.  Version 1 sets the 18 v2 ops from
 * count x 100 / calls rounded half up and zeroes the rest.  Every diagnostic
 * goes to diag (may be NULL) through cm_report as "FILE:LINE: error: ..." or
 * "FILE: warning: WARNING total mix percentage 110 != 100"; a v2 run asked
 * for v3-only ops gets a warning per op too (and foreign_mask).  Returns 0 (warnings
 * allowed) or -EINVAL (bad content), -errno (cannot read); err gets the first error line
 * (without "error:" tag it is "FILE:LINE: message").
 */
int ld_mix_load(struct ld_mix *m, int nfs_version, const char *path, FILE *diag,
                char *err, size_t errlen);

/* Same as ld_mix_load on text already in memory (fuzzers, tests); name is
 * used in diagnostics. */
int ld_mix_parse(struct ld_mix *m, int nfs_version, const char *name, const char *text,
                 size_t len, FILE *diag, char *err, size_t errlen);

/* ---- op selection -------------------------------------------------------- */

/* Request weight scale: weights are integers so that draws are exact. */
#define LD_OPSEL_SCALE 1000000u

/*
 * Cumulative REQUEST weights: weight(op) = pct(op) / calls_per_request(op)
 * (reads and writes use the block-size distribution's averages, every other
 * op 1), renormalised.  Drawing one uniform value and binary-searching the
 * cumulative table picks the op.  Fixed size: copy it into each child.
 */
struct ld_opsel {
    uint32_t cum[NF_NOPS];      /* cumulative upper bounds, last = total */
    uint32_t total;             /* sum of weights (0 = nothing to draw) */
    double req_share[NF_NOPS];  /* each op's share of requests, 0..1 */
    double call_share[NF_NOPS]; /* expected share of calls, 0..1 */
};

/* Builds the selector from a mix and the block-size distribution.  Ops the
 * NFS version lacks are kept (the caller counts them as bad calls, as SFS
 * did) unless skip_foreign is nonzero.  Returns 0 or -EINVAL if every weight
 * is zero. */
int ld_opsel_init(struct ld_opsel *s, const struct ld_mix *m, const struct ld_iodist *d,
                  int nfs_version, int skip_foreign);

/* A selector that always returns one op (-T). */
void ld_opsel_single(struct ld_opsel *s, int op);

/* Draws the next request's op (hot path: no allocation, O(log NF_NOPS)). */
int ld_opsel_draw(const struct ld_opsel *s, struct cm_rng *rng);

#endif /* LD_MIX_H */
