/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clean.c - the benchmark trees and leftovers: whether the CL<n> trees on
 * the mount points are fresh (pr_trees_state, stated in the next run's
 * report), their removal through libnfs (sfs_mgr -c, docs/DECISIONS.md D3: for
 * users who cannot newfs between runs), and sfs_mgr -k, which stops what an
 * earlier crash left behind: on every client (locally or over RSH) the
 * client recorded in its pid file (sfs --kill-run), and a stuck sfs_mgr of
 * the same WORK_DIR - by process id, never by name.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nfs/nf_lnfs.h"
#include "prime/pr_int.h"

#define KILL_WAIT_MS 30000

static int is_cl(const char *name)
{
    size_t i;

    if (strncmp(name, "CL", 2) != 0 || name[2] == '\0')
        return 0;
    for (i = 2; name[i]; i++)
        if (!isdigit((unsigned char)name[i]))
            return 0;
    return 1;
}

/* Every distinct mount point of the run, once. */
static int distinct(const struct pr_run *run, const char **out, int max)
{
    unsigned k;
    int i, j, n = 0;

    for (k = 0; k < run->nclients; k++)
        for (i = 0; i < run->clients[k].nmounts; i++) {
            const char *m = run->clients[k].mounts[i];
            for (j = 0; j < n && strcmp(out[j], m) != 0; j++)
                ;
            if (j == n && n < max)
                out[n++] = m;
        }
    return n;
}

struct names {
    char list[8][32];
    int n;
};

static int collect(const char *name, int is_dir, void *data)
{
    struct names *nm = data;

    if (is_dir && is_cl(name) && nm->n < 8)
        snprintf(nm->list[nm->n++], sizeof(nm->list[0]), "%s", name);
    return 0;
}

int pr_trees_state(const struct pr_run *run, char *buf, size_t len)
{
    const char *mounts[256];
    char err[CM_ERR_LEN];
    int n = distinct(run, mounts, 256), i;

    for (i = 0; i < n; i++) {
        struct nf_lnfs *l;
        struct names nm;

        memset(&nm, 0, sizeof(nm));
        if (nf_lnfs_open(&l, mounts[i], 5000, err, sizeof(err)) < 0) {
            snprintf(buf, len, "unknown (%s)", err);
            return -1;
        }
        (void)nf_lnfs_list(l, "/", collect, &nm);
        nf_lnfs_close(l);
        if (nm.n > 0) {
            snprintf(buf, len,
                     "NOT fresh: %s%s already on %s (left by an earlier run; sfs_mgr -c "
                     "removes them)",
                     nm.list[0], nm.n > 1 ? " and more" : "", mounts[i]);
            return 0;
        }
    }
    snprintf(buf, len, "fresh (no CL<n> tree on the %d mount point(s))", n);
    return 1;
}

int pr_clean(const struct pr_run *run, FILE *out, FILE *diag)
{
    const char *mounts[256];
    char err[CM_ERR_LEN];
    int n = distinct(run, mounts, 256), i, j, rc = CM_EXIT_OK;

    for (i = 0; i < n; i++) {
        struct nf_lnfs *l;
        struct names nm;

        memset(&nm, 0, sizeof(nm));
        if (nf_lnfs_open(&l, mounts[i], 10000, err, sizeof(err)) < 0) {
            fprintf(diag, "sfs_mgr: -c: %s\n", err);
            rc = CM_EXIT_FAILED;
            continue;
        }
        do {
            nm.n = 0;
            (void)nf_lnfs_list(l, "/", collect, &nm);
            for (j = 0; j < nm.n; j++) {
                char path[40];
                snprintf(path, sizeof(path), "/%s", nm.list[j]);
                if (nf_lnfs_remove_tree(l, path) < 0) {
                    fprintf(diag, "sfs_mgr: -c: %s%s: %s\n", mounts[i], path,
                            nf_lnfs_last_error(l));
                    rc = CM_EXIT_FAILED;
                    nm.n = 0;
                    break;
                }
                fprintf(out, "removed %s from %s\n", nm.list[j], mounts[i]);
            }
        } while (nm.n == 8); /* more than a listing's worth */
        nf_lnfs_close(l);
    }
    if (rc == CM_EXIT_OK)
        fprintf(out, "the benchmark trees are gone from %d mount point(s)\n", n);
    return rc;
}

/* ---- -k -------------------------------------------------------------------------- */

/* sfs_mgr's own pid file in WORK_DIR (mgr.c writes it). */
void pr_mgr_pidfile(const struct pr_run *run, char *buf, size_t len)
{
    snprintf(buf, len, "%s/sfs_mgr.%s.pid", run->work_dir, run->suffix);
}

static int run_bounded(char **argv, FILE *out, int *status)
{
    char err[CM_ERR_LEN];
    struct pr_proc p;
    int waited = 0;

    fflush(out);
    if (pr_spawn(&p, argv, fileno(out), NULL, err, sizeof(err)) < 0) {
        fprintf(out, "%s\n", err);
        return -1;
    }
    close(p.in_fd);
    p.in_fd = -1;
    while (!pr_proc_poll(&p) && waited < KILL_WAIT_MS) {
        usleep(20000);
        waited += 20;
    }
    if (!p.exited) {
        struct pr_proc *one = &p;
        pr_procs_stop(&one, 1, 0);
        return -1;
    }
    *status = p.status;
    return 0;
}

/* A stuck sfs_mgr of this WORK_DIR and suffix: SIGTERM makes it stop its
 * clients; SIGKILL after a bounded wait. */
static void kill_mgr(const struct pr_run *run, FILE *out)
{
    char path[LD_PATH_MAX + 64], exe[64], link[LD_PATH_MAX];
    long pid = 0;
    FILE *f;
    int i;
    ssize_t n;

    pr_mgr_pidfile(run, path, sizeof(path));
    f = fopen(path, "r");
    if (f == NULL)
        return;
    if (fscanf(f, "%ld", &pid) != 1)
        pid = 0;
    fclose(f);
    snprintf(exe, sizeof(exe), "/proc/%ld/exe", pid);
    n = pid > 1 && pid != (long)getpid() ? readlink(exe, link, sizeof(link) - 1) : -1;
    if (n > 0) {
        link[n] = '\0';
        if (strstr(link, "sfs_mgr") || strstr(link, "sfs_prime")) {
            fprintf(out, "stopping sfs_mgr %ld (%s)\n", pid, path);
            kill((pid_t)pid, SIGCONT);
            kill((pid_t)pid, SIGTERM);
            for (i = 0; i < 150 && kill((pid_t)pid, 0) == 0; i++)
                usleep(100000);
            if (kill((pid_t)pid, 0) == 0)
                kill((pid_t)pid, SIGKILL);
        }
    }
    unlink(path);
}

int pr_kill(const struct pr_run *run, FILE *out, FILE *diag)
{
    static char *rargv[PR_ARGV_MAX], rbuf[PR_ARGBUF];
    char prog[LD_PATH_MAX + 64], pidfile[LD_PATH_MAX], arg[LD_PATH_MAX + 16];
    int rc = CM_EXIT_OK;
    unsigned k;

    kill_mgr(run, out);
    snprintf(prog, sizeof(prog), "%s/%s", run->sfs_dir, run->prog);
    for (k = 0; k < run->nclients; k++) {
        const struct pr_client *c = &run->clients[k];
        char *argv[] = {prog, arg, NULL};
        char **use = argv;
        int status = 0;

        pr_client_pidfile(run, c->num, pidfile, sizeof(pidfile));
        snprintf(arg, sizeof(arg), "--kill-run=%s", pidfile);
        if (!c->local) {
            if (pr_remote_argv(run, c, argv, rargv, PR_ARGV_MAX, rbuf, sizeof(rbuf)) < 0)
                continue;
            use = rargv;
        }
        fprintf(out, "client %u (%s): ", c->num, c->host);
        if (run_bounded(use, out, &status) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            fprintf(diag, "sfs_mgr: -k: client %u (%s): could not run %s\n", c->num,
                    c->host, prog);
            rc = CM_EXIT_FAILED;
        }
    }
    return rc;
}
