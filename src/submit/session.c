/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session.c - sfs_generate's questions (sb.h: sb_ask, sb_session), in the
 * order of SFS 3.0's generate (docs/SFS30.md §20.2): the menu [1] prompt for
 * the static information, [2] import it from a file, [3] exit; then the rc
 * file and the sfssum file of the run; then each client of CLIENTS, its
 * load-generator type and network (from the static information's lists)
 * and comments; then the name of the submission file.  A question asks
 * again after an answer it cannot use; the end of the input stops the tool
 * before anything is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/text.h"
#include "submit/sb.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/num.h"

int sb_ask(FILE *in, FILE *out, const char *prompt, char *buf, size_t len)
{
    for (;;) {
        size_t n, a;
        int c;

        fputs(prompt, out);
        fflush(out);
        if (fgets(buf, (int)len, in) == NULL) {
            fputc('\n', out);
            return -ENODATA;
        }
        n = strlen(buf);
        if (n == len - 1 && buf[n - 1] != '\n' && !feof(in)) {
            while ((c = fgetc(in)) != EOF && c != '\n')
                ;
            fprintf(out,
                    "That answer is longer than %zu characters; please shorten it.\n",
                    len - 2);
            continue;
        }
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' ||
                         buf[n - 1] == '\t'))
            buf[--n] = '\0';
        a = strspn(buf, " \t");
        memmove(buf, buf + a, n - a + 1);
        return 0;
    }
}

/* ---- the questions of [1] ------------------------------------------------------------
 */

/* Asks one field; multi-line fields take lines up to an empty one. */
static int ask_field(FILE *in, FILE *out, const struct sb_field *f, const char *path,
                     char **val)
{
    char prompt[512], line[CM_TEXT_LINE_MAX];
    char *v = NULL;
    size_t len = 0;
    int rc;

    snprintf(prompt, sizeof(prompt), "%s%s [%s]: ", f->question,
             f->flags & SB_F_MULTI ? " (one or more lines, an empty line ends)" : "",
             path);
    for (;;) {
        rc = sb_ask(in, out, v ? "> " : prompt, line, sizeof(line));
        if (rc < 0) {
            free(v);
            return rc;
        }
        if (line[0] == '\0') {
            if (v || (f->flags & SB_F_OPTIONAL))
                break;
            fprintf(out,
                    "Please answer (write none when there is nothing to disclose).\n");
            continue;
        }
        {
            size_t add = strlen(line);
            char *nv = cm_realloc(v, len + add + 2);
            if (nv == NULL) {
                free(v);
                return -ENOMEM;
            }
            v = nv;
            if (len)
                v[len++] = '\n';
            memcpy(v + len, line, add + 1);
            len += add;
        }
        if (!(f->flags & SB_F_MULTI))
            break;
    }
    free(*val);
    *val = v;
    return 0;
}

static int ask_count(FILE *in, FILE *out, const char *what, const char *path, size_t *n)
{
    char prompt[256], line[64], err[128];
    int64_t v;
    int rc;

    snprintf(prompt, sizeof(prompt), "Number of %s [%s]: ", what, path);
    for (;;) {
        if ((rc = sb_ask(in, out, prompt, line, sizeof(line))) < 0)
            return rc;
        if (cm_parse_i64(what, line, 1, SB_MAX_TYPES, &v, err, sizeof(err)) == 0) {
            *n = (size_t)v;
            return 0;
        }
        fprintf(out, "%s\n", err);
    }
}

/* A list of records (types or networks); names must differ. */
static int ask_list(FILE *in, FILE *out, const char *what, const char *key,
                    struct sb_record *recs, size_t *nrecs, const struct sb_field *t,
                    size_t nt)
{
    size_t n, i, f, j;
    int rc;

    if ((rc = ask_count(in, out, what, key, &n)) < 0)
        return rc;
    for (i = 0; i < n; i++) {
        *nrecs = i + 1; /* so that sb_info_free frees a half-asked one too */
        fprintf(out, "---- %s %zu of %zu\n", what, i + 1, n);
        for (f = 0; f < nt; f++) {
            char path[128];

            snprintf(path, sizeof(path), "%s.%zu.%s", key, i + 1, t[f].path);
            for (;;) {
                if ((rc = ask_field(in, out, &t[f], path, &recs[i].vals[f])) < 0)
                    return rc;
                for (j = 0; f == 0 && j < i; j++)
                    if (strcmp(recs[j].vals[0], recs[i].vals[0]) == 0)
                        break;
                if (f != 0 || j == i)
                    break;
                fprintf(out, "The name '%s' is taken; give another.\n", recs[i].vals[0]);
            }
        }
    }
    return 0;
}

/* Asks for every field of the static information ([1]).  Returns 0, or
 * -ENODATA when the input ended (info is then freed). */
static int prompt_info(struct sb_info *info, FILE *in, FILE *out)
{
    size_t i, nf, nlg, nnet;
    const struct sb_field *info_fields = sb_info_fields(&nf);
    const struct sb_field *lg_fields = sb_lg_fields(&nlg);
    const struct sb_field *net_fields = sb_net_fields(&nnet);
    int rc;

    memset(info, 0, sizeof(*info));
    for (i = 0; i < nf; i++) {
        if (info_fields[i].path == NULL) {
            fprintf(out, "---- %s\n", info_fields[i].question);
            continue;
        }
        rc = ask_field(in, out, &info_fields[i], info_fields[i].path, &info->top.vals[i]);
        if (rc < 0)
            goto fail;
    }
    rc = ask_list(in, out, "load-generator types", "load_generator_types", info->types,
                  &info->ntypes, lg_fields, nlg);
    if (rc == 0)
        rc = ask_list(in, out, "networks", "networks", info->nets, &info->nnets,
                      net_fields, nnet);
    if (rc == 0)
        return 0;
fail:
    sb_info_free(info);
    return rc;
}

/* A choice among names (by name or number); RETURN takes the first. */
static int ask_choice(FILE *in, FILE *out, const char *what, const struct sb_record *recs,
                      size_t n, size_t *pick)
{
    char prompt[2048], line[256];
    size_t used, i;
    int rc;

    used = (size_t)snprintf(prompt, sizeof(prompt), "  %s (", what);
    for (i = 0; i < n && used < sizeof(prompt); i++)
        used += (size_t)snprintf(prompt + used, sizeof(prompt) - used, "%s%zu = %s",
                                 i ? ", " : "", i + 1, recs[i].vals[0]);
    if (used < sizeof(prompt))
        snprintf(prompt + used, sizeof(prompt) - used,
                 "; RETURN for %s): ", recs[0].vals[0]);
    for (;;) {
        char *end;
        unsigned long k;

        if ((rc = sb_ask(in, out, prompt, line, sizeof(line))) < 0)
            return rc;
        if (line[0] == '\0') {
            *pick = 0;
            return 0;
        }
        for (i = 0; i < n; i++)
            if (strcmp(line, recs[i].vals[0]) == 0) {
                *pick = i;
                return 0;
            }
        k = strtoul(line, &end, 10);
        if (*end == '\0' && k >= 1 && k <= n) {
            *pick = k - 1;
            return 0;
        }
        fprintf(out, "  '%s' is not in the list: give a %s by its name or number.\n",
                line, what);
    }
}

/* Asks for a file until load() accepts one. */
typedef int (*load_fn)(const char *path, void *ctx, FILE *diag, char *err, size_t errlen);

static int ask_file(FILE *in, FILE *out, FILE *diag, const char *prompt, load_fn load,
                    void *ctx, char *path, size_t len)
{
    char err[CM_ERR_LEN];
    int rc;

    for (;;) {
        if ((rc = sb_ask(in, out, prompt, path, len)) < 0)
            return rc;
        if (path[0] == '\0')
            continue;
        if (load(path, ctx, diag, err, sizeof(err)) == 0)
            return 0;
        fprintf(out,
                "That file cannot be used (the messages above say why); give another.\n");
    }
}

static int load_info(const char *path, void *ctx, FILE *diag, char *err, size_t errlen)
{
    return sb_info_load(path, ctx, diag, err, errlen);
}

static int load_rc(const char *path, void *ctx, FILE *diag, char *err, size_t errlen)
{
    struct cm_rc *rc = ctx;
    int r;

    cm_rc_free(rc);
    r = cm_rc_load(rc, path, NULL, NULL, diag, err, errlen);
    if (r == 0 && cm_rc_value(rc, "CLIENTS", "")[0] == '\0') {
        fprintf(diag, "%s: error: CLIENTS names no client\n", path);
        r = -EINVAL;
    }
    return r;
}

static int load_sum(const char *path, void *ctx, FILE *diag, char *err, size_t errlen)
{
    return sb_sum_load(path, ctx, diag, err, errlen);
}

/* The line of the rc file's NAME, for "FILE:LINE: " (0 when unassigned). */
static long rc_line(const struct cm_rc *rc, const char *name)
{
    const struct cm_rc_var *v = cm_rc_get(rc, name);

    return v ? v->line : 0;
}

/* The rc file and the sfssum file must be of the same run; a difference is
 * told at the rc file's line, so the user sees which file and line to mend. */
static int same_run(FILE *out, const struct cm_rc *rc, const struct sb_sum *sum,
                    int nclients)
{
    const char *pname = cm_rc_value(rc, "PROCS", "")[0] ? "PROCS" : "NUM_PROCS";
    const char *p = cm_rc_value(rc, pname, "");

    if ((unsigned)nclients != sum->pts[0].clients) {
        fprintf(out,
                "%s:%ld: the rc file names %d client(s), the sfssum file has %u: not the "
                "same run.\n",
                rc->file, rc_line(rc, "CLIENTS"), nclients, sum->pts[0].clients);
        return -1;
    }
    if (p[0] && strtoul(p, NULL, 10) != sum->pts[0].procs) {
        fprintf(out,
                "%s:%ld: the rc file has %s=%s, the sfssum file %u: not the same run.\n",
                rc->file, rc_line(rc, pname), pname, p, sum->pts[0].procs);
        return -1;
    }
    return 0;
}

/* The default name of the submission: sfssum.SFX gives SFX.submit. */
static void default_out(const char *sum_path, char *buf, size_t len)
{
    const char *base = strrchr(sum_path, '/');
    const char *dot;

    base = base ? base + 1 : sum_path;
    dot = strncmp(base, "sfssum.", 7) == 0 ? base + 7 : NULL;
    snprintf(buf, len, "%.*s%s.submit", (int)(base - sum_path), sum_path,
             dot && dot[0] ? dot : "sfs");
}

struct state {
    struct sb_given given;
    struct sb_info info;
    struct cm_rc rc;
    struct sb_sum *sum;
    char **clients;
    struct sb_client *cl;
    int ncl;
    char info_path[4096], rc_path[4096], sum_path[4096], out_path[4096];
};

static int ask_clients(FILE *in, FILE *out, struct state *s)
{
    int k, rc;

    for (k = 0; k < s->ncl; k++) {
        struct sb_client *c = &s->cl[k];

        c->host = s->clients[k];
        fprintf(out, "Client %d of %d: %s\n", k + 1, s->ncl, c->host);
        if ((rc = ask_choice(in, out, "load-generator type", s->info.types,
                             s->info.ntypes, &c->type)) < 0 ||
            (rc = ask_choice(in, out, "network", s->info.nets, s->info.nnets, &c->net)) <
                0 ||
            (rc = sb_ask(in, out, "  comments (RETURN for none): ", c->comments,
                         sizeof(c->comments))) < 0)
            return rc;
    }
    return 0;
}

static int ask_output(FILE *in, FILE *out, struct state *s)
{
    char dflt[4096], prompt[4200], yn[16];
    struct stat st;
    int rc;

    if (s->given.out && s->given.out[0]) {
        snprintf(s->out_path, sizeof(s->out_path), "%s", s->given.out);
        return 0;
    }
    default_out(s->sum_path, dflt, sizeof(dflt));
    snprintf(prompt, sizeof(prompt), "Name of the submission file [%s]: ", dflt);
    for (;;) {
        if ((rc = sb_ask(in, out, prompt, s->out_path, sizeof(s->out_path))) < 0)
            return rc;
        if (s->out_path[0] == '\0')
            snprintf(s->out_path, sizeof(s->out_path), "%s", dflt);
        if (stat(s->out_path, &st) != 0)
            return 0;
        if ((rc = sb_ask(in, out, "That file exists. Replace it? (y/n) [n]: ", yn,
                         sizeof(yn))) < 0)
            return rc;
        if (yn[0] == 'y' || yn[0] == 'Y')
            return 0;
    }
}

/* A file the command line named: loaded, or the session ends (-EINVAL)
 * with the loader's FILE:LINE messages on diag.  1 when none was named. */
static int given_file(FILE *diag, const char *what, const char *given, load_fn load,
                      void *ctx, char *path, size_t len)
{
    char err[CM_ERR_LEN];

    if (given == NULL || given[0] == '\0')
        return 1;
    snprintf(path, len, "%s", given);
    if (load(path, ctx, diag, err, sizeof(err)) == 0)
        return 0;
    fprintf(diag, "sfs_generate: %s %s cannot be used (the messages above say why)\n",
            what, given);
    return -EINVAL;
}

static int menu(FILE *in, FILE *out, FILE *diag, struct state *s)
{
    char line[64];
    int rc;

    rc = given_file(diag, "--info", s->given.info, load_info, &s->info, s->info_path,
                    sizeof(s->info_path));
    if (rc <= 0) {
        if (rc == 0)
            fprintf(out, "Static information: %s\n", s->info_path);
        return rc;
    }
    for (;;) {
        fprintf(out, "\n[1] Prompt user for static information\n"
                     "[2] Import static information from file\n"
                     "[3] Exit\n");
        if ((rc = sb_ask(in, out, "Choice: ", line, sizeof(line))) < 0)
            return rc;
        if (strcmp(line, "1") == 0) {
            snprintf(s->info_path, sizeof(s->info_path), "(answers to the questions)");
            return prompt_info(&s->info, in, out);
        }
        if (strcmp(line, "2") == 0)
            return ask_file(in, out, diag, "Static information file (YAML): ", load_info,
                            &s->info, s->info_path, sizeof(s->info_path));
        if (strcmp(line, "3") == 0)
            return 1;
        fprintf(out, "Please answer 1, 2 or 3.\n");
    }
}

static int run(FILE *in, FILE *out, FILE *diag, struct state *s)
{
    struct sb_run r;
    struct stat st;
    char date[32] = "unknown", err[CM_ERR_LEN];
    size_t blocks;
    int rc;

    if ((rc = menu(in, out, diag, s)) != 0)
        return rc;
    for (;;) {
        int grc = given_file(diag, "--rc", s->given.rc, load_rc, &s->rc, s->rc_path,
                             sizeof(s->rc_path));
        int gsum = grc < 0 ? 1
                           : given_file(diag, "--sfssum", s->given.sum, load_sum, s->sum,
                                        s->sum_path, sizeof(s->sum_path));

        if (grc < 0 || gsum < 0)
            return -EINVAL;
        if ((grc && (rc = ask_file(in, out, diag, "The rc file of the run: ", load_rc,
                                   &s->rc, s->rc_path, sizeof(s->rc_path))) < 0) ||
            (gsum &&
             (rc = ask_file(in, out, diag, "The sfssum file of the run: ", load_sum,
                            s->sum, s->sum_path, sizeof(s->sum_path))) < 0))
            return rc;
        free(s->clients);
        s->ncl =
            cm_rc_split(cm_rc_value(&s->rc, "CLIENTS", ""), &s->clients, SB_MAX_CLIENTS);
        if (s->ncl <= 0) {
            fprintf(out, "CLIENTS of the rc file: too many clients.\n");
            if (!grc) /* named on the command line: asking again cannot help */
                return -EINVAL;
            continue;
        }
        if (same_run(out, &s->rc, s->sum, s->ncl) == 0)
            break;
        if (!grc && !gsum) /* both named: asking again cannot help */
            return -EINVAL;
    }
    s->cl = cm_calloc((size_t)s->ncl, sizeof(*s->cl));
    if (s->cl == NULL)
        return -ENOMEM;
    if ((rc = ask_clients(in, out, s)) < 0 || (rc = ask_output(in, out, s)) < 0)
        return rc;
    if (stat(s->sum_path, &st) == 0) {
        struct tm tm;
        localtime_r(&st.st_mtime, &tm);
        strftime(date, sizeof(date), "%Y-%m-%d", &tm);
    }
    memset(&r, 0, sizeof(r));
    r.info_name = s->info_path;
    r.rc_name = s->rc_path;
    r.sum_name = s->sum_path;
    r.info = &s->info;
    r.rc = &s->rc;
    r.sum = s->sum;
    r.clients = s->cl;
    r.nclients = (size_t)s->ncl;
    r.test_date = date;
    if (sb_write(s->out_path, &r, &blocks, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_generate: %s\n", err);
        return SB_EXIT_WRITE;
    }
    fprintf(out, "Wrote %s: %d client(s) in %zu load-generator block(s), %zu point(s).\n",
            s->out_path, s->ncl, blocks, s->sum->n);
    fprintf(out, "Read it through before you send it (docs/generate.md).\n");
    return 0;
}

int sb_session(FILE *in, FILE *out, FILE *diag, const struct sb_given *given)
{
    struct state *s = cm_calloc(1, sizeof(*s));
    int rc;

    if (s == NULL || (s->sum = cm_calloc(1, sizeof(*s->sum))) == NULL) {
        free(s);
        fprintf(diag, "sfs_generate: out of memory\n");
        return SB_EXIT_WRITE;
    }
    if (given)
        s->given = *given;
    fprintf(out, "FreeSFS submission generator (SPEC SFS 3.0 disclosure)\n");
    rc = run(in, out, diag, s);
    sb_info_free(&s->info);
    cm_rc_free(&s->rc);
    free(s->clients);
    free(s->cl);
    free(s->sum);
    free(s);
    if (rc == -ENODATA) {
        fprintf(out, "sfs_generate: end of input; nothing was written.\n");
        return SB_EXIT_INPUT;
    }
    if (rc == 1)
        return SB_EXIT_OK; /* [3] Exit */
    if (rc == -EINVAL) {
        fprintf(out, "sfs_generate: nothing was written.\n");
        return SB_EXIT_WRITE;
    }
    if (rc < 0) {
        fprintf(diag, "sfs_generate: %s\n", strerror(-rc));
        return SB_EXIT_WRITE;
    }
    return rc;
}
