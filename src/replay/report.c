/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the replay's figures in the client report and in the
 * YAML results (docs/replay.md lists every key): the file set (sparse as
 * prepared, and the bytes the trace touches), records, calls, skipped
 * records, "could not keep up", the replay's own duration against the
 * trace's, bytes, and the lateness percentiles with their resolution.
 */
#include <stdio.h>

#include "common/hist.h"
#include "replay/rl.h"
#include "load/report.h"

/* The replay's counters beside the generic ones (workload.h: results). */
#define RS(in) ((const struct rb_stats *)(in)->wstats)

static double late_us(const struct rb_stats *s, double q)
{
    return cm_hist_quantile_ms(&s->replay_late, q) * 1000.0;
}

static double expected_s(const struct rb_stats *s, double speed)
{
    return speed > 0 ? (double)s->replay_trace_ns / 1e9 / speed : 0;
}

/* Records of the trace the run time cut off (the whole trace's records
 * minus those replayed: with several clients, every client's). */
static uint64_t not_replayed(const struct rb_stats *s)
{
    return s->replay_trace_records > s->replay_records
               ? s->replay_trace_records - s->replay_records
               : 0;
}

/* Whether s covers every process that replays the trace: a client of a
 * several-client run (a plan but --clients > 1) holds only its share, so
 * the records it did not replay are not its to count. */
static int whole_trace(const struct ld_config *cfg, const struct rl_plan *p)
{
    return p == NULL || RB_TOPTS(cfg)->nclients <= 1;
}

static void text(FILE *out, const struct ld_report_in *in)
{
    const struct ld_config *cfg = in->cfg;
    const struct rl_plan *p = in->plan;
    const struct rb_stats *s = RS(in);
    double run = (double)s->replay_run_ns / 1e9, speed = RB_TOPTS(cfg)->trace_speed;

    fprintf(out, "\nTrace replay of %s (%s), speed %g\n", RB_TOPTS(cfg)->trace_file,
            p ? p->format : RB_TOPTS(cfg)->trace_format, speed);
    fprintf(out, "  records %llu, calls %llu, skipped %llu, could not keep up %llu\n",
            (unsigned long long)s->replay_records, (unsigned long long)s->replay_calls,
            (unsigned long long)s->replay_skipped, (unsigned long long)s->replay_behind);
    if (s->replay_cut && !whole_trace(cfg, p))
        fprintf(out,
                "  cut by the run time (sfs_mgr: RUNTIME): its streams' later records "
                "not replayed\n");
    else if (s->replay_cut)
        fprintf(out,
                "  cut by the run time (-t; sfs_mgr: RUNTIME): %llu of the trace's %llu "
                "records not replayed\n",
                (unsigned long long)not_replayed(s),
                (unsigned long long)s->replay_trace_records);
    fprintf(out, "  bytes read %llu, bytes written %llu\n",
            (unsigned long long)s->replay_bytes_read,
            (unsigned long long)s->replay_bytes_written);
    if (speed > 0 && s->replay_cut) { /* a drift against a cut replay means nothing */
        fprintf(out, "  duration %.3f s (cut), trace %.3f s at speed %g = %.3f s\n", run,
                (double)s->replay_trace_ns / 1e9, speed, expected_s(s, speed));
    } else if (speed > 0) {
        fprintf(out,
                "  duration %.3f s, trace %.3f s at speed %g = %.3f s, drift %+.3f ms\n",
                run, (double)s->replay_trace_ns / 1e9, speed, expected_s(s, speed),
                (run - expected_s(s, speed)) * 1000.0);
    }
    if (speed > 0) {
        fprintf(out,
                "  lateness p50 %.1f us, p99 %.1f us, max %llu us (percentiles within "
                "%.1f %%)\n",
                late_us(s, 0.50), late_us(s, 0.99),
                (unsigned long long)s->replay_late.max_us, cm_hist_resolution_pct());
    } else {
        fprintf(
            out,
            "  duration %.3f s (speed 0: as fast as the window allows; trace %.3f s)\n",
            run, (double)s->replay_trace_ns / 1e9);
    }
}

/* KB (MB in the aggregate) as the FILE SET SIZE lines give them: rounded up,
 * so that a file set of one byte is not 0 KB. */
static void size_text(char *buf, size_t len, uint64_t bytes, int agg)
{
    if (agg)
        snprintf(buf, len, "%6.1f MB", (double)bytes / (1024.0 * 1024.0));
    else
        snprintf(buf, len, "%llu KB", (unsigned long long)((bytes + 1023) / 1024));
}

/* The file set of a replay: the files preparation made, sparse (each as
 * large as its highest byte used), and the bytes the trace's READ and
 * WRITE records touch in them - what the server is asked to hold. */
static void fileset(FILE *out, const struct ld_report_in *in)
{
    const struct rb_stats *s = RS(in);
    const char *total = in->agg ? "TOTAL " : "";
    char sparse[32], touched[32];

    size_text(sparse, sizeof(sparse), s->replay_sparse_bytes, in->agg != NULL);
    size_text(touched, sizeof(touched), s->replay_touched_bytes, in->agg != NULL);
    fprintf(out,
            "%sFILE SET SIZE CREATED: %s sparse (%llu files, each as large as its "
            "highest byte used)\n",
            total, sparse, (unsigned long long)in->stats->io_files);
    fprintf(out,
            "%sFILE SET SIZE ACCESSED: %s touched (%llu bytes the trace's reads and "
            "writes touch)\n",
            total, touched, (unsigned long long)s->replay_touched_bytes);
}

static void yaml(struct cm_yaml *y, const struct ld_report_in *in)
{
    const struct cm_field *t = rb_stats_fields;
    const size_t n = RB_STATS_NFIELDS;
    const struct ld_config *cfg = in->cfg;
    const struct rl_plan *p = in->plan;
    const struct rb_stats *s = RS(in);
    double run = (double)s->replay_run_ns / 1e9, speed = RB_TOPTS(cfg)->trace_speed;
    unsigned i;

    cm_yaml_key(y, "replay");
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "file", RB_TOPTS(cfg)->trace_file);
    cm_yaml_kv_str(y, "format", p ? p->format : RB_TOPTS(cfg)->trace_format);
    cm_yaml_kv_double(y, "speed", speed, -1);
    if (p) {
        cm_yaml_kv_uint(y, "units", p->nunits);
        cm_yaml_kv_uint(y, "streams", p->nstreams);
    }
    if (rl_rate(s->replay_trace_records, s->replay_trace_ns, speed) > 0)
        cm_yaml_kv_double(y, "requested_records_per_s",
                          rl_rate(s->replay_trace_records, s->replay_trace_ns, speed), 6);
    cm_fields_yaml(y, t, n, s, "replay.records");
    if (whole_trace(cfg, p))
        cm_yaml_kv_uint(y, "records_not_replayed", not_replayed(s));
    cm_yaml_kv_bool(y, "cut", s->replay_cut > 0);
    cm_fields_yaml(y, t, n, s, "replay.io");
    cm_yaml_key(y, "file_set");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "files", in->stats->io_files);
    cm_fields_yaml(y, t, n, s, "replay.file_set");
    cm_yaml_map_end(y);
    cm_yaml_kv_double(y, "duration_s", run, 6);
    cm_yaml_kv_double(y, "trace_duration_s", (double)s->replay_trace_ns / 1e9, 6);
    if (speed > 0) {
        cm_yaml_kv_double(y, "expected_duration_s", expected_s(s, speed), 6);
        if (!s->replay_cut)
            cm_yaml_kv_double(y, "drift_s", run - expected_s(s, speed), 6);
    }
    cm_yaml_key(y, "lateness_us");
    cm_yaml_map_begin(y);
    cm_yaml_kv_bool(y, "measured", speed > 0);
    cm_yaml_kv_uint(y, "samples", s->replay_late.count);
    cm_yaml_kv_double(y, "p50", late_us(s, 0.50), 1);
    cm_yaml_kv_double(y, "p90", late_us(s, 0.90), 1);
    cm_yaml_kv_double(y, "p99", late_us(s, 0.99), 1);
    cm_yaml_kv_double(y, "p999", late_us(s, 0.999), 1);
    cm_yaml_kv_uint(y, "max", s->replay_late.max_us);
    cm_yaml_kv_double(y, "resolution_pct", cm_hist_resolution_pct(), 3);
    cm_yaml_map_end(y);
    if (!p) {
        cm_yaml_map_end(y);
        return;
    }
    cm_yaml_key(y, "reader");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "records", p->records);
    cm_yaml_kv_uint(y, "warnings", p->warnings);
    cm_yaml_kv_uint(y, "beyond_nfsv2", p->v2_beyond);
    cm_yaml_kv_uint(y, "over_max_record_blocks", p->oversize);
    for (i = 0; i < p->ncounters; i++)
        cm_yaml_kv_uint(y, p->counters[i].name, p->counters[i].n);
    cm_yaml_map_end(y);
    cm_yaml_map_end(y);
}

/* A replay asks for its trace's rate, not -l's (docs/replay.md); a client
 * of several says the rate is shared. */
static void requested(const struct ld_report_in *in, int whole, char *buf, size_t len)
{
    rl_requested(buf, len, RB_TOPTS(in->cfg)->trace_speed, RS(in),
                 whole || in->agg ? 1 : (unsigned)RB_TOPTS(in->cfg)->nclients);
}

/* The whole trace's records per second at the point's speed: what every
 * client's processes together are asked for (each stream is replayed by
 * one process of one client). */
static double requested_rate(const struct ld_report_in *in)
{
    const struct rb_stats *s = RS(in);

    return rl_rate(s->replay_trace_records, s->replay_trace_ns,
                   RB_TOPTS(in->cfg)->trace_speed);
}

/* The replay's calls over the replay's duration (its first due record to
 * its last reply, the longest of its processes), whatever the number of
 * processes: one without a stream (more processes than streams) ends at
 * once, and a mean over the processes' times would count it as a short
 * run and inflate the throughput. */
static uint64_t duration_ns(const struct ld_report_in *in)
{
    return RS(in)->replay_run_ns;
}

/* No target mix (the trace is its own) and no validity rule: SFS's judge a
 * mix and its parameters, which a replay has not (docs/replay.md). */
const struct ld_report_ops rl_report = {
    .flags = 0,
    .requested = requested,
    .requested_rate = requested_rate,
    .load_column = "the trace's records/s at the point's speed",
    .fileset = fileset,
    .section = text,
    .yaml = yaml,
    .duration_ns = duration_ns,
};
