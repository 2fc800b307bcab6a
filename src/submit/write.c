/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * write.c - the submission file (sb.h: sb_write; docs/generate.md has the
 * format): "key = value" lines in [section]s, every disclosure item of the
 * SFS 3.0 run rules - identification and dates, server hardware and
 * software, network gear, the networks, one block per load generator
 * (blocks that differ only in tb_lg_number are merged into one listing the
 * numbers), the benchmark configuration (from the sfssum file and the rc
 * file), every point's throughput and response time with the overall
 * response time, and the notes.  A value of several lines repeats its key.
 * No clock is read: the same inputs give the same file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "submit/sb.h"
#include "common/alloc.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/atomic.h"

/* "key = value", one line per line of value. */
static void put(FILE *f, const char *key, const char *value)
{
    const char *p = value ? value : "";

    do {
        size_t n = strcspn(p, "\n");
        fprintf(f, "%s = %.*s\n", key, (int)n, p);
        p += n;
    } while (*p && *++p);
}

static void putf(FILE *f, const char *key, const char *fmt, ...) CM_PRINTF(3, 4);
static void putf(FILE *f, const char *key, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    put(f, key, buf);
}

/* The fields of a table from first up to the next heading. */
static void fields(FILE *f, const struct sb_field *t, size_t nt, size_t first,
                   const struct sb_record *r, const struct sb_run *run)
{
    size_t i;

    for (i = first; i < nt && t[i].path; i++) {
        const char *v = r->vals[i];
        if (strcmp(t[i].path, "test_date") == 0 && v == NULL)
            v = run->test_date;
        put(f, t[i].key, v);
    }
}

/* One load generator's block without its number (merging compares these). */
static char *lg_block(const struct sb_run *run, const struct sb_client *c)
{
    const struct sb_record *ty = &run->info->types[c->type];
    const struct sb_field *t;
    char *buf = NULL;
    size_t len = 0, nt, i;
    FILE *f = open_memstream(&buf, &len);

    if (f == NULL)
        return NULL;
    t = sb_lg_fields(&nt);
    for (i = 0; i < nt; i++)
        put(f, t[i].key, ty->vals[i]);
    put(f, "tb_lg_network", run->info->nets[c->net].vals[0]);
    put(f, "tb_lg_comments", c->comments[0] ? c->comments : "none");
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The blocks, merged; returns how many were written or -ENOMEM. */
static int lg_blocks(FILE *f, const struct sb_run *run)
{
    char **text = cm_calloc(run->nclients + 1, sizeof(*text));
    size_t i, j;
    int blocks = 0, rc = 0;

    if (text == NULL)
        return -ENOMEM;
    for (i = 0; i < run->nclients && rc == 0; i++)
        if ((text[i] = lg_block(run, &run->clients[i])) == NULL)
            rc = -ENOMEM;
    for (i = 0; i < run->nclients && rc == 0; i++) {
        if (text[i] == NULL || text[i][0] == '\0')
            continue; /* merged into an earlier block */
        fprintf(f, "\n[load_generator]\ntb_lg_number = %zu", i + 1);
        for (j = i + 1; j < run->nclients; j++)
            if (text[j][0] && strcmp(text[i], text[j]) == 0) {
                fprintf(f, " %zu", j + 1);
                text[j][0] = '\0';
            }
        fprintf(f, "\n%s", text[i]);
        blocks++;
    }
    for (i = 0; i < run->nclients; i++)
        free(text[i]);
    free(text);
    return rc < 0 ? rc : blocks;
}

/* How the clients use the server's file systems: MNT_POINTS as the rc file
 * gives it - a list (PROCS x clients entries: client k takes the k-th group;
 * otherwise every client uses the list), or a file of "client mounts..."
 * lines beside the rc file. */
static void fs_config(FILE *f, const struct sb_run *run, unsigned procs)
{
    const char *mp = cm_rc_value(run->rc, "MNT_POINTS", "");
    char **w = NULL;
    int n = cm_rc_split(mp, &w, 1000000), k, i;

    if (n == 1 && strchr(w[0], ':') == NULL) {
        char path[4096], *text = NULL;
        const char *slash = strrchr(run->rc_name, '/');
        size_t len;

        snprintf(path, sizeof(path), "%.*s%s",
                 slash ? (int)(slash - run->rc_name + 1) : 0, run->rc_name, w[0]);
        if (cm_text_read(path, &text, &len, NULL, NULL, 0) == 0) {
            struct cm_text t;
            const char *l;
            long line;

            cm_text_init(&t, path, text, len, NULL, NULL, 0);
            while ((l = cm_text_next(&t, &line)) != NULL)
                if (!cm_text_blank(l) && l[strspn(l, " \t")] != '#')
                    put(f, "tb_fs_config", l + strspn(l, " \t"));
            free(text);
        } else
            putf(f, "tb_fs_config", "mount point file %s (not found beside the rc file)",
                 w[0]);
    } else if (n > 0 && procs > 0 && run->nclients > 1 &&
               (size_t)n == procs * run->nclients) {
        for (k = 0; k < (int)run->nclients; k++) {
            char line[8192];
            size_t used = (size_t)snprintf(line, sizeof(line), "client %d (%s):", k + 1,
                                           run->clients[k].host);
            for (i = 0; i < (int)procs && used < sizeof(line); i++)
                used += (size_t)snprintf(line + used, sizeof(line) - used, " %s",
                                         w[k * (int)procs + i]);
            put(f, "tb_fs_config", line);
        }
    } else if (n > 0)
        putf(f, "tb_fs_config", "every client: %s", mp);
    else
        put(f, "tb_fs_config", "none given");
    free(w);
}

static void configuration(FILE *f, const struct sb_run *run)
{
    const struct sb_point *first = &run->sum->pts[0], *last;
    const char *mon = cm_rc_value(run->rc, "PRIME_MON_SCRIPT", "");
    size_t i, k;

    last = &run->sum->pts[run->sum->n - 1];
    for (i = 0; i < run->sum->n; i++)
        if (run->sum->pts[i].requested >= last->requested)
            last = &run->sum->pts[i];
    fprintf(f, "\n[benchmark_configuration]\n");
    putf(f, "tb_nfs_version", "%d", first->nfs_version);
    put(f, "tb_transport", first->transport == 'T' ? "TCP" : "UDP");
    putf(f, "tb_clients", "%u", first->clients);
    putf(f, "tb_procs_per_client", "%u", first->procs);
    putf(f, "tb_biod_max_read", "%u", first->biod_reads);
    putf(f, "tb_biod_max_write", "%u", first->biod_writes);
    putf(f, "tb_fileset_size_kb", "%llu", (unsigned long long)last->fileset_kb);
    fs_config(f, run, first->procs);
    if (mon[0])
        putf(f, "tb_prime_mon_script", "%s %s", mon,
             cm_rc_value(run->rc, "PRIME_MON_ARGS", ""));
    else
        put(f, "tb_prime_mon_script", "none");
    putf(f, "tb_sfs_version", "%s", first->version);
    for (k = 0; k < run->rc->n; k++) {
        char v[2048];
        size_t j;

        snprintf(v, sizeof(v), "%s=%s", run->rc->vars[k].name, run->rc->vars[k].value);
        for (j = 0; v[j]; j++)
            if (v[j] == '\n' || v[j] == '\t')
                v[j] = ' ';
        put(f, "tb_rc", v);
    }
}

static void results(FILE *f, const struct sb_run *run)
{
    double ort, peak;
    size_t valid = sb_sum_curve(run->sum, &ort, &peak), i;

    fprintf(f,
            "\n[results]\n"
            "# requested load, throughput (ops/s), average response time (ms);\n"
            "# an INVALID point gives its requested load only and is not on the curve\n");
    for (i = 0; i < run->sum->n; i++) {
        const struct sb_point *p = &run->sum->pts[i];
        if (p->invalid)
            putf(f, "result_point", "%llu INVALID", (unsigned long long)p->requested);
        else
            putf(f, "result_point", "%llu %.0f %.1f", (unsigned long long)p->requested,
                 p->ops, p->resp);
    }
    putf(f, "result_valid_points", "%zu", valid);
    putf(f, "result_peak_throughput", "%.0f", peak);
    putf(f, "result_overall_response_ms", "%.2f", ort);
}

static int write_all(FILE *f, const struct sb_run *run, size_t *blocks)
{
    const struct sb_field *t, *lt;
    size_t nt, nl, i, k;
    double ort, peak;
    int v = run->sum->pts[0].nfs_version, nb;

    fprintf(f,
            "# FreeSFS submission file: the disclosure of an SFS 3.0 (SFS97_R1) run,\n"
            "# written by sfs_generate from\n"
            "#   static information: %s\n"
            "#   rc file:            %s\n"
            "#   results:            %s\n"
            "# Lines are \"key = value\"; a value of several lines repeats its key;\n"
            "# [section] lines group the keys (docs/generate.md).\n",
            run->info_name, run->rc_name, run->sum_name);
    put(f, "submission_format", "freesfs-sfs97r1 1");
    putf(f, "benchmark", "SPECsfs97_R1.v%d", v);
    if (sb_sum_curve(run->sum, &ort, &peak) > 0)
        putf(f, "metric",
             "%.0f SPECsfs97_R1.v%d ops per second with an overall response time of %.2f "
             "ms",
             peak, v, ort);
    else
        put(f, "metric", "none: no valid point");
    t = sb_info_fields(&nt);
    for (i = 0; i < nt; i++) {
        if (t[i].path != NULL)
            continue;
        if (strcmp(t[i].key, "notes") == 0)
            break; /* the notes come last */
        fprintf(f, "\n[%s]\n", t[i].key);
        fields(f, t, nt, i + 1, &run->info->top, run);
    }
    lt = sb_net_fields(&nl);
    for (k = 0; k < run->info->nnets; k++) {
        fprintf(f, "\n[network]\n");
        fields(f, lt, nl, 0, &run->info->nets[k], run);
    }
    nb = lg_blocks(f, run);
    if (nb < 0)
        return nb;
    *blocks = (size_t)nb;
    configuration(f, run);
    results(f, run);
    for (; i < nt; i++)
        if (t[i].path == NULL) {
            fprintf(f, "\n[%s]\n", t[i].key);
            fields(f, t, nt, i + 1, &run->info->top, run);
        }
    return 0;
}

int sb_write(const char *path, const struct sb_run *run, size_t *blocks, char *err,
             size_t errlen)
{
    struct cm_atomic_file af;
    int rc;

    *blocks = 0;
    if (run->sum->n == 0)
        return cm_errf(err, errlen, "no load point to disclose");
    rc = cm_atomic_open(&af, path, err, errlen);
    if (rc < 0)
        return rc;
    rc = write_all(af.fp, run, blocks);
    if (rc < 0) {
        cm_errf(err, errlen, "out of memory");
        cm_atomic_abort(&af);
        return rc;
    }
    return cm_atomic_commit(&af, err, errlen);
}
