/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rpc_fault.c - unit tests of rp_fault_parse, the text form of the
 * reply-fault injector programs take on their command line: every key in
 * any order, defaults of zero, and one line naming what is wrong for an
 * unknown key, a missing '=', a percentage out of range or a sum above 100. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "rpc/rp.h"
#include "common/error.h"

static void every_key_in_any_order(void **state)
{
    struct rp_fault f;
    char err[CM_ERR_LEN];

    (void)state;
    assert_int_equal(rp_fault_parse("-F", "seed=7,reorder=4,trunc=3,dup=2,drop=1", &f,
                                    err, sizeof(err)),
                     0);
    assert_int_equal(f.drop_pct, 1);
    assert_int_equal(f.dup_pct, 2);
    assert_int_equal(f.truncate_pct, 3);
    assert_int_equal(f.reorder_pct, 4);
    assert_int_equal(f.seed, 7);
    assert_int_equal(rp_fault_parse("-F", "drop=100", &f, err, sizeof(err)), 0);
    assert_int_equal(f.drop_pct, 100);
    assert_int_equal(f.dup_pct + f.truncate_pct + f.reorder_pct + f.seed, 0);
}

static void bad_specs_name_the_item(void **state)
{
    static const struct {
        const char *spec, *msg;
    } bad[] = {
        {"lose=5", "-F: 'lose=5' is not drop=, dup=, trunc=, reorder= or seed="},
        {"drop", "-F: 'drop' is not drop=, dup=, trunc=, reorder= or seed="},
        {"drop=101", "101 is out of range 0..100"},
        {"drop=x", "-F"},
        {"drop=60,dup=50", "-F: the percentages add up to more than 100"},
    };
    struct rp_fault f;
    char err[CM_ERR_LEN];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        assert_int_equal(rp_fault_parse("-F", bad[i].spec, &f, err, sizeof(err)),
                         -EINVAL);
        assert_non_null(strstr(err, bad[i].msg));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_key_in_any_order),
        cmocka_unit_test(bad_specs_name_the_item),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
