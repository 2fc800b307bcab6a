/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_plot.c - unit tests for the gnuplot runner (common/plot.c):
 * a real PNG and SVG when gnuplot is installed, the "not installed" status,
 * and, with stand-in gnuplot scripts on PATH, a hung gnuplot killed at its
 * limit and a failing one reported with its complaint; in every case the
 * temporary files are gone and no half picture is left at the output. */
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

#include "common/error.h"
#include "common/clock.h"
#include "common/plot.h"

static char dir[256], tmpdir[300], fakebin[300];
static char *saved_path;

static const double xs[] = {1, 2, 4, 8, 16};
static const double ys[] = {0.9, 0.7, 0.5, 0.3, 0.1};

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/test_plot.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(tmpdir, sizeof(tmpdir), "%s/tmp", dir);
    snprintf(fakebin, sizeof(fakebin), "%s/bin", dir);
    mkdir(tmpdir, 0700);
    mkdir(fakebin, 0700);
    setenv("TMPDIR", tmpdir, 1);
    saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    return 0;
}

static int teardown(void **state)
{
    char cmd[400];

    (void)state;
    setenv("PATH", saved_path, 1);
    free(saved_path);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void describe(struct cm_plot *p, struct cm_plot_series *s, const char *out)
{
    memset(p, 0, sizeof(*p));
    memset(s, 0, sizeof(*s));
    s->title = "it's a curve";
    s->x = xs;
    s->y = ys;
    s->n = 5;
    p->output = out;
    p->title = "test 'quoted' title_with_underscore";
    p->xlabel = "x";
    p->ylabel = "y";
    p->logx = 2;
    p->ymin = 0;
    p->ymax = 1;
    p->series = s;
    p->nseries = 1;
}

/* The private temporary directory under TMPDIR is removed every time. */
static void assert_tmp_empty(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    assert_int_equal(n, 0);
}

static void fake_gnuplot(const char *body)
{
    char path[400], newpath[400];
    FILE *f;

    snprintf(path, sizeof(path), "%s/gnuplot", fakebin);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(path, 0755);
    snprintf(newpath, sizeof(newpath), "%s:/usr/bin:/bin", fakebin);
    setenv("PATH", newpath, 1);
}

static void real_gnuplot_draws_png_and_svg(void **state)
{
    struct cm_plot p;
    struct cm_plot_series s;
    char out[400], err[CM_ERR_LEN], head[8] = {0};
    FILE *f;

    (void)state;
    if (!cm_plot_available()) {
        skip();
        return;
    }
    snprintf(out, sizeof(out), "%s/curve.png", dir);
    describe(&p, &s, out);
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), 0);
    f = fopen(out, "rb");
    assert_non_null(f);
    assert_int_equal(fread(head, 1, 4, f), 4);
    fclose(f);
    assert_memory_equal(head + 1, "PNG", 3);
    snprintf(out, sizeof(out), "%s/curve.svg", dir);
    p.output = out;
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), 0);
    f = fopen(out, "r");
    assert_non_null(f);
    assert_non_null(fgets(err, sizeof(err), f));
    fclose(f);
    assert_non_null(strstr(err, "<?xml"));
    assert_tmp_empty();
}

static void no_gnuplot_is_a_status_not_a_failure(void **state)
{
    struct cm_plot p;
    struct cm_plot_series s;
    char out[400], err[CM_ERR_LEN];

    (void)state;
    setenv("PATH", "/nonexistent", 1);
    snprintf(out, sizeof(out), "%s/none.png", dir);
    describe(&p, &s, out);
    assert_false(cm_plot_available());
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), CM_PLOT_NO_GNUPLOT);
    assert_non_null(strstr(err, "gnuplot is not installed"));
    assert_int_equal(access(out, F_OK), -1);
    setenv("PATH", saved_path, 1);
}

static void hung_gnuplot_is_killed_at_its_limit(void **state)
{
    struct cm_plot p;
    struct cm_plot_series s;
    char out[400], err[CM_ERR_LEN];
    uint64_t t0;

    (void)state;
    /* writes a partial picture, then hangs */
    fake_gnuplot("out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
                 "echo partial > \"$out\"\nexec sleep 30");
    snprintf(out, sizeof(out), "%s/hung.png", dir);
    describe(&p, &s, out);
    p.timeout_ms = 300;
    t0 = cm_now_ns();
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), -ETIMEDOUT);
    assert_true(cm_now_ns() - t0 < 10000000000ull);
    assert_non_null(strstr(err, "did not finish"));
    assert_int_equal(access(out, F_OK), -1); /* no half picture */
    assert_tmp_empty();
    setenv("PATH", saved_path, 1);
}

static void failing_gnuplot_is_reported_with_its_complaint(void **state)
{
    struct cm_plot p;
    struct cm_plot_series s;
    char out[400], err[CM_ERR_LEN];

    (void)state;
    fake_gnuplot("echo 'line 1: unknown terminal type' >&2\nexit 1");
    snprintf(out, sizeof(out), "%s/bad.png", dir);
    describe(&p, &s, out);
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), -EIO);
    assert_non_null(strstr(err, "unknown terminal type"));
    assert_int_equal(access(out, F_OK), -1);
    assert_tmp_empty();
    setenv("PATH", saved_path, 1);
}

static void bad_description_is_refused(void **state)
{
    struct cm_plot p;
    struct cm_plot_series s;
    char err[CM_ERR_LEN];

    (void)state;
    describe(&p, &s, "curve.jpg");
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, ".png or .svg"));
    describe(&p, &s, "curve.png");
    p.nseries = 0;
    assert_int_equal(cm_plot_draw(&p, err, sizeof(err)), -EINVAL);
}

/* The script of a byte axis: every point and label inside padded ranges,
 * tics at powers of two in KiB/MiB/GiB, the same places in blocks on the
 * x2 axis, the legend below the picture. */
static void script_pads_ranges_and_labels_bytes(void **state)
{
    static const double x[] = {4096, 65536, 1048576, 1073741824.0};
    static const double y[] = {1, 0.7, 0.5, 0};
    struct cm_plot_series s = {"curve", x, y, 4, NULL};
    struct cm_plot_label mark = {65536, 0.7, "here"};
    struct cm_plot p;
    char *buf = NULL;
    size_t len = 0;
    double lo, hi;
    FILE *f = open_memstream(&buf, &len);

    (void)state;
    memset(&p, 0, sizeof(p));
    p.output = "x.svg";
    p.logx = 2;
    p.ymin = 0;
    p.ymax = 1;
    p.xbytes = 1;
    p.x2label = "blocks";
    p.x2scale = 4096;
    p.series = &s;
    p.nseries = 1;
    p.labels = &mark;
    p.nlabels = 1;
    assert_int_equal(cm_plot_write_script(f, &p, "data", "out.svg"), 0);
    fclose(f);
    assert_non_null(strstr(buf, "set key below"));
    assert_int_equal(sscanf(strstr(buf, "set xrange [") + 12, "%lf:%lf", &lo, &hi), 2);
    assert_true(lo < 4096 && hi > 1073741824.0);
    assert_int_equal(sscanf(strstr(buf, "set yrange [") + 12, "%lf:%lf", &lo, &hi), 2);
    assert_true(lo < 0 && hi > 1);
    assert_non_null(strstr(buf, "set xtics nomirror ('4 KiB' 4096"));
    assert_non_null(strstr(buf, "'1 GiB' 1073741824"));
    assert_non_null(strstr(buf, "set x2tics ('1' 1"));
    assert_non_null(strstr(buf, "set x2label 'blocks'"));
    assert_non_null(strstr(buf, "set label 1 'here' at 65536,0.69999999999999996 left"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_gnuplot_draws_png_and_svg),
        cmocka_unit_test(no_gnuplot_is_a_status_not_a_failure),
        cmocka_unit_test(hung_gnuplot_is_killed_at_its_limit),
        cmocka_unit_test(failing_gnuplot_is_reported_with_its_complaint),
        cmocka_unit_test(bad_description_is_refused),
        cmocka_unit_test(script_pads_ranges_and_labels_bytes),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
