/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * validity.c - the validity codes of docs/SFS30.md §17.1 and their text,
 * the frame that asks the workload for its rules (ld_validity_check), and
 * the SFS mix's rules (ld_validity_sfs).
 *
 * Deviations (documented in the YAML as well):
 *  - zero good calls gives code 14 ("No good calls"); SFS printed both
 *    messages and returned 16 there, a quirk that would make the prime say
 *    "Op mix missed";
 *  - rules beyond SFS 3.0 (codes 17-21): more than 1 % unexpected NFS
 *    errors, a run that ended early, and -F, --open-loop and --seed as
 *    non-standard parameters; code 23, an NFS trace replay's status
 *    mismatches, is the replay's own check (src/nreplay/report.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cm.h"
#include "common/opt.h"
#include "load/ld_int.h"
#include "load/options.h"
#include "load/report.h"
#include "nfs/nf.h"

static const char *const invalid_text[LD_INV_NCODES] = {
    "No error",          "Unknown",        "IO distribution file",
    "Mix file",          "Runtime",        "Access percentage",
    "Append percentage", "KB per block",   "Number client directories",
    "Fileset delta",     "Max biod reads", "Number symlinks",
    "Max biod writes",   "Warmup time",    "No good calls",
    "Failed RPC calls",  "Op mix missed",  "Unexpected NFS errors",
    "Run ended early",   "File count",     "Pacing",
    "Random seed",       "Load missed",    "Status mismatches",
};

const char *ld_invalid_text(int code)
{
    return code >= 0 && code < LD_INV_NCODES ? invalid_text[code] : "Unknown";
}

/* ---- validity (docs/SFS30.md §17.1)
 * --------------------------------------------------------- */

static void CM_PRINTF(3, 4)
    add_line(struct ld_validity *v, int code, const char *fmt, ...)
{
    va_list ap;

    v->code = code;
    if (v->nlines >= LD_VALIDITY_MAX_LINES)
        return;
    va_start(ap, fmt);
    vsnprintf(v->line[v->nlines++], sizeof(v->line[0]), fmt, ap);
    va_end(ap);
}

static void nonstd_int(struct ld_validity *v, int code, int actual, int standard)
{
    if (actual != standard)
        add_line(v, code, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d != %d",
                 ld_invalid_text(code), actual, standard);
}

static void min_int(struct ld_validity *v, int code, int actual, int minimum)
{
    if (actual < minimum)
        add_line(v, code, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d < %d",
                 ld_invalid_text(code), actual, minimum);
}

/* A run that ended before its time says why (its code wins: it is the
 * cause of the others). */
static void ended_early(const struct ld_report_in *in, struct ld_validity *v)
{
    if (in->stats->ended_early == LD_END_UNREACHABLE)
        add_line(v, LD_INV_ENDED_EARLY,
                 "INVALID RUN, the run ended early: the NFS server could not be reached "
                 "again after the connection was lost");
}

static int check_counters(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];
    int op;

    if (t->good == 0) {
        add_line(v, LD_INV_NO_GOOD, "INVALID RUN No good calls");
        ended_early(in, v);
        return -1;
    }
    if (t->bad * 100 / t->good >= 1)
        add_line(v, LD_INV_FAILED_RPC, "INVALID RUN, %" PRIu64 "%% Failed RPC calls",
                 t->bad * 100 / t->good);
    /* beyond SFS: an NFS error is a completed call for SFS, but a server
     * that answers more than 1 % of the calls with errors the workload
     * did not ask for is not doing the work */
    if (t->unexpected * 100 > t->good)
        add_line(v, LD_INV_NFS_ERRORS, "INVALID RUN, %.2f%% Unexpected NFS errors",
                 (double)t->unexpected * 100.0 / (double)t->good);
    if (v->code) {
        ended_early(in, v);
        return -1;
    }
    for (op = 0; op < NF_NOPS; op++) {
        struct ld_op_figures f;

        ld_report_op_figures(in, op, &f);
        if (fabs(f.actual - f.target) > 1.5)
            add_line(v, LD_INV_MIX_MISSED,
                     "INVALID RUN, %s target %d%% actual %.1f%% Op mix missed",
                     nf_op_name(op), f.target, f.actual);
    }
    ended_early(in, v);
    return v->code ? -1 : 0;
}

int ld_validity_check(const struct ld_report_in *in, struct ld_validity *v)
{
    memset(v, 0, sizeof(*v));
    return in->work->validity ? in->work->validity(in, v) : v->code;
}

int ld_validity_sfs(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_config *c = in->cfg;

    if (check_counters(in, v) < 0)
        return v->code;
    /* FreeSFS's non-standard settings first, so that SFS's own code wins
     * when both kinds fail */
    if (c->seed != CM_RNG_DEFAULT_SEED)
        add_line(v, LD_INV_SEED,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %lld != %d",
                 ld_invalid_text(LD_INV_SEED), (long long)c->seed, CM_RNG_DEFAULT_SEED);
    if (c->pace_mode != LD_PACE_SFS)
        add_line(v, LD_INV_PACING,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s open-loop (%s) != sfs",
                 ld_invalid_text(LD_INV_PACING),
                 c->pace_mode == LD_PACE_OPEN_POISSON ? "poisson" : "fixed");
    if (c->io_files > 0)
        add_line(v, LD_INV_FILE_COUNT,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d != %u x load (-F)",
                 ld_invalid_text(LD_INV_FILE_COUNT), c->io_files, LD_FILES_PER_OPS);
    /* parameters, in SFS's order: the last failing one gives the code */
    if (in->iodist && in->iodist->from_file)
        add_line(v, LD_INV_IODIST, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s",
                 ld_invalid_text(LD_INV_IODIST));
    if (in->mix->file_version != 0)
        add_line(v, LD_INV_MIXFILE, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s",
                 ld_invalid_text(LD_INV_MIXFILE));
    nonstd_int(v, LD_INV_RUNTIME, c->runtime_s, LD_STD_RUNTIME_S);
    nonstd_int(v, LD_INV_ACCESS, c->access_pct, LD_STD_ACCESS_PCT);
    nonstd_int(v, LD_INV_APPEND, c->append_pct, LD_STD_APPEND_PCT);
    nonstd_int(v, LD_INV_KB_PER_BLOCK, c->kb_per_block, LD_STD_KB_PER_BLK);
    nonstd_int(v, LD_INV_FILES_PER_DIR, c->files_per_dir, LD_STD_FILES_DIR);
    nonstd_int(v, LD_INV_FSS_DELTA, c->fss_delta_pct, LD_STD_FSS_DELTA);
    min_int(v, LD_INV_BIOD_READS, c->biod_reads, LD_STD_MIN_BIODS);
    nonstd_int(v, LD_INV_SYMLINKS, c->symlinks, LD_STD_SYMLINKS);
    min_int(v, LD_INV_BIOD_WRITES, c->biod_writes, LD_STD_MIN_BIODS);
    nonstd_int(v, LD_INV_WARMUP, c->warmup_s, LD_STD_WARMUP_S);
    return v->code;
}
