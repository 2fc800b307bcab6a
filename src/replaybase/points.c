/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * points.c - what sfs_mgr and the phase loop ask of a replay, the same for
 * both (rb.h): a point per speed of TRACE_SPEED (the block replay's points,
 * and the NFS replay's unless TRACE_SCALE lists copies), a list of numbers
 * in an rc variable, how long -t lets a replay run, and the phases'
 * schedule (no warm-up: a trace brings its own timing).
 */
#include <stdio.h>
#include <string.h>

#include "common/num.h"
#include "common/error.h"
#include "common/rc.h"
#include "load/options.h"
#include "replaybase/rb.h"

int rb_limit_s(const struct ld_config *cfg)
{
    if (cfg->prime_host[0]) /* the prime's STOP comes RUNTIME s after RUN */
        return cfg->runtime_s;
    return ld_config_was_set(cfg, "runtime") ? cfg->runtime_s : 0;
}

void rb_schedule(struct ld_schedule *s, double expect_s, int limit_s)
{
    if (limit_s > 0 && (expect_s == 0 || expect_s > limit_s)) /* -t ends it */
        expect_s = limit_s;
    s->warmup_s = 0; /* a trace brings its own timing */
    s->run_arg = (uint32_t)limit_s;
    s->run_wait_s =
        expect_s > 0 ? (unsigned)expect_s + LD_PHASE_SLACK_S : LD_PHASE_INIT_S;
}

int rb_rc_values(struct cm_rc *rc, const struct rb_rc_list *l, struct ld_point *pts,
                 unsigned max, unsigned var)
{
    const struct cm_rc_var *v = cm_rc_get(rc, l->name);
    const char *s = v && v->value[0] ? v->value : l->dflt;
    char word[64], err[CM_ERR_LEN];
    unsigned n = 0;

    while (*s) {
        size_t len = strcspn(s, " \t");
        double x;

        if (len > 0) {
            snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), s);
            if (n == max)
                return cm_rc_error(rc, v, "more than %u %s", max, l->many), -1;
            if (cm_parse_double(l->name, word, l->lo, l->hi, &x, err, sizeof(err)) < 0 ||
                (l->whole && x != (double)(long)x))
                return cm_rc_error(rc, v, "'%s' is not %s", word, l->what), -1;
            pts[n++].v[var] = x;
        }
        s += len;
        s += strspn(s, " \t");
    }
    return (int)n;
}

int rb_speed_points(struct cm_rc *rc, unsigned nloads, struct ld_point *pts, unsigned max)
{
    static const struct rb_rc_list speeds = {
        "TRACE_SPEED",  "1", 0,
        1000000,        0,   "a speed (0..1000000; 0 = as fast as the window allows)",
        "replay speeds"};
    const struct cm_rc_var *v = cm_rc_get(rc, "TRACE_SPEED");
    int n;

    memset(pts, 0, sizeof(*pts) * max);
    n = rb_rc_values(rc, &speeds, pts, max, 0);
    if (n < 0)
        return -1;
    if (nloads > 1)
        cm_rc_warning(rc, cm_rc_get(rc, "LOAD"),
                      "a replay's points are its TRACE_SPEED values: LOAD is not a list");
    if (n == 0)
        return cm_rc_error(rc, v, "no speed given"), -1;
    return n;
}

void rb_speed_point_set(struct ld_config *cfg, const struct ld_point *pt)
{
    RB_TOPTS_SET(cfg)->trace_speed = pt->v[0];
}

int rb_speed_client_args(const struct ld_config *cfg, const struct ld_point *pt,
                         unsigned nclients, char (*word)[64], int max)
{
    if (max < 2)
        return 0;
    snprintf(word[0], sizeof(word[0]), "--clients=%u", nclients);
    snprintf(word[1], sizeof(word[1]), "--speed=%.17g",
             pt ? pt->v[0] : RB_TOPTS(cfg)->trace_speed);
    return 2;
}
