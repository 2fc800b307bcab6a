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

#include "common/rc.h"

#define FIX "tests/fixtures/rc/"

static int known_sfs(const char *name, void *data)
{
    (void)data;
    return strcmp(name, "FROBNICATE_LEVEL") != 0;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(template_parses_with_defaults),
        cmocka_unit_test(quotes_comments_and_expansion),
        cmocka_unit_test(unknown_variable_warns),
        cmocka_unit_test(shell_constructs_are_errors_at_their_line),
        cmocka_unit_test(hostile_lines),
        cmocka_unit_test(sh_semantics),
        cmocka_unit_test(caller_errors_carry_the_line),
        cmocka_unit_test(a_malformed_assignment_gives_one_error_not_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
