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
 *  - rules beyond SFS 3.0 (codes 17-22): more than 1 % unexpected NFS
 *    errors, a run that ended early, -F, --open-loop and --seed as
 *    non-standard parameters, and a load missed by more than SFS's 10 %;
 *    code 23, an NFS trace replay's status mismatches, is the replay's own
 *    check (src/nreplay/report.c);
 *  - every reason is listed, each also in plain words (a run that missed
 *    the mix still names its non-standard settings); the code that goes to
 *    the prime is the one SFS would have reported (rank()).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cm.h"
#include "common/rng.h"
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

/* Which code a run reports when several reasons hold (SFS's order,
 * docs/SFS30.md §17.1): a parameter is outranked by a missed mix, the
 * mix by a missed load (FreeSFS), the load by failed calls and
 * unexpected errors, those by no good calls at all, and everything by an
 * early end, which is the cause of the rest.  Among equals the later
 * reason wins, as SFS's last failing parameter does. */
static int rank(int code)
{
    switch (code) {
    case LD_VALID:
        return 0;
    case LD_INV_MIX_MISSED:
        return 2;
    case LD_INV_LOAD_MISSED:
        return 3;
    case LD_INV_FAILED_RPC:
    case LD_INV_NFS_ERRORS:
    case LD_INV_STATUS_MISMATCH:
        return 4;
    case LD_INV_NO_GOOD:
        return 5;
    case LD_INV_ENDED_EARLY:
        return 6;
    default:
        return 1; /* a parameter */
    }
}

int ld_invalid_measured(int code)
{
    return rank(code) > 1;
}

/* ---- validity (docs/SFS30.md §17.1)
 * --------------------------------------------------------- */

/* A reason: SFS's INVALID line (fmt) and the same reason in plain words
 * (set by words() right after).  Every reason is listed; the code is the
 * one that outranks the others (rank). */
static void CM_PRINTF(3, 4)
    add_line(struct ld_validity *v, int code, const char *fmt, ...)
{
    va_list ap;

    if (rank(code) >= rank(v->code))
        v->code = code;
    if (v->nlines >= LD_VALIDITY_MAX_LINES) {
        v->full = 1;
        return;
    }
    v->lcode[v->nlines] = code;
    v->words[v->nlines][0] = '\0';
    va_start(ap, fmt);
    vsnprintf(v->line[v->nlines++], sizeof(v->line[0]), fmt, ap);
    va_end(ap);
}

/* The plain words of the reason add_line just listed. */
static void CM_PRINTF(2, 3) words(struct ld_validity *v, const char *fmt, ...)
{
    va_list ap;

    if (v->full)
        return;
    va_start(ap, fmt);
    vsnprintf(v->words[v->nlines - 1], sizeof(v->words[0]), fmt, ap);
    va_end(ap);
}

void ld_validity_add(struct ld_validity *v, int code, const char *plain, const char *fmt,
                     ...)
{
    va_list ap;

    if (rank(code) >= rank(v->code))
        v->code = code;
    if (v->nlines >= LD_VALIDITY_MAX_LINES) {
        v->full = 1;
        return;
    }
    v->lcode[v->nlines] = code;
    snprintf(v->words[v->nlines], sizeof(v->words[0]), "%s", plain);
    va_start(ap, fmt);
    vsnprintf(v->line[v->nlines++], sizeof(v->line[0]), fmt, ap);
    va_end(ap);
}

/* A parameter SFS requires at a value; say is the plain words, with the
 * value found and the one required (two %d). */
static void nonstd_int(struct ld_validity *v, int code, int actual, int standard,
                       const char *say)
{
    if (actual != standard) {
        add_line(v, code, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d != %d",
                 ld_invalid_text(code), actual, standard);
        words(v, say, actual, standard);
    }
}

static void min_int(struct ld_validity *v, int code, int actual, int minimum,
                    const char *say)
{
    if (actual < minimum) {
        add_line(v, code, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d < %d",
                 ld_invalid_text(code), actual, minimum);
        words(v, say, actual, minimum);
    }
}

/* A run that ended before its time says why (its code wins: it is the
 * cause of the others). */
static void ended_early(const struct ld_report_in *in, struct ld_validity *v)
{
    if (in->stats->ended_early == LD_END_UNREACHABLE) {
        add_line(v, LD_INV_ENDED_EARLY,
                 "INVALID RUN, the run ended early: the NFS server could not be reached "
                 "again after the connection was lost");
        words(v, "the run ended early: the NFS server could not be reached again after "
                 "the connection was lost");
    }
}

/* Beyond SFS: a run that achieved less than the load it asked for by more
 * than SFS's tolerance (the run rules' 10 %, docs/SFS30.md §17.2 rule 2)
 * did not measure that load, whatever else it measured. */
static void load_missed(const struct ld_report_in *in, struct ld_validity *v)
{
    uint64_t ops = ld_report_ops_x100(in), want = (uint64_t)in->cfg->load;
    unsigned pct;

    if (want == 0 || ops * 100 >= want * 100 * (100 - LD_LOAD_TOLERANCE_PCT))
        return;
    pct = (unsigned)(ops / want); /* of the request, rounded down */
    add_line(v, LD_INV_LOAD_MISSED,
             "INVALID RUN, Load missed: requested %" PRIu64 " ops/s, achieved %" PRIu64
             ".%02" PRIu64 " (%u%%)",
             want, ops / 100, ops % 100, pct);
    words(v,
          "requested %" PRIu64 " ops/s, achieved %.1f (%u %%; SFS requires at least "
          "%d %% of the request)",
          want, (double)ops / 100.0, pct, 100 - LD_LOAD_TOLERANCE_PCT);
}

static void check_counters(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_opstat *t = &in->stats->op[NF_OP_TOTAL];
    int op;

    if (t->good == 0) {
        add_line(v, LD_INV_NO_GOOD, "INVALID RUN No good calls");
        words(v, "no call was answered in time");
        load_missed(in, v);
        ended_early(in, v);
        return;
    }
    if (t->bad * 100 / t->good >= 1) {
        add_line(v, LD_INV_FAILED_RPC, "INVALID RUN, %" PRIu64 "%% Failed RPC calls",
                 t->bad * 100 / t->good);
        /* SFS's rule counts the failed calls per answered one (the line's
         * figure, past 100 % once most fail); the words give both */
        words(v,
              "%" PRIu64 " of %" PRIu64 " calls failed, %.2f %% (no reply in their "
              "timeout, or an RPC error); SFS allows less than 1 per 100 answered, "
              "here %.2f",
              t->bad, t->good + t->bad,
              (double)t->bad * 100.0 / (double)(t->good + t->bad),
              (double)t->bad * 100.0 / (double)t->good);
    }
    /* beyond SFS: an NFS error is a completed call for SFS, but a server
     * that answers more than 1 % of the calls with errors the workload
     * did not ask for is not doing the work */
    if (t->unexpected * 100 > t->good) {
        add_line(v, LD_INV_NFS_ERRORS, "INVALID RUN, %.2f%% Unexpected NFS errors",
                 (double)t->unexpected * 100.0 / (double)t->good);
        words(v,
              "%.2f %% of the calls got an NFS error the workload did not expect "
              "(FreeSFS allows 1 %%)",
              (double)t->unexpected * 100.0 / (double)t->good);
    }
    for (op = 0; op < NF_NOPS; op++) {
        struct ld_op_figures f;

        ld_report_op_figures(in, op, &f);
        if (fabs(f.actual - f.target) > 1.5) {
            add_line(v, LD_INV_MIX_MISSED,
                     "INVALID RUN, %s target %d%% actual %.1f%% Op mix missed",
                     nf_op_name(op), f.target, f.actual);
            words(v, "%s %.1f %% of the calls (target %d %% +- 1.5)", nf_op_name(op),
                  f.actual, f.target);
        }
    }
    load_missed(in, v);
    ended_early(in, v);
}

int ld_validity_check(const struct ld_report_in *in, struct ld_validity *v)
{
    memset(v, 0, sizeof(*v));
    return in->work->validity ? in->work->validity(in, v) : v->code;
}

int ld_validity_sfs(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_config *c = in->cfg;

    /* every reason is listed (a client that missed the mix still names its
     * non-standard settings); the code is SFS's (rank) */
    check_counters(in, v);
    /* FreeSFS's non-standard settings first, so that SFS's own code wins
     * when both kinds fail */
    if (c->seed != CM_RNG_DEFAULT_SEED) {
        add_line(v, LD_INV_SEED,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %lld != %d",
                 ld_invalid_text(LD_INV_SEED), (long long)c->seed, CM_RNG_DEFAULT_SEED);
        words(v, "random seed %lld (--seed; SFS uses %d)", (long long)c->seed,
              CM_RNG_DEFAULT_SEED);
    }
    if (c->pace_mode != LD_PACE_SFS) {
        add_line(v, LD_INV_PACING,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s open-loop (%s) != sfs",
                 ld_invalid_text(LD_INV_PACING),
                 c->pace_mode == LD_PACE_OPEN_POISSON ? "poisson" : "fixed");
        words(v, "open-loop pacing (--open-loop; SFS paces each process by its own "
                 "replies)");
    }
    if (c->io_files > 0) {
        add_line(v, LD_INV_FILE_COUNT,
                 "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s %d != %u x load (-F)",
                 ld_invalid_text(LD_INV_FILE_COUNT), c->io_files, LD_FILES_PER_OPS);
        words(v, "%d io files (-F; SFS sizes the file set at %u per op/s of the load)",
              c->io_files, LD_FILES_PER_OPS);
    }
    /* parameters, in SFS's order: the last failing one gives the code */
    if (in->iodist && in->iodist->from_file) {
        add_line(v, LD_INV_IODIST, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s",
                 ld_invalid_text(LD_INV_IODIST));
        words(v, "a block-size file (-b; SFS requires its own block-size distribution)");
    }
    if (in->mix->file_version != 0) {
        add_line(v, LD_INV_MIXFILE, "INVALID RUN, ILLEGAL PARAMETER: Non-standard %s",
                 ld_invalid_text(LD_INV_MIXFILE));
        words(v, "a mix file (-m; SFS requires its own op mix)");
    }
    nonstd_int(v, LD_INV_RUNTIME, c->runtime_s, LD_STD_RUNTIME_S,
               "run time %d s (SFS requires %d s)");
    nonstd_int(v, LD_INV_ACCESS, c->access_pct, LD_STD_ACCESS_PCT,
               "working set %d %% of the io files (-a; SFS requires %d %%)");
    nonstd_int(v, LD_INV_APPEND, c->append_pct, LD_STD_APPEND_PCT,
               "%d %% of the writes append (-A; SFS requires %d %%)");
    nonstd_int(v, LD_INV_KB_PER_BLOCK, c->kb_per_block, LD_STD_KB_PER_BLK,
               "%d KB per block (-B; SFS requires %d KB)");
    nonstd_int(v, LD_INV_FILES_PER_DIR, c->files_per_dir, LD_STD_FILES_DIR,
               "%d files per directory (-D; SFS requires %d)");
    nonstd_int(v, LD_INV_FSS_DELTA, c->fss_delta_pct, LD_STD_FSS_DELTA,
               "file-set growth %d %% (-f; SFS requires %d %%)");
    min_int(v, LD_INV_BIOD_READS, c->biod_reads, LD_STD_MIN_BIODS,
            "%d read calls in flight (-R; SFS requires at least %d)");
    nonstd_int(v, LD_INV_SYMLINKS, c->symlinks, LD_STD_SYMLINKS,
               "%d symlinks (-S; SFS requires %d)");
    min_int(v, LD_INV_BIOD_WRITES, c->biod_writes, LD_STD_MIN_BIODS,
            "%d write calls in flight (-W; SFS requires at least %d)");
    nonstd_int(v, LD_INV_WARMUP, c->warmup_s, LD_STD_WARMUP_S,
               "warm-up %d s (SFS requires %d s)");
    return v->code;
}

int ld_validity_new_words(const struct ld_validity *v, int i)
{
    int j;

    if (i < 0 || i >= v->nlines || !v->words[i][0])
        return 0;
    for (j = 0; j < i; j++)
        if (strcmp(v->words[j], v->words[i]) == 0)
            return 0;
    return 1;
}

void ld_validity_words(const struct ld_validity *v, char *buf, size_t len)
{
    size_t o = 0;
    int i;

    if (len == 0)
        return;
    buf[0] = '\0';
    for (i = 0; i < v->nlines; i++)
        if (ld_validity_new_words(v, i) && o < len)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", v->words[i]);
}
