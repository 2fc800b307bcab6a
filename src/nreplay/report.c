/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the NFS trace replay's part of the results (nr.h,
 * docs/nfs_replay.md lists every line and key): the calls replayed and
 * those that could not be and why, the statuses compared with the
 * trace's and the mismatches by op and pair with the first few named,
 * the image prepared, dependency waits, lateness and drift, and a
 * per-procedure table of the traced server's response time beside the
 * replayed one; its validity rules (no good calls, failed RPC calls, more
 * than 1 % of the compared calls mismatched); the same in the YAML
 * results under "nfs_replay".  In the prime's aggregate (no plan) the
 * mismatches are counted but not named.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/hist.h"
#include "image/im.h"
#include "load/report.h"
#include "nreplay/nr.h"

/* The replay's counters beside the generic ones (workload.h: results). */
#define NS(in) ((const struct nr_stats *)(in)->wstats)

#define NRF(m, merge)                                                                    \
    CM_FIELD_OF(struct nr_stats, m, CM_FIELD_U64, CM_MERGE_##merge, NULL, NULL)
#define NRA(m, type, merge, n)                                                           \
    CM_FIELD_ARRAY(struct nr_stats, m, type, CM_MERGE_##merge, n)
const struct cm_field nr_stats_fields[NR_STATS_NFIELDS] = {
    {"rb", CM_FIELD_TABLE, CM_MERGE_SUM, offsetof(struct nr_stats, rb),
     sizeof(struct rb_stats), 0, NULL, NULL, 3, rb_stats_fields, RB_STATS_NFIELDS},
    NRF(nr_compared, SUM),
    NRF(nr_mismatches, SUM),
    NRA(nr_mismatch, CM_FIELD_U64, SUM, NF_NOPS + 1),
    NRA(nr_pair, CM_FIELD_U64, SUM, NF_NOPS *NR_CLASSES *NR_CLASSES),
    NRA(nr_example, CM_FIELD_U64, TOP, NR_EXAMPLES),
    NRA(nr_unreplayable, CM_FIELD_U64, SUM, NR_SKIPS),
    NRF(nr_held, SUM),
    NRF(nr_prep_objects, SUM),
    NRF(nr_prep_failed, SUM),
    NRF(nr_resends, SUM),
    NRF(nr_not_sent, SUM),
    NRF(nr_unanswered, SUM),
    NRF(nr_stale_ns, MAX),
    NRF(nr_streams, MAX),
    NRF(nr_unit_calls, SUM),
    NRF(nr_cross_deps, SUM),
    NRF(nr_cross_calls, SUM),
    CM_FIELD_OF(struct nr_stats, nr_wait, CM_FIELD_HIST, CM_MERGE_SUM, NULL, NULL),
    NRA(nr_traced, CM_FIELD_HIST, SUM, NF_NOPS + 1),
    NRA(nr_traced_us, CM_FIELD_U64, SUM, NF_NOPS + 1),
    NRF(nr_v4_opens, SUM),
    NRF(nr_v4_open_errors, SUM),
    NRF(nr_v4_closes, SUM),
    NRF(nr_v4_left, SUM),
    NRF(nr_v4_anonymous, SUM),
    NRF(nr_v4_stale_resends, SUM),
    NRF(nr_v4_downgrades, SUM),
    NRF(nr_v4_closes_traced, SUM),
    NRF(nr_v4_locks, SUM),
    NRF(nr_v4_lock_compared, SUM),
    NRF(nr_v4_lock_mismatches, SUM),
};
#undef NRF
#undef NRA

static double pct(uint64_t n, uint64_t of)
{
    return of ? (double)n * 100.0 / (double)of : 0;
}

static double q_ms(const struct cm_hist *h, double q)
{
    return cm_hist_quantile_ms(h, q);
}

/* The traced server's mean response time of op's replayed calls. */
static double traced_mean_ms(const struct nr_stats *ns, unsigned op)
{
    return ns->nr_traced[op].count
               ? (double)ns->nr_traced_us[op] / (double)ns->nr_traced[op].count / 1000.0
               : 0;
}

static double expected_s(const struct nr_stats *ns, double speed)
{
    return speed > 0 ? (double)ns->rb.replay_trace_ns / 1e9 / speed : 0;
}

/* "d1/f" for call c's object (and name), into buf. */
static const char *where(const struct nr_plan *p, const struct nr_call *c, char *buf,
                         size_t len)
{
    char dir[512];
    const char *d = c->obj != NR_NONE ? im_path(p->img, c->obj, dir, sizeof(dir)) : NULL;
    const char *n = c->name;

    snprintf(buf, len, "%s%s%s",
             d && d[0] ? d
             : n       ? ""
             : d       ? "."
                       : "?",
             d && d[0] && n ? "/" : "", n ? n : "");
    return buf;
}

/* A mismatch named: the call read from the plan (from its index's entry
 * before it), or its number alone without a plan (the prime's aggregate). */
static void example_text(const struct nr_plan *p, uint64_t ex, char *buf, size_t len)
{
    uint64_t v = ~ex, i = v >> 16;
    uint32_t st = (uint32_t)(v & 0xffffu);
    struct nr_stream in;
    struct nr_call c;
    char w[600], err[CM_ERR_LEN];

    if (!p || i >= p->nrecords || nr_stream_open(&in, p, i, err, sizeof(err)) < 0) {
        snprintf(buf, len, "call %llu: replayed %s", (unsigned long long)i,
                 nf_status_name(st));
        return;
    }
    if (nr_stream_next(&in, &c, err, sizeof(err)) > 0)
        snprintf(buf, len, "%s %s at %.6f s: traced %s, replayed %s", nf_op_name(c.op),
                 where(p, &c, w, sizeof(w)), (double)c.t_ns / 1e9,
                 nf_status_name(c.status), nf_status_name(st));
    else
        snprintf(buf, len, "call %llu: replayed %s", (unsigned long long)i,
                 nf_status_name(st));
    nr_stream_close(&in);
}

/* The copies of the trace the results cover: the run's (the prime's
 * aggregate: its options do not hold the clients), or this client's. */
static uint32_t copies_in(const struct ld_report_in *in)
{
    const struct ld_config *cfg = in->cfg;

    if (in->agg)
        return NR_OPTS(cfg)->trace_scale > 0 ? (uint32_t)NR_OPTS(cfg)->trace_scale
                                             : in->agg->nclients;
    return nr_client_copies(cfg, (uint32_t)NS(in)->nr_streams);
}

/* The clients of the results' run. */
static uint32_t clients_in(const struct ld_report_in *in)
{
    return in->agg ? in->agg->nclients : (uint32_t)RB_TOPTS(in->cfg)->nclients;
}

/* The traced calls the results cover: those of the streams replayed. */
static uint64_t traced_in(const struct ld_report_in *in)
{
    const struct nr_stats *ns = NS(in);

    return ns->nr_unit_calls ? ns->nr_unit_calls
                             : ns->rb.replay_trace_records * copies_in(in);
}

/* Which client replays which stream of which copy, when the streams are
 * spread over several clients, and the dependencies that cross them. */
static void streams_text(FILE *out, const struct ld_report_in *in)
{
    const struct nr_stats *ns = NS(in);
    struct ld_config c = *in->cfg;
    uint32_t n, k;
    char units[256];

    if (clients_in(in) < 2 || ns->nr_streams < 2)
        return;
    RB_TOPTS_SET(&c)->nclients = (int)clients_in(in);
    if (in->agg)
        NR_OPTS_SET(&c)->trace_scale = (int)copies_in(in);
    fprintf(out, "  streams over %d clients:", RB_TOPTS(&c)->nclients);
    for (k = in->agg ? 1 : (uint32_t)c.client_num, n = 0;
         k <= (in->agg ? (uint32_t)RB_TOPTS(&c)->nclients : (uint32_t)c.client_num) &&
         n < 8;
         k++, n++) {
        nr_units_text(&c, k, (uint32_t)ns->nr_streams, !in->agg, units, sizeof(units));
        fprintf(out, "%s client %u replays %s", n ? ";" : "", k, units);
    }
    fprintf(out, "%s\n", n == 8 && in->agg && RB_TOPTS(&c)->nclients > 8 ? "; ..." : "");
    fprintf(out,
            "  %" PRIu64 " dependencies of %" PRIu64
            " calls cross client hosts: kept by time only\n",
            ns->nr_cross_deps, ns->nr_cross_calls);
}

static uint64_t unreplayable(const struct nr_stats *ns)
{
    uint64_t n = 0;
    unsigned k;

    for (k = 1; k < NR_NSKIPS; k++)
        n += ns->nr_unreplayable[k];
    return n;
}

/* Calls whose reply was lost or late: sent again (UDP after a timeout,
 * TCP on a new connection), answered only after their timeout, never
 * answered (both bad calls); printed when there are any. */
static void lost_replies(FILE *out, const struct ld_stats *s, const struct nr_stats *ns)
{
    const struct ld_opstat *t = &s->op[NF_OP_TOTAL];

    if (t->retrans == 0 && t->bad == 0)
        return;
    fprintf(out,
            "  lost replies: %" PRIu64 " calls sent again (%" PRIu64
            " sends again), %" PRIu64 " answered only after their timeout and %" PRIu64
            " not answered or failed: %" PRIu64 " bad calls\n",
            t->retrans, ns->nr_resends, t->late, t->bad - t->late, t->bad);
}

static const char *ended_name(const struct ld_stats *s, const struct nr_stats *ns)
{
    if (s->ended_early == LD_END_STALE)
        return "stale file handles";
    if (s->ended_early == LD_END_UNREACHABLE)
        return "server unreachable";
    return ns->rb.replay_cut ? "run time" : "no";
}

static void text(FILE *out, const struct ld_report_in *in)
{
    const struct ld_config *cfg = in->cfg;
    const struct nr_plan *p = in->plan;
    const struct ld_stats *s = in->stats;
    const struct nr_stats *ns = NS(in);
    double run = (double)ns->rb.replay_run_ns / 1e9, speed = RB_TOPTS(cfg)->trace_speed;
    unsigned op, t, r, k;
    char buf[800];

    fprintf(out, "\nNFS trace replay of %s (%s), NFSv%d, speed %g, %u cop%s\n",
            RB_TOPTS(cfg)->trace_file, p ? p->format : RB_TOPTS(cfg)->trace_format,
            cfg->nfs_version, speed, copies_in(in), copies_in(in) == 1 ? "y" : "ies");
    fprintf(out, "  calls replayed %" PRIu64 " of %" PRIu64 " (sent as %" PRIu64 " RPCs",
            ns->rb.replay_records, traced_in(in), ns->rb.replay_calls);
    if (ns->nr_unanswered)
        fprintf(out, ", %" PRIu64 " of them never answered", ns->nr_unanswered);
    fprintf(out, "), not replayable %" PRIu64 "%s", unreplayable(ns),
            unreplayable(ns) ? " (" : "\n");
    for (k = 1, r = 0; k < NR_NSKIPS; k++)
        if (ns->nr_unreplayable[k])
            fprintf(out, "%s%s %" PRIu64, r++ ? ", " : "", nr_skip_name(k),
                    ns->nr_unreplayable[k]);
    if (unreplayable(ns))
        fprintf(out, ")\n");
    if (s->ended_early == LD_END_STALE)
        fprintf(out,
                "  ended early: the server's file handles went stale at %.3f s: was it "
                "restarted? %" PRIu64 " calls not replayed\n",
                (double)ns->nr_stale_ns / 1e9, ns->nr_not_sent);
    else if (s->ended_early == LD_END_UNREACHABLE)
        fprintf(out,
                "  ended early: the server could not be reached again; %" PRIu64
                " calls due later were not replayed\n",
                ns->nr_not_sent);
    else if (ns->rb.replay_cut)
        fprintf(out,
                "  cut by the run time (-t; sfs_mgr: RUNTIME): %" PRIu64
                " calls due later were not replayed\n",
                ns->nr_not_sent);
    lost_replies(out, s, ns);
    if (cfg->nfs_version == 4)
        fprintf(out,
                "  NFSv4 opens made %" PRIu64 " (%" PRIu64
                " failed), closed at the traced CLOSE %" PRIu64 ", at the end %" PRIu64
                ", left open %" PRIu64
                "; READs and WRITEs with the anonymous stateid %" PRIu64
                "; sent again after a stale stateid %" PRIu64 "; OPEN_DOWNGRADEs %" PRIu64
                "\n",
                ns->nr_v4_opens, ns->nr_v4_open_errors, ns->nr_v4_closes_traced,
                ns->nr_v4_closes - ns->nr_v4_closes_traced, ns->nr_v4_left,
                ns->nr_v4_anonymous, ns->nr_v4_stale_resends, ns->nr_v4_downgrades);
    if (cfg->nfs_version == 4 && ns->nr_v4_locks)
        fprintf(out,
                "  NFSv4 locks: LOCKs, LOCKUs and LOCKTs sent %" PRIu64
                ", statuses compared %" PRIu64 ", mismatched %" PRIu64 "\n",
                ns->nr_v4_locks, ns->nr_v4_lock_compared, ns->nr_v4_lock_mismatches);
    fprintf(out, "  image: %" PRIu64 " objects prepared, %" PRIu64 " could not be made\n",
            ns->nr_prep_objects, ns->nr_prep_failed);
    streams_text(out, in);
    fprintf(out, "  statuses compared %" PRIu64 ", mismatched %" PRIu64 " (%.2f %%)\n",
            ns->nr_compared, ns->nr_mismatches, pct(ns->nr_mismatches, ns->nr_compared));
    for (op = 0; op < NF_NOPS; op++)
        for (t = 0; t < NR_CLASSES; t++)
            for (r = 0; r < NR_CLASSES; r++) {
                uint64_t n = ns->nr_pair[(op * NR_CLASSES + t) * NR_CLASSES + r];
                if (n)
                    fprintf(out, "    %-11s traced %s -> replayed %s: %" PRIu64 "\n",
                            nf_op_name((int)op), nr_class_name(t), nr_class_name(r), n);
            }
    for (k = 0; k < NR_EXAMPLES && ns->nr_example[k]; k++) {
        example_text(p, ns->nr_example[k], buf, sizeof(buf));
        fprintf(out, "    mismatch: %s\n", buf);
    }
    fprintf(out, "  held by a dependency %" PRIu64 ", wait p99 %.3f ms, max %.3f ms\n",
            ns->nr_held, q_ms(&ns->nr_wait, 0.99), (double)ns->nr_wait.max_us / 1000.0);
    if (speed > 0) {
        fprintf(out,
                "  lateness p50 %.1f us, p99 %.1f us, max %" PRIu64
                " us, could not keep up %" PRIu64 "\n",
                q_ms(&ns->rb.replay_late, 0.50) * 1000.0,
                q_ms(&ns->rb.replay_late, 0.99) * 1000.0, ns->rb.replay_late.max_us,
                ns->rb.replay_behind);
        fprintf(out, "  duration %.3f s%s, trace %.3f s at speed %g = %.3f s", run,
                ns->rb.replay_cut ? " (cut)" : "", (double)ns->rb.replay_trace_ns / 1e9,
                speed, expected_s(ns, speed));
        if (!ns->rb.replay_cut)
            fprintf(out, ", drift %+.3f ms", (run - expected_s(ns, speed)) * 1000.0);
        fprintf(out, "\n");
    } else {
        fprintf(out,
                "  duration %.3f s (speed 0: as fast as dependencies and the window "
                "allow; trace %.3f s), could not keep up %" PRIu64 "\n",
                run, (double)ns->rb.replay_trace_ns / 1e9, ns->rb.replay_behind);
    }
    fprintf(out, "  %-11s %9s %10s %10s %10s %10s %10s\n", "op", "calls", "repl mean",
            "repl p99", "trace mean", "trace p99", "mismatch");
    for (op = 0; op <= NF_NOPS; op++) {
        const struct ld_opstat *o = &s->op[op];
        if (o->good + o->bad == 0)
            continue;
        fprintf(out, "  %-11s %9" PRIu64 " %10.3f %10.3f %10.3f %10.3f %10" PRIu64 "\n",
                nf_op_name((int)op), o->good + o->bad, ld_stats_mean_ms(o),
                q_ms(&o->hist, 0.99), traced_mean_ms(ns, op),
                q_ms(&ns->nr_traced[op], 0.99), ns->nr_mismatch[op]);
    }
    fprintf(out,
            "  (ms; traced times of the calls replayed, from the capture's stamps)\n");
}

static void yaml(struct cm_yaml *y, const struct ld_report_in *in)
{
    const struct ld_config *cfg = in->cfg;
    const struct nr_plan *p = in->plan;
    const struct ld_stats *s = in->stats;
    const struct nr_stats *ns = NS(in);
    double run = (double)ns->rb.replay_run_ns / 1e9, speed = RB_TOPTS(cfg)->trace_speed;
    unsigned op, t, r, k;
    char buf[800];

    cm_yaml_key(y, "nfs_replay");
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "file", RB_TOPTS(cfg)->trace_file);
    cm_yaml_kv_str(y, "format", p ? p->format : RB_TOPTS(cfg)->trace_format);
    cm_yaml_kv_int(y, "nfs_version", cfg->nfs_version);
    cm_yaml_kv_double(y, "speed", speed, -1);
    cm_yaml_kv_uint(y, "copies", copies_in(in));
    cm_yaml_kv_uint(y, "trace_calls", ns->rb.replay_trace_records);
    cm_yaml_kv_uint(y, "streams", ns->nr_streams);
    cm_yaml_kv_uint(y, "stream_calls", traced_in(in));
    cm_yaml_kv_uint(y, "cross_host_dependencies", ns->nr_cross_deps);
    cm_yaml_kv_uint(y, "cross_host_calls", ns->nr_cross_calls);
    cm_yaml_kv_uint(y, "calls", ns->rb.replay_records);
    cm_yaml_kv_uint(y, "rpcs", ns->rb.replay_calls);
    cm_yaml_kv_uint(y, "rpcs_unanswered", ns->nr_unanswered);
    cm_yaml_kv_uint(y, "bytes_read", ns->rb.replay_bytes_read);
    cm_yaml_kv_uint(y, "bytes_written", ns->rb.replay_bytes_written);
    cm_yaml_kv_bool(y, "cut", ns->rb.replay_cut > 0);
    cm_yaml_kv_str(y, "ended_early", ended_name(s, ns));
    cm_yaml_kv_uint(y, "not_sent", ns->nr_not_sent);
    if (s->ended_early == LD_END_STALE)
        cm_yaml_kv_double(y, "handles_stale_at_s", (double)ns->nr_stale_ns / 1e9, 3);
    cm_yaml_kv_uint(y, "stale_replies", s->stale);
    cm_yaml_key(y, "lost_replies");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "calls_sent_again", s->op[NF_OP_TOTAL].retrans);
    cm_yaml_kv_uint(y, "sends_again", ns->nr_resends);
    cm_yaml_kv_uint(y, "answered_late", s->op[NF_OP_TOTAL].late);
    cm_yaml_kv_uint(y, "not_answered", s->op[NF_OP_TOTAL].bad - s->op[NF_OP_TOTAL].late);
    cm_yaml_kv_uint(y, "bad_calls", s->op[NF_OP_TOTAL].bad);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "not_replayable");
    cm_yaml_map_begin(y);
    for (k = 1; k < NR_NSKIPS; k++)
        cm_yaml_kv_uint(y, nr_skip_name(k), ns->nr_unreplayable[k]);
    cm_yaml_map_end(y);
    if (cfg->nfs_version == 4) {
        cm_yaml_key(y, "v4_opens");
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "opens", ns->nr_v4_opens);
        cm_yaml_kv_uint(y, "open_errors", ns->nr_v4_open_errors);
        cm_yaml_kv_uint(y, "closes", ns->nr_v4_closes);
        cm_yaml_kv_uint(y, "closes_traced", ns->nr_v4_closes_traced);
        cm_yaml_kv_uint(y, "in_use", ns->nr_v4_left);
        cm_yaml_kv_uint(y, "anonymous_io", ns->nr_v4_anonymous);
        cm_yaml_kv_uint(y, "stale_stateid_resends", ns->nr_v4_stale_resends);
        cm_yaml_kv_uint(y, "downgrades", ns->nr_v4_downgrades);
        cm_yaml_map_end(y);
        cm_yaml_key(y, "v4_locks");
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "sent", ns->nr_v4_locks);
        cm_yaml_kv_uint(y, "statuses_compared", ns->nr_v4_lock_compared);
        cm_yaml_kv_uint(y, "status_mismatches", ns->nr_v4_lock_mismatches);
        cm_yaml_map_end(y);
    }
    cm_yaml_kv_uint(y, "image_objects", ns->nr_prep_objects);
    cm_yaml_kv_uint(y, "image_failed", ns->nr_prep_failed);
    cm_yaml_kv_uint(y, "statuses_compared", ns->nr_compared);
    cm_yaml_kv_uint(y, "status_mismatches", ns->nr_mismatches);
    cm_yaml_kv_double(y, "status_mismatch_pct", pct(ns->nr_mismatches, ns->nr_compared),
                      3);
    cm_yaml_key(y, "mismatch_pairs");
    cm_yaml_seq_begin(y);
    for (op = 0; op < NF_NOPS; op++)
        for (t = 0; t < NR_CLASSES; t++)
            for (r = 0; r < NR_CLASSES; r++) {
                uint64_t n = ns->nr_pair[(op * NR_CLASSES + t) * NR_CLASSES + r];
                if (!n)
                    continue;
                cm_yaml_map_begin(y);
                cm_yaml_kv_str(y, "op", nf_op_name((int)op));
                cm_yaml_kv_str(y, "traced", nr_class_name(t));
                cm_yaml_kv_str(y, "replayed", nr_class_name(r));
                cm_yaml_kv_uint(y, "count", n);
                cm_yaml_map_end(y);
            }
    cm_yaml_seq_end(y);
    cm_yaml_key(y, "first_mismatches");
    cm_yaml_seq_begin(y);
    for (k = 0; k < NR_EXAMPLES && ns->nr_example[k]; k++) {
        example_text(p, ns->nr_example[k], buf, sizeof(buf));
        cm_yaml_str(y, buf);
    }
    cm_yaml_seq_end(y);
    cm_yaml_key(y, "dependency_waits");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "held", ns->nr_held);
    cm_yaml_kv_double(y, "p99_ms", q_ms(&ns->nr_wait, 0.99), 3);
    cm_yaml_kv_double(y, "max_ms", (double)ns->nr_wait.max_us / 1000.0, 3);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "lateness_us");
    cm_yaml_map_begin(y);
    cm_yaml_kv_bool(y, "measured", speed > 0);
    cm_yaml_kv_double(y, "p50", q_ms(&ns->rb.replay_late, 0.50) * 1000.0, 1);
    cm_yaml_kv_double(y, "p90", q_ms(&ns->rb.replay_late, 0.90) * 1000.0, 1);
    cm_yaml_kv_double(y, "p99", q_ms(&ns->rb.replay_late, 0.99) * 1000.0, 1);
    cm_yaml_kv_double(y, "p999", q_ms(&ns->rb.replay_late, 0.999) * 1000.0, 1);
    cm_yaml_kv_uint(y, "max", ns->rb.replay_late.max_us);
    cm_yaml_kv_uint(y, "could_not_keep_up", ns->rb.replay_behind);
    cm_yaml_map_end(y);
    cm_yaml_kv_double(y, "duration_s", run, 6);
    cm_yaml_kv_double(y, "trace_duration_s", (double)ns->rb.replay_trace_ns / 1e9, 6);
    if (speed > 0 && !ns->rb.replay_cut)
        cm_yaml_kv_double(y, "drift_s", run - expected_s(ns, speed), 6);
    cm_yaml_key(y, "ops");
    cm_yaml_map_begin(y);
    for (op = 0; op <= NF_NOPS; op++) {
        const struct ld_opstat *o = &s->op[op];
        if (o->good + o->bad == 0)
            continue;
        cm_yaml_key(y, nf_op_name((int)op));
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "calls", o->good + o->bad);
        cm_yaml_kv_uint(y, "bad", o->bad);
        cm_yaml_kv_double(y, "replayed_mean_ms", ld_stats_mean_ms(o), 3);
        cm_yaml_kv_double(y, "replayed_p99_ms", q_ms(&o->hist, 0.99), 3);
        cm_yaml_kv_double(y, "traced_mean_ms", traced_mean_ms(ns, op), 3);
        cm_yaml_kv_double(y, "traced_p99_ms", q_ms(&ns->nr_traced[op], 0.99), 3);
        cm_yaml_kv_uint(y, "status_mismatches", ns->nr_mismatch[op]);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
    if (p) {
        cm_yaml_key(y, "reader");
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "events", p->events);
        cm_yaml_kv_uint(y, "readdir_restarted", p->readdir_restarted);
        for (k = 0; k < p->ncounters; k++)
            cm_yaml_kv_uint(y, p->counters[k].name, p->counters[k].n);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
}

/* No good calls, failed RPC calls (docs/SFS30.md §17.1, 14 and 15), an
 * early end (18) and the status mismatches (23); every reason listed, the
 * code SFS's order gives (ld_validity_add). */
static int validity(const struct ld_report_in *in, struct ld_validity *v)
{
    const struct ld_stats *s = in->stats;
    const struct nr_stats *ns = NS(in);
    const struct ld_opstat *t = &s->op[NF_OP_TOTAL];
    char w[160];

    if (t->good == 0 && ns->rb.replay_calls > 0)
        ld_validity_add(v, LD_INV_NO_GOOD, "no replayed call was answered",
                        "INVALID RUN No good calls");
    if (t->good > 0 && t->bad * 100 / t->good >= 1) {
        snprintf(w, sizeof(w),
                 "%" PRIu64 " of %" PRIu64 " calls failed (not answered within their "
                 "timeout, or an RPC error; SFS allows less than 1 %%)",
                 t->bad, t->good + t->bad);
        ld_validity_add(v, LD_INV_FAILED_RPC, w,
                        "INVALID RUN, %.0f%% Failed RPC calls (%" PRIu64 " of %" PRIu64
                        ")",
                        (double)(t->bad * 100 / t->good), t->bad, t->good + t->bad);
    }
    if (s->ended_early == LD_END_STALE) {
        snprintf(w, sizeof(w),
                 "the server's file handles went stale at %.3f s (was it restarted?); "
                 "%" PRIu64 " calls not replayed",
                 (double)ns->nr_stale_ns / 1e9, ns->nr_not_sent);
        ld_validity_add(v, LD_INV_ENDED_EARLY, w,
                        "INVALID RUN, the run ended early: the NFS server's file handles "
                        "went stale at %.3f s (was it restarted?)",
                        (double)ns->nr_stale_ns / 1e9);
    }
    if (s->ended_early == LD_END_UNREACHABLE)
        ld_validity_add(v, LD_INV_ENDED_EARLY,
                        "the server could not be reached again after the connection was "
                        "lost",
                        "INVALID RUN, the run ended early: the NFS server could not be "
                        "reached again after the connection was lost");
    if (ns->nr_mismatches * 100 > ns->nr_compared) {
        snprintf(w, sizeof(w),
                 "%.2f %% of the replayed calls were answered with another status than "
                 "traced (FreeSFS allows 1 %%)",
                 pct(ns->nr_mismatches, ns->nr_compared));
        ld_validity_add(
            v, LD_INV_STATUS_MISMATCH, w,
            "INVALID RUN, %.2f%% Status mismatches: %" PRIu64 " of the %" PRIu64
            " calls compared were answered otherwise than traced (more than 1 "
            "%%)",
            pct(ns->nr_mismatches, ns->nr_compared), ns->nr_mismatches, ns->nr_compared);
    }
    return v->code;
}

/* The trace's calls per second at the point's speed, times the copies
 * the results cover: every copy replays every call (docs/nfs_replay.md). */
static double requested_rate(const struct ld_report_in *in)
{
    const struct nr_stats *ns = NS(in);
    double speed = RB_TOPTS(in->cfg)->trace_speed;

    if (speed <= 0 || ns->rb.replay_trace_ns == 0)
        return 0;
    return (double)ns->rb.replay_trace_records * copies_in(in) /
           ((double)ns->rb.replay_trace_ns / 1e9 / speed);
}

static void requested(const struct ld_report_in *in, int whole, char *buf, size_t len)
{
    double speed = RB_TOPTS(in->cfg)->trace_speed, rate = requested_rate(in);
    uint32_t copies = copies_in(in);

    (void)whole;
    if (rate > 0 && copies > 1)
        snprintf(buf, len, "%.2f calls/s (the trace at speed %g, %u copies)", rate, speed,
                 copies);
    else if (rate > 0)
        snprintf(buf, len, "%.2f calls/s (the trace at speed %g)", rate, speed);
    else
        snprintf(buf, len, "as fast as dependencies and the window allow (speed %g)",
                 speed);
}

const struct ld_report_ops nr_report = {
    .flags = 0,
    .requested = requested,
    .requested_rate = requested_rate,
    .load_column = "the trace's calls/s at the point's speed, times its copies",
    .validity = validity,
    .section = text,
    .yaml = yaml,
};
