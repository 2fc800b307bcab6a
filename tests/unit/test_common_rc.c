/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_rc.c - the rc parser (docs/DECISIONS.md D9) on the rc fixtures
 * (tests/fixtures/rc, values as /bin/sh assigns them) and on hostile
 * lines: every shell construct is an error at its FILE:LINE, nothing runs. */
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

#include "common/rc.h"

#define FIX "tests/fixtures/rc/"

static int known_sfs(const char *name, void *data, const char **near)
{
    (void)data;
    if (cm_rc_name_distance(name, "RUNTIME") >= 0)
        *near = "RUNTIME";
    return strcmp(name, "FROBNICATE_LEVEL") != 0 && *near == NULL;
}

static const char *val(const struct cm_rc *rc, const char *name)
{
    const struct cm_rc_var *v = cm_rc_get(rc, name);
    return v ? v->value : "(unset)";
}

static void template_parses_with_defaults(void **state)
{
    struct cm_rc rc;
    char err[512];

    (void)state;
    assert_int_equal(
        cm_rc_load(&rc, FIX "sfs_rc", known_sfs, NULL, NULL, err, sizeof(err)), 0);
    assert_int_equal(rc.warnings, 0);
    assert_string_equal(val(&rc, "LOAD"), "60");
    assert_string_equal(val(&rc, "CLIENTS"), "");
    assert_string_equal(val(&rc, "RSH"), "ssh -o BatchMode=yes");
    assert_string_equal(val(&rc, "WORK_DIR"), "result");
    assert_string_equal(val(&rc, "APPEND_PCNT"), "70"); /* value before a comment */
    assert_string_equal(val(&rc, "FILE_COUNT"), "");
    assert_string_equal(val(&rc, "SUFFIX"), "");
    assert_string_equal(cm_rc_value(&rc, "NFS_VERSION", "2"), "2");
    cm_rc_free(&rc);
}

static void quotes_comments_and_expansion(void **state)
{
    struct cm_rc rc;
    char err[512];

    (void)state;
    assert_int_equal(
        cm_rc_load(&rc, FIX "two_clients_rc", known_sfs, NULL, NULL, err, sizeof(err)),
        0);
    assert_int_equal(rc.warnings, 0);
    assert_string_equal(val(&rc, "WORK_DIR"), "/opt/freesfs/result");
    assert_string_equal(val(&rc, "PRIME_MON_SCRIPT"), "/opt/freesfs/bin/sfs_ext_mon");
    assert_string_equal(val(&rc, "PRIME_MON_ARGS"), "-i 5 $SFS_DIR #1");
    assert_string_equal(val(&rc, "SFS_USER"), "spec");
    assert_string_equal(val(&rc, "TCP"), "on");
    assert_string_equal(val(&rc, "DUMP"), "");
    assert_int_equal(cm_rc_get(&rc, "LOAD")->line, 6);
    cm_rc_free(&rc);
}

static void unknown_variable_warns(void **state)
{
    struct cm_rc rc;
    char err[512];
    char *buf = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&buf, &len);

    (void)state;
    assert_int_equal(cm_rc_load(&rc, FIX "warn_unknown_var_rc", known_sfs, NULL, diag,
                                err, sizeof(err)),
                     0);
    fclose(diag);
    assert_int_equal(rc.warnings, 1);
    assert_non_null(
        strstr(buf, "warn_unknown_var_rc:6: warning: unknown variable FROBNICATE_LEVEL"));
    free(buf);
    cm_rc_free(&rc);
}

static void expect_error(const char *file, const char *where, const char *what)
{
    struct cm_rc rc;
    char err[512], path[256];

    snprintf(path, sizeof(path), FIX "%s", file);
    assert_int_equal(cm_rc_load(&rc, path, known_sfs, NULL, NULL, err, sizeof(err)),
                     -EINVAL);
    if (strstr(err, where) == NULL || strstr(err, what) == NULL)
        fail_msg("%s: got '%s', wanted '%s' ... '%s'", file, err, where, what);
    cm_rc_free(&rc);
}

static void shell_constructs_are_errors_at_their_line(void **state)
{
    (void)state;
    expect_error("bad_cmdsubst_rc", "bad_cmdsubst_rc:4:", "$(...)");
    expect_error("bad_backticks_rc", "bad_backticks_rc:5:", "`...`");
    expect_error("bad_semicolon_rc", "bad_semicolon_rc:3:", "';' is not allowed");
    expect_error("bad_unterminated_rc", "bad_unterminated_rc:6:", "unterminated double");
}

static int parse_str(const char *text, struct cm_rc *rc, char *err, size_t errlen)
{
    return cm_rc_parse(rc, "t_rc", text, strlen(text), NULL, NULL, NULL, err, errlen);
}

static void hostile_lines(void **state)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"A=1\nB=x && touch /tmp/pwned\n", "t_rc:2:"},
        {"A=$(id)\n", "$(...)"},
        {"A=\"$(id)\"\n", "$(...)"},
        {"A=\"`id`\"\n", "`...`"},
        {"A=x | sh\n", "'|'"},
        {"A=x > /etc/passwd\n", "'>'"},
        {"A=${B:-x}\n", "${NAME}"},
        {"A=$$\n", "'$$'"},
        {"if true; then A=1; fi\n", "'if'"},
        {". ./other_rc\n", "'.'"},
        {"A=a b\n", "quote a list"},
        {"rm -rf /\n", "expected NAME=value"},
        {"A='x\n", "unterminated single"},
        {"A=x&\n", "'&'"},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct cm_rc rc;
        char err[512];
        int r = parse_str(bad[i].text, &rc, err, sizeof(err));
        if (r != -EINVAL || strstr(err, bad[i].msg) == NULL)
            fail_msg("'%s': rc %d, err '%s', wanted '%s'", bad[i].text, r, err,
                     bad[i].msg);
        cm_rc_free(&rc);
    }
}

static void sh_semantics(void **state)
{
    struct cm_rc rc;
    char err[512];
    char **w;

    (void)state;
    setenv("RC_TEST_ENV", "from-env", 1);
    assert_int_equal(parse_str("A=one\n"
                               "B=\"$A two\" # c\n"
                               "C='$A'\"$A\"${A}x\\ y\n"
                               "D=\"multi\nline\"\n"
                               "E=$RC_TEST_ENV\n"
                               "A=again\n"
                               "F=a#b\n"
                               "  \t# comment\n"
                               "G=\n",
                               &rc, err, sizeof(err)),
                     0);
    assert_string_equal(val(&rc, "B"), "one two");
    assert_string_equal(val(&rc, "C"), "$Aoneonex y");
    assert_string_equal(val(&rc, "D"), "multi\nline");
    assert_string_equal(val(&rc, "E"), "from-env");
    assert_string_equal(val(&rc, "A"), "again");
    assert_int_equal(cm_rc_get(&rc, "A")->line, 7); /* D spans lines 4-5 */
    assert_string_equal(val(&rc, "F"), "a#b");
    assert_string_equal(val(&rc, "G"), "");
    assert_string_equal(cm_rc_value(&rc, "G", "dflt"), "dflt");
    assert_int_equal(cm_rc_get(&rc, "G")->line, 10);
    assert_int_equal(cm_rc_split(val(&rc, "D"), &w, 8), 2);
    assert_string_equal(w[0], "multi");
    assert_string_equal(w[1], "line");
    assert_null(w[2]);
    free(w);
    assert_int_equal(cm_rc_split("a b c", &w, 2), -E2BIG);
    cm_rc_free(&rc);

    /* an unset reference warns and expands to nothing */
    assert_int_equal(parse_str("A=x${RC_TEST_UNSET_VAR}y\n", &rc, err, sizeof(err)), 0);
    assert_int_equal(rc.warnings, 1);
    assert_string_equal(val(&rc, "A"), "xy");
    cm_rc_free(&rc);
}

static void caller_errors_carry_the_line(void **state)
{
    struct cm_rc rc;
    char err[512];

    (void)state;
    assert_int_equal(parse_str("\n\nPROCS=abc\n", &rc, err, sizeof(err)), 0);
    assert_int_equal(
        cm_rc_error(&rc, cm_rc_get(&rc, "PROCS"), "'%s' is not a number", "abc"),
        -EINVAL);
    assert_string_equal(err, "t_rc:3: error: PROCS: 'abc' is not a number");
    assert_int_equal(rc.errors, 1);
    cm_rc_free(&rc);
}

static void a_malformed_assignment_gives_one_error_not_two(void **state)
{
    struct cm_rc rc;
    char err[512];
    const struct cm_rc_var *v;
    const char *text = "LOAD=100 200\nPROCS=$(id)\nCLIENTS=a\n";

    (void)state;
    assert_int_equal(parse_str(text, &rc, err, sizeof(err)), -EINVAL);
    assert_int_equal(rc.errors, 2);
    assert_non_null(strstr(err, "t_rc:1:"));
    /* the variables exist, empty and marked: a caller's "must be set" or
     * "not a number" about them is not added to the real error */
    v = cm_rc_get(&rc, "LOAD");
    assert_non_null(v);
    assert_true(v->bad);
    assert_string_equal(v->value, "");
    assert_int_equal(v->line, 1);
    assert_int_equal(cm_rc_error(&rc, v, "must be set"), -EINVAL);
    v = cm_rc_get(&rc, "PROCS");
    assert_non_null(v);
    assert_true(v->bad);
    assert_int_equal(cm_rc_error(&rc, v, "'' is not a number"), -EINVAL);
    assert_int_equal(rc.errors, 2);
    /* the bad line's bytes run to its end: an edit replaces all of it */
    v = cm_rc_get(&rc, "LOAD");
    assert_int_equal(v->off, 0);
    assert_int_equal(v->end, strlen("LOAD=100 200"));
    assert_false(cm_rc_get(&rc, "CLIENTS")->bad);
    cm_rc_free(&rc);
}

/* A NUL byte would cut its value (LOAD=1\00 read as 1): each line holding
 * one is an error at its line, in memory and in a file. */
static void nul_bytes_are_errors_at_their_line(void **state)
{
    static const char text[] = "CLIENTS=loc\0alhost\nLOAD=1\0000\n# a \0 comment\nA=1\n";
    struct cm_rc rc;
    char err[512], path[] = "/tmp/test_rc_nul.XXXXXX";
    char *buf = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&buf, &len), *f;
    int fd;

    (void)state;
    assert_int_equal(cm_rc_parse(&rc, "t_rc", text, sizeof(text) - 1, NULL, NULL, diag,
                                 err, sizeof(err)),
                     -EINVAL);
    fclose(diag);
    assert_int_equal(rc.errors, 3);
    assert_non_null(strstr(buf, "t_rc:1: error: a NUL byte at column 12"));
    assert_non_null(strstr(buf, "t_rc:2: error: a NUL byte at column 7"));
    assert_non_null(strstr(buf, "t_rc:3: error: a NUL byte"));
    free(buf);
    cm_rc_free(&rc);

    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fwrite(text, 1, sizeof(text) - 1, f);
    fclose(f);
    assert_true(cm_rc_load(&rc, path, NULL, NULL, NULL, err, sizeof(err)) < 0);
    assert_non_null(strstr(err, ":1: a NUL byte at column 12"));
    assert_int_equal(rc.n, 0); /* nothing was taken from it */
    cm_rc_free(&rc);
    unlink(path);
}

/* Ten levels of $A$A$A... stop at the 1 MiB value limit with an error at
 * their line, and no value ever holds more. */
static void expansion_is_capped(void **state)
{
    struct cm_rc rc;
    char err[512], *text, *p;
    size_t i, k;

    (void)state;
    text = malloc(64 * 1024);
    assert_non_null(text);
    p = text + sprintf(text, "A=");
    for (i = 0; i < 1000; i++)
        *p++ = 'x';
    *p++ = '\n';
    for (k = 0; k < 10; k++) {
        p += sprintf(p, "A=");
        for (i = 0; i < 10; i++)
            p += sprintf(p, "$A");
        *p++ = '\n';
    }
    *p = '\0';
    assert_int_equal(parse_str(text, &rc, err, sizeof(err)), -EINVAL);
    /* 1000 x 10 x 10 x 10 x 10 passes 1 MiB on line 5 */
    assert_non_null(strstr(err, "t_rc:5: error: A: the value is longer than 1048576"));
    for (i = 0; i < rc.n; i++)
        assert_true(strlen(rc.vars[i].value) <= CM_RC_VALUE_MAX);
    cm_rc_free(&rc);

    /* many values of almost 1 MiB: the whole file is capped too */
    p = text + sprintf(text, "A=");
    for (i = 0; i < 1000; i++)
        *p++ = 'x';
    p += sprintf(
        p, "\nA=$A$A$A$A$A$A$A$A$A$A\nA=$A$A$A$A$A$A$A$A$A$A\nA=$A$A$A$A$A$A$A$A$A$A\n");
    for (k = 0; k < 40; k++)
        p += sprintf(p, "B%zu=$A\n", k);
    assert_int_equal(parse_str(text, &rc, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "add up to more than 16777216 bytes"));
    assert_null(cm_rc_get(&rc, "B30")); /* reading stopped */
    cm_rc_free(&rc);
    free(text);
}

/* RUN_TIME for RUNTIME would be silently ignored: a typo of a known name is
 * an error naming the known one; other unknown names stay warnings. */
static void typo_of_a_known_name_is_an_error(void **state)
{
    struct cm_rc rc;
    char err[512];
    const char *text = "RUN_TIME=60\nFROBNICATE_LEVEL=1\nruntime=5\n";

    (void)state;
    assert_int_equal(cm_rc_parse(&rc, "t_rc", text, strlen(text), known_sfs, NULL, NULL,
                                 err, sizeof(err)),
                     -EINVAL);
    assert_string_equal(
        err, "t_rc:1: error: unknown variable RUN_TIME: did you mean RUNTIME?");
    assert_int_equal(rc.errors, 2);   /* RUN_TIME and runtime */
    assert_int_equal(rc.warnings, 1); /* FROBNICATE_LEVEL */
    cm_rc_free(&rc);
    assert_int_equal(cm_rc_name_distance("RUN_TIME", "RUNTIME"), 1);
    assert_int_equal(cm_rc_name_distance("RUNTIEM", "RUNTIME"), 1); /* swapped */
    assert_int_equal(cm_rc_name_distance("RNTME", "RUNTIME"), 2);
    assert_int_equal(cm_rc_name_distance("runtime", "RUNTIME"), 0);
    assert_int_equal(cm_rc_name_distance("RUNTIME", "RUNTIME"), -1);
    assert_int_equal(cm_rc_name_distance("RTM", "RUNTIME"), -1);
    assert_int_equal(cm_rc_name_distance("TMP", "TCP"), -1); /* short: one edit */
    assert_int_equal(cm_rc_name_distance("LOADS", "LOAD"), 1);
    assert_int_equal(cm_rc_name_distance("DUMMY", "DUMP"), -1);
    assert_int_equal(cm_rc_name_distance("tcp", "TCP"), 0);
}

/* WARMUP=5 for WARMUP_TIME would be silently ignored too: a known name cut
 * short at a '_' (or one with a '_' part added) resembles it; a short
 * piece, or one cut inside a word, does not. */
static void a_name_cut_at_an_underscore_resembles_the_whole(void **state)
{
    (void)state;
    assert_int_equal(cm_rc_name_resemblance("WARMUP", "WARMUP_TIME"), 3);
    assert_int_equal(cm_rc_name_resemblance("warmup", "WARMUP_TIME"), 3);
    assert_int_equal(cm_rc_name_resemblance("RUNTIME_SEC", "RUNTIME"), 3);
    assert_int_equal(cm_rc_name_resemblance("RUN_TIME", "RUNTIME"), 1);  /* a typo */
    assert_int_equal(cm_rc_name_resemblance("MNT", "MNT_POINTS"), -1);   /* too short */
    assert_int_equal(cm_rc_name_resemblance("WARM", "WARMUP_TIME"), -1); /* inside */
    assert_int_equal(cm_rc_name_resemblance("WARMUP_TIME", "WARMUP_TIME"), -1);
    assert_int_equal(cm_rc_name_resemblance("MY_SERVER", "SFS_USER"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(template_parses_with_defaults),
        cmocka_unit_test(a_name_cut_at_an_underscore_resembles_the_whole),
        cmocka_unit_test(quotes_comments_and_expansion),
        cmocka_unit_test(unknown_variable_warns),
        cmocka_unit_test(shell_constructs_are_errors_at_their_line),
        cmocka_unit_test(hostile_lines),
        cmocka_unit_test(sh_semantics),
        cmocka_unit_test(caller_errors_carry_the_line),
        cmocka_unit_test(a_malformed_assignment_gives_one_error_not_two),
        cmocka_unit_test(nul_bytes_are_errors_at_their_line),
        cmocka_unit_test(expansion_is_capped),
        cmocka_unit_test(typo_of_a_known_name_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
