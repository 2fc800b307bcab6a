/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_alloc.c - the failing-allocator hook (common/alloc.h) and the
 * common layer's parsers and writers under it: the rc parser, reader and
 * writer, the text reader, the YAML reader and writer; the curve, which
 * allocates nothing.  Each allocation fails in turn (helpers/th_oom.h);
 * every run must end in -ENOMEM with a message, free all it made (the
 * ASan build checks) and leave no half-written file. */
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

#include "common/alloc.h"
#include "common/error.h"
#include "common/curve.h"
#include "common/rc.h"
#include "common/text.h"
#include "common/yaml.h"
#include "helpers/th_oom.h"
#include "helpers/th_text.h"

static void nth_allocation_fails_once_or_for_good(void **state)
{
    void *p[4];

    (void)state;
    cm_alloc_fail_nth(3, 0);
    for (int i = 0; i < 4; i++)
        p[i] = cm_malloc(16);
    assert_non_null(p[0]);
    assert_non_null(p[1]);
    assert_null(p[2]);
    assert_non_null(p[3]);
    assert_int_equal(cm_alloc_failed(), 1);
    for (int i = 0; i < 4; i++)
        free(p[i]);

    cm_alloc_fail_nth(2, 1);
    p[0] = cm_strdup("a");
    p[1] = cm_calloc(2, 8);
    p[2] = cm_realloc(NULL, 8);
    p[3] = cm_strndup("abc", 2);
    cm_alloc_fail_off();
    assert_string_equal(p[0], "a");
    assert_null(p[1]);
    assert_null(p[2]);
    assert_null(p[3]);
    assert_int_equal(cm_alloc_failed(), 3);
    free(p[0]);
}

static void off_counts_every_allocation_and_fails_none(void **state)
{
    unsigned long before = cm_alloc_count();
    char *s;
    void *z;

    (void)state;
    cm_alloc_fail_nth(0, 1); /* off */
    s = cm_strndup("hello", 3);
    z = cm_malloc(0);
    assert_string_equal(s, "hel");
    assert_non_null(z); /* NULL means failure only */
    assert_int_equal(cm_alloc_count() - before, 2);
    assert_int_equal(cm_alloc_failed(), 0);
    free(s);
    free(z);
}

static void reallocarray_refuses_an_overflowing_size(void **state)
{
    void *p = cm_malloc(8), *q;

    (void)state;
    errno = 0;
    assert_null(cm_reallocarray(p, SIZE_MAX / 2, 4));
    assert_int_equal(errno, ENOMEM);
    q = cm_reallocarray(p, 4, 4); /* p was left as it was */
    assert_non_null(q);
    free(q);
}

/* ---- the common layer under the hook ------------------------------------ */

static const char rc_text[] = "# a test rc\n"
                              "LOAD=\"100 200 300\"\n"
                              "MNT_POINTS='srv:/a srv:/b'\n"
                              "BASE=/x\n"
                              "DIR=${BASE}/y\\ z\n"
                              "CLIENTS=\"c1 $BASE c2\"\n"
                              "UNKNOWN=1\n";

static int rc_known(const char *name, void *data, const char **near)
{
    (void)data;
    (void)near;
    return strcmp(name, "UNKNOWN") != 0;
}

static int rc_parse_op(void *ctx, char *err, size_t errlen)
{
    struct cm_rc rc;
    int r = cm_rc_parse(&rc, "t.rc", rc_text, strlen(rc_text), rc_known, NULL, NULL, err,
                        errlen);

    (void)ctx;
    if (r == 0 && strcmp(cm_rc_value(&rc, "DIR", ""), "/x/y z") != 0)
        r = cm_errf(err, errlen, "DIR is '%s'", cm_rc_value(&rc, "DIR", ""));
    cm_rc_free(&rc);
    return r;
}

static void rc_parse_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("cm_rc_parse", rc_parse_op, NULL, -ENOMEM) > 5);
}

struct files {
    char dir[64];
    char path[128];
};

static void files_make(struct files *f, const char *name, const char *text)
{
    FILE *fp;

    snprintf(f->dir, sizeof(f->dir), "/tmp/test_alloc.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, name);
    fp = fopen(f->path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
}

static void files_remove(struct files *f)
{
    unlink(f->path);
    assert_int_equal(rmdir(f->dir), 0);
}

static int rc_load_op(void *ctx, char *err, size_t errlen)
{
    const struct files *f = ctx;
    struct cm_rc rc;
    int r = cm_rc_load(&rc, f->path, NULL, NULL, NULL, err, errlen);
    char **words = NULL;

    if (r == 0) {
        r = cm_rc_split(cm_rc_value(&rc, "LOAD", ""), &words, 8);
        if (r == -ENOMEM)
            cm_errf(err, errlen, "LOAD: out of memory");
        else if (r != 3)
            r = cm_errf(err, errlen, "LOAD splits into %d words", r);
        else
            r = 0;
        free(words);
    }
    cm_rc_free(&rc);
    return r;
}

static void rc_load_and_split_run_out_of_memory_cleanly(void **state)
{
    struct files f = {"", ""};

    (void)state;
    files_make(&f, "sfs.rc", rc_text);
    assert_true(th_oom_run("cm_rc_load", rc_load_op, &f, -ENOMEM) > 5);
    files_remove(&f);
}

static int rc_write_op(void *ctx, char *err, size_t errlen)
{
    const struct files *f = ctx;
    const struct cm_rc_assign sets[] = {{"LOAD", "500 600"}, {"NEW", "a b$c"}};
    char text[2048];
    int r = cm_rc_write(f->path, NULL, sets, 2, NULL, err, errlen);

    th_text_of_file(f->path, text, sizeof(text));
    if (r < 0) {
        /* the file is the old one, whole, and no temporary is left */
        if (strcmp(text, rc_text) != 0 || th_oom_dir_entries(f->dir) != 1)
            return cm_errf(err, errlen, "failed write changed the directory: %s", text);
        return r;
    }
    if (strstr(text, "LOAD=\"500 600\"\n") == NULL || strstr(text, "NEW=") == NULL)
        return cm_errf(err, errlen, "written: %s", text);
    /* put the original back for the next run */
    FILE *fp = fopen(f->path, "w");
    fputs(rc_text, fp);
    fclose(fp);
    return 0;
}

static void rc_write_runs_out_of_memory_without_touching_the_file(void **state)
{
    struct files f = {"", ""};

    (void)state;
    files_make(&f, "sfs.rc", rc_text);
    assert_true(th_oom_run("cm_rc_write", rc_write_op, &f, -ENOMEM) > 5);
    files_remove(&f);
}

static const char yaml_text[] = "name: test\n"
                                "points:\n"
                                "  - load: 100\n"
                                "    ops: [1, 2, 3]\n"
                                "  - load: 200\n"
                                "    note: \"quoted\"\n"
                                "empty: ~\n";

static int yaml_parse_op(void *ctx, char *err, size_t errlen)
{
    struct cm_ynode *root = NULL;
    int r =
        cm_yaml_parse("t.yaml", yaml_text, strlen(yaml_text), &root, NULL, err, errlen);

    (void)ctx;
    if (r == 0) {
        const struct cm_ynode *pts = cm_ynode_get(root, "points", NULL);
        if (pts == NULL || pts->n != 2)
            r = cm_errf(err, errlen, "points not read");
    }
    cm_ynode_free(root);
    return r;
}

static void yaml_reader_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("cm_yaml_parse", yaml_parse_op, NULL, -ENOMEM) > 5);
}

static int text_parse(void *ctx, const char *name, const char *text, size_t len,
                      FILE *diag, char *err, size_t errlen)
{
    (void)ctx;
    (void)name;
    (void)diag;
    return len == strlen(rc_text) && memcmp(text, rc_text, len) == 0
               ? 0
               : cm_errf(err, errlen, "text differs");
}

static int text_read_op(void *ctx, char *err, size_t errlen)
{
    const struct files *f = ctx;

    return cm_text_parse_file(f->path, text_parse, NULL, NULL, err, errlen);
}

static void text_reader_runs_out_of_memory_cleanly(void **state)
{
    struct files f = {"", ""};

    (void)state;
    files_make(&f, "t.txt", rc_text);
    assert_true(th_oom_run("cm_text_parse_file", text_read_op, &f, -ENOMEM) >= 1);
    files_remove(&f);
}

static int yaml_write_op(void *ctx, char *err, size_t errlen)
{
    const struct files *f = ctx;
    struct cm_yaml *y = cm_yaml_open(f->path, err, errlen);
    char text[1024];
    int r;

    if (y == NULL)
        r = -ENOMEM;
    else {
        cm_yaml_map_begin(y);
        cm_yaml_kv_str(y, "name", "test");
        cm_yaml_key(y, "ops");
        cm_yaml_flow_seq_begin(y);
        cm_yaml_int(y, 1);
        cm_yaml_seq_end(y);
        cm_yaml_map_end(y);
        r = cm_yaml_close(y, err, errlen);
    }
    th_text_of_file(f->path, text, sizeof(text));
    if (r < 0 && th_oom_dir_entries(f->dir) != 0)
        return cm_errf(err, errlen, "a failed write left a file");
    if (r == 0 && strstr(text, "name:") == NULL)
        return cm_errf(err, errlen, "written: %s", text);
    unlink(f->path);
    return r;
}

static void yaml_writer_runs_out_of_memory_without_a_file(void **state)
{
    struct files f = {"", ""};

    (void)state;
    files_make(&f, "out.yaml", "");
    unlink(f.path);
    assert_true(th_oom_run("cm_yaml_open", yaml_write_op, &f, -ENOMEM) >= 1);
    files_remove(&f);
}

/* The overall response time cannot fail: it allocates nothing, so that
 * neither the prime's report nor sfs_generate's metric ever prints a
 * made-up figure for want of memory. */
static void the_curve_allocates_nothing(void **state)
{
    const double x[] = {300, 100, 200, 200}, y[] = {3, 1, 2, 2};
    unsigned long before = cm_alloc_count();
    double peak = 0, v;

    (void)state;
    cm_alloc_fail_nth(1, 1);
    v = cm_curve_overall(x, y, 4, &peak);
    cm_alloc_fail_off();
    assert_int_equal(cm_alloc_count() - before, 0);
    assert_true(peak == 300);
    /* (0.5 x 1 x 100 + 0.5 x 3 x 100 + 0 + 0.5 x 5 x 100) / 300 */
    assert_true(v > 1.4999 && v < 1.5001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nth_allocation_fails_once_or_for_good),
        cmocka_unit_test(off_counts_every_allocation_and_fails_none),
        cmocka_unit_test(reallocarray_refuses_an_overflowing_size),
        cmocka_unit_test(rc_parse_runs_out_of_memory_cleanly),
        cmocka_unit_test(rc_load_and_split_run_out_of_memory_cleanly),
        cmocka_unit_test(rc_write_runs_out_of_memory_without_touching_the_file),
        cmocka_unit_test(yaml_reader_runs_out_of_memory_cleanly),
        cmocka_unit_test(text_reader_runs_out_of_memory_cleanly),
        cmocka_unit_test(yaml_writer_runs_out_of_memory_without_a_file),
        cmocka_unit_test(the_curve_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
