/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_report.c - the NFSv4 tables of `sfs_trace stats` (nfs4_stats.c's
 * figures), after the NFSv2/v3 ones: NULL and COMPOUND as procedures, the
 * operations by their RFC names, the COMPOUND shapes by calls (the text
 * shows the first AZ_NFS4_SHAPES_SHOWN, the YAML every one kept), errors
 * by operation and status, opens, sessions and client ids.  The YAML puts
 * them under one key, "nfsv4", beside the v2/v3 keys (docs/sfs_trace.md
 * holds the schema).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_nfs.h"
#include "common/yaml.h"
#include "common/alloc.h"
#include "nfs/nf4.h"
#include "nfs4_prot.h"

#define AZ_NFS4_SHAPES_SHOWN 20

static const char *op_name(uint32_t op, char *buf, size_t len)
{
    const char *n = nf4_op_name(op);

    if (n)
        return n;
    snprintf(buf, len, "OP_%u", op);
    return buf;
}

/* A shape as its operations' names, "..." after them for a longer one. */
static const char *shape_text(const struct az_nfs4_shape *s, char *buf, size_t len)
{
    size_t o = 0;
    unsigned i;

    buf[0] = 0;
    for (i = 0; i < s->n && o < len; i++) {
        char nb[16];
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "",
                              op_name(s->ops[i], nb, sizeof(nb)));
    }
    if (s->more && o < len)
        snprintf(buf + o, len - o, "%s...", s->n ? " " : "");
    return buf;
}

static const struct az_nfs4_shape *sort_base;

static int by_calls(const void *a, const void *b)
{
    const struct az_nfs4_shape *x = &sort_base[*(const uint32_t *)a];
    const struct az_nfs4_shape *y = &sort_base[*(const uint32_t *)b];

    if (x->p.calls != y->p.calls)
        return x->p.calls > y->p.calls ? -1 : 1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* The shapes' indices, most calls first (NULL: no memory). */
static uint32_t *sorted_shapes(const struct az_nfs4_stats *v)
{
    uint32_t *ix = cm_calloc(v->nshapes ? v->nshapes : 1, sizeof(*ix));
    uint32_t i;

    if (!ix)
        return NULL;
    for (i = 0; i < v->nshapes; i++)
        ix[i] = i;
    sort_base = v->shapes;
    qsort(ix, v->nshapes, sizeof(*ix), by_calls);
    return ix;
}

static double pct(uint64_t n, uint64_t of)
{
    return of ? 100.0 * (double)n / (double)of : 0;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    size_t i;

    for (i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static double ms(int64_t ns)
{
    return (double)ns / 1e6;
}

/* A percentile of the opens' durations. */
static double open_ms(const struct az_nfs4_stats *v, double q)
{
    return az__nfs_quantile_ms(&v->open_time, q, v->open_min_ns, v->open_max_ns);
}

/* ---- text ------------------------------------------------------------------ */

static void opens_table(FILE *out, const struct az_nfs4_stats *v)
{
    fprintf(out,
            "\n%-26s %" PRIu64 " opened, %" PRIu64 " closed, %" PRIu64
            " still open at the end, %" PRIu64 " closed but opened before the trace\n",
            "NFSv4 opens", v->opens_ok, v->opens_closed, v->opens_held,
            v->closes_not_opened);
    if (v->opens_closed)
        fprintf(out, "%-26s mean %.3f, min %.3f, p50 %.3f, p99 %.3f, max %.3f ms\n",
                "open to close", ms(v->open_sum_ns) / (double)v->opens_closed,
                ms(v->open_min_ns), open_ms(v, 0.5), open_ms(v, 0.99),
                ms(v->open_max_ns));
    fprintf(out, "%-26s %" PRIu64 " given, %" PRIu64 " returned\n", "delegations",
            v->delegations, v->delegreturns);
}

static void sessions_table(FILE *out, const struct az_nfs_source *src,
                           const struct az_nfs4_stats *v)
{
    char id[33], host[64];
    uint32_t i;

    fprintf(out, "\n%-32s %-16s %10s %6s\n", "NFSv4 session", "client id", "compounds",
            "slots");
    for (i = 0; i < v->nsessions; i++) {
        const struct az_nfs4_session *s = &v->sessions[i];
        char cid[24] = "-";
        hex(s->id, 16, id);
        if (s->has_client)
            snprintf(cid, sizeof(cid), "%016" PRIx64, s->clientid);
        fprintf(out, "%-32s %-16s %10" PRIu64 " %6u\n", id, cid, s->compounds, s->slots);
    }
    fprintf(out, "\n%-16s %-40s %8s %10s\n", "NFSv4 client id", "host", "sessions",
            "compounds");
    for (i = 0; i < v->nclients; i++) {
        const struct az_nfs4_client *c = &v->clients[i];
        fprintf(out, "%016" PRIx64 " %-40s %8" PRIu64 " %10" PRIu64 "\n", c->id,
                tr_nfs_client_name(src->reader, c->host, host, sizeof(host)), c->sessions,
                c->compounds);
    }
}

void az__nfs4_stats_table(FILE *out, const struct az_nfs_source *src,
                          const struct az_nfs4_stats *v)
{
    char name[AZ_NFS4_SHAPE_OPS * 24 + 8];
    uint32_t *ix = sorted_shapes(v), i;
    int row;

    fprintf(out,
            "\n%-26s %" PRIu64 " COMPOUNDs (minor version 0: %" PRIu64 ", 1: %" PRIu64
            ", 2: %" PRIu64 "), %" PRIu64 " NULL; %" PRIu64 " callbacks\n",
            "NFSv4", v->proc[1].calls, v->minor[0], v->minor[1], v->minor[2],
            v->proc[0].calls, tr_nfs_counter(src->reader, "nfsv4_callbacks"));
    az__nfs_proc_header(out, 20, "NFSv4");
    az__nfs_proc_row(out, 20, "null", &v->proc[0]);
    az__nfs_proc_row(out, 20, "compound", &v->proc[1]);
    az__nfs_proc_header(out, 20, "operation");
    for (row = 0; row < AZ_NFS4_OP_ROWS; row++)
        if (v->op[row].calls || v->op[row].replies)
            az__nfs_proc_row(out, 20, op_name(az_nfs4_row_op(row), name, sizeof(name)),
                             &v->op[row]);
    fprintf(out, "\n%-52s %10s %7s %10s %8s %9s %9s %9s\n", "COMPOUND shape", "calls",
            "share", "replies", "errors", "mean_ms", "p99_ms", "max_ms");
    for (i = 0; ix && i < v->nshapes && i < AZ_NFS4_SHAPES_SHOWN; i++) {
        const struct az_nfs4_shape *s = &v->shapes[ix[i]];
        fprintf(out, "%-52s %10" PRIu64 " %6.1f%% %10" PRIu64 " %8" PRIu64,
                shape_text(s, name, sizeof(name)), s->p.calls,
                pct(s->p.calls, v->proc[1].calls), s->p.replies,
                s->p.errors + s->p.rpc_errors);
        if (s->p.replies)
            fprintf(out, " %9.3f %9.3f %9.3f\n",
                    ms(s->p.rt_sum_ns) / (double)s->p.replies,
                    az__nfs_quantile_ms(&s->p.rt, 0.99, s->p.rt_min_ns, s->p.rt_max_ns),
                    ms(s->p.rt_max_ns));
        else
            fprintf(out, " %9s %9s %9s\n", "-", "-", "-");
    }
    if (v->nshapes > AZ_NFS4_SHAPES_SHOWN)
        fprintf(out, "(%u more shapes in the YAML)\n", v->nshapes - AZ_NFS4_SHAPES_SHOWN);
    free(ix);
    if (v->nerr) {
        fprintf(out, "\n%-20s %-28s %10s\n", "NFSv4 errors", "status", "results");
        for (i = 0; i < v->nerr; i++)
            fprintf(out, "%-20s %-28s %10" PRIu64 "\n",
                    op_name(v->err[i].row, name, sizeof(name)),
                    nf4_status_name(v->err[i].status), v->err[i].n);
        if (v->err_other)
            fprintf(out, "%-20s %-28s %10" PRIu64 "\n", "other", "", v->err_other);
    }
    opens_table(out, v);
    sessions_table(out, src, v);
}

/* ---- YAML ------------------------------------------------------------------ */

static void yaml_opens(struct cm_yaml *y, const struct az_nfs4_stats *v)
{
    cm_yaml_key(y, "opens");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "opened", v->opens_ok);
    cm_yaml_kv_uint(y, "closed", v->opens_closed);
    cm_yaml_kv_uint(y, "open_at_end", v->opens_held);
    cm_yaml_kv_uint(y, "closed_not_seen_opened", v->closes_not_opened);
    cm_yaml_kv_uint(y, "not_kept", v->opens_not_kept);
    cm_yaml_key(y, "duration_ms");
    if (!v->opens_closed) {
        cm_yaml_null(y);
    } else {
        cm_yaml_map_begin(y);
        cm_yaml_kv_double(y, "mean", ms(v->open_sum_ns) / (double)v->opens_closed, 6);
        cm_yaml_kv_double(y, "min", ms(v->open_min_ns), 6);
        cm_yaml_kv_double(y, "p50", open_ms(v, 0.5), 6);
        cm_yaml_kv_double(y, "p99", open_ms(v, 0.99), 6);
        cm_yaml_kv_double(y, "max", ms(v->open_max_ns), 6);
        cm_yaml_map_end(y);
    }
    cm_yaml_kv_uint(y, "delegations", v->delegations);
    cm_yaml_kv_uint(y, "delegations_returned", v->delegreturns);
    cm_yaml_map_end(y);
}

static void yaml_sessions(struct cm_yaml *y, const struct az_nfs_source *src,
                          const struct az_nfs4_stats *v)
{
    char id[33], host[64];
    uint32_t i;

    cm_yaml_key(y, "sessions");
    cm_yaml_seq_begin(y);
    for (i = 0; i < v->nsessions; i++) {
        const struct az_nfs4_session *s = &v->sessions[i];
        cm_yaml_map_begin(y);
        hex(s->id, 16, id);
        cm_yaml_kv_str(y, "session", id);
        cm_yaml_key(y, "clientid");
        if (s->has_client) {
            snprintf(id, sizeof(id), "%016" PRIx64, s->clientid);
            cm_yaml_str(y, id);
        } else {
            cm_yaml_null(y);
        }
        cm_yaml_kv_uint(y, "compounds", s->compounds);
        cm_yaml_kv_uint(y, "slots", s->slots);
        cm_yaml_kv_bool(y, "created", s->created);
        cm_yaml_kv_bool(y, "destroyed", s->destroyed);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_uint(y, "sessions_not_kept", v->sessions_not_kept);
    cm_yaml_key(y, "clients");
    cm_yaml_seq_begin(y);
    for (i = 0; i < v->nclients; i++) {
        const struct az_nfs4_client *c = &v->clients[i];
        cm_yaml_map_begin(y);
        snprintf(id, sizeof(id), "%016" PRIx64, c->id);
        cm_yaml_kv_str(y, "clientid", id);
        cm_yaml_kv_str(y, "host",
                       tr_nfs_client_name(src->reader, c->host, host, sizeof(host)));
        cm_yaml_kv_uint(y, "sessions", c->sessions);
        cm_yaml_kv_uint(y, "compounds", c->compounds);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_uint(y, "clients_not_kept", v->clients_not_kept);
}

void az__nfs4_stats_yaml(struct cm_yaml *y, const struct az_nfs_source *src,
                         const struct az_nfs4_stats *v)
{
    char name[AZ_NFS4_SHAPE_OPS * 24 + 8];
    uint32_t *ix = sorted_shapes(v), i;
    int row;

    cm_yaml_key(y, "nfsv4");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "compounds", v->proc[1].calls);
    cm_yaml_key(y, "minor_versions");
    cm_yaml_map_begin(y);
    for (i = 0; i < 3; i++) {
        char k[4];
        snprintf(k, sizeof(k), "%u", i);
        cm_yaml_str(y, k);
        cm_yaml_uint(y, v->minor[i]);
    }
    cm_yaml_kv_uint(y, "other", v->minor_other);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "bytes_read", v->bytes_read);
    cm_yaml_kv_uint(y, "bytes_written", v->bytes_written);
    cm_yaml_key(y, "procedures");
    cm_yaml_map_begin(y);
    az__nfs_proc_yaml(y, "null", &v->proc[0], -1);
    az__nfs_proc_yaml(y, "compound", &v->proc[1], -1);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "operations");
    cm_yaml_map_begin(y);
    for (row = 0; row < AZ_NFS4_OP_ROWS; row++)
        if (v->op[row].calls || v->op[row].replies)
            az__nfs_proc_yaml(y, op_name(az_nfs4_row_op(row), name, sizeof(name)),
                              &v->op[row], -1);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "shapes");
    cm_yaml_map_begin(y);
    for (i = 0; ix && i < v->nshapes; i++) {
        const struct az_nfs4_shape *s = &v->shapes[ix[i]];
        az__nfs_proc_yaml(y, shape_text(s, name, sizeof(name)), &s->p,
                          pct(s->p.calls, v->proc[1].calls));
    }
    cm_yaml_map_end(y);
    free(ix);
    cm_yaml_kv_uint(y, "shapes_not_kept", v->shapes_not_kept);
    cm_yaml_key(y, "errors_by_status");
    cm_yaml_seq_begin(y);
    for (i = 0; i < v->nerr; i++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_str(y, "operation", op_name(v->err[i].row, name, sizeof(name)));
        cm_yaml_kv_uint(y, "status", v->err[i].status);
        cm_yaml_kv_str(y, "name", nf4_status_name(v->err[i].status));
        cm_yaml_kv_uint(y, "count", v->err[i].n);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_uint(y, "errors_not_listed", v->err_other);
    yaml_opens(y, v);
    yaml_sessions(y, src, v);
    cm_yaml_key(y, "callbacks");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "calls", tr_nfs_counter(src->reader, "nfsv4_callbacks"));
    cm_yaml_kv_uint(y, "replies", tr_nfs_counter(src->reader, "nfsv4_callback_replies"));
    cm_yaml_map_end(y);
    cm_yaml_map_end(y);
}
