/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c - `sfs_mgr --check`: the resolved run, printed without starting
 * anything.  The text form is one "key: value" line per item, in a fixed
 * order (front ends may parse it; docs/sfs_mgr.md lists the keys); the
 * YAML form holds the same items.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prime/pr_int.h"
#include "load/sizing.h"

/* The estimate's assumptions: a point's start-up and results, and how fast
 * a server takes a new file set (a guess; sfs_mgr's progress lines refine
 * it from the points that ran). */
#define START_S       10
#define POPULATE_KB_S (50u * 1024u)

/* The workload's name, or who will say it. */
static const char *workload_text(const struct pr_run *run, char *buf, size_t len)
{
    if (run->wl)
        return run->wl->name;
    snprintf(buf, len, "asked of the clients before the first point (%s)", run->ask_why);
    return buf;
}

/* The whole run's expected time: the load phases exactly, the rest
 * estimated (population of each point's file set when the workload's load
 * sizes one, docs/SFS30.md §5.2). */
static double expected_s(const struct pr_run *run, double *fill_kb)
{
    double all_s = (double)run->npoints * (run->cfg.warmup_s + run->cfg.runtime_s);
    unsigned k;

    *fill_kb = 0;
    for (k = 0; k < run->npoints; k++) {
        struct ld_config cfg = run->cfg;
        struct ld_sizing z;

        cfg.load = (int)(run->points[k] / run->nclients);
        if (pr_point_values(run, k) && run->wl->point_set)
            run->wl->point_set(&cfg, pr_point_values(run, k));
        if (run->wl && run->wl->report->flags & LD_REPORT_LOAD &&
            ld_sizing_compute(&cfg, &z) == 0)
            *fill_kb += (double)z.total_kb * run->procs * run->nclients;
        all_s += START_S + 2.0 * run->prime_sleep;
    }
    return all_s + *fill_kb / POPULATE_KB_S;
}

/* LOAD=auto's run, which the peak decides: the search (AUTO_PROBES_LO to
 * _HI probes, ramp and confirmations, as a peak from a few hundred to some
 * hundred thousand ops/s needs), then the points; the populations are not
 * known before the peak. */
#define AUTO_PROBES_LO 3
#define AUTO_PROBES_HI 8
static void auto_range(const struct pr_run *run, double *lo_s, double *hi_s, int *probe_s)
{
    int w, r;
    double points_s = (double)run->auto_points * (run->cfg.warmup_s + run->cfg.runtime_s +
                                                  START_S + 2.0 * run->prime_sleep);

    pr_search_times(run, &w, &r);
    *probe_s = START_S + w + r + 2 * run->prime_sleep;
    *lo_s = AUTO_PROBES_LO * *probe_s + points_s;
    *hi_s = AUTO_PROBES_HI * *probe_s + points_s;
}

static void expected_time(const struct pr_run *run, FILE *out)
{
    if (run->auto_points) {
        double lo, hi;
        int probe_s;
        char a[40], b[40], c[40];

        auto_range(run, &lo, &hi, &probe_s);
        pr_meter_time((int)(lo + 0.5), a, sizeof(a));
        pr_meter_time((int)(hi + 0.5), b, sizeof(b));
        pr_meter_time((int)run->auto_points * (run->cfg.warmup_s + run->cfg.runtime_s), c,
                      sizeof(c));
        fprintf(out,
                "expected_time: about %s to %s (LOAD=auto: a search of %d to %d probes "
                "of about %d s each, then %u point%s x (%d s warm-up + %d s run) = %s of "
                "load; plus %d s start-up a point and the population of each point's "
                "file set, sized by its load once the peak is known)\n",
                a, b, AUTO_PROBES_LO, AUTO_PROBES_HI, probe_s, run->auto_points,
                run->auto_points == 1 ? "" : "s", run->cfg.warmup_s, run->cfg.runtime_s,
                c, START_S);
        return;
    }

    double fill_kb, all_s = expected_s(run, &fill_kb);
    int load_s = run->npoints * (run->cfg.warmup_s + run->cfg.runtime_s);
    char a[40], b[40];

    pr_meter_time(load_s, a, sizeof(a));
    pr_meter_time((int)(all_s + 0.5), b, sizeof(b));
    fprintf(
        out,
        "expected_time: about %s (%u point%s x (%d s warm-up + %d s run) = %s of load; "
        "plus %d s start-up a point and the population of %.0f MiB at an assumed %u "
        "MiB/s)\n",
        b, run->npoints, run->npoints == 1 ? "" : "s", run->cfg.warmup_s,
        run->cfg.runtime_s, a, START_S, fill_kb / 1024.0, POPULATE_KB_S / 1024u);
}

static void words(FILE *out, char **w, int n)
{
    int i;

    for (i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? " " : "", w[i]);
}

static const char *prime_for(const struct pr_run *run, const struct pr_client *c,
                             const char *host)
{
    if (c->local)
        return "127.0.0.1";
    return run->prime_host[0] ? run->prime_host : host;
}

static void text(const struct pr_run *run, FILE *out)
{
    static char *argv[PR_ARGV_MAX], buf[PR_ARGBUF];
    char host[256] = "localhost", wbuf[CM_ERR_LEN + 64];
    unsigned k;
    int argc;

    gethostname(host, sizeof(host) - 1);
    fprintf(out, "rc_file: %s\n", run->rc_path);
    fprintf(out, "suffix: %s\n", run->suffix);
    fprintf(out, "nfs_version: %d\n", run->nfs_version);
    fprintf(out, "transport: %s\n", run->cfg.tcp ? "tcp" : "udp");
    fprintf(out, "workload: %s\n", workload_text(run, wbuf, sizeof(wbuf)));
    if (run->auto_points) {
        fprintf(
            out,
            "load_points: auto (a search: probes from %u ops/s, each four times the "
            "last, until the server saturates, and the peak confirmed; then %u evenly "
            "spaced points up to just past it)\nper_client_load: auto (the first "
            "probe's: %u)",
            run->points[0], run->auto_points, run->points[0] / run->nclients);
    } else {
        fprintf(out, "load_points:");
        for (k = 0; k < run->npoints; k++)
            fprintf(out, " %u", run->points[k]);
        fprintf(out, "\nper_client_load:");
        for (k = 0; k < run->npoints; k++)
            fprintf(out, " %u", run->points[k] / run->nclients);
    }
    fprintf(out, "\nwarmup_s: %d\nruntime_s: %d\n", run->cfg.warmup_s,
            run->cfg.runtime_s);
    fprintf(out, "clients: %u\nprocs: %d\n", run->nclients, run->procs);
    for (k = 0; k < run->nclients; k++) {
        const struct pr_client *c = &run->clients[k];
        fprintf(out, "client %u: %s %s procs=%d mounts=", c->num, c->host,
                c->local ? "local" : "remote", run->procs);
        words(out, c->mounts, c->nmounts);
        fputc('\n', out);
    }
    fprintf(out, "rsh: ");
    words(out, run->rsh, run->nrsh);
    fprintf(out, "\nsfs_user: %s\n",
            run->sfs_user[0] ? run->sfs_user : "(the current user)");
    if (run->prime_host[0])
        fprintf(out, "prime_host: %s\n", run->prime_host);
    else
        fprintf(out,
                "prime_host: (the address each client's ssh connection came from, else "
                "%s)\n",
                host);
    fprintf(out, "prime_port: %d%s\n", run->prime_port,
            run->prime_port ? "" : " (a free port per point)");
    fprintf(out, "prime_sleep: %d\nprime_timeout: %d\n", run->prime_sleep,
            run->prime_timeout);
    fprintf(out, "monitor: %s", run->mon_script ? run->mon_script : "(none)");
    if (run->mon_script && run->nmon_args) {
        fputc(' ', out);
        words(out, run->mon_args, run->nmon_args);
    }
    fprintf(out, "\nwork_dir: %s\nsfs_dir: %s\n", run->work_dir, run->sfs_dir);
    fprintf(out, "client_options: ");
    words(out, run->opts, run->nopts);
    fputc('\n', out);
    for (k = 0; k < run->nclients && run->npoints; k++) {
        argc = pr_client_argv(run, &run->clients[k], 0, run->points[0],
                              prime_for(run, &run->clients[k], host), 0, argv,
                              PR_ARGV_MAX, buf, sizeof(buf));
        fprintf(out, "client_command %u: ", run->clients[k].num);
        if (argc > 0 && !run->clients[k].local) {
            static char *rargv[PR_ARGV_MAX + 80], rbuf[PR_ARGBUF + 4096];
            argc = pr_remote_argv(run, &run->clients[k], argv, rargv, PR_ARGV_MAX + 80,
                                  rbuf, sizeof(rbuf));
            if (argc > 0 && pr_rsh_template(run)) { /* a launcher: words as given */
                words(out, rargv, argc);
                fputc('\n', out);
                continue;
            }
            if (argc > 0) {
                /* the remote command string is one argument: show it quoted */
                words(out, rargv, argc - 1);
                fprintf(out, " \"%s\"\n", rargv[argc - 1]);
                continue;
            }
        }
        if (argc > 0)
            words(out, argv, argc);
        fputc('\n', out);
    }
    fprintf(out,
            "result_files: sfssum.%s sfsres.%s sfsres.%s.yaml sfsres.%s.png sfslog.%s "
            "sfscNNN.%s sfsval.%s\n",
            run->suffix, run->suffix, run->suffix, run->suffix, run->suffix, run->suffix,
            run->suffix);
    expected_time(run, out);
}

static void yaml_words(struct cm_yaml *y, const char *key, char **w, int n)
{
    int i;

    cm_yaml_key(y, key);
    cm_yaml_seq_begin(y);
    for (i = 0; i < n; i++)
        cm_yaml_str(y, w[i]);
    cm_yaml_seq_end(y);
}

static void yaml(const struct pr_run *run, FILE *out)
{
    char err[CM_ERR_LEN], wbuf[CM_ERR_LEN + 64];
    struct cm_yaml *y = cm_yaml_open_stream(out, err, sizeof(err));
    double fill_kb;
    unsigned k;

    if (y == NULL)
        return;
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "rc_file", run->rc_path);
    cm_yaml_kv_str(y, "suffix", run->suffix);
    cm_yaml_kv_int(y, "nfs_version", run->nfs_version);
    cm_yaml_kv_str(y, "transport", run->cfg.tcp ? "tcp" : "udp");
    cm_yaml_kv_str(y, "workload", workload_text(run, wbuf, sizeof(wbuf)));
    cm_yaml_key(y, "load_points");
    cm_yaml_flow_seq_begin(y);
    for (k = 0; k < run->npoints; k++)
        cm_yaml_uint(y, run->points[k]);
    cm_yaml_seq_end(y);
    cm_yaml_key(y, "per_client_load");
    cm_yaml_flow_seq_begin(y);
    for (k = 0; k < run->npoints; k++)
        cm_yaml_uint(y, run->points[k] / run->nclients);
    cm_yaml_seq_end(y);
    cm_yaml_kv_int(y, "warmup_s", run->cfg.warmup_s);
    cm_yaml_kv_int(y, "runtime_s", run->cfg.runtime_s);
    cm_yaml_kv_int(y, "procs", run->procs);
    cm_yaml_key(y, "clients");
    cm_yaml_seq_begin(y);
    for (k = 0; k < run->nclients; k++) {
        const struct pr_client *c = &run->clients[k];
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "client", c->num);
        cm_yaml_kv_str(y, "host", c->host);
        cm_yaml_kv_bool(y, "local", c->local);
        yaml_words(y, "mounts", c->mounts, c->nmounts);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    yaml_words(y, "rsh", run->rsh, run->nrsh);
    cm_yaml_kv_str(y, "sfs_user", run->sfs_user);
    cm_yaml_kv_str(y, "prime_host", run->prime_host);
    cm_yaml_kv_int(y, "prime_port", run->prime_port);
    cm_yaml_kv_int(y, "prime_sleep", run->prime_sleep);
    cm_yaml_kv_int(y, "prime_timeout", run->prime_timeout);
    cm_yaml_kv_str(y, "monitor", run->mon_script ? run->mon_script : "");
    yaml_words(y, "monitor_args", run->mon_args, run->nmon_args);
    cm_yaml_kv_str(y, "work_dir", run->work_dir);
    cm_yaml_kv_str(y, "sfs_dir", run->sfs_dir);
    yaml_words(y, "client_options", run->opts, run->nopts);
    if (run->auto_points) {
        double lo, hi;
        int probe_s;

        auto_range(run, &lo, &hi, &probe_s);
        cm_yaml_kv_uint(y, "auto_points", run->auto_points);
        cm_yaml_kv_int(y, "expected_time_s", (int)(lo + 0.5)); /* at least */
        cm_yaml_kv_int(y, "expected_time_max_s", (int)(hi + 0.5));
    } else {
        cm_yaml_kv_int(y, "expected_time_s", (int)(expected_s(run, &fill_kb) + 0.5));
    }
    cm_yaml_map_end(y);
    (void)cm_yaml_close(y, err, sizeof(err));
}

void pr_run_check(const struct pr_run *run, FILE *out, int as_yaml)
{
    if (as_yaml)
        yaml(run, out);
    else
        text(run, out);
    fflush(out);
}
