/* SPDX-License-Identifier: BSD-2-Clause */
/* test_submit_oom.c - sfs_generate's readers under the failing-allocator
 * hook (helpers/th_oom.h): the static information file (YAML) and the
 * sfssum file of docs/examples (copied into tests/fixtures/submit).  Each
 * allocation fails in turn, once and for good; every run must end in
 * -ENOMEM with a message and free all it made (the ASan build checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_oom.h"
#include "submit/sb.h"
#include "common/error.h"

#define FIX "tests/fixtures/submit/"

static int info_op(void *ctx, char *err, size_t errlen)
{
    struct sb_info *info = calloc(1, sizeof(*info)); /* large; not the subject */
    int rc;

    (void)ctx;
    assert_non_null(info);
    rc = sb_info_load(FIX "example_info.yaml", info, NULL, err, errlen);
    if (rc == 0)
        sb_info_free(info);
    free(info);
    return rc;
}

static void info_file_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("sb_info_load", info_op, NULL, -ENOMEM) > 10);
}

static int sum_op(void *ctx, char *err, size_t errlen)
{
    struct sb_sum *sum = calloc(1, sizeof(*sum));
    int rc;

    (void)ctx;
    assert_non_null(sum);
    rc = sb_sum_load(FIX "sfssum.example", sum, NULL, err, errlen);
    if (rc == 0 && sum->n == 0)
        rc = cm_errf(err, errlen, "no points");
    free(sum);
    return rc;
}

static void sfssum_file_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("sb_sum_load", sum_op, NULL, -ENOMEM) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(info_file_runs_out_of_memory_cleanly),
        cmocka_unit_test(sfssum_file_runs_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
