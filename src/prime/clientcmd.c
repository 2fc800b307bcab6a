/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clientcmd.c - the command lines the prime starts: a client's sfs/sfs3
 * argv (pr_client_argv), the remote shell's argv around it (pr_remote_argv)
 * and the pid file a client records itself in.  Every word was checked by
 * resolve.c against a safe character set; the words of the remote command
 * are single-quoted besides, so the remote shell reads each as one literal
 * word.  RSH may instead be a template for launchers that are not ssh-like
 * (kubectl exec -i %h --, srun -w %h): a word holding %h is the host, %u
 * the user, and the client's words follow as words of their own.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prime/pr_int.h"

struct argbuf {
    char **argv;
    int n, max;
    char *buf;
    size_t used, len;
};

static int add(struct argbuf *a, const char *w)
{
    size_t n = strlen(w) + 1;

    if (a->n + 1 >= a->max || a->used + n > a->len)
        return -E2BIG;
    memcpy(a->buf + a->used, w, n);
    a->argv[a->n++] = a->buf + a->used;
    a->argv[a->n] = NULL;
    a->used += n;
    return 0;
}

void pr_client_pidfile(const struct pr_run *run, unsigned num, char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/freesfs-%s-CL%u.pid", run->tag, num);
}

/* The values of point idx (NULL when the points are LOAD's). */
const struct ld_point *pr_point_values(const struct pr_run *run, unsigned idx)
{
    return run->values && idx < run->npoints ? &run->values[idx] : NULL;
}

int pr_client_argv(const struct pr_run *run, const struct pr_client *c, unsigned point,
                   unsigned load, const char *prime, unsigned port, char **argv, int max,
                   char *buf, size_t buflen)
{
    struct argbuf a = {argv, 0, max, buf, 0, buflen};
    char w[LD_PATH_MAX + 64], pidfile[LD_PATH_MAX];
    int i, rc = 0;

    snprintf(w, sizeof(w), "%s/%s", run->sfs_dir, run->prog);
    rc |= add(&a, w);
    snprintf(w, sizeof(w), "-M%s:%u", prime, port);
    if (strchr(prime, ':'))
        snprintf(w, sizeof(w), "-M[%s]:%u", prime, port);
    rc |= add(&a, w);
    snprintf(w, sizeof(w), "-N%u", c->num);
    rc |= add(&a, w);
    if (!c->local && run->prime_host[0] == '\0')
        rc |= add(&a, "--prime-ssh");
    pr_client_pidfile(run, c->num, pidfile, sizeof(pidfile));
    snprintf(w, sizeof(w), "--pid-file=%s", pidfile);
    rc |= add(&a, w);
    snprintf(w, sizeof(w), "--load=%u", load / run->nclients);
    rc |= add(&a, w);
    if (run->wl && run->wl->client_args) { /* the workload's share of the point */
        char words[8][64];
        int n = run->wl->client_args(&run->cfg, pr_point_values(run, point),
                                     run->nclients, words, (int)CM_ARRAY_LEN(words));

        for (i = 0; i < n; i++)
            rc |= add(&a, words[i]);
    }
    for (i = 0; i < run->nopts; i++)
        rc |= add(&a, run->opts[i]);
    for (i = 0; i < c->nmounts; i++)
        rc |= add(&a, c->mounts[i]);
    return rc < 0 ? -E2BIG : a.n;
}

int pr_rsh_template(const struct pr_run *run)
{
    int i;

    for (i = 0; i < run->nrsh; i++)
        if (strstr(run->rsh[i], "%h"))
            return 1;
    return 0;
}

/* One template word with %h the host, %u the user (SFS_USER, else the
 * current user's name) and %% a '%'; any other '%' stays as it is. */
static int add_template(struct argbuf *a, const struct pr_run *run, const char *t,
                        const char *host)
{
    const struct passwd *pw;
    const char *user = run->sfs_user;
    char w[1024];
    size_t n = 0;

    if (!user[0]) {
        pw = getpwuid(getuid());
        user = pw ? pw->pw_name : "";
    }
    for (; *t && n < sizeof(w) - 1; t++) {
        const char *put = NULL;
        size_t k;

        if (t[0] == '%' && (t[1] == 'h' || t[1] == 'u' || t[1] == '%')) {
            put = t[1] == 'h' ? host : t[1] == 'u' ? user : "%";
            t++;
        }
        k = put ? strlen(put) : 1;
        if (n + k >= sizeof(w))
            return -E2BIG;
        memcpy(w + n, put ? put : t, k);
        n += k;
    }
    w[n] = '\0';
    return *t ? -E2BIG : add(a, w);
}

int pr_remote_argv(const struct pr_run *run, const struct pr_client *c,
                   char **client_argv, char **argv, int max, char *buf, size_t buflen)
{
    struct argbuf a = {argv, 0, max, buf, 0, buflen};
    char cmd[PR_ARGBUF];
    size_t used = 0;
    int i, rc = 0;

    if (pr_rsh_template(run)) { /* the launcher runs the client's words as given */
        for (i = 0; i < run->nrsh; i++)
            rc |= add_template(&a, run, run->rsh[i], c->host);
        for (i = 0; client_argv[i]; i++)
            rc |= add(&a, client_argv[i]);
        return rc < 0 ? -E2BIG : a.n;
    }
    for (i = 0; i < run->nrsh; i++)
        rc |= add(&a, run->rsh[i]);
    if (run->sfs_user[0]) {
        rc |= add(&a, "-l");
        rc |= add(&a, run->sfs_user);
    }
    rc |= add(&a, c->host);
    /* one string for the remote shell: each word single-quoted (the words
     * hold no quote: resolve.c allowed only safe characters) */
    cmd[0] = '\0';
    for (i = 0; client_argv[i]; i++) {
        int n = snprintf(cmd + used, sizeof(cmd) - used, "%s'%s'", i ? " " : "",
                         client_argv[i]);
        if (n < 0 || (size_t)n >= sizeof(cmd) - used || strchr(client_argv[i], '\''))
            return -E2BIG;
        used += (size_t)n;
    }
    rc |= add(&a, cmd);
    return rc < 0 ? -E2BIG : a.n;
}
