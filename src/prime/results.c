/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * results.c - the result files in WORK_DIR (docs/DECISIONS.md D10;
 * docs/SFS30.md §15, §16): per suffix SFX
 *   sfssum.SFX       one line per finished point (docs/SFS30.md §16.5), appended;
 *   sfsres.SFX       the aggregate report of every point, then the run's
 *                    summary (invalid points, run-rule gaps, overall
 *                    response time), appended a block at a time;
 *   sfsres.SFX.yaml  everything machine-readable, replaced atomically after
 *                    every point;
 *   sfsres.SFX.png   the throughput/response-time curve (gnuplot);
 * besides sfslog.SFX (the prime's log), sfscNNN.SFX (client NNN's output)
 * and sfsval.SFX (validation) that mgr.c and point.c write.  A finished
 * point is never lost: each append is one write of a whole block, the rest
 * is replaced by rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/curve.h"
#include "ctl/ct.h"
#include "prime/pr_int.h"

#define RULE_POINTS   10   /* docs/SFS30.md §17.2: at least 10 evenly spaced points */
#define RULE_PEAK_PCT 10.0 /* the peak within 10 % of its request */
#define RULE_RESP_MS  40.0
#define RULE_PROCS    8 /* processes per network (per server address here) */

/* Appends text in one write (O_APPEND), then fsync. */
static int append(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644), e = 0;

    if (fd < 0)
        return -errno;
    if (write(fd, text, len) != (ssize_t)len)
        e = errno ? -errno : -EIO;
    if (e == 0 && fsync(fd) < 0)
        e = -errno;
    close(fd);
    return e;
}

static void report_in(const struct pr_ctx *ctx, const struct pr_point *pt,
                      struct ld_report_in *in)
{
    memset(in, 0, sizeof(*in));
    in->prog = ctx->run->prog;
    in->host = "aggregate";
    in->when = pt->ended;
    in->cfg = &pt->su.cfg;
    in->mix = &pt->su.mix;
    in->iodist = &pt->su.iodist;
    in->sizing = &pt->su.sizing;
    in->stats = &pt->agg.merged;
    in->wstats = pt->agg.wmerged;
    in->proto = pt->su.results.proto;
    in->pstats = ld_results_proto(&pt->su.results, pt->agg.wmerged);
    in->agg = &pt->agg.agg;
    in->work = pt->su.wl->report;
    in->wl = pt->su.wl;
}

/* A point that finished and measured something (not POPULATE). */
static int measured(const struct pr_ctx *ctx, const struct pr_point *pt)
{
    return pt->finished && !ctx->run->populate_only;
}

/* Whether the run's points are LOAD's (the SFS mix), else a workload's own
 * (a replay's speeds). */
static int load_points(const struct pr_run *run)
{
    return (run->wl->report->flags & LD_REPORT_LOAD) != 0;
}

/* What a point of a workload whose points are not LOAD's asked for:
 * "requested 8.98 records/s (the trace at speed 2)" once it is measured,
 * else what it was to run ("replay of t.spc at speed 2"). */
static void asked(const struct pr_ctx *ctx, const struct pr_point *pt, char *buf,
                  size_t len)
{
    const struct pr_run *run = ctx->run;
    char req[256];

    if (measured(ctx, pt)) {
        struct ld_report_in in;

        report_in(ctx, pt, &in);
        in.work->requested(&in, 1, req, sizeof(req));
        snprintf(buf, len, "requested %s", req);
    } else {
        run->wl->point_text(&run->cfg, pr_point_values(run, pt->index), pt->load, buf,
                            len);
    }
}

static void fill_sum(const struct pr_ctx *ctx, struct pr_point *pt)
{
    const struct ld_config *c = &pt->su.cfg;
    struct pr_sum *s = &pt->sum;

    s->invalid = pt->val.code != LD_VALID;
    s->requested = (uint64_t)c->load * ctx->run->nclients;
    if (!(ctx->run->wl->report->flags & LD_REPORT_LOAD)) {
        /* a trace's rate, not LOAD's (docs/sfs_mgr.md, "Replay points"):
         * the column holds whole numbers, as SFS's */
        struct ld_report_in in;

        report_in(ctx, pt, &in);
        pt->rate = in.work->requested_rate ? in.work->requested_rate(&in) : 0;
        s->requested = (uint64_t)llround(pt->rate);
    }
    s->ops = (double)pt->agg.agg.ops_x100 / 100.0;
    s->resp = (double)pt->agg.agg.resp_x100 / 100.0;
    s->total_ops = pt->agg.merged.op[NF_OP_TOTAL].good;
    s->time_s = pt->agg.agg.runtime_s;
    s->nfs_version = ctx->run->nfs_version;
    s->tcp = c->tcp;
    s->fileset_kb = pt->agg.merged.total_kb;
    s->clients = ctx->run->nclients;
    s->procs = (unsigned)c->procs;
    s->biod_reads = (unsigned)c->biod_reads;
    s->biod_writes = (unsigned)c->biod_writes;
}

/* The point's block of sfsres: parameters, the aggregate report, the
 * INVALID lines and one line per client (with every reason it is
 * INVALID, in plain words). */
static void res_block(const struct pr_ctx *ctx, const struct pr_point *pt, FILE *f)
{
    struct ld_report_in in;
    char when[32];
    unsigned k;

    ctime_r(&pt->started, when);
    when[24] = '\0';
    if (load_points(ctx->run)) {
        fprintf(f,
                "\n==== Run %u of %u: requested %u ops/s (%u per client), started %s "
                "====\n",
                pt->index + 1, ctx->run->npoints, pt->load, pt->load / ctx->run->nclients,
                when);
    } else {
        char what[LD_PATH_MAX + 320];

        asked(ctx, pt, what, sizeof(what));
        fprintf(f, "\n==== Run %u of %u: %s, started %s ====\n", pt->index + 1,
                ctx->run->npoints, what, when);
    }
    if (!pt->finished) {
        fprintf(f, "FAILED: %s\n", pt->error);
        return;
    }
    if (ctx->run->populate_only) {
        fprintf(f,
                "POPULATE: the file sets are in place on %u client(s); nothing was "
                "measured\n",
                ctx->run->nclients);
        return;
    }
    report_in(ctx, pt, &in);
    ld_report_params(f, &in);
    ld_report_client(f, &in, NULL);
    for (k = 0; k < (unsigned)pt->val.nlines; k++)
        fprintf(f, "%s: %s\n", ctx->run->prog, pt->val.line[k]);
    fprintf(f, "Per client:\n");
    for (k = 0; k < ctx->run->nclients; k++) {
        const struct pr_client_sum *cs = &pt->clients[k];
        fprintf(f,
                "  client %3u %-24s %9.2f ops/s %8.2f ms %9" PRIu64 " ops %5" PRIu64
                " s  %s\n",
                cs->num, cs->host, (double)cs->ops_x100 / 100.0,
                (double)cs->resp_x100 / 100.0, cs->calls, cs->runtime_s,
                cs->code == LD_VALID ? "valid"
                : cs->reasons[0]     ? cs->reasons
                                     : ld_invalid_text(cs->code));
    }
    fprintf(f, "sfssum: %s", pt->finished ? "" : "(none)\n");
}

/* ---- the run's summary (docs/SFS30.md §17.2, §17.3)
 * -----------------------------------------------
 */

struct summary {
    double ort;
    unsigned valid, finished;
    double peak_ops; /* the rightmost valid point's throughput */
    double top_ops;  /* the most any measured point achieved */
    char gaps[8][256];
    int ngaps;
};

static void CM_PRINTF(2, 3) gap(struct summary *s, const char *fmt, ...)
{
    va_list ap;

    if (s->ngaps >= 8)
        return;
    va_start(ap, fmt);
    vsnprintf(s->gaps[s->ngaps++], sizeof(s->gaps[0]), fmt, ap);
    va_end(ap);
}

/* Processes per server address: the "per network" of the run rules. */
static void procs_per_server(const struct pr_run *run, struct summary *s)
{
    char hosts[64][128];
    unsigned count[64] = {0};
    unsigned nh = 0, k, i;
    int m;

    for (k = 0; k < run->nclients; k++) {
        const struct pr_client *c = &run->clients[k];
        for (m = 0; m < run->procs; m++) {
            const char *mp = c->mounts[c->nmounts == 1 ? 0 : m % c->nmounts];
            char h[128];
            size_t n;
            if (strncmp(mp, "nfs://", 6) == 0)
                mp += 6;
            n = strcspn(mp, ":/");
            snprintf(h, sizeof(h), "%.*s", (int)n, mp);
            for (i = 0; i < nh && strcmp(hosts[i], h) != 0; i++)
                ;
            if (i == nh && nh < 64)
                snprintf(hosts[nh++], sizeof(hosts[0]), "%s", h);
            if (i < 64)
                count[i]++;
        }
    }
    for (i = 0; i < nh; i++)
        if (count[i] < RULE_PROCS)
            gap(s,
                "fewer than %d processes for server address %s (%u; docs/SFS30.md §17.2)",
                RULE_PROCS, hosts[i], count[i]);
}

static void summarise(const struct pr_ctx *ctx, const struct pr_point *pts, unsigned npts,
                      struct summary *s)
{
    const struct pr_run *run = ctx->run;
    double x[PR_MAX_POINTS], y[PR_MAX_POINTS];
    unsigned k, even = 1;

    memset(s, 0, sizeof(*s));
    for (k = 0; k < npts; k++) {
        if (!measured(ctx, &pts[k]))
            continue;
        s->finished++;
        if (pts[k].sum.ops > s->top_ops)
            s->top_ops = pts[k].sum.ops;
        if (pts[k].sum.invalid)
            continue;
        x[s->valid] = pts[k].sum.ops;
        y[s->valid] = pts[k].sum.resp;
        s->valid++;
        if (pts[k].sum.resp > RULE_RESP_MS)
            gap(s, "run %u: response %.1f ms is above %.0f ms", k + 1, pts[k].sum.resp,
                RULE_RESP_MS);
    }
    /* the metric is the rightmost valid point's (docs/SFS30.md §17.2 rule
     * 7): none without a valid point */
    s->ort = cm_curve_overall(x, y, s->valid, &s->peak_ops);
    for (k = 2; k < run->npoints; k++)
        even &= run->points[k] - run->points[k - 1] == run->points[1] - run->points[0];
    if (run->npoints < RULE_POINTS || !even)
        gap(s, "%u load point(s)%s: SFS asks for at least %d evenly spaced ones",
            run->npoints, even ? "" : ", not evenly spaced", RULE_POINTS);
    /* a replay asks for its trace's rate, which its dependencies and window
     * may hold it below: not SFS's peak rule (docs/sfs_mgr.md, "Replay
     * points") */
    if (npts > 0 && pts[npts - 1].finished && load_points(run)) {
        const struct pr_point *p = &pts[npts - 1];
        if (p->sum.ops < (double)p->sum.requested * (1.0 - RULE_PEAK_PCT / 100.0))
            gap(s,
                "the highest point reached %.0f of %" PRIu64 " ops/s, more than %.0f %% "
                "short",
                p->sum.ops, p->sum.requested, RULE_PEAK_PCT);
    }
    procs_per_server(run, s);
    if (run->cfg.warmup_s != LD_STD_WARMUP_S || run->cfg.runtime_s != LD_STD_RUNTIME_S)
        gap(s, "warm-up %d s and run time %d s: both must be %d s", run->cfg.warmup_s,
            run->cfg.runtime_s, LD_STD_RUNTIME_S);
}

/* "Run 2 (200 ops/s)", or "Run 2, requested 8.98 records/s (the trace at
 * speed 2)" (asked). */
static void run_name(const struct pr_ctx *ctx, const struct pr_point *p, char *buf,
                     size_t len)
{
    char what[LD_PATH_MAX + 320];

    if (load_points(ctx->run)) {
        snprintf(buf, len, "Run %u (%u ops/s)", p->index + 1, p->load);
        return;
    }
    asked(ctx, p, what, sizeof(what));
    snprintf(buf, len, "Run %u, %s", p->index + 1, what);
}

/* "Run 2 (200 ops/s): 200.9 ops/s, response time 0.11 ms, p99 0.30 ms". */
static void point_line(const struct pr_ctx *ctx, const struct pr_point *p, FILE *f)
{
    double resp = p->sum.resp;
    double p99 = cm_hist_quantile_ms(&p->agg.merged.op[NF_OP_TOTAL].hist, 0.99);
    char name[LD_PATH_MAX + 360];

    run_name(ctx, p, name, sizeof(name));
    fprintf(f, "%s: %.1f ops/s, response time %.*f ms, p99 %.*f ms\n", name, p->sum.ops,
            ld_ms_decimals(resp), resp, ld_ms_decimals(p99), p99);
}

/* Under a summary's table: what its Load column holds when it is not
 * LOAD's. */
static void load_note(const struct pr_run *run, FILE *f)
{
    if (!load_points(run) && run->wl->report->load_column)
        fprintf(f,
                "Load: %s, rounded (0: as fast as it may go); the replay asks for it, "
                "Ops/s is what it achieved\n",
                run->wl->report->load_column);
}

/* LOAD=auto: how far the points got from the peak the search found. */
static void search_reach(const struct pr_ctx *ctx, const struct summary *s, FILE *f)
{
    char line[512];

    if (ctx->search == NULL || s->finished == 0)
        return;
    pr_search_reach(ctx->search, s->top_ops, line, sizeof(line));
    fprintf(f, "%s\n", line);
}

static void summary_text(const struct pr_ctx *ctx, const struct pr_point *pts,
                         unsigned npts, const struct summary *s, FILE *f)
{
    unsigned k;
    int i;

    fprintf(f, "\n==== Summary of %u run(s) ====\n", npts);
    for (k = 0; k < npts; k++)
        if (pts[k].finished && !ctx->run->populate_only)
            point_line(ctx, &pts[k], f);
    for (k = 0; k < npts; k++) {
        char name[LD_PATH_MAX + 360];

        run_name(ctx, &pts[k], name, sizeof(name));
        if (!pts[k].finished)
            fprintf(f, "%s: FAILED: %s\n", name, pts[k].error);
        else if (pts[k].sum.invalid) {
            char why[4096];

            ld_validity_words(&pts[k].val, why, sizeof(why));
            fprintf(f, "%s: INVALID (%s): not on the curve%s%s\n", name,
                    ld_invalid_text(pts[k].val.code), why[0] ? ": " : "", why);
        }
    }
    if (s->finished > 0)
        load_note(ctx->run, f);
    if (s->valid > 0)
        fprintf(f,
                "%.0f SPECsfs97_R1.v%d ops per second with an overall response time of "
                "%.2f ms\n",
                s->peak_ops, ctx->run->nfs_version, s->ort);
    else
        fprintf(f, "No valid point: no overall response time.\n");
    search_reach(ctx, s, f);
    for (i = 0; i < s->ngaps; i++)
        fprintf(f, "Run rules: %s\n", s->gaps[i]);
    if (s->ngaps == 0)
        fprintf(
            f, "Run rules: no gap found by sfs_mgr (the disclosure rules still apply)\n");
}

/* ---- YAML ------------------------------------------------------------------------- */

/* The aggregate's parameters: the point's options with its aggregate load,
 * every client and every client's mount points (the point's own setup has
 * one client's share of the load and no mount points).  mounts is freed
 * by the caller (NULL when there are none or no memory: the list is then
 * left empty). */
static void agg_cfg(const struct pr_run *run, const struct pr_point *p,
                    struct ld_config *cfg, char ***mounts)
{
    size_t n = 0, k = 0;
    unsigned j;
    int i;

    *cfg = p->su.cfg;
    cfg->load = (int)p->load;
    for (j = 0; j < run->nclients; j++)
        n += (size_t)run->clients[j].nmounts;
    *mounts = n ? cm_calloc(n, sizeof(**mounts)) : NULL;
    if (*mounts == NULL)
        return;
    for (j = 0; j < run->nclients; j++)
        for (i = 0; i < run->clients[j].nmounts; i++)
            (*mounts)[k++] = run->clients[j].mounts[i];
    cfg->mounts = *mounts;
    cfg->nmounts = (int)n;
}

static int write_yaml(const struct pr_ctx *ctx, const struct pr_point *pts, unsigned npts,
                      const struct summary *s, int final)
{
    const struct pr_run *run = ctx->run;
    char path[LD_PATH_MAX + 64], err[CM_ERR_LEN];
    size_t ncf;
    const struct cm_field *cf = pr_client_sum_fields(&ncf);
    struct cm_yaml *y;
    unsigned k, j;
    int i;

    pr_result_path(run, "sfsres", path, sizeof(path));
    strcat(path, ".yaml");
    y = cm_yaml_open(path, err, sizeof(err));
    if (y == NULL) {
        fprintf(ctx->opts->diag, "%s: %s: %s\n", ctx->opts->name, path, err);
        return -EIO;
    }
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "rc_file", run->rc_path);
    cm_yaml_kv_str(y, "suffix", run->suffix);
    cm_yaml_kv_str(y, "work_dir", run->work_dir);
    cm_yaml_kv_str(y, "program", run->prog);
    cm_yaml_kv_uint(y, "clients", run->nclients);
    cm_yaml_kv_bool(y, "complete", final);
    if (ctx->search)
        pr_search_yaml(ctx->search, run->npoints, s->top_ops, y);
    cm_yaml_key(y, "points");
    cm_yaml_seq_begin(y);
    for (k = 0; k < npts; k++) {
        const struct pr_point *p = &pts[k];
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "run", k + 1);
        if (load_points(run)) /* else the workload's rate, once measured */
            cm_yaml_kv_uint(y, "requested_load", p->load);
        cm_yaml_kv_bool(y, "finished", p->finished);
        if (!p->finished) {
            cm_yaml_kv_str(y, "error", p->error);
        } else {
            struct ld_report_in in;
            struct ld_config cfg;
            char line[256], **mounts;
            report_in(ctx, p, &in);
            agg_cfg(run, p, &cfg, &mounts);
            in.cfg = &cfg;
            if (!load_points(run)) {
                char req[256];

                in.work->requested(&in, 1, req, sizeof(req));
                cm_yaml_kv_double(y, "requested_load", p->rate, 6);
                cm_yaml_kv_str(y, "requested", req);
            }
            pr_sfssum_format(&p->sum, line, sizeof(line));
            line[strcspn(line, "\n")] = '\0';
            cm_yaml_kv_str(y, "sfssum", line);
            cm_yaml_kv_bool(y, "valid", !p->sum.invalid);
            /* every reason of every client, each once, in plain words */
            cm_yaml_key(y, "invalid_reasons");
            cm_yaml_seq_begin(y);
            for (i = 0; i < p->val.nlines; i++)
                if (ld_validity_new_words(&p->val, i))
                    cm_yaml_str(y, p->val.words[i]);
            cm_yaml_seq_end(y);
            cm_yaml_key(y, "clients");
            cm_yaml_seq_begin(y);
            for (j = 0; j < run->nclients; j++) {
                const struct pr_client_sum *cs = &p->clients[j];
                cm_yaml_map_begin(y);
                cm_fields_yaml(y, cf, ncf, cs, "");
                cm_yaml_map_end(y);
            }
            cm_yaml_seq_end(y);
            cm_yaml_key(y, "aggregate");
            cm_yaml_map_begin(y);
            ld_report_yaml_emit(y, &in, &p->val);
            cm_yaml_map_end(y);
            free(mounts);
        }
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_key(y, "summary");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "finished_points", s->finished);
    cm_yaml_kv_uint(y, "valid_points", s->valid);
    if (s->valid > 0) { /* as the text: no metric without a valid point */
        cm_yaml_kv_double(y, "peak_throughput_ops", s->peak_ops, 2);
        cm_yaml_kv_double(y, "overall_response_ms", s->ort, 3);
    }
    cm_yaml_key(y, "run_rule_gaps");
    cm_yaml_seq_begin(y);
    for (i = 0; i < s->ngaps; i++)
        cm_yaml_str(y, s->gaps[i]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
    cm_yaml_map_end(y);
    if (cm_yaml_close(y, err, sizeof(err)) < 0) {
        fprintf(ctx->opts->diag, "%s: %s\n", ctx->opts->name, err);
        return -EIO;
    }
    return 0;
}

/* ---- the picture
 * ------------------------------------------------------------------------ */

static void picture(const struct pr_ctx *ctx, const struct pr_point *pts, unsigned npts,
                    char *note, size_t notelen)
{
    const struct pr_run *run = ctx->run;
    static struct pr_plot_point pt[PR_MAX_POINTS];
    char path[LD_PATH_MAX + 64], title[256];
    size_t n = 0;
    unsigned k;
    int rc;

    for (k = 0; k < npts; k++)
        if (measured(ctx, &pts[k]))
            pt[n++] = (struct pr_plot_point){pts[k].sum.ops, pts[k].sum.resp,
                                             !pts[k].sum.invalid};
    pr_result_path(run, "sfsres", path, sizeof(path));
    strcat(path, ".png");
    snprintf(title, sizeof(title), "FreeSFS %s, %s: %u client(s)", run->prog, run->suffix,
             run->nclients);
    rc = pr_plot_curve(path, title, pt, n, note, notelen);
    if (rc == 0)
        snprintf(note, notelen, "%s", path);
}

/* ---- entry points
 * ----------------------------------------------------------------------- */

int pr_results_point(const struct pr_ctx *ctx, struct pr_point *pts, unsigned npts)
{
    struct pr_point *pt = &pts[npts - 1];
    char path[LD_PATH_MAX + 64], line[256], note[512];
    char *buf = NULL;
    size_t len = 0;
    struct summary s;
    FILE *f;
    int rc = 0;

    if (measured(ctx, pt)) {
        fill_sum(ctx, pt);
        pr_sfssum_format(&pt->sum, line, sizeof(line));
        pr_result_path(ctx->run, "sfssum", path, sizeof(path));
        rc = append(path, line, strlen(line));
    }
    f = open_memstream(&buf, &len);
    if (f == NULL)
        return -ENOMEM;
    res_block(ctx, pt, f);
    if (measured(ctx, pt))
        fputs(line, f);
    fclose(f);
    pr_result_path(ctx->run, "sfsres", path, sizeof(path));
    if (rc == 0)
        rc = append(path, buf, len);
    free(buf);
    if (rc < 0)
        fprintf(ctx->opts->diag, "%s: %s: %s\n", ctx->opts->name, path, strerror(-rc));
    summarise(ctx, pts, npts, &s);
    if (write_yaml(ctx, pts, npts, &s, 0) < 0 && rc == 0)
        rc = -EIO;
    picture(ctx, pts, npts, note, sizeof(note));
    return rc;
}

int pr_results_final(const struct pr_ctx *ctx, struct pr_point *pts, unsigned npts,
                     FILE *out)
{
    char path[LD_PATH_MAX + 64], note[512];
    char *buf = NULL;
    size_t len = 0;
    struct summary s;
    unsigned k;
    FILE *f;
    int rc;

    summarise(ctx, pts, npts, &s);
    f = open_memstream(&buf, &len);
    if (f == NULL)
        return -ENOMEM;
    summary_text(ctx, pts, npts, &s, f);
    picture(ctx, pts, npts, note, sizeof(note));
    fprintf(f, "Curve: %s\n", note);
    fclose(f);
    pr_result_path(ctx->run, "sfsres", path, sizeof(path));
    rc = append(path, buf, len);
    free(buf);
    if (write_yaml(ctx, pts, npts, &s, 1) < 0 && rc == 0)
        rc = -EIO;
    pr_result_path(ctx->run, "sfssum", path, sizeof(path));
    for (k = 0; k < npts && !measured(ctx, &pts[k]); k++)
        ;
    if (k == npts) /* no sfssum file was written: do not point at one */
        fprintf(out, "Summary: no sfssum line (no point was measured)\n");
    else
        fprintf(out, "Summary (%s):\n%s", path, pr_summary_header());
    for (k = 0; k < npts; k++) {
        char line[256];
        if (!measured(ctx, &pts[k]))
            continue;
        pr_summary_format(&pts[k].sum, line, sizeof(line));
        fputs(line, out);
    }
    if (s.finished > 0)
        load_note(ctx->run, out);
    if (s.valid > 0)
        fprintf(out, "Overall response time: %.2f ms at a peak of %.0f ops/s\n", s.ort,
                s.peak_ops);
    search_reach(ctx, &s, out);
    pr_result_path(ctx->run, "sfsres", path, sizeof(path));
    fprintf(out, "Report: %s\nYAML:   %s.yaml\nCurve:  %s\n", path, path, note);
    return rc;
}
