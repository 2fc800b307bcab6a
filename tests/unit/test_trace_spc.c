/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_spc.c - the SPC reader (src/trace/spc.c) and the shared input
 * code: the fixtures with their expected figures and messages
 * (tests/fixtures/spc, README), and inputs built in memory through fmemopen
 * for huge lines, NUL bytes, CRLF, overflow, lenient counting and format
 * detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr.h"
#include "test_trace_util.h"

#define FIX "tests/fixtures/spc/"

static void seed_example(void **state)
{
    struct tr_reader r;
    struct tr_record recs[16];
    int n;

    (void)state;
    assert_int_equal(
        read_all(&r, "spc", FIX "seed-example.spc", NULL, 0, 0, recs, 16, &n), 0);
    assert_int_equal(n, 11);
    assert_string_equal(tr_reader_format(&r), "spc");
    assert_int_equal(recs[3].unit, 1);
    assert_int_equal(recs[3].offset, 3436288ull * 512);
    assert_int_equal(recs[3].length, 15872);
    assert_int_equal(recs[3].op, TR_OP_WRITE);
    assert_int_equal(recs[3].t_ns, 1250720000);
    assert_int_equal(recs[6].op, TR_OP_READ);
    assert_int_equal(recs[9].t_ns, recs[10].t_ns); /* equal stamps kept equal */
    assert_int_equal(recs[8].t_ns, 2448003000);
    assert_int_equal(recs[8].line, 9);
    tr_reader_close(&r);
}

static void edge_cases(void **state)
{
    struct tr_reader r;
    struct tr_record recs[16];
    int n;

    (void)state;
    assert_int_equal(read_all(&r, "spc", FIX "edge-cases.spc", NULL, 0, 0, recs, 16, &n),
                     0);
    assert_int_equal(n, 11);
    assert_int_equal(recs[0].unit, 1);            /* first record not ASU 0 */
    assert_int_equal(recs[4].length, 0);          /* zero size */
    assert_int_equal(recs[5].t_ns, 500000000);    /* CRLF, "0.5" */
    assert_int_equal(recs[6].t_ns, recs[7].t_ns); /* 1.250000000 == 1.25 */
    assert_int_equal(recs[9].length, 1048576);    /* trailing comma */
    tr_reader_close(&r);
}

static void large_lba(void **state)
{
    struct tr_reader r;
    struct tr_record recs[8];
    int n;

    (void)state;
    assert_int_equal(
        read_all(&r, "spc", FIX "edge-large-lba.spc", NULL, 0, 0, recs, 8, &n), 0);
    assert_int_equal(n, 4);
    assert_int_equal(recs[1].offset, (1ull << 32) * 512);
    tr_reader_close(&r);
}

static void bad_files(void **state)
{
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {"bad-missing-field.spc", ":3: error: expected at least 5 fields, found 4"},
        {"bad-nonnumeric-lba.spc", ":2: error: LBA '2093984O' is not a decimal integer"},
        {"bad-opcode.spc", ":4: error: opcode 'X' is not R/r/W/w"},
        {"bad-decreasing-timestamp.spc",
         ":5: error: timestamp 1.209859 smaller than 1.250720 (line 4)"},
        {"bad-negative-size.spc",
         ":2: error: size '-8192' is not a non-negative integer"},
        {"bad-timestamp-no-fraction.spc", ":3: error: timestamp '1' is not s.d"},
        {"bad-empty.spc", "no records"},
        {"bad-missing-asu0.spc", "ASU 0 missing"},
        {"bad-asu-gap.spc", "ASU 1 missing"},
        {"seed-example-raw.spc", ":9: error: timestamp '2 448003' is not s.d"},
    };
    struct tr_reader r;
    struct tr_record rec;
    char path[256];
    size_t i;
    int n;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(cases); i++) {
        snprintf(path, sizeof(path), FIX "%s", cases[i].file);
        assert_true(read_all(&r, "spc", path, NULL, 0, 0, &rec, 1, &n) < 0);
        if (!strstr(r.last_error, cases[i].msg))
            fail_msg("%s: got '%s'", cases[i].file, r.last_error);
        tr_reader_close(&r);
    }
}

static void lenient_counts(void **state)
{
    struct tr_reader r;
    struct tr_record recs[16];
    int n;

    (void)state;
    assert_int_equal(
        read_all(&r, "spc", FIX "seed-example-raw.spc", NULL, 0, 1, recs, 16, &n), 0);
    assert_int_equal(n, 10);
    assert_int_equal(r.skipped, 1);
    tr_reader_close(&r);
    /* out of order: kept, planned at the previous time, counted */
    assert_int_equal(
        read_all(&r, "spc", FIX "bad-decreasing-timestamp.spc", NULL, 0, 1, recs, 16, &n),
        0);
    assert_int_equal(n, 11);
    assert_int_equal(recs[4].t_ns, recs[3].t_ns);
    assert_string_equal(r.counters[0].name, "out_of_order");
    tr_reader_close(&r);
    /* a missing ASU is a warning in lenient mode */
    assert_int_equal(read_all(&r, "spc", FIX "bad-asu-gap.spc", NULL, 0, 1, recs, 16, &n),
                     0);
    assert_int_equal(r.warnings, 1);
    tr_reader_close(&r);
}

static void memory_inputs(void **state)
{
    struct tr_reader r;
    struct tr_record recs[4];
    size_t big = TR_LINE_MAX + 100;
    char *text = malloc(big + 64);
    int n;

    (void)state;
    /* NUL byte in line 2 */
    assert_true(read_all(&r, "spc", NULL, "0,1,512,R,0.1\n0,2\0,512,R,0.2\n", 30, 0, recs,
                         4, &n) < 0);
    assert_non_null(strstr(r.last_error, "mem:2: error: NUL byte"));
    tr_reader_close(&r);
    /* 2^64 does not fit */
    assert_true(read_all(&r, "spc", NULL, "0,18446744073709551616,1,R,0.0\n", 31, 0, recs,
                         4, &n) < 0);
    assert_non_null(strstr(r.last_error, ":1: error: LBA"));
    tr_reader_close(&r);
    /* LBA x 512 + size beyond 64 bits */
    assert_true(read_all(&r, "spc", NULL, "0,18446744073709551615,1,R,0.0\n", 31, 0, recs,
                         4, &n) < 0);
    assert_non_null(strstr(r.last_error, "does not fit in 64 bits"));
    tr_reader_close(&r);
    /* a huge line 2 is reported, and skipped in lenient mode */
    assert_non_null(text);
    strcpy(text, "0,1,512,R,0.1\n");
    memset(text + 14, '7', big);
    strcpy(text + 14 + big, "\n0,3,512,W,0.3");
    assert_true(read_all(&r, "spc", NULL, text, strlen(text), 0, recs, 4, &n) < 0);
    assert_non_null(strstr(r.last_error, ":2: error: line longer than"));
    tr_reader_close(&r);
    assert_int_equal(read_all(&r, "spc", NULL, text, strlen(text), 1, recs, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(recs[1].line, 3);
    assert_int_equal(recs[1].offset, 3 * 512);
    tr_reader_close(&r);
    free(text);
    /* blank lines and CR are fine; whitespace inside a field is not */
    assert_int_equal(
        read_all(&r, "spc", NULL, "\n  \n0,1,512,R,0.1\r\n\n", 20, 0, recs, 4, &n), 0);
    assert_int_equal(n, 1);
    tr_reader_close(&r);
    assert_true(read_all(&r, "spc", NULL, "0,1 2,512,R,0.1\n", 16, 0, recs, 4, &n) < 0);
    tr_reader_close(&r);
}

static void detection(void **state)
{
    static const unsigned char spc[] = "0,20941264,8192,W,0.551706\n";
    static const unsigned char sysio[] = "header(headerbom,headernode(1.2))\n";
    static const unsigned char masta[] = {0, 5, 0, 0, 0, 0, 0, 0};

    (void)state;
    assert_string_equal(tr_probe(spc, sizeof(spc) - 1)->name, "spc");
    assert_string_equal(tr_probe(sysio, sizeof(sysio) - 1)->name, "sysio");
    assert_string_equal(tr_probe(masta, sizeof(masta))->name, "masta");
    assert_null(tr_probe((const unsigned char *)"hello world\n", 12));
    assert_null(tr_find_format("csv"));
}

/* A failed detection says, for each format, why the first
 * non-blank line is not that format. */
static void detection_failure_says_why(void **state)
{
    struct tr_reader r;
    struct tr_record recs[2];
    int n;

    (void)state;
    assert_true(read_all(&r, NULL, NULL, "0,0x10,512,R,0.0\n", 17, 0, recs, 2, &n) < 0);
    assert_non_null(strstr(r.last_error, "mem: cannot tell the trace format"));
    assert_non_null(strstr(r.last_error, "line 1: not SPC: LBA '0x10' is not decimal; "
                                         "not MaStA: the first entry starts 30 2c"));
    assert_non_null(strstr(r.last_error, "; not sysio: '0,0x10,512,R,0.0' starts with "
                                         "neither header( nor tracetype("));
    assert_true(read_all(&r, NULL, NULL, "\n\n0,1,2,R\n", 10, 0, recs, 2, &n) < 0);
    assert_non_null(
        strstr(r.last_error, "line 3: not SPC: 4 comma-separated fields, 5 needed"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_example),   cmocka_unit_test(edge_cases),
        cmocka_unit_test(large_lba),      cmocka_unit_test(bad_files),
        cmocka_unit_test(lenient_counts), cmocka_unit_test(memory_inputs),
        cmocka_unit_test(detection),      cmocka_unit_test(detection_failure_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
