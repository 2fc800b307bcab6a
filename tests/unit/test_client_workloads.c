/* SPDX-License-Identifier: BSD-2-Clause */
/* test_client_workloads.c - the workload interface (load/workload.h): the
 * registry (client/workloads.c) is walked, and every table has what the
 * phases, the report and sfs_mgr call without asking (fio checks its
 * engines the same way), its counters all in its field table and its
 * options in groups that fit a config; the one place that chooses gives
 * the mix by default, a replay for a block trace, the NFS replay for a
 * capture or nfsdump text, whatever the order of the registry, refuses an
 * unknown name and another workload's options, and says when the input
 * that decides cannot be read; and each table's schedule and sfs_mgr
 * hooks say what the old branches said. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "client/cl.h"
#include "replay/rl.h"
#include "synth/sy.h"
#include "nreplay/nr.h"
#include "null/nl.h"

static void config(struct ld_config *cfg)
{
    const struct ld_workload_ops *const *wl;
    char err[CM_ERR_LEN];
    size_t n;

    ld_config_defaults(cfg, 3);
    wl = cl_workloads(&n);
    assert_int_equal(ld_config_add_workloads(cfg, wl, n, err, sizeof(err)), 0);
}

static const struct ld_workload_ops *chosen(const struct ld_config *cfg, int *rc)
{
    const struct ld_workload_ops *wl = NULL;
    char err[CM_ERR_LEN];

    *rc = cl_workload_choose(cfg, &wl, err, sizeof(err));
    return wl;
}

/* Bytes of base a field table covers. */
static size_t covered(const struct cm_field *t, size_t n)
{
    size_t i, bytes = 0;

    for (i = 0; i < n; i++)
        bytes += t[i].size * (t[i].count ? t[i].count : 1);
    return bytes;
}

static void the_choice_follows_the_options(void **state)
{
    static struct ld_config cfg;
    int rc;

    (void)state;
    config(&cfg);
    assert_ptr_equal(chosen(&cfg, &rc), &sy_workload);
    assert_int_equal(rc, 0);
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX,
             "tests/fixtures/spc/seed-example.spc");
    assert_ptr_equal(chosen(&cfg, &rc), &rl_workload);
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX,
             "tests/fixtures/pcap/session.pcap");
    assert_ptr_equal(chosen(&cfg, &rc), &nr_workload);
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX,
             "tests/fixtures/nfsdump/basic.txt");
    assert_ptr_equal(chosen(&cfg, &rc), &nr_workload);
    /* a file of no known format: the block replay's plan says what is wrong */
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX, "tests/fixtures/pcap/README");
    assert_ptr_equal(chosen(&cfg, &rc), &rl_workload);
    /* --workload names one whatever the options */
    snprintf(cfg.workload, sizeof(cfg.workload), "nfs-replay");
    assert_ptr_equal(chosen(&cfg, &rc), &nr_workload);
    snprintf(cfg.workload, sizeof(cfg.workload), "nosuch");
    assert_null(chosen(&cfg, &rc));
    assert_int_equal(rc, CM_EXIT_SFS_WORKLOAD);
}

/* A workload over an NFS version it does not run over is refused in one
 * line that says which it runs over (the null workload: no NFSv4.1). */
static void a_workload_runs_over_its_nfs_versions_only(void **state)
{
    static struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg);
    cfg.nfs_version = 4;
    assert_int_equal(cl_workload_over(&cfg, &sy_workload, err, sizeof(err)), 0);
    assert_int_equal(cl_workload_over(&cfg, &nl_workload, err, sizeof(err)),
                     CM_EXIT_SFS_WORKLOAD);
    assert_string_equal(err, "the null workload does not run over NFSv4.1 yet (NFSv2, "
                             "NFSv3 only)");
    cfg.nfs_version = 2;
    assert_int_equal(cl_workload_over(&cfg, &nl_workload, err, sizeof(err)), 0);
}

/* A trace this host cannot read: the choice is left to whoever can (the
 * clients, for sfs_mgr), with the reason. */
static void an_unreadable_trace_leaves_the_choice_open(void **state)
{
    static struct ld_config cfg;
    const struct ld_workload_ops *wl = (const void *)&cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg);
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX, "/nonexistent/t.pcap");
    assert_int_equal(cl_workload_choose(&cfg, &wl, err, sizeof(err)), CL_UNDECIDED);
    assert_null(wl);
    assert_string_equal(err, "/nonexistent/t.pcap: No such file or directory");
    /* a format named decides without reading */
    snprintf(RB_TOPTS_SET(&cfg)->trace_format, 16, "nfsdump");
    assert_int_equal(cl_workload_choose(&cfg, &wl, err, sizeof(err)), 0);
    assert_ptr_equal(wl, &nr_workload);
}

/* An option of a workload that does not run is refused, with its own exit
 * code and one line naming the workloads it belongs to. */
static void another_workloads_option_is_refused(void **state)
{
    static struct ld_config cfg;
    const struct ld_workload_ops *wl;
    char err[CM_ERR_LEN];
    const unsigned char *src;

    (void)state;
    config(&cfg);
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX,
             "tests/fixtures/spc/seed-example.spc");
    NR_OPTS_SET(&cfg)->trace_scale = 2;
    assert_non_null(ld_config_row(&cfg, "scale", &src));
    *(unsigned char *)src = CM_SRC_CLI;
    assert_int_equal(cl_workload_choose(&cfg, &wl, err, sizeof(err)), CM_EXIT_SFS_SCALE);
    assert_string_equal(err,
                        "--scale 2: an option of the nfs-replay workload; this run's "
                        "is replay");
}

static void every_table_is_whole(void **state)
{
    static struct ld_config cfg;
    const struct ld_workload_ops *const *all;
    size_t i, k, n;

    (void)state;
    all = cl_workloads(&n);
    assert_true(n >= 3);
    config(&cfg); /* every group fits a config */
    for (i = 0; i < n; i++) {
        const struct ld_workload_ops *w = all[i];
        const struct ld_opt_group *const *g;

        assert_non_null(w->name);
        assert_ptr_equal(cl_workload_named(w->name), w);
        for (k = 0; k < i; k++) /* one name each */
            assert_string_not_equal(all[k]->name, w->name);
        assert_int_equal(w->version, LD_WORKLOAD_VERSION);
        assert_non_null(w->accepts);
        assert_true(w->nfs_versions & LD_NFS_V3); /* every one runs over NFSv3 */
        assert_non_null(w->plan);
        assert_non_null(w->plan_free);
        assert_non_null(w->schedule);
        assert_true(w->child_size >= sizeof(struct ld_child));
        assert_non_null(w->child_init);
        assert_non_null(w->child_phase);
        assert_non_null(w->child_results);
        assert_non_null(w->child_free);
        assert_non_null(w->report);
        assert_non_null(w->point_text);
        if (!(w->report->flags & LD_REPORT_LOAD))
            assert_non_null(w->report->requested);
        /* a point's values are read, set and passed on together */
        assert_true((w->rc_points == NULL) == (w->point_set == NULL));
        /* its own counters are all rows of its field table */
        assert_int_equal(covered(w->results.fields, w->results.n), w->results.size);
        /* its options are registered and known by their long names */
        for (g = w->options; g && *g; g++) {
            const unsigned char *src;

            assert_non_null(ld_config_opts(&cfg, *g));
            assert_true((*g)->nrows > 0 && (*g)->title != NULL);
            for (k = 0; k < (*g)->nrows; k++)
                assert_ptr_equal(ld_config_row(&cfg, (*g)->rows[k].long_name, &src),
                                 &(*g)->rows[k]);
        }
    }
}

/* The trace replays' rc variables are rows of their workloads' tables,
 * and no name of any table (the load table's included) is another's. */
static void every_option_is_one_row(void **state)
{
    static const char *const names[] = {"TRACE_FILE",   "TRACE_FORMAT",
                                        "TRACE_SPEED",  "TRACE_BLOCK_SIZE",
                                        "TRACE_WINDOW", "TRACE_SCALE"};
    static struct ld_config cfg;
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    size_t n, i, k, j, l;

    (void)state;
    config(&cfg);
    n = ld_config_sets(&cfg, sets, LD_WL_GROUPS + 1);
    for (i = 0; i < CM_ARRAY_LEN(names); i++) {
        int found = 0;

        for (k = 1; k < n; k++)
            found += cm_opt_by_rc(sets[k].t, sets[k].n, names[i]) != NULL;
        if (found != 1)
            fail_msg("rc variable %s is in %d workload tables", names[i], found);
    }
    for (k = 0; k < n; k++)
        for (i = 0; i < sets[k].n; i++)
            for (j = k; j < n; j++)
                for (l = j == k ? i + 1 : 0; l < sets[j].n; l++) {
                    const struct cm_opt *a = &sets[k].t[i], *b = &sets[j].t[l];

                    if (a->short_flag)
                        assert_true(a->short_flag != b->short_flag);
                    if (a->long_name && b->long_name)
                        assert_string_not_equal(a->long_name, b->long_name);
                    if (a->rc_name && b->rc_name)
                        assert_string_not_equal(a->rc_name, b->rc_name);
                }
}

static void the_sfs_mix_warms_up_and_runs_for_its_times(void **state)
{
    static struct ld_config cfg;
    struct ld_setup su;
    struct ld_schedule s;
    char text[64];

    (void)state;
    config(&cfg);
    cfg.warmup_s = 30;
    cfg.runtime_s = 60;
    memset(&su, 0, sizeof(su));
    su.cfg = &cfg;
    sy_workload.schedule(&su, &s);
    assert_int_equal(s.warmup_s, 30);
    assert_int_equal(s.run_arg, 60);
    assert_int_equal(s.run_wait_s, 60 + LD_PHASE_SLACK_S);
    assert_string_equal(s.run_line, "Starting 60 seconds test run.");
    sy_workload.point_text(&cfg, NULL, 600, text, sizeof(text));
    assert_string_equal(text, "600 ops/s");
    assert_int_equal(sy_workload.report->flags, LD_REPORT_LOAD | LD_REPORT_MIX);
}

static void a_replay_has_no_warm_up_and_points_per_speed(void **state)
{
    static struct ld_config cfg;
    struct ld_setup su;
    struct ld_schedule s;
    struct ld_point pt = {{4}};
    char text[LD_PATH_MAX + 64], words[4][64], err[CM_ERR_LEN];
    int n;

    (void)state;
    config(&cfg);
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX,
             "tests/fixtures/spc/seed-example.spc");
    RB_TOPTS_SET(&cfg)->trace_speed = 2;
    cfg.warmup_s = 30;
    memset(&su, 0, sizeof(su));
    su.cfg = &cfg;
    su.prog = "sfs3";
    su.log = tmpfile();
    assert_non_null(su.log);
    assert_int_equal(rl_workload.plan(&su, err, sizeof(err)), 0);
    rl_workload.schedule(&su, &s);
    assert_int_equal(s.warmup_s, 0);
    assert_int_equal(s.run_arg, 0); /* no -t: until the trace ends */
    assert_non_null(
        strstr(s.run_line, "Starting replay of tests/fixtures/spc/seed-example.spc"));
    assert_non_null(strstr(s.run_line, "at speed 2."));
    rl_workload.plan_free(&su);
    fclose(su.log);
    n = rl_workload.client_args(&cfg, &pt, 3, words, 4);
    assert_int_equal(n, 2);
    assert_string_equal(words[0], "--clients=3");
    assert_string_equal(words[1], "--speed=4");
    rl_workload.point_set(&cfg, &pt);
    assert_true(RB_TOPTS(&cfg)->trace_speed == 4);
    rl_workload.point_text(&cfg, &pt, 60, text, sizeof(text));
    assert_string_equal(text, "replay of tests/fixtures/spc/seed-example.spc at speed 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_choice_follows_the_options),
        cmocka_unit_test(a_workload_runs_over_its_nfs_versions_only),
        cmocka_unit_test(an_unreadable_trace_leaves_the_choice_open),
        cmocka_unit_test(another_workloads_option_is_refused),
        cmocka_unit_test(every_table_is_whole),
        cmocka_unit_test(every_option_is_one_row),
        cmocka_unit_test(the_sfs_mix_warms_up_and_runs_for_its_times),
        cmocka_unit_test(a_replay_has_no_warm_up_and_points_per_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
