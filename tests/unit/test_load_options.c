/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_options.c - unit tests for options.c and common's cm_opt
 * engine: the SFS 3.0 defaults, the table walk (every default parses and
 * lies in range, echo-then-parse gives the same value, the SFS rc variables
 * are present), one-line range errors naming the option and its range with
 * their exit codes, -c rejected, mount-point counts and assignment, -T per
 * NFS version, --open-loop, --help, and the sources recorded per value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cm.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/opt.h"
#include "load/debug.h"
#include "helpers/th_text.h"
#include "load/options.h"
#include "load/workload.h"

#define MAXARGS 32

static struct ld_config cfg;
static char err[CM_ERR_LEN];
static int code;

/* A workload with an option of its own (workload.h: its option groups):
 * the parse takes it into the toy's struct. */
struct toy_opts {
    int n;
    char word[16];
};
static const struct cm_opt toy_rows[] = {
    {0, "toy-n", "TOY_N", CM_OPT_INT, offsetof(struct toy_opts, n), sizeof(int), "7", 1,
     9, NULL, "N", "How many.", NULL, NULL, 0, CM_EXIT_SFS_WORKLOAD},
    {0, "toy-word", NULL, CM_OPT_STRING, offsetof(struct toy_opts, word), 16, "hi", 0, 0,
     NULL, "W", "Which word.", NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_WORKLOAD},
};
static const struct ld_opt_group toy_group = {"toy options", toy_rows, 2,
                                              sizeof(struct toy_opts)};
static const struct ld_opt_group *const toy_groups[] = {&toy_group, NULL};
static const struct ld_workload_ops toy = {.name = "toy", .options = toy_groups};
static const struct ld_workload_ops plain = {.name = "plain"};
static const struct ld_workload_ops *const workloads[] = {&plain, &toy};

/* Parses a space-separated command line (argv[0] = "sfs3"). */
static int parse_v(int version, const char *line)
{
    static char buf[1024];
    static char *argv[MAXARGS];
    int argc = 0;
    char *tok, *save = NULL;

    snprintf(buf, sizeof(buf), "sfs3 %s", line);
    for (tok = strtok_r(buf, " ", &save); tok && argc < MAXARGS - 1;
         tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    code = 0;
    err[0] = '\0';
    return ld_options_parse(&cfg, version, workloads, 2, argc, argv, &code, err,
                            sizeof(err));
}

static int parse(const char *line)
{
    return parse_v(3, line);
}

static void sfs_defaults(void **state)
{
    size_t n, i;

    (void)state;
    ld_options_table(&n);
    assert_int_equal(parse("srv:/export"), 0);
    assert_int_equal(cfg.nfs_version, 3);
    assert_int_equal(cfg.load, 60);
    assert_int_equal(cfg.procs, 4);
    assert_int_equal(cfg.runtime_s, 300);
    assert_int_equal(cfg.warmup_s, 300);
    assert_int_equal(cfg.kb_per_block, 8);
    assert_int_equal(cfg.fss_delta_pct, 10);
    assert_int_equal(cfg.access_pct, 10);
    assert_int_equal(cfg.append_pct, 70);
    assert_int_equal(cfg.files_per_dir, 30);
    assert_int_equal(cfg.io_files, 0);
    assert_int_equal(cfg.symlinks, 20);
    assert_int_equal(cfg.biod_reads, 2);
    assert_int_equal(cfg.biod_writes, 2);
    assert_int_equal(cfg.client_num, 1);
    assert_int_equal(cfg.test_op, -1);
    assert_int_equal(cfg.validate, 0);
    assert_int_equal(cfg.tcp, 0);
    assert_int_equal(cfg.debug_mask, 0);
    assert_int_equal(cfg.seed, CM_RNG_DEFAULT_SEED);
    assert_int_equal(cfg.pace_mode, LD_PACE_SFS);
    assert_string_equal(cfg.mix_file, "");
    assert_int_equal(cfg.nmounts, 1);
    assert_string_equal(cfg.mounts[0], "srv:/export");
    assert_true(n <= LD_CONFIG_NSRC);
    for (i = 0; i < n; i++)
        assert_int_equal(cfg.src[i], CM_SRC_DEFAULT);
}

/* Every default parses and lies within its range; echo then parse gives
 * back the same value; flags, names and exit codes are unique, and every
 * exit code is a row of common/exit.h's table, in SFS's option range
 * (97-121) or FreeSFS's (from 32, below SFS's 83). */
static void table_walk(void **state)
{
    size_t n, i, j;
    const struct cm_opt *t = ld_options_table(&n);

    (void)state;
    ld_config_defaults(&cfg, 2);
    for (i = 0; i < n; i++) {
        struct ld_config copy = cfg;
        char text[LD_PATH_MAX + 32], again[LD_PATH_MAX + 32];

        assert_non_null(t[i].help);
        assert_true((t[i].exit_code > CM_EXIT_SFS_USAGE &&
                     t[i].exit_code <= CM_EXIT_SFS_CLIENT) ||
                    (t[i].exit_code >= CM_EXIT_SFS_OPEN_LOOP &&
                     t[i].exit_code < CM_EXIT_SFS_CHILD));
        assert_non_null(cm_exit_name(t[i].exit_code));
        if (t[i].type == CM_OPT_INT || t[i].type == CM_OPT_I64) {
            double v = atof(t[i].def);

            assert_true(v >= t[i].min && v <= t[i].max);
        }
        cm_opt_format(&t[i], &cfg, text, sizeof(text));
        assert_int_equal(cm_opt_set(&t[i], &copy, text, err, sizeof(err)), 0);
        cm_opt_format(&t[i], &copy, again, sizeof(again));
        assert_string_equal(text, again);
        for (j = i + 1; j < n; j++) {
            if (t[i].short_flag)
                assert_true(t[i].short_flag != t[j].short_flag);
            if (t[i].long_name && t[j].long_name)
                assert_true(strcmp(t[i].long_name, t[j].long_name) != 0);
            if (t[i].rc_name && t[j].rc_name)
                assert_true(strcmp(t[i].rc_name, t[j].rc_name) != 0);
            assert_true(t[i].exit_code != t[j].exit_code);
        }
    }
}

static void rc_names_present(void **state)
{
    static const char *const names[] = {
        "LOAD",        "PROCS",         "BIOD_MAX_READS", "BIOD_MAX_WRITES", "TCP",
        "WARMUP_TIME", "RUNTIME",       "MIXFILE",        "ACCESS_PCNT",     "DEBUG",
        "DUMP",        "APPEND_PCNT",   "BLOCK_SIZE",     "BLOCK_FILE",      "DIR_COUNT",
        "FILE_COUNT",  "SYMLINK_COUNT", "POPULATE",       "WORKLOAD",
    };
    size_t n, i;
    const struct cm_opt *t = ld_options_table(&n);

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(names); i++)
        if (!cm_opt_by_rc(t, n, names[i]))
            fail_msg("rc variable %s has no row", names[i]);
}

static void values_and_sources(void **state)
{
    size_t n;
    const struct cm_opt *t = ld_options_table(&n);

    (void)state;
    assert_int_equal(parse("-l 400 -p 8 -t 60 -w 10 -Q -R 4 -W 0 -d 3,4,8-10 "
                           "--seed 77 --yaml out.yaml -m my.mix a:/x b:/y c:/z d:/w "
                           "e:/x f:/y g:/z h:/w"),
                     0);
    assert_int_equal(cfg.load, 400);
    assert_int_equal(cfg.procs, 8);
    assert_int_equal(cfg.runtime_s, 60);
    assert_int_equal(cfg.warmup_s, 10);
    assert_int_equal(cfg.tcp, 1);
    assert_int_equal(cfg.biod_reads, 4);
    assert_int_equal(cfg.biod_writes, 0);
    assert_int_equal(cfg.seed, 77);
    assert_string_equal(cfg.yaml_path, "out.yaml");
    assert_string_equal(cfg.mix_file, "my.mix");
    assert_int_equal(cfg.debug_mask, LD_DBG_BIT(3) | LD_DBG_BIT(4) | LD_DBG_BIT(8) |
                                         LD_DBG_BIT(9) | LD_DBG_BIT(10));
    assert_int_equal(cfg.nmounts, 8);
    assert_int_equal(cfg.src[cm_opt_by_short(t, n, 'l') - t], CM_SRC_CLI);
    assert_int_equal(cfg.src[cm_opt_by_short(t, n, 'a') - t], CM_SRC_DEFAULT);
    assert_true(ld_config_was_set(&cfg, "load"));
    assert_false(ld_config_was_set(&cfg, "access"));
    assert_int_equal(parse("--load=500 --procs 2 --tcp m:/x"), 0);
    assert_int_equal(cfg.load, 500);
    assert_int_equal(cfg.procs, 2);
    assert_int_equal(cfg.tcp, 1);
}

/* One line naming the option and its range, and the option's exit code. */
static void range_errors(void **state)
{
    size_t n;
    const struct cm_opt *t = ld_options_table(&n);

    (void)state;
    assert_int_equal(parse("-p 0 m:/x"), -ERANGE);
    assert_string_equal(err, "-p (--procs): 0 is out of range 1..1024 processes");
    assert_int_equal(code, cm_opt_by_short(t, n, 'p')->exit_code);
    assert_int_equal(parse("-B 9 m:/x"), -ERANGE);
    assert_string_equal(err, "-B (--block-kb): 9 is out of range 1..8 KB");
    assert_int_equal(parse("-R 33 m:/x"), -ERANGE);
    assert_string_equal(err, "-R (--biod-reads): 33 is out of range 0..32 calls");
    assert_int_equal(parse("-a 101 m:/x"), -ERANGE);
    assert_string_equal(err, "-a (--access): 101 is out of range 0..100 %");
    assert_int_equal(parse("-l abc m:/x"), -EINVAL);
    assert_string_equal(
        err, "-l (--load): 'abc' is not an integer (allowed 1..10000000 ops/s)");
    assert_int_equal(parse("-l 99999999999999999999 m:/x"), -ERANGE);
    assert_non_null(strstr(err, "out of range 1..10000000 ops/s"));
    assert_int_equal(parse("-t -5 m:/x"), -ERANGE);
    assert_null(strchr(err, '\n'));
    assert_int_equal(parse("-x m:/x"), -EINVAL);
    assert_string_equal(err, "-x: unknown option");
    assert_int_equal(code, CM_EXIT_SFS_USAGE);
    assert_int_equal(parse("--bogus m:/x"), -EINVAL);
    assert_non_null(strstr(err, "unknown option"));
    assert_int_equal(parse("m:/x -l"), -EINVAL);
    assert_string_equal(err, "-l (--load): missing value");
    assert_int_equal(parse("-d 3,40 m:/x"), -ERANGE);
    assert_non_null(strstr(err, "-d:"));
    assert_int_equal(parse("--open-loop=sometimes m:/x"), -EINVAL);
    assert_string_equal(err,
                        "--open-loop: 'sometimes' is not one of sfs, poisson, fixed");
}

static void c_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("-c 5000 m:/x"), -EINVAL);
    assert_string_equal(err, "-c: no longer supported");
    assert_int_equal(code, CM_EXIT_SFS_CALLS);
    assert_int_equal(parse("m:/x -c"), -EINVAL);
    assert_int_equal(code, CM_EXIT_SFS_CALLS);
}

static void mount_points(void **state)
{
    (void)state;
    assert_int_equal(parse("-p 4"), -EINVAL);
    assert_int_equal(code, CM_EXIT_SFS_MOUNTS);
    assert_int_equal(parse("-p 4 a:/1 b:/2 c:/3"), -EINVAL);
    assert_int_equal(code, CM_EXIT_SFS_MOUNTS);
    assert_string_equal(err,
                        "3 mount points for 4 processes: give 1, 4 or a multiple of 4");
    /* one: every child */
    assert_int_equal(parse("-p 3 127.0.0.1:2049:/export"), 0);
    assert_string_equal(ld_config_mount_for_child(&cfg, 2), "127.0.0.1:2049:/export");
    /* PROCS: child k takes the k-th */
    assert_int_equal(parse("-p 2 a:/1 b:/2"), 0);
    assert_string_equal(ld_config_mount_for_child(&cfg, 0), "a:/1");
    assert_string_equal(ld_config_mount_for_child(&cfg, 1), "b:/2");
    /* PROCS x clients: client N takes the N-th group */
    assert_int_equal(parse("-p 2 -N 2 a:/1 b:/2 c:/3 d:/4"), 0);
    assert_string_equal(ld_config_mount_for_child(&cfg, 0), "c:/3");
    assert_string_equal(ld_config_mount_for_child(&cfg, 1), "d:/4");
    assert_int_equal(parse("-p 2 -N 3 a:/1 b:/2 c:/3 d:/4"), 0);
    assert_string_equal(ld_config_mount_for_child(&cfg, 1), "b:/2");
}

static void test_op_per_version(void **state)
{
    (void)state;
    assert_int_equal(parse_v(3, "-T 18 m:/x"), 0);
    assert_int_equal(cfg.test_op, 18);
    assert_int_equal(parse_v(2, "-T 18 m:/x"), -EINVAL);
    assert_string_equal(err, "-T (--test-op): op 18 (access) does not exist in NFSv2");
    assert_int_equal(parse_v(2, "-T 24 m:/x"), -ERANGE);
    assert_int_equal(parse_v(2, "-T 4 m:/x"), 0);
    assert_int_equal(parse_v(2, "-i -M prime m:/x"), -EINVAL);
}

/* NFSv4 runs over TCP only: TCP implied, UDP asked for (TCP off, as an rc
 * can say) refused in one line; v2 and v3 keep UDP by default.  NFSv4.1's
 * mix uses v3's op set (-T 18, access). */
static void nfsv4_takes_tcp_only(void **state)
{
    size_t n;
    const struct cm_opt *table = ld_options_table(&n); /* sets n before it is read */
    const struct cm_opt *q = cm_opt_by_short(table, n, 'Q');

    (void)state;
    assert_int_equal(parse_v(3, "m:/x"), 0);
    assert_int_equal(cfg.tcp, 0);
    assert_int_equal(parse_v(4, "-T 18 m:/x"), 0);
    assert_int_equal(cfg.tcp, 1);
    assert_int_equal(parse_v(4, "-Q m:/x"), 0);
    assert_int_equal(cfg.tcp, 1);
    /* TCP off, from an rc: the prime's copy of the options */
    cfg.tcp = 0;
    cfg.src[q - ld_options_table(&n)] = CM_SRC_RC;
    assert_int_equal(ld_config_transport(&cfg, err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "NFSv4.1 runs over TCP only: UDP (TCP off) refused");
    cfg.nfs_version = 3;
    assert_int_equal(ld_config_transport(&cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.tcp, 0);
    assert_int_equal(parse_v(4, "-T 3 m:/x"), -EINVAL); /* root: v2's */
}

static void open_loop_and_help(void **state)
{
    char *out = NULL;
    size_t len = 0;
    FILE *fp;

    (void)state;
    assert_int_equal(parse("--open-loop m:/x"), 0);
    assert_int_equal(cfg.pace_mode, LD_PACE_OPEN_POISSON);
    assert_int_equal(parse("--open-loop=fixed m:/x"), 0);
    assert_int_equal(cfg.pace_mode, LD_PACE_OPEN_FIXED);
    assert_int_equal(parse("--help"), LD_OPTIONS_HELP);
    assert_int_equal(parse("-l 5 --help"), LD_OPTIONS_HELP);
    fp = open_memstream(&out, &len);
    ld_options_help(fp, "sfs3", workloads, 2);
    fclose(fp);
    assert_true(th_text_unwrap(out) <= 80); /* --help fits 80 columns */
    assert_non_null(strstr(out, "usage: sfs3 [options] mount-point..."));
    assert_non_null(strstr(out, "-l, --load LOAD"));
    assert_non_null(strstr(out, "(default 60, range 1..10000000 ops/s) [LOAD]"));
    assert_non_null(strstr(out, "--open-loop[=ARRIVALS]"));
    assert_non_null(strstr(out, "--help"));
    assert_null(strstr(out, "-c CALLS")); /* rejected: not advertised */
    /* a workload's own options under a heading that names it (unwrapped:
     * its first row follows it after a space) */
    assert_non_null(strstr(out, "\ntoy options (--workload toy): "));
    assert_non_null(strstr(out, "--toy-n N"));
    free(out);
}

/* A workload's options land in its struct with their sources; --workload
 * names a workload or auto. */
static void a_workloads_own_options(void **state)
{
    const struct toy_opts *o;
    const unsigned char *src;

    (void)state;
    assert_int_equal(parse("m:/x"), 0);
    o = ld_config_opts(&cfg, &toy_group);
    assert_non_null(o);
    assert_int_equal(o->n, 7);
    assert_string_equal(o->word, "hi");
    assert_string_equal(cfg.workload, "auto");
    assert_null(ld_config_foreign(&cfg, &plain, &(const struct ld_opt_group *){NULL}));
    assert_int_equal(parse("--toy-n 3 --toy-word yo --workload toy m:/x"), 0);
    o = ld_config_opts(&cfg, &toy_group);
    assert_int_equal(o->n, 3);
    assert_string_equal(o->word, "yo");
    assert_true(ld_config_was_set(&cfg, "toy-n"));
    assert_ptr_equal(ld_config_row(&cfg, "toy-n", &src), &toy_rows[0]);
    assert_int_equal(*src, CM_SRC_CLI);
    {
        const struct ld_opt_group *g = NULL;

        /* given, but not read by the plain workload */
        assert_ptr_equal(ld_config_foreign(&cfg, &plain, &g), &toy_rows[0]);
        assert_ptr_equal(g, &toy_group);
        assert_null(ld_config_foreign(&cfg, &toy, &g));
    }
    assert_int_equal(ld_config_set_word(&cfg, "--toy-n=5", err, sizeof(err)), 0);
    assert_int_equal(((const struct toy_opts *)ld_config_opts(&cfg, &toy_group))->n, 5);
    assert_int_equal(parse("--toy-n 10 m:/x"), -ERANGE);
    assert_int_equal(code, CM_EXIT_SFS_WORKLOAD);
    assert_string_equal(err, "--toy-n: 10 is out of range 1..9");
    assert_int_equal(parse("--workload nosuch m:/x"), -EINVAL);
    assert_int_equal(code, CM_EXIT_SFS_WORKLOAD);
    assert_string_equal(err, "--workload nosuch: not a workload (auto, plain, toy)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sfs_defaults),         cmocka_unit_test(table_walk),
        cmocka_unit_test(rc_names_present),     cmocka_unit_test(values_and_sources),
        cmocka_unit_test(range_errors),         cmocka_unit_test(c_rejected),
        cmocka_unit_test(mount_points),         cmocka_unit_test(test_op_per_version),
        cmocka_unit_test(open_loop_and_help),   cmocka_unit_test(a_workloads_own_options),
        cmocka_unit_test(nfsv4_takes_tcp_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
