/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_oom.c - the load layer's input readers under the failing-
 * allocator hook (helpers/th_oom.h): mix and block-size files.  Each
 * allocation fails in turn, once and for good; every run must end in
 * -ENOMEM with a message and free all it made (the ASan build checks).
 * The replay's plans are test_replay_oom.c's, the generator parent
 * test_client_oom.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_oom.h"
#include "load/iodist.h"
#include "load/mix.h"

#define FIX "tests/fixtures/"

static int mix_op(void *ctx, char *err, size_t errlen)
{
    struct ld_mix m;

    return ld_mix_load(&m, 3, ctx, NULL, err, errlen);
}

static void mix_files_run_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("mix v2", mix_op, FIX "mix/v2-nfsv3-default.mix", -ENOMEM) >=
                1);
    assert_true(th_oom_run("mix v1", mix_op, FIX "mix/v1-nfsstat.mix", -ENOMEM) >= 1);
}

static int iodist_op(void *ctx, char *err, size_t errlen)
{
    struct ld_iodist d;

    return ld_iodist_load(&d, 8, ctx, NULL, err, errlen);
}

static void block_size_files_run_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("iodist", iodist_op, FIX "iodist/default.bsd", -ENOMEM) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mix_files_run_out_of_memory_cleanly),
        cmocka_unit_test(block_size_files_run_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
