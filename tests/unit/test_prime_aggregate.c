/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_aggregate.c - the prime's aggregate (docs/SFS30.md §11), the
 * sfssum line (docs/SFS30.md §16.5, the user guide's sample), the overall response time
 * (docs/SFS30.md §17.3, trapezoids from (0, 0)) and the aggregate report's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/curve.h"
#include "load/options.h"
#include "prime/pr_int.h"
#include "synth/sy.h"

/* A client's stats: n calls of getattr at ms each, n of lookup at 2 ms,
 * over runtime s (one child). */
static void client_stats(struct ld_stats *s, unsigned n, double ms, double runtime)
{
    unsigned i;

    ld_stats_reset(s);
    for (i = 0; i < n; i++) {
        ld_stats_good(s, NF_OP_GETATTR, (uint64_t)(ms * 1e6), 0);
        ld_stats_good(s, NF_OP_LOOKUP, 2000000, 0);
    }
    s->runtime_ns = (uint64_t)(runtime * 1e9);
    s->total_kb = 1000;
    s->base_kb = 100;
    s->least_kb = 100;
    s->most_kb = 110;
}

static void setup_in(struct ld_report_in *in, struct pr_setup *su,
                     const struct ld_stats *st)
{
    memset(in, 0, sizeof(*in));
    in->prog = "sfs3";
    in->host = "h";
    in->cfg = &su->cfg;
    in->mix = &su->mix;
    in->iodist = &su->iodist;
    in->sizing = &su->sizing;
    in->stats = st;
    in->work = &ld_sfs_report;
}

/* A point of two clients of 4 processes at 100 ops/s each, their results
 * a and b added to a fresh aggregate (not finished). */
static void add_two_clients(struct pr_agg *agg, struct pr_setup *su, struct ld_stats *a,
                            struct ld_stats *b, struct pr_client_sum *ca,
                            struct pr_client_sum *cb)
{
    struct ld_report_in in;

    ld_config_defaults(&su->cfg, 3);
    su->cfg.load = 100;
    ld_mix_default(&su->mix, 3);
    ld_iodist_default(&su->iodist, 8);
    assert_int_equal(pr_agg_init(agg, &sy_workload.results), 0);
    setup_in(&in, su, a);
    pr_agg_add(agg, &in, ca);
    setup_in(&in, su, b);
    pr_agg_add(agg, &in, cb);
}

static void aggregate_follows_section_11(void **state)
{
    static struct ld_stats a, b;
    static struct pr_agg agg;
    static struct pr_setup su;
    struct ld_report_in in;
    struct pr_client_sum ca, cb;

    (void)state;
    client_stats(&a, 500, 1.0, 10.0); /* 1000 calls in 10 s: 100 ops/s, 1.5 ms */
    client_stats(&b, 250, 3.0, 10.0); /* 500 calls in 10 s: 50 ops/s, 2.5 ms */
    add_two_clients(&agg, &su, &a, &b, &ca, &cb);
    pr_agg_finish(&agg, 200, 0); /* no span known: SFS's figures */
    assert_int_equal(ca.ops_x100, 10000);
    assert_int_equal(cb.ops_x100, 5000);
    assert_int_equal(agg.agg.nclients, 2);
    assert_int_equal(agg.agg.ops_x100, 15000);            /* sum of throughputs */
    assert_int_equal(agg.agg.resp_x100, (150 + 250) / 2); /* mean of responses */
    assert_int_equal(agg.agg.runtime_s, 10);
    assert_int_equal(agg.merged.op[NF_OP_TOTAL].good, 1500); /* calls summed */
    /* getattr's mean: the unweighted mean of 1.0 and 3.0, not the weighted 1.67 */
    assert_true(fabs(agg.agg.mean_ms[NF_OP_GETATTR] - 2.0) < 1e-9);
    /* actual mix: 50 % on both clients */
    assert_true(fabs(agg.agg.actual_pct[NF_OP_GETATTR] - 50.0) < 1e-9);
    assert_int_equal(agg.merged.total_kb, 2000); /* file set summed */

    /* the aggregate report through the load layer's report functions */
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        setup_in(&in, &su, &agg.merged);
        in.agg = &agg.agg;
        assert_int_equal(ld_report_ops_x100(&in), 15000);
        ld_report_params(f, &in);
        ld_report_client(f, &in, NULL);
        fclose(f);
        assert_non_null(strstr(buf, "Aggregate Test Parameters:"));
        assert_non_null(strstr(buf, "Number of processes = 8")); /* 4 x 2 clients */
        assert_non_null(strstr(buf, "SFS Aggregate Results for 2 Client(s)"));
        assert_non_null(strstr(buf, "AGGREGATE RESULTS SUMMARY"));
        assert_non_null(strstr(buf, "NFS V3 THROUGHPUT:     150 Ops/Sec"));
        assert_non_null(strstr(buf, "AGGREGATE REQUESTED LOAD: 200 Ops/Sec"));
        assert_non_null(strstr(buf, "NUMBER OF SFS CLIENTS: 2"));
        assert_non_null(strstr(buf, "TOTAL FILE SET SIZE CREATED:    2.0 MB"));
        assert_non_null(strstr(buf, "getattr"));
        assert_null(strstr(buf, "mknod")); /* unused ops are dropped */
        free(buf);
    }
    pr_agg_free(&agg);
}

/* Two clients whose 10 s windows the prime saw 5 s apart: each answered
 * 1000 calls in its own window, so SFS's sum of their throughputs (200
 * ops/s) credits the server with 2000 calls in 10 s, while it answered them
 * in 15 s.  FreeSFS counts every client's calls over the prime's span. */
static void aggregate_counts_over_the_prime_span(void **state)
{
    static struct ld_stats a, b;
    static struct pr_agg agg;
    static struct pr_setup su;
    struct ld_report_in in;
    struct pr_client_sum ca, cb;

    (void)state;
    client_stats(&a, 500, 1.0, 10.0);
    client_stats(&b, 500, 1.0, 10.0);
    add_two_clients(&agg, &su, &a, &b, &ca, &cb);
    pr_agg_finish(&agg, 200, 15000000000ull);
    assert_int_equal(ca.ops_x100 + cb.ops_x100, 20000); /* each client's own */
    assert_int_equal(agg.agg.ops_x100, 13333);          /* 2000 calls in 15 s */
    assert_int_equal(agg.agg.runtime_s, 15);
    setup_in(&in, &su, &agg.merged);
    in.agg = &agg.agg;
    assert_int_equal(ld_report_ops_x100(&in), 13333);
    assert_int_equal(ld_report_runtime_s(&in), 15);
    pr_agg_free(&agg);
}

static void sfssum_line_matches_the_guide(void **state)
{
    struct pr_sum s = {0, 200, 200.0, 3.5, 60091, 300, 3, 0, 2028208, 2, 7, 0, 0};
    char line[256], words[256];
    char *w, *save = NULL;

    (void)state;
    pr_sfssum_format(&s, line, sizeof(line));
    /* valid lines start with 7 blanks (the empty INVALID field) */
    assert_memory_equal(line, "       ", 7);
    snprintf(words, sizeof(words), "%s", line);
    line[0] = '\0';
    for (w = strtok_r(words, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
        strcat(line, w);
        strcat(line, " ");
    }
    assert_string_equal(line, "200 200 3.5 60091 300 3 U 2028208 2 7 0 0 3.0 ");
    s.invalid = 1;
    s.tcp = 1;
    pr_sfssum_format(&s, line, sizeof(line));
    assert_memory_equal(line, "INVALID", 7);
    assert_non_null(strstr(line, " 3 T "));
}

/* The summary sfs_mgr prints: the sfssum columns under a header, the
 * response time with two decimals below 10 ms (the file keeps one). */
static void summary_line_is_precise_where_servers_are_fast(void **state)
{
    struct pr_sum s = {0, 200, 200.0, 0.114, 60091, 300, 3, 0, 2028208, 2, 7, 0, 0};
    char line[256], file[256];
    const char *h = pr_summary_header();

    (void)state;
    pr_summary_format(&s, line, sizeof(line));
    pr_sfssum_format(&s, file, sizeof(file));
    assert_non_null(strstr(line, "    200    0.11    60091"));
    assert_non_null(strstr(file, "    200     0.1    60091"));
    assert_int_equal(strlen(line), strlen(file));
    /* the header's column names end where the columns do */
    assert_int_equal(strstr(h, "Msec") + 4 - h, strstr(line, "0.11") + 4 - line);
    assert_int_equal(strstr(h, "FileSetKB") + 9 - h, strstr(line, "2028208") + 7 - line);
    s.resp = 12.345;
    pr_summary_format(&s, line, sizeof(line));
    assert_non_null(strstr(line, "    12.3 "));
}

static void overall_response_time_by_trapezoids(void **state)
{
    double x[] = {300, 100, 200}, y[] = {6, 2, 4};

    (void)state;
    /* sorted: (100,2) (200,4) (300,6); area = 100 + 300 + 500 = 900;
     * over the peak 300: 3 ms */
    assert_true(fabs(cm_curve_overall(x, y, 3, NULL) - 3.0) < 1e-9);
    assert_true(fabs(cm_curve_overall(x + 1, y + 1, 1, NULL) - 1.0) <
                1e-9); /* (0,0)-(100,2) */
    assert_true(cm_curve_overall(x, y, 0, NULL) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aggregate_follows_section_11),
        cmocka_unit_test(aggregate_counts_over_the_prime_span),
        cmocka_unit_test(sfssum_line_matches_the_guide),
        cmocka_unit_test(summary_line_is_precise_where_servers_are_fast),
        cmocka_unit_test(overall_response_time_by_trapezoids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
