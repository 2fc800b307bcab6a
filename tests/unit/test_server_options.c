/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_options.c - sfs_nfsd's option table (src/server/options.c)
 * on the common option engine: the defaults parse, repeatable options
 * (--export, --error) collect in order, sizes take suffixes, range and
 * syntax errors are one line naming the option, --help is recognised, and
 * the generated help lists every flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/opt.h"
#include "common/text.h"
#include "server/sv.h"
#include "common/error.h"
#include "common/rng.h"

static struct sv_options o;
static char err[CM_ERR_LEN];

static int parse(int argc, const char **argv)
{
    return sv_options_parse(&o, argc, (char **)argv, err, sizeof(err));
}

static void defaults(void **state)
{
    const char *argv[] = {"sfs_nfsd"};
    struct sv_config def;

    (void)state;
    sv_config_defaults(&def);
    assert_int_equal(parse(1, argv), 0);
    assert_string_equal(o.cfg.bind_addr, "127.0.0.1");
    assert_int_equal(o.cfg.nfs_port, SV_DEFAULT_NFS_PORT);
    assert_int_equal(o.cfg.mount_port, SV_DEFAULT_MNT_PORT);
    assert_int_equal(o.cfg.nexports, 0); /* the core then serves /export */
    assert_int_equal(o.cfg.max_bytes, def.max_bytes);
    assert_int_equal(o.cfg.idle_timeout_s, SV_DEFAULT_IDLE_S);
    assert_int_equal(o.cfg.max_connections, SV_MAX_CONNECTIONS);
    assert_int_equal(o.cfg.fault.seed, CM_RNG_DEFAULT_SEED);
    assert_int_equal(o.cfg.root_squash, 0);
    assert_null(o.cfg.stats_file);
    assert_int_equal(o.foreground, 0);
}

static void every_option(void **state)
{
    const char *argv[] = {"sfs_nfsd",
                          "-f",
                          "-b",
                          "::1",
                          "-p",
                          "0",
                          "-m",
                          "7",
                          "-e",
                          "/a",
                          "--export",
                          "/b/c",
                          "--max-bytes",
                          "64K",
                          "--root-squash",
                          "--idle-timeout",
                          "9",
                          "--max-connections",
                          "5",
                          "--error",
                          "write=NOSPC:10",
                          "--error",
                          "all=IO:1",
                          "--delay-us",
                          "100:20",
                          "--exit-after",
                          "25",
                          "--wrong-attrs",
                          "50",
                          "--drop-dirents",
                          "12.5",
                          "--change-handles",
                          "100",
                          "--corrupt-reads",
                          "1",
                          "--stats-file",
                          "s.yaml",
                          "--pidfile",
                          "p"};

    (void)state;
    assert_int_equal(parse((int)(sizeof(argv) / sizeof(argv[0])), argv), 0);
    assert_int_equal(o.foreground, 1);
    assert_string_equal(o.cfg.bind_addr, "::1");
    assert_int_equal(o.cfg.nfs_port, 0);
    assert_int_equal(o.cfg.mount_port, 7);
    assert_int_equal(o.cfg.nexports, 2);
    assert_string_equal(o.cfg.exports[1], "/b/c");
    assert_int_equal(o.cfg.max_bytes, 65536);
    assert_int_equal(o.cfg.root_squash, 1);
    assert_int_equal(o.cfg.idle_timeout_s, 9);
    assert_int_equal(o.cfg.max_connections, 5);
    assert_int_equal(o.cfg.fault.nerrors, 2);
    assert_string_equal(o.cfg.fault.errors[1].op, "all");
    assert_int_equal(o.cfg.fault.delay_us, 100);
    assert_int_equal(o.cfg.fault.jitter_us, 20);
    assert_int_equal(o.cfg.fault.exit_after, 25);
    assert_true(o.cfg.fault.wrong_attrs_pct == 50);
    assert_true(o.cfg.fault.drop_dirent_pct == 12.5);
    assert_true(o.cfg.fault.change_fh_pct == 100);
    assert_string_equal(o.cfg.stats_file, "s.yaml");
    assert_string_equal(o.pidfile, "p");
}

static void errors_name_the_option(void **state)
{
    const char *range[] = {"sfs_nfsd", "--drop-dirents", "101"};
    const char *size[] = {"sfs_nfsd", "--max-bytes", "12Q"};
    const char *conns[] = {"sfs_nfsd", "--max-connections", "0"};
    const char *rule[] = {"sfs_nfsd", "--error", "write=BOGUS:1"};
    const char *extra[] = {"sfs_nfsd", "stray"};
    const char *help[] = {"sfs_nfsd", "--help"};
    const char *many[SV_MAX_EXPORTS * 2 + 3] = {"sfs_nfsd"};
    int n = 1;

    (void)state;
    assert_true(parse(3, range) < 0);
    assert_non_null(strstr(err, "--drop-dirents: 101 is out of range 0..100"));
    assert_true(parse(3, size) < 0);
    assert_non_null(strstr(err, "--max-bytes"));
    assert_true(parse(3, conns) < 0);
    assert_non_null(strstr(err, "--max-connections: 0 is out of range 1..1024"));
    assert_true(parse(3, rule) < 0);
    assert_non_null(strstr(err, "unknown status 'BOGUS'"));
    assert_true(parse(2, extra) < 0);
    assert_non_null(strstr(err, "unexpected argument 'stray'"));
    assert_int_equal(parse(2, help), SV_OPTIONS_HELP);
    for (int i = 0; i <= SV_MAX_EXPORTS; i++) {
        many[n++] = "-e";
        many[n++] = "/x";
    }
    assert_true(parse(n, many) < 0);
    assert_non_null(strstr(err, "given more than 16 times"));
}

static void help_lists_every_flag(void **state)
{
    static const char *const flags[] = {
        "--bind",           "--port",          "--mount-port",      "--export",
        "--max-bytes",      "--root-squash",   "--max-connections", "--idle-timeout",
        "--register",       "--pidfile",       "--foreground",      "--stats-file",
        "--seed",           "--drop-replies",  "--delay-us",        "--exit-after",
        "--error",          "--corrupt-reads", "--wrong-attrs",     "--drop-dirents",
        "--change-handles", "--help"};
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    (void)state;
    assert_non_null(fp);
    sv_options_help(fp);
    fclose(fp);
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        assert_non_null(strstr(text, flags[i]));
    free(text);
}

/* The stats file echoes every option with its value and where it came
 * from, typed: what a run used is on record beside its counters. */
static void stats_file_echoes_the_options(void **state)
{
    const char *argv[] = {
        "sfs_nfsd", "--drop-dirents", "12.5", "--max-bytes", "1M", "-e", "/a", "-e",
        "/b"};
    char path[] = "/tmp/test_server_options.XXXXXX", *text = NULL;
    struct sv_core *c;
    size_t len;
    int fd;

    (void)state;
    assert_int_equal(parse(9, argv), 0);
    o.cfg.instance = 1;
    c = sv_core_create(&o.cfg, err, sizeof(err));
    assert_non_null(c);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sv_core_write_stats(c, path, NULL, err, sizeof(err)), 0);
    assert_int_equal(cm_text_read(path, &text, &len, NULL, err, sizeof(err)), 0);
    assert_non_null(strstr(text, "options:"));
    assert_non_null(
        strstr(text, "drop-dirents:\n    value: 12.5\n    source: 'command line'"));
    assert_non_null(strstr(text, "max-bytes:\n    value: 1048576\n"));
    assert_non_null(strstr(text, "export:\n    value: '/a,/b'\n"));
    assert_non_null(strstr(text, "idle-timeout:\n    value: 300\n    source: 'default'"));
    free(text);
    unlink(path);
    sv_core_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),
        cmocka_unit_test(every_option),
        cmocka_unit_test(errors_name_the_option),
        cmocka_unit_test(help_lists_every_flag),
        cmocka_unit_test(stats_file_echoes_the_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
