/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_exit.c - the exit codes (common/exit.h): docs/EXIT_CODES.md
 * holds the same table, row for row (code, name, meaning), and nothing
 * else; a code outside the table has no name; no code is one a shell
 * reads as its own (126-255, but 130, 175 and 182). */
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

/* exit.h's rule: every code fits in an exit status, and none lies in
 * 126-255 (a shell's "not executable", "not found" and "killed by signal
 * N") except 130 (interrupted, the shell's own convention) and SFS 3.0's
 * 175 and 182. */
static void no_code_a_shell_reads_as_its_own(void **state)
{
    int bad = 0;

    (void)state;
#define RULE(c, n, m)                                                                    \
    if ((c) < 0 || (c) > 255 ||                                                          \
        ((c) >= 126 && (c) != 130 && (c) != 175 && (c) != 182)) {                        \
        fprintf(stderr, "exit code %d (%s) breaks the rule\n", (c), #n);                 \
        bad++;                                                                           \
    }
    CM_EXIT_MAP(RULE)
#undef RULE
    assert_int_equal(bad, 0);
}

/* FreeSFS's own options have the block from 32 up, below SFS's codes and
 * in the order they were added; SFS's keep 96-121. */
static void freesfs_options_below_sfs_codes(void **state)
{
    (void)state;
    assert_int_equal(CM_EXIT_SFS_OPEN_LOOP, 32);
    assert_int_equal(CM_EXIT_SFS_SCALE, 50);
    assert_true(CM_EXIT_SFS_SCALE < CM_EXIT_SFS_CHILD);
    assert_int_equal(CM_EXIT_SFS_USAGE, 96);
    assert_int_equal(CM_EXIT_SFS_LOAD, 97);
    assert_int_equal(CM_EXIT_SFS_CLIENT, 121);
    assert_int_equal(CM_EXIT_SFS_CHILD, 83);
    assert_int_equal(CM_EXIT_SFS_CLOCK, 175);
    assert_int_equal(CM_EXIT_SFS_MOUNTS, 182);
    for (int c = CM_EXIT_SFS_OPEN_LOOP; c <= CM_EXIT_SFS_SCALE; c++) {
        assert_non_null(cm_exit_name(c));
        assert_int_equal(strncmp(cm_exit_name(c), "SFS_", 4), 0);
    }
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
        cmocka_unit_test(no_code_a_shell_reads_as_its_own),
        cmocka_unit_test(freesfs_options_below_sfs_codes),
        cmocka_unit_test(names_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
