/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * resolve.c - the rc file resolved into a run (pr.h: pr_run_load;
 * docs/SFS30.md §14, §15; docs/DECISIONS.md D9).  The file is parsed as data by
 * common/rc.c; here each value is interpreted and checked, and every
 * problem is reported at its FILE:LINE.
 *
 * Choices (docs/sfs_mgr.md):
 *  - WORK_DIR defaults to `result` (D10), relative to the current directory;
 *    files the rc names (MNT_POINTS file, MIXFILE, BLOCK_FILE, any option
 *    whose argument is a FILE, PRIME_MON_SCRIPT) are looked up in WORK_DIR,
 *    then beside the rc file (where SFS kept them);
 *  - SFS_DIR defaults to the directory of the running sfs_mgr;
 *  - every row of the load option table with an rc name reaches the
 *    clients as --long-name=value, so new options need no change here;
 *  - MNT_POINTS may also be a single entry, which every child uses;
 *  - values that reach a client's command line are limited to a safe
 *    character set (letters, digits and . _ / : , = + @ % ? & [ ] -), so an
 *    rc value can never be read as shell syntax by a remote shell.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/opt.h"
#include "common/rc.h"
#include "common/text.h"
#include "client/cl.h"
#include "load/options.h"
#include "nfs/nf_spec.h"
#include "prime/pr_int.h"
#include "common/alloc.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/num.h"
#include "nfs/nf_proto.h"

/* The SFS 3.0 variables (user guide, docs/SFS30.md §14) and FreeSFS's
 * PRIME_HOST and PRIME_PORT, with the kind and range of those the prime
 * reads itself (kind NULL: a row of the load option table, which has them;
 * its other rc names are known too, known_name), and the page of runsfs's
 * settings menus each is on (0: none), in SFS's order: the table's order
 * is the pages'.  sfs_rc describe and sfs_rc pages print them for front
 * ends (pr_rc_describe, pr_rc_pages). */
static struct pr_rc_var prime_vars[] = {
    /* page 1 */
    {"LOAD", "loads", 1, 100000000, 1},
    {"BIOD_MAX_WRITES", NULL, 0, 0, 1},
    {"BIOD_MAX_READS", NULL, 0, 0, 1},
    {"NFS_VERSION", "int", 0, 0, 1}, /* the range of nfs/nf_proto.h: versions() */
    {"NUM_RUNS", "int", 1, PR_MAX_POINTS, 1},
    {"INCR_LOAD", "int", 0, 100000000, 1},
    {"CLIENTS", "hosts", 0, 0, 1},
    {"MNT_POINTS", "mounts", 0, 0, 1},
    {"PROCS", NULL, 0, 0, 1},
    {"TCP", NULL, 0, 0, 1},
    /* page 2 */
    {"PRIME_SLEEP", "int", 0, 86400, 2},
    {"PRIME_MON_SCRIPT", "path", 0, 0, 2},
    {"DEBUG", NULL, 0, 0, 2},
    {"DUMP", NULL, 0, 0, 2},
    {"SFS_DIR", "path", 0, 0, 2},
    {"WORK_DIR", "path", 0, 0, 2},
    {"PRIME_MON_ARGS", "text", 0, 0, 2},
    {"RSH", "text", 0, 0, 2},
    {"SFS_USER", "word", 0, 0, 2},
    {"PRIME_TIMEOUT", "int", 0, 86400, 2},
    /* page 3 */
    {"WARMUP_TIME", NULL, 0, 0, 3},
    {"RUNTIME", NULL, 0, 0, 3},
    {"MIXFILE", NULL, 0, 0, 3},
    {"ACCESS_PCNT", NULL, 0, 0, 3},
    {"APPEND_PCNT", NULL, 0, 0, 3},
    {"BLOCK_SIZE", NULL, 0, 0, 3},
    {"BLOCK_FILE", NULL, 0, 0, 3},
    {"DIR_COUNT", NULL, 0, 0, 3},
    {"FILE_COUNT", NULL, 0, 0, 3},
    {"SYMLINK_COUNT", NULL, 0, 0, 3},
    /* on no page */
    {"NUM_PROCS", NULL, 0, 0, 0},
    {"POPULATE", NULL, 0, 0, 0},
    {"LAT_GRAPH", "text", 0, 0, 0},
    {"SUFFIX", "word", 0, 0, 0},
    {"PRIME_HOST", "text", 0, 0, 0},
    {"PRIME_PORT", "int", 0, 65535, 0},
};

/* NFS_VERSION's range: the versions of the protocols FreeSFS speaks. */
static void versions(void)
{
    size_t i;
    int lo, hi;

    nf_proto_versions(&lo, &hi);
    for (i = 0; i < CM_ARRAY_LEN(prime_vars); i++)
        if (strcmp(prime_vars[i].name, "NFS_VERSION") == 0) {
            prime_vars[i].min = lo;
            prime_vars[i].max = hi;
        }
}

const struct pr_rc_var *pr_rc_vars(size_t *n)
{
    versions();
    *n = CM_ARRAY_LEN(prime_vars);
    return prime_vars;
}

static const struct pr_rc_var *prime_var(const char *name)
{
    size_t i;

    versions();
    for (i = 0; i < CM_ARRAY_LEN(prime_vars); i++)
        if (strcmp(prime_vars[i].name, name) == 0)
            return &prime_vars[i];
    return NULL;
}

/* Whether name is k, else whether it resembles k (RUN_TIME, WARMUP:
 * RUNTIME, WARMUP_TIME), keeping the nearest. */
static int same_or_near(const char *name, const char *k, int *best, const char **near)
{
    int d;

    if (k == NULL)
        return 0;
    if (strcmp(k, name) == 0)
        return 1;
    d = cm_rc_name_resemblance(name, k);
    if (d >= 0 && d < *best) {
        *best = d;
        *near = k;
    }
    return 0;
}

/* A variable of the prime's table, of the load option table or of a
 * workload's own options. */
static int known_name(const char *name, void *data, const char **near)
{
    const struct ld_workload_ops *const *wl;
    const struct ld_opt_group *const *g;
    const struct cm_opt *t;
    size_t n, i, nwl, w;
    int best = 4;

    (void)data;
    for (i = 0; i < CM_ARRAY_LEN(prime_vars); i++)
        if (same_or_near(name, prime_vars[i].name, &best, near))
            return 1;
    t = ld_options_table(&n);
    for (i = 0; i < n; i++)
        if (same_or_near(name, t[i].rc_name, &best, near))
            return 1;
    wl = cl_workloads(&nwl);
    for (w = 0; w < nwl; w++)
        for (g = wl[w]->options; g && *g; g++)
            for (i = 0; i < (*g)->nrows; i++)
                if (same_or_near(name, (*g)->rows[i].rc_name, &best, near))
                    return 1;
    return 0;
}

/* ---- allocations owned by the run ------------------------------------------- */

void *pr_keep(struct pr_run *run, void *p)
{
    if (p == NULL) { /* an allocation failed: the run is not whole */
        run->nomem = 1;
        return NULL;
    }
    if (run->nallocs == run->capallocs) {
        size_t cap = run->capallocs ? run->capallocs * 2 : 64;
        void **n = cm_realloc(run->allocs, cap * sizeof(*n));
        if (n == NULL) {
            free(p);
            run->nomem = 1;
            return NULL;
        }
        run->allocs = n;
        run->capallocs = cap;
    }
    run->allocs[run->nallocs++] = p;
    return p;
}

static char *keep_str(struct pr_run *run, const char *s)
{
    return pr_keep(run, cm_strdup(s));
}

void pr_run_free(struct pr_run *run)
{
    size_t i;

    for (i = 0; i < run->nallocs; i++)
        free(run->allocs[i]);
    free(run->allocs);
    free(run->opts); /* the array; its words are kept allocations */
    memset(run, 0, sizeof(*run));
}

/* Where the run's files go: a property of the resolved run (WORK_DIR and the
 * suffix), used by the points, the search and the result files alike. */
void pr_result_path(const struct pr_run *run, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s.%s", run->work_dir, name, run->suffix);
}

/* ---- checks of words that reach command lines --------------------------------- */

static int pr_safe_char(int c)
{
    return isalnum(c) || (c && strchr("._/:,=+@%?&[]-", c));
}

/* The first character outside the safe set, or 0. */
int pr_unsafe_char(const char *s)
{
    for (; *s; s++)
        if (!pr_safe_char((unsigned char)*s))
            return (unsigned char)*s;
    return 0;
}

int pr_valid_host(const char *h)
{
    size_t n = strlen(h), i;

    if (n == 0 || n > 253 || h[0] == '-' || h[0] == '.')
        return 0;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)h[i]) && !strchr(".-:_", h[i]))
            return 0;
    return 1;
}

int pr_valid_suffix(const char *s)
{
    size_t n = strlen(s), i;

    if (n == 0 || n > 64 || s[0] == '.' || s[0] == '-')
        return 0;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
            return 0;
    return 1;
}

static int valid_user(const char *u)
{
    size_t i;

    if (u[0] == '-' || strlen(u) > 64)
        return 0;
    for (i = 0; u[i]; i++)
        if (!isalnum((unsigned char)u[i]) && !strchr("._-", u[i]))
            return 0;
    return 1;
}

/* A word for the clients' command line: reported at v's line when unsafe. */
static int check_word(struct cm_rc *rc, const struct cm_rc_var *v, const char *w)
{
    int c = pr_unsafe_char(w);

    if (c == 0)
        return 0;
    if (isprint(c))
        return cm_rc_error(
            rc, v,
            "'%s': the character '%c' is not allowed in a value passed to "
            "the clients (letters, digits and . _ / : , = + @ %% ? & [ ] -)",
            w, c);
    return cm_rc_error(rc, v,
                       "'%s': a control or non-ASCII character (0x%02x) is not "
                       "allowed in a value passed to the clients",
                       w, c);
}

/* ---- small interpreters --------------------------------------------------------- */

static int get_int_in(struct cm_rc *rc, const char *name, long dflt, long min, long max,
                      long *out)
{
    const struct cm_rc_var *v = cm_rc_get(rc, name);
    char err[256];
    int64_t x;

    *out = dflt;
    if (v == NULL || v->value[0] == '\0')
        return 0;
    if (cm_parse_i64(name, v->value, min, max, &x, err, sizeof(err)) < 0) {
        const char *msg =
            strncmp(err, name, strlen(name)) == 0 && err[strlen(name)] == ':'
                ? err + strlen(name) + 2
                : err;
        return cm_rc_error(rc, v, "%s", msg);
    }
    *out = (long)x;
    return 0;
}

/* get_int_in with the range of prime_vars. */
static int get_int(struct cm_rc *rc, const char *name, long dflt, long *out)
{
    const struct pr_rc_var *v = prime_var(name);

    return get_int_in(rc, name, dflt, (long)v->min, (long)v->max, out);
}

/* "1", "on", "yes", "true" -> 1; "", "0", "off", "no", "false" -> 0. */
static int get_bool(struct cm_rc *rc, const struct cm_rc_var *v, int *out)
{
    static const char *const on[] = {"1", "on", "yes", "true", "y"};
    static const char *const off[] = {"", "0", "off", "no", "false", "n"};
    size_t i;

    *out = 0;
    if (v == NULL)
        return 0;
    for (i = 0; i < CM_ARRAY_LEN(on); i++)
        if (strcasecmp(v->value, on[i]) == 0)
            return *out = 1, 0;
    for (i = 0; i < CM_ARRAY_LEN(off); i++)
        if (strcasecmp(v->value, off[i]) == 0)
            return 0;
    return cm_rc_error(
        rc, v, "'%s' is neither on (1, on, yes) nor off (0, off, no, empty)", v->value);
}

/* An absolute version of path, relative paths taken from base. */
static void absolute(const char *base, const char *path, char *out, size_t len)
{
    int n = path[0] == '/' ? snprintf(out, len, "%s", path)
                           : snprintf(out, len, "%s/%s", base, path);

    if (n < 0 || (size_t)n >= len)
        out[0] = '\0'; /* too long: no path rather than a wrong one */
}

/* A file the rc names: absolute, else in WORK_DIR, else beside the rc file.
 * Returns the kept absolute path or NULL after reporting. */
static const char *find_file(struct pr_run *run, struct cm_rc *rc,
                             const struct cm_rc_var *v, const char *name)
{
    char a[LD_PATH_MAX * 2 + 2], b[LD_PATH_MAX * 2 + 2];
    struct stat st;

    if (name[0] == '/') {
        if (stat(name, &st) == 0)
            return keep_str(run, name);
        cm_rc_error(rc, v, "%s: %s", name, strerror(errno));
        return NULL;
    }
    absolute(run->work_dir, name, a, sizeof(a));
    if (stat(a, &st) == 0)
        return keep_str(run, a);
    absolute(run->rc_dir, name, b, sizeof(b));
    if (stat(b, &st) == 0)
        return keep_str(run, b);
    cm_rc_error(rc, v, "%s: not found in WORK_DIR (%s) nor beside the rc file (%s)", name,
                run->work_dir, run->rc_dir);
    return NULL;
}

static int add_opt(struct pr_run *run, const char *word)
{
    char **n;

    if (run->nopts % 16 == 0) {
        n = cm_realloc(run->opts, (size_t)(run->nopts + 17) * sizeof(*n));
        if (n == NULL)
            return -ENOMEM;
        run->opts = n;
    }
    run->opts[run->nopts] = keep_str(run, word);
    if (run->opts[run->nopts] == NULL)
        return -ENOMEM;
    run->nopts++;
    run->opts[run->nopts] = NULL;
    return 0;
}

/* ---- the parts of a run --------------------------------------------------------- */

/* One option row's rc variable into base (and its source into *src):
 * checked as the clients will check it, and, when word is not NULL, the
 * --name=value the clients get.  Returns 1 when the rc sets it, else 0. */
static int one_option(struct pr_run *run, struct cm_rc *rc, const struct cm_opt *t,
                      void *base, unsigned char *src, char *word, size_t wordlen)
{
    const struct cm_rc_var *v;
    struct cm_opt row = *t;
    char err[512], label[64];
    const char *value;

    if (row.rc_name == NULL || (row.flags & (CM_OPT_CLI_ONLY | CM_OPT_POINT)))
        return 0; /* points: LOAD split per client, a replay's speed per point */
    v = cm_rc_get(rc, row.rc_name);
    if (v == NULL && strcmp(row.rc_name, "PROCS") == 0)
        v = cm_rc_get(rc, "NUM_PROCS"); /* the guide's other name */
    if (v == NULL || v->value[0] == '\0')
        return 0;
    value = v->value;
    if (row.type == CM_OPT_FLAG) {
        int on;
        if (get_bool(rc, v, &on) < 0)
            return 0;
        if (!on) { /* off said: the default's value, the rc's word (TCP off) */
            *src = CM_SRC_RC;
            return 0;
        }
        value = "1";
    } else if (row.type == CM_OPT_STRING && row.arg_name &&
               strcmp(row.arg_name, "FILE") == 0) {
        value = find_file(run, rc, v, v->value);
        if (value == NULL)
            return 0;
    }
    /* the row without its flags: messages name the rc variable */
    row.short_flag = 0;
    row.long_name = NULL;
    if (cm_opt_set(&row, base, value, err, sizeof(err)) < 0) {
        const char *lab = cm_opt_label(&row, label, sizeof(label));
        const char *msg = strncmp(err, lab, strlen(lab)) == 0 ? err + strlen(lab) : err;
        while (*msg == ':' || *msg == ' ')
            msg++;
        cm_rc_error(rc, v, "%s", msg);
        return 0;
    }
    *src = CM_SRC_RC;
    if (word == NULL)
        return 1;
    if (t->type == CM_OPT_FLAG)
        snprintf(word, wordlen, "--%s", t->long_name);
    else
        snprintf(word, wordlen, "--%s=%s", t->long_name, value);
    if (check_word(rc, v, word) < 0)
        return 0;
    return 1;
}

/* Passes word on to every client. */
static void pass_on(struct pr_run *run, struct cm_rc *rc, const char *word)
{
    if (add_opt(run, word) < 0)
        cm_rc_error(rc, NULL, "out of memory");
}

/* Every option row with an rc name (except LOAD, which the prime splits
 * per client), the workloads' too: checked into run->cfg; the load
 * table's passed on as --name=value at once, the workloads' once the
 * workload is chosen (resolve_workload). */
static void resolve_options(struct pr_run *run, struct cm_rc *rc)
{
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    const struct ld_workload_ops *const *wl;
    char word[LD_PATH_MAX + 80], err[CM_ERR_LEN];
    size_t n, nwl, i, k;

    ld_config_defaults(&run->cfg, run->nfs_version);
    wl = cl_workloads(&nwl);
    if (ld_config_add_workloads(&run->cfg, wl, nwl, err, sizeof(err)) < 0)
        cm_rc_error(rc, NULL, "%s", err);
    n = ld_config_sets(&run->cfg, sets, CM_ARRAY_LEN(sets));
    for (k = 0; k < n; k++)
        for (i = 0; i < sets[k].n; i++)
            if (one_option(run, rc, &sets[k].t[i], sets[k].base, &sets[k].src[i],
                           k == 0 ? word : NULL, sizeof(word)) &&
                k == 0)
                pass_on(run, rc, word);
    run->procs = run->cfg.procs;
    run->populate_only = run->cfg.populate_only;
    if (ld_config_transport(&run->cfg, err, sizeof(err)) < 0) /* NFSv4: TCP only */
        cm_rc_error(rc, cm_rc_get(rc, "TCP"), "%s (NFS_VERSION=%d)", err,
                    run->nfs_version);
}

/* The workload: WORKLOAD's, or the one the options ask for (the same
 * chooser as the clients'), passed to the clients by name so that they
 * cannot choose otherwise; when the prime cannot read the input that
 * decides (a trace only the clients can read), the clients' answer
 * decides (run->ask_clients, pr_workload_ask).  The options of the
 * workload's groups go to the clients; an rc variable of another
 * workload's is an error at its line. */
static void resolve_workload(struct pr_run *run, struct cm_rc *rc)
{
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    char word[LD_PATH_MAX + 80], err[CM_ERR_LEN];
    size_t n, i, k;
    int r;

    if (run->forced_workload)
        snprintf(run->cfg.workload, sizeof(run->cfg.workload), "%s",
                 run->forced_workload);
    r = cl_workload_choose(&run->cfg, &run->wl, err, sizeof(err));

    if (r == CL_UNDECIDED) {
        run->ask_clients = 1;
        snprintf(run->ask_why, sizeof(run->ask_why), "%s", err);
    } else if (r != 0) {
        cm_rc_error(rc, cm_rc_get(rc, "WORKLOAD"), "%s", err);
        return;
    } else if (cl_workload_over(&run->cfg, run->wl, err, sizeof(err)) != 0) {
        cm_rc_error(rc, cm_rc_get(rc, "NFS_VERSION"), "%s", err);
        run->wl = NULL;
        return;
    } else {
        snprintf(word, sizeof(word), "--workload=%s", run->wl->name);
        pass_on(run, rc, word);
    }
    n = ld_config_sets(&run->cfg, sets, CM_ARRAY_LEN(sets));
    for (k = 1; k < n; k++) {
        const struct ld_opt_group *g = run->cfg.group[k - 1].g;
        int mine = run->wl == NULL || ld_workload_reads(run->wl, g);

        for (i = 0; i < g->nrows; i++) {
            const struct cm_rc_var *v =
                g->rows[i].rc_name ? cm_rc_get(rc, g->rows[i].rc_name) : NULL;
            unsigned char src = CM_SRC_DEFAULT;

            if (v == NULL || v->value[0] == '\0')
                continue;
            if (!mine) {
                cl_workload_readers(g, err, sizeof(err));
                cm_rc_error(rc, v, "an option of the %s workload; this run's is %s", err,
                            run->wl->name);
                continue;
            }
            if (one_option(run, rc, &g->rows[i], sets[k].base, &src, word, sizeof(word)))
                pass_on(run, rc, word);
        }
    }
}

static int is_local(const char *host)
{
    char me[256] = "";

    if (strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
        strcmp(host, "::1") == 0)
        return 1;
    if (gethostname(me, sizeof(me) - 1) == 0 && strcmp(host, me) == 0)
        return 1;
    return 0;
}

static void resolve_clients(struct pr_run *run, struct cm_rc *rc)
{
    const struct cm_rc_var *v = cm_rc_get(rc, "CLIENTS");
    char **w = NULL;
    int n, i;

    if (v == NULL || (n = cm_rc_split(v->value, &w, PR_MAX_CLIENTS + 1)) == 0) {
        free(w);
        cm_rc_error(rc, v, "%s",
                    v ? "must name at least one client"
                      : "CLIENTS must name at least one client (it is not set)");
        return;
    }
    if (n < 0) {
        cm_rc_error(rc, v, "more than %d clients", PR_MAX_CLIENTS);
        return;
    }
    pr_keep(run, w);
    run->clients = pr_keep(run, cm_calloc((size_t)n, sizeof(*run->clients)));
    if (run->clients == NULL)
        return;
    run->nclients = (unsigned)n;
    for (i = 0; i < n; i++) {
        struct pr_client *c = &run->clients[i];
        c->num = (unsigned)i + 1;
        c->host = w[i];
        if (!pr_valid_host(w[i]))
            cm_rc_error(rc, v, "'%s' is not a host name or address", w[i]);
        c->local = is_local(w[i]);
        run->any_remote |= !c->local;
    }
}

static int parse_load(struct cm_rc *rc, const struct cm_rc_var *v, const char *word,
                      long *out)
{
    char err[256];
    int64_t x;

    if (cm_parse_i64("LOAD", word, 1, 100000000, &x, err, sizeof(err)) < 0)
        return cm_rc_error(rc, v, "'%s' is not a load in ops/s (1..100000000) or auto",
                           word);
    *out = (long)x;
    return 0;
}

static void resolve_points(struct pr_run *run, struct cm_rc *rc)
{
    const struct cm_rc_var *v = cm_rc_get(rc, "LOAD");
    long incr, nruns, first, x;
    char **w = NULL;
    int n, i;

    if ((v == NULL || v->value[0] == '\0') && run->wl->rc_points && run->nclients) {
        /* a workload whose points are its own (a replay's speeds): LOAD
         * plays no part; each client gets a nominal 1 */
        run->points = pr_keep(run, cm_calloc(1, sizeof(*run->points)));
        if (run->points != NULL) {
            run->points[0] = run->nclients;
            run->npoints = 1;
        }
        return;
    }
    if (v == NULL || v->value[0] == '\0') {
        cm_rc_error(rc, v, "%smust be set (the aggregate load of each point)",
                    v ? "" : "LOAD ");
        return;
    }
    n = cm_rc_split(v->value, &w, PR_MAX_POINTS);
    if (n < 0) {
        cm_rc_error(rc, v, "more than %d load points", PR_MAX_POINTS);
        return;
    }
    pr_keep(run, w);
    if (n == 1 && strcasecmp(w[0], "auto") == 0) {
        /* a search for the peak first (search.c), then NUM_RUNS points */
        if (get_int_in(rc, "NUM_RUNS", PR_AUTO_POINTS, 2, PR_MAX_POINTS, &nruns) < 0)
            return;
        if (get_int(rc, "INCR_LOAD", 0, &incr) == 0 &&
            incr != 0) /* the template's 0 is none */
            cm_rc_warning(rc, cm_rc_get(rc, "INCR_LOAD"),
                          "LOAD=auto spaces its points itself: INCR_LOAD is ignored");
        run->auto_points = (unsigned)nruns;
        run->points = pr_keep(run, cm_calloc(1, sizeof(*run->points)));
        if (run->points == NULL)
            return;
        run->points[0] = PR_AUTO_FIRST; /* per client: set once the clients are known */
        run->npoints = 1;
        return;
    }
    if (get_int(rc, "INCR_LOAD", 0, &incr) < 0 || get_int(rc, "NUM_RUNS", 1, &nruns) < 0)
        return;
    if (n == 1) {
        if (parse_load(rc, v, w[0], &first) < 0)
            return;
        if (nruns > 1 && incr == 0) {
            cm_rc_error(rc, cm_rc_get(rc, "NUM_RUNS"),
                        "%ld points need INCR_LOAD above 0 (or a list in LOAD)", nruns);
            return;
        }
        n = (int)nruns;
    } else if (nruns > 1 || incr > 0) {
        cm_rc_warning(rc, v, "a list of points: INCR_LOAD and NUM_RUNS are ignored");
    }
    run->points = pr_keep(run, cm_calloc((size_t)n, sizeof(*run->points)));
    if (run->points == NULL)
        return;
    for (i = 0; i < n; i++) {
        if (w[1] == NULL)
            x = first + incr * i;
        else if (parse_load(rc, v, w[i], &x) < 0)
            return;
        if (i > 0 && x <= (long)run->points[i - 1]) {
            cm_rc_error(rc, v, "load points must increase (%s)", v->value);
            return;
        }
        run->points[i] = (unsigned)x;
    }
    run->npoints = (unsigned)n;
}

/* A workload whose points are not LOAD's (a replay: one per speed of
 * TRACE_SPEED): its points, each at the load LOAD names first (a replay's
 * load is its trace's). */
static void resolve_workload_points(struct pr_run *run, struct cm_rc *rc)
{
    unsigned k, *pts;
    int n;

    if (run->wl == NULL || run->wl->rc_points == NULL || run->npoints == 0)
        return;
    run->values = pr_keep(run, cm_calloc(PR_MAX_POINTS, sizeof(*run->values)));
    if (run->values == NULL) {
        cm_rc_error(rc, NULL, "out of memory");
        return;
    }
    n = run->wl->rc_points(rc, run->npoints, run->values, PR_MAX_POINTS);
    if (n <= 0)
        return;
    pts = pr_keep(run, cm_calloc((size_t)n, sizeof(*pts)));
    if (pts == NULL) {
        cm_rc_error(rc, NULL, "out of memory");
        return;
    }
    for (k = 0; k < (unsigned)n; k++)
        pts[k] = run->points[0];
    run->points = pts;
    run->npoints = (unsigned)n;
    if (run->wl->point_set)
        run->wl->point_set(&run->cfg, &run->values[0]);
}

/* One client's mount points from the words w[0..n). */
static void set_mounts(struct pr_run *run, struct cm_rc *rc, const struct cm_rc_var *v,
                       struct pr_client *c, char **w, int n)
{
    char err[CM_ERR_LEN];
    int i;

    c->mounts = w;
    c->nmounts = n;
    for (i = 0; i < n; i++) {
        struct nf_mount_spec spec;
        if (nf_parse_mount_spec(w[i], &spec, err, sizeof(err)) < 0)
            cm_rc_error(rc, v, "%s", err);
        else
            check_word(rc, v, w[i]);
    }
    (void)run;
}

/* MNT_POINTS given as a file of "client host:path ..." lines: client k takes
 * the j-th line naming its host, j = how often the host came before. */
static void mounts_from_file(struct pr_run *run, struct cm_rc *rc,
                             const struct cm_rc_var *v)
{
    const char *path = find_file(run, rc, v, v->value);
    char *text = NULL, err[CM_ERR_LEN];
    struct cm_rc_var at;
    size_t len;
    unsigned k;
    char **lines;
    int nlines, i;

    if (path == NULL || cm_text_read(path, &text, &len, NULL, err, sizeof(err)) < 0) {
        if (path)
            cm_rc_error(rc, v, "%s", err);
        return;
    }
    pr_keep(run, text);
    /* split into lines, each then into words */
    nlines = 1;
    for (i = 0; text[i]; i++)
        nlines += text[i] == '\n';
    lines = pr_keep(run, cm_calloc((size_t)nlines + 1, sizeof(*lines)));
    if (lines == NULL)
        return;
    lines[0] = text;
    for (i = 0, nlines = 1; text[i]; i++)
        if (text[i] == '\n') {
            text[i] = '\0';
            lines[nlines++] = text + i + 1;
        }
    at.name = (char *)path;
    for (k = 0; k < run->nclients; k++) {
        struct pr_client *c = &run->clients[k];
        unsigned before = 0, j, seen = 0;
        for (j = 0; j < k; j++)
            before += strcmp(run->clients[j].host, c->host) == 0;
        for (i = 0; i < nlines; i++) {
            char **w = NULL;
            int n = cm_rc_split(lines[i], &w, LD_MAX_MOUNTS + 1);
            if (n <= 0 || w[0][0] == '#' || strcmp(w[0], c->host) != 0 ||
                seen++ != before) {
                free(w);
                continue;
            }
            pr_keep(run, w);
            at.line = i + 1;
            at.value = lines[i];
            if (n - 1 != run->procs && n - 1 != 1)
                cm_rc_error(rc, &at, "%d mount points for client %s: give PROCS (%d)",
                            n - 1, c->host, run->procs);
            set_mounts(run, rc, &at, c, w + 1, n - 1);
            break;
        }
        if (c->mounts == NULL) {
            struct cm_pos pos = {path, 0, -1};
            char msg[512];
            cm_report_buf(msg, sizeof(msg), &pos, CM_ERROR, "no line for client %u (%s)",
                          c->num, c->host);
            cm_rc_error(rc, v, "%s", msg);
        }
    }
}

static void resolve_mounts(struct pr_run *run, struct cm_rc *rc)
{
    const struct cm_rc_var *v = cm_rc_get(rc, "MNT_POINTS");
    char **w = NULL;
    unsigned k;
    int n;

    if (v == NULL || v->value[0] == '\0') {
        cm_rc_error(rc, v, "%smust be supplied (server:path entries or a file)",
                    v ? "" : "MNT_POINTS ");
        return;
    }
    if (run->nclients == 0 || run->procs <= 0)
        return;
    n = cm_rc_split(v->value, &w, LD_MAX_MOUNTS * PR_MAX_CLIENTS);
    if (n < 0) {
        cm_rc_error(rc, v, "too many mount points");
        return;
    }
    pr_keep(run, w);
    if (n == 1 && strchr(w[0], ':') == NULL) {
        mounts_from_file(run, rc, v);
        return;
    }
    if (n != 1 && n != run->procs && n != run->procs * (int)run->nclients) {
        cm_rc_error(rc, v,
                    "%d mount points for %d client(s) of %d processes: give PROCS (%d), "
                    "PROCS x clients (%d) or one",
                    n, run->nclients, run->procs, run->procs,
                    run->procs * (int)run->nclients);
        return;
    }
    for (k = 0; k < run->nclients; k++) {
        int first = n == run->procs * (int)run->nclients && n != run->procs
                        ? (int)k * run->procs
                        : 0;
        set_mounts(run, rc, v, &run->clients[k], w + first, n == 1 ? 1 : run->procs);
    }
}

/* RSH, SFS_USER, PRIME_* and the monitor script. */
static void resolve_prime(struct pr_run *run, struct cm_rc *rc)
{
    const struct cm_rc_var *v;
    long x;
    int n, i;

    n = cm_rc_split(cm_rc_value(rc, "RSH", "ssh -o BatchMode=yes"), &run->rsh, 64);
    if (n <= 0)
        cm_rc_error(rc, cm_rc_get(rc, "RSH"), "must name a remote shell");
    else
        pr_keep(run, run->rsh);
    run->nrsh = n > 0 ? n : 0;
    for (i = 0; i < run->nrsh; i++) { /* a template knows %h, %u and %% */
        const char *pc = run->rsh[i];
        while ((pc = strchr(pc, '%')) != NULL && pc[1] && strchr("hu%", pc[1]))
            pc += 2;
        if (pc && pr_rsh_template(run))
            cm_rc_error(rc, cm_rc_get(rc, "RSH"),
                        "'%s': a launcher template knows %%h (host), %%u (user) and %%%% "
                        "('%%')",
                        run->rsh[i]);
    }
    run->sfs_user = keep_str(run, cm_rc_value(rc, "SFS_USER", ""));
    if (run->sfs_user && !valid_user(run->sfs_user))
        cm_rc_error(rc, cm_rc_get(rc, "SFS_USER"), "'%s' is not a user name",
                    run->sfs_user);
    run->prime_host = keep_str(run, cm_rc_value(rc, "PRIME_HOST", ""));
    if (run->prime_host && run->prime_host[0] && !pr_valid_host(run->prime_host))
        cm_rc_error(rc, cm_rc_get(rc, "PRIME_HOST"), "'%s' is not a host name or address",
                    run->prime_host);
    if (get_int(rc, "PRIME_SLEEP", 0, &x) == 0)
        run->prime_sleep = (int)x;
    if (get_int(rc, "PRIME_TIMEOUT", 400, &x) == 0)
        run->prime_timeout = x > 0 ? (int)x : 400; /* 0: the default, as SFS 2008 */
    if (get_int(rc, "PRIME_PORT", 0, &x) == 0)
        run->prime_port = (int)x;
    v = cm_rc_get(rc, "PRIME_MON_SCRIPT");
    if (v && v->value[0]) {
        run->mon_script = find_file(run, rc, v, v->value);
        if (run->mon_script && access(run->mon_script, X_OK) != 0)
            cm_rc_error(rc, v, "%s is not executable", run->mon_script);
        n = cm_rc_split(cm_rc_value(rc, "PRIME_MON_ARGS", ""), &run->mon_args, 256);
        if (n >= 0) {
            pr_keep(run, run->mon_args);
            run->nmon_args = n;
        } else {
            cm_rc_error(rc, cm_rc_get(rc, "PRIME_MON_ARGS"), "%s",
                        n == -E2BIG ? "more than 256 words" : "out of memory");
        }
    }
}

static void dirs(struct pr_run *run, struct cm_rc *rc, const char *rc_path)
{
    char cwd[LD_PATH_MAX], buf[LD_PATH_MAX * 2 + 2], self[LD_PATH_MAX];
    const char *w = cm_rc_value(rc, "WORK_DIR", "result");
    const char *d = cm_rc_value(rc, "SFS_DIR", "");
    const char *rc_dir;
    ssize_t n;

    if (getcwd(cwd, sizeof(cwd)) == NULL)
        snprintf(cwd, sizeof(cwd), ".");
    snprintf(buf, sizeof(buf), "%s", rc_path);
    rc_dir = dirname(buf);
    /* "my_rc" is in cwd itself, not in "cwd/." */
    if (strcmp(rc_dir, ".") == 0)
        snprintf(run->rc_dir, sizeof(run->rc_dir), "%s", cwd);
    else
        absolute(cwd, rc_dir, run->rc_dir, sizeof(run->rc_dir));
    absolute(cwd, rc_path, run->rc_path, sizeof(run->rc_path));
    absolute(cwd, w, buf, sizeof(buf));
    run->work_dir = keep_str(run, buf);
    if (pr_unsafe_char(buf))
        cm_rc_error(rc, cm_rc_get(rc, "WORK_DIR"),
                    "'%s': the character '%c' is not allowed", buf, pr_unsafe_char(buf));
    if (d[0] == '\0') {
        n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        self[n > 0 ? n : 0] = '\0';
        d = n > 0 ? dirname(self) : cwd;
    }
    absolute(cwd, d, buf, sizeof(buf));
    run->sfs_dir = keep_str(run, buf);
    if (pr_unsafe_char(buf))
        cm_rc_error(rc, cm_rc_get(rc, "SFS_DIR"),
                    "'%s': the character '%c' is not allowed", buf, pr_unsafe_char(buf));
}

/* FNV-1a of WORK_DIR: the clients' pid files of two runs never collide. */
static void make_tag(struct pr_run *run)
{
    uint64_t h = 1469598103934665603ull;
    const char *p;

    for (p = run->work_dir; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(run->tag, sizeof(run->tag), "%016llx", (unsigned long long)h);
}

static void resolve_suffix(struct pr_run *run, struct cm_rc *rc, const char *suffix)
{
    char buf[LD_PATH_MAX], *p;
    const char *s = suffix ? suffix : cm_rc_value(rc, "SUFFIX", NULL);

    if (s == NULL) { /* the rc file's name without "_rc" */
        snprintf(buf, sizeof(buf), "%s", run->rc_path);
        s = basename(buf);
        p = strstr(s, "_rc");
        if (p && p[3] == '\0' && p != s)
            *p = '\0';
    }
    run->suffix = keep_str(run, s);
    if (run->suffix && !pr_valid_suffix(run->suffix)) {
        if (suffix)
            cm_rc_error(rc, NULL,
                        "-s %s: a suffix is 1-64 letters, digits, '.', '_' or '-'",
                        suffix);
        else
            cm_rc_error(rc, cm_rc_get(rc, "SUFFIX"),
                        "'%s' is not a suffix (1-64 letters, digits, '.', '_' or '-'); "
                        "give one with -s",
                        s);
    }
}

/* The clients' own parser has the last word: one client's command line
 * must pass ld_options_parse. */
static void final_check(struct pr_run *run, struct cm_rc *rc)
{
    char *argv[PR_ARGV_MAX], buf[PR_ARGBUF], err[CM_ERR_LEN];
    static struct ld_config cfg; /* large: not on the stack */
    const struct ld_workload_ops *const *wl;
    size_t nwl;
    int argc, code;

    if (rc->errors || run->nclients == 0 || run->npoints == 0)
        return;
    argc = pr_client_argv(run, &run->clients[0], 0, run->points[0], "localhost", 1, argv,
                          PR_ARGV_MAX, buf, sizeof(buf));
    if (argc < 0) {
        cm_rc_error(rc, NULL, "a client's command line would be too long");
        return;
    }
    wl = cl_workloads(&nwl);
    if (ld_options_parse(&cfg, run->nfs_version, wl, nwl, argc, argv, &code, err,
                         sizeof(err)) < 0)
        cm_rc_error(rc, NULL, "the clients would refuse their options: %s", err);
}

int pr_run_load(struct pr_run *run, const char *rc_path, const char *suffix, FILE *diag)
{
    return pr_run_load_as(run, rc_path, suffix, diag, NULL);
}

int pr_run_load_as(struct pr_run *run, const char *rc_path, const char *suffix,
                   FILE *diag, const char *workload)
{
    struct cm_rc rc;
    long version;
    unsigned k;
    int r;

    memset(run, 0, sizeof(*run));
    run->forced_workload = workload;
    r = cm_rc_load(&rc, rc_path, known_name, NULL, diag, NULL, 0);
    if (r < 0 && rc.n == 0 && rc.file == NULL) {
        cm_rc_free(&rc);
        return -EINVAL;
    }
    dirs(run, &rc, rc_path);
    if (get_int(&rc, "NFS_VERSION", 2, &version) < 0)
        version = 2;
    run->nfs_version = (int)version;
    run->prog = nf_proto_by_version(run->nfs_version)->prog;
    resolve_suffix(run, &rc, suffix);
    resolve_clients(run, &rc);
    resolve_options(run, &rc);
    resolve_workload(run, &rc);
    resolve_points(run, &rc);
    resolve_workload_points(run, &rc);
    resolve_mounts(run, &rc);
    resolve_prime(run, &rc);
    make_tag(run);
    if (run->auto_points && run->nclients) {
        run->points[0] = PR_AUTO_FIRST * run->nclients * (unsigned)run->procs;
        if (run->wl && !(run->wl->report->flags & LD_REPORT_LOAD))
            cm_rc_error(&rc, cm_rc_get(&rc, "LOAD"),
                        "auto searches the peak of a load in ops/s: this workload's "
                        "points are not LOAD's");
    }
    if (run->nomem) { /* a NULL where a value should be: check nothing more */
        cm_rc_error(&rc, NULL, "out of memory");
        cm_rc_free(&rc);
        return -EINVAL;
    }
    for (k = 0; k < run->npoints && run->nclients; k++)
        if (run->points[k] / run->nclients == 0)
            cm_rc_error(&rc, cm_rc_get(&rc, "LOAD"),
                        "%u ops/s over %u clients leaves 0 per client", run->points[k],
                        run->nclients);
        else if (run->points[k] % run->nclients && run->values == NULL)
            /* SFS splits the load evenly and drops the rest: say so before
             * the report and sfssum show a smaller requested load. */
            cm_rc_warning(&rc, cm_rc_get(&rc, "LOAD"),
                          "%u ops/s over %u clients: %u per client, %u in all",
                          run->points[k], run->nclients, run->points[k] / run->nclients,
                          run->points[k] / run->nclients * run->nclients);
    run->cfg.nfs_version = run->nfs_version;
    if (run->npoints && run->nclients) {
        size_t n, i;
        const struct cm_opt *t = ld_options_table(&n);

        run->cfg.load = (int)(run->points[0] / run->nclients);
        /* the per-client load comes from LOAD: the results say so */
        for (i = 0; i < n; i++)
            if (t[i].long_name && strcmp(t[i].long_name, "load") == 0)
                run->cfg.src[i] = CM_SRC_RC;
    }
    final_check(run, &rc);
    if (!rc.errors && run->values && run->wl && run->wl->rc_check)
        run->wl->rc_check(&rc, &run->cfg, run->values, run->npoints);
    r = rc.errors ? -EINVAL : 0;
    cm_rc_free(&rc);
    return r;
}
