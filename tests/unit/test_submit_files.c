/* SPDX-License-Identifier: BSD-2-Clause */
/* test_submit_files.c - the submit layer's readers: sfssum lines (with and
 * without INVALID, every malformed field at its FILE:LINE, points of two
 * runs mixed), the overall response time of section 17.3 on hand-computed
 * curves, and the static information's refusals (unknown keys, empty
 * values, a list where one value belongs, duplicate names, missing fields). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "submit/sb.h"

static char path[64];

static const char *write_tmp(const char *text)
{
    FILE *f;
    int fd;

    snprintf(path, sizeof(path), "/tmp/test_submit.XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static int load_sum(const char *text, struct sb_sum *s, char *err, size_t len)
{
    int rc = sb_sum_load(write_tmp(text), s, NULL, err, len);
    unlink(path);
    return rc;
}

static void sfssum_lines(void **state)
{
    struct sb_sum *s = calloc(1, sizeof(*s));
    char err[512];

    (void)state;
    assert_int_equal(
        load_sum(
            "       200     200     3.5    60091  300 3 U    2028208   2  7  2  2 3.0\n"
            "\n"
            "INVALID    400     310    45.0    93000  300 3 U    4056052   2  7  2  2 "
            "3.0\n",
            s, err, sizeof(err)),
        0);
    assert_int_equal(s->n, 2);
    assert_false(s->pts[0].invalid);
    assert_int_equal(s->pts[0].requested, 200);
    assert_true(fabs(s->pts[0].resp - 3.5) < 1e-9);
    assert_int_equal(s->pts[0].total_ops, 60091);
    assert_int_equal(s->pts[0].transport, 'U');
    assert_int_equal(s->pts[0].fileset_kb, 2028208);
    assert_int_equal(s->pts[0].procs, 7);
    assert_string_equal(s->pts[0].version, "3.0");
    assert_true(s->pts[1].invalid);
    assert_int_equal(s->pts[1].line, 3);
    free(s);
}

static void sfssum_errors_at_their_line(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"200 200 3.5 60091 300 3 U 2028208 2 7 2 2\n", ":1: error: 12 fields"},
        {"200 200 3.5 60091 300 4 U 2028208 2 7 2 2 3.0\n", ":1: error: NFS version"},
        {"200 200 3.5 60091 300 3 X 2028208 2 7 2 2 3.0\n", ":1: error: transport 'X'"},
        {"200 abc 3.5 60091 300 3 U 2028208 2 7 2 2 3.0\n", ":1: error: throughput"},
        {"200 200 3.5 60091 300 3 U 2028208 2 7 2 2 3.0\n"
         "400 400 3.9 120054 300 3 T 4056052 2 7 2 2 3.0\n",
         ":2: error: not the run of line 1"},
        {"\n\n", "error: no load point"},
        {"INVALID\n", ":1: error: 0 fields"},
    };
    struct sb_sum *s = calloc(1, sizeof(*s));
    char err[512];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(load_sum(cases[i].text, s, err, sizeof(err)), -EINVAL);
        if (strstr(err, cases[i].want) == NULL)
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].want);
    }
    free(s);
}

/* Trapezoids from (0, 0) through the valid points in throughput order. */
static void overall_response_time(void **state)
{
    struct sb_sum *s = calloc(1, sizeof(*s));
    double ort, peak;

    (void)state;
    s->n = 4;
    s->pts[0].ops = 200, s->pts[0].resp = 2;
    s->pts[1].ops = 600, s->pts[1].resp = 6; /* out of order on purpose */
    s->pts[2].ops = 400, s->pts[2].resp = 4;
    s->pts[3].ops = 900, s->pts[3].resp = 99, s->pts[3].invalid = 1;
    assert_int_equal(sb_sum_curve(s, &ort, &peak), 3);
    /* area = 200*2/2 + 200*(2+4)/2 + 200*(4+6)/2 = 200 + 600 + 1000 */
    assert_true(fabs(ort - 1800.0 / 600.0) < 1e-9);
    assert_true(fabs(peak - 600) < 1e-9);
    s->pts[0].invalid = s->pts[1].invalid = s->pts[2].invalid = 1;
    assert_int_equal(sb_sum_curve(s, &ort, &peak), 0);
    assert_true(ort == 0 && peak == 0);
    free(s);
}

static const char *info_err(const char *text)
{
    static char err[512];
    struct sb_info *info = calloc(1, sizeof(*info));
    int rc = sb_info_load(write_tmp(text), info, NULL, err, sizeof(err));

    unlink(path);
    assert_int_equal(rc, -EINVAL);
    free(info);
    return err;
}

static void info_refusals(void **state)
{
    (void)state;
    assert_non_null(strstr(info_err("company: x\nfrobnicate: 1\n"),
                           ":2: error: unknown key 'frobnicate'"));
    assert_non_null(strstr(info_err("company:\n"), ":1: error: company is empty"));
    assert_non_null(
        strstr(info_err("company: [a, b]\n"), ":1: error: company: one value"));
    assert_non_null(strstr(info_err("server:\n  model: x\n  colour: red\n"),
                           ":3: error: unknown key 'server.colour'"));
    assert_non_null(strstr(info_err("networks:\n  - name: a\n    description: x\n"
                                    "  - name: a\n    description: y\n"),
                           ":4: error: networks.2: the name 'a' is used twice"));
    assert_non_null(strstr(info_err("load_generator_types:\n  - name: a\n"),
                           ":2: error: load_generator_types.1.vendor is missing"));
    assert_non_null(strstr(info_err("- a\n- b\n"), "a YAML mapping"));
    assert_non_null(strstr(info_err("company: x\n"), "error: license_number is missing"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sfssum_lines),
        cmocka_unit_test(sfssum_errors_at_their_line),
        cmocka_unit_test(overall_response_time),
        cmocka_unit_test(info_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
