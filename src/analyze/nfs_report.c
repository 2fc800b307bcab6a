/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_report.c - the outputs of `sfs_trace stats` and `sfs_trace image` on
 * NFS traces: aligned text for people and YAML for programs, with the same
 * figures (docs/sfs_trace.md holds the schemas; keys are only ever added).
 * Procedures are keyed by the SFS op names, MOUNT's under their own map;
 * response times are in milliseconds (mean, minimum and maximum exact, the
 * percentiles from common/hist.c within its resolution).  Names and paths
 * from the trace are written with bytes outside printable ASCII (and the
 * backslash) as \xNN, so that any name is valid YAML.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "analyze/az_nfs.h"

#define NAME_MAX_OUT (TR_NFS_PATH_MAX * 4 + 1)

static double duration_s(const struct az_nfs_stats *s)
{
    return s->any ? (double)(s->last_ns - s->first_ns) / 1e9 : 0;
}

/* s[0..len) with other bytes as \xNN, into out (cut to fit). */
static const char *printable(const char *s, size_t len, char *out, size_t outlen)
{
    size_t i, o = 0;

    for (i = 0; i < len && o + 5 < outlen; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
    }
    out[o] = 0;
    return out;
}

static const char *host(const struct az_nfs_source *src, uint32_t i, char *buf,
                        size_t len)
{
    return tr_nfs_client_name(src->reader, i, buf, len);
}

static void yaml_options(struct cm_yaml *y, const struct az_nfs_source *src)
{
    az_options_yaml(y, src->opts, src->nopts, src->cfg);
}

void az_nfs_reader_yaml(struct cm_yaml *y, struct tr_nfs_reader *r)
{
    const struct tr_counter *c = NULL;
    unsigned i, n = 0;

    cm_yaml_key(y, "reader");
    cm_yaml_map_begin(y);
    cm_yaml_key(y, "counters");
    cm_yaml_map_begin(y);
    if (r)
        c = tr_nfs_counters(r, &n);
    for (i = 0; i < n; i++)
        cm_yaml_kv_uint(y, c[i].name, c[i].n);
    cm_yaml_map_end(y);
    cm_yaml_map_end(y);
}

/* ---- stats: text --------------------------------------------------------- */

/* NFSv4 calls the reader counted and did not make events. */
static uint64_t nfsv4_skipped(const struct az_nfs_source *src,
                              const struct az_nfs_stats *s)
{
    uint64_t n = tr_nfs_counter(src->reader, "nfsv4_calls");

    return n > s->by_version[4] ? n - s->by_version[4] : 0;
}

void az_nfs_stats_table(FILE *out, const struct az_nfs_source *src,
                        const struct az_nfs_stats *s)
{
    double dur = duration_s(s);
    char name[256];
    unsigned i;
    int row;

    fprintf(out, "trace %s (%s%s%s)\n", src->file, tr_nfs_format(src->reader),
            az_nfs_capture_text(src->reader, name, sizeof(name)) ? "; " : "",
            az_nfs_capture_text(src->reader, name, sizeof(name)) ? name : "");
    fprintf(out, "%-26s %" PRIu64 " (NFSv2 %" PRIu64 ", NFSv3 %" PRIu64, "calls",
            s->calls, s->by_version[2], s->by_version[3]);
    if (s->by_version[4])
        fprintf(out, ", NFSv4 %" PRIu64, s->by_version[4]);
    fprintf(out, ", MOUNT %" PRIu64 "; UDP %" PRIu64 ", TCP %" PRIu64 ")\n",
            s->mount_calls, s->udp_calls, s->tcp_calls);
    fprintf(out, "%-26s %" PRIu64 "\n", "replies", s->replies);
    fprintf(out, "%-26s %" PRIu64 " (NFS status), %" PRIu64 " (RPC level)\n",
            "error replies", s->errors, s->rpc_errors);
    fprintf(out, "%-26s %" PRIu64 "\n", "unanswered calls", s->unanswered);
    fprintf(out, "%-26s %" PRIu64 "\n", "replies without calls",
            tr_nfs_counter(src->reader, "replies_without_calls"));
    fprintf(out,
            "%-26s %" PRIu64 " (sent again before the reply; %" PRIu64
            " more after it)\n",
            "retransmitted calls", s->retransmitted,
            tr_nfs_counter(src->reader, "retransmissions_after_reply"));
    if (!s->v4)
        fprintf(out, "%-26s %" PRIu64 " calls skipped\n", "NFSv4",
                tr_nfs_counter(src->reader, "nfsv4_calls"));
    fprintf(out, "%-26s %" PRIu64 " other RPC calls, %" PRIu64 " non-RPC packets\n",
            "not NFS", tr_nfs_counter(src->reader, "other_rpc_calls"),
            tr_nfs_counter(src->reader, "non_rpc_packets"));
    fprintf(out, "%-26s %" PRIu64 "\n", "bytes read", s->bytes_read);
    fprintf(out, "%-26s %" PRIu64 "\n", "bytes written", s->bytes_written);
    fprintf(out, "%-26s %.6f s\n", "duration", dur);
    fprintf(out, "%-26s %.1f calls/s\n", "mean rate",
            dur > 0 ? (double)s->calls / dur : 0.0);
    az__nfs_proc_header(out, 12, "procedure");
    for (row = 0; row < NF_NOPS; row++)
        if (s->proc[row].calls)
            az__nfs_proc_row(out, 12, az_nfs_row_name(row), &s->proc[row]);
    if (s->mount_calls) {
        az__nfs_proc_header(out, 12, "MOUNT");
        for (row = NF_NOPS; row < AZ_NFS_ROWS; row++)
            if (s->proc[row].calls)
                az__nfs_proc_row(out, 12, az_nfs_row_name(row), &s->proc[row]);
    }
    if (s->nerr) {
        fprintf(out, "\n%-12s %-16s %10s\n", "errors", "status", "replies");
        for (i = 0; i < s->nerr; i++)
            fprintf(
                out, "%-12s %-16s %10" PRIu64 "\n", az_nfs_row_name((int)s->err[i].row),
                s->err[i].row >= NF_NOPS ? "(mount)" : nf_status_name(s->err[i].status),
                s->err[i].n);
        if (s->err_other)
            fprintf(out, "%-12s %-16s %10" PRIu64 "\n", "other", "", s->err_other);
    }
    fprintf(out, "\n%-40s %10s %10s %8s %8s %14s %14s\n", "client", "calls", "replies",
            "errors", "unansw", "bytes_read", "bytes_written");
    for (i = 0; i < s->nclients; i++) {
        const struct az_nfs_client *c = &s->clients[i];
        if (!c->calls)
            continue;
        fprintf(out,
                "%-40s %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %14" PRIu64
                " %14" PRIu64 "\n",
                host(src, i, name, sizeof(name)), c->calls, c->replies, c->errors,
                c->unanswered, c->bytes_read, c->bytes_written);
    }
    if (s->v4)
        az__nfs4_stats_table(out, src, s->v4);
    {
        const struct tr_counter *c;
        unsigned n;
        c = tr_nfs_counters(src->reader, &n);
        fprintf(out, "\nreader counters\n");
        for (i = 0; i < n; i++)
            fprintf(out, "  %-32s %" PRIu64 "\n", c[i].name, c[i].n);
    }
}

/* ---- stats: YAML -------------------------------------------------------- */

void az_nfs_stats_yaml(struct cm_yaml *y, const struct az_nfs_source *src,
                       const struct az_nfs_stats *s)
{
    double dur = duration_s(s);
    char name[256];
    unsigned i;
    int row;

    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "command", "stats");
    cm_yaml_kv_str(y, "trace", src->file);
    cm_yaml_kv_str(y, "format", tr_nfs_format(src->reader));
    az_nfs_capture_yaml(y, src->reader);
    cm_yaml_kv_uint(y, "calls", s->calls);
    cm_yaml_kv_uint(y, "replies", s->replies);
    cm_yaml_key(y, "calls_by_version");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "nfsv2", s->by_version[2]);
    cm_yaml_kv_uint(y, "nfsv3", s->by_version[3]);
    cm_yaml_kv_uint(y, "nfsv4", s->by_version[4]);
    cm_yaml_kv_uint(y, "mount", s->mount_calls);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "udp_calls", s->udp_calls);
    cm_yaml_kv_uint(y, "tcp_calls", s->tcp_calls);
    cm_yaml_kv_uint(y, "errors", s->errors);
    cm_yaml_kv_uint(y, "rpc_errors", s->rpc_errors);
    cm_yaml_kv_uint(y, "unanswered_calls", s->unanswered);
    cm_yaml_kv_uint(y, "replies_without_calls",
                    tr_nfs_counter(src->reader, "replies_without_calls"));
    cm_yaml_kv_uint(y, "retransmitted_calls", s->retransmitted);
    cm_yaml_kv_uint(y, "retransmissions_after_reply",
                    tr_nfs_counter(src->reader, "retransmissions_after_reply"));
    cm_yaml_kv_uint(y, "nfsv4_calls_skipped", nfsv4_skipped(src, s));
    cm_yaml_kv_uint(y, "other_rpc_calls", tr_nfs_counter(src->reader, "other_rpc_calls"));
    cm_yaml_kv_uint(y, "non_rpc_packets", tr_nfs_counter(src->reader, "non_rpc_packets"));
    cm_yaml_kv_uint(y, "bytes_read", s->bytes_read);
    cm_yaml_kv_uint(y, "bytes_written", s->bytes_written);
    cm_yaml_kv_double(y, "duration_s", dur, 9);
    cm_yaml_kv_double(y, "mean_rate", dur > 0 ? (double)s->calls / dur : 0, 3);
    cm_yaml_key(y, "procedures");
    cm_yaml_map_begin(y);
    for (row = 0; row < NF_NOPS; row++)
        if (s->proc[row].calls)
            az__nfs_proc_yaml(y, az_nfs_row_name(row), &s->proc[row], -1);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "mount_procedures");
    cm_yaml_map_begin(y);
    for (row = NF_NOPS; row < AZ_NFS_ROWS; row++)
        if (s->proc[row].calls)
            az__nfs_proc_yaml(y, az_nfs_row_name(row), &s->proc[row], -1);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "errors_by_status");
    cm_yaml_seq_begin(y);
    for (i = 0; i < s->nerr; i++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_str(y, "procedure", az_nfs_row_name((int)s->err[i].row));
        cm_yaml_kv_uint(y, "status", s->err[i].status);
        if (s->err[i].row < NF_NOPS)
            cm_yaml_kv_str(y, "name", nf_status_name(s->err[i].status));
        cm_yaml_kv_uint(y, "count", s->err[i].n);
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_uint(y, "errors_not_listed", s->err_other);
    cm_yaml_key(y, "clients");
    cm_yaml_map_begin(y);
    for (i = 0; i < s->nclients; i++) {
        const struct az_nfs_client *c = &s->clients[i];
        if (!c->calls)
            continue;
        cm_yaml_str(y, host(src, i, name, sizeof(name))); /* "30" stays a string */
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "calls", c->calls);
        cm_yaml_kv_uint(y, "replies", c->replies);
        cm_yaml_kv_uint(y, "errors", c->errors);
        cm_yaml_kv_uint(y, "unanswered", c->unanswered);
        cm_yaml_kv_uint(y, "bytes_read", c->bytes_read);
        cm_yaml_kv_uint(y, "bytes_written", c->bytes_written);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
    if (s->v4)
        az__nfs4_stats_yaml(y, src, s->v4);
    az_nfs_reader_yaml(y, src->reader);
    yaml_options(y, src);
    cm_yaml_map_end(y);
}

/* ---- image -------------------------------------------------------------- */

static const char *const type_names[] = {"none", "reg", "dir",  "blk",
                                         "chr",  "lnk", "sock", "fifo"};

static const char *type_name(enum tr_nfs_ftype t)
{
    return (unsigned)t < 8 ? type_names[t] : "none";
}

/* The summary's figures, gathered in one pass over the objects. */
struct image_sum {
    uint64_t objects, at_start, created, removed, renamed, orphans, orphan_tops;
    uint64_t name_only, by_type[8], created_by_type[8];
    uint64_t bytes, size_exact, max_depth, depth[33];
    uint64_t size_hist[AZ_SIZE_BUCKETS];
    uint64_t links_at_start, links_created, links_removed, hard_links, symlinks;
};

static void summarise(const struct im_image *img, struct image_sum *m)
{
    uint32_t i;

    memset(m, 0, sizeof(*m));
    for (i = 0; i < im_nobjs(img); i++) {
        const struct im_obj *o = im_obj(img, i);
        unsigned t = (unsigned)o->type < 8 ? (unsigned)o->type : 0;
        if (o->flags & IM_O_DEAD)
            continue;
        m->objects++;
        m->name_only += (o->flags & IM_O_NO_HANDLE) != 0;
        m->removed += (o->flags & IM_O_REMOVED) != 0;
        m->renamed += (o->flags & IM_O_RENAMED) != 0;
        if (!(o->flags & IM_O_AT_START)) {
            m->created++;
            m->created_by_type[t]++;
            continue;
        }
        m->at_start++;
        m->by_type[t]++;
        m->orphans += (o->flags & IM_O_ORPHAN) != 0;
        m->orphan_tops += (o->flags & IM_O_ORPHAN_TOP) != 0;
        if (o->depth > m->max_depth)
            m->max_depth = o->depth;
        m->depth[o->depth < 32 ? o->depth : 32]++;
        if (o->type == TR_NFS_LNK)
            m->symlinks++;
        if (o->type == TR_NFS_REG || o->type == TR_NFS_NONE) {
            m->bytes += o->size;
            m->size_exact += (o->flags & IM_O_SIZE_EXACT) != 0;
            m->size_hist[az_size_bucket(o->size)]++;
        }
    }
    for (i = 0; i < im_nlinks(img); i++) {
        const struct im_link *l = im_link(img, i);
        m->links_at_start += (l->flags & IM_L_AT_START) != 0;
        m->links_created += (l->flags & IM_L_CREATED) != 0;
        m->links_removed += (l->flags & IM_L_REMOVED) != 0;
        m->hard_links += (l->flags & IM_L_HARD_LINK) != 0;
    }
}

void az_nfs_image_table(FILE *out, const struct az_nfs_source *src,
                        const struct im_image *img)
{
    const struct im_counts *c = im_counts(img);
    char buf[NAME_MAX_OUT];
    const uint32_t *roots;
    struct image_sum m;
    uint32_t i, nroots = im_roots(img, &roots);
    unsigned t;

    summarise(img, &m);
    fprintf(out, "trace %s (%s): the file-system image it implies\n", src->file,
            tr_nfs_format(src->reader));
    for (i = 0; i < nroots; i++) {
        const char *p = im_root_path(img, roots[i]);
        fprintf(out, "%-26s %s\n", "root",
                *p ? printable(p, strlen(p), buf, sizeof(buf))
                   : "(inferred: no MNT in the trace)");
    }
    if (!nroots)
        fprintf(out, "%-26s none (no MNT, no directory with entries)\n", "root");
    fprintf(out,
            "%-26s %" PRIu64 " (%" PRIu64 " at the start, %" PRIu64
            " created during the trace; %" PRIu64
            " known by a name only merged into them)\n",
            "objects", m.objects, m.at_start, m.created, c->merged);
    fprintf(out, "%-26s", "at the start, by type");
    for (t = 0; t < 8; t++)
        if (m.by_type[t])
            fprintf(out, " %s %" PRIu64, type_name((enum tr_nfs_ftype)t), m.by_type[t]);
    fprintf(out, "\n%-26s", "created, by type");
    for (t = 0; t < 8; t++)
        if (m.created_by_type[t])
            fprintf(out, " %s %" PRIu64, type_name((enum tr_nfs_ftype)t),
                    m.created_by_type[t]);
    fprintf(out, "\n%-26s %" PRIu64 "\n", "removed during the trace", m.removed);
    fprintf(out, "%-26s %" PRIu64 "\n", "renamed during the trace", m.renamed);
    fprintf(out, "%-26s %" PRIu64 " in %" PRIu64 " trees whose place is unknown\n",
            "orphans", m.orphans, m.orphan_tops);
    fprintf(out,
            "%-26s %" PRIu64 " at the start (%" PRIu64 " hard links), %" PRIu64
            " made and %" PRIu64 " removed during the trace\n",
            "names", m.links_at_start, m.hard_links, m.links_created, m.links_removed);
    fprintf(out, "%-26s %" PRIu64 "\n", "symlinks at the start", m.symlinks);
    fprintf(out,
            "%-26s %" PRIu64 " (files at the start; %" PRIu64
            " sizes from attributes, the others lower bounds)\n",
            "bytes", m.bytes, m.size_exact);
    fprintf(out, "%-26s %" PRIu64 "\n", "deepest", m.max_depth);
    fprintf(out,
            "%-26s %" PRIu64 " objects known by a name only, %" PRIu64
            " of them merged; %" PRIu64 " namespace calls without reply assumed "
            "done; %" PRIu64 " names changed by no traced call\n",
            "repairs", m.name_only, c->merged, c->assumed_ok, c->untraced_names);
    fprintf(out, "\ndepth at the start\n%8s %12s\n", "depth", "objects");
    for (i = 0; i <= 32; i++)
        if (m.depth[i])
            fprintf(out, "%7s%u %12" PRIu64 "\n", i == 32 ? ">=" : "", i, m.depth[i]);
    az_size_hist_table(out, "file sizes at the start", "files", m.size_hist);
}

static void yaml_time(struct cm_yaml *y, const char *key, int64_t ns)
{
    cm_yaml_kv_double(y, key, (double)ns / 1e9, 9);
}

/* One object; buf holds NAME_MAX_OUT bytes for printable text, then
 * TR_NFS_PATH_MAX for its path. */
static void yaml_object(struct cm_yaml *y, const struct im_image *img, uint32_t i,
                        char *buf)
{
    const size_t len = NAME_MAX_OUT;
    char *pbuf = buf + NAME_MAX_OUT;
    const struct im_obj *o = im_obj(img, i);
    char hex[2 * NF_FH_MAX + 1], mode[16];
    const char *s;
    struct nf_fh fh;
    size_t n;
    uint32_t k;

    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "id", i);
    im_fh(img, i, &fh);
    cm_yaml_key(y, "fh");
    if (fh.len)
        cm_yaml_str(y, im_fh_hex(&fh, hex, sizeof(hex)));
    else
        cm_yaml_null(y);
    cm_yaml_kv_str(y, "type", type_name(o->type));
    cm_yaml_kv_bool(y, "type_guessed", (o->flags & IM_O_TYPE_GUESSED) != 0);
    cm_yaml_kv_bool(y, "at_start", (o->flags & IM_O_AT_START) != 0);
    cm_yaml_key(y, "path");
    if ((s = im_path(img, i, pbuf, TR_NFS_PATH_MAX)))
        cm_yaml_str(y, printable(s, strlen(s), buf, len));
    else
        cm_yaml_null(y);
    if (o->flags & IM_O_ROOT)
        cm_yaml_kv_bool(y, "root", 1);
    if (o->flags & IM_O_ORPHAN)
        cm_yaml_kv_bool(y, "orphan", 1);
    if (o->flags & IM_O_AT_START)
        cm_yaml_kv_uint(y, "depth", o->depth);
    cm_yaml_kv_uint(y, "size", o->size);
    cm_yaml_kv_bool(y, "size_exact", (o->flags & IM_O_SIZE_EXACT) != 0);
    cm_yaml_kv_uint(y, "size_max", o->size_max);
    if (o->flags & IM_O_MODE) {
        snprintf(mode, sizeof(mode), "%04o", o->mode);
        cm_yaml_kv_str(y, "mode", mode);
    }
    if (o->flags & IM_O_FILEID)
        cm_yaml_kv_uint(y, "fileid", o->fileid);
    if (o->nlink)
        cm_yaml_kv_uint(y, "nlink", o->nlink);
    if (o->flags & IM_O_CREATED)
        yaml_time(y, "created_s", o->created_ns);
    if (o->flags & IM_O_REMOVED)
        yaml_time(y, "removed_s", o->removed_ns);
    if ((s = im_target(img, i, &n)))
        cm_yaml_kv_str(y, "target", printable(s, n, buf, len));
    cm_yaml_key(y, "names");
    cm_yaml_seq_begin(y);
    for (k = o->first_link; k != IM_NONE_ID; k = im_link(img, k)->next_of_obj) {
        const struct im_link *l = im_link(img, k);
        s = im_link_name(img, k, &n);
        cm_yaml_flow_seq_begin(y); /* [dir, name, at_start, created_s, removed_s] */
        cm_yaml_uint(y, l->dir);
        cm_yaml_str(y, printable(s, n, buf, len));
        cm_yaml_bool(y, (l->flags & IM_L_AT_START) != 0);
        if (l->flags & IM_L_CREATED)
            cm_yaml_double(y, (double)l->created_ns / 1e9, 9);
        else
            cm_yaml_null(y);
        if (l->flags & IM_L_REMOVED)
            cm_yaml_double(y, (double)l->removed_ns / 1e9, 9);
        else
            cm_yaml_null(y);
        cm_yaml_seq_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_map_end(y);
}

void az_nfs_image_yaml(struct cm_yaml *y, const struct az_nfs_source *src,
                       const struct im_image *img)
{
    const struct im_counts *c = im_counts(img);
    char *buf = cm_malloc(NAME_MAX_OUT + TR_NFS_PATH_MAX);
    const uint32_t *roots;
    struct image_sum m;
    uint32_t i, nroots = im_roots(img, &roots);
    unsigned t;

    summarise(img, &m);
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "command", "image");
    cm_yaml_kv_str(y, "trace", src->file);
    cm_yaml_kv_str(y, "format", tr_nfs_format(src->reader));
    cm_yaml_key(y, "roots");
    cm_yaml_seq_begin(y);
    for (i = 0; i < nroots; i++) {
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "id", roots[i]);
        cm_yaml_kv_str(y, "mnt_path", im_root_path(img, roots[i]));
        cm_yaml_kv_bool(y, "inferred", im_root_inferred(img));
        cm_yaml_map_end(y);
    }
    cm_yaml_seq_end(y);
    cm_yaml_kv_uint(y, "objects", m.objects);
    cm_yaml_kv_uint(y, "at_start", m.at_start);
    cm_yaml_kv_uint(y, "created", m.created);
    cm_yaml_kv_uint(y, "removed", m.removed);
    cm_yaml_kv_uint(y, "renamed", m.renamed);
    cm_yaml_key(y, "at_start_by_type");
    cm_yaml_map_begin(y);
    for (t = 0; t < 8; t++)
        cm_yaml_kv_uint(y, type_name((enum tr_nfs_ftype)t), m.by_type[t]);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "created_by_type");
    cm_yaml_map_begin(y);
    for (t = 0; t < 8; t++)
        cm_yaml_kv_uint(y, type_name((enum tr_nfs_ftype)t), m.created_by_type[t]);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "orphans", m.orphans);
    cm_yaml_kv_uint(y, "orphan_trees", m.orphan_tops);
    cm_yaml_kv_uint(y, "names_at_start", m.links_at_start);
    cm_yaml_kv_uint(y, "hard_links", m.hard_links);
    cm_yaml_kv_uint(y, "names_created", m.links_created);
    cm_yaml_kv_uint(y, "names_removed", m.links_removed);
    cm_yaml_kv_uint(y, "symlinks", m.symlinks);
    cm_yaml_kv_uint(y, "bytes", m.bytes);
    cm_yaml_kv_uint(y, "sizes_exact", m.size_exact);
    cm_yaml_kv_uint(y, "max_depth", m.max_depth);
    az_size_hist_yaml(y, m.size_hist);
    cm_yaml_key(y, "repairs");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "events", c->events);
    cm_yaml_kv_uint(y, "assumed_ok", c->assumed_ok);
    cm_yaml_kv_uint(y, "name_only", c->name_only);
    cm_yaml_kv_uint(y, "merged", c->merged);
    cm_yaml_kv_uint(y, "untraced_names", c->untraced_names);
    cm_yaml_kv_uint(y, "dot_names", c->dot_names);
    cm_yaml_kv_uint(y, "dir_links", c->dir_links);
    cm_yaml_kv_uint(y, "cycles", c->cycles);
    cm_yaml_kv_uint(y, "handle_conflicts", c->handle_conflicts);
    cm_yaml_map_end(y);
    cm_yaml_kv_uint(y, "memory_bytes", im_mem(img));
    cm_yaml_key(y, "objects_list");
    cm_yaml_seq_begin(y);
    for (i = 0; buf && i < im_nobjs(img); i++)
        if (!(im_obj(img, i)->flags & IM_O_DEAD))
            yaml_object(y, img, i, buf);
    cm_yaml_seq_end(y);
    az_nfs_reader_yaml(y, src->reader);
    yaml_options(y, src);
    cm_yaml_map_end(y);
    free(buf);
}
