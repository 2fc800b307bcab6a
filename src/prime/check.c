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
    char host[256] = "localhost";
    unsigned k;
    int argc;

    gethostname(host, sizeof(host) - 1);
    fprintf(out, "rc_file: %s\n", run->rc_path);
    fprintf(out, "suffix: %s\n", run->suffix);
    fprintf(out, "nfs_version: %d\n", run->nfs_version);
    fprintf(out, "transport: %s\n", run->cfg.tcp ? "tcp" : "udp");
    fprintf(out, "load_points:");
    for (k = 0; k < run->npoints; k++)
        fprintf(out, " %u", run->points[k]);
    fprintf(out, "\nper_client_load:");
    for (k = 0; k < run->npoints; k++)
        fprintf(out, " %u", run->points[k] / run->nclients);
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
    char err[CM_ERR_LEN];
    struct cm_yaml *y = cm_yaml_open_stream(out, err, sizeof(err));
    unsigned k;

    if (y == NULL)
        return;
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "rc_file", run->rc_path);
    cm_yaml_kv_str(y, "suffix", run->suffix);
    cm_yaml_kv_int(y, "nfs_version", run->nfs_version);
    cm_yaml_kv_str(y, "transport", run->cfg.tcp ? "tcp" : "udp");
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
