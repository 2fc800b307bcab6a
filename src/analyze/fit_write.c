/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit_write.c - the fitted workload's files (az_fit.h): NAME.mix (an SFS
 * mix file, version 2, every op of the version listed so that no default
 * leaks in), NAME.iodist (the block-size file sfs/sfs3 read, -b) and
 * NAME_rc (the rc fragment sfs_mgr runs, each setting under a comment
 * naming the figure of the trace it came from).  The mix and block-size
 * texts are read back by the load layer's own parsers before anything is
 * written, so a file the fit writes is one sfs3 takes; each file is
 * written beside its name and renamed into place (common/atomic.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_fit.h"
#include "common/alloc.h"
#include "common/atomic.h"
#include "load/mix.h"

#define TEXT_MAX 16384

struct text {
    char buf[TEXT_MAX];
    size_t len;
    int cut;
};

static void CM_PRINTF(2, 3) put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(t->buf) - t->len) {
        t->cut = 1;
        t->len = sizeof(t->buf) - 1;
    } else
        t->len += (size_t)n;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

static int write_file(const char *path, const struct text *t, char *err, size_t errlen)
{
    struct cm_atomic_file af;

    if (t->cut)
        return cm_errf(err, errlen, "%s: the text outgrew %d bytes", path, TEXT_MAX),
               -EOVERFLOW;
    if (cm_atomic_open(&af, path, err, errlen) < 0)
        return -EIO;
    if (fwrite(t->buf, 1, t->len, af.fp) != t->len) {
        cm_atomic_abort(&af);
        return cm_errf(err, errlen, "%s: %s", path, strerror(errno)), -EIO;
    }
    return cm_atomic_commit(&af, err, errlen) < 0 ? -EIO : 0;
}

/* ---- NAME.mix ---------------------------------------------------------------- */

static void mix_text(struct text *t, const struct az_fit *f, const char *trace)
{
    const struct az_fit_model *m = &f->m;
    int op;

    put(t, "SFS MIXFILE VERSION 2\n");
    put(t,
        "# fitted by sfs_trace fit to %s: %" PRIu64
        " NFSv%d calls mapped onto SFS's ops, as\n"
        "# whole percents of the calls the model makes for the trace's requests\n"
        "# (the trace's own share of each op beside it)\n",
        trace, m->mapped_calls, m->nfs_version);
    for (op = 0; op < NF_NOPS; op++)
        if (nf_op_in_version(op, m->nfs_version))
            put(t, "%-12s %3d%%   # trace %.2f %%\n", nf_op_name(op), m->pct[op],
                m->trace_pct[op]);
}

/* ---- NAME.iodist ----------------------------------------------------------------- */

static void iodist_text(struct text *t, const struct az_fit *f, const char *trace)
{
    static const char *const section[2] = {"Read", "Write"};
    const struct az_fit_model *m = &f->m;
    int k, i;

    put(t,
        "# block sizes fitted by sfs_trace fit to %s: %" PRIu64 " READ and %" PRIu64
        " WRITE\n# requests as blocks of %u KB (BLOCK_SIZE) and a fragment (SFS draws "
        "its size);\n# percent blocks fragment, the trace's share beside each row\n",
        trace, f->c.requests[0], f->c.requests[1], m->kb_per_block);
    for (k = 0; k < 2; k++) {
        if (!m->have_table[k]) {
            put(t, "# no %s requests in the trace: SFS's default %s rows stay\n",
                k ? "WRITE" : "READ", section[k]);
            continue;
        }
        put(t, "%s\n", section[k]);
        for (i = 0; i < m->table[k].nrows; i++)
            put(t, "# trace %.2f %%\n%d %d %d\n", m->trace_row_pct[k][i],
                m->table[k].row[i].pct, m->table[k].row[i].blocks,
                m->table[k].row[i].frag);
    }
}

/* ---- NAME_rc -------------------------------------------------------------------------
 */

/* A value for the rc parser: double-quoted, with \ " $ ` escaped. */
static void quoted(struct text *t, const char *s)
{
    put(t, "\"");
    for (; *s; s++)
        put(t, "%s%c", strchr("\\\"$`", *s) ? "\\" : "", *s);
    put(t, "\"");
}

/* The miss ratio at a cache of a quarter of the footprint, the curve's
 * middle: how much of what the trace touched is touched again. */
static double miss_at_quarter(const struct az_fit *f, uint64_t *blocks)
{
    uint64_t c = f->m.footprint_blocks / 4, hits;

    if (c == 0)
        c = 1;
    *blocks = c;
    hits = az_hist_hits(&f->mrc->main.total, c);
    return f->m.references ? 1.0 - (double)hits / (double)f->m.references : 1.0;
}

static void rc_text(struct text *t, const struct az_fit *f, const struct az_fit_out *o,
                    int have_iodist)
{
    const struct az_fit_model *m = &f->m;
    const struct az_fit_counts *c = &f->c;
    const char *name = base(o->name);
    uint64_t quarter;
    double miss = miss_at_quarter(f, &quarter);
    uint32_t i;
    char suffix[65];
    size_t n = 0;

    put(t,
        "# %s_rc - an SFS workload fitted to %s by sfs_trace fit (FreeSFS):\n"
        "# run it with `sfs_mgr -r %s_rc`.  Each setting says which figure of the\n"
        "# trace it came from; docs/sfs_trace.md (\"fit\") says how, and what a fit\n"
        "# cannot keep.\n",
        name, o->trace, name);
    put(t,
        "\n# LOAD: the trace's rate, %.1f calls/s over %.3f s%s (the calls the model\n"
        "# makes for its requests); INCR_LOAD and NUM_RUNS: a curve of %d points, 1x\n"
        "# to %dx of it\nLOAD=%d\nINCR_LOAD=%d\nNUM_RUNS=%d\n",
        m->rate, m->duration_s, m->duration_s < 1 ? " counted as 1 s" : "", m->points,
        m->points, m->load, m->load, m->points);
    if (c->v4_compounds > c->by_version[m->nfs_version])
        put(t,
            "# NFS_VERSION: the trace's %" PRIu64
            " NFSv4 calls mapped onto NFSv%d's SFS ops\n"
            "NFS_VERSION=%d\n",
            c->v4_compounds, m->nfs_version, m->nfs_version);
    else
        put(t,
            "# NFS_VERSION: %" PRIu64 " of the NFS calls were NFSv%d\nNFS_VERSION=%d\n",
            c->by_version[m->nfs_version], m->nfs_version, m->nfs_version);
    put(t, "# TCP: %" PRIu64 " calls over TCP, %" PRIu64 " over UDP\nTCP=%s\n",
        c->tcp_calls, c->udp_calls, m->tcp ? "on" : "off");
    put(t,
        "# CLIENTS: %u client host%s in the trace: name your load generators here\n"
        "# (each entry is a client of its own; localhost runs here)\nCLIENTS=\"",
        m->clients, m->clients == 1 ? "" : "s");
    for (i = 0; i < m->clients; i++)
        put(t, "%slocalhost", i ? " " : "");
    put(t, "\"\n");
    put(t,
        "# PROCS: %u stream%s (client address, port and connection) sent the calls:\n"
        "# %u per client\nPROCS=%u\n",
        m->streams, m->streams == 1 ? "" : "s", m->procs, m->procs);
    put(t, "# MNT_POINTS: the server the workload runs on%s\nMNT_POINTS=",
        o->mount ? ""
                 : " (set SFS_MOUNT to host:/path, host:port:/path or "
                   "nfs://...,\n# or write it here)");
    if (o->mount)
        quoted(t, o->mount);
    else
        put(t, "\"$SFS_MOUNT\"");
    put(t, "\n# MIXFILE: the op mix of the trace's calls\nMIXFILE=%s.mix\n", name);
    if (have_iodist)
        put(t,
            "# BLOCK_FILE, BLOCK_SIZE: the trace's READ and WRITE requests as blocks of "
            "%u KB\nBLOCK_FILE=%s.iodist\nBLOCK_SIZE=%u\n",
            m->kb_per_block, name, m->kb_per_block);
    put(t,
        "# FILE_COUNT: %" PRIu64 " regular files held data at the start (%.1f MB), %.0f "
        "per\n# client, less PROCS (SFS gives each process FILE_COUNT / PROCS + 1)\n"
        "FILE_COUNT=%d\n",
        m->files_at_start, (double)m->bytes_at_start / 1e6,
        (double)m->files_at_start / m->clients, m->file_count);
    put(t,
        "# ACCESS_PCNT: the working-set ops (read, write, getattr, setattr, access,\n"
        "# commit, a lookup's result) touched %" PRIu64
        " of those files; the footprint,\n"
        "# %" PRIu64 " blocks of %" PRIu64 " B in %" PRIu64 " references, misses %.1f %% "
        "at a cache of\n# a quarter of it (%" PRIu64 " blocks): how much is touched "
        "again\nACCESS_PCNT=%d\n",
        m->files_touched, m->footprint_blocks, f->block_size, m->references, 100.0 * miss,
        quarter, m->access_pct);
    put(t,
        "# DIR_COUNT: the most common count of files holding data in a directory, of\n"
        "# the %" PRIu64 " directories that hold any\nDIR_COUNT=%d\n",
        m->dirs_with_files, m->dir_count);
    put(t,
        "# SYMLINK_COUNT: %" PRIu64 " symlinks at the start, per client, less PROCS\n"
        "SYMLINK_COUNT=%d\n",
        m->symlinks, m->symlink_count);
    if (c->requests[1] > c->append_unknown)
        put(t,
            "# APPEND_PCNT: of the %" PRIu64
            " WRITE requests whose file's size was known,\n"
            "# %" PRIu64 " started at the file's end\nAPPEND_PCNT=%d\n",
            c->requests[1] - c->append_unknown, c->appends, m->append_pct);
    else /* nothing measured: say it is SFS's own figure, not the trace's */
        put(t,
            "# APPEND_PCNT: no WRITE request of a file whose size was known, so SFS's\n"
            "# default\nAPPEND_PCNT=%d\n",
            m->append_pct);
    put(t,
        "# stable writes: %.1f %% of the WRITE calls were FILE_SYNC or DATA_SYNC; SFS\n"
        "# writes UNSTABLE and sends COMMITs (the mix's commit share): no setting\n",
        m->stable_pct);
    if (m->biod_reads > 0)
        put(t,
            "# BIOD_MAX_READS: the most READ calls in flight in a stream that 1 %% of "
            "them saw\nBIOD_MAX_READS=%d\n",
            m->biod_reads);
    if (m->biod_writes > 0)
        put(t, "# BIOD_MAX_WRITES: the same for WRITE calls\nBIOD_MAX_WRITES=%d\n",
            m->biod_writes);
    put(t,
        "# RUNTIME: the trace's duration, so that a point at 1x makes as many calls as\n"
        "# the trace; WARMUP_TIME: half as long, at most a minute (SFS's own is 300 s)\n"
        "RUNTIME=%d\nWARMUP_TIME=%d\n",
        m->runtime_s, m->warmup_s);
    /* SUFFIX: the name in sfs_mgr's characters */
    for (; n < sizeof(suffix) - 1 && name[n]; n++)
        suffix[n] =
            strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
                   name[n]) &&
                    !(n == 0 && (name[n] == '.' || name[n] == '-'))
                ? name[n]
                : '_';
    suffix[n] = 0;
    put(t, "# SUFFIX: the result files' suffix, from the name\nSUFFIX=%s\n",
        n ? suffix : "fit");
}

static int write_all(struct text *t, const struct az_fit *f, const struct az_fit_out *o,
                     char *err, size_t errlen)
{
    char path[4200], perr[CM_ERR_LEN];
    int have_iodist = f->m.have_table[0] || f->m.have_table[1];
    struct ld_iodist d;
    struct ld_mix mix;
    int rc;

    /* the mix, read back by the load layer's parser */
    mix_text(t, f, o->trace);
    snprintf(path, sizeof(path), "%s.mix", o->name);
    if (ld_mix_parse(&mix, f->m.nfs_version, path, t->buf, t->len, NULL, perr,
                     sizeof(perr)) < 0)
        return cm_errf(err, errlen, "the fitted mix does not read back: %s", perr),
               -EINVAL;
    if ((rc = write_file(path, t, err, errlen)) < 0)
        return rc;
    if (have_iodist) {
        memset(t, 0, sizeof(*t));
        iodist_text(t, f, o->trace);
        snprintf(path, sizeof(path), "%s.iodist", o->name);
        if (ld_iodist_parse(&d, f->m.kb_per_block, path, t->buf, t->len, NULL, perr,
                            sizeof(perr)) < 0)
            return cm_errf(err, errlen, "the fitted block sizes do not read back: %s",
                           perr),
                   -EINVAL;
        if ((rc = write_file(path, t, err, errlen)) < 0)
            return rc;
    }
    memset(t, 0, sizeof(*t));
    rc_text(t, f, o, have_iodist);
    snprintf(path, sizeof(path), "%s_rc", o->name);
    return write_file(path, t, err, errlen);
}

int az_fit_write(const struct az_fit *f, const struct az_fit_out *o, char *err,
                 size_t errlen)
{
    struct text *t = cm_calloc(1, sizeof(*t)); /* 16 KiB: not on the stack */
    int rc;

    if (!t)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    rc = write_all(t, f, o, err, errlen);
    free(t);
    return rc;
}
