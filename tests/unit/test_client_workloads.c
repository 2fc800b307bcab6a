/* SPDX-License-Identifier: BSD-2-Clause */
/* test_client_workloads.c - the workload interface (load/workload.h): the
 * one place that chooses gives the replay for a trace and the SFS mix
 * otherwise; every table has what the phases, the report and sfs_mgr call
 * without asking (fio checks its engines the same way); and each table's
 * schedule and sfs_mgr hooks say what the old branches said. */
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

static void the_choice_follows_the_options(void **state)
{
    struct ld_config cfg;

    (void)state;
    ld_config_defaults(&cfg, 3);
    assert_ptr_equal(cl_workload_choose(&cfg), &sy_workload);
    snprintf(cfg.trace_file, sizeof(cfg.trace_file), "t.spc");
    assert_ptr_equal(cl_workload_choose(&cfg), &rl_workload);
}

static void every_table_is_whole(void **state)
{
    const struct ld_workload_ops *const all[] = {&sy_workload, &rl_workload};
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(all); i++) {
        const struct ld_workload_ops *w = all[i];

        assert_non_null(w->name);
        assert_int_equal(w->version, LD_WORKLOAD_VERSION);
        assert_non_null(w->accepts);
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
    }
}

static void the_sfs_mix_warms_up_and_runs_for_its_times(void **state)
{
    struct ld_config cfg;
    struct ld_setup su;
    struct ld_schedule s;
    char text[64];

    (void)state;
    ld_config_defaults(&cfg, 3);
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
    struct ld_config cfg;
    struct ld_setup su;
    struct ld_schedule s;
    struct ld_point pt = {{4}};
    char text[LD_PATH_MAX + 64], words[4][64], err[CM_ERR_LEN];
    int n;

    (void)state;
    ld_config_defaults(&cfg, 3);
    snprintf(cfg.trace_file, sizeof(cfg.trace_file),
             "tests/fixtures/spc/seed-example.spc");
    cfg.trace_speed = 2;
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
    assert_true(cfg.trace_speed == 4);
    rl_workload.point_text(&cfg, &pt, 60, text, sizeof(text));
    assert_string_equal(text, "replay of tests/fixtures/spc/seed-example.spc at speed 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_choice_follows_the_options),
        cmocka_unit_test(every_table_is_whole),
        cmocka_unit_test(the_sfs_mix_warms_up_and_runs_for_its_times),
        cmocka_unit_test(a_replay_has_no_warm_up_and_points_per_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
