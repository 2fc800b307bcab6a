/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_fields.c - counters described once (common/fields.h): the
 * merge follows each field's rule (sum, max, min of those set, none;
 * histograms cell by cell), the difference of two readings subtracts the
 * sums (never below 0) and keeps the later one's maxima, the compact wire
 * form gives back what went in and refuses what is cut short or out of
 * range, and YAML prints a group's fields in table order with their keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cm.h"
#include "common/error.h"
#include "common/yaml.h"
#include "common/fields.h"
#include "common/hist.h"

struct inner {
    uint64_t calls;
    double ms;
};

struct outer {
    uint64_t total, most;
    uint32_t n;
    int code;
    uint64_t x100;
    char name[16];
    uint64_t by_kind[3];
    struct inner per[2];
    struct cm_hist h;
};

static const struct cm_field inner_fields[] = {
    CM_FIELD_OF(struct inner, calls, CM_FIELD_U64, CM_MERGE_SUM, "in", "calls"),
    CM_FIELD_OF(struct inner, ms, CM_FIELD_DOUBLE, CM_MERGE_SUM, "in", "ms"),
};

static const struct cm_field outer_fields[] = {
    CM_FIELD_OF(struct outer, most, CM_FIELD_U64, CM_MERGE_MAX, "g", "most_seen"),
    CM_FIELD_OF(struct outer, total, CM_FIELD_U64, CM_MERGE_SUM, "g", "total"),
    CM_FIELD_OF(struct outer, n, CM_FIELD_U32, CM_MERGE_SUM, "h", "n"),
    CM_FIELD_OF(struct outer, code, CM_FIELD_INT, CM_MERGE_MAX, "g", "code"),
    CM_FIELD_OF(struct outer, x100, CM_FIELD_X100, CM_MERGE_SUM, "g", "rate"),
    CM_FIELD_OF(struct outer, name, CM_FIELD_STR, CM_MERGE_NONE, "g", "name"),
    CM_FIELD_ARRAY(struct outer, by_kind, CM_FIELD_U64, CM_MERGE_SUM, 3),
    CM_FIELD_TABLE_OF(struct outer, per, 2, inner_fields),
    CM_FIELD_OF(struct outer, h, CM_FIELD_HIST, CM_MERGE_SUM, NULL, NULL),
};
#define N CM_ARRAY_LEN(outer_fields)

static void fill(struct outer *o, uint64_t k)
{
    memset(o, 0, sizeof(*o));
    o->total = 10 * k;
    o->most = 7 * k;
    o->n = (uint32_t)k;
    o->code = (int)k;
    o->x100 = 12345 * k;
    snprintf(o->name, sizeof(o->name), "c%llu", (unsigned long long)k);
    o->by_kind[2] = k;
    o->per[1].calls = 3 * k;
    o->per[1].ms = 1.5 * (double)k;
    cm_hist_add(&o->h, 100 * k);
}

static void merge_follows_the_rules(void **state)
{
    static struct outer a, b;

    (void)state;
    fill(&a, 1);
    fill(&b, 4);
    cm_fields_merge(outer_fields, N, &a, &b);
    assert_int_equal(a.total, 50);
    assert_int_equal(a.most, 28);
    assert_int_equal(a.n, 5);
    assert_int_equal(a.code, 4);
    assert_int_equal(a.x100, 12345 * 5);
    assert_string_equal(a.name, "c1"); /* not merged */
    assert_int_equal(a.by_kind[2], 5);
    assert_int_equal(a.per[1].calls, 15);
    assert_true(a.per[1].ms == 7.5);
    assert_int_equal(a.h.count, 2);
    assert_int_equal(a.h.max_us, 400);
    assert_int_equal(a.h.min_us, 100);
    memset(&b.h, 0, sizeof(b.h)); /* an empty histogram's min is no minimum */
    cm_fields_merge(outer_fields, N, &a, &b);
    assert_int_equal(a.h.min_us, 100);
    memset(&a.h, 0, sizeof(a.h));
    fill(&b, 4);
    cm_fields_merge(outer_fields, N, &a, &b);
    assert_int_equal(a.h.min_us, 400);
}

/* CM_MERGE_TOP: the largest of both arrays, largest first, none twice
 * (the NFS replay's first mismatches: the earliest calls of every
 * process, whatever order they completed in). */
static void top_keeps_the_largest_of_both(void **state)
{
    struct top {
        uint64_t v[4];
    } a = {{0}}, b = {{0}};
    static const struct cm_field f[] = {
        CM_FIELD_ARRAY(struct top, v, CM_FIELD_U64, CM_MERGE_TOP, 4),
    };

    (void)state;
    cm_top_insert(a.v, 4, 7);
    cm_top_insert(a.v, 4, 10);
    cm_top_insert(a.v, 4, 8); /* added after 10: still placed after it */
    cm_top_insert(a.v, 4, 9);
    cm_top_insert(a.v, 4, 1); /* full: the smallest goes */
    cm_top_insert(a.v, 4, 9); /* already there */
    assert_true(a.v[0] == 10 && a.v[1] == 9 && a.v[2] == 8 && a.v[3] == 7);
    cm_top_insert(b.v, 4, 12);
    cm_top_insert(b.v, 4, 11);
    cm_top_insert(b.v, 4, 1);
    cm_fields_merge(f, 1, &a, &b);
    assert_true(a.v[0] == 12 && a.v[1] == 11 && a.v[2] == 10 && a.v[3] == 9);
    memset(&a, 0, sizeof(a));
    cm_fields_merge(f, 1, &a, &b);
    assert_true(a.v[0] == 12 && a.v[1] == 11 && a.v[2] == 1 && a.v[3] == 0);
}

/* CM_MERGE_MIN: the earlier of two moments, 0 being no moment at all (a
 * process that never ran its phase does not move the first start to 0). */
static void min_keeps_the_smaller_set(void **state)
{
    struct when {
        uint64_t first;
        uint32_t first32;
    } a = {0, 0}, b = {500, 5};
    static const struct cm_field f[] = {
        CM_FIELD_OF(struct when, first, CM_FIELD_U64, CM_MERGE_MIN, NULL, NULL),
        CM_FIELD_OF(struct when, first32, CM_FIELD_U32, CM_MERGE_MIN, NULL, NULL),
    };

    (void)state;
    cm_fields_merge(f, 2, &a, &b); /* unset takes the other's */
    assert_int_equal(a.first, 500);
    assert_int_equal(a.first32, 5);
    b.first = 300;
    b.first32 = 9;
    cm_fields_merge(f, 2, &a, &b);
    assert_int_equal(a.first, 300);
    assert_int_equal(a.first32, 5);
    b.first = b.first32 = 0; /* unset never wins */
    cm_fields_merge(f, 2, &a, &b);
    assert_int_equal(a.first, 300);
    assert_int_equal(a.first32, 5);
}

static void diff_subtracts_the_sums(void **state)
{
    static struct outer a, b, d;

    (void)state;
    fill(&a, 1);
    fill(&b, 4);
    cm_hist_add(&b.h, 100); /* b holds a's sample and two more */
    cm_fields_diff(outer_fields, N, &d, &b, &a);
    assert_int_equal(d.total, 30);
    assert_int_equal(d.most, 28); /* max: the later reading's */
    assert_int_equal(d.n, 3);
    assert_int_equal(d.code, 4);
    assert_int_equal(d.x100, 12345 * 3);
    assert_string_equal(d.name, "c4");
    assert_int_equal(d.by_kind[2], 3);
    assert_int_equal(d.per[1].calls, 9);
    assert_true(d.per[1].ms == 4.5);
    assert_int_equal(d.h.count, 1);
    assert_true(cm_hist_quantile_ms(&d.h, 0.5) > 0.3); /* the 400 us sample is left */
    cm_fields_diff(outer_fields, N, &d, &a, &b); /* an earlier "now": 0, not a wrap */
    assert_int_equal(d.total, 0);
    assert_int_equal(d.h.count, 0);
}

static void wire_gives_back_what_went_in(void **state)
{
    static struct outer a, b;
    size_t max = cm_fields_wire_max(outer_fields, N), len, cut;
    uint8_t *buf = calloc(1, max + 1), *end;

    (void)state;
    assert_non_null(buf);
    fill(&a, 3);
    a.code = -5; /* an int travels zigzagged */
    a.most = UINT64_MAX;
    memset(a.name, 0, sizeof(a.name)); /* names do not travel */
    end = cm_fields_put(outer_fields, N, &a, buf);
    len = (size_t)(end - buf);
    /* compact: 10 bytes for the largest u64, small counters one byte
     * each, two doubles of 8, the histogram's count, max, min, one cell */
    assert_true(len <= 40 + 16 + 10);
    assert_true(len <= max);
    memset(&b, 0, sizeof(b));
    assert_ptr_equal(cm_fields_get(outer_fields, N, &b, buf, end), end);
    assert_memory_equal(&a, &b, sizeof(a));
    for (cut = 0; cut < len; cut++) /* cut short anywhere: refused */
        assert_null(cm_fields_get(outer_fields, N, &b, buf, buf + cut));
    free(buf);
}

static void wire_holds_a_full_histogram_and_refuses_bad_cells(void **state)
{
    static const struct cm_field hist_only[] = {
        CM_FIELD_OF(struct outer, h, CM_FIELD_HIST, CM_MERGE_SUM, NULL, NULL),
    };
    static struct outer a, b;
    size_t max = cm_fields_wire_max(hist_only, 1);
    uint8_t *buf = calloc(1, max), *end;
    unsigned i;

    (void)state;
    assert_non_null(buf);
    for (i = 0; i < CM_HIST_NB; i++)
        a.h.n[i] = UINT32_MAX - i;
    a.h.count = 99;
    a.h.max_us = 1u << 30;
    a.h.min_us = 3;
    end = cm_fields_put(hist_only, 1, &a, buf);
    assert_true((size_t)(end - buf) <= max);
    assert_ptr_equal(cm_fields_get(hist_only, 1, &b, buf, end), end);
    assert_memory_equal(&a.h, &b.h, sizeof(a.h));
    /* more cells than a histogram has: count 0, max 0, min 0, cells NB + 1 */
    buf[0] = 0;
    buf[1] = 0;
    buf[2] = 0;
    buf[3] = (uint8_t)((CM_HIST_NB + 1) | 0x80);
    buf[4] = (uint8_t)((CM_HIST_NB + 1) >> 7);
    assert_null(cm_fields_get(hist_only, 1, &b, buf, buf + 5));
    /* one cell whose gap lands past the last bucket */
    buf[3] = 1;
    buf[4] = (uint8_t)(CM_HIST_NB | 0x80);
    buf[5] = (uint8_t)(CM_HIST_NB >> 7);
    buf[6] = 1;
    assert_null(cm_fields_get(hist_only, 1, &b, buf, buf + 7));
    free(buf);
}

static void yaml_prints_a_group_in_table_order(void **state)
{
    static struct outer a;
    char path[] = "build/test_common_fields.yaml", err[CM_ERR_LEN], text[1024];
    struct cm_yaml *y = cm_yaml_open(path, err, sizeof(err));
    FILE *f;
    size_t n;

    (void)state;
    assert_non_null(y);
    fill(&a, 2);
    cm_yaml_map_begin(y);
    cm_fields_yaml(y, outer_fields, N, &a, "g");
    cm_fields_yaml(y, inner_fields, CM_ARRAY_LEN(inner_fields), &a.per[1], "in");
    cm_yaml_map_end(y);
    assert_int_equal(cm_yaml_close(y, err, sizeof(err)), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    assert_string_equal(text, "---\nmost_seen: 14\ntotal: 20\ncode: 2\nrate: 246.90\n"
                              "name: 'c2'\ncalls: 6\nms: 3.000\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(merge_follows_the_rules),
        cmocka_unit_test(top_keeps_the_largest_of_both),
        cmocka_unit_test(min_keeps_the_smaller_set),
        cmocka_unit_test(diff_subtracts_the_sums),
        cmocka_unit_test(wire_gives_back_what_went_in),
        cmocka_unit_test(wire_holds_a_full_histogram_and_refuses_bad_cells),
        cmocka_unit_test(yaml_prints_a_group_in_table_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
