/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_mix_v1.c - the nfsstat (version 1) mix parser's range checks
 * (docs/sfs.md, mix files): a count larger than the calls total, a total of 0 and counts
 * that do not fit 64 bits are FILE:LINE errors, never wrapped percentages;
 * a count equal to the total is still 100 %.  The hostile inputs are built
 * here from one template. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "load/mix.h"
#include "common/error.h"

/* An nfsstat v1 file with the given calls total and getattr count; the
 * other counts are 0. */
static int parse(const char *calls, const char *getattr, struct ld_mix *m, char *err,
                 size_t errlen)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "Client nfs:\n"
             "calls      badcalls   nclget     nclsleep\n"
             "%s 0 0 0\n"
             "null       getattr    setattr    root       lookup     readlink   read\n"
             "0 0%%       %s 0%%  0 0%%  0 0%%  0 0%%  0 0%%  0 0%%\n"
             "wrcache    write      create     remove     rename     link       symlink\n"
             "0 0%%  0 0%%  0 0%%  0 0%%  0 0%%  0 0%%  0 0%%\n"
             "mkdir      rmdir      readdir    statfs\n"
             "0 0%%  0 0%%  0 0%%  0 0%%\n",
             calls, getattr);
    return ld_mix_parse(m, 2, "h.mix", text, strlen(text), NULL, err, errlen);
}

static void nfsstat_counts_are_checked(void **state)
{
    struct ld_mix m;
    char err[CM_ERR_LEN];

    (void)state;
    assert_int_equal(parse("1000", "1000", &m, err, sizeof(err)), 0);
    assert_int_equal(m.pct[NF_OP_GETATTR], 100);

    /* today's "getattr -171798702%": a count far above the total */
    assert_int_equal(parse("100", "18446744073709551", &m, err, sizeof(err)), -EINVAL);
    assert_string_equal(err,
                        "h.mix:5: error: getattr count 18446744073709551 is larger than "
                        "the 100 calls");
    assert_int_equal(parse("1000", "1001", &m, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "h.mix:5: error: getattr count 1001 is larger"));

    assert_int_equal(parse("0", "0", &m, err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "h.mix:3: error: bad mix format - the calls count is 0");

    assert_int_equal(parse("100", "99999999999999999999999", &m, err, sizeof(err)),
                     -EINVAL);
    assert_string_equal(
        err, "h.mix:5: error: count 99999999999999999999999 does not fit in 64 bits");
    assert_int_equal(parse("99999999999999999999999", "1", &m, err, sizeof(err)),
                     -EINVAL);
    assert_non_null(strstr(err, "h.mix:3: error: bad mix format - the calls count does "
                                "not fit in 64 bits"));

    /* the largest total: the percentage is computed without overflow */
    assert_int_equal(
        parse("18446744073709551615", "9223372036854775808", &m, err, sizeof(err)), 0);
    assert_int_equal(m.pct[NF_OP_GETATTR], 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nfsstat_counts_are_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
