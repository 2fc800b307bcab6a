/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_exit.c - the exit codes (common/exit.h): docs/EXIT_CODES.md
 * holds the same table, row for row (code, name, meaning), and nothing
 * else; a code outside the table has no name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exit.h"

static void the_docs_table_is_the_enum(void **state)
{
    FILE *f = fopen("docs/EXIT_CODES.md", "r");
    char line[2048];
    int rows = 0, codes = 0;

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        char name[64], meaning[1024];
        int code, n = 0;

        if (sscanf(line, "| %d | `%63[A-Z0-9_]` | %n", &code, name, &n) != 2 || n == 0)
            continue;
        snprintf(meaning, sizeof(meaning), "%s", line + n);
        meaning[strcspn(meaning, "\n")] = '\0';
        assert_true(strlen(meaning) > 2);
        assert_string_equal(meaning + strlen(meaning) - 2, " |");
        meaning[strlen(meaning) - 2] = '\0';
        assert_non_null(cm_exit_name(code));
        assert_string_equal(cm_exit_name(code), name);
        assert_string_equal(cm_exit_meaning(code), meaning);
        rows++;
    }
    fclose(f);
#define COUNT(c, n, m) codes++;
    CM_EXIT_MAP(COUNT)
#undef COUNT
    assert_int_equal(rows, codes);
}

static void names_and_values(void **state)
{
    (void)state;
    assert_int_equal(CM_EXIT_OK, 0);
    assert_int_equal(CM_EXIT_INTR, 130);
    assert_string_equal(cm_exit_name(CM_EXIT_SFS_MOUNTS), "SFS_MOUNTS");
    assert_null(cm_exit_name(255));
    assert_null(cm_exit_meaning(-1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_docs_table_is_the_enum),
        cmocka_unit_test(names_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
