/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace_bench.c - the sfs_trace benchmark (bench/trace.sh): generates a
 * trace of one of three shapes (below: "bench", the default;
 * "footprint", the same mix over a 1.4 times larger footprint with the
 * cold reads at random over 1 TiB; "flat", a flatter Zipf over 2.6 M
 * blocks) from a Park-Miller seed, writes it to
 * the file named on the command line, and times, in one run on one core,
 * alternating the methods REPS times and keeping each one's best (the
 * machine is shared):
 *   - parsing alone with the SPC reader (records/s);
 *   - the JudyL block map alone, one entry per block, as the analysis had
 *     it before the map went by chunks (the floor of a map per block);
 *   - exact, chunk map + Fenwick, fed record by record in windows of 256
 *     (az_mrc_records: the blocks of a record as one range, the block map
 *     hinted ahead) and reference by reference
 *     (az_mrc_ref: the same analysis without the range ideas);
 *   - exact, the application note's Judy1Count, record by record;
 *   - sampled at rate 0.001, and a table of its error against exact for
 *     each of SEEDS hash seeds (10 by default, 0: no table), with the
 *     expected error it reports (--accuracy: that table alone, the exact
 *     curve computed once; DISTANCE_RATE sets the distance sample's rate,
 *     0 = the default);
 * and checks that the exact methods give identical histograms.  Times are
 * CPU seconds.  --generate only writes the trace (for the whole-program
 * runs of bench/trace.sh).  Nothing here decides pass or fail (docs/STYLE.md
 * 2.9); the figures go to docs/PERFORMANCE.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <Judy.h>

#include "analyze/az.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/num.h"

struct ref {
    uint32_t unit;
    uint64_t block;
};

/* CPU time of this process: the machine is shared, and the question is
 * what one core does, so time spent descheduled must not count. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double secs(uint64_t t0)
{
    return (double)(cpu_ns() - t0) / 1e9;
}

/* A record of the generated trace: blocks first..first+n-1 of unit. */
struct rec {
    uint32_t unit, n;
    uint64_t first;
};

/* The shapes.  "bench": 60 % Zipf 0.9 over 400 000 pages (4 KiB),
 * 25 % a 50 000-block loop of 32 KiB records, 15 % cold 8 KiB reads of
 * blocks never seen before, laid out in order; 4 ASUs; 3.1 M records give
 * 9.0 M references to 1.24 M blocks.  "footprint" (the exact curve was
 * slow on a large footprint): the same mix, but Zipf 0.9 over
 * 1 000 000 pages and the cold reads 8 KiB at a random 512-byte sector of
 * a 1 TiB unit (mostly 3 blocks of 4 KiB, scattered over 2^28 of them);
 * 3.0 M records give 9.09 M references to 1.76 M blocks.  "flat": the
 * footprint's mix with a flatter Zipf (0.5) over 4 000 000 pages, so that
 * reuse is rare and its distances long: 3.0 M records give 9.1 M
 * references to 2.59 M blocks. */
#define ZIPF_S       0.9
#define ZIPF_FLAT    0.5
#define LOOP_BLOCKS  50000u
#define COLD_SECTORS (1u << 31)   /* 1 TiB of 512-byte sectors */
#define COLD_BASE    (1ull << 30) /* from 512 GiB on: past the Zipf pages and the loop */

struct shape {
    const char *name;
    uint64_t records;    /* the default size */
    uint32_t zipf_pages; /* of 4 KiB */
    double zipf_s;
    int cold_random; /* cold reads: random sectors over 1 TiB, else in order */
};

static const struct shape shapes[] = {
    {"bench", 3100000, 400000, ZIPF_S, 0},
    {"footprint", 3000000, 1000000, ZIPF_S, 1},
    {"flat", 3000000, 4000000, ZIPF_FLAT, 1},
};

/* Rank r (0-based) of a Zipf(ZIPF_S) draw: binary search in the CDF. */
static uint32_t zipf_draw(const double *cdf, uint32_t pages, double u)
{
    uint32_t lo = 0, hi = pages - 1;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Writes the trace; returns its references at 4 KiB granularity and, in
 * *recs, its records as ranges of them. */
static struct ref *generate(const char *path, const struct shape *sh, uint64_t records,
                            size_t *nrefs, struct rec **recs)
{
    FILE *f = fopen(path, "w");
    struct cm_rng rng;
    const uint32_t pages = sh->zipf_pages;
    struct ref *refs = malloc((size_t)records * 8 * sizeof(*refs));
    struct rec *r = malloc((size_t)records * sizeof(*r));
    double *cdf = malloc(pages * sizeof(*cdf)), sum = 0;
    uint64_t i, ts_us = 0, loop_pos = 0, cold_next = 0;
    size_t n = 0;
    uint32_t k;

    if (!f || !refs || !r || !cdf) {
        fprintf(stderr, "trace_bench: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    for (k = 0; k < pages; k++)
        cdf[k] = (sum += 1.0 / pow(k + 1.0, sh->zipf_s));
    for (k = 0; k < pages; k++)
        cdf[k] /= sum;
    cm_rng_seed(&rng, 20240601);
    for (i = 0; i < records; i++) {
        uint32_t pick = cm_rng_below(&rng, 100), unit, bytes, b;
        uint64_t lba; /* in 512-byte sectors, as SPC counts */

        if (pick < 60) { /* Zipf page, scattered over the ASUs by a hash */
            uint64_t page =
                az_hash(zipf_draw(cdf, pages, cm_rng_unit(&rng))) % (4ull * pages);
            unit = (uint32_t)(page % 4);
            lba = page / 4 * 8;
            bytes = 4096;
        } else if (pick < 85) { /* the loop: 8 blocks a record */
            unit = 3;
            lba = (2000000 + loop_pos) * 8;
            loop_pos = (loop_pos + 8) % LOOP_BLOCKS;
            bytes = 32768;
        } else if (!sh->cold_random) { /* cold: never seen before, in order */
            unit = (uint32_t)(cold_next % 4);
            lba = (10000000 + (cold_next / 4) * 2) * 8;
            cold_next++;
            bytes = 8192;
        } else { /* cold: a random sector of a 1 TiB span above the others */
            unit = cm_rng_below(&rng, 4);
            lba = COLD_BASE + (uint64_t)cm_rng_below(&rng, COLD_SECTORS / 8) * 8 +
                  cm_rng_below(&rng, 8);
            bytes = 8192;
        }
        ts_us += cm_rng_below(&rng, 200);
        fprintf(f, "%u,%" PRIu64 ",%u,%c,%" PRIu64 ".%06" PRIu64 "\n", unit, lba, bytes,
                cm_rng_below(&rng, 10) < 7 ? 'R' : 'W', ts_us / 1000000, ts_us % 1000000);
        r[i].unit = unit;
        r[i].first = lba / 8;
        r[i].n = (uint32_t)((lba * 512 + bytes + 4095) / 4096 - r[i].first);
        for (b = 0; b < r[i].n; b++) {
            refs[n].unit = unit;
            refs[n++].block = r[i].first + b;
        }
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "trace_bench: %s: write error\n", path);
        exit(1);
    }
    free(cdf);
    *nrefs = n;
    *recs = r;
    return refs;
}

static void parse(const char *path)
{
    struct tr_reader r;
    struct tr_record rec;
    char err[CM_ERR_LEN];
    uint64_t t0 = cpu_ns(), n = 0, bytes = 0;
    int rc;

    if (tr_reader_open(&r, path, NULL, NULL, err, sizeof(err)) < 0) {
        fprintf(stderr, "trace_bench: %s\n", err);
        exit(1);
    }
    while ((rc = tr_reader_next(&r, &rec)) > 0) {
        n++;
        bytes += rec.length;
    }
    if (rc < 0) {
        fprintf(stderr, "trace_bench: %s\n", r.last_error);
        exit(1);
    }
    printf("parse (SPC reader)        %9" PRIu64
           " records in %.3f s: %6.2f M records/s (%.0f MB moved)\n",
           n, secs(t0), (double)n / secs(t0) / 1e6, (double)bytes / 1e6);
    tr_reader_close(&r);
}

#define REPS      3
#define WINDOW    256 /* records a batch */
#define SEEDS     10  /* hash seeds of the accuracy table (argument 3) */
#define MAX_SEEDS 1000

/* Runs one configuration into a fresh *m, by records or (recs NULL) by
 * references; returns CPU seconds. */
static double run_once(struct az_mrc *m, const struct az_mrc_opts *o,
                       const struct rec *recs, size_t nrecs, const struct ref *refs,
                       size_t nrefs)
{
    char err[CM_ERR_LEN];
    struct tr_record tr[WINDOW];
    uint64_t t0;
    size_t i, k;
    int rc;

    if (az_mrc_init(m, o, err, sizeof(err)) < 0) {
        fprintf(stderr, "trace_bench: %s\n", err);
        exit(1);
    }
    memset(tr, 0, sizeof(tr));
    t0 = cpu_ns();
    /* in windows of records, as sfs_trace's feed gives them (with the
     * hints of az_mrc_records) */
    for (i = 0; recs && i < nrecs; i += k) {
        for (k = 0; k < WINDOW && i + k < nrecs; k++) {
            tr[k].op = TR_OP_READ;
            tr[k].unit = recs[i + k].unit;
            tr[k].offset = recs[i + k].first * 4096;
            tr[k].length = (uint64_t)recs[i + k].n * 4096;
        }
        if (az_mrc_records(m, tr, k, &rc) < k) {
            fprintf(stderr, "trace_bench: %s\n", m->last_error);
            exit(1);
        }
    }
    for (i = 0; !recs && i < nrefs; i++)
        if (az_mrc_ref(m, refs[i].unit, refs[i].block) < 0) {
            fprintf(stderr, "trace_bench: out of memory\n");
            exit(1);
        }
    az_mrc_finish(m);
    return secs(t0);
}

static void report(const char *label, const struct az_mrc *m, size_t n, double s)
{
    size_t judy = 0, total = az_sd_mem(m->main.sd, &judy) + az_mrc_sample_mem(m);

    printf("%-34s %10zu refs in %.3f s: %6.2f M refs/s; memory %.1f MB (Judy %.1f MB), "
           "%" PRIu64 " renumberings\n",
           label, n, s, (double)n / s / 1e6, (double)total / 1e6, (double)judy / 1e6,
           az_sd_compactions(m->main.sd));
}

/* The floor: the JudyL block map alone (insert or find, store the time),
 * what every Judy-based method pays before it counts anything. */
static void judyl_floor(const struct ref *refs, size_t n)
{
    Pvoid_t map = NULL;
    uint64_t t0 = cpu_ns();
    size_t i;

    for (i = 0; i < n; i++) {
        PWord_t pv =
            (PWord_t)JudyLIns(&map, (Word_t)az_key(refs[i].unit, refs[i].block), PJE0);
        if (pv == PJERR)
            exit(1);
        *pv = i + 1;
    }
    printf("%-34s %10zu refs in %.3f s: %6.2f M refs/s\n", "JudyL map alone", n, secs(t0),
           (double)n / secs(t0) / 1e6);
    JudyLFreeArray(&map, PJE0);
}

static int same_histograms(const struct az_mrc *a, const struct az_mrc *b)
{
    size_t i;

    if (a->main.total.cold != b->main.total.cold ||
        a->main.total.max_depth != b->main.total.max_depth)
        return 0;
    for (i = 0; i < a->bins.n; i++)
        if (a->main.total.count[i] != b->main.total.count[i])
            return 0;
    return 1;
}

/* The accuracy table: for each hash seed, the sampled curve at rate 0.001
 * against the exact one at every power of two up to the footprint: the mean
 * absolute error of the hit ratio, the largest error at one size and where,
 * and the expected error the sampled run reports. */
static void accuracy(const struct az_mrc *exact, struct az_mrc_opts *o,
                     const struct rec *recs, size_t nrecs, const struct ref *refs,
                     size_t n, unsigned seeds)
{
    static struct az_mrc sh;
    uint64_t sizes[40], h[40];
    double b[40], mae_sum = 0, mae_max = 0, exp_sum = 0, rd = 0;
    size_t nsizes = 0, i;
    unsigned seed, over = 0;

    if (!seeds)
        return;
    for (i = 1; i <= az_sd_unique(exact->main.sd) * 2 && nsizes < 40; i *= 2)
        sizes[nsizes++] = i;
    az_mrc_ratios(exact, &exact->main, &exact->main.total, sizes, nsizes, b, h);
    printf("sampled 0.001 against exact, C = 1..2^%zu blocks:\n", nsizes - 1);
    printf("  %4s %10s %10s %12s %10s %10s %10s\n", "seed", "mean_err", "worst_err",
           "worst_at", "exp_there", "expected", "watched");
    o->method = AZ_SD_FENWICK;
    o->sample_rate = 0.001;
    for (seed = 0; seed < seeds; seed++) {
        double a[40], at[40], mae = 0, worst = 0, e;
        size_t worst_at = 0;

        o->sample_seed = seed;
        run_once(&sh, o, recs, nrecs, refs, n);
        az_mrc_ratios(&sh, &sh.main, &sh.main.total, sizes, nsizes, a, h);
        for (i = 0; i < nsizes; i++) {
            double d = fabs(a[i] - b[i]);
            mae += d / (double)nsizes;
            if (d > worst) {
                worst = d;
                worst_at = i;
            }
        }
        e = az_mrc_expected_error(&sh, sizes, nsizes, at);
        printf("  %4u %10.4f %10.4f %12" PRIu64 " %10.4f %10.4f %10" PRIu64 "%s\n", seed,
               mae, worst, sizes[worst_at], at[worst_at], e, sh.main.sampled,
               mae >= 0.02 ? "  OVER 0.02" : "");
        mae_sum += mae;
        exp_sum += e;
        mae_max = mae > mae_max ? mae : mae_max;
        over += mae >= 0.02;
        rd = az_mrc_distance_rate(&sh);
        az_mrc_free(&sh);
    }
    printf("sampled 0.001 (distance sample %g) over %u seeds: mean error %.4f, largest "
           "%.4f, %u of %u at or over 0.02; mean expected error %.4f\n",
           rd, seeds, mae_sum / seeds, mae_max, over, seeds, exp_sum / seeds);
}

int main(int argc, char **argv)
{
    uint64_t records = 0, seeds = SEEDS;
    struct az_mrc_opts o = {.block_size = 4096};
    static struct az_mrc fen, per_ref, j1, sh;
    const struct shape *shape = &shapes[0];
    char err[CM_ERR_LEN];
    struct ref *refs;
    struct rec *recs;
    size_t n, nrecs, i;
    double tf = 1e30, tp = 1e30, tj = 1e30, ts = 1e30, t;
    int same, rep, accuracy_only = 0, generate_only = 0;

    for (; argc > 1 && argv[1][0] == '-' && argv[1][1] == '-'; argc--, argv++) {
        if (strcmp(argv[1], "--accuracy") == 0) {
            accuracy_only = 1;
        } else if (strcmp(argv[1], "--generate") == 0) {
            generate_only = 1;
        } else if (strncmp(argv[1], "--shape=", 8) == 0) {
            for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
                if (strcmp(argv[1] + 8, shapes[i].name) == 0)
                    shape = &shapes[i];
            if (strcmp(argv[1] + 8, shape->name) != 0)
                break; /* unknown: usage below */
        } else {
            break;
        }
    }
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: trace_bench [--accuracy | --generate] "
                        "[--shape=bench|footprint|flat] FILE.spc [RECORDS [SEEDS "
                        "[DISTANCE_RATE]]]\n");
        return 2;
    }
    if ((argc > 2 && cm_parse_u64("RECORDS", argv[2], 1, 100000000, &records, err,
                                  sizeof(err)) < 0) ||
        (argc > 3 &&
         cm_parse_u64("SEEDS", argv[3], 0, MAX_SEEDS, &seeds, err, sizeof(err)) < 0) ||
        (argc > 4 && cm_parse_double("DISTANCE_RATE", argv[4], 0, 1, &o.distance_rate,
                                     err, sizeof(err)) < 0)) {
        fprintf(stderr, "trace_bench: %s\n", err);
        return 2;
    }
    if (!records)
        records = shape->records;
    refs = generate(argv[1], shape, records, &n, &recs);
    nrecs = (size_t)records;
    printf("generated the %s trace: %" PRIu64 " records, %zu references -> %s\n",
           shape->name, records, n, argv[1]);
    if (generate_only) {
        free(recs);
        free(refs);
        return 0;
    }
    if (accuracy_only) { /* the exact curve once, then the seeds */
        run_once(&fen, &o, recs, nrecs, refs, n);
        accuracy(&fen, &o, recs, nrecs, refs, n, (unsigned)seeds);
        az_mrc_free(&fen);
        free(recs);
        free(refs);
        return 0;
    }
    parse(argv[1]);
    judyl_floor(refs, n);
    for (rep = 0; rep < REPS; rep++) {
        if (rep) {
            az_mrc_free(&fen);
            az_mrc_free(&per_ref);
            az_mrc_free(&j1);
            az_mrc_free(&sh);
        }
        o.sample_rate = 0;
        o.method = AZ_SD_FENWICK;
        t = run_once(&fen, &o, recs, nrecs, refs, n);
        tf = t < tf ? t : tf;
        t = run_once(&per_ref, &o, NULL, 0, refs, n);
        tp = t < tp ? t : tp;
        o.method = AZ_SD_JUDY1;
        t = run_once(&j1, &o, recs, nrecs, refs, n);
        tj = t < tj ? t : tj;
        o.method = AZ_SD_FENWICK;
        o.sample_rate = 0.001;
        t = run_once(&sh, &o, recs, nrecs, refs, n);
        ts = t < ts ? t : ts;
    }
    printf("best of %d runs each (CPU seconds, one core):\n", REPS);
    report("exact, map+Fenwick, by record", &fen, n, tf);
    report("exact, map+Fenwick, by reference", &per_ref, n, tp);
    report("exact, Judy1Count, by record", &j1, n, tj);
    report("sampled, rate 0.001, by record", &sh, n, ts);
    same = same_histograms(&fen, &j1) && same_histograms(&fen, &per_ref);
    printf("ratio by record / by reference: %.2fx\n", tp / tf);
    printf("ratio map+Fenwick / Judy1Count: %.2fx (identical histograms: %s)\n", tj / tf,
           same ? "yes" : "NO");
    printf("ratio sampled 0.001 / exact: %.2fx\n", tf / ts);
    accuracy(&fen, &o, recs, nrecs, refs, n, (unsigned)seeds);
    az_mrc_free(&fen);
    az_mrc_free(&per_ref);
    az_mrc_free(&j1);
    az_mrc_free(&sh);
    free(recs);
    free(refs);
    return same ? 0 : 1;
}
