/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * search.c - LOAD=auto (docs/sfs_mgr.md, "LOAD=auto"): a user who does not
 * know the server's capacity gets a whole curve in one command.  sfs_mgr
 * first runs a ramp of probes - the first at PR_AUTO_FIRST ops/s per
 * process, each next one four times the last - until a probe achieves less
 * than 90 % of its request (the server is saturated: a closed loop of SFS
 * processes gets all the server can give) or PR_SEARCH_MAX probes ran.  A
 * probe is a point in all but its name: the points' warm-up, file set,
 * clients and processes, and their run time up to PR_PROBE_RUN_S, so that
 * what a probe finds is what the points will meet.  The peak is then
 * confirmed: a probe far above it (twice it) must saturate again within 10 %
 * of it.  Far above, because a probe can only show what it asks: a figure
 * the clients lost calls to a starved machine for (their processes did not
 * get the CPU in time, and the server waited for them) looks like a
 * saturated server, and a confirmation 20 % past it could never find a
 * server with more to give.  When the confirmation does not agree - it got
 * much more (the peak was the clients'), or much less (the machine or the
 * server changed under the search) - its figure becomes the peak and
 * another confirmation follows, PR_CONFIRM_MAX at most.  Two figures that
 * agree give the higher one: a client that did not get the CPU only loses
 * calls, so the lower one is the likelier to fall short of the server.
 * Then NUM_RUNS points evenly spaced up to 20 % past the peak: SFS's
 * evenly spaced points, the last one past the knee (probes find the peak
 * within about 10 % from one run to the next).  After the points the summary
 * says how far the highest point got from the peak found: a curve that
 * falls short of it by more than 10 % says so.  The probes are a search, not
 * results: they are in sfslog and in a block of sfsres that says so, never
 * in sfssum.
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

#define FACTOR     4u   /* each ramp probe asks this many times the last */
#define SHORT_PCT  90.0 /* a probe below this share of its request is saturated */
#define AGREE_PCT  10.0 /* two saturated probes this close confirm the peak */
#define PAST_PEAK  1.2  /* the last point: this much past the peak */
#define ABOVE_PEAK 2.0  /* a confirmation asks this many times the peak */
#define LOAD_LIMIT 1e8  /* the highest load a probe asks (LOAD's range) */

void pr_search_times(const struct pr_run *run, int *warmup_s, int *runtime_s)
{
    *warmup_s = run->cfg.warmup_s;
    *runtime_s =
        run->cfg.runtime_s < PR_PROBE_RUN_S ? run->cfg.runtime_s : PR_PROBE_RUN_S;
}

/* The load of the last point for a peak: PAST_PEAK past it, a multiple of
 * the clients (each gets the same share), at least one per client. */
static unsigned top_load(double peak, unsigned nclients, unsigned npoints)
{
    unsigned step = (unsigned)(peak * PAST_PEAK / npoints / nclients + 0.5) * nclients;

    return (step < nclients ? nclients : step) * npoints;
}

/* A confirmation's load for a peak: ABOVE_PEAK times it, a multiple of the
 * clients, and never below the last point's (top_load). */
static unsigned confirm_load(double peak, unsigned nclients, unsigned npoints)
{
    unsigned top = top_load(peak, nclients, npoints);
    unsigned load = (unsigned)(peak * ABOVE_PEAK / nclients + 0.5) * nclients;

    return load > top ? load : top;
}

static int saturated(const struct pr_search *s, unsigned i)
{
    return s->ops[i] < (double)s->load[i] * SHORT_PCT / 100.0;
}

int pr_search_next(struct pr_search *s, unsigned nclients, unsigned npoints,
                   unsigned *load)
{
    unsigned i = s->n - 1, nconfirm = 0, k;
    double hi, lo;

    if (s->n == 0)
        return 0;
    if (!s->saturated) { /* the ramp */
        if (s->ops[i] > s->peak)
            s->peak = s->ops[i];
        if (!saturated(s, i)) {
            if (s->n >= PR_SEARCH_MAX || (double)s->load[i] * FACTOR > LOAD_LIMIT)
                return 0; /* never saturated: the peak is "at least" */
            *load = s->load[i] * FACTOR;
            s->confirm[s->n] = 0;
            return 1;
        }
        s->saturated = 1;
    } else { /* a confirmation */
        hi = s->ops[i] > s->peak ? s->ops[i] : s->peak;
        lo = s->ops[i] > s->peak ? s->peak : s->ops[i];
        if (saturated(s, i) && hi - lo <= hi * AGREE_PCT / 100.0) {
            s->peak = hi; /* the lower of two is the likelier starved one */
            s->settled = 1;
            return 0;
        }
        s->peak = s->ops[i]; /* moved: the latest figure is the one to confirm */
    }
    for (k = 0; k < s->n; k++)
        nconfirm += s->confirm[k];
    if (nconfirm >= PR_CONFIRM_MAX)
        return 0; /* not settled: the report says so */
    *load = confirm_load(s->peak, nclients, npoints);
    if (!saturated(s, i) && s->confirm[i] && *load < 2 * s->load[i])
        *load = 2 * s->load[i]; /* it gave all it was asked: ask clearly more */
    s->confirm[s->n] = 1;
    return 1;
}

/* One probe at load on probe (a copy of the run with one point); 0, or -1
 * with the cause on diag. */
static int probe(struct pr_ctx *ctx, struct pr_run *pr, struct pr_search *s,
                 unsigned load)
{
    const struct pr_run *run = ctx->run;
    const char *what = s->confirm[s->n] ? "Confirming the peak" : "Searching the peak";
    char label[64], text[160];
    struct pr_point pt;
    unsigned i = s->n;
    int rc;

    pr->points[0] = load;
    snprintf(label, sizeof(label), "probe %u", i + 1);
    snprintf(text, sizeof(text), "%s: probe %u at %u ops/s ...", what, i + 1, load);
    fprintf(ctx->log, "LOAD=auto: %s probe %u at %u ops/s (%d s warm-up, %d s run)\n",
            s->confirm[i] ? "confirmation" : "ramp", i + 1, load, pr->cfg.warmup_s,
            pr->cfg.runtime_s);
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
 * number of clients. */
static void choose(const struct pr_run *run, struct pr_search *s)
{
    unsigned n = run->auto_points, k;
    unsigned step = top_load(s->peak, run->nclients, n) / n;

    for (k = 0; k < n; k++)
        s->points[k] = step * (k + 1);
}

/* "peak 4180 ops/s, confirmed (the ramp's best 4260; confirmation 4180)" and
 * the like, into buf. */
static void peak_text(const struct pr_search *s, char *buf, size_t len)
{
    double ramp = 0;
    unsigned k, nconfirm = 0;
    size_t used;

    if (!s->saturated) {
        snprintf(buf, len, "peak at least %.0f ops/s (no probe saturated the server)",
                 s->peak);
        return;
    }
    for (k = 0; k < s->n; k++) {
        nconfirm += s->confirm[k];
        if (!s->confirm[k] && s->ops[k] > ramp)
            ramp = s->ops[k];
    }
    used = (size_t)snprintf(buf, len, "peak %.0f ops/s, %s (the ramp's best %.0f; %s",
                            s->peak, s->settled ? "confirmed" : "NOT settled", ramp,
                            nconfirm == 1 ? "confirmation" : "confirmations");
    for (k = 0; k < s->n && used < len; k++)
        if (s->confirm[k])
            used += (size_t)snprintf(buf + used, len - used, " %.0f", s->ops[k]);
    if (used < len)
        snprintf(buf + used, len - used, "%s",
                 s->settled ? ")"
                            : "; the server or this machine changed during the search)");
}

int pr_search_run(struct pr_ctx *ctx, struct pr_search *s, struct pr_run *real)
{
    const struct pr_run *run = ctx->run;
    struct pr_run pr = *run;
    unsigned load = run->points[0], one;
    char text[512];

    memset(s, 0, sizeof(*s));
    s->points = cm_calloc(run->auto_points, sizeof(*s->points));
    if (s->points == NULL) {
        fprintf(ctx->opts->diag, "%s: out of memory\n", ctx->opts->name);
        return CM_EXIT_FAILED;
    }
    pr.points = &one;
    pr.npoints = 1;
    pr_search_times(run, &s->warmup_s, &s->runtime_s);
    pr.cfg.warmup_s = s->warmup_s;
    pr.cfg.runtime_s = s->runtime_s;
    fprintf(ctx->opts->out,
            "LOAD=auto: searching the peak with probes of %d s warm-up and %d s run "
            "(a search, not results), then %u points up to just past it\n",
            s->warmup_s, s->runtime_s, run->auto_points);
    do {
        if (probe(ctx, &pr, s, load) < 0)
            return *ctx->interrupted ? CM_EXIT_INTR : CM_EXIT_FAILED;
    } while (pr_search_next(s, run->nclients, run->auto_points, &load));
    choose(run, s);
    *real = *run;
    real->points = s->points;
    real->npoints = run->auto_points;
    peak_text(s, text, sizeof(text));
    fprintf(ctx->opts->out, "LOAD=auto: %s; points:", text);
    fprintf(ctx->log, "LOAD=auto: %s; points:", text);
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
    char text[512];
    unsigned k;

    fprintf(f,
            "\n==== LOAD=auto: the search for the peak (a search, not results; "
            "%d s warm-up and %d s run per probe) ====\n",
            s->warmup_s, s->runtime_s);
    for (k = 0; k < s->n; k++)
        fprintf(f,
                "Probe %u%s: %u ops/s requested, %.1f achieved, response time %.*f ms\n",
                k + 1, s->confirm[k] ? " (confirmation)" : "", s->load[k], s->ops[k],
                ld_ms_decimals(s->resp[k]), s->resp[k]);
    peak_text(s, text, sizeof(text));
    text[0] = 'P';
    fprintf(f, "%s\n", text);
}

int pr_search_reach(const struct pr_search *s, double top, char *buf, size_t len)
{
    double pct = s->peak > 0 ? top / s->peak * 100.0 : 0;
    int short_ = pct < SHORT_PCT;

    snprintf(buf, len,
             "LOAD=auto: the points reached at most %.0f ops/s, %.0f %% of the peak the "
             "search found (%.0f ops/s)%s",
             top, pct, s->peak,
             short_ ? ": less than 90 % - the server or this machine changed after the "
                      "search, and the curve does not reach that peak"
                    : "");
    return short_;
}

void pr_search_yaml(const struct pr_search *s, unsigned npoints, double top,
                    struct cm_yaml *y)
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
        cm_yaml_kv_bool(y, "confirmation", s->confirm[k]);
        cm_yaml_kv_uint(y, "requested_load", s->load[k]);
        cm_yaml_kv_double(y, "achieved_ops", s->ops[k], 2);
        cm_yaml_kv_double(y, "response_ms", s->resp[k], 2);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_double(y, "peak_ops", s->peak, 2);
    cm_yaml_kv_bool(y, "saturated", s->saturated);
    cm_yaml_kv_bool(y, "confirmed", s->settled);
    cm_yaml_key(y, "points_chosen");
    cm_yaml_flow_seq_begin(y);
    for (k = 0; s->points && k < npoints; k++)
        cm_yaml_uint(y, s->points[k]);
    cm_yaml_seq_end(y);
    if (top > 0) {
        cm_yaml_kv_double(y, "points_top_ops", top, 2);
        cm_yaml_kv_double(y, "points_top_pct_of_peak",
                          s->peak > 0 ? top / s->peak * 100 : 0, 1);
    }
    cm_yaml_map_end(y);
}
