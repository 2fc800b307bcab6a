/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_opt.c - unit tests for the option table's main() opening
 * (cm_opt_main): defaults, operands, --help on the given stream (wrapped
 * at 80 columns), and the row at fault named on a range error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helpers/th_text.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/opt.h"

struct demo_cli {
    int load;
    char rc[64];
};

#define F(f) offsetof(struct demo_cli, f), sizeof(((struct demo_cli *)0)->f)

static const struct cm_opt demo_opts[] = {
    {'l', "load", "LOAD", CM_OPT_INT, F(load), "60", 1, 1000, "ops/s", "LOAD",
     "Requested load.", NULL, NULL, 0, 3},
    {'r', "rc", NULL, CM_OPT_STRING, F(rc), "", 0, 0, NULL, "RC", "The rc file.", NULL,
     NULL, 0, 2},
};

static int run_main(struct demo_cli *cli, char **argv, FILE *out, int *first,
                    const struct cm_opt **bad, char *err)
{
    int argc = 0;

    while (argv[argc])
        argc++;
    memset(cli, 0x5a, sizeof(*cli));
    return cm_opt_main(demo_opts, CM_ARRAY_LEN(demo_opts), cli, argc, argv,
                       "usage: demo [-l LOAD] [-r RC] FILE...\n", out, first, bad, err,
                       CM_ERR_LEN);
}

static void defaults_then_the_command_line_then_the_operands(void **state)
{
    char *argv[] = {"demo", "-r", "x_rc", "a", "b", NULL};
    struct demo_cli cli;
    char err[CM_ERR_LEN] = "";
    int first = -1;

    (void)state;
    assert_int_equal(run_main(&cli, argv, stdout, &first, NULL, err), 0);
    assert_int_equal(cli.load, 60);
    assert_string_equal(cli.rc, "x_rc");
    assert_int_equal(first, 3);
    assert_string_equal(argv[first], "a");
}

static void help_prints_usage_and_the_table_on_the_given_stream(void **state)
{
    char *argv[] = {"demo", "--help", NULL};
    struct demo_cli cli;
    char err[CM_ERR_LEN] = "", text[4096];
    FILE *out = tmpfile();
    int first;

    (void)state;
    assert_non_null(out);
    assert_int_equal(run_main(&cli, argv, out, &first, NULL, err), 1);
    rewind(out);
    assert_true(th_text_of_stream(out, text, sizeof(text)) > 0);
    fclose(out);
    assert_memory_equal(text, "usage: demo [-l LOAD]", 21);
    assert_non_null(strstr(text, "-l, --load LOAD"));
    /* an option's text wraps under its column, within 80 columns */
    assert_non_null(strstr(text, "Requested load. (default 60, range 1..1000 ops/s)\n"
                                 "                               [LOAD]\n"));
    assert_true(th_text_unwrap(text) <= 80);
    assert_non_null(strstr(text, "(default 60, range 1..1000 ops/s) [LOAD]"));
    assert_non_null(strstr(text, "--help"));
}

static void a_value_out_of_range_names_its_row_and_prints_nothing(void **state)
{
    char *argv[] = {"demo", "-l", "5000", NULL};
    const struct cm_opt *bad = NULL;
    struct demo_cli cli;
    char err[CM_ERR_LEN] = "", text[256] = "";
    FILE *out = tmpfile();
    int first;

    (void)state;
    assert_non_null(out);
    assert_int_equal(run_main(&cli, argv, out, &first, &bad, err), -ERANGE);
    rewind(out);
    assert_int_equal(th_text_of_stream(out, text, sizeof(text)), 0);
    fclose(out);
    assert_ptr_equal(bad, &demo_opts[0]);
    assert_int_equal(bad->exit_code, 3);
    assert_non_null(strstr(err, "5000"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_then_the_command_line_then_the_operands),
        cmocka_unit_test(help_prints_usage_and_the_table_on_the_given_stream),
        cmocka_unit_test(a_value_out_of_range_names_its_row_and_prints_nothing),
    };
    return cmocka_run_group_tests_name("common_opt", tests, NULL, NULL);
}
