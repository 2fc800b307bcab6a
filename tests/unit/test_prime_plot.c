/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_plot.c - the throughput/response-time picture of a run
 * (prime/plot.c), checked for its elements: a recording gnuplot on PATH
 * keeps the script the prime wrote and hands it to the real gnuplot (when
 * installed) for an SVG whose texts are checked too.  With valid points:
 * the curve from (0, 0), the overall response time and the peak marked;
 * INVALID points joined by a dashed line labelled as not publishable; with
 * none valid, no "valid points" entry and no marks; every point off the
 * frame, both axes from 0, the legend below the picture; the points past the
 * peak drawn as the fold; the peak's text inside the frame. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/plot.h"
#include "prime/pr_int.h"

static char dir[256], bin[300], real[4096], saved_path[8192];

/* The real gnuplot, found before PATH points at the recorder. */
static void find_real(void)
{
    const char *p = getenv("PATH");

    real[0] = '\0';
    while (p && *p) {
        size_t n = strcspn(p, ":");
        snprintf(real, sizeof(real), "%.*s/gnuplot", (int)n, p);
        if (n > 0 && access(real, X_OK) == 0)
            return;
        p += n + (p[n] == ':');
    }
    real[0] = '\0';
}

static int setup(void **state)
{
    char path[400], tmp[320];
    FILE *f;

    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/test_prime_plot.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(bin, sizeof(bin), "%s/bin", dir);
    snprintf(tmp, sizeof(tmp), "%s/tmp", dir);
    mkdir(bin, 0700);
    mkdir(tmp, 0700);
    setenv("TMPDIR", tmp, 1);
    snprintf(saved_path, sizeof(saved_path), "%s", getenv("PATH") ? getenv("PATH") : "");
    find_real();
    snprintf(path, sizeof(path), "%s/gnuplot", bin);
    f = fopen(path, "w");
    if (!f)
        return -1;
    /* keeps the script; draws with the real gnuplot, else a stand-in file */
    fprintf(f,
            "#!/bin/sh\ncp \"$1\" '%s/script.gp'\n"
            "if [ -n '%s' ]; then exec '%s' \"$@\"; fi\n"
            "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
            "echo stand-in >\"$out\"\n",
            dir, real, real);
    fclose(f);
    chmod(path, 0755);
    snprintf(path, sizeof(path), "%s:/usr/bin:/bin", bin);
    setenv("PATH", path, 1);
    return 0;
}

static int teardown(void **state)
{
    char cmd[400];

    (void)state;
    setenv("PATH", saved_path, 1);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *name)
{
    char path[400];
    static char buf[1 << 18];
    size_t n;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The range "set Xrange [lo:hi]" of the script. */
static void range(const char *script, const char *axis, double *lo, double *hi)
{
    char key[32];
    const char *at;

    snprintf(key, sizeof(key), "set %srange [", axis);
    at = strstr(script, key);
    assert_non_null(at);
    assert_int_equal(sscanf(at + strlen(key), "%lf:%lf", lo, hi), 2);
}

/* Draws the n valid points (x, y) and the ni invalid ones (xi, yi), in
 * that order, as the points of a run. */
static int draw(const double *x, const double *y, size_t n, const double *xi,
                const double *yi, size_t ni)
{
    struct pr_plot_point pt[16];
    char path[400], note[512];
    size_t i;

    for (i = 0; i < n; i++)
        pt[i] = (struct pr_plot_point){x[i], y[i], 1};
    for (i = 0; i < ni; i++)
        pt[n + i] = (struct pr_plot_point){xi[i], yi[i], 0};
    snprintf(path, sizeof(path), "%s/curve.svg", dir);
    return pr_plot_curve(path, "FreeSFS sfs3, test: 1 client(s)", pt, n + ni, note,
                         sizeof(note));
}

static void valid_and_invalid_points(void **state)
{
    static const double x[] = {100, 200, 300}, y[] = {1, 2, 5};
    static const double xi[] = {280, 350}, yi[] = {12, 20};
    char script[1 << 16];
    double lo, hi;

    (void)state;
    assert_int_equal(draw(x, y, 3, xi, yi, 2), 0);
    snprintf(script, sizeof(script), "%s", slurp("script.gp"));
    assert_non_null(strstr(script, "set key below"));
    assert_non_null(strstr(script, "title 'valid points (the SFS curve, from 0,0)'"));
    /* (100 + 2 x 150... ) the area 50 + 150 + 350 over the peak 300 */
    assert_non_null(strstr(script, "title 'overall response time 1.83 ms'"));
    assert_non_null(
        strstr(script, "set label 1 'peak 300 ops/s at 5.00 ms' at 300,5 right point"));
    assert_non_null(strstr(script,
                           "with linespoints dt 2 pt 6 ps 1.5 title 'INVALID points, "
                           "joined (not publishable)'"));
    /* nothing on the frame: (0, 0) and (350, 20) inside */
    range(script, "x", &lo, &hi);
    assert_true(lo < 0 && hi > 350);
    range(script, "y", &lo, &hi);
    assert_true(lo < 0 && hi > 20);
    if (real[0]) {
        const char *svg = slurp("curve.svg");
        assert_non_null(strstr(svg, "valid points (the SFS curve, from 0,0)"));
        assert_non_null(strstr(svg, "INVALID points, joined (not publishable)"));
        assert_non_null(strstr(svg, "peak 300 ops/s at 5.00 ms"));
        assert_non_null(strstr(svg, "overall response time 1.83 ms"));
        assert_non_null(strstr(svg, "stroke-dasharray")); /* the dashed lines */
    }
}

static void only_invalid_points(void **state)
{
    static const double xi[] = {40, 80, 118}, yi[] = {0.4, 0.5, 3.1};
    char script[1 << 16];
    double lo, hi;

    (void)state;
    assert_int_equal(draw(NULL, NULL, 0, xi, yi, 3), 0);
    snprintf(script, sizeof(script), "%s", slurp("script.gp"));
    assert_null(strstr(script, "valid points ("));
    assert_null(strstr(script, "overall response time"));
    assert_null(strstr(script, "set label"));
    assert_non_null(strstr(script, "INVALID points, joined (not publishable)"));
    range(script, "x", &lo, &hi);
    assert_true(lo < 40 && hi > 118);
    range(script, "y", &lo, &hi);
    assert_true(lo < 0.4 && hi > 3.1);
    /* from 0: tenths of a millisecond are not magnified into a cliff */
    assert_true(lo <= 0 && lo > -0.2);
    assert_null(strstr(script, "past the peak"));
    if (real[0])
        assert_null(strstr(slurp("curve.svg"), "valid points ("));
}

/* A run whose last points asked for more and got less (the fold): they
 * are drawn apart, from the point of the highest throughput, and named;
 * the INVALID line stops at that point. */
static void the_fold_past_the_peak_is_drawn_as_such(void **state)
{
    static const struct pr_plot_point pt[] = {{9800, 0.10, 0},  {19500, 0.11, 0},
                                              {29300, 0.21, 0}, {47600, 0.32, 0},
                                              {41000, 0.90, 0}, {38000, 1.40, 0}};
    char path[400], note[512], script[1 << 16];
    double lo, hi;

    (void)state;
    snprintf(path, sizeof(path), "%s/curve.svg", dir);
    assert_int_equal(pr_plot_curve(path, "t", pt, 6, note, sizeof(note)), 0);
    snprintf(script, sizeof(script), "%s", slurp("script.gp"));
    assert_non_null(strstr(script, "index 0 using 1:2 with linespoints dt 2 pt 6 ps 1.5 "
                                   "title 'INVALID points, joined (not publishable)'"));
    assert_non_null(strstr(script, "index 1 using 1:2 with linespoints dt 4 lw 2 pt 9 "
                                   "ps 1.5 title 'past the peak: more load asked, less "
                                   "achieved (the fold)'"));
    range(script, "x", &lo, &hi);
    assert_true(lo <= 0 && hi > 47600);
    range(script, "y", &lo, &hi);
    assert_true(lo <= 0 && hi > 1.4);
    if (real[0])
        assert_non_null(strstr(slurp("curve.svg"), "(the fold)"));
}

/* The peak's text stays inside the frame: below and left of a peak in the
 * upper right (the usual place of a curve's peak). */
static void the_peak_label_stays_inside_the_frame(void **state)
{
    static const double x[] = {10000, 20000, 30000}, y[] = {0.10, 0.11, 0.15};
    char script[1 << 16];

    (void)state;
    assert_int_equal(draw(x, y, 3, NULL, NULL, 0), 0);
    snprintf(script, sizeof(script), "%s", slurp("script.gp"));
    assert_non_null(strstr(script, "set label 1 'peak 30000 ops/s at 0.15 ms' at "
                                   "30000,0.14999999999999999 right point pt 7 ps 1.5 "
                                   "offset -1,-1"));
}

static void no_point_no_picture(void **state)
{
    (void)state;
    assert_int_equal(draw(NULL, NULL, 0, NULL, NULL, 0), -ENODATA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_and_invalid_points),
        cmocka_unit_test(only_invalid_points),
        cmocka_unit_test(the_fold_past_the_peak_is_drawn_as_such),
        cmocka_unit_test(the_peak_label_stays_inside_the_frame),
        cmocka_unit_test(no_point_no_picture),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
