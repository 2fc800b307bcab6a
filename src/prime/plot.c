/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c - the throughput/response-time curve of a run through gnuplot
 * (decisions.md D10; gnuplot is optional, D1).  The data and the script go
 * to a private temporary directory, gnuplot runs without a shell and with a
 * time limit, and the picture is renamed into place, so a failed or killed
 * gnuplot never leaves half a picture.  When the generic runner
 * (common/plot.c, cm_plot_draw) lands on main, pr_plot_curve becomes a thin
 * call to it: the arguments are the same description of one series.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prime/pr_int.h"

#define GNUPLOT_MS 20000

static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];

    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* Runs gnuplot on script, bounded; 0 or -errno. */
static int run_gnuplot(const char *script, char *note, size_t notelen)
{
    char *argv[] = {"gnuplot", (char *)script, NULL};
    int status = 0, waited = 0;
    pid_t pid;

    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return cm_errf(note, notelen, "fork: %s", strerror(errno)), -errno;
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);

        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (waited >= GNUPLOT_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return cm_errf(note, notelen, "gnuplot ran longer than %d s: no picture",
                           GNUPLOT_MS / 1000),
                   -ETIMEDOUT;
        }
        poll(NULL, 0, 20);
        waited += 20;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return cm_errf(note, notelen, "gnuplot failed: no picture"), -EIO;
    return 0;
}

/* Writes "x y" lines (after "0 0" when from_origin); 0 or -errno. */
static int write_data(const char *path, const double *x, const double *y, size_t n,
                      int from_origin)
{
    FILE *f = fopen(path, "w");
    size_t i;

    if (f == NULL)
        return -errno;
    if (from_origin)
        fprintf(f, "0 0\n");
    for (i = 0; i < n; i++)
        fprintf(f, "%.3f %.3f\n", x[i], y[i]);
    return fclose(f) == 0 ? 0 : -EIO;
}

int pr_plot_curve(const char *path, const char *title, const double *x, const double *y,
                  size_t n, const double *xi, const double *yi, size_t ni, char *note,
                  size_t notelen)
{
    char dir[LD_PATH_MAX + 64], data[LD_PATH_MAX + 80], script[LD_PATH_MAX + 80],
        png[LD_PATH_MAX + 80], idata[LD_PATH_MAX + 80];
    const char *slash = strrchr(path, '/');
    FILE *f;
    int rc;

    if (!on_path("gnuplot"))
        return cm_errf(note, notelen,
                       "no picture: gnuplot is not installed (scripts/install-deps)"),
               -ENOENT;
    if (n + ni == 0)
        return cm_errf(note, notelen, "no picture: no finished point"), -ENODATA;
    /* beside the picture, so that the rename stays on one file system */
    snprintf(dir, sizeof(dir), "%.*s/.freesfs-plot.XXXXXX",
             slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (mkdtemp(dir) == NULL)
        return cm_errf(note, notelen, "mkdtemp: %s", strerror(errno)), -errno;
    snprintf(data, sizeof(data), "%s/curve.dat", dir);
    snprintf(idata, sizeof(idata), "%s/invalid.dat", dir);
    snprintf(script, sizeof(script), "%s/curve.gp", dir);
    snprintf(png, sizeof(png), "%s/curve.png", dir);
    (void)write_data(data, x, y, n, 1);
    (void)write_data(idata, xi, yi, ni, 0);
    f = fopen(script, "w");
    if (f) {
        fprintf(
            f,
            "set terminal png size 900,600\n"
            "set output '%s'\n"
            "set title \"%s\" noenhanced\n"
            "set xlabel 'achieved throughput (NFS ops/s)'\n"
            "set ylabel 'average response time (ms)'\n"
            "set grid\nset key top left\nset xrange [0:*]\nset yrange [0:*]\n"
            "plot '%s' using 1:2 with linespoints pt 7 title 'valid points (from 0,0)'",
            png, title, data);
        if (ni > 0)
            fprintf(f,
                    ", '%s' using 1:2 with points pt 6 ps 2 title 'INVALID points (not "
                    "on an SFS curve)'",
                    idata);
        fputc('\n', f);
        fclose(f);
    }
    rc = run_gnuplot(script, note, notelen);
    if (rc == 0 && rename(png, path) < 0) {
        rc = -errno;
        cm_errf(note, notelen, "%s: %s", path, strerror(errno));
    }
    unlink(data);
    unlink(idata);
    unlink(script);
    unlink(png);
    rmdir(dir);
    return rc;
}
