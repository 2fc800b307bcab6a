/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c - the gnuplot runner behind plot.h.  The data (one block per
 * series, two blank lines apart, so that the script plots "index i") and the
 * script go to a private directory made with mkdtemp under $TMPDIR; gnuplot
 * runs in a process group of its own with stdin from /dev/null and its
 * output in a log there, and is killed when it outlives its limit.  The
 * picture is written beside its final name and renamed into place only
 * when gnuplot succeeded and wrote something, so a reader never sees half a
 * picture.  Strings reach gnuplot in single quotes, where only the quote
 * itself needs doubling; noenhanced keeps '_' and '^' in titles literal.
 */
#include "common/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/clock.h"

#define DEFAULT_TIMEOUT_MS 20000u
#define POLL_NS            5000000L /* 5 ms between checks of gnuplot */

/* Finds gnuplot on PATH into path; 1 when found. */
static int find_gnuplot(char *path, size_t len)
{
    const char *p = getenv("PATH");

    while (p && *p) {
        size_t n = strcspn(p, ":");
        if (n > 0 && (size_t)snprintf(path, len, "%.*s/gnuplot", (int)n, p) < len &&
            access(path, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

int cm_plot_available(void)
{
    char path[4096];

    return find_gnuplot(path, sizeof(path));
}

/* Writes s as a gnuplot single-quoted string (newlines become spaces). */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('\'', f);
}

static const char *terminal_of(const char *output)
{
    size_t n = strlen(output);

    if (n > 4 && strcasecmp(output + n - 4, ".png") == 0)
        return "pngcairo";
    if (n > 4 && strcasecmp(output + n - 4, ".svg") == 0)
        return "svg";
    return NULL;
}

static int write_data(const struct cm_plot *p, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t s, i;

    if (!f)
        return -errno;
    for (s = 0; s < p->nseries; s++) {
        const struct cm_plot_series *ser = &p->series[s];
        if (s)
            fputs("\n\n", f);
        for (i = 0; i < ser->n; i++)
            if (isfinite(ser->x[i]) && isfinite(ser->y[i]))
                fprintf(f, "%.17g %.17g\n", ser->x[i], ser->y[i]);
    }
    return fclose(f) == 0 ? 0 : -EIO;
}

/* The bounds of the data and labels on one axis (positive values only on
 * a log axis); 0 when there is nothing to bound. */
static int bounds(const struct cm_plot *p, int axis, int log, double *lo, double *hi)
{
    size_t s, i;
    int any = 0;

    for (s = 0; s <= p->nseries; s++) {
        size_t n = s < p->nseries ? p->series[s].n : p->nlabels;
        for (i = 0; i < n; i++) {
            double x = s < p->nseries ? p->series[s].x[i] : p->labels[i].x;
            double y = s < p->nseries ? p->series[s].y[i] : p->labels[i].y;
            double v = axis == 0 ? x : y;
            if (!isfinite(x) || !isfinite(y) || (log && v <= 0))
                continue;
            if (!any || v < *lo)
                *lo = v;
            if (!any || v > *hi)
                *hi = v;
            any = 1;
        }
    }
    return any;
}

/* [lo, hi] widened by CM_PLOT_PAD of its span on each side (a factor on a
 * log axis), so that no point sits on the frame. */
static void pad(double *lo, double *hi, int log)
{
    if (log) {
        double f = *hi > *lo ? pow(*hi / *lo, CM_PLOT_PAD) : 2.0;
        if (f < 1.2)
            f = 1.2;
        *lo /= f;
        *hi *= f;
    } else {
        double d =
            *hi > *lo ? (*hi - *lo) * CM_PLOT_PAD : (*lo != 0 ? fabs(*lo) * 0.1 : 1.0);
        *lo -= d;
        *hi += d;
    }
}

/* 2^k as "4 KiB" (unit "B") or "4 Ki" (unit ""). */
static void binary_label(char *buf, size_t len, int k, const char *unit)
{
    static const char *const prefix[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    int p = k / 10 < 6 ? k / 10 : 6;

    snprintf(buf, len, "%.0f%s%s%s", ldexp(1.0, k - 10 * p), p || unit[0] ? " " : "",
             prefix[p], unit);
}

/* Tics at powers of two over [lo, hi] on a log2 axis of bytes (at most
 * about ten), labelled in binary units; the same places on x2 when there
 * is one, labelled as counts of x2scale. */
static void byte_tics(FILE *f, const struct cm_plot *p, double lo, double hi)
{
    int k0 = (int)ceil(log2(lo)), k1 = (int)floor(log2(hi)), step, k;
    int whole = p->x2scale > 0 && log2(p->x2scale) == floor(log2(p->x2scale));
    char buf[64];

    if (k1 < k0)
        return;
    step = (k1 - k0) / 10 + 1;
    fputs("set xtics nomirror (", f);
    for (k = k0; k <= k1; k += step) {
        binary_label(buf, sizeof(buf), k, "B");
        fprintf(f, "%s'%s' %.17g", k > k0 ? ", " : "", buf, ldexp(1.0, k));
    }
    fputs(")\n", f);
    if (!(p->x2label && p->x2scale > 0))
        return;
    fputs("set x2tics (", f);
    for (k = k0; k <= k1; k += step) {
        double v = ldexp(1.0, k) / p->x2scale;
        int kk = whole ? k - (int)log2(p->x2scale) : 0;
        if (whole && kk >= 0)
            binary_label(buf, sizeof(buf), kk, "");
        else
            snprintf(buf, sizeof(buf), "%.4g", v);
        fprintf(f, "%s'%s' %.17g", k > k0 ? ", " : "", buf, v);
    }
    fputs(")\n", f);
}

/* The middle of the ranges written (for the labels' side), NAN when
 * gnuplot's own. */
static void write_axes(FILE *f, const struct cm_plot *p, double *mid, double *ymid)
{
    double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
    int hx = bounds(p, 0, p->logx, &xlo, &xhi);

    if (p->logx)
        fprintf(f, "set logscale x %d\n", p->logx);
    if (p->logy)
        fprintf(f, "set logscale y %d\n", p->logy);
    if (p->ymin != 0 || p->ymax != 0) {
        ylo = p->ymin;
        yhi = p->ymax;
    } else if (!bounds(p, 1, p->logy, &ylo, &yhi)) {
        hx = 0;
    }
    if (!hx) /* nothing to bound: gnuplot's own ranges */
        return;
    if (p->from_zero && !p->logx && xlo > 0)
        xlo = 0;
    if (p->from_zero && !p->logy && ylo > 0)
        ylo = 0;
    pad(&xlo, &xhi, p->logx);
    pad(&ylo, &yhi, p->logy);
    *mid = p->logx ? sqrt(xlo * xhi) : (xlo + xhi) / 2;
    *ymid = p->logy ? sqrt(ylo * yhi) : (ylo + yhi) / 2;
    fprintf(f, "set xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n", xlo, xhi, ylo,
            yhi);
    if (p->x2label && p->x2scale > 0) {
        fputs("set x2label ", f);
        put_quoted(f, p->x2label);
        fprintf(f, "\nset x2range [%.17g:%.17g]\n", xlo / p->x2scale, xhi / p->x2scale);
        if (p->logx)
            fprintf(f, "set logscale x2 %d\n", p->logx);
        if (!(p->xbytes && p->logx))
            fputs("set xtics nomirror\nset x2tics\n", f);
    }
    if (p->xbytes && p->logx)
        byte_tics(f, p, xlo, xhi);
}

int cm_plot_write_script(FILE *f, const struct cm_plot *p, const char *data,
                         const char *out)
{
    double mid = NAN, ymid = NAN;
    size_t s;

    fprintf(f, "set terminal %s size %u,%u noenhanced\nset output ",
            terminal_of(p->output) ? terminal_of(p->output) : "svg",
            p->width ? p->width : 900, p->height ? p->height : 600);
    put_quoted(f, out);
    fputs("\nset title ", f);
    put_quoted(f, p->title ? p->title : "");
    fputs("\nset xlabel ", f);
    put_quoted(f, p->xlabel ? p->xlabel : "");
    fputs("\nset ylabel ", f);
    put_quoted(f, p->ylabel ? p->ylabel : "");
    /* the legend below the picture: never over a point or a curve */
    fputs("\nset grid\nset key below left\n", f);
    write_axes(f, p, &mid, &ymid);
    for (s = 0; s < p->nlabels; s++) {
        /* the text on the side of the point away from the nearer edges:
         * left of a point in the right half, below one in the upper half */
        int right = p->labels[s].x > mid, below = p->labels[s].y > ymid;

        fprintf(f, "set label %zu ", s + 1);
        put_quoted(f, p->labels[s].text);
        fprintf(f, " at %.17g,%.17g %s point pt 7 ps 1.5 offset %d,%d\n", p->labels[s].x,
                p->labels[s].y, right ? "right" : "left", right ? -1 : 1, below ? -1 : 1);
    }
    fputs("plot ", f);
    for (s = 0; s < p->nseries; s++) {
        const struct cm_plot_series *ser = &p->series[s];
        fputs(s ? ", \\\n     " : "", f);
        put_quoted(f, data);
        fprintf(f, " index %zu using 1:2 with %s ", s,
                ser->style ? ser->style : "linespoints");
        if (ser->title) {
            fputs("title ", f);
            put_quoted(f, ser->title);
        } else {
            fputs("notitle", f);
        }
    }
    fputs("\nunset output\n", f);
    return ferror(f) ? -EIO : 0;
}

static int write_script(const struct cm_plot *p, const char *path, const char *data,
                        const char *out)
{
    FILE *f = fopen(path, "w");
    int rc;

    if (!f)
        return -errno;
    rc = cm_plot_write_script(f, p, data, out);
    return fclose(f) == 0 ? rc : -EIO;
}

/* The last non-empty line of gnuplot's log, for the error message. */
static void last_complaint(const char *log, char *buf, size_t len)
{
    FILE *f = fopen(log, "r");
    char line[384];

    buf[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] && strspn(line, " \t^") < strlen(line))
            snprintf(buf, len, "%s", line);
    }
    fclose(f);
}

/* Runs gnuplot on script with output to log; returns its wait status, or
 * -ETIMEDOUT (killed) or -errno. */
static int run_gnuplot(const char *gnuplot, const char *script, const char *log,
                       unsigned timeout_ms)
{
    struct timespec nap = {0, POLL_NS};
    uint64_t deadline = cm_now_ns() + (uint64_t)timeout_ms * 1000000u;
    pid_t pid, w;
    int st;

    pid = fork();
    if (pid < 0)
        return -errno;
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_TRUNC);
        setpgid(0, 0);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
            _exit(126);
        execl(gnuplot, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no race with the kill below */
    for (;;) {
        w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            return st;
        if (w < 0 && errno != EINTR)
            return -errno;
        if (cm_now_ns() >= deadline)
            break;
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* gnuplot's group: anything it started too */
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return -ETIMEDOUT;
}

int cm_plot_draw(const struct cm_plot *p, char *err, size_t errlen)
{
    char gnuplot[4096], dir[4096], data[4200], script[4200], log[4200], out[4200];
    const char *tmpdir = getenv("TMPDIR");
    unsigned timeout_ms = p->timeout_ms ? p->timeout_ms : DEFAULT_TIMEOUT_MS;
    struct stat sb;
    int rc, st;

    if (!p->output || !terminal_of(p->output))
        return cm_errf(err, errlen, "%s: the picture must be a .png or .svg file",
                       p->output ? p->output : "(none)");
    if (p->nseries == 0)
        return cm_errf(err, errlen, "%s: nothing to draw", p->output);
    if (!find_gnuplot(gnuplot, sizeof(gnuplot))) {
        cm_errf(err, errlen, "gnuplot is not installed; no picture %s", p->output);
        return CM_PLOT_NO_GNUPLOT;
    }
    snprintf(dir, sizeof(dir), "%s/cm_plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        rc = -errno;
        cm_errf(err, errlen, "%s: %s", dir, strerror(-rc));
        return rc;
    }
    snprintf(data, sizeof(data), "%s/data", dir);
    snprintf(script, sizeof(script), "%s/script.gp", dir);
    snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
    snprintf(out, sizeof(out), "%s.tmp.%ld", p->output, (long)getpid());
    rc = write_data(p, data);
    if (rc == 0)
        rc = write_script(p, script, data, out);
    if (rc == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        rc = fd < 0 ? -errno : close(fd);
    }
    if (rc < 0) {
        cm_errf(err, errlen, "%s: cannot write the plot files: %s", dir, strerror(-rc));
        goto out;
    }
    st = run_gnuplot(gnuplot, script, log, timeout_ms);
    if (st == -ETIMEDOUT) {
        rc = st;
        cm_errf(err, errlen, "gnuplot did not finish %s in %u ms; killed", p->output,
                timeout_ms);
    } else if (st < 0) {
        rc = st;
        cm_errf(err, errlen, "cannot run gnuplot: %s", strerror(-st));
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(out, &sb) != 0 ||
               sb.st_size == 0) {
        char why[400];
        last_complaint(log, why, sizeof(why));
        rc = -EIO;
        cm_errf(err, errlen, "gnuplot failed to draw %s%s%s", p->output,
                why[0] ? ": " : "", why);
    } else if (rename(out, p->output) != 0) {
        rc = -errno;
        cm_errf(err, errlen, "%s: %s", p->output, strerror(-rc));
    }
out:
    unlink(out);
    unlink(data);
    unlink(script);
    unlink(log);
    rmdir(dir);
    return rc;
}
