/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_trace.c - main() of sfs_trace: "how does cache size affect
 * performance?" answered from an I/O trace before it is replayed.
 * Subcommands: stats (trace statistics), mrc (exact LRU stack distances and
 * the miss-ratio curve, optionally SHARDS-sampled), convert (MaStA and sysio
 * to SPC text).  Parsing lives in src/trace, analysis and reports in
 * src/analyze; this file parses options, wires them together, prints, and
 * chooses exit codes: 0 success, 1 bad input or failure, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/az.h"

#define MAX_PRINTED_WARNINGS 20

struct args {
    const char *cmd, *trace, *yaml, *plot, *cache_sizes, *to, *output;
    struct tr_options topt;
    struct az_mrc_opts mopt;
    int quiet;
    unsigned long warned;
};

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: sfs_trace stats   TRACE [options]\n"
        "       sfs_trace mrc     TRACE [--block-size N] [--cache-sizes LIST] "
        "[--per-unit]\n"
        "                               [--per-unit-isolated] [--sample RATE "
        "[--sample-check]]\n"
        "                               [--method fenwick|judy1] [--plot FILE.png] "
        "[options]\n"
        "       sfs_trace convert TRACE --to spc [-o FILE] [options]\n"
        "\n"
        "Answers \"how does cache size affect performance?\" from an SPC, MaStA or\n"
        "sysio trace (TRACE may be - for stdin).\n"
        "\n"
        "common options:\n"
        "  --format spc|masta|sysio  trace format (default: detected from the content)\n"
        "  --lenient                 skip and count malformed records instead of "
        "failing\n"
        "  --lba-size N              bytes per SPC LBA (default 512)\n"
        "  --yaml FILE               also write the results as YAML (docs/sfs_trace.md)\n"
        "  -q, --quiet               no table on stdout\n"
        "stats and mrc:\n"
        "  --block-size N            analysis granularity in bytes (default 4096; K/M "
        "suffix)\n"
        "mrc:\n"
        "  --cache-sizes LIST        cache sizes in blocks, comma separated, ascending\n"
        "                            (default: powers of two up to the footprint)\n"
        "  --per-unit                figures per unit (ASU, region, file) in the shared "
        "cache\n"
        "  --per-unit-isolated       figures per unit, each unit with a cache of its "
        "own\n"
        "  --sample RATE             SHARDS: analyse the blocks whose hash falls below\n"
        "                            RATE (0 < RATE <= 1) and scale distances by 1/RATE\n"
        "  --sample-check            with --sample, also run exact and report the mean\n"
        "                            absolute error of the hit-ratio curve\n"
        "  --method fenwick|judy1    distance counting (default fenwick; judy1 is the\n"
        "                            application note's Judy1Count, slower, same "
        "result)\n"
        "  --plot FILE.png           draw the miss-ratio curve with gnuplot (skipped\n"
        "                            with a note when gnuplot is not installed)\n"
        "convert:\n"
        "  --to spc                  output format (SPC text; records that SPC cannot\n"
        "                            express are counted on stderr)\n"
        "  -o, --output FILE         output file (default stdout)\n"
        "\n"
        "Distance convention: inclusive. The distance of a reference is the number of\n"
        "distinct blocks referenced since the previous reference of the same block,\n"
        "that block included (the LRU stack depth, as Judy1Count counts in the Judy\n"
        "application note: its example gives 4). An LRU cache of C blocks hits a\n"
        "reference iff distance <= C; cold misses miss at every size; hit_ratio =\n"
        "hits / references. A record covers bytes [LBA*512, LBA*512+size) and\n"
        "references every block it touches, ascending; the key is (unit, block).\n");
}

static void on_warning(void *data, const char *msg)
{
    struct args *a = data;

    if (a->warned++ < MAX_PRINTED_WARNINGS)
        fprintf(stderr, "%s\n", msg);
    else if (a->warned == MAX_PRINTED_WARNINGS + 1)
        fprintf(stderr, "sfs_trace: further warnings are only counted\n");
}

static int parse_args(int argc, char **argv, struct args *a)
{
    enum {
        O_FORMAT = 256,
        O_LENIENT,
        O_LBA,
        O_YAML,
        O_BS,
        O_SIZES,
        O_PER_UNIT,
        O_ISO,
        O_SAMPLE,
        O_CHECK,
        O_METHOD,
        O_PLOT,
        O_TO
    };
    static const struct option longopts[] = {
        {"format", required_argument, NULL, O_FORMAT},
        {"lenient", no_argument, NULL, O_LENIENT},
        {"lba-size", required_argument, NULL, O_LBA},
        {"yaml", required_argument, NULL, O_YAML},
        {"block-size", required_argument, NULL, O_BS},
        {"cache-sizes", required_argument, NULL, O_SIZES},
        {"per-unit", no_argument, NULL, O_PER_UNIT},
        {"per-unit-isolated", no_argument, NULL, O_ISO},
        {"sample", required_argument, NULL, O_SAMPLE},
        {"sample-check", no_argument, NULL, O_CHECK},
        {"method", required_argument, NULL, O_METHOD},
        {"plot", required_argument, NULL, O_PLOT},
        {"to", required_argument, NULL, O_TO},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char err[CM_ERR_LEN];
    uint64_t v;
    int c;

    if (argc < 2)
        return -1;
    a->cmd = argv[1];
    if (strcmp(a->cmd, "-h") == 0 || strcmp(a->cmd, "--help") == 0) {
        usage(stdout);
        exit(0);
    }
    optind = 2;
    while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case O_FORMAT:
            a->topt.format = optarg;
            break;
        case O_LENIENT:
            a->topt.lenient = 1;
            break;
        case O_LBA:
            if (cm_parse_u64("--lba-size", optarg, 1, UINT32_MAX, &v, err, sizeof(err)) <
                0)
                goto bad;
            a->topt.spc_lba_size = (uint32_t)v;
            break;
        case O_YAML:
            a->yaml = optarg;
            break;
        case O_BS:
            if (cm_parse_size("--block-size", optarg, &v, err, sizeof(err)) < 0)
                goto bad;
            if (v == 0) {
                snprintf(err, sizeof(err), "--block-size: must be positive");
                goto bad;
            }
            a->mopt.block_size = v;
            break;
        case O_SIZES:
            a->cache_sizes = optarg;
            break;
        case O_PER_UNIT:
            a->mopt.per_unit = 1;
            break;
        case O_ISO:
            a->mopt.isolated = 1;
            break;
        case O_SAMPLE:
            if (cm_parse_double("--sample", optarg, 1e-9, 1.0, &a->mopt.sample_rate, err,
                                sizeof(err)) < 0)
                goto bad;
            break;
        case O_CHECK:
            a->mopt.sample_check = 1;
            break;
        case O_METHOD:
            if (strcmp(optarg, "judy1") == 0) {
                a->mopt.method = AZ_SD_JUDY1;
            } else if (strcmp(optarg, "fenwick") != 0) {
                snprintf(err, sizeof(err), "--method: '%s' is not fenwick or judy1",
                         optarg);
                goto bad;
            }
            break;
        case O_PLOT:
            a->plot = optarg;
            break;
        case O_TO:
            a->to = optarg;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'q':
            a->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            return -1;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "sfs_trace: expected exactly one TRACE argument\n");
        return -1;
    }
    a->trace = argv[optind];
    return 0;
bad:
    fprintf(stderr, "sfs_trace: %s\n", err);
    return -1;
}

/* Opens the YAML output (atomically replaced) or returns NULL on error. */
static struct cm_yaml *yaml_open(const char *path)
{
    char err[CM_ERR_LEN];
    struct cm_yaml *y = cm_yaml_open(path, err, sizeof(err));

    if (!y)
        fprintf(stderr, "sfs_trace: %s\n", err);
    return y;
}

static int yaml_close(struct cm_yaml *y)
{
    char err[CM_ERR_LEN];

    if (cm_yaml_close(y, err, sizeof(err)) < 0) {
        fprintf(stderr, "sfs_trace: %s\n", err);
        return 1;
    }
    return 0;
}

/* Feeds every record to fn; prints the reader's error.  0 or 1. */
static int each_record(struct tr_reader *r, int (*fn)(void *, const struct tr_record *),
                       void *data, const char *(*fn_err)(void *))
{
    struct tr_record rec;
    int rc;

    while ((rc = tr_reader_next(r, &rec)) > 0) {
        if (fn(data, &rec) < 0) {
            fprintf(stderr, "sfs_trace: %s: %s\n", r->file, fn_err(data));
            return 1;
        }
    }
    if (rc < 0) {
        fprintf(stderr, "%s\n", r->last_error);
        return 1;
    }
    if (r->skipped)
        fprintf(stderr, "sfs_trace: %s: %" PRIu64 " malformed records skipped\n", r->file,
                r->skipped);
    return 0;
}

/* ---- stats ---------------------------------------------------------------- */

static int stats_fn(void *d, const struct tr_record *rec)
{
    return az_stats_record(d, rec);
}

static const char *stats_err(void *d)
{
    return ((struct az_stats *)d)->last_error;
}

static int cmd_stats(struct args *a, struct tr_reader *r)
{
    struct az_stats s;
    struct az_source src = {a->trace, r};
    int rc;

    az_stats_init(&s, a->mopt.block_size);
    rc = each_record(r, stats_fn, &s, stats_err);
    if (rc == 0 && !a->quiet)
        az_stats_table(stdout, &src, &s);
    if (rc == 0 && a->yaml) {
        struct cm_yaml *y = yaml_open(a->yaml);
        if (!y)
            rc = 1;
        else {
            az_stats_yaml(y, &src, &s);
            rc = yaml_close(y);
        }
    }
    az_stats_free(&s);
    return rc;
}

/* ---- mrc ------------------------------------------------------------------ */

static int mrc_fn(void *d, const struct tr_record *rec)
{
    return az_mrc_record(d, rec);
}

static const char *mrc_err(void *d)
{
    return ((struct az_mrc *)d)->last_error;
}

static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    char dir[4096];

    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof(dir), "%.*s/gnuplot", (int)n, path);
        if (access(dir, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* Draws the curve with gnuplot into a PNG.  0 or 1. */
static int plot(const struct args *a, const struct az_mrc *m, const uint64_t *sizes,
                size_t n)
{
    char data[] = "/tmp/sfs_trace_plotXXXXXX";
    double *ratio = calloc(n, sizeof(*ratio));
    uint64_t *hits = calloc(n, sizeof(*hits));
    FILE *f, *gp;
    size_t i;
    int fd, rc = 1, st;

    if (!have_gnuplot()) {
        fprintf(stderr, "sfs_trace: gnuplot is not installed; no picture "
                        "(the table and YAML have the same curve)\n");
        free(ratio);
        free(hits);
        return 0;
    }
    fd = mkstemp(data);
    if (fd < 0 || !ratio || !hits || !(f = fdopen(fd, "w"))) {
        fprintf(stderr, "sfs_trace: cannot write the plot data: %s\n", strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(data);
        }
        free(ratio);
        free(hits);
        return 1;
    }
    az_mrc_ratios(m, &m->main, &m->main.total, sizes, n, ratio, hits);
    for (i = 0; i < n; i++)
        fprintf(f, "%" PRIu64 " %.9f\n", sizes[i], 1.0 - ratio[i]);
    fclose(f);
    gp = popen("gnuplot", "w");
    if (gp) {
        fprintf(gp,
                "set terminal pngcairo size 900,600 noenhanced\n"
                "set output '%s'\n"
                "set title 'miss-ratio curve: %s (block %" PRIu64 " B%s)'\n"
                "set xlabel 'cache size (blocks)'\nset ylabel 'miss ratio'\n"
                "set logscale x 2\nset yrange [0:1]\nset grid\n"
                "plot '%s' using 1:2 with linespoints title 'LRU miss ratio'\n",
                a->plot, a->trace, m->opt.block_size,
                m->threshold ? ", SHARDS sample" : "", data);
        st = pclose(gp);
        rc = (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) ? 0 : 1;
    }
    if (rc)
        fprintf(stderr, "sfs_trace: gnuplot failed to draw %s\n", a->plot);
    unlink(data);
    free(ratio);
    free(hits);
    return rc;
}

static int cmd_mrc(struct args *a, struct tr_reader *r)
{
    struct az_mrc m;
    struct az_source src = {a->trace, r};
    char err[CM_ERR_LEN];
    uint64_t *sizes = NULL;
    size_t n = 0;
    int rc;

    if (a->mopt.sample_check && a->mopt.sample_rate == 0) {
        fprintf(stderr, "sfs_trace: --sample-check needs --sample RATE\n");
        return 2;
    }
    /* A given list is checked before the trace is read. */
    if (a->cache_sizes &&
        az_cache_sizes(a->cache_sizes, 0, &sizes, &n, err, sizeof(err)) < 0) {
        fprintf(stderr, "sfs_trace: %s\n", err);
        return 2;
    }
    a->mopt.cache_sizes = sizes;
    a->mopt.ncache_sizes = n;
    if (az_mrc_init(&m, &a->mopt, err, sizeof(err)) < 0) {
        free(sizes);
        fprintf(stderr, "sfs_trace: %s\n", err);
        return 1;
    }
    rc = each_record(r, mrc_fn, &m, mrc_err);
    if (rc == 0 && !sizes &&
        az_cache_sizes(a->cache_sizes,
                       (uint64_t)((double)az_sd_unique(m.main.sd) *
                                  (m.threshold ? 1.0 / m.opt.sample_rate : 1.0)),
                       &sizes, &n, err, sizeof(err)) < 0) {
        fprintf(stderr, "sfs_trace: %s\n", err);
        rc = 2;
    }
    if (rc == 0 && !a->quiet)
        az_mrc_table(stdout, &src, &m, sizes, n);
    if (rc == 0 && a->yaml) {
        struct cm_yaml *y = yaml_open(a->yaml);
        if (!y)
            rc = 1;
        else {
            az_mrc_yaml(y, &src, &m, sizes, n);
            rc = yaml_close(y);
        }
    }
    if (rc == 0 && a->plot)
        rc = plot(a, &m, sizes, n);
    free(sizes);
    az_mrc_free(&m);
    return rc;
}

/* ---- convert -------------------------------------------------------------- */

static int cmd_convert(struct args *a, struct tr_reader *r)
{
    FILE *out = stdout;
    struct tr_record rec;
    uint64_t written = 0, dropped[TR_OP__COUNT] = {0}, rounded = 0, clamped = 0;
    int64_t last_ns = 0;
    uint32_t lba = a->topt.spc_lba_size ? a->topt.spc_lba_size : 512;
    unsigned i;
    int rc;

    if (!a->to || strcmp(a->to, "spc") != 0) {
        fprintf(stderr, "sfs_trace: convert needs --to spc\n");
        return 2;
    }
    if (a->output && strcmp(a->output, "-") != 0 && !(out = fopen(a->output, "w"))) {
        fprintf(stderr, "sfs_trace: %s: %s\n", a->output, strerror(errno));
        return 1;
    }
    while ((rc = tr_reader_next(r, &rec)) > 0) {
        if (rec.op != TR_OP_READ && rec.op != TR_OP_WRITE) {
            dropped[rec.op]++;
            continue;
        }
        if (rec.offset % lba) {
            /* Round the start down to the LBA; the size grows to keep the
             * same last byte.  Counted: use --lba-size 1 to be exact. */
            rec.length += rec.offset % lba;
            rec.offset -= rec.offset % lba;
            rounded++;
        }
        if (rec.t_ns < last_ns) {
            /* SPC timestamps never decrease; sysio streams are concatenated
             * but ran concurrently.  Keep file order, count the clamps. */
            rec.t_ns = last_ns;
            clamped++;
        }
        last_ns = rec.t_ns;
        if (tr_spc_write(out, &rec, lba) < 0) {
            fprintf(stderr, "sfs_trace: write error\n");
            rc = -EIO;
            break;
        }
        written++;
    }
    if (rc < 0 && rc != -EIO)
        fprintf(stderr, "%s\n", r->last_error);
    if (out != stdout && fclose(out) != 0 && rc == 0) {
        fprintf(stderr, "sfs_trace: %s: %s\n", a->output, strerror(errno));
        rc = -EIO;
    }
    fprintf(stderr,
            "sfs_trace: convert: %" PRIu64 " SPC records (LBA size %u "
            "bytes; units numbered as in the source",
            written, lba);
    for (i = 0; i < TR_OP__COUNT; i++)
        if (dropped[i])
            fprintf(stderr, "; %" PRIu64 " %s dropped", dropped[i],
                    tr_op_name((enum tr_op)i));
    if (rounded)
        fprintf(stderr, "; %" PRIu64 " unaligned offsets rounded down", rounded);
    if (clamped)
        fprintf(stderr, "; %" PRIu64 " timestamps raised to keep SPC order", clamped);
    fprintf(stderr, ")\n");
    return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    struct args a;
    struct tr_reader r;
    char err[CM_ERR_LEN];
    int rc;

    memset(&a, 0, sizeof(a));
    a.mopt.block_size = 4096;
    if (parse_args(argc, argv, &a) < 0) {
        usage(stderr);
        return 2;
    }
    if (strcmp(a.cmd, "stats") != 0 && strcmp(a.cmd, "mrc") != 0 &&
        strcmp(a.cmd, "convert") != 0) {
        fprintf(stderr, "sfs_trace: unknown command '%s'\n", a.cmd);
        usage(stderr);
        return 2;
    }
    a.topt.warn = on_warning;
    a.topt.warn_data = &a;
    if (tr_reader_open(&r, a.trace, NULL, &a.topt, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (strcmp(a.cmd, "stats") == 0)
        rc = cmd_stats(&a, &r);
    else if (strcmp(a.cmd, "mrc") == 0)
        rc = cmd_mrc(&a, &r);
    else
        rc = cmd_convert(&a, &r);
    tr_reader_close(&r);
    return rc;
}
