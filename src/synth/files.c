/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * files.c - the child's file table and its file choices (files.h;
 * docs/SFS30.md §2.4, §7; docs/DECISIONS.md D6).  Pure bookkeeping: no sockets,
 * one allocation at init, the picks are bounded scans of one working-set
 * group (about 81 files) or one category, so a pick costs the same whatever
 * the load.  ops.c updates the table from the server's answers.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/files.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/rng.h"

#define BLOCK_BYTES   8192u /* overwrite offsets are 8 KB aligned (docs/SFS30.md §3) */
#define GENERATIONS   12u   /* D5: groups k, k+12, k+24... share a generation */
#define NONIO_PER_DIR 4u    /* non-io slots (and symlinks) per directory */

static const char *const name_fmt[4] = {"file_en.%05u", "file_en.%05u", "symlink.%05u",
                                        "dir_ent.%05u"};

int sy_files_init(struct sy_files *t, const struct sy_files_layout *lay, char *err,
                  size_t errlen)
{
    uint32_t i, k, n, stride, ndir;

    memset(t, 0, sizeof(*t));
    if (lay->n_io == 0 || lay->n_working == 0 || lay->n_working > lay->n_io ||
        lay->n_dir == 0 || lay->files_per_dir == 0)
        return cm_errf(err, errlen,
                       "file table: impossible layout (io %u, working %u, dirs %u)",
                       lay->n_io, lay->n_working, lay->n_dir);
    ndir = lay->n_dir + lay->n_spare_dir;
    n = lay->n_io + lay->n_nonio + lay->n_symlink + ndir;
    t->f = cm_calloc(n, sizeof(*t->f));
    t->ws = cm_calloc(lay->n_working, sizeof(*t->ws));
    if (t->f == NULL || t->ws == NULL) {
        sy_files_free(t);
        cm_errf(err, errlen, "file table: out of memory for %u entries", n);
        return -ENOMEM;
    }
    t->n = n;
    t->n_holding = lay->n_dir;
    t->n_working = lay->n_working;
    t->files_per_dir = lay->files_per_dir;
    t->append_pcnt = lay->append_pcnt;
    t->delta_pcnt = lay->delta_pcnt;
    t->first[SY_CAT_DIR] = 0;
    t->count[SY_CAT_DIR] = ndir;
    t->first[SY_CAT_IO] = ndir;
    t->count[SY_CAT_IO] = lay->n_io;
    t->first[SY_CAT_NONIO] = ndir + lay->n_io;
    t->count[SY_CAT_NONIO] = lay->n_nonio;
    t->first[SY_CAT_SYMLINK] = ndir + lay->n_io + lay->n_nonio;
    t->count[SY_CAT_SYMLINK] = lay->n_symlink;

    for (i = 0; i < n; i++) {
        struct sy_file *f = &t->f[i];
        f->unique = i;
        f->state = SY_NONEXISTENT;
        if (i < ndir) {
            f->cat = SY_CAT_DIR;
            f->parent = SY_NO_PARENT;
            f->spare = i >= lay->n_dir;
        } else if (i < t->first[SY_CAT_NONIO]) {
            f->cat = SY_CAT_IO;
            f->parent = ((i - ndir) / lay->files_per_dir) % lay->n_dir;
        } else {
            /* NONIO_PER_DIR names share a dir, so that a rename always has
             * a free target next to its source */
            f->cat = i < t->first[SY_CAT_SYMLINK] ? SY_CAT_NONIO : SY_CAT_SYMLINK;
            f->parent = ((i - t->first[f->cat]) / NONIO_PER_DIR) % lay->n_dir;
        }
    }
    /* Every k-th io file is a working file, so the working set covers the
     * whole tree (and every holding dir sees readdirs). */
    stride = lay->n_io / lay->n_working;
    for (k = 0; k < lay->n_working; k++) {
        uint32_t idx = t->first[SY_CAT_IO] + k * stride;
        t->ws[k] = idx;
        t->f[idx].working = 1;
    }
    return 0;
}

void sy_files_free(struct sy_files *t)
{
    free(t->f);
    free(t->ws);
    t->f = NULL;
    t->ws = NULL;
    t->n = 0;
}

void sy_files_name(const struct sy_files *t, uint32_t i, char *buf, size_t len)
{
    snprintf(buf, len, name_fmt[t->f[i].cat], t->f[i].unique);
}

/* ---- accessed-set accounting (docs/SFS30.md §5.2, D6) ------------------ */

void sy_files_reset_accounting(struct sy_files *t)
{
    uint64_t base = 0, cur = 0;
    uint32_t k;

    for (k = 0; k < t->n_working; k++) {
        base += t->f[t->ws[k]].init_size;
        cur += t->f[t->ws[k]].size;
    }
    t->base_bytes = base;
    t->limit_bytes = base + base * t->delta_pcnt / 100;
    t->cur_bytes = cur;
    t->least_bytes = cur;
    t->most_bytes = cur;
}

void sy_files_set_size(struct sy_files *t, uint32_t i, uint64_t size)
{
    struct sy_file *f = &t->f[i];

    if (f->working) {
        t->cur_bytes = t->cur_bytes - f->size + size;
        if (t->cur_bytes < t->least_bytes)
            t->least_bytes = t->cur_bytes;
        if (t->cur_bytes > t->most_bytes)
            t->most_bytes = t->cur_bytes;
    }
    f->size = size;
}

/* ---- io choice (D6) ----------------------------------------------------- */

/* Best fit inside one group, scanning from start and wrapping: the smallest
 * size >= len, the first of equals in scan order.  Also tracks the largest
 * file for the no-fit case.  Returns the entry or SY_NO_FILE. */
static uint32_t fit_in_group(const struct sy_files *t, const struct sy_group_span *gs,
                             uint32_t start, uint64_t len, uint32_t *largest)
{
    uint32_t best = SY_NO_FILE, k;
    uint64_t best_size = UINT64_MAX;

    for (k = 0; k < gs->count; k++) {
        uint32_t idx = t->ws[gs->first + (start + k) % gs->count];
        uint64_t sz = t->f[idx].size;

        if (sz >= len && sz < best_size) {
            best = idx;
            best_size = sz;
            if (sz == len)
                break; /* nothing can fit better */
        }
        if (*largest == SY_NO_FILE || sz > t->f[*largest].size)
            *largest = idx;
    }
    return best;
}

static uint32_t random_in_group(const struct sy_files *t, const struct sy_group_span *gs,
                                struct cm_rng *rng, uint32_t *start)
{
    *start = cm_rng_below(rng, gs->count);
    return t->ws[gs->first + *start];
}

static uint64_t aligned_offset(uint64_t size, uint32_t len, struct cm_rng *rng)
{
    uint64_t blocks;

    if (size <= len)
        return 0;
    blocks = (size - len) / BLOCK_BYTES + 1;
    return (uint64_t)BLOCK_BYTES * cm_rng_below(rng, (uint32_t)blocks);
}

void sy_files_pick_io(struct sy_files *t, const struct sy_group_span *groups,
                      uint32_t ngroups, uint32_t g, int is_write, uint32_t len,
                      struct cm_rng *rng, struct sy_io_pick *out)
{
    uint32_t start, first, pick, largest = SY_NO_FILE, h;

    memset(out, 0, sizeof(*out));
    first = random_in_group(t, &groups[g], rng, &start);
    out->len = len;
    if (is_write && cm_rng_below(rng, 100) < t->append_pcnt &&
        t->cur_bytes + len <= t->limit_bytes) {
        out->file = first;
        out->append = 1;
        out->offset = t->f[first].size;
        return;
    }
    pick = fit_in_group(t, &groups[g], start, len, &largest);
    /* The same generation's other groups, nearest cycle first. */
    for (h = g % GENERATIONS; pick == SY_NO_FILE && h < ngroups; h += GENERATIONS) {
        if (h == g || groups[h].count == 0)
            continue;
        pick = fit_in_group(t, &groups[h], cm_rng_below(rng, groups[h].count), len,
                            &largest);
    }
    if (pick == SY_NO_FILE) {
        t->nofit++;
        out->nofit = 1;
        pick = largest;
        out->len = (uint32_t)t->f[pick].size;
    }
    out->file = pick;
    out->offset = aligned_offset(t->f[pick].size, out->len, rng);
    /* D6: a working io file; an overwrite or read stays inside it, at an
     * 8 KB aligned offset */
    assert(t->f[pick].cat == SY_CAT_IO && t->f[pick].working);
    assert(out->offset % BLOCK_BYTES == 0 && out->offset + out->len <= t->f[pick].size);
}

uint32_t sy_files_pick_working(const struct sy_files *t,
                               const struct sy_group_span *groups, uint32_t g,
                               struct cm_rng *rng)
{
    uint32_t start;

    return random_in_group(t, &groups[g], rng, &start);
}

static uint32_t grown_in_group(const struct sy_files *t, const struct sy_group_span *gs,
                               struct cm_rng *rng)
{
    uint32_t start, k;

    if (gs->count == 0)
        return SY_NO_FILE;
    start = cm_rng_below(rng, gs->count);
    for (k = 0; k < gs->count; k++) {
        uint32_t idx = t->ws[gs->first + (start + k) % gs->count];
        if (t->f[idx].size > t->f[idx].init_size)
            return idx;
    }
    return SY_NO_FILE;
}

uint32_t sy_files_pick_truncate(const struct sy_files *t,
                                const struct sy_group_span *groups, uint32_t ngroups,
                                uint32_t g, struct cm_rng *rng)
{
    uint32_t h, pick;

    if (t->cur_bytes <= t->base_bytes)
        return SY_NO_FILE;
    pick = grown_in_group(t, &groups[g], rng);
    for (h = g % GENERATIONS; pick == SY_NO_FILE && h < ngroups; h += GENERATIONS)
        if (h != g)
            pick = grown_in_group(t, &groups[h], rng);
    return pick;
}

/* ---- namespace picks ---------------------------------------------------- */

/* Entry k of the candidates in the scan: all of the category, or (when a
 * parent is given) only the slots of that directory, which the layout puts
 * in blocks of NONIO_PER_DIR at blocks parent, parent + n_holding, ...
 * (sy_files_init), so a rename target costs a scan of one directory, not
 * of the whole category.  Returns an offset >= cnt for a hole at the end. */
static uint32_t candidate(const struct sy_files *t, uint32_t parent, uint32_t k)
{
    if (parent == SY_NO_FILE)
        return k;
    return NONIO_PER_DIR * (parent + k / NONIO_PER_DIR * t->n_holding) +
           k % NONIO_PER_DIR;
}

uint32_t sy_files_pick(struct sy_files *t, enum sy_cat cat, enum sy_state want,
                       uint32_t parent, struct cm_rng *rng)
{
    uint32_t base = t->first[cat], cnt = t->count[cat], ncand, start, k, any = SY_NO_FILE;

    if (cat == SY_CAT_DIR) { /* only the spare dirs are mkdir/rmdir targets */
        base += t->n_holding;
        cnt -= t->n_holding;
        parent = SY_NO_FILE; /* they all live in the testdir */
    }
    ncand = cnt;
    if (parent != SY_NO_FILE) {
        uint32_t nblocks = (cnt + NONIO_PER_DIR - 1) / NONIO_PER_DIR;
        ncand = parent < nblocks
                    ? ((nblocks - 1 - parent) / t->n_holding + 1) * NONIO_PER_DIR
                    : 0;
    }
    if (ncand == 0)
        return SY_NO_FILE;
    start = cm_rng_below(rng, ncand);
    for (k = 0; k < ncand; k++) {
        uint32_t j = candidate(t, parent, (start + k) % ncand);
        if (j >= cnt)
            continue;
        assert(t->f[base + j].cat == cat && (cat != SY_CAT_DIR || t->f[base + j].spare));
        if (t->f[base + j].state == want)
            return base + j;
        if (any == SY_NO_FILE)
            any = base + j;
    }
    if (any != SY_NO_FILE)
        t->nopick++;
    return any;
}
