/* SPDX-License-Identifier: BSD-2-Clause */
/* test_replay_oom.c - the trace replay plan over each trace format (SPC,
 * MASTA, sysio: the trace layer's readers under it) under the failing-
 * allocator hook (helpers/th_oom.h).  Each allocation fails in turn, once
 * and for good; every run must end in -ENOMEM with a message and free all
 * it made (the ASan build checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_config.h"
#include "helpers/th_oom.h"
#include "load/options.h"
#include "replay/rl.h"

#define FIX "tests/fixtures/"

struct plan {
    const char *file;
    int version;
};

static int plan_op(void *ctx, char *err, size_t errlen)
{
    const struct plan *pl = ctx;
    struct rl_plan p;
    struct ld_config cfg;
    int rc;

    if (th_config_for(&cfg, pl->version, &rl_workload) < 0)
        return -E2BIG;
    snprintf(RB_TOPTS_SET(&cfg)->trace_file, LD_PATH_MAX, "%s", pl->file);
    rc = rl_plan_build(&p, &cfg, NULL, err, errlen);
    if (rc == 0 && p.nunits == 0)
        rc = cm_errf(err, errlen, "no units");
    if (rc == 0)
        rl_plan_free(&p);
    return rc;
}

static void replay_plans_run_out_of_memory_cleanly(void **state)
{
    struct plan spc = {FIX "spc/seed-example.spc", 3};
    struct plan masta = {FIX "masta/sample.mtr", 3};
    struct plan sysio = {FIX "sysio/sample.trace", 3};
    struct plan sysio_big = {FIX "sysio/synthetic.trace", 3};
    struct plan masta_big = {FIX "masta/synthetic-2k.mtr", 3};

    (void)state;
    assert_true(th_oom_run("plan spc", plan_op, &spc, -ENOMEM) > 3);
    assert_true(th_oom_run("plan masta", plan_op, &masta, -ENOMEM) > 3);
    assert_true(th_oom_run("plan sysio", plan_op, &sysio, -ENOMEM) > 3);
    assert_true(th_oom_run("plan sysio synthetic", plan_op, &sysio_big, -ENOMEM) > 3);
    assert_true(th_oom_run("plan masta synthetic", plan_op, &masta_big, -ENOMEM) > 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_plans_run_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
