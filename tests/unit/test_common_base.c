/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common.c - unit tests for the common layer: Park-Miller sequence,
 * checked number parsing, FILE:LINE reports, atomic files and YAML output. */
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

#include "helpers/th_text.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/num.h"
#include "common/yaml.h"
#include "common/text.h"

static void rng_matches_park_miller(void **state)
{
    struct cm_rng r;
    int i;

    (void)state;
    /* Park & Miller (1988): from seed 1, the 10 000th value is 1043618065. */
    cm_rng_seed(&r, 1);
    for (i = 0; i < 10000; i++)
        cm_rng_next(&r);
    assert_int_equal(r.state, 1043618065);
}

static void rng_below_stays_in_range(void **state)
{
    struct cm_rng r;
    unsigned counts[7] = {0};
    int i;

    (void)state;
    cm_rng_seed(&r, CM_RNG_DEFAULT_SEED);
    for (i = 0; i < 70000; i++) {
        uint32_t v = cm_rng_below(&r, 7);
        assert_true(v < 7);
        counts[v]++;
    }
    for (i = 0; i < 7; i++)
        assert_in_range(counts[i], 9500, 10500);
}

static void parse_numbers(void **state)
{
    char err[CM_ERR_LEN];
    int64_t v;
    uint64_t u;

    (void)state;
    assert_int_equal(cm_parse_i64("-l", "400", 0, 1000000, &v, err, sizeof(err)), 0);
    assert_int_equal(v, 400);
    assert_int_equal(cm_parse_i64("-l", "abc", 0, 10, &v, err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "-l: 'abc' is not an integer");
    assert_int_equal(cm_parse_i64("-p", "11", 1, 10, &v, err, sizeof(err)), -ERANGE);
    assert_string_equal(err, "-p: 11 is out of range 1..10");
    assert_int_equal(cm_parse_u64("size", "-8192", 0, UINT64_MAX, &u, err, sizeof(err)),
                     -EINVAL);
    assert_int_equal(
        cm_parse_u64("x", "18446744073709551616", 0, UINT64_MAX, &u, err, sizeof(err)),
        -ERANGE);
    assert_int_equal(cm_parse_size("--max-bytes", "64M", &u, err, sizeof(err)), 0);
    assert_int_equal(u, 64u << 20);
}

static void hex_digits_and_bytes(void **state)
{
    uint8_t b[3] = {0, 0, 0};

    (void)state;
    assert_int_equal(cm_hex_digit('7'), 7);
    assert_int_equal(cm_hex_digit('b'), 11);
    assert_int_equal(cm_hex_digit('F'), 15);
    assert_int_equal(cm_hex_digit('g'), -1);
    assert_int_equal(cm_hex_decode("00aB7f", 3, b), 0);
    assert_int_equal(b[0], 0x00);
    assert_int_equal(b[1], 0xab);
    assert_int_equal(b[2], 0x7f);
    assert_int_equal(cm_hex_decode("1x", 1, b), -EINVAL);
}

static void report_format(void **state)
{
    char buf[256];
    struct cm_pos pos = {"mix.txt", 5, -1};
    struct cm_pos bin = {"t.mtr", 0, 104};

    (void)state;
    cm_report_buf(buf, sizeof(buf), &pos, CM_ERROR, "unknown op name: %s", "frob");
    assert_string_equal(buf, "mix.txt:5: error: unknown op name: frob");
    cm_report_buf(buf, sizeof(buf), &bin, CM_WARNING, "truncated");
    assert_string_equal(buf, "t.mtr: byte 104: warning: truncated");
}

static void yaml_round_trip(void **state)
{
    char path[] = "/tmp/freesfs-test-yaml-XXXXXX";
    char err[CM_ERR_LEN], text[512];
    struct cm_yaml *y;
    int fd;

    (void)state;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    y = cm_yaml_open(path, err, sizeof(err));
    assert_non_null(y);
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "version", "3.0");
    cm_yaml_kv_int(y, "calls", 60091);
    cm_yaml_kv_double(y, "ratio", 0.5, 3);
    cm_yaml_key(y, "list");
    cm_yaml_flow_seq_begin(y);
    cm_yaml_int(y, 1);
    cm_yaml_int(y, 2);
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
    assert_int_equal(cm_yaml_close(y, err, sizeof(err)), 0);
    assert_true(th_text_of_file(path, text, sizeof(text)) > 0);
    unlink(path);
    assert_non_null(strstr(text, "version: '3.0'"));
    assert_non_null(strstr(text, "calls: 60091"));
    assert_non_null(strstr(text, "ratio: 0.500"));
    assert_non_null(strstr(text, "list: [1, 2]"));
}

/* The line walker never hands a parser a line cut at a NUL: the line is an
 * error at its number and skipped; the lines around it are read. */
static void text_lines_with_a_nul_are_errors(void **state)
{
    static const char text[] = "one\nlookup 3\0006%\nthree\n";
    struct cm_text t;
    char err[256];
    long line;
    const char *s;

    (void)state;
    assert_int_equal(cm_text_nul(text, sizeof(text) - 1, &line), 2);
    assert_int_equal(line, 9);
    assert_int_equal(cm_text_nul("abc\n", 4, NULL), 0);
    cm_text_init(&t, "f.mix", text, sizeof(text) - 1, NULL, err, sizeof(err));
    s = cm_text_next(&t, &line);
    assert_string_equal(s, "one");
    s = cm_text_next(&t, &line);
    assert_string_equal(s, "three");
    assert_int_equal(line, 3);
    assert_null(cm_text_next(&t, &line));
    assert_int_equal(t.errors, 1);
    assert_string_equal(
        err, "f.mix:2: error: a NUL byte at column 9 (a text file holds none)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_matches_park_miller),
        cmocka_unit_test(rng_below_stays_in_range),
        cmocka_unit_test(parse_numbers),
        cmocka_unit_test(hex_digits_and_bytes),
        cmocka_unit_test(report_format),
        cmocka_unit_test(yaml_round_trip),
        cmocka_unit_test(text_lines_with_a_nul_are_errors),
    };
    return cmocka_run_group_tests_name("common", tests, NULL, NULL);
}
