/* SPDX-License-Identifier: BSD-2-Clause */
/* test_analyze_oom.c - sfs_trace's commands under the failing-allocator
 * hook (helpers/th_oom.h): stats and mrc (exact, per unit in a shared and
 * in isolated caches, sampled with its exact check) over an SPC, a MaStA
 * and a sysio fixture, with a YAML file.  Each allocation fails in turn,
 * once and for good; every run must fail with exit 1 and "out of memory"
 * on its diagnostics, free all it made (the ASan build checks) and leave
 * no YAML or temporary file behind.  One thread: the hook is per thread,
 * and a reader thread would make the failing allocation vary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/cli.h"
#include "common/error.h"
#include "helpers/th_oom.h"
#include "helpers/th_text.h"

#define FIX "tests/fixtures/"

struct az_case {
    const char *argv[16];
    char dir[64];
    char yaml[96];
};

static void make_dir(void *ctx)
{
    struct az_case *k = ctx;

    snprintf(k->dir, sizeof(k->dir), "/tmp/test_analyze_oom.XXXXXX");
    assert_non_null(mkdtemp(k->dir));
    snprintf(k->yaml, sizeof(k->yaml), "%s/r.yaml", k->dir);
}

static void remove_dir(void *ctx)
{
    struct az_case *k = ctx;

    unlink(k->yaml);
    assert_int_equal(rmdir(k->dir), 0); /* fails when a temporary file was left */
}

/* One sfs_trace command from parse to exit code.  A failure must be exit 1
 * saying "out of memory", with no YAML file; a success writes the YAML. */
static int command_op(void *ctx, char *err, size_t errlen)
{
    struct az_case *k = ctx;
    char *argv[20], diag_text[1024];
    struct az_cli *c = calloc(1, sizeof(*c)); /* large; not the subject */
    FILE *out = fopen("/dev/null", "w"), *diag = tmpfile();
    int argc = 0, rc, code, files;

    assert_non_null(c);
    assert_non_null(out);
    assert_non_null(diag);
    argv[argc++] = "sfs_trace";
    while (k->argv[argc - 1])
        argv[argc] = (char *)k->argv[argc - 1], argc++;
    argv[argc++] = "--threads";
    argv[argc++] = "1";
    argv[argc++] = "--yaml";
    argv[argc++] = k->yaml;
    argv[argc] = NULL;
    rc = az_cli_parse(c, argc, argv, err, errlen);
    assert_int_equal(rc, 0); /* the option table allocates nothing */
    code = az_cli_run(c, out, diag);
    free(c);
    fclose(out);
    rewind(diag);
    th_text_of_stream(diag, diag_text, sizeof(diag_text));
    fclose(diag);
    files = th_oom_dir_entries(k->dir);
    if (code == AZ_EXIT_OK)
        return files == 1 ? 0 : cm_errf(err, errlen, "%d files after a success", files);
    if (files != 0)
        return cm_errf(err, errlen, "%d files left after a failure", files);
    if (code == AZ_EXIT_INPUT && strstr(diag_text, "out of memory"))
        return cm_errf(err, errlen, "%s", diag_text), -ENOMEM;
    return cm_errf(err, errlen, "exit %d, not out of memory: %s", code, diag_text);
}

static void check(const char *name, const char *const *args)
{
    struct az_case k;
    struct th_oom_case c = {name, make_dir, command_op, remove_dir, -ENOMEM, 0};
    int i;

    memset(&k, 0, sizeof(k));
    for (i = 0; args[i]; i++)
        k.argv[i] = args[i];
    assert_true(th_oom_check(&c, &k) > 2);
}

static void stats_runs_out_of_memory_cleanly(void **state)
{
    static const char *const spc[] = {"stats", FIX "spc/seed-example.spc", NULL};
    static const char *const masta[] = {"stats", FIX "masta/sample.mtr", NULL};
    static const char *const sysio[] = {"stats", FIX "sysio/sample.trace", NULL};

    (void)state;
    check("stats spc", spc);
    check("stats masta", masta);
    check("stats sysio", sysio);
}

static void exact_mrc_runs_out_of_memory_cleanly(void **state)
{
    static const char *const plain[] = {"mrc", FIX "spc/seed-example.spc", NULL};
    static const char *const shared[] = {"mrc", FIX "spc/seed-example.spc", "--per-unit",
                                         NULL};
    static const char *const isolated[] = {"mrc", FIX "masta/sample.mtr",
                                           "--per-unit-isolated", NULL};
    static const char *const judy1[] = {"mrc", FIX "sysio/sample.trace", "--method",
                                        "judy1", NULL};

    (void)state;
    check("mrc", plain);
    check("mrc --per-unit", shared);
    check("mrc --per-unit-isolated", isolated);
    check("mrc --method judy1", judy1);
}

static void sampled_mrc_runs_out_of_memory_cleanly(void **state)
{
    static const char *const sampled[] = {"mrc", FIX "spc/seed-example.spc", "--sample",
                                          "0.5", "--sample-check",           NULL};

    (void)state;
    check("mrc --sample --sample-check", sampled);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stats_runs_out_of_memory_cleanly),
        cmocka_unit_test(exact_mrc_runs_out_of_memory_cleanly),
        cmocka_unit_test(sampled_mrc_runs_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
