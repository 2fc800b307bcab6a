/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workload.c - the NFS trace replay as a workload (workload.h, nr.h,
 * docs/nfs_replay.md): chosen for a --trace that is a packet capture or
 * an nfsdump text trace; its plan reads the trace twice (the image, then
 * the calls and their dependencies) and prints one line; it has no
 * warm-up (a trace brings its own timing); its run lasts the trace at the
 * replay's speed, cut by -t.  sfs_mgr's points are TRACE_SPEED's speeds,
 * as the block replay's are (replaybase/points.c), or
 * TRACE_SCALE's copies.  The copies are dealt over the clients; the plan
 * maps the area a client's processes share (handles and completions per
 * copy), before the fork.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/error.h"
#include "common/alloc.h"
#include "common/rc.h"
#include "image/im.h"
#include "load/options.h"
#include "nreplay/nr_int.h"

/* The area the client's processes share (nr_plan's shm), before the fork:
 * per copy, the handles and the ring of completions; then a flag per
 * process. */
static int map_shared(struct nr_plan *p, const struct ld_config *cfg)
{
    size_t fh = ((size_t)im_nobjs(p->img) + 1) * sizeof(struct nf_fh);
    size_t copies = nr_client_copies(cfg, p->nstreams);

    p->shm_done_off = (fh + 63) & ~(size_t)63;
    p->shm_copy_bytes =
        (p->shm_done_off + (size_t)NR_LOOKAHEAD * sizeof(struct nr_done) + 63) &
        ~(size_t)63;
    p->shm_ended_off = p->shm_copy_bytes * (copies ? copies : 1);
    p->shm_bytes = p->shm_ended_off + (size_t)cfg->procs * sizeof(uint32_t);
    p->shm = mmap(NULL, p->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                  -1, 0);
    if (p->shm == MAP_FAILED) {
        p->shm = NULL;
        return -ENOMEM;
    }
    return 0;
}

static int accepts(const struct ld_config *cfg, char *why, size_t whylen)
{
    return nr_accepts(cfg, why, whylen);
}

static int plan(struct ld_setup *su, char *err, size_t errlen)
{
    const struct ld_config *cfg = su->cfg;
    struct nr_plan *p;
    int limit = rb_limit_s(cfg);
    const uint32_t *ids;
    unsigned k;
    uint64_t skipped = 0;
    int rc = rb_sched_check(cfg, err, errlen);

    if (rc != 0)
        return rc;
    p = cm_calloc(1, sizeof(*p));
    if (p == NULL)
        return cm_errf(err, errlen, "out of memory"), CM_EXIT_FAILED;
    if (nr_plan_build(p, cfg, err, errlen) < 0) {
        free(p);
        fprintf(su->log, "%s: %s\n", su->prog,
                err); /* every error line names its program */
        err[0] = '\0';
        return CM_EXIT_USAGE;
    }
    su->plan = p;
    if (map_shared(p, cfg) < 0)
        return cm_errf(err, errlen, "%s: cannot map %zu bytes shared by the processes",
                       p->file, p->shm_bytes),
               CM_EXIT_FAILED;
    for (k = 1; k < NR_NSKIPS; k++)
        skipped += p->skipped[k];
    fprintf(
        su->log,
        "%s: NFS trace %s (%s%s%s): %llu NFSv%d calls of %u client(s) over %.3f s, %llu "
        "not replayable; image of %u objects (%llu known by a name only merged into "
        "them), %u root(s), %u orphan tree(s)",
        su->prog, p->file, p->format, p->from_file ? ", planned from " : "",
        p->from_file ? p->capture : "", (unsigned long long)p->ncalls, p->nfs_version,
        p->nstreams, (double)p->trace_ns / 1e9, (unsigned long long)skipped,
        im_nlive(p->img), (unsigned long long)im_counts(p->img)->merged,
        im_roots(p->img, &ids), im_orphan_tops(p->img, &ids));
    {
        uint32_t copies = nr_scale(cfg),
                 procs = (uint32_t)(RB_TOPTS(cfg)->nclients * cfg->procs);
        unsigned idle = nr_idle_procs(cfg, p->nstreams);

        fprintf(su->log, "; %u cop%s", copies, copies == 1 ? "y" : "ies");
        if (idle > 0)
            fprintf(su->log, ", %u processes: %u idle", procs, idle);
        if (RB_TOPTS(cfg)->nclients > 1 && p->nstreams > 1) {
            uint64_t deps, calls;
            char units[256];

            nr_units_text(cfg, (uint32_t)cfg->client_num, p->nstreams, 1, units,
                          sizeof(units));
            if (nr_cross_deps(p, cfg, 0, -1, &deps, &calls, err, errlen) < 0)
                return CM_EXIT_USAGE;
            fprintf(su->log,
                    "; streams over %d clients: client %d replays %s; %llu dependencies "
                    "of %llu calls cross client hosts: kept by time only",
                    RB_TOPTS(cfg)->nclients, cfg->client_num, units,
                    (unsigned long long)deps, (unsigned long long)calls);
        }
    }
    if (RB_TOPTS(cfg)->trace_speed > 0)
        fprintf(su->log, "; at speed %g: %.3f s", RB_TOPTS(cfg)->trace_speed,
                nr_expected_s(p, RB_TOPTS(cfg)->trace_speed));
    else
        fprintf(su->log, "; speed 0: as fast as dependencies and the window allow");
    if (limit > 0)
        fprintf(su->log, "; -t ends it after %d s", limit);
    fprintf(su->log, "\n");
    {
        double speed = RB_TOPTS(cfg)->trace_speed;
        unsigned procs = (unsigned)(RB_TOPTS(cfg)->nclients * cfg->procs),
                 idle = nr_idle_procs(cfg, p->nstreams);

        if (speed > 0 && p->trace_ns > 0 && procs > idle)
            (void)rb_spin_warn(su->log, su->prog, cfg,
                               (double)nr_scale(cfg) * (double)p->ncalls /
                                   ((double)p->trace_ns / 1e9 / speed),
                               "calls", procs - idle);
    }
    if (!cfg->prime_host[0] && !cfg->populate_only && limit == 0 &&
        nr_expected_s(p, RB_TOPTS(cfg)->trace_speed) > RB_MAX_UNBOUNDED_S)
        return cm_errf(err, errlen,
                       "%s: the replay would take %.0f s at speed %g, more than a day: "
                       "pass -t SEC or a higher --speed",
                       p->file, nr_expected_s(p, RB_TOPTS(cfg)->trace_speed),
                       RB_TOPTS(cfg)->trace_speed),
               CM_EXIT_SFS_USAGE;
    return 0;
}

static void plan_free(struct ld_setup *su)
{
    struct nr_plan *p = su->plan;

    if (p && p->shm)
        munmap(p->shm, p->shm_bytes);
    if (su->plan) {
        nr_plan_free(su->plan);
        free(su->plan);
    }
    su->plan = NULL;
}

static void schedule(const struct ld_setup *su, struct ld_schedule *s)
{
    const struct ld_config *cfg = su->cfg;
    const struct nr_plan *p = su->plan;
    double expect = nr_expected_s(p, RB_TOPTS(cfg)->trace_speed);
    int limit = rb_limit_s(cfg);

    snprintf(s->run_line, sizeof(s->run_line),
             "Starting NFS replay of %s: %llu calls, %.3f s of trace at speed %g, %u "
             "cop%s.",
             RB_TOPTS(cfg)->trace_file, (unsigned long long)p->ncalls,
             (double)p->trace_ns / 1e9, RB_TOPTS(cfg)->trace_speed, nr_scale(cfg),
             nr_scale(cfg) == 1 ? "y" : "ies");
    rb_schedule(s, expect, limit);
}

/* ---- sfs_mgr's points: TRACE_SPEED's (the block replay's) or TRACE_SCALE's -- */

/* TRACE_SCALE's copies into scale[] (at most max); how many, 0 when it is
 * not set, -1 after an error. */
static int scales(struct cm_rc *rc, double *scale, unsigned max)
{
    static const struct rb_rc_list list = {
        "TRACE_SCALE", "", 1, 4096, 1, "a scale (copies of the trace, 1..4096)",
        "scales"};
    struct ld_point pts[64];
    int n, k;

    memset(pts, 0, sizeof(pts));
    n = rb_rc_values(rc, &list, pts, max < 64 ? max : 64, 0);
    for (k = 0; k < n; k++) {
        if (k > 0 && pts[k].v[0] <= scale[k - 1])
            return cm_rc_error(rc, cm_rc_get(rc, "TRACE_SCALE"), "scales must increase"),
                   -1;
        scale[k] = pts[k].v[0];
    }
    return n;
}

/* One point per speed of TRACE_SPEED, or per scale of TRACE_SCALE (one of
 * the two may be a list): v[0] the speed, v[1] the copies (0: one per
 * client). */
static int rc_points(struct cm_rc *rc, unsigned nloads, struct ld_point *pts,
                     unsigned max)
{
    double scale[64] = {0};
    int n = rb_speed_points(rc, nloads, pts, max), ns, k;

    if (n <= 0)
        return n;
    ns = scales(rc, scale, 64);
    if (ns < 0)
        return -1;
    if (ns > 1 && n > 1)
        return cm_rc_error(rc, cm_rc_get(rc, "TRACE_SCALE"),
                           "TRACE_SPEED and TRACE_SCALE are both lists: give one of them "
                           "one value"),
               -1;
    if (ns > (int)max)
        ns = (int)max;
    if (ns > 1) { /* one point per scale, at the one speed */
        for (k = 0; k < ns; k++) {
            pts[k] = pts[0];
            pts[k].v[1] = scale[k];
        }
        return ns;
    }
    for (k = 0; k < n; k++) /* one point per speed, at the one scale (if any) */
        pts[k].v[1] = ns == 1 ? scale[0] : 0;
    return n;
}

static void point_set(struct ld_config *cfg, const struct ld_point *pt)
{
    rb_speed_point_set(cfg, pt);
    NR_OPTS_SET(cfg)->trace_scale = (int)pt->v[1];
}

static int client_args(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned nclients, char (*word)[64], int max)
{
    int n = rb_speed_client_args(cfg, pt, nclients, word, max);

    if (n < 0 || n >= max)
        return n;
    snprintf(word[n], sizeof(word[n]), "--scale=%d",
             pt ? (int)pt->v[1] : NR_OPTS(cfg)->trace_scale);
    return n + 1;
}

static void point_text(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned load, char *buf, size_t len)
{
    struct ld_config c = *cfg;

    (void)load;
    if (pt)
        point_set(&c, pt);
    snprintf(buf, len, "NFS replay of %s at speed %g, %u cop%s",
             RB_TOPTS(cfg)->trace_file, RB_TOPTS(&c)->trace_speed, nr_scale(&c),
             nr_scale(&c) == 1 ? "y" : "ies");
}

/* The progress lines' counters: the calls this process replayed, the
 * run's calls in all (every copy's: the same figure in every process, so
 * the max the merge keeps is the whole), the calls held by a dependency. */
static void child_live(struct ld_child *c)
{
    const struct nr_replay *rp = (const struct nr_replay *)c;

    rb_live(c, RB_STATS(c)->replay_records, (uint64_t)rp->plan->ncalls * nr_scale(c->cfg),
            NR_STATS(c)->nr_held);
}

static int progress(const struct ld_live *sum, const struct ld_live *last, char *buf,
                    size_t len)
{
    (void)last;
    return rb_progress_text(sum, "calls", "held", buf, len);
}

/* --scale: the NFS replay's own option; the trace's are the replays'
 * (replaybase/rb.h). */
static const struct cm_opt scale_row[] = {
    {0, "scale", "TRACE_SCALE", CM_OPT_INT, offsetof(struct nr_opts, trace_scale),
     sizeof(int), "0", 0, 4096, "copies", "N",
     "N copies of the trace in all, each on its own copy of the image (0: one per "
     "client).",
     NULL, NULL, CM_OPT_POINT, CM_EXIT_SFS_SCALE},
};

const struct ld_opt_group nr_options = {"NFS trace replay options", scale_row,
                                        CM_ARRAY_LEN(scale_row), sizeof(struct nr_opts)};

static const struct ld_opt_group *const options[] = {&rb_trace_options, &nr_options,
                                                     NULL};

const struct ld_workload_ops nr_workload = {
    .name = "nfs-replay",
    .version = LD_WORKLOAD_VERSION,
    .options = options,
    .accepts = accepts,
    .nfs_versions = LD_NFS_V2 | LD_NFS_V3 | LD_NFS_V(4),
    .plan = plan,
    .plan_free = plan_free,
    .schedule = schedule,
    .child_size = sizeof(struct nr_replay),
    .child_init = nr_child_init,
    .child_phase = nr_child_phase,
    .child_results = nr_child_results,
    .child_free = nr_child_free,
    .report = &nr_report,
    .results = {nr_stats_fields, NR_STATS_NFIELDS, sizeof(struct nr_stats)},
    .rc_points = rc_points,
    .point_set = point_set,
    .client_args = client_args,
    .point_text = point_text,
    .child_live = child_live,
    .progress = progress,
};
