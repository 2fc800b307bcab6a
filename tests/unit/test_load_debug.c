/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_debug.c - unit tests for debug.c: the -d list syntax of
 * docs/SFS30.md §18.3 ("3,4,8-10", 0 ignored, 1..31), its one-line errors,
 * the flag names, and which flags only child 0 acts on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "common/cm.h"
#include "common/error.h"
#include "load/debug.h"

static void lists(void **state)
{
    char err[CM_ERR_LEN];
    uint32_t m = 1;

    (void)state;
    assert_int_equal(ld_debug_parse("", &m, err, sizeof(err)), 0);
    assert_int_equal(m, 0);
    assert_int_equal(ld_debug_parse(NULL, &m, err, sizeof(err)), 0);
    assert_int_equal(m, 0);
    assert_int_equal(ld_debug_parse("3,4,8-10", &m, err, sizeof(err)), 0);
    assert_int_equal(m, 0x4 | 0x8 | 0x80 | 0x100 | 0x200);
    assert_int_equal(ld_debug_parse("0", &m, err, sizeof(err)), 0);
    assert_int_equal(m, 0);
    assert_int_equal(ld_debug_parse("0-2,31", &m, err, sizeof(err)), 0);
    assert_int_equal(m, 0x40000003u); /* flag 31 is bit 30 */
    assert_int_equal(ld_debug_parse("1-31", &m, err, sizeof(err)), 0);
    assert_int_equal(m, 0x7fffffffu);
    assert_true(ld_debug_on(m, LD_DBG_CHILD_BIOD));
}

static void bad_lists(void **state)
{
    static const char *const bad[] = {"32",  "3,",  ",3",  "a",  "3-",
                                      "5-3", "3;4", "3 4", "-3", "1-99"};
    char err[CM_ERR_LEN];
    uint32_t m;
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(bad); i++) {
        m = 7;
        if (ld_debug_parse(bad[i], &m, err, sizeof(err)) == 0)
            fail_msg("'%s' accepted", bad[i]);
        assert_int_equal(m, 0);
        assert_true(strncmp(err, "-d: '", 5) == 0);
        assert_null(strchr(err, '\n'));
    }
    ld_debug_parse("5-3", &m, err, sizeof(err));
    assert_string_equal(err, "-d: '5-3': range 5-3 is reversed");
    assert_int_equal(ld_debug_parse("32", &m, err, sizeof(err)), -ERANGE);
    assert_string_equal(err, "-d: '32': flag 32 is out of range 1..31");
}

static void names_and_children(void **state)
{
    uint32_t m = LD_DBG_BIT(LD_DBG_CHILD_ERROR) | LD_DBG_BIT(LD_DBG_CHILD_FIT);

    (void)state;
    assert_string_equal(ld_debug_name(4), "CHILD_ERROR");
    assert_string_equal(ld_debug_name(6), "CHILD_XPOINT");
    assert_string_equal(ld_debug_name(13), "CHILD_FIT");
    assert_string_equal(ld_debug_name(14), "CHILD_BIOD");
    assert_string_equal(ld_debug_name(20), "UNUSED");
    assert_null(ld_debug_name(0));
    assert_null(ld_debug_name(32));
    /* 7-14 are child 0's only */
    assert_false(ld_debug_child0_only(6));
    assert_true(ld_debug_child0_only(7));
    assert_true(ld_debug_child0_only(14));
    assert_true(ld_debug_child_on(m, LD_DBG_CHILD_ERROR, 3));
    assert_true(ld_debug_child_on(m, LD_DBG_CHILD_FIT, 0));
    assert_false(ld_debug_child_on(m, LD_DBG_CHILD_FIT, 1));
    assert_false(ld_debug_child_on(m, LD_DBG_CHILD_OPS, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists),
        cmocka_unit_test(bad_lists),
        cmocka_unit_test(names_and_children),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
