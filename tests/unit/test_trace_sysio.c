/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_sysio.c - the sysio / Catamount reader (src/trace/sysio.c):
 * the paper's events (sample.trace), the synthetic trace's transfers, the
 * bad lines of bad.trace with their line numbers, and pairing rules built
 * in memory (I/O without iowait, unknown descriptors, failed calls). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "trace/tr.h"
#include "test_trace_util.h"

#define FIX "tests/fixtures/sysio/"

static void sample(void **state)
{
    struct tr_reader r;
    struct tr_record rec[16];
    char name[256];
    int n;

    (void)state;
    assert_int_equal(read_all(&r, NULL, FIX "sample.trace", NULL, 0, 0, rec, 16, &n), 0);
    assert_string_equal(tr_reader_format(&r), "sysio");
    assert_int_equal(n, 9);
    assert_int_equal(rec[0].op, TR_OP_OPEN);
    assert_int_equal(rec[0].flags, TR_F_CREATE | TR_F_TRUNC);
    assert_int_equal(rec[0].mode, 0664);
    assert_non_null(strstr(tr_reader_unit_name(&r, 0, name, sizeof(name)), "/uneYK8P4/"));
    assert_int_equal(rec[1].op, TR_OP_GETATTR);
    assert_int_equal(rec[2].op, TR_OP_WRITE);
    assert_int_equal(rec[2].offset, 0);
    assert_int_equal(rec[2].length, 524288);
    assert_int_equal(rec[3].offset, 524288);
    /* stream 2: open of /rXGyxud/alegra.out, then the iwritex extents */
    assert_int_equal(rec[4].op, TR_OP_OPEN);
    assert_int_equal(rec[4].stream, 1);
    assert_string_equal(tr_reader_unit_name(&r, 1, name, sizeof(name)),
                        "/rXGyxud/alegra.out");
    assert_int_equal(rec[5].offset, 0);
    assert_int_equal(rec[5].length, 15);
    assert_int_equal(rec[6].offset, 20);
    assert_int_equal(rec[6].length, 5);
    assert_int_equal(rec[7].offset, 30);
    assert_int_equal(rec[8].offset, 50);
    assert_int_equal(rec[8].length, 10);
    tr_reader_close(&r);
}

static void bad_lines(void **state)
{
    static const char *const errors[] = {
        ":1: error: event before any header line",
        ":5: error: unknown tracetype 'ENTRY'",
        ":6: error: bad seconds field",
        ":7: error: missing microseconds field",
        ":8: error: microseconds out of range",
        ":9: error: not an event or header line",
        ":10: error: empty event name",
        ":15: error: text that is not name(value)",
    };
    struct tr_reader r;
    struct tr_record rec[8];
    int n;
    size_t i;

    (void)state;
    assert_true(read_all(&r, NULL, FIX "bad.trace", NULL, 0, 0, rec, 8, &n) < 0);
    assert_non_null(strstr(r.last_error, errors[0]));
    tr_reader_close(&r);
    /* lenient: every bad line is counted; line 12 goes backwards (warning) */
    assert_int_equal(read_all(&r, NULL, FIX "bad.trace", NULL, 0, 1, rec, 8, &n), 0);
    assert_int_equal(r.skipped, CM_ARRAY_LEN(errors));
    assert_true(r.warnings >= 2);
    for (i = 0; i < r.ncounters; i++)
        if (strcmp(r.counters[i].name, "time_backwards") == 0)
            break;
    assert_true(i < r.ncounters);
    tr_reader_close(&r);
}

static void synthetic(void **state)
{
    struct tr_reader r;
    struct tr_record rec;
    struct tr_options o = {0};
    char err[CM_ERR_LEN];
    uint64_t written = 0, read = 0;
    int rc;

    (void)state;
    assert_int_equal(
        tr_reader_open(&r, FIX "synthetic.trace", NULL, &o, err, sizeof(err)), 0);
    while ((rc = tr_reader_next(&r, &rec)) > 0) {
        if (rec.op == TR_OP_WRITE)
            written += rec.length;
        if (rec.op == TR_OP_READ)
            read += rec.length;
        assert_true(rec.t_ns >= 0);
    }
    assert_int_equal(rc, 0);
    assert_int_equal(written, 46923776ull + 36704256ull);
    assert_int_equal(read, 46931776ull + 36583880ull);
    tr_reader_close(&r);
}

static void pairing(void **state)
{
    static const char text[] =
        "header(headerbom,headernode(5.6)headerlength(1))\n"
        "tracetype(ENTER)time:(100)time:(0)str(open)str(/f)flags(0)mode(0)\n"
        "tracetype(EXIT)time:(100)time:(1)str(open)return(4)\n"
        "tracetype(ENTER)time:(100)time:(2)str(ireadv)fd(4)ziovec(base(0x1)len(100))\n"
        "tracetype(EXIT)time:(100)time:(3)str(ireadv)ptr(0x10)\n"
        "tracetype(ENTER)time:(100)time:(4)str(iowait)ptr(0x10)\n"
        "tracetype(EXIT)time:(100)time:(5)str(iowait)return(60)\n"
        "tracetype(ENTER)time:(100)time:(6)str(iwritev)fd(9)ziovec(base(0x1)len(7))\n"
        "tracetype(EXIT)time:(100)time:(7)str(iwritev)ptr(0x11)\n"
        "tracetype(ENTER)time:(100)time:(8)str(fcntl)fd(4)\n"
        "tracetype(EXIT)time:(100)time:(9)str(bogus)return(0)\n"
        "tracetype(ENTER)time:(100)time:(10)str(open)str(/g)flags(0)mode(0)\n"
        "tracetype(EXIT)time:(100)time:(11)str(open)return(-2)\n"
        "tracetype(ENTER)time:(100)time:(12)str(iwritev)fd(4)ziovec(base(0x1)len(30))\n";
    struct tr_reader r;
    struct tr_record rec[8];
    int n;

    (void)state;
    assert_int_equal(read_all(&r, "sysio", NULL, text, sizeof(text) - 1, 0, rec, 8, &n),
                     0);
    assert_int_equal(n, 3);
    assert_int_equal(rec[0].op, TR_OP_OPEN);
    assert_int_equal(rec[1].op, TR_OP_READ);
    assert_int_equal(rec[1].length, 60); /* iowait's return wins */
    assert_int_equal(rec[1].t_ns, 2000);
    /* ENTER without EXIT at the end: replayed with the requested length,
     * at the offset the read advanced to */
    assert_int_equal(rec[2].op, TR_OP_WRITE);
    assert_int_equal(rec[2].offset, 60);
    assert_int_equal(rec[2].length, 30);
    assert_true(rec[2].flags & TR_F_NO_EXIT);
    tr_reader_close(&r);
}

/* Vectors longer than any fixed table: every element counts. */
static void long_vectors(void **state)
{
    char *text = malloc(64 * 1024);
    struct tr_reader r;
    struct tr_record rec[200];
    size_t n0;
    int i, n;

    (void)state;
    assert_non_null(text);
    n0 =
        (size_t)sprintf(text, "header(headerbom,headernode(1.2)headerlength(1))\n"
                              "tracetype(ENTER)time:(9)time:(0)str(open)str(/f)flags(0)\n"
                              "tracetype(EXIT)time:(9)time:(1)str(open)return(3)\n"
                              "tracetype(ENTER)time:(9)time:(2)str(iwritev)fd(3)ziovec(");
    for (i = 0; i < 300; i++)
        n0 += (size_t)sprintf(text + n0, "%sbase(0x1)len(10)", i ? ", " : "");
    n0 += (size_t)sprintf(text + n0,
                          ")\ntracetype(ENTER)time:(9)time:(3)str(iwritex)fd(3)"
                          "count(1)ziovec(base(0x1)len(100000))count(150)yxtvec(");
    for (i = 0; i < 150; i++)
        n0 += (size_t)sprintf(text + n0, "%soff(%d)len(7)", i ? "," : "", i * 100);
    n0 += (size_t)sprintf(text + n0, ")\n");
    assert_int_equal(read_all(&r, "sysio", NULL, text, n0, 0, rec, 200, &n), 0);
    assert_int_equal(n, 1 + 1 + 150);
    assert_int_equal(rec[1].length, 3000);
    assert_int_equal(rec[151].offset, 14900);
    assert_int_equal(rec[151].length, 7);
    tr_reader_close(&r);
    free(text);
}

static void collect(void *data, const char *msg)
{
    char *buf = data;
    size_t n = strlen(buf);

    snprintf(buf + n, 2048 - n, "%s\n", msg);
}

/* An EXIT without its ENTER and I/O on a descriptor the stream
 * never opened are warnings that name their line, not only counters. */
static void warnings_name_the_line(void **state)
{
    static const char text[] =
        "header(node(1.2))\n"
        "tracetype(EXIT)time:(100)time:(1)str(open)return(3)\n"
        "tracetype(ENTER)time:(100)time:(2)str(iwritev)fd(7)ziovec(base(0x1)len(10))\n"
        "tracetype(EXIT)time:(100)time:(3)str(iwritev)ptr(0x9)\n"
        "tracetype(ENTER)time:(100)time:(4)str(fxstat)ver(1)fd(5)\n"
        "tracetype(EXIT)time:(100)time:(5)str(fxstat)return(0)\n";
    struct tr_options o = {.format = "sysio", .warn = collect};
    struct tr_reader r;
    struct tr_record rec;
    char err[CM_ERR_LEN], warnings[2048] = "";
    FILE *fp = fmemopen((void *)text, sizeof(text) - 1, "rb");

    (void)state;
    o.warn_data = warnings;
    assert_int_equal(tr_reader_open(&r, "w.trace", fp, &o, err, sizeof(err)), 0);
    while (tr_reader_next(&r, &rec) > 0)
        ;
    assert_non_null(
        strstr(warnings, "w.trace:2: warning: EXIT of open without its ENTER"));
    assert_non_null(
        strstr(warnings, "w.trace:3: warning: iwritev on descriptor 7, not opened"));
    assert_non_null(
        strstr(warnings, "w.trace:5: warning: fxstat on descriptor 5, not opened"));
    tr_reader_close(&r);
    fclose(fp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample),       cmocka_unit_test(bad_lines),
        cmocka_unit_test(synthetic),    cmocka_unit_test(pairing),
        cmocka_unit_test(long_vectors), cmocka_unit_test(warnings_name_the_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
