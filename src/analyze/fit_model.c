/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit_model.c - the SFS model fitted to what a trace's pass gathered
 * (az_fit.h):
 *
 *  - the NFS version and transport most calls used; the calls of ops that
 *    version lacks, MOUNT's and NFSv4's are not mapped (noted);
 *  - KB per block: the size of the calls that are followed by another
 *    call of their request (full blocks), else the largest call, in whole
 *    KB, at most SFS's 8;
 *  - the block-size rows: each request as whole blocks and a fragment
 *    flag (SFS draws a fragment's size itself), at most 64 blocks and 32
 *    rows, in whole percents (largest remainder; rows under half a percent
 *    go);
 *  - the mix: the calls the model makes for the trace's requests (a
 *    request of n blocks and a fragment is n + 1 calls: the trace's own
 *    calls when they are whole blocks), in whole percents of the mapped
 *    ops (ops under half a percent go);
 *  - LOAD: those calls per second of the trace; clients: the client hosts;
 *    processes: the streams per host; biods: the most calls of a kind in
 *    flight in a stream that at least 1 % of its calls saw;
 *  - the file set (docs/sfs.md, sizing): the regular files holding data
 *    at the start (from the image: READDIRPLUS, LOOKUP and attributes),
 *    their share the working-set ops touched, files per directory,
 *    symlinks; inverted through SFS's per-process formulas (io files
 *    F / P + 1 per process, a working set of io x A / 100 + 1);
 *  - appends among the writes whose file's size was known before them,
 *    and the stable writes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_fit.h"
#include "common/alloc.h"
#include "load/workset.h"

#define KB             1024u
#define SFS_MAX_BLOCK  8u   /* KB: -B's range is 1..8 */
#define SFS_MAX_BLOCKS 64   /* blocks a block-size row may name (iodist.c) */
#define BIOD_SHARE     0.01 /* calls that must have seen a depth */
#define BIOD_MAX       32

void az_fit_note(struct az_fit_model *m, const char *fmt, ...)
{
    va_list ap;

    if (m->nnotes >= AZ_FIT_NOTES_MAX) {
        m->notes_more++;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(m->notes[m->nnotes++], sizeof(m->notes[0]), fmt, ap);
    va_end(ap);
}

void az_fit_percents(const double *v, unsigned n, int *pct)
{
    double sum = 0, frac[64];
    int acc = 0;
    unsigned i;

    for (i = 0; i < n; i++)
        sum += v[i] > 0 ? v[i] : 0;
    for (i = 0; i < n; i++) {
        double x = sum > 0 && v[i] > 0 ? v[i] / sum * 100 : 0;
        pct[i] = (int)floor(x);
        frac[i < 64 ? i : 63] = x - floor(x);
        acc += pct[i];
    }
    /* the missing points to the largest remainders; remainders equal but
     * for rounding are a tie, won by the larger value, then the first */
    while (sum > 0 && acc < 100) {
        unsigned best = 0;
        for (i = 1; i < n && i < 64; i++)
            if (frac[i] > frac[best] + 1e-9 ||
                (frac[i] > frac[best] - 1e-9 && v[i] > v[best]))
                best = i;
        pct[best]++;
        frac[best] = -1;
        acc++;
    }
}

/* ---- block size and rows ----------------------------------------------------- */

static uint32_t block_kb(struct az_fit *f)
{
    const struct az_fit_sizes *s = &f->c.full;
    uint64_t best = 0, n = 0, bytes;
    uint32_t i, kb;

    for (i = 0; i < s->n; i++)
        if (s->count[i] > n || (s->count[i] == n && s->bytes[i] > best)) {
            n = s->count[i];
            best = s->bytes[i];
        }
    bytes = best                                  ? best
            : f->c.max_call[0] > f->c.max_call[1] ? f->c.max_call[0]
                                                  : f->c.max_call[1];
    if (bytes == 0)
        return SFS_MAX_BLOCK; /* no READ or WRITE: SFS's default */
    if (bytes % KB)
        az_fit_note(&f->m,
                    "calls of %llu bytes are not whole KB: blocks of %llu KB, the "
                    "rest of a request as SFS's fragment",
                    (unsigned long long)bytes, (unsigned long long)(bytes / KB));
    kb = (uint32_t)((bytes + KB / 2) / KB);
    if (kb > SFS_MAX_BLOCK) {
        az_fit_note(&f->m,
                    "READ/WRITE calls of %u KB: SFS's largest block is %u KB, so each "
                    "becomes %u calls (the same bytes, more calls)",
                    kb, SFS_MAX_BLOCK, (kb + SFS_MAX_BLOCK - 1) / SFS_MAX_BLOCK);
        kb = SFS_MAX_BLOCK;
    }
    return kb ? kb : 1;
}

struct row {
    int blocks, frag;
    uint64_t n;
};

static int row_cmp(const void *a, const void *b)
{
    const struct row *x = a, *y = b;

    if (x->blocks != y->blocks)
        return x->blocks < y->blocks ? -1 : 1;
    return x->frag - y->frag;
}

/* The rows of kind k (0 READ, 1 WRITE) from the request sizes. */
static void rows_fit(struct az_fit *f, int k, uint32_t bb)
{
    static const char *const kind[2] = {"READ", "WRITE"};
    const struct az_fit_sizes *s = &f->c.sizes[k];
    struct ld_iodist_table *t = &f->m.table[k];
    struct row rows[SFS_MAX_BLOCKS * 2 + 2];
    uint64_t capped = 0, empty = 0, total = 0, gone = 0;
    double v[LD_IODIST_MAX_ROWS] = {0};
    int pct[LD_IODIST_MAX_ROWS];
    unsigned nrows = 0, i, j;

    memset(t, 0, sizeof(*t));
    for (i = 0; i < s->n; i++) {
        int blocks = (int)(s->bytes[i] / bb), frag = s->bytes[i] % bb != 0;
        if (s->bytes[i] == 0) {
            empty += s->count[i];
            continue;
        }
        if (s->bytes[i] / bb > SFS_MAX_BLOCKS) {
            capped += s->count[i];
            blocks = SFS_MAX_BLOCKS;
            frag = 0;
        }
        for (j = 0; j < nrows; j++)
            if (rows[j].blocks == blocks && rows[j].frag == frag)
                break;
        if (j == nrows) {
            rows[nrows].blocks = blocks;
            rows[nrows].frag = frag;
            rows[nrows++].n = 0;
        }
        rows[j].n += s->count[i];
        total += s->count[i];
        /* the calls SFS makes for it: its blocks and a fragment */
        f->m.model_calls[k ? NF_OP_WRITE : NF_OP_READ] +=
            (double)s->count[i] * (blocks + frag);
    }
    if (empty)
        az_fit_note(&f->m, "%llu %s requests of 0 bytes: left out",
                    (unsigned long long)empty, kind[k]);
    if (capped)
        az_fit_note(&f->m,
                    "%llu %s requests of more than %d blocks (%u KB): cut to %d blocks "
                    "(SFS's largest row)",
                    (unsigned long long)capped, kind[k], SFS_MAX_BLOCKS,
                    SFS_MAX_BLOCKS * bb / KB, SFS_MAX_BLOCKS);
    if (total == 0)
        return;
    /* more rows than a block-size file holds: the rarest go to their
     * neighbour in size */
    while (nrows > LD_IODIST_MAX_ROWS) {
        unsigned least = 0, into;
        for (i = 1; i < nrows; i++)
            if (rows[i].n < rows[least].n)
                least = i;
        qsort(rows, nrows, sizeof(rows[0]), row_cmp);
        for (i = 0; i < nrows; i++)
            if (rows[i].n == rows[least].n)
                break;
        least = i;
        into = least + 1 < nrows ? least + 1 : least - 1;
        rows[into].n += rows[least].n;
        gone += rows[least].n;
        memmove(rows + least, rows + least + 1, (nrows - least - 1) * sizeof(rows[0]));
        nrows--;
    }
    if (gone)
        az_fit_note(&f->m,
                    "%llu %s requests in rows past the %d a block-size file holds: "
                    "counted in the next larger row",
                    (unsigned long long)gone, kind[k], LD_IODIST_MAX_ROWS);
    qsort(rows, nrows, sizeof(rows[0]), row_cmp);
    for (i = 0; i < nrows; i++)
        v[i] = (double)rows[i].n;
    az_fit_percents(v, nrows, pct);
    gone = 0;
    for (i = 0; i < nrows; i++) {
        if (pct[i] == 0) {
            gone += rows[i].n;
            continue;
        }
        t->row[t->nrows].pct = pct[i];
        t->row[t->nrows].blocks = rows[i].blocks;
        t->row[t->nrows].frag = rows[i].frag;
        f->m.trace_row_pct[k][t->nrows] = 100.0 * (double)rows[i].n / (double)total;
        t->nrows++;
    }
    if (gone)
        az_fit_note(&f->m,
                    "%llu %s requests (%.2f %%) in sizes under half a percent each: "
                    "left out of the block-size rows",
                    (unsigned long long)gone, kind[k],
                    100.0 * (double)gone / (double)total);
    /* the percents of the rows kept sum to 100 again */
    for (i = 0; i < (unsigned)t->nrows; i++)
        v[i] = (double)t->row[i].pct;
    az_fit_percents(v, t->nrows, pct);
    for (i = 0; i < (unsigned)t->nrows; i++) {
        int calls = t->row[i].blocks + (t->row[i].frag ? 1 : 0);
        t->row[i].pct = pct[i];
        t->cum[i] = (i ? t->cum[i - 1] : 0) + pct[i];
        t->calls_per_req += pct[i] * calls / 100.0;
        if (t->row[i].blocks > t->max_blocks)
            t->max_blocks = t->row[i].blocks;
    }
    f->m.have_table[k] = t->nrows > 0;
}

/* ---- the mix ----------------------------------------------------------------- */

/* The notes of an NFSv4 trace (fit_v4.c): how its COMPOUNDs were mapped
 * and what was not; reader_v4 is the reader's count of NFSv4 calls.
 * Returns the calls left out of the mix. */
static uint64_t v4_notes(struct az_fit *f, uint64_t reader_v4)
{
    struct az_fit_model *m = &f->m;
    const struct az_fit_counts *c = &f->c;
    uint64_t out = c->v4_opens + c->v4_closes + c->v4_unmapped_other, more = 0;
    char names[200] = "";
    uint32_t i;

    if (c->v4_compounds)
        az_fit_note(m,
                    "%llu NFSv4 calls (4.0: %llu, 4.1: %llu, 4.2: %llu COMPOUNDs) mapped "
                    "by their leading operation onto the NFSv3 SFS ops (docs/nfsv4.md): "
                    "%llu mapped; the fitted run speaks NFSv3",
                    (unsigned long long)c->v4_compounds,
                    (unsigned long long)c->v4_minor[0],
                    (unsigned long long)c->v4_minor[1],
                    (unsigned long long)c->v4_minor[2], (unsigned long long)c->v4_mapped);
    if (c->v4_opens || c->v4_closes)
        az_fit_note(m,
                    "%llu OPENs of existing files and %llu CLOSEs: the state a v4 client "
                    "keeps around its READs and WRITEs, which SFS's ops do not have: not "
                    "in the mix",
                    (unsigned long long)c->v4_opens, (unsigned long long)c->v4_closes);
    if (c->v4_getattrs)
        az_fit_note(m,
                    "%llu GETATTR COMPOUNDs: all getattr (fsstat, fsinfo and pathconf "
                    "are GETATTRs of other attributes, not told apart)",
                    (unsigned long long)c->v4_getattrs);
    for (i = 0; i < c->nv4_unmapped; i++) {
        out += c->v4_unmapped[i].n;
        if (strlen(names) + strlen(c->v4_unmapped[i].name) + 24 < sizeof(names))
            snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s %llu",
                     names[0] ? ", " : "", c->v4_unmapped[i].name,
                     (unsigned long long)c->v4_unmapped[i].n);
        else
            more += c->v4_unmapped[i].n;
    }
    more += c->v4_unmapped_other;
    if (c->nv4_unmapped)
        az_fit_note(m, "%llu NFSv4 COMPOUNDs with no SFS op: %s%s%.0llu",
                    (unsigned long long)(out - c->v4_opens - c->v4_closes), names,
                    more ? ", others " : "", (unsigned long long)more);
    if (reader_v4 > c->v4_compounds) {
        az_fit_note(m, "%llu NFSv4 calls not decoded: not mapped",
                    (unsigned long long)(reader_v4 - c->v4_compounds));
        out += reader_v4 - c->v4_compounds;
    }
    return out;
}

static void mix_fit(struct az_fit *f, const struct tr_nfs_reader *r)
{
    struct az_fit_model *m = &f->m;
    const struct az_fit_counts *c = &f->c;
    uint64_t foreign = 0, small = 0, v4 = r ? tr_nfs_counter(r, "nfsv4_calls") : 0;
    double v[NF_NOPS];
    char names[256] = "";
    int op;

    for (op = 0; op < NF_NOPS; op++) {
        v[op] = 0;
        if (!nf_op_in_version(op, m->nfs_version)) {
            foreign += c->calls[op];
            continue;
        }
        /* READ and WRITE: the calls SFS makes for the trace's requests
         * (rows_fit), the trace's own when its calls are whole blocks */
        if (op != NF_OP_READ && op != NF_OP_WRITE)
            m->model_calls[op] = (double)c->calls[op];
        v[op] = m->model_calls[op];
        m->mapped_calls += c->calls[op];
    }
    for (op = 0; op < NF_NOPS; op++)
        m->trace_pct[op] = m->mapped_calls && nf_op_in_version(op, m->nfs_version)
                               ? 100.0 * (double)c->calls[op] / (double)m->mapped_calls
                               : 0;
    az_fit_percents(v, NF_NOPS, m->pct);
    for (op = 0; op < NF_NOPS; op++)
        if (v[op] > 0 && m->pct[op] == 0) {
            small += c->calls[op];
            snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
                     names[0] ? ", " : "", nf_op_name(op));
        }
    if (small)
        az_fit_note(m,
                    "%llu calls of ops under half a percent each (%s): 0 %% in the mix",
                    (unsigned long long)small, names);
    if (foreign)
        az_fit_note(m, "%llu calls of ops NFSv%d lacks: not mapped",
                    (unsigned long long)foreign, m->nfs_version);
    if (c->by_version[m->nfs_version == 3 ? 2 : 3])
        az_fit_note(m, "%llu NFSv%d calls beside the NFSv%d ones: mapped by op",
                    (unsigned long long)c->by_version[m->nfs_version == 3 ? 2 : 3],
                    m->nfs_version == 3 ? 2 : 3, m->nfs_version);
    if (c->mount_calls)
        az_fit_note(m,
                    "%llu MOUNT calls: not in SFS's mix (its processes mount once, "
                    "before the load)",
                    (unsigned long long)c->mount_calls);
    m->unmapped_calls = foreign + c->mount_calls + v4_notes(f, v4);
}

/* ---- clients, processes, biods ---------------------------------------------------- */

static void streams_fit(struct az_fit *f)
{
    struct az_fit_model *m = &f->m;
    uint32_t i, j, clients = 0;
    int k;

    for (i = 0; i < f->streams_cap; i++) {
        int seen = 0;
        if (!f->streams[i].used || !f->streams[i].calls)
            continue;
        m->streams++;
        for (j = 0; j < i && !seen; j++)
            seen = f->streams[j].used && f->streams[j].calls &&
                   f->streams[j].client == f->streams[i].client;
        clients += !seen;
    }
    m->clients = clients ? clients : 1;
    m->procs = (m->streams + m->clients - 1) / m->clients;
    if (m->procs == 0)
        m->procs = 1;
    for (k = 0; k < 2; k++) {
        uint64_t calls = 0, above = 0;
        int d, *out = k ? &m->biod_writes : &m->biod_reads;
        for (d = 0; d <= AZ_FIT_FLIGHT_MAX; d++)
            calls += f->c.flight[k][d];
        *out = -1; /* not measured: SFS's default stays */
        for (d = AZ_FIT_FLIGHT_MAX; d >= 1 && calls; d--) {
            above += f->c.flight[k][d];
            if ((double)above >= BIOD_SHARE * (double)calls) {
                *out = d > BIOD_MAX ? BIOD_MAX : d;
                break;
            }
        }
    }
    if (f->streams_dropped)
        az_fit_note(m, "%llu calls of streams past the %u followed: not grouped",
                    (unsigned long long)f->streams_dropped, AZ_FIT_STREAMS_MAX);
}

/* ---- the file set ------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* The most common of n counts (sorted in place; ties: the larger). */
static int count_mode(uint64_t *v, uint64_t n)
{
    uint64_t mode = 0, mode_n = 0, run = 0, i;

    qsort(v, n, sizeof(v[0]), cmp_u64);
    for (i = 0; i < n; i++) {
        run = i && v[i] == v[i - 1] ? run + 1 : 1;
        if (run > mode_n || (run == mode_n && v[i] > mode)) {
            mode_n = run;
            mode = v[i];
        }
    }
    return mode ? (int)mode : 30; /* SFS's default when no directory shows */
}

/* Whether the image's object id was listed whole. */
static int listed(const struct az_fit *f, uint32_t id)
{
    struct nf_fh fh;

    im_fh(f->img, id, &fh);
    return fh.len && im_fhmap_id(f->listed, &fh, 0, NULL) >= 0;
}

/* The files holding data at the start (docs/sfs_trace.md, "fit"): those
 * of the directories listed whole; in a directory that holds some but was
 * never listed, as many as the listed ones hold on average; and for the
 * files whose directory the trace never showed (used by their handles
 * alone), the files of such directories, a file used standing for as many
 * as the listed directories hold per file used.  counts: a directory's
 * files holding data, used: of which the working-set ops used, kind: 2
 * for a directory listed whole, by object id of n; nodir, nodir_used: the
 * files without a directory. */
static void file_set(struct az_fit *f, const uint32_t *counts, const uint32_t *used,
                     const uint8_t *kind, uint32_t n, uint64_t nodir)
{
    struct az_fit_model *m = &f->m;
    uint64_t in_listed = 0, used_listed = 0, *seen, nseen = 0;
    double mean, est = 0;
    uint32_t i;

    for (i = 0; i < n; i++)
        if (counts[i] && kind[i] == 2) {
            m->dirs_listed++;
            in_listed += counts[i];
            used_listed += used[i];
        }
    mean = m->dirs_listed ? (double)in_listed / (double)m->dirs_listed : 0;
    for (i = 0; i < n; i++)
        if (counts[i]) {
            m->dirs_with_files++;
            est += kind[i] == 2 || counts[i] >= mean ? counts[i] : mean;
        }
    est += used_listed ? (double)nodir * (double)in_listed / (double)used_listed
                       : (double)nodir;
    m->files_at_start = (uint64_t)llround(est);
    /* files per directory: the most common count over the listed ones */
    seen = cm_calloc(m->dirs_with_files ? m->dirs_with_files : 1, sizeof(*seen));
    for (i = 0; seen && i < n; i++)
        if (counts[i] && (kind[i] == 2 || !m->dirs_listed))
            seen[nseen++] = counts[i];
    m->dir_count = seen ? count_mode(seen, nseen) : 30;
    free(seen);
}

/* The distinct files a working set of w files gives in n picks by SFS's
 * cyclical Poisson groups (load/workset.h: 12 x cycles groups of w / G
 * files, generation k drawn with weight k of the 12, every cycle alike). */
static double sfs_distinct(double w, double n)
{
    const uint32_t *wt = ld_workset_weights();
    double cycles = floor(w / LD_WS_FILES_AT_25 + 0.5), size, sum = 0;
    unsigned g;

    if (cycles < 1)
        cycles = 1;
    size = w / (LD_WS_GENERATIONS * cycles);
    for (g = 0; g < LD_WS_GENERATIONS; g++) {
        double p = wt[g] / (LD_PROB_SCALE * cycles) / (size < 1 ? 1 : size);
        sum += cycles * size * (1 - pow(1 - (p > 1 ? 1 : p), n));
    }
    return sum;
}

/* The working set, in files of all processes: the one SFS's groups need to
 * touch the files the trace's working-set ops touched in as many picks (a
 * pick: a request's file), each process alike; at least the files
 * touched, at most four times the file set (touches that never repeat
 * cannot tell a size).  The file set is at least the working set. */
static void working_set(struct az_fit *f)
{
    struct az_fit_model *m = &f->m;
    double kids = (double)m->clients * m->procs;
    double t = (double)m->picked / kids, n = (double)m->picks / kids;
    double lo = t, hi = 4.0 * ((double)m->files_at_start / kids > t
                                   ? (double)m->files_at_start / kids
                                   : t);
    int i;

    if (t <= 0) { /* no uniform pick: the files used are all that is known */
        m->working_set = (double)m->files_touched;
        return;
    }
    if (sfs_distinct(hi, n) < t) {
        az_fit_note(m,
                    "%.0f pick%s of %" PRIu64 " file%s rarely repeat%s: the working "
                    "set is taken as %.0f files, four times the file set",
                    (double)m->picks, m->picks == 1 ? "" : "s", m->picked,
                    m->picked == 1 ? "" : "s", m->picks == 1 ? "s" : "", hi * kids);
        lo = hi;
    }
    for (i = 0; i < 60 && hi - lo > 0.5; i++) {
        double mid = (lo + hi) / 2;
        if (sfs_distinct(mid, n) < t)
            lo = mid;
        else
            hi = mid;
    }
    m->working_set = lo * kids;
    if (m->working_set < (double)m->files_touched)
        m->working_set = (double)m->files_touched;
    if (m->working_set > (double)m->files_at_start) {
        az_fit_note(m,
                    "the working set the touches imply (%.0f files) is larger than the "
                    "file set the trace showed (%" PRIu64 "): the file set is taken as "
                    "large as the working set",
                    m->working_set, m->files_at_start);
        m->files_at_start = (uint64_t)llround(m->working_set);
    }
}

static int files_fit(struct az_fit *f)
{
    struct az_fit_model *m = &f->m;
    uint32_t n = im_nobjs(f->img), i, ntouched = im_fhmap_count(f->touched);
    /* per object: 1 a file holding data at the start, 2 a directory listed
     * whole; counts: a directory's files holding data, or a file's touches */
    uint8_t *kind = cm_calloc(n ? n : 1, 1);
    uint32_t *counts = cm_calloc(n ? n : 1, sizeof(uint32_t)), *touches = NULL;
    uint32_t *used = cm_calloc(n ? n : 1, sizeof(uint32_t));
    uint64_t unknown = 0, unsized = 0, nodir = 0, indirs = 0, created = 0;
    double per_client, procs = m->procs;

    if (!kind || !counts || !used ||
        !(touches = cm_calloc(n ? n : 1, sizeof(uint32_t)))) {
        free(kind);
        free(counts);
        free(used);
        return -ENOMEM;
    }
    for (i = 0; i < n; i++) {
        const struct im_obj *o = im_obj(f->img, i);
        if (o->flags & IM_O_DEAD)
            continue;
        if (o->type == TR_NFS_DIR && listed(f, i))
            kind[i] = 2;
        if (!(o->flags & IM_O_AT_START)) {
            if (o->type == TR_NFS_REG && (o->flags & IM_O_CREATED) && o->size_max > 0)
                created++;
            continue;
        }
        if (o->type == TR_NFS_LNK)
            m->symlinks++;
        else if (o->type == TR_NFS_REG && o->size == 0) {
            if (o->flags & IM_O_SIZE_EXACT)
                m->empty_files++;
            else
                unsized++;
        } else if (o->type == TR_NFS_REG) {
            kind[i] = 1;
            m->bytes_at_start += o->size;
        } else if (o->type == TR_NFS_NONE)
            unknown++;
    }
    /* the touches of each file holding data (a file may have several
     * handles the trace used) */
    for (i = 0; i < ntouched; i++) {
        struct nf_fh fh;
        uint32_t id;
        im_fhmap_get(f->touched, i, &fh);
        id = im_find(f->img, &fh);
        if (id != IM_NONE_ID && kind[id] == 1) {
            uint32_t p = i < f->touches_cap ? f->touches[i] : 0;
            /* the top bit: used at all; the rest: its picks */
            touches[id] = (touches[id] | 0x80000000u) +
                          (p < 0x7fffffffu - (touches[id] & 0x7fffffffu) ? p : 0);
        }
    }
    for (i = 0; i < n; i++) {
        const struct im_obj *o = im_obj(f->img, i);
        uint32_t dir;
        if (touches[i]) {
            m->files_touched++;
            m->picked += (touches[i] & 0x7fffffffu) > 0;
            m->picks += touches[i] & 0x7fffffffu;
        }
        if (kind[i] != 1)
            continue;
        if (o->parent_link == IM_NONE_ID) {
            nodir++;
            continue;
        }
        dir = im_link(f->img, o->parent_link)->dir;
        counts[dir]++;
        used[dir] += touches[i] != 0;
        indirs++;
    }
    m->files_known = nodir + indirs;
    file_set(f, counts, used, kind, n, nodir);
    free(kind);
    free(counts);
    free(used);
    free(touches);
    if (m->files_known == 0 && !unknown && created) {
        az_fit_note(m,
                    "no file held data at the start: the %llu files the trace created "
                    "and wrote taken for the file set",
                    (unsigned long long)created);
        m->files_at_start = m->files_known = created;
    } else if (m->files_known == 0 && unknown) {
        az_fit_note(m,
                    "no file's size was seen (READDIR without attributes?): the %llu "
                    "names of unknown type taken for the file set",
                    (unsigned long long)unknown);
        m->files_at_start = m->files_known = unknown;
    } else if (unknown)
        az_fit_note(m,
                    "%llu names of unknown type (listed, never looked at): left out "
                    "of the file set",
                    (unsigned long long)unknown);
    if (unsized)
        az_fit_note(m,
                    "%llu regular files whose size was never seen: left out of the "
                    "file set",
                    (unsigned long long)unsized);
    working_set(f);
    /* SFS gives each of P processes F / P + 1 io files and a working set of
     * io x A / 100 + 1 of them: F = files - P, A = (working - 1) / io */
    per_client = (double)m->files_at_start / m->clients;
    m->file_count = per_client > 2 * procs ? (int)lround(per_client - procs)
                                           : (int)lround(per_client);
    if (m->file_count < 1)
        m->file_count = 1;
    {
        double io = (double)(m->file_count / m->procs + 1);
        double w = m->working_set / (m->clients * procs);
        m->access_pct = (int)lround(100.0 * (w > 1 ? w - 1 : w) / io);
    }
    if (m->access_pct < 1)
        m->access_pct = 1;
    if (m->access_pct > 100)
        m->access_pct = 100;
    m->symlink_count = (double)m->symlinks / m->clients > 2 * procs
                           ? (int)lround((double)m->symlinks / m->clients - procs)
                           : (int)lround((double)m->symlinks / m->clients);
    return 0;
}

/* ---- the whole model ------------------------------------------------------------------
 */

int az_fit_model(struct az_fit *f, const struct tr_nfs_reader *r, int points)
{
    struct az_fit_model *m = &f->m;
    const struct az_fit_counts *c = &f->c;
    double model = 0, errors = 0;
    uint64_t writes_known;
    int op;

    memset(m, 0, sizeof(*m));
    m->nfs_version = c->by_version[2] > c->by_version[3] ? 2 : 3;
    m->tcp = c->tcp_calls > c->udp_calls;
    m->kb_per_block = block_kb(f);
    rows_fit(f, 0, m->kb_per_block * KB);
    rows_fit(f, 1, m->kb_per_block * KB);
    mix_fit(f, r);
    streams_fit(f);
    if (files_fit(f) < 0)
        return cm_errf(f->last_error, sizeof(f->last_error), "out of memory"), -ENOMEM;
    m->duration_s = c->any ? (double)(c->last_ns - c->first_ns) / 1e9 : 0;
    for (op = 0; op < NF_NOPS; op++) {
        model += m->model_calls[op];
        errors += (double)c->errors[op];
    }
    /* a trace shorter than a second counts as one (the rc comment says so):
     * its calls would otherwise ask for a rate no second of it showed */
    m->rate = model / (m->duration_s > 1 ? m->duration_s : 1);
    m->load = (int)lround(m->rate) > 0 ? (int)lround(m->rate) : 1;
    m->points = points > 0 ? points : 1;
    m->runtime_s = (int)ceil(m->duration_s) > 0 ? (int)ceil(m->duration_s) : 1;
    m->warmup_s = (m->runtime_s + 1) / 2 < 60 ? (m->runtime_s + 1) / 2 : 60;
    writes_known = c->requests[1] - c->append_unknown;
    m->append_pct = writes_known
                        ? (int)lround(100.0 * (double)c->appends / (double)writes_known)
                        : 70;
    m->stable_pct = c->calls[NF_OP_WRITE]
                        ? 100.0 * (double)c->stable_writes / (double)c->calls[NF_OP_WRITE]
                        : 0;
    if (c->append_unknown)
        az_fit_note(m,
                    "%llu WRITE requests to files whose size before them was never "
                    "seen: left out of the append share",
                    (unsigned long long)c->append_unknown);
    if (c->stable_writes)
        az_fit_note(m,
                    "%.1f %% of the WRITE calls were FILE_SYNC or DATA_SYNC: SFS writes "
                    "UNSTABLE and sends COMMITs (the mix's commit share)",
                    m->stable_pct);
    if (errors > 0)
        az_fit_note(m,
                    "%.0f error replies (%.1f %% of the calls): SFS's calls fail only by "
                    "its own rules (35 %% of its lookups ask for names that do not "
                    "exist)",
                    errors,
                    m->mapped_calls ? 100.0 * errors / (double)m->mapped_calls : 0);
    m->footprint_blocks = az_sd_unique(f->mrc->main.sd);
    m->references = f->mrc->main.total.references;
    return 0;
}
