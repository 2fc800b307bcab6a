/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_plot.c - the throughput/response-time picture of a run
 * (prime/plot.c), checked for its elements: a recording gnuplot on PATH
 * keeps the script the prime wrote and hands it to the real gnuplot (when
 * installed) for an SVG whose texts are checked too.  With valid points:
 * the curve from (0, 0), the overall response time and the peak marked;
 * INVALID points joined by a dashed line labelled as not publishable; with
 * none valid, no "valid points" entry and no marks; every point off the
 * frame, the legend below the picture. */
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

static int draw(const double *x, const double *y, size_t n, const double *xi,
                const double *yi, size_t ni)
{
    char path[400], note[512];

    snprintf(path, sizeof(path), "%s/curve.svg", dir);
    return pr_plot_curve(path, "FreeSFS sfs3, test: 1 client(s)", x, y, n, xi, yi, ni,
                         note, sizeof(note));
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
    if (real[0])
        assert_null(strstr(slurp("curve.svg"), "valid points ("));
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
        cmocka_unit_test(no_point_no_picture),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
