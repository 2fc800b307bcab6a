/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_rcwrite.c - writing rc files back (cm_rc_quote, cm_rc_edit,
 * cm_rc_write): every value reads back exactly, a hand-written file keeps
 * its comments, blank lines and order, a broken file is never rewritten,
 * and the file is replaced through a temporary file and rename. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/rc.h"
#include "common/text.h"

#define FIX "tests/fixtures/rc/"

/* Parses text and returns NAME's value (static buffer), or "(unset)". */
static const char *value_of(const char *text, const char *name)
{
    static char buf[4096];
    struct cm_rc rc;
    const struct cm_rc_var *v;

    assert_int_equal(cm_rc_parse(&rc, "t", text, strlen(text), NULL, NULL, NULL, NULL, 0),
                     0);
    v = cm_rc_get(&rc, name);
    snprintf(buf, sizeof(buf), "%s", v ? v->value : "(unset)");
    cm_rc_free(&rc);
    return buf;
}

static char *edit(const char *text, const struct cm_rc_assign *sets, size_t n)
{
    char *out = NULL, err[512];
    size_t len = 0;

    assert_int_equal(
        cm_rc_edit("t", text, strlen(text), sets, n, &out, &len, NULL, err, sizeof(err)),
        0);
    assert_int_equal(strlen(out), len);
    return out;
}

static void quote_bare_and_quoted(void **state)
{
    char buf[64];

    (void)state;
    assert_int_equal(cm_rc_quote("400", buf, sizeof(buf)), 3);
    assert_string_equal(buf, "400");
    assert_int_equal(cm_rc_quote("srv:/export/fs1", buf, sizeof(buf)), 15);
    assert_string_equal(buf, "srv:/export/fs1");
    cm_rc_quote("", buf, sizeof(buf));
    assert_string_equal(buf, "\"\"");
    cm_rc_quote("100 200", buf, sizeof(buf));
    assert_string_equal(buf, "\"100 200\"");
    cm_rc_quote("a$HOME`x`\"\\", buf, sizeof(buf));
    assert_string_equal(buf, "\"a\\$HOME\\`x\\`\\\"\\\\\"");
    assert_int_equal(cm_rc_quote("100 200", buf, 9), -E2BIG);
    assert_string_equal(buf, "");
}

/* Whatever a user types reads back as typed: nothing is expanded or run. */
static void hostile_values_round_trip(void **state)
{
    static const char *const vals[] = {
        "",
        " ",
        "a b\tc",
        "$(rm -rf /)",
        "`reboot`",
        "x; rm -rf /",
        "it's",
        "say \"hi\"",
        "back\\slash",
        "${HOME}",
        "$",
        "line1\nline2",
        "#not a comment",
        "a=b",
        "trailing\\",
        "&& || | > <",
        "~user",
        "*?[a]",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        struct cm_rc_assign set = {"V", vals[i]};
        char *out = edit("# a file\nV=1\nW=2\n", &set, 1);
        assert_string_equal(value_of(out, "V"), vals[i]);
        assert_string_equal(value_of(out, "W"), "2");
        free(out);
    }
}

static void comments_order_and_blank_lines_kept(void **state)
{
    const char *text = "# header\n"
                       "\n"
                       "LOAD=\"100 200\"   # the points\n"
                       "CLIENTS='a\n"
                       "b'\n"
                       "\t# indented comment\n"
                       "PROCS=4\n"
                       "PROCS=8 # the later one counts\n"
                       "TCP=";
    struct cm_rc_assign sets[] = {
        {"LOAD", "300 600 900"},
        {"CLIENTS", "c1 c2 c3"},
        {"PROCS", "2"},
        {"NFS_VERSION", "3"},
        {"TCP", "1"},
    };
    char *out;

    (void)state;
    out = edit(text, sets, 5);
    assert_string_equal(out, "# header\n"
                             "\n"
                             "LOAD=\"300 600 900\"   # the points\n"
                             "CLIENTS=\"c1 c2 c3\"\n"
                             "\t# indented comment\n"
                             "PROCS=4\n"
                             "PROCS=2 # the later one counts\n"
                             "TCP=1\n"
                             "NFS_VERSION=3\n");
    assert_string_equal(value_of(out, "PROCS"), "2");
    free(out);
}

/* A reference to a changed variable follows the new value, as in sh. */
static void later_references_follow(void **state)
{
    struct cm_rc_assign set = {"SFS_DIR", "/srv/sfs"};
    char *out;

    (void)state;
    out = edit("SFS_DIR=/opt/freesfs\nWORK_DIR=\"$SFS_DIR/result\"\n", &set, 1);
    assert_string_equal(value_of(out, "WORK_DIR"), "/srv/sfs/result");
    assert_non_null(strstr(out, "WORK_DIR=\"$SFS_DIR/result\"\n"));
    free(out);
}

static void same_name_twice_later_wins(void **state)
{
    struct cm_rc_assign sets[] = {
        {"LOAD", "1"}, {"NEW", "a"}, {"LOAD", "2"}, {"NEW", "b"}};
    char *out;

    (void)state;
    out = edit("LOAD=0\n", sets, 4);
    assert_string_equal(out, "LOAD=2\nNEW=b\n");
    free(out);
}

static void broken_text_and_bad_names_refused(void **state)
{
    struct cm_rc_assign set = {"LOAD", "1"}, bad = {"2LOAD", "1"}, bad2 = {"LO AD", "1"};
    char *out = (char *)1, err[512];
    size_t len;
    const char *text = "LOAD=1\nPROCS=1; NFS_VERSION=3\n";

    (void)state;
    assert_int_equal(cm_rc_edit("x_rc", text, strlen(text), &set, 1, &out, &len, NULL,
                                err, sizeof(err)),
                     -EINVAL);
    assert_null(out);
    assert_non_null(strstr(err, "x_rc:2:"));
    assert_int_equal(
        cm_rc_edit("x_rc", "A=1\n", 4, &bad, 1, &out, &len, NULL, err, sizeof(err)),
        -EINVAL);
    assert_non_null(strstr(err, "2LOAD"));
    assert_int_equal(
        cm_rc_edit("x_rc", "A=1\n", 4, &bad2, 1, &out, &len, NULL, err, sizeof(err)),
        -EINVAL);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The template gets new values; only those lines change; the file is
 * replaced by rename (no temporary left behind); a broken source leaves
 * the target alone. */
static void write_from_template_atomically(void **state)
{
    char dir[] = "/tmp/test_rcwrite.XXXXXX", path[256], err[512];
    struct cm_rc_assign sets[] = {
        {"LOAD", "100 200"}, {"CLIENTS", "localhost"}, {"MNT_POINTS", "h:/e h:/e"}};
    char *before, *after;
    size_t blen, alen;
    struct cm_rc rc;
    int lines_b = 0, lines_a = 0;
    size_t i;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/new_rc", dir);
    assert_int_equal(cm_rc_write(path, FIX "sfs_rc", sets, 3, NULL, err, sizeof(err)), 0);
    assert_int_equal(count_entries(dir), 1);
    assert_int_equal(cm_rc_load(&rc, path, NULL, NULL, NULL, err, sizeof(err)), 0);
    assert_string_equal(cm_rc_get(&rc, "LOAD")->value, "100 200");
    assert_string_equal(cm_rc_get(&rc, "MNT_POINTS")->value, "h:/e h:/e");
    assert_string_equal(cm_rc_get(&rc, "RSH")->value, "ssh -o BatchMode=yes");
    cm_rc_free(&rc);
    assert_int_equal(cm_text_read(FIX "sfs_rc", &before, &blen, NULL, err, sizeof(err)),
                     0);
    assert_int_equal(cm_text_read(path, &after, &alen, NULL, err, sizeof(err)), 0);
    for (i = 0; i < blen; i++)
        lines_b += before[i] == '\n';
    for (i = 0; i < alen; i++)
        lines_a += after[i] == '\n';
    assert_int_equal(lines_a, lines_b);
    assert_non_null(strstr(after, "\nLOAD=\"100 200\"\n"));
    assert_non_null(strstr(after, "APPEND_PCNT=70          # -A:"));
    free(before);
    free(after);

    /* editing in place */
    sets[0].value = "500";
    assert_int_equal(cm_rc_write(path, NULL, sets, 1, NULL, err, sizeof(err)), 0);
    assert_int_equal(cm_rc_load(&rc, path, NULL, NULL, NULL, err, sizeof(err)), 0);
    assert_string_equal(cm_rc_get(&rc, "LOAD")->value, "500");
    assert_string_equal(cm_rc_get(&rc, "CLIENTS")->value, "localhost");
    cm_rc_free(&rc);

    /* a broken source: the target keeps its bytes */
    assert_int_equal(cm_text_read(path, &before, &blen, NULL, err, sizeof(err)), 0);
    assert_int_equal(
        cm_rc_write(path, FIX "bad_semicolon_rc", sets, 1, NULL, err, sizeof(err)),
        -EINVAL);
    assert_non_null(strstr(err, "bad_semicolon_rc:"));
    assert_int_equal(cm_text_read(path, &after, &alen, NULL, err, sizeof(err)), 0);
    assert_int_equal(alen, blen);
    assert_memory_equal(after, before, blen);
    free(before);
    free(after);
    assert_int_equal(count_entries(dir), 1);

    /* a missing source */
    assert_int_equal(
        cm_rc_write(path, "/nonexistent/x_rc", sets, 1, NULL, err, sizeof(err)), -ENOENT);
    assert_non_null(strstr(err, "/nonexistent/x_rc"));
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quote_bare_and_quoted),
        cmocka_unit_test(hostile_values_round_trip),
        cmocka_unit_test(comments_order_and_blank_lines_kept),
        cmocka_unit_test(later_references_follow),
        cmocka_unit_test(same_name_twice_later_wins),
        cmocka_unit_test(broken_text_and_bad_names_refused),
        cmocka_unit_test(write_from_template_atomically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
