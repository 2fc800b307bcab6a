/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workload.c - the null workload's table (nl.h, load/workload.h): chosen
 * only by name (--workload null), it has no plan and no file set, warms
 * up and runs for -w and -t as the SFS mix does, asks for -l's load of
 * NULL calls (sfs_mgr's points are LOAD's), owns one option
 * (--null-batch) and two counters of its own (the results' "null"
 * section), and has no validity rule of its own.
 */
#include <stddef.h>
#include <stdio.h>

#include "common/exit.h"
#include "common/fields.h"
#include "common/opt.h"
#include "common/yaml.h"
#include "null/nl_int.h"

static const struct cm_opt batch_row[] = {
    {0, "null-batch", "NULL_BATCH", CM_OPT_INT, offsetof(struct nl_opts, batch),
     sizeof(int), "1", 1, NL_MAX_BATCH, "calls", "N",
     "NULL calls a child sends at once, each batch answered before the next.", NULL, NULL,
     0, CM_EXIT_SFS_WORKLOAD},
};

const struct ld_opt_group nl_options = {"null workload options", batch_row,
                                        CM_ARRAY_LEN(batch_row), sizeof(struct nl_opts)};

static const struct ld_opt_group *const options[] = {&nl_options, NULL};

#define NLF(m, merge, key)                                                               \
    CM_FIELD_OF(struct nl_stats, m, CM_FIELD_U64, CM_MERGE_##merge, "null", key)
static const struct cm_field stats_fields[] = {
    NLF(requests, SUM, "requests"),
    NLF(most_in_flight, MAX, "most_in_flight"),
};

/* Only --workload null asks for it. */
static int accepts(const struct ld_config *cfg, char *why, size_t whylen)
{
    (void)cfg, (void)why, (void)whylen;
    return LD_ACCEPT_NO;
}

static int plan(struct ld_setup *su, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    fprintf(su->log, "%s: null workload: %d NULL calls/s, %d at a time per process\n",
            su->prog, su->cfg->load, NL_OPTS(su->cfg)->batch);
    return 0;
}

static void plan_free(struct ld_setup *su)
{
    su->plan = NULL;
}

static void schedule(const struct ld_setup *su, struct ld_schedule *s)
{
    const struct ld_config *cfg = su->cfg;

    ld_schedule_timed(cfg, s);
    snprintf(s->run_line, sizeof(s->run_line), "Starting %d seconds of NULL calls.",
             cfg->runtime_s);
}

static void point_text(const struct ld_config *cfg, const struct ld_point *pt,
                       unsigned load, char *buf, size_t len)
{
    (void)cfg, (void)pt;
    snprintf(buf, len, "%u NULL calls/s", load);
}

static void yaml(struct cm_yaml *y, const struct ld_report_in *in)
{
    cm_yaml_key(y, "null");
    cm_yaml_map_begin(y);
    cm_fields_yaml(y, stats_fields, CM_ARRAY_LEN(stats_fields), in->wstats, "null");
    cm_yaml_map_end(y);
}

static const struct ld_report_ops report = {
    .flags = LD_REPORT_LOAD,
    .yaml = yaml,
};

const struct ld_workload_ops nl_workload = {
    .name = "null",
    .version = LD_WORKLOAD_VERSION,
    .options = options,
    .accepts = accepts,
    .nfs_versions = LD_NFS_V2 | LD_NFS_V3,
    .plan = plan,
    .plan_free = plan_free,
    .schedule = schedule,
    .child_size = sizeof(struct nl_child),
    .child_init = nl_child_init,
    .child_phase = nl_child_phase,
    .child_results = nl_child_results,
    .child_free = nl_child_free,
    .report = &report,
    .results = {stats_fields, CM_ARRAY_LEN(stats_fields), sizeof(struct nl_stats)},
    .point_text = point_text,
};
