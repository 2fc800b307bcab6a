/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_report.c - unit tests for report.c: the validity checks and
 * codes of docs/SFS30.md §17.1 (counters first, then parameters with the
 * last failing one winning), the client report's text shapes (docs/SFS30.md §16.1-16.4:
 * parameter block, per-op table header and column widths, summary box,
 * INVALID lines) and the YAML results file; the rules beyond SFS 3.0
 * (docs/sfs.md: unexpected NFS errors, an early end, -F, --open-loop and
 * --seed). */
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

#include "common/error.h"
#include "common/text.h"
#include "load/options.h"
#include "load/report.h"
#include "nfs/nf.h"

struct fixture {
    struct ld_config cfg;
    struct ld_mix mix;
    struct ld_iodist io;
    struct ld_sizing sz;
    struct ld_stats st;
    struct ld_report_in in;
    char *argv[4];
};

/* A clean SFS-standard v3 run: 4 children x 60 s at 400 ops/s, every op
 * exactly on its target, 2.5 ms per call. */
static int setup(void **state)
{
    static struct fixture f;
    char err[CM_ERR_LEN];
    int op, code;
    static char a0[] = "sfs3", a1[] = "-l", a2[] = "400", a3[] = "127.0.0.1:/export";

    f.argv[0] = a0;
    f.argv[1] = a1;
    f.argv[2] = a2;
    f.argv[3] = a3;
    if (ld_options_parse(&f.cfg, 3, NULL, 0, 4, f.argv, &code, err, sizeof(err)) != 0)
        return -1;
    ld_mix_default(&f.mix, 3);
    ld_iodist_default(&f.io, 8);
    ld_sizing_compute(&f.cfg, &f.sz);
    ld_stats_reset(&f.st);
    for (op = 0; op < NF_NOPS; op++) {
        int i;

        for (i = 0; i < f.mix.pct[op] * 240; i++)
            ld_stats_good(&f.st, op, 2500000, 0);
    }
    f.st.nchildren = 4;
    f.st.runtime_ns = 4 * 60000000000ull;
    f.st.total_kb = 4 * f.sz.total_kb;
    f.st.base_kb = 4 * f.sz.base_kb;
    f.st.least_kb = f.st.base_kb;
    f.st.most_kb = f.st.base_kb + f.st.base_kb / 20 + 1; /* just over 105 % */
    f.in.prog = "sfs3";
    f.in.host = "client1";
    f.in.when = 1700000000;
    f.in.cfg = &f.cfg;
    f.in.mix = &f.mix;
    f.in.iodist = &f.io;
    f.in.sizing = &f.sz;
    f.in.stats = &f.st;
    f.in.work = &ld_sfs_report;
    *state = &f;
    return 0;
}

static void figures(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(f->st.op[NF_OP_TOTAL].good, 24000);
    assert_int_equal(ld_report_runtime_s(&f->in), 60);
    assert_int_equal(ld_report_ops_x100(&f->in), 40000);
    assert_int_equal(ld_report_resp_x100(&f->in), 250);
}

/* Four children of 60 s each whose windows spread over 64 s (one woke 4 s
 * late to the run): the 24000 calls took the server 64 s, not the mean
 * 60 s (docs/SFS30.md §11, where FreeSFS is stricter). */
static void throughput_over_the_span(void **state)
{
    struct fixture *f = *state;
    struct ld_stats saved = f->st;

    f->st.run_start_ns = 1000000000000ull;
    f->st.run_end_ns = f->st.run_start_ns + 64000000000ull;
    assert_int_equal(ld_report_runtime_s(&f->in), 64);
    assert_int_equal(ld_report_ops_x100(&f->in), 37500);
    f->st = saved;
}

static void valid_run(void **state)
{
    struct fixture *f = *state;
    struct ld_validity v;

    f->cfg.runtime_s = 300;
    f->cfg.warmup_s = 300;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_VALID);
    assert_int_equal(v.nlines, 0);
    assert_string_equal(ld_invalid_text(0), "No error");
    assert_string_equal(ld_invalid_text(16), "Op mix missed");
    assert_string_equal(ld_invalid_text(23), "Status mismatches");
    assert_int_equal(LD_INV_STATUS_MISMATCH, 23);
    assert_string_equal(ld_invalid_text(99), "Unknown");
}

/* Parameters: each non-standard value gives its line; the last one wins. */
static void parameters(void **state)
{
    struct fixture *f = *state;
    struct ld_config saved = f->cfg;
    struct ld_validity v;

    f->cfg.runtime_s = 60;
    f->cfg.warmup_s = 300;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_RUNTIME);
    assert_int_equal(v.nlines, 1);
    assert_string_equal(v.line[0],
                        "INVALID RUN, ILLEGAL PARAMETER: Non-standard Runtime 60 != 300");
    f->cfg.warmup_s = 10;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_WARMUP);
    assert_int_equal(v.nlines, 2);
    f->cfg = saved;
    f->cfg.runtime_s = 300;
    f->cfg.warmup_s = 300;
    f->cfg.biod_reads = 0;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_BIOD_READS);
    assert_string_equal(
        v.line[0], "INVALID RUN, ILLEGAL PARAMETER: Non-standard Max biod reads 0 < 2");
    f->cfg.biod_reads = 32; /* more is fine */
    f->cfg.symlinks = 10;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_SYMLINKS);
    f->cfg.symlinks = 20;
    f->cfg.append_pct = 50;
    f->cfg.kb_per_block = 4;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_KB_PER_BLOCK);
    f->cfg.append_pct = 70;
    f->cfg.kb_per_block = 8;
    f->mix.file_version = 2;
    f->io.from_file = 1;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_MIXFILE);
    assert_string_equal(v.line[0], "INVALID RUN, ILLEGAL PARAMETER: Non-standard IO "
                                   "distribution file");
    assert_string_equal(v.line[1],
                        "INVALID RUN, ILLEGAL PARAMETER: Non-standard Mix file");
    f->mix.file_version = 0;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_IODIST);
    f->io.from_file = 0;
    f->cfg = saved;
}

/* Counters come first: their code outranks a parameter's, and every
 * reason is listed, each in plain words too. */
static void counters(void **state)
{
    struct fixture *f = *state;
    struct ld_stats saved = f->st;
    struct ld_validity v;
    char buf[1024];
    int i;

    /* 1 % failed calls (integer %): 240 bad of 24000 */
    for (i = 0; i < 239; i++)
        ld_stats_bad(&f->st, NF_OP_READ);
    f->cfg.runtime_s = 60;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_RUNTIME);
    ld_stats_bad(&f->st, NF_OP_READ);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_FAILED_RPC);
    assert_int_equal(v.nlines, 2);
    assert_string_equal(v.line[0], "INVALID RUN, 1% Failed RPC calls");
    assert_int_equal(v.lcode[1], LD_INV_RUNTIME);
    assert_string_equal(v.words[1], "run time 60 s (SFS requires 300 s)");
    f->st = saved;

    /* op mix: lookup 27 % + 500 calls = 28.48 % is still in, + 600 out */
    for (i = 0; i < 500; i++)
        ld_stats_good(&f->st, NF_OP_LOOKUP, 1000000, 0);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_RUNTIME);
    for (i = 0; i < 100; i++)
        ld_stats_good(&f->st, NF_OP_LOOKUP, 1000000, 0);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_MIX_MISSED);
    assert_non_null(strstr(v.line[0], "INVALID RUN, lookup target 27% actual 2"));
    assert_non_null(strstr(v.line[0], "% Op mix missed"));
    /* the mix missed and the non-standard run time: both reasons */
    ld_validity_words(&v, buf, sizeof(buf));
    assert_non_null(strstr(buf, "lookup 28.8 % of the calls (target 27 % +- 1.5)"));
    assert_non_null(strstr(buf, "; run time 60 s (SFS requires 300 s)"));
    f->st = saved;

    /* no good calls */
    ld_stats_reset(&f->st);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_NO_GOOD);
    assert_string_equal(v.line[0], "INVALID RUN No good calls");
    f->st = saved;
    f->cfg.runtime_s = 300;
}

static char *cap_out;
static size_t cap_len;

static char *capture(struct fixture *f, int params, const struct ld_validity *v)
{
    FILE *fp = open_memstream(&cap_out, &cap_len);

    if (params)
        ld_report_params(fp, &f->in);
    else
        ld_report_client(fp, &f->in, v);
    fclose(fp);
    return cap_out;
}

static const char *line_after(const char *text, const char *prefix, char *buf, size_t len)
{
    const char *p = strstr(text, prefix), *e;

    if (!p)
        return NULL;
    e = strchr(p, '\n');
    snprintf(buf, len, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
    return buf;
}

static void param_block(void **state)
{
    struct fixture *f = *state;
    char *out = capture(f, 1, NULL);

    assert_true(strncmp(out,
                        "********************************************************"
                        "****************\n",
                        73) == 0);
    assert_non_null(strstr(out, "Client Test Parameters: \n"));
    assert_non_null(strstr(out, "\tNumber of processes = 4\n"));
    assert_non_null(strstr(out, "\tRequested Load (NFS V3 operations/second) = 400\n"));
    assert_non_null(strstr(out, "\tMaximum number of outstanding biod writes = 2\n"));
    assert_non_null(strstr(out, "\tMaximum number of outstanding biod reads = 2\n"));
    assert_non_null(strstr(out, "\tWarm-up time (seconds) = 300\n"));
    assert_non_null(strstr(out, "\tRun time (seconds) = 300\n"));
    assert_null(strstr(out, "NFS Mixfile"));
    /* 390 x 400 / 4 + 1 = 39001 per child */
    assert_non_null(
        strstr(out, "File Set =     156004 Files created for I/O operations\n"));
    assert_non_null(
        strstr(out, "                15604 Files accessed for I/O operations\n"));
    assert_non_null(strstr(out, "Additional non-I/O files created as necessary\n"));
    free(out);
}

static void client_table(void **state)
{
    struct fixture *f = *state;
    struct ld_validity v;
    char buf[256], *out;
    const char *p;
    int rows = 0;

    f->cfg.runtime_s = 60;
    ld_validity_check(&f->in, &v);
    out = capture(f, 0, &v);
    assert_non_null(strstr(out, "SFS Single Client (client1) Results, "));
    assert_non_null(strstr(out, "NFS Protocol Version 3\n"));
    /* the 4-line header between dashed rules, words right-aligned over the
     * number columns */
    assert_non_null(strstr(
        out,
        "\n------------------------------------------------------------------"
        "------------\n"
        "NFS          Target Actual     NFS    NFS     Mean  Std Dev   Std Error   Pcnt\n"
        "Op              NFS    NFS      Op     Op Response Response of Mean,95%     of\n"
        "Type            Mix    Mix Success  Error     Time     Time  Confidence  Total\n"
        "               Pcnt   Pcnt   Count  Count  Msec/Op  Msec/Op  +- Msec/Op   Time\n"
        "---------------------------------------------------------------------"
        "---------\n"));
    /* all 24 op rows, name left in 12, every row as wide as the rule */
    for (p = strstr(out, "null        "); p && rows < NF_NOPS; rows++) {
        const char *e = strchr(p, '\n');

        assert_int_equal(e - p, 78);
        assert_string_equal(line_after(p, nf_op_name(rows), buf, sizeof(buf)) ? "" : "x",
                            "");
        p = e + 1;
    }
    assert_int_equal(rows, NF_NOPS);
    line_after(out, "lookup ", buf, sizeof(buf));
    assert_string_equal(buf, "lookup          27%  27.0%    6480      0     2.50     0.00"
                             "        0.00  27.0%");
    line_after(out, "root ", buf, sizeof(buf));
    assert_string_equal(
        buf,
        "root             0%   0.0%       0      0     0.00     0.00        0.00   0.0%");
    /* the summary box */
    assert_non_null(
        strstr(out, "\n        ------------------------------------------------------\n"
                    "        | SPEC SFS VERSION 3.0 SINGLE CLIENT RESULTS SUMMARY |\n"
                    "        ------------------------------------------------------\n"));
    assert_non_null(strstr(
        out,
        "NFS V3 THROUGHPUT:  400.00 Ops/Sec   AVG. RESPONSE TIME:    2.50 Msec/Op\n"));
    assert_non_null(strstr(out, "\nUDP PROTOCOL\n"));
    assert_non_null(strstr(out, "\nFAST CALLS: 0\n"));
    assert_non_null(strstr(out, "\nNFS MIXFILE: [ SFS Default ]\n"));
    assert_non_null(strstr(out, "\nCLIENT REQUESTED LOAD: 400 Ops/Sec \n"));
    assert_non_null(
        strstr(out, "\nTOTAL NFS OPERATIONS: 24000         TEST TIME: 60 Sec \n"));
    snprintf(buf, sizeof(buf), "\nFILE SET SIZE CREATED: %llu KB\n",
             (unsigned long long)f->st.total_kb);
    assert_non_null(strstr(out, buf));
    assert_non_null(strstr(out, "KB  (100% to 105% of Base)\n"));
    /* INVALID lines, after the summary, prefixed with the program */
    p = strstr(out,
               "sfs3: INVALID RUN, ILLEGAL PARAMETER: Non-standard Runtime 60 != 300\n");
    assert_non_null(p);
    assert_true(p > strstr(out, "FILE SET SIZE ACCESSED"));
    free(out);
    f->cfg.runtime_s = 300;
}

static void yaml_file(void **state)
{
    struct fixture *f = *state;
    struct ld_validity v;
    char path[] = "/tmp/test_load_report_XXXXXX", err[CM_ERR_LEN], *text;
    size_t len;
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    close(fd);
    f->cfg.runtime_s = 60;
    ld_stats_lag(&f->st, 3000000);
    ld_validity_check(&f->in, &v);
    assert_int_equal(ld_report_yaml(path, &f->in, &v, err, sizeof(err)), 0);
    assert_int_equal(cm_text_read(path, &text, &len, NULL, err, sizeof(err)), 0);
    if (getenv("SHOW_YAML"))
        fputs(text, stderr);
    unlink(path);
    assert_non_null(strstr(text, "program: 'sfs3'"));
    assert_non_null(strstr(text, "load:\n    value: 400\n    source: 'command line'"));
    assert_non_null(strstr(text, "access:\n    value: 10\n    source: 'default'"));
    assert_non_null(strstr(text, "- '127.0.0.1:/export'"));
    assert_non_null(strstr(text, "throughput_ops: 400.00"));
    assert_non_null(strstr(text, "avg_response_ms: 2.50"));
    assert_non_null(strstr(text, "total_ops: 24000"));
    assert_non_null(strstr(text, "op: 'readdirplus'"));
    assert_non_null(strstr(text, "op: 'TOTAL'"));
    assert_non_null(strstr(text, "p99_ms:"));
    assert_non_null(strstr(text, "code: 4"));
    assert_non_null(strstr(text, "text: 'Runtime'"));
    assert_non_null(strstr(text, "Non-standard Runtime 60 != 300"));
    assert_non_null(strstr(text, "nofit: 0"));
    assert_non_null(strstr(text, "catchup_skipped_sleeps: 0"));
    assert_non_null(strstr(text, "issue_lag:\n  requests: 1\n  late_requests: 1"));
    free(text);
    f->cfg.runtime_s = 300;
    assert_int_equal(
        ld_report_yaml("/nonexistent-dir/x.yaml", &f->in, &v, err, sizeof(err)), -EIO);
}

/* Beyond SFS 3.0: more than 1 % of unexpected NFS errors is code 17
 * (exactly 1 % is not), and the table moves them from successes to
 * errors. */
static void unexpected_errors_beyond_one_percent(void **state)
{
    struct fixture *f = *state;
    struct ld_stats saved = f->st;
    struct ld_validity v;
    int i;

    f->cfg.runtime_s = f->cfg.warmup_s = 300;
    for (i = 0; i < 240; i++)
        ld_stats_unexpected(&f->st, NF_OP_GETATTR, NF_ST_IO);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_VALID);
    ld_stats_unexpected(&f->st, NF_OP_GETATTR, NF_ST_IO);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_NFS_ERRORS);
    assert_string_equal(v.line[0], "INVALID RUN, 1.00% Unexpected NFS errors");
    assert_string_equal(ld_invalid_text(LD_INV_NFS_ERRORS), "Unexpected NFS errors");
    assert_int_equal(ld_report_success(&f->st.op[NF_OP_GETATTR]), 2640 - 241);
    assert_int_equal(ld_report_errors(&f->st.op[NF_OP_GETATTR]), 241);
    f->st = saved;
}

/* A run that ended early says so, and its code wins over the failed calls
 * the lost server caused. */
static void ended_early_wins_over_the_failed_calls(void **state)
{
    struct fixture *f = *state;
    struct ld_stats saved = f->st;
    struct ld_validity v;
    int i;

    for (i = 0; i < 500; i++)
        ld_stats_bad(&f->st, NF_OP_LOOKUP);
    f->st.ended_early = LD_END_UNREACHABLE;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_ENDED_EARLY);
    assert_int_equal(v.nlines, 2);
    assert_non_null(strstr(v.line[0], "Failed RPC calls"));
    assert_non_null(strstr(v.line[1], "the run ended early"));
    f->st = saved;
}

/* -F, --open-loop and --seed are non-standard (codes 19-21); SFS's own
 * code still wins when one of its parameters fails too. */
static void freesfs_settings_are_non_standard(void **state)
{
    struct fixture *f = *state;
    struct ld_config saved = f->cfg;
    struct ld_validity v;

    f->cfg.runtime_s = f->cfg.warmup_s = 300;
    f->cfg.io_files = 1000;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_FILE_COUNT);
    assert_string_equal(v.line[0], "INVALID RUN, ILLEGAL PARAMETER: Non-standard File "
                                   "count 1000 != 390 x load (-F)");
    f->cfg.pace_mode = LD_PACE_OPEN_FIXED;
    f->cfg.seed = 77;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_FILE_COUNT);
    assert_int_equal(v.nlines, 3);
    assert_string_equal(
        v.line[0], "INVALID RUN, ILLEGAL PARAMETER: Non-standard Random seed 77 != 2231");
    assert_string_equal(
        v.line[1],
        "INVALID RUN, ILLEGAL PARAMETER: Non-standard Pacing open-loop (fixed) != sfs");
    f->cfg.runtime_s = 60;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_RUNTIME);
    assert_int_equal(v.nlines, 4);
    f->cfg = saved;
}

/* Beyond SFS: a run that achieved less than 90 % of its requested load is
 * code 22 with the figures (exactly 90 % is not), and the code outranks a
 * missed mix and the parameters, which are still listed. */
/* A workload's own reasons (the NFS trace replay's): every one listed with
 * its plain words; the status mismatches (23) outrank a parameter and a
 * missed mix, an early end (18) outranks them. */
static void workload_reasons_ranked(void **state)
{
    struct ld_validity v;

    (void)state;
    memset(&v, 0, sizeof(v));
    ld_validity_add(&v, LD_INV_SEED, "seed", "INVALID RUN, seed %d", 7);
    ld_validity_add(&v, LD_INV_STATUS_MISMATCH, "2.00 % mismatched",
                    "INVALID RUN, %.2f%% Status mismatches", 2.0);
    assert_int_equal(v.code, LD_INV_STATUS_MISMATCH);
    ld_validity_add(&v, LD_INV_MIX_MISSED, "mix", "INVALID RUN, mix");
    assert_int_equal(v.code, LD_INV_STATUS_MISMATCH);
    ld_validity_add(&v, LD_INV_ENDED_EARLY, "ended", "INVALID RUN, ended");
    assert_int_equal(v.code, LD_INV_ENDED_EARLY);
    assert_int_equal(v.nlines, 4);
    assert_int_equal(v.lcode[1], LD_INV_STATUS_MISMATCH);
    assert_string_equal(v.line[1], "INVALID RUN, 2.00% Status mismatches");
    assert_string_equal(v.words[1], "2.00 % mismatched");
    assert_true(ld_invalid_measured(LD_INV_STATUS_MISMATCH));
}

static void load_missed_by_more_than_ten_percent(void **state)
{
    struct fixture *f = *state;
    struct ld_stats saved = f->st;
    struct ld_validity v;
    char buf[1024];
    int i;

    f->cfg.runtime_s = f->cfg.warmup_s = 300;
    f->st.runtime_ns = f->st.runtime_ns * 10 / 9; /* 360.00 ops/s: 90 % */
    assert_int_equal(ld_report_ops_x100(&f->in), 36000);
    assert_int_equal(ld_validity_check(&f->in, &v), LD_VALID);
    f->st.runtime_ns = saved.runtime_ns * 48; /* 8.33 ops/s */
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_LOAD_MISSED);
    assert_int_equal(v.nlines, 1);
    assert_string_equal(
        v.line[0], "INVALID RUN, Load missed: requested 400 ops/s, achieved 8.33 (2%)");
    assert_string_equal(v.words[0],
                        "requested 400 ops/s, achieved 8.3 (2 %; SFS requires "
                        "at least 90 % of the request)");
    assert_string_equal(ld_invalid_text(LD_INV_LOAD_MISSED), "Load missed");
    for (i = 0; i < 600; i++)
        ld_stats_good(&f->st, NF_OP_LOOKUP, 1000000, 0);
    f->cfg.warmup_s = 10;
    assert_int_equal(ld_validity_check(&f->in, &v), LD_INV_LOAD_MISSED);
    assert_int_equal(v.nlines, 3);
    assert_int_equal(v.lcode[0], LD_INV_MIX_MISSED);
    assert_int_equal(v.lcode[1], LD_INV_LOAD_MISSED);
    assert_int_equal(v.lcode[2], LD_INV_WARMUP);
    ld_validity_words(&v, buf, sizeof(buf));
    assert_non_null(strstr(buf, "; warm-up 10 s (SFS requires 300 s)"));
    assert_true(ld_invalid_measured(LD_INV_LOAD_MISSED));
    assert_false(ld_invalid_measured(LD_INV_WARMUP));
    f->st = saved;
    f->cfg.warmup_s = 300;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(figures),
        cmocka_unit_test(throughput_over_the_span),
        cmocka_unit_test(valid_run),
        cmocka_unit_test(parameters),
        cmocka_unit_test(counters),
        cmocka_unit_test(param_block),
        cmocka_unit_test(client_table),
        cmocka_unit_test(yaml_file),
        cmocka_unit_test(unexpected_errors_beyond_one_percent),
        cmocka_unit_test(ended_early_wins_over_the_failed_calls),
        cmocka_unit_test(freesfs_settings_are_non_standard),
        cmocka_unit_test(load_missed_by_more_than_ten_percent),
        cmocka_unit_test(workload_reasons_ranked),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
