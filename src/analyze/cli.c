/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.c - the sfs_trace command behind cli.h.  Each subcommand's table is
 * the common rows plus its own, composed at parse time, so that --help,
 * range errors and the YAML echo all come from the rows (common/opt.c) and
 * an option of another subcommand is an unknown option.  The runners open
 * the trace (tr_reader_open), feed the analysis (az_*_feed, reading on a
 * second thread by default), and hand the results to report.c, the YAML
 * writer and plot.c; convert is the trace layer's tr_convert_spc written
 * atomically.  The mrc run, the reader warnings and the YAML output are
 * shared with the NFS runners (cli_mrc.c, cli_out.c); NFS traces go to
 * nfs_cli.c and nfs_run.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "analyze/az.h"
#include "analyze/cli.h"
#include "analyze/cli_int.h"
#include "common/plot.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/num.h"
#include "common/atomic.h"
#include "common/yaml.h"

#define ROW_FLAG(l, f, h)                                                                \
    {                                                                                    \
        0, l, NULL, CM_OPT_FLAG, offsetof(struct az_cli, f), sizeof(int), NULL, 0, 1,    \
            NULL, NULL, h, NULL, NULL, CM_OPT_CLI_ONLY, AZ_EXIT_USAGE                    \
    }
#define ROW_STR(s, l, f, def, arg, h)                                                    \
    {                                                                                    \
        s, l, NULL, CM_OPT_STRING, offsetof(struct az_cli, f),                           \
            sizeof(((struct az_cli *)0)->f), def, 0, 0, NULL, arg, h, NULL, NULL,        \
            CM_OPT_CLI_ONLY, AZ_EXIT_USAGE                                               \
    }
#define ROW_NUM(type, l, f, def, lo, hi, unit, arg, h)                                   \
    {                                                                                    \
        0, l, NULL, type, offsetof(struct az_cli, f), sizeof(((struct az_cli *)0)->f),   \
            def, lo, hi, unit, arg, h, NULL, NULL, CM_OPT_CLI_ONLY, AZ_EXIT_USAGE        \
    }

static const struct cm_opt_enum methods[] = {
    {"fenwick", AZ_SD_FENWICK}, {"judy1", AZ_SD_JUDY1}, {NULL, 0}};

static const struct cm_opt common_rows[] = {
    ROW_STR(0, "format", format, "auto", "FORMAT",
            "Trace format: auto (from the content), spc, masta, sysio, pcap (pcap or "
            "pcapng capture) or nfsdump (NFS text trace)."),
    ROW_FLAG("lenient", lenient, "Skip and count malformed records instead of failing."),
    ROW_NUM(CM_OPT_I64, "lba-size", lba_size, "512", 1, 4294967295.0, "bytes", "N",
            "Bytes per SPC LBA."),
    ROW_STR(0, "yaml", yaml, "", "FILE", "Also write the results as YAML (atomically)."),
    ROW_NUM(CM_OPT_DOUBLE, "pair-window", pair_window, "120", 0.001, 86400, "s", "SEC",
            "NFS traces: how long (trace time) a call waits for its reply before it is "
            "unanswered; the calls held at once are bounded anyway (65536)."),
    {'q', "quiet", NULL, CM_OPT_FLAG, offsetof(struct az_cli, quiet), sizeof(int), NULL,
     0, 1, NULL, NULL, "No table on stdout.", NULL, NULL, CM_OPT_CLI_ONLY, AZ_EXIT_USAGE},
    ROW_NUM(CM_OPT_INT, "threads", threads, "2", 1, 2, NULL, "N",
            "Threads: 2 reads the trace on a second core while the first analyses."),
};

static const struct cm_opt live_rows[] = {
    ROW_STR('i', "interface", interface, "", "IFACE",
            "Capture live traffic on this interface (needs CAP_NET_RAW) instead of "
            "reading a TRACE; TRACE may then be the server's mount point, whose ports "
            "make the filter."),
    ROW_STR(0, "filter", filter, "", "BPF",
            "With --interface: a capture filter (pcap-filter(7)); default: the mount "
            "point's host and ports, else every packet."),
    ROW_NUM(CM_OPT_DOUBLE, "duration", duration, "0", 0, 31536000, "s", "SEC",
            "With --interface: stop after SEC seconds (0: at SIGINT or SIGTERM)."),
    ROW_NUM(CM_OPT_I64, "count", count, "0", 0, 4611686018427387904.0, "packets", "N",
            "With --interface: stop after N packets (0: no bound)."),
    ROW_NUM(CM_OPT_INT, "buffer-mb", buffer_mb, "64", 1, 65536, "MiB", "N",
            "With --interface: the kernel's capture buffer (a short one drops packets "
            "while sfs_trace is slow)."),
    ROW_STR('w', "write", write, "", "FILE",
            "With --interface: keep what was read as a pcapng file (written atomically "
            "at the end)."),
    ROW_NUM(CM_OPT_DOUBLE, "progress", progress, "0", 0, 86400, "s", "SEC",
            "A line every SEC seconds (of the capture, or of the trace's time) on "
            "stderr: calls/s, the top procedures, response times, drops; 0: none."),
};

static const struct cm_opt block_rows[] = {
    ROW_STR(0, "block-size", block_size, "4096", "N",
            "Analysis granularity in bytes (K, M suffixes)."),
};

static const struct cm_opt mrc_rows[] = {
    ROW_STR(0, "cache-sizes", cache_sizes, "", "LIST",
            "Cache sizes in blocks, ascending, comma separated (default: powers of two "
            "up to the footprint)."),
    ROW_FLAG("per-unit", per_unit,
             "Figures per unit (ASU, region, file) in the shared cache."),
    ROW_FLAG("per-unit-isolated", isolated,
             "Figures per unit, each with a cache of its own."),
    ROW_NUM(CM_OPT_DOUBLE, "sample", sample, "0", 0, 1, NULL, "RATE",
            "Sampled: the curve from a uniform sample of the references at RATE; 0 = "
            "exact."),
    ROW_NUM(CM_OPT_DOUBLE, "sample-distance-rate", sample_distance, "0", 0, 1, NULL,
            "RATE",
            "With --sample, the distance sample's rate (0 = 16 x --sample, at most 1): "
            "higher is more accurate near a cliff of the curve and takes more memory."),
    ROW_FLAG("sample-check", sample_check,
             "With --sample, also run exact and report the mean absolute error."),
    ROW_NUM(CM_OPT_I64, "sample-seed", sample_seed, "0", 0, 4611686018427387904.0, NULL,
            "N", "With --sample, another seed samples other references and blocks."),
    {0, "method", NULL, CM_OPT_ENUM, offsetof(struct az_cli, method), sizeof(int),
     "fenwick", 0, 0, NULL, "M",
     "Distance counting: fenwick, or judy1 (the application note's Judy1Count, slower, "
     "same result).",
     methods, NULL, CM_OPT_CLI_ONLY, AZ_EXIT_USAGE},
    ROW_NUM(CM_OPT_I64, "max-record-blocks", max_record_blocks, "16777216", 1,
            4611686018427387904.0, "blocks", "N",
            "Refuse (or with --lenient count and skip) a record of more blocks."),
    ROW_STR(0, "plot", plot, "", "FILE",
            "Draw the miss-ratio curve with gnuplot (.png or .svg; skipped with a note "
            "without gnuplot)."),
};

static const struct cm_opt convert_rows[] = {
    ROW_STR(0, "to", to, "", "spc|nfsdump",
            "Output format, required: spc (SPC text, from a block trace; what SPC cannot "
            "express is counted) or nfsdump (NFS text, from an NFS trace)."),
    ROW_STR('o', "output", output, "-", "FILE",
            "Output file (- = stdout), written atomically."),
    ROW_STR(0, "anonymize", anonymize, "", "KEY",
            "--to nfsdump: replace names, handles, paths and addresses by a keyed hash "
            "of themselves (the same KEY anonymises two traces alike)."),
};

static const struct cm_opt plan_rows[] = {
    ROW_STR('o', "output", output, "", "FILE",
            "The plan file, required, written atomically; give it as --trace to sfs3 "
            "(or sfs, sfs4) and TRACE_FILE to sfs_mgr."),
    ROW_NUM(CM_OPT_INT, "nfs-version", nfs_version, "3", 2, 4, NULL, "V",
            "The calls planned: the trace's NFSv3 calls (replayed by sfs3), NFSv2 "
            "(sfs) or NFSv4 (the operations of its COMPOUNDs, replayed by sfs4)."),
};

static const struct cm_opt fit_rows[] = {
    ROW_STR('o', "output", output, "", "NAME",
            "Required: write NAME.mix, NAME.iodist and NAME_rc (NAME may name a "
            "directory), each atomically."),
    ROW_STR(
        0, "mount", mount, "", "MOUNT-POINT",
        "The server the fitted workload runs on (MNT_POINTS; default: \"$SFS_MOUNT\")."),
    ROW_NUM(CM_OPT_INT, "points", points, "4", 1, 100, "points", "N",
            "Load points of the rc file: 1x to Nx the trace's rate."),
    ROW_STR(0, "compare", compare, "", "TRACE",
            "Also fit this trace (the fitted run's capture) and report both side by "
            "side with their distances."),
    ROW_STR(0, "plot", plot, "", "FILE",
            "Draw the miss-ratio curve (and --compare's) in one picture (.png or .svg)."),
};

struct cmd {
    const char *name, *what;
    const struct cm_opt *rows[3];
    size_t n[3];
};

static const struct cmd cmds[] = {
    {"stats",
     "statistics: records, bytes, sizes, units, rate, footprint",
     {block_rows, live_rows, NULL},
     {CM_ARRAY_LEN(block_rows), CM_ARRAY_LEN(live_rows), 0}},
    {"mrc",
     "LRU stack distances, the miss-ratio curve (or a sample)",
     {block_rows, mrc_rows, live_rows},
     {CM_ARRAY_LEN(block_rows), CM_ARRAY_LEN(mrc_rows), CM_ARRAY_LEN(live_rows)}},
    {"image",
     "the file-system image an NFS trace implies",
     {NULL, NULL, NULL},
     {0, 0, 0}},
    {"fit",
     "an SFS workload fitted to an NFS trace (mix, rc file...)",
     {block_rows, fit_rows, live_rows},
     {CM_ARRAY_LEN(block_rows), CM_ARRAY_LEN(fit_rows), CM_ARRAY_LEN(live_rows)}},
    {"convert",
     "block traces to SPC text, NFS traces to nfsdump text",
     {convert_rows, NULL, NULL},
     {CM_ARRAY_LEN(convert_rows), 0, 0}},
    {"plan",
     "NFS traces: plan the replay once; replays stream the file",
     {plan_rows, NULL, NULL},
     {CM_ARRAY_LEN(plan_rows), 0, 0}},
};

static const struct cmd *find_cmd(const char *name)
{
    size_t i;

    for (i = 0; name && i < CM_ARRAY_LEN(cmds); i++)
        if (strcmp(cmds[i].name, name) == 0)
            return &cmds[i];
    return NULL;
}

/* common rows + the command's, into c->rows. */
static void compose(struct az_cli *c, const struct cmd *cmd)
{
    size_t i, j;

    c->nrows = 0;
    for (i = 0; i < CM_ARRAY_LEN(common_rows); i++)
        c->rows[c->nrows++] = common_rows[i];
    for (i = 0; i < 3 && cmd->rows[i]; i++)
        for (j = 0; j < cmd->n[i]; j++)
            c->rows[c->nrows++] = cmd->rows[i][j];
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);

    return n > k && strcasecmp(s + n - k, suffix) == 0;
}

int az_cli_parse(struct az_cli *c, int argc, char **argv, char *err, size_t errlen)
{
    const struct cmd *cmd;
    const struct cm_opt *bad;
    int first, rc;

    memset(c, 0, sizeof(*c));
    if (argc < 2)
        return cm_errf(err, errlen,
                       "missing command (stats, mrc, image, fit, convert or plan)");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
        return AZ_CLI_HELP;
    if (!(cmd = find_cmd(argv[1])))
        return cm_errf(err, errlen,
                       "unknown command '%s' (stats, mrc, image, fit, convert or plan)",
                       argv[1]);
    c->cmd = cmd->name;
    compose(c, cmd);
    if (cm_opt_defaults(c->rows, c->nrows, c, NULL, err, errlen) < 0)
        return -EINVAL;
    /* argv + 1: getopt takes the command for the program's name */
    rc = cm_opt_parse_argv(c->rows, c->nrows, c, NULL, argc - 1, argv + 1, &first, &bad,
                           err, errlen);
    if (rc == 1)
        return AZ_CLI_HELP;
    if (rc < 0)
        return -EINVAL;
    if (strcmp(c->format, "auto") != 0 && !tr_find_format(c->format) &&
        strcmp(c->format, "pcap") != 0 && strcmp(c->format, "nfsdump") != 0)
        return cm_errf(
            err, errlen,
            "--format: '%s' is not one of auto, spc, masta, sysio, pcap, nfsdump",
            c->format);
    if (c->interface[0]) {
        if (first < argc - 2)
            return cm_errf(err, errlen,
                           "%s --interface: at most one argument (the server's mount "
                           "point)",
                           c->cmd);
        c->trace = first == argc - 2 ? argv[argc - 1] : NULL;
        if (strcmp(c->format, "auto") != 0 && strcmp(c->format, "pcap") != 0)
            return cm_errf(err, errlen, "--interface: a live capture is --format pcap");
        if (strcmp(c->cmd, "mrc") == 0 && c->sample == 0)
            return cm_errf(err, errlen,
                           "mrc --interface needs --sample RATE: a live capture has no "
                           "end to bound the exact curve's memory");
    } else {
        if (first != argc - 2)
            return cm_errf(err, errlen, "%s: expected exactly one TRACE argument",
                           c->cmd);
        c->trace = argv[argc - 1];
        if (c->filter[0] || c->write[0] || c->duration > 0 || c->count > 0)
            return cm_errf(err, errlen,
                           "--filter, --write, --duration and --count need --interface");
    }
    if (strcmp(c->cmd, "convert") == 0 && strcmp(c->to, "spc") != 0 &&
        strcmp(c->to, "nfsdump") != 0)
        return cm_errf(err, errlen, "convert needs --to spc or --to nfsdump");
    if (strcmp(c->cmd, "plan") == 0 && !c->output[0])
        return cm_errf(err, errlen, "plan needs -o FILE (the plan file)");
    if (c->anonymize[0] && strcmp(c->to, "nfsdump") != 0)
        return cm_errf(err, errlen, "--anonymize needs --to nfsdump");
    if (c->plot[0] && !has_suffix(c->plot, ".png") && !has_suffix(c->plot, ".svg"))
        return cm_errf(err, errlen, "--plot: '%s' must be a .png or .svg file", c->plot);
    if (c->sample_check && c->sample == 0)
        return cm_errf(err, errlen, "--sample-check needs --sample RATE");
    if (strcmp(c->cmd, "fit") == 0 && !c->output[0])
        return cm_errf(err, errlen, "fit needs -o NAME (the files it writes)");
    return 0;
}

void az_cli_help(FILE *out, const char *name)
{
    const struct cmd *only = find_cmd(name);
    struct az_cli c;
    size_t i;

    fprintf(out, "usage: sfs_trace stats|mrc|image|fit|convert|plan TRACE [options]\n"
                 "(TRACE may be -)\n"
                 "Answers \"how does cache size affect performance?\" from an SPC, MaStA "
                 "or sysio\ntrace, or an NFS trace (a pcap/pcapng capture or nfsdump "
                 "text).\n");
    for (i = 0; i < CM_ARRAY_LEN(cmds); i++) {
        if (only && only != &cmds[i])
            continue;
        compose(&c, &cmds[i]);
        fprintf(out, "\nsfs_trace %s TRACE: %s\n", cmds[i].name, cmds[i].what);
        cm_opt_help(out, c.rows, c.nrows);
    }
    fprintf(out, "\nDistances are inclusive: the number of distinct blocks referenced "
                 "since the\nprevious reference of the same block, that block included "
                 "(the LRU stack depth);\na cache of C blocks hits iff distance <= C.  "
                 "Exit: 0 success, 1 bad input or\nfailure, 2 usage.\n");
}

/* ---- running ------------------------------------------------------------ */

static int run_stats(struct az_cli *c, struct tr_reader *r, uint64_t bs, FILE *out,
                     FILE *diag)
{
    struct az_source src = {
        .file = c->trace, .reader = r, .opts = c->rows, .nopts = c->nrows, .cfg = c};
    char err[CM_ERR_LEN];
    struct az_stats s;
    int code = AZ_EXIT_OK;

    az_stats_init(&s, bs);
    if (az_stats_feed(&s, r, c->threads, err, sizeof(err)) < 0) {
        fprintf(diag, "%s\n", err);
        code = AZ_EXIT_INPUT;
    }
    if (code == AZ_EXIT_OK && !c->quiet)
        az_stats_table(out, &src, &s);
    if (code == AZ_EXIT_OK && c->yaml[0]) {
        struct cm_yaml *y = az__cli_yaml_begin(c, diag);
        if (!y)
            code = AZ_EXIT_INPUT;
        else {
            az_stats_yaml(y, &src, &s);
            code = az__cli_yaml_end(y, diag);
        }
    }
    az_stats_free(&s);
    return code;
}

/* The block trace's feed: the reader on one or two threads. */
struct block_feed {
    struct tr_reader *r;
    int threads;
};

static int feed_block(struct az_mrc *m, void *data, char *err, size_t errlen)
{
    struct block_feed *f = data;

    return az_mrc_feed(m, f->r, f->threads, err, errlen);
}

static int run_convert(struct az_cli *c, struct tr_reader *r, FILE *out, FILE *diag)
{
    uint32_t lba = (uint32_t)c->lba_size;
    struct tr_convert_stats st;
    struct cm_atomic_file af;
    char err[CM_ERR_LEN];
    int to_file = strcmp(c->output, "-") != 0, rc;
    unsigned i;

    if (to_file && cm_atomic_open(&af, c->output, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return AZ_EXIT_INPUT;
    }
    rc = tr_convert_spc(r, to_file ? af.fp : out, lba, &st);
    if (rc < 0)
        fprintf(diag, "%s\n", r->last_error);
    if (to_file && rc < 0)
        cm_atomic_abort(&af);
    else if (to_file && cm_atomic_commit(&af, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        rc = -EIO;
    }
    fprintf(diag,
            "sfs_trace: convert: %" PRIu64 " SPC records (LBA size %u bytes; units "
            "numbered as in the source",
            st.written, lba);
    for (i = 0; i < TR_OP__COUNT; i++)
        if (st.dropped[i])
            fprintf(diag, "; %" PRIu64 " %s dropped", st.dropped[i],
                    tr_op_name((enum tr_op)i));
    if (st.rounded)
        fprintf(diag, "; %" PRIu64 " unaligned offsets rounded down", st.rounded);
    if (st.clamped)
        fprintf(diag, "; %" PRIu64 " timestamps raised to keep SPC order", st.clamped);
    fprintf(diag, ")\n");
    return rc < 0 ? AZ_EXIT_INPUT : AZ_EXIT_OK;
}

int az_cli_run(struct az_cli *c, FILE *out, FILE *diag)
{
    struct az__warn_state w = {diag, 0};
    struct tr_options topt = {.format = c->format,
                              .lenient = c->lenient,
                              .spc_lba_size = (uint32_t)c->lba_size,
                              .warn = az__cli_warning,
                              .warn_data = &w};
    char err[CM_ERR_LEN];
    uint64_t bs = 4096, *sizes = NULL;
    size_t n = 0;
    struct tr_reader r;
    const char *nfs = c->interface[0] ? "pcap" : az_nfs_format(c);
    int code;

    if (strcmp(c->cmd, "plan") == 0) { /* the NFS replay's, above this layer */
        if (!nfs) {
            fprintf(diag, "sfs_trace: plan needs an NFS trace (pcap or nfsdump): %s\n",
                    c->trace);
            return AZ_EXIT_INPUT;
        }
        return c->plan ? c->plan(c, out, diag) : AZ_EXIT_USAGE;
    }
    if (nfs && strcmp(c->cmd, "convert") == 0)
        return az_nfs_convert(c, nfs, out, diag);
    if (strcmp(c->cmd, "convert") == 0 && strcmp(c->to, "nfsdump") == 0) {
        fprintf(diag, "sfs_trace: convert --to nfsdump needs an NFS trace (pcap or "
                      "nfsdump)\n");
        return AZ_EXIT_USAGE;
    }
    /* everything the options say is checked before the trace is read */
    if (c->block_size[0] &&
        (cm_parse_size("--block-size", c->block_size, &bs, err, sizeof(err)) < 0 ||
         (bs == 0 && cm_errf(err, sizeof(err), "--block-size: must be positive")))) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return AZ_EXIT_USAGE;
    }
    if (c->cache_sizes[0] &&
        az_cache_sizes(c->cache_sizes, 0, &sizes, &n, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return AZ_EXIT_USAGE;
    }
    if (strcmp(c->cmd, "fit") == 0) {
        free(sizes);
        if (!nfs) {
            fprintf(diag,
                    "sfs_trace: fit: %s is not an NFS trace (a capture or nfsdump "
                    "text; --format pcap or nfsdump)\n",
                    c->trace);
            return AZ_EXIT_INPUT;
        }
        return az__fit_run(c, nfs, bs, out, diag);
    }
    if (nfs) { /* stats, mrc, image */
        code = az__nfs_cli_run(c, nfs, bs, sizes, n, out, diag);
        free(sizes);
        return code;
    }
    if (c->progress > 0) {
        fprintf(diag, "sfs_trace: --progress: NFS traces and live captures only\n");
        free(sizes);
        return AZ_EXIT_USAGE;
    }
    if (strcmp(c->cmd, "image") == 0) {
        fprintf(diag,
                "sfs_trace: image: %s is not an NFS trace (--format pcap or nfsdump)\n",
                c->trace);
        return AZ_EXIT_INPUT;
    }
    if (tr_reader_open(&r, c->trace, NULL, &topt, err, sizeof(err)) < 0) {
        fprintf(diag, "%s\n", err);
        free(sizes);
        return AZ_EXIT_INPUT;
    }
    if (strcmp(c->cmd, "stats") == 0)
        code = run_stats(c, &r, bs, out, diag);
    else if (strcmp(c->cmd, "mrc") == 0) {
        struct az_source src = {
            .file = c->trace, .reader = &r, .opts = c->rows, .nopts = c->nrows, .cfg = c};
        struct block_feed f = {&r, c->threads};
        code = az__cli_mrc(c, &src, feed_block, &f, 0, bs, sizes, n, out, diag);
    } else
        code = run_convert(c, &r, out, diag);
    if (code == AZ_EXIT_OK && r.skipped)
        fprintf(diag, "sfs_trace: %s: %" PRIu64 " malformed records skipped\n", c->trace,
                r.skipped);
    tr_reader_close(&r);
    free(sizes);
    return code;
}
