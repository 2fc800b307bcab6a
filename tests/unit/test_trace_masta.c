/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_masta.c - the MaStA reader (src/trace/masta.c): the appendix
 * sample, truncated and wrong-type files, and entries built in memory for
 * block sizes (per region and all regions), block operations, syncs,
 * elapsed time, reserved entries and what follows the end entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "trace/tr.h"
#include "test_trace_util.h"

#define FIX "tests/fixtures/masta/"

static void sample(void **state)
{
    struct tr_reader r;
    struct tr_record rec[4];
    int n;

    (void)state;
    assert_int_equal(read_all(&r, NULL, FIX "sample.mtr", NULL, 0, 0, rec, 4, &n), 0);
    assert_string_equal(tr_reader_format(&r), "masta");
    assert_int_equal(n, 1);
    assert_int_equal(rec[0].op, TR_OP_READ);
    assert_int_equal(rec[0].unit, 0);
    assert_int_equal(rec[0].offset, 8192);
    assert_int_equal(rec[0].length, 24576);
    assert_int_equal(rec[0].t_ns, 0);
    assert_string_equal(tr_masta_string(&r, 0), "NAME=S. Scheuerl");
    assert_string_equal(tr_masta_string(&r, 1), "SW-DB=Napier88 V2.0");
    assert_string_equal(tr_masta_string(&r, 2), "HW-DEV0=WREN V");
    assert_null(tr_masta_string(&r, 3));
    assert_int_equal(r.warnings, 0);
    tr_reader_close(&r);
}

static void bad_files(void **state)
{
    struct tr_reader r;
    struct tr_record rec[4];
    int n;

    (void)state;
    assert_true(read_all(&r, NULL, FIX "truncated.mtr", NULL, 0, 0, rec, 4, &n) < 0);
    assert_non_null(
        strstr(r.last_error, "entry 13 (offset 104): error: truncated, 5 of 8 bytes"));
    tr_reader_close(&r);
    assert_int_equal(read_all(&r, NULL, FIX "truncated.mtr", NULL, 0, 1, rec, 4, &n), 0);
    assert_int_equal(n, 0); /* nothing from the partial entry */
    assert_int_equal(r.skipped, 1);
    tr_reader_close(&r);
    assert_true(read_all(&r, "masta", FIX "bad-first-entry.mtr", NULL, 0, 0, rec, 4, &n) <
                0);
    assert_non_null(strstr(r.last_error,
                           "entry 0 (offset 0): error: not a format "
                           "version entry (byte_0=0, byte_1=0: string header)"));
    tr_reader_close(&r);
}

#define E(a, b, c, d, e, f, g, h) a, b, c, d, e, f, g, h
static const unsigned char built[] = {
    E(0, 5, 0, 0, 0, 0, 0, 0),       /* version 0 */
    E(0, 1, 0, 0, 0, 0, 0, 0),       /* map region 0 */
    E(0, 1, 1, 0, 0, 0, 4, 0),       /* map region 1 */
    E(0, 3, 0xFF, 0, 0, 0, 0x20, 0), /* all regions: 8192 */
    E(0, 3, 1, 0, 0, 0, 2, 0),       /* region 1: 512 */
    E(0, 4, 1, 0, 0, 0, 0, 10),      /* elapsed 10 us */
    E(4, 0, 0, 0, 0, 0, 0, 3),       /* block op: 3 blocks */
    E(0, 4, 1, 0, 0, 0, 0, 5),       /* elapsed 5 us in between: allowed */
    E(2, 0, 0x10, 1, 0, 0, 7, 9),    /* write region 1 block 7, stream 9 */
    E(1, 0, 0, 0, 0, 1, 0, 0),       /* read region 0 block 256 */
    E(3, 0, 0, 0xFE, 0, 0, 0, 3),    /* sync bitmap 0x3 */
    E(3, 0, 0, 0xFF, 0, 0, 0, 0),    /* sync all */
    E(0, 6, 0, 0, 0, 0, 0, 0),       /* end */
    E(1, 0, 0, 0, 0, 0, 1, 0),       /* after the end: ignored */
};

static void built_entries(void **state)
{
    struct tr_reader r;
    struct tr_record rec[8];
    int n;

    (void)state;
    assert_int_equal(read_all(&r, "masta", NULL, built, sizeof(built), 0, rec, 8, &n), 0);
    assert_int_equal(n, 4);
    assert_int_equal(rec[0].op, TR_OP_WRITE);
    assert_int_equal(rec[0].unit, 1);
    assert_int_equal(rec[0].stream, 9);
    assert_int_equal(rec[0].offset, 7 * 512);
    assert_int_equal(rec[0].length, 3 * 512);
    assert_int_equal(rec[0].t_ns, 15000);
    assert_int_equal(rec[1].offset, 256 * 8192);
    assert_int_equal(rec[1].length, 8192);
    assert_int_equal(rec[2].op, TR_OP_SYNC);
    assert_int_equal(rec[2].flags, TR_F_UNIT_MASK);
    assert_int_equal(rec[2].unit_mask, 3);
    assert_int_equal(rec[3].flags, TR_F_ALL_UNITS);
    assert_int_equal(r.warnings, 1); /* entries after the end */
    tr_reader_close(&r);
}

static void malformed_entries(void **state)
{
    static const unsigned char zero_blockop[] = {E(0, 5, 0, 0, 0, 0, 0, 0),
                                                 E(4, 0, 0, 0, 0, 0, 0, 0)};
    static const unsigned char bad_region[] = {E(0, 5, 0, 0, 0, 0, 0, 0),
                                               E(1, 0, 0, 40, 0, 0, 0, 0)};
    static const unsigned char zero_bs[] = {E(0, 5, 0, 0, 0, 0, 0, 0),
                                            E(0, 3, 0, 0, 0, 0, 0, 0)};
    static const unsigned char short_string[] = {
        E(0, 5, 0, 0, 0, 0, 0, 0), E(0, 0, 0, 30, 'a', 'b', 'c', 'd'),
        E('e', 'f', 'g', 'h', 'i', 'j', 'k', 'l')};
    struct tr_reader r;
    struct tr_record rec[2];
    int n;

    (void)state;
    assert_true(read_all(&r, "masta", NULL, zero_blockop, sizeof(zero_blockop), 0, rec, 2,
                         &n) < 0);
    assert_non_null(
        strstr(r.last_error, "entry 1 (offset 8): error: block operation of 0"));
    tr_reader_close(&r);
    assert_true(
        read_all(&r, "masta", NULL, bad_region, sizeof(bad_region), 0, rec, 2, &n) < 0);
    assert_non_null(strstr(r.last_error, "region 40"));
    tr_reader_close(&r);
    assert_true(read_all(&r, "masta", NULL, zero_bs, sizeof(zero_bs), 0, rec, 2, &n) < 0);
    assert_non_null(strstr(r.last_error, "block size 0"));
    tr_reader_close(&r);
    assert_true(read_all(&r, "masta", NULL, short_string, sizeof(short_string), 0, rec, 2,
                         &n) < 0);
    assert_non_null(strstr(r.last_error, "truncated inside the string of entry 1"));
    tr_reader_close(&r);
}

/* What the format forbids is an error at its entry and offset in
 * strict mode; the string without NUL and the unmapped region are counted
 * warnings in lenient mode, reserved entries skipped and counted. */
static void strict_refuses_what_lenient_counts(void **state)
{
    static const unsigned char reserved_op[] = {
        E(0, 5, 0, 0, 0, 0, 0, 0), E(0, 1, 0, 0, 0, 0, 0, 0), E(9, 0, 0, 0, 0, 0, 0, 0),
        E(1, 0, 0, 0, 0, 0, 1, 0)};
    static const unsigned char unknown_config[] = {
        E(0, 5, 0, 0, 0, 0, 0, 0), E(0, 1, 0, 0, 0, 0, 0, 0), E(0, 7, 0, 0, 0, 0, 0, 0),
        E(1, 0, 0, 0, 0, 0, 1, 0)};
    /* length 12: "abcd" + "efghijkl", the last byte is not a NUL */
    static const unsigned char no_nul[] = {
        E(0, 5, 0, 0, 0, 0, 0, 0), E(0, 0, 0, 12, 'a', 'b', 'c', 'd'),
        E('e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'), E(0, 1, 0, 0, 0, 0, 0, 0),
        E(1, 0, 0, 0, 0, 0, 1, 0)};
    /* a 300-byte string (longer than the kept prefix) without its NUL */
    unsigned char long_no_nul[8 * 40];
    static const unsigned char unmapped[] = {
        E(0, 5, 0, 0, 0, 0, 0, 0), E(0, 1, 0, 0, 0, 0, 0, 0), E(4, 0, 0, 0, 0, 0, 0, 5),
        E(1, 0, 0, 3, 0, 0, 1, 0), E(2, 0, 0, 3, 0, 0, 2, 0), E(1, 0, 0, 0, 0, 0, 1, 0)};
    struct tr_reader r;
    struct tr_record rec[4];
    int n;

    (void)state;
    assert_true(
        read_all(&r, "masta", NULL, reserved_op, sizeof(reserved_op), 0, rec, 4, &n) < 0);
    assert_non_null(
        strstr(r.last_error, "entry 2 (offset 16): error: reserved opcode 9"));
    tr_reader_close(&r);
    assert_int_equal(
        read_all(&r, "masta", NULL, reserved_op, sizeof(reserved_op), 1, rec, 4, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(r.skipped, 1);
    tr_reader_close(&r);

    assert_true(read_all(&r, "masta", NULL, unknown_config, sizeof(unknown_config), 0,
                         rec, 4, &n) < 0);
    assert_non_null(
        strstr(r.last_error, "entry 2 (offset 16): error: unknown configuration type 7"));
    tr_reader_close(&r);

    assert_true(read_all(&r, "masta", NULL, no_nul, sizeof(no_nul), 0, rec, 4, &n) < 0);
    assert_non_null(strstr(r.last_error, "entry 1 (offset 8): error: string of length 12 "
                                         "has no NUL"));
    tr_reader_close(&r);
    assert_int_equal(read_all(&r, "masta", NULL, no_nul, sizeof(no_nul), 1, rec, 4, &n),
                     0);
    assert_int_equal(n, 1);
    assert_int_equal(r.warnings, 2); /* the NUL, and no end entry */
    tr_reader_close(&r);

    memset(long_no_nul, 'x', sizeof(long_no_nul));
    memcpy(long_no_nul, (unsigned char[]){E(0, 5, 0, 0, 0, 0, 0, 0)}, 8);
    memcpy(long_no_nul + 8, (unsigned char[]){E(0, 0, 0x01, 0x2c, 'a', 'b', 'c', 'd')},
           8);
    /* 300 - 4 = 296 bytes = 37 entries: entries 2..38, then 39 is left over */
    memcpy(long_no_nul + 8 * 39, (unsigned char[]){E(0, 6, 0, 0, 0, 0, 0, 0)}, 8);
    assert_true(
        read_all(&r, "masta", NULL, long_no_nul, sizeof(long_no_nul), 0, rec, 4, &n) < 0);
    assert_non_null(strstr(r.last_error, "string of length 300 has no NUL"));
    tr_reader_close(&r);

    assert_true(read_all(&r, "masta", NULL, unmapped, sizeof(unmapped), 0, rec, 4, &n) <
                0);
    assert_non_null(strstr(r.last_error, "entry 3 (offset 24): error: block operation on "
                                         "region 3, which is not mapped"));
    tr_reader_close(&r);
    assert_int_equal(
        read_all(&r, "masta", NULL, unmapped, sizeof(unmapped), 1, rec, 4, &n), 0);
    assert_int_equal(n, 3); /* still replayed */
    assert_int_equal(rec[0].length, 5 * 4096);
    assert_int_equal(r.warnings, 2); /* once for region 3, and no end entry */
    {
        unsigned i;
        uint64_t c = 0;
        for (i = 0; i < r.ncounters; i++)
            if (strcmp(r.counters[i].name, "io_on_unmapped_region") == 0)
                c = r.counters[i].n;
        assert_int_equal(c, 2);
    }
    tr_reader_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample),
        cmocka_unit_test(bad_files),
        cmocka_unit_test(built_entries),
        cmocka_unit_test(malformed_entries),
        cmocka_unit_test(strict_refuses_what_lenient_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
