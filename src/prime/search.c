/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * search.c - LOAD=auto (docs/sfs_mgr.md, "LOAD=auto"): a user who does not
 * know the server's capacity gets a whole curve in one command.  sfs_mgr
 * first runs a ramp of short probes - the first at PR_AUTO_FIRST ops/s
 * per process, each next one four times the last - until a probe achieves
 * less than 90 % of its request (the server is saturated: what it achieved
 * is its peak; a closed loop of SFS processes gives all the server can) or PR_SEARCH_MAX
 * probes ran.  Then it runs NUM_RUNS points evenly spaced up to 20 % past the peak, so
 * that the curve has SFS's evenly spaced points with the peak among them.  20 %, not
 * less: short probes find the peak within about 10 % from one run to the next, and
 * the last point must be past the real one for the curve to show its knee.  The probes
 * are a search, not results: they are in sfslog and in a block of sfsres that says so,
 * never in sfssum.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/yaml.h"
#include "common/exit.h"
#include "ctl/ct.h"
#include "load/live.h"
#include "prime/pr_int.h"

#define FACTOR    4u   /* each probe asks this many times the last */
#define SHORT_PCT 90.0 /* a probe below this share of its request is saturated */
#define PAST_PEAK 1.2  /* the last point: this much past the peak */

/* One probe at load on probe (a copy of the run with one point); 0, or -1
 * with the cause on diag. */
static int probe(struct pr_ctx *ctx, struct pr_run *pr, struct pr_search *s,
                 unsigned load)
{
    const struct pr_run *run = ctx->run;
    char label[64], text[128];
    struct pr_point pt;
    unsigned i = s->n;
    int rc;

    pr->points[0] = load;
    snprintf(label, sizeof(label), "probe %u", i + 1);
    snprintf(text, sizeof(text), "Searching the peak: probe %u at %u ops/s ...", i + 1,
             load);
    fprintf(ctx->log, "LOAD=auto: probe %u at %u ops/s (%d s warm-up, %d s run)\n", i + 1,
            load, pr->cfg.warmup_s, pr->cfg.runtime_s);
    if (ctx->meter)
        pr_meter_point(ctx->meter, label, text,
                       run->auto_points * pr_meter_point_s(ctx->meter, run->cfg.warmup_s,
                                                           run->cfg.runtime_s));
    else
        fputs(text, ctx->opts->out);
    fflush(ctx->opts->out);
    if (ct_token_new(ctx->token) < 0) {
        fprintf(ctx->opts->diag, "%s: no random token: %s\n", ctx->opts->name,
                strerror(errno));
        return -1;
    }
    ctx->run = pr;
    rc = pr_point_run(ctx, 0, &pt);
    ctx->run = run;
    if (rc == 0) {
        s->load[i] = load;
        s->ops[i] = (double)pt.agg.agg.ops_x100 / 100.0;
        s->resp[i] = (double)pt.agg.agg.resp_x100 / 100.0;
        s->n++;
        snprintf(text, sizeof(text), " %.1f ops/s, %.*f ms", s->ops[i],
                 ld_ms_decimals(s->resp[i]), s->resp[i]);
        fprintf(ctx->log, "LOAD=auto: probe %u at %u ops/s achieved%s\n", i + 1, load,
                text);
    } else {
        snprintf(text, sizeof(text), " FAILED");
        fprintf(ctx->opts->diag, "%s: the search's probe %u (%u ops/s) failed: %s\n",
                ctx->opts->name, i + 1, load, pt.error);
    }
    if (ctx->meter)
        pr_meter_point_end(ctx->meter, text, pr->cfg.warmup_s, pr->cfg.runtime_s);
    else
        fprintf(ctx->opts->out, "%s\n", text);
    fflush(ctx->opts->out);
    pr_point_free(&pt);
    return rc;
}

/* auto_points evenly spaced up to PAST_PEAK x peak, multiples of the
 * number of clients (each gets the same share). */
static void choose(const struct pr_run *run, struct pr_search *s)
{
    unsigned n = run->auto_points, c = run->nclients, k;
    double top = s->peak * PAST_PEAK;
    unsigned step = (unsigned)(top / n / c + 0.5) * c;

    if (step < c)
        step = c;
    for (k = 0; k < n; k++)
        s->points[k] = step * (k + 1);
}

int pr_search_run(struct pr_ctx *ctx, struct pr_search *s, struct pr_run *real)
{
    const struct pr_run *run = ctx->run;
    struct pr_run pr = *run;
    unsigned load = run->points[0], one;

    memset(s, 0, sizeof(*s));
    s->points = cm_calloc(run->auto_points, sizeof(*s->points));
    if (s->points == NULL) {
        fprintf(ctx->opts->diag, "%s: out of memory\n", ctx->opts->name);
        return CM_EXIT_FAILED;
    }
    pr.points = &one;
    pr.npoints = 1;
    pr.cfg.warmup_s = s->warmup_s =
        run->cfg.warmup_s < PR_PROBE_WARMUP_S ? run->cfg.warmup_s : PR_PROBE_WARMUP_S;
    pr.cfg.runtime_s = s->runtime_s =
        run->cfg.runtime_s < PR_PROBE_RUN_S ? run->cfg.runtime_s : PR_PROBE_RUN_S;
    fprintf(ctx->opts->out,
            "LOAD=auto: searching the peak with probes of %d s warm-up and %d s run "
            "(a search, not results), then %u points up to just past it\n",
            s->warmup_s, s->runtime_s, run->auto_points);
    while (s->n < PR_SEARCH_MAX) {
        if (probe(ctx, &pr, s, load) < 0)
            return *ctx->interrupted ? CM_EXIT_INTR : CM_EXIT_FAILED;
        if (s->ops[s->n - 1] > s->peak)
            s->peak = s->ops[s->n - 1];
        if (s->ops[s->n - 1] < (double)load * SHORT_PCT / 100.0) {
            s->saturated = 1;
            break;
        }
        if (load > 100000000u / FACTOR)
            break;
        load *= FACTOR;
    }
    choose(run, s);
    *real = *run;
    real->points = s->points;
    real->npoints = run->auto_points;
    fprintf(ctx->opts->out,
            "LOAD=auto: peak %s%.0f ops/s; points:", s->saturated ? "" : "at least ",
            s->peak);
    fprintf(ctx->log,
            "LOAD=auto: peak %s%.0f ops/s; points:", s->saturated ? "" : "at least ",
            s->peak);
    for (one = 0; one < real->npoints; one++) {
        fprintf(ctx->opts->out, " %u", real->points[one]);
        fprintf(ctx->log, " %u", real->points[one]);
    }
    fputc('\n', ctx->opts->out);
    fputc('\n', ctx->log);
    fflush(ctx->opts->out);
    return CM_EXIT_OK;
}

void pr_search_report(const struct pr_search *s, FILE *f)
{
    unsigned k;

    fprintf(f,
            "\n==== LOAD=auto: the search for the peak (a search, not results; "
            "%d s warm-up and %d s run per probe) ====\n",
            s->warmup_s, s->runtime_s);
    for (k = 0; k < s->n; k++)
        fprintf(f, "Probe %u: %u ops/s requested, %.1f achieved, response time %.*f ms\n",
                k + 1, s->load[k], s->ops[k], ld_ms_decimals(s->resp[k]), s->resp[k]);
    fprintf(f, "Peak: %s%.0f ops/s%s\n", s->saturated ? "" : "at least ", s->peak,
            s->saturated ? "" : " (no probe saturated the server)");
}

void pr_search_yaml(const struct pr_search *s, unsigned npoints, struct cm_yaml *y)
{
    unsigned k;

    cm_yaml_key(y, "search");
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "what",
                   "LOAD=auto: the search for the peak (a search, not results)");
    cm_yaml_kv_int(y, "probe_warmup_s", s->warmup_s);
    cm_yaml_kv_int(y, "probe_runtime_s", s->runtime_s);
    cm_yaml_key(y, "probes");
    cm_yaml_seq_begin(y);
    for (k = 0; k < s->n; k++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "probe", k + 1);
        cm_yaml_kv_uint(y, "requested_load", s->load[k]);
        cm_yaml_kv_double(y, "achieved_ops", s->ops[k], 2);
        cm_yaml_kv_double(y, "response_ms", s->resp[k], 2);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_double(y, "peak_ops", s->peak, 2);
    cm_yaml_kv_bool(y, "saturated", s->saturated);
    cm_yaml_key(y, "points_chosen");
    cm_yaml_flow_seq_begin(y);
    for (k = 0; s->points && k < npoints; k++)
        cm_yaml_uint(y, s->points[k]);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
}
